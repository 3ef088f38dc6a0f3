//! Helpers shared by the pass tests written in Paddle's text.
#![allow(clippy::unwrap_used)] // a test fails loudly by design
#![allow(dead_code)] // each test file uses its own subset

use std::collections::{BTreeMap, HashMap};

use pir_core::builtin::StrAttr;
use pir_core::walk::Order;
use pir_core::{OpId, Program, ValueId};
use pir_eval::EvalTensor;
use pir_params::DType;
use pir_pass::manager::PassRecord;
use pir_pass::PassManager;

/// The program of `text`, in a context with every dialect.
pub fn parse(text: &str) -> Program {
    let ctx = pir_dialects::pd_op_context();
    Program::parse(&ctx, text).unwrap()
}

/// Runs `pipeline` on `p`, verifying after every pass and at the end;
/// returns what each pass recorded.
pub fn run_records(p: &mut Program, pipeline: &str) -> Vec<PassRecord> {
    let mut pm = PassManager::parse(pipeline).unwrap();
    pm.instrumentation.verify_each = true;
    let records = pm.run(p).unwrap();
    p.verify().unwrap();
    records
}

/// Runs `pipeline` on `p`, verifying after every pass.
pub fn run(p: &mut Program, pipeline: &str) {
    run_records(p, pipeline);
}

/// How many ops named `op` the printed program has.
pub fn count(p: &Program, op: &str) -> usize {
    p.to_string().matches(&format!("\"{op}\"")).count()
}

/// Runs `pipeline` on `p`, verifying after every pass; returns every
/// pass's counters.
pub fn run_pipeline(p: &mut Program, pipeline: &str) -> Vec<(&'static str, u64)> {
    run_records(p, pipeline)
        .iter()
        .flat_map(|r| r.statistics.entries().to_vec())
        .collect()
}

/// The sum of counter `name` over `stats`.
pub fn stat(stats: &[(&'static str, u64)], name: &str) -> u64 {
    stats
        .iter()
        .filter(|(k, _)| *k == name)
        .map(|(_, v)| v)
        .sum()
}

/// Runs the top block: `data` ops read `feeds` by name, parameters their
/// bound tensors, `batch_norm_` is computed here (inference formula), every
/// other op by the evaluator; returns what `pd_op.fetch` ops read, by name.
pub fn interpret(p: &Program, feeds: &[(&str, EvalTensor)]) -> BTreeMap<String, Vec<f64>> {
    let mut env: HashMap<ValueId, EvalTensor> = HashMap::new();
    // `builtin.combine` results: their elements, given in their place.
    let mut vectors: HashMap<ValueId, Vec<EvalTensor>> = HashMap::new();
    let mut fetched = BTreeMap::new();
    let ctx = p.ctx();
    let name_of = |op: OpId, attr: &str| -> String {
        let a = p.attr(op, attr).unwrap();
        ctx.attr_as::<StrAttr>(a).unwrap().0.to_string()
    };
    let mut ops = Vec::new();
    p.walk(p.module_op(), Order::Pre, &mut |op| ops.push(op));
    for op in ops.into_iter().skip(1) {
        let mut inputs: Vec<EvalTensor> = Vec::new();
        for v in p.operands(op).map(Option::unwrap) {
            match vectors.get(&v) {
                Some(elements) => inputs.extend(elements.iter().cloned()),
                None => inputs.push(env[&v].clone()),
            }
        }
        let outs = match p.op_name_str(op) {
            "builtin.combine" => {
                vectors.insert(p.result(op, 0), inputs);
                continue;
            }
            "pd_op.data" => {
                let name = name_of(op, "name");
                vec![feeds.iter().find(|(n, _)| *n == name).unwrap().1.clone()]
            }
            "builtin.parameter" => {
                let t = pir_params::bound::tensor(p, &name_of(op, "parameter_name")).unwrap();
                vec![EvalTensor::from_tensor(t).unwrap()]
            }
            "pd_op.fetch" => {
                fetched.insert(name_of(op, "name"), inputs[0].to_f64_vec());
                vec![inputs[0].clone()]
            }
            "pd_op.batch_norm_" => {
                let x = inputs[0].to_f64_vec();
                let [m, v, s, b] = [1, 2, 3, 4].map(|i| inputs[i].to_f64_vec());
                let c = m.len();
                let out: Vec<f64> = x
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| {
                        let k = i % c;
                        (x - m[k]) / (v[k] + 1e-5).sqrt() * s[k] + b[k]
                    })
                    .collect();
                let shape = inputs[0].shape().to_vec();
                let mut outs = vec![EvalTensor::from_f64s(DType::Float32, &shape, &out).unwrap()];
                outs.extend(inputs[1..].iter().cloned());
                outs.push(EvalTensor::from_f64s(DType::Float32, &[0], &[]).unwrap());
                outs
            }
            _ => pir_eval::evaluate(p, op, &inputs)
                .unwrap_or_else(|e| panic!("{}: {e}", p.op_name_str(op))),
        };
        for (r, t) in p.results(op).zip(outs) {
            env.insert(r, t);
        }
    }
    fetched
}

/// Asserts that two runs fetched the same outputs, within `rtol`.
pub fn assert_close(a: &BTreeMap<String, Vec<f64>>, b: &BTreeMap<String, Vec<f64>>, rtol: f64) {
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (k, x) in a {
        let y = &b[k];
        assert_eq!(x.len(), y.len(), "{k}");
        for (i, (x, y)) in x.iter().zip(y).enumerate() {
            assert!(
                (x - y).abs() <= rtol * x.abs().max(y.abs()) + 1e-6,
                "{k}[{i}]: {x} vs {y}"
            );
        }
    }
}
