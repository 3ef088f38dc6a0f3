//! `constant_folding` and `fold_batch_norm` on small programs in Paddle's
//! text with bound parameters, each checked by structure (what was folded,
//! what parameters exist) and by meaning: the program is run before and after
//! by an interpreter built on the CPU evaluator, and the fetched values must
//! agree.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

use std::collections::{BTreeMap, HashMap};

use pir_core::builtin::StrAttr;
use pir_core::walk::Order;
use pir_core::{OpId, Program, ValueId};
use pir_eval::EvalTensor;
use pir_params::{DType, Tensor};
use pir_pass::PassManager;

fn parse(text: &str) -> Program {
    let ctx = pir_dialects::pd_op_context();
    Program::parse(&ctx, text).unwrap()
}

fn f32s(dims: &[i64], values: &[f32]) -> Tensor {
    Tensor::from_slice(DType::Float32, dims.to_vec(), values).unwrap()
}

/// Binds `tensors` to the parameters of the same names.
fn bind(p: &mut Program, tensors: &[(&str, Tensor)]) {
    for (name, t) in tensors {
        pir_params::bound::bind(p, name, t.clone()).unwrap();
    }
}

fn run_pipeline(p: &mut Program, pipeline: &str) -> Vec<(&'static str, u64)> {
    let mut pm = PassManager::parse(pipeline).unwrap();
    pm.instrumentation.verify_each = true;
    let records = pm.run(p).unwrap();
    p.verify().unwrap();
    records
        .iter()
        .flat_map(|r| r.statistics.entries().to_vec())
        .collect()
}

fn stat(stats: &[(&'static str, u64)], name: &str) -> u64 {
    stats
        .iter()
        .filter(|(k, _)| *k == name)
        .map(|(_, v)| v)
        .sum()
}

fn count(p: &Program, op: &str) -> usize {
    p.to_string().matches(&format!("\"{op}\"")).count()
}

/// Runs the top block: `data` ops read `feeds` by name, parameters their
/// bound tensors, `batch_norm_` is computed here (inference formula), every
/// other op by the evaluator; returns what `pd_op.fetch` ops read, by name.
fn interpret(p: &Program, feeds: &[(&str, EvalTensor)]) -> BTreeMap<String, Vec<f64>> {
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

fn assert_close(a: &BTreeMap<String, Vec<f64>>, b: &BTreeMap<String, Vec<f64>>, rtol: f64) {
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

const WEIGHT_CHAIN: &str = r#"{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<3x2xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%2) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf32>
    (%3) = "pd_op.scale" (%0, %2) {bias:0.5,bias_after_scale:true,stop_gradient:[false]} : (tensor<3x2xf32>, tensor<1xf32>) -> tensor<3x2xf32>
    (%4) = "pd_op.transpose" (%3) {perm:[1,0],stop_gradient:[false]} : (tensor<3x2xf32>) -> tensor<2x3xf32>
    (%5) = "pd_op.matmul" (%1, %4) {stop_gradient:[false],transpose_x:false,transpose_y:true} : (tensor<-1x3xf32>, tensor<2x3xf32>) -> tensor<-1x2xf32>
    (%6) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2],stop_gradient:[true],value:1} : () -> tensor<2xf32>
    (%7) = "pd_op.exp" (%6) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
    (%8) = "pd_op.add" (%5, %7) {stop_gradient:[false]} : (tensor<-1x2xf32>, tensor<2xf32>) -> tensor<-1x2xf32>
    (%9) = "pd_op.fetch" (%8) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x2xf32>) -> tensor<-1x2xf32>
}"#;

fn weight_chain() -> Program {
    let mut p = parse(WEIGHT_CHAIN);
    bind(
        &mut p,
        &[("w", f32s(&[3, 2], &[0.5, -1.0, 2.0, 0.25, -3.0, 1.5]))],
    );
    p
}

fn x_feed() -> Vec<(&'static str, EvalTensor)> {
    let x = EvalTensor::from_f64s(DType::Float32, &[2, 3], &[1.0, 2.0, 3.0, -1.0, 0.5, 4.0]);
    vec![("x", x.unwrap())]
}

#[test]
fn folds_a_weight_chain_into_one_parameter() {
    let mut p = weight_chain();
    let before = interpret(&p, &x_feed());
    let stats = run_pipeline(&mut p, "constant_folding");
    // scale and transpose fold into one new parameter; exp of a uniform
    // tensor becomes a `full`.
    assert_eq!(stat(&stats, "ops folded"), 3, "{p}");
    assert_eq!(stat(&stats, "parameters created"), 1);
    assert_eq!(stat(&stats, "parameters dropped"), 1);
    assert_eq!(stat(&stats, "constants created"), 1);
    assert_eq!(count(&p, "pd_op.scale") + count(&p, "pd_op.transpose"), 0);
    assert_eq!(count(&p, "pd_op.exp"), 0);
    assert!(p.parameter("w").is_none(), "the unused weight is dropped");
    let names: Vec<&str> = p.parameters().map(|(n, _)| n).collect();
    assert_eq!(names, ["constant_folding@_0"]);
    assert_close(&before, &interpret(&p, &x_feed()), 0.0);
}

#[test]
fn a_parameter_made_for_a_value_of_unknown_dims_gets_its_tensor_s_shape() {
    // Paddle refuses to run a parameter whose type leaves dims unknown.
    let text = WEIGHT_CHAIN
        .replace(
            "(tensor<3x2xf32>, tensor<1xf32>) -> tensor<3x2xf32>",
            "(tensor<3x2xf32>, tensor<1xf32>) -> tensor<-1x2xf32>",
        )
        .replace(
            "(tensor<3x2xf32>) -> tensor<2x3xf32>",
            "(tensor<-1x2xf32>) -> tensor<2x-1xf32>",
        )
        .replace(
            "(tensor<-1x3xf32>, tensor<2x3xf32>)",
            "(tensor<-1x3xf32>, tensor<2x-1xf32>)",
        );
    assert_eq!(text.matches("x-1xf32>").count(), 2, "{text}");
    let mut p = parse(&text);
    bind(
        &mut p,
        &[("w", f32s(&[3, 2], &[0.5, -1.0, 2.0, 0.25, -3.0, 1.5]))],
    );
    let before = interpret(&p, &x_feed());
    let stats = run_pipeline(&mut p, "constant_folding");
    assert_eq!(stat(&stats, "parameters created"), 1, "{p}");
    let printed = p.to_string();
    let line = printed
        .lines()
        .find(|l| l.contains("constant_folding@_0"))
        .unwrap();
    assert!(line.ends_with("() -> tensor<2x3xf32>"), "{line}");
    assert_close(&before, &interpret(&p, &x_feed()), 0.0);
}

#[test]
fn keep_params_folds_constants_only() {
    let mut p = weight_chain();
    let before = interpret(&p, &x_feed());
    let stats = run_pipeline(&mut p, "constant_folding{keep-params=true}");
    assert_eq!(stat(&stats, "ops folded"), 1, "only exp(full): {p}");
    assert_eq!(stat(&stats, "parameters created"), 0);
    assert!(p.parameter("w").is_some());
    assert_eq!(count(&p, "pd_op.scale"), 1);
    assert_close(&before, &interpret(&p, &x_feed()), 0.0);
}

#[test]
fn without_parameter_data_nothing_is_read_or_created() {
    let mut p = parse(WEIGHT_CHAIN);
    let stats = run_pipeline(&mut p, "constant_folding");
    assert_eq!(stat(&stats, "ops folded"), 1, "{p}");
    assert_eq!(count(&p, "builtin.parameter"), 1);
}

#[test]
fn a_constant_written_in_place_is_not_folded() {
    // `relu_` writes the `full` buffer that `exp` reads afterwards: the value
    // exp sees is relu's, not full's.
    let text = r#"{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2],stop_gradient:[true],value:-1} : () -> tensor<2xf32>
    (%1) = "pd_op.relu_" (%0) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
    (%2) = "pd_op.exp" (%0) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"a",persistable:[true],stop_gradient:[false]} : (tensor<2xf32>) -> tensor<2xf32>
    (%4) = "pd_op.fetch" (%1) {col:1,name:"b",persistable:[true],stop_gradient:[false]} : (tensor<2xf32>) -> tensor<2xf32>
}"#;
    let mut p = parse(text);
    let stats = run_pipeline(&mut p, "constant_folding");
    assert_eq!(stat(&stats, "ops folded"), 0, "{p}");
    assert_eq!(count(&p, "pd_op.exp"), 1);
}

#[test]
fn an_unobserved_in_place_write_folds() {
    // relu_ writes a fresh `full` nothing else reads: it folds like relu.
    let text = r#"{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2],stop_gradient:[true],value:-1} : () -> tensor<2xf32>
    (%1) = "pd_op.relu_" (%0) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
    (%2) = "pd_op.fetch" (%1) {col:0,name:"a",persistable:[true],stop_gradient:[false]} : (tensor<2xf32>) -> tensor<2xf32>
}"#;
    let mut p = parse(text);
    let stats = run_pipeline(&mut p, "constant_folding");
    assert_eq!(stat(&stats, "ops folded"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.relu_") + count(&p, "pd_op.relu"), 0);
    let expected = BTreeMap::from([("a".to_string(), vec![0.0, 0.0])]);
    assert_close(&expected, &interpret(&p, &[]), 0.0);
}

#[test]
fn short_integer_results_become_int_arrays() {
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[7,0]} : () -> tensor<2xi64>
    (%2) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1]} : () -> tensor<1xi64>
    (%3) = "pd_op.subtract" (%1, %2) {stop_gradient:[true]} : (tensor<2xi64>, tensor<1xi64>) -> tensor<2xi64>
    (%4) = "pd_op.reshape" (%0, %3) {stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<2xi64>) -> tensor<6x-1xf32>
    (%5) = "pd_op.fetch" (%4) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<6x-1xf32>) -> tensor<6x-1xf32>
}"#;
    let mut p = parse(text);
    let feeds = vec![(
        "x",
        EvalTensor::from_f64s(DType::Float32, &[4, 3], &[1.0; 12]).unwrap(),
    )];
    let before = interpret(&p, &feeds);
    let stats = run_pipeline(&mut p, "constant_folding");
    assert_eq!(stat(&stats, "ops folded"), 1);
    assert_eq!(count(&p, "pd_op.full_int_array"), 1, "{p}");
    assert!(p.to_string().contains("value:[6,-1]"), "{p}");
    assert_close(&before, &interpret(&p, &feeds), 0.0);
}

const MATMUL_BN: &str = r#"{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<3x2xf32>
    (%1) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"b",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<2xf32>
    (%2) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"mean",persistable:[true],stop_gradient:[true],trainable:[false]} : () -> tensor<2xf32>
    (%3) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"var",persistable:[true],stop_gradient:[true],trainable:[false]} : () -> tensor<2xf32>
    (%4) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"gamma",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<2xf32>
    (%5) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"beta",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<2xf32>
    (%6) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%7) = "pd_op.matmul" (%6, %0) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<-1x3xf32>, tensor<3x2xf32>) -> tensor<-1x2xf32>
    (%8) = "pd_op.add" (%7, %1) {stop_gradient:[false]} : (tensor<-1x2xf32>, tensor<2xf32>) -> tensor<-1x2xf32>
    (%9, %10, %11, %12, %13, %14) = "pd_op.batch_norm_" (%8, %2, %3, %4, %5) {data_format:"NCHW",epsilon:1e-05,is_test:true,momentum:0.9,stop_gradient:[false,false,false,false,false,false],trainable_statistics:false,use_global_stats:true} : (tensor<-1x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<-1x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<-1xu8>
    (%15) = "pd_op.relu" (%9) {stop_gradient:[false]} : (tensor<-1x2xf32>) -> tensor<-1x2xf32>
    (%16) = "pd_op.fetch" (%15) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x2xf32>) -> tensor<-1x2xf32>
}"#;

fn matmul_bn() -> Program {
    let mut p = parse(MATMUL_BN);
    bind(
        &mut p,
        &[
            ("w", f32s(&[3, 2], &[0.5, -1.0, 2.0, 0.25, -3.0, 1.5])),
            ("b", f32s(&[2], &[0.1, -0.2])),
            ("mean", f32s(&[2], &[0.3, -0.7])),
            ("var", f32s(&[2], &[2.0, 0.5])),
            ("gamma", f32s(&[2], &[1.5, -0.5])),
            ("beta", f32s(&[2], &[0.05, 0.4])),
        ],
    );
    p
}

#[test]
fn folds_batch_norm_into_matmul_and_bias() {
    let mut p = matmul_bn();
    let before = interpret(&p, &x_feed());
    let stats = run_pipeline(&mut p, "fold_batch_norm");
    assert_eq!(stat(&stats, "batch norms folded"), 1);
    assert_eq!(count(&p, "pd_op.batch_norm_"), 0, "{p}");
    assert_eq!(count(&p, "pd_op.add"), 1);
    let mut names: Vec<&str> = p.parameters().map(|(n, _)| n).collect();
    names.sort_unstable();
    assert_eq!(names, ["fold_batch_norm@_0", "fold_batch_norm@_1"]);
    assert_close(&before, &interpret(&p, &x_feed()), 1e-6);
}

#[test]
fn a_batch_norm_in_training_mode_stays() {
    let text = MATMUL_BN
        .replace("is_test:true", "is_test:false")
        .replace("use_global_stats:true", "use_global_stats:false");
    let mut p = parse(&text);
    bind(
        &mut p,
        &[
            ("w", f32s(&[3, 2], &[1.0; 6])),
            ("b", f32s(&[2], &[0.0; 2])),
            ("mean", f32s(&[2], &[0.0; 2])),
            ("var", f32s(&[2], &[1.0; 2])),
            ("gamma", f32s(&[2], &[1.0; 2])),
            ("beta", f32s(&[2], &[0.0; 2])),
        ],
    );
    let stats = run_pipeline(&mut p, "fold_batch_norm");
    assert_eq!(stat(&stats, "batch norms folded"), 0);
    assert_eq!(count(&p, "pd_op.batch_norm_"), 1);
}

#[test]
fn a_shared_producer_output_stays() {
    // The matmul's result is also fetched: scaling its weight would change it.
    let text = MATMUL_BN.replace(
        "    (%16) = \"pd_op.fetch\"",
        "    (%17) = \"pd_op.fetch\" (%7) {col:1,name:\"raw\",persistable:[true],stop_gradient:[false]} : (tensor<-1x2xf32>) -> tensor<-1x2xf32>\n    (%16) = \"pd_op.fetch\"",
    );
    let mut p = parse(&text);
    let bound = matmul_bn();
    for (name, param) in bound.parameters() {
        p.set_parameter(name, param.clone());
    }
    let stats = run_pipeline(&mut p, "fold_batch_norm");
    assert_eq!(stat(&stats, "batch norms folded"), 0, "{p}");
}

#[test]
fn constants_as_params_hoists_read_only_makers_and_shares_equal_ones() {
    // Two equal `full_int_array`s (one inside an `if` branch) and a `scale`
    // factor become parameters; the `full` that `relu_` writes before `exp`
    // reads it stays an op.
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1]} : () -> tensor<1xi64>
    (%2) = "pd_op.sum" (%0, %1) {dtype:Undefined,keepdim:false,stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<1xi64>) -> tensor<-1xf32>
    (%3) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf32>
    (%4) = "pd_op.scale" (%2, %3) {bias:0.5,bias_after_scale:true,stop_gradient:[false]} : (tensor<-1xf32>, tensor<1xf32>) -> tensor<-1xf32>
    (%5) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2],stop_gradient:[true],value:-1} : () -> tensor<2xf32>
    (%6) = "pd_op.relu_" (%5) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
    (%13) = "pd_op.exp" (%5) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
    (%7) = "pd_op.data" () {dtype:bool,name:"c",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<b>
    (%8) = "pd_op.if" (%7) {stop_gradient:[false]} -> tensor<-1xf32> {
        (%9) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1]} : () -> tensor<1xi64>
        (%10) = "pd_op.max" (%0, %9) {keepdim:false,stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<1xi64>) -> tensor<-1xf32>
        () = "cf.yield" (%10) {} : (tensor<-1xf32>) -> 
    } else {
        () = "cf.yield" (%4) {} : (tensor<-1xf32>) -> 
    }
    (%11) = "pd_op.fetch" (%8) {col:0,name:"a",persistable:[true],stop_gradient:[false]} : (tensor<-1xf32>) -> tensor<-1xf32>
    (%12) = "pd_op.fetch" (%6) {col:1,name:"b",persistable:[true],stop_gradient:[false]} : (tensor<2xf32>) -> tensor<2xf32>
    (%14) = "pd_op.fetch" (%13) {col:2,name:"c",persistable:[true],stop_gradient:[false]} : (tensor<2xf32>) -> tensor<2xf32>
}"#;
    let mut p = parse(text);
    let stats = run_pipeline(&mut p, "constant_folding{constants-as-params=true}");
    assert_eq!(stat(&stats, "constants hoisted"), 3, "{p}");
    assert_eq!(count(&p, "pd_op.full_int_array"), 0, "{p}");
    assert_eq!(count(&p, "pd_op.full"), 1, "the written full stays: {p}");
    let names: Vec<&str> = p.parameters().map(|(n, _)| n).collect();
    assert_eq!(
        names.len(),
        2,
        "equal constants share a parameter: {names:?}"
    );
    // Parameters come first in the top block, so they dominate every reader.
    let top = p.top_block();
    let first: Vec<&str> = p
        .block_ops(top)
        .take(2)
        .map(|op| p.op_name_str(op))
        .collect();
    assert_eq!(first, ["builtin.parameter", "builtin.parameter"]);
}

/// `x` and a `full` of 3 elements declared `tensor<-1xf32>`, read by
/// `readers`, after `constant_folding{constants-as-params=true}`.
fn hoist_unknown_dims_full(readers: &str) -> (Program, Vec<(&'static str, u64)>) {
    let text = format!(
        r#"{{
    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[-1],stop_gradient:[false]}} : () -> tensor<-1xf32>
    (%1) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[3],stop_gradient:[true],value:2}} : () -> tensor<-1xf32>
{readers}}}"#
    );
    let mut p = parse(&text);
    bind(&mut p, &[]);
    let stats = run_pipeline(&mut p, "constant_folding{constants-as-params=true}");
    (p, stats)
}

#[test]
fn a_hoisted_constant_of_unknown_declared_dims_gets_its_tensor_s_shape() {
    // As for folded values: Paddle refuses a parameter whose type leaves dims unknown.
    let (p, stats) = hoist_unknown_dims_full(
        r#"    (%2) = "pd_op.add" (%0, %1) {stop_gradient:[false]} : (tensor<-1xf32>, tensor<-1xf32>) -> tensor<-1xf32>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1xf32>) -> tensor<-1xf32>
"#,
    );
    assert_eq!(stat(&stats, "constants hoisted"), 1, "{p}");
    let printed = p.to_string();
    let line = printed
        .lines()
        .find(|l| l.contains("\"builtin.parameter\""))
        .unwrap();
    assert!(line.ends_with("() -> tensor<3xf32>"), "{line}");
}

#[test]
fn constants_as_params_needs_parameter_data() {
    // Without the weights' tensors no parameter can be written.
    let mut p = parse(WEIGHT_CHAIN);
    let stats = run_pipeline(&mut p, "constant_folding{constants-as-params=true}");
    assert_eq!(stat(&stats, "constants hoisted"), 0, "{p}");
    let mut p = weight_chain();
    let before = interpret(&p, &x_feed());
    let stats = run_pipeline(&mut p, "constant_folding{constants-as-params=true}");
    assert_eq!(
        stat(&stats, "constants hoisted"),
        1,
        "the folded exp's full: {p}"
    );
    assert_eq!(count(&p, "pd_op.full"), 0);
    assert_close(&before, &interpret(&p, &x_feed()), 0.0);
}

/// A convolution-bias-shaped parameter `b` (`1x3x1x1`) read by `add` (as the
/// second operand) and `multiply` (as the first), with `READER` spliced in
/// as a third reader of `b` when given.
fn bias_program(reader: &str) -> Program {
    let text = format!(
        r#"{{
    (%0) = "builtin.parameter" () {{is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"b",persistable:[true],stop_gradient:[false],trainable:[true]}} : () -> tensor<1x3x1x1xf32>
    (%1) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3,2,2],stop_gradient:[false]}} : () -> tensor<-1x3x2x2xf32>
    (%2) = "pd_op.add" (%1, %0) {{stop_gradient:[false]}} : (tensor<-1x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<-1x3x2x2xf32>
    (%3) = "pd_op.multiply" (%0, %2) {{stop_gradient:[false]}} : (tensor<1x3x1x1xf32>, tensor<-1x3x2x2xf32>) -> tensor<-1x3x2x2xf32>
    (%4) = "pd_op.fetch" (%3) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<-1x3x2x2xf32>) -> tensor<-1x3x2x2xf32>
{reader}}}"#
    );
    let mut p = parse(&text);
    bind(&mut p, &[("b", f32s(&[1, 3, 1, 1], &[0.5, -2.0, 3.0]))]);
    p
}

fn nchw_feed() -> Vec<(&'static str, EvalTensor)> {
    let values: Vec<f64> = (0..24).map(|i| f64::from(i) * 0.25 - 2.0).collect();
    let x = EvalTensor::from_f64s(DType::Float32, &[2, 3, 2, 2], &values);
    vec![("x", x.unwrap())]
}

#[test]
fn a_bias_read_by_element_wise_ops_loses_its_leading_unit_dims() {
    let mut p = bias_program("");
    let before = interpret(&p, &nchw_feed());
    let stats = run_pipeline(&mut p, "trim_broadcast_constants");
    assert_eq!(stat(&stats, "parameters trimmed"), 1, "{p}");
    let printed = p.to_string();
    assert!(
        printed.contains("() -> tensor<3x1x1xf32>")
            && printed
                .contains("(tensor<-1x3x2x2xf32>, tensor<3x1x1xf32>) -> tensor<-1x3x2x2xf32>")
            && printed
                .contains("(tensor<3x1x1xf32>, tensor<-1x3x2x2xf32>) -> tensor<-1x3x2x2xf32>"),
        "{printed}"
    );
    let t = pir_params::bound::tensor(&p, "b").unwrap();
    assert_eq!(t.dims(), [3, 1, 1]);
    assert_eq!(t.to_vec::<f32>().unwrap(), [0.5, -2.0, 3.0]);
    assert_close(&before, &interpret(&p, &nchw_feed()), 0.0);
}

#[test]
fn keep_params_keeps_a_bias_s_dims() {
    let mut p = bias_program("");
    let stats = run_pipeline(&mut p, "trim_broadcast_constants{keep-params=true}");
    assert_eq!(stat(&stats, "parameters trimmed"), 0, "{p}");
    assert_eq!(
        pir_params::bound::tensor(&p, "b").unwrap().dims(),
        [1, 3, 1, 1]
    );
}

#[test]
fn a_bias_with_a_reader_that_is_not_a_broadcast_keeps_its_dims() {
    let other_readers = [
        // Not an element-wise binary op.
        r#"    (%5) = "pd_op.relu" (%0) {stop_gradient:[false]} : (tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
"#,
        // The other operand has a lower rank: the leading 1 is the result's.
        r#"    (%5) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[2,2],stop_gradient:[false]} : () -> tensor<2x2xf32>
    (%6) = "pd_op.add" (%0, %5) {stop_gradient:[false]} : (tensor<1x3x1x1xf32>, tensor<2x2xf32>) -> tensor<1x3x2x2xf32>
"#,
        // The written operand of an in-place op.
        r#"    (%5) = "pd_op.add_" (%0, %0) {stop_gradient:[false]} : (tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
"#,
    ];
    for reader in other_readers {
        let mut p = bias_program(reader);
        let stats = run_pipeline(&mut p, "trim_broadcast_constants");
        assert_eq!(stat(&stats, "parameters trimmed"), 0, "{p}");
        assert_eq!(
            pir_params::bound::tensor(&p, "b").unwrap().dims(),
            [1, 3, 1, 1]
        );
    }
}

#[test]
fn the_inference_pipeline_trims_a_folded_convolution_bias() {
    // Paddle's layer writes `reshape(bias, [1,-1,1,1])`; folding makes it a
    // `1x3x1x1` parameter, which the pipeline then trims.
    let text = r#"{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"b",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<3xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3,2,2],stop_gradient:[false]} : () -> tensor<-1x3x2x2xf32>
    (%2) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1,-1,1,1]} : () -> tensor<4xi64>
    (%3) = "pd_op.reshape" (%0, %2) {stop_gradient:[false]} : (tensor<3xf32>, tensor<4xi64>) -> tensor<1x3x1x1xf32>
    (%4) = "pd_op.add" (%1, %3) {stop_gradient:[false]} : (tensor<-1x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<-1x3x2x2xf32>
    (%5) = "pd_op.fetch" (%4) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x3x2x2xf32>) -> tensor<-1x3x2x2xf32>
}"#;
    let mut p = parse(text);
    bind(&mut p, &[("b", f32s(&[3], &[0.5, -2.0, 3.0]))]);
    let before = interpret(&p, &nchw_feed());
    let stats = run_pipeline(&mut p, "inference");
    assert_eq!(stat(&stats, "parameters trimmed"), 1, "{p}");
    assert!(
        p.to_string()
            .contains("tensor<3x1x1xf32>) -> tensor<-1x3x2x2xf32>"),
        "{p}"
    );
    assert_close(&before, &interpret(&p, &nchw_feed()), 0.0);
}

#[test]
fn an_empty_axes_list_of_full_reductions_becomes_every_axis_as_a_parameter() {
    // Paddle loads an empty parameter without a buffer: `[]` itself cannot
    // be one. Naming every axis reduces the same, one list per input rank.
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%2) = "pd_op.mean" (%0, %1) {keepdim:false,stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<0xi64>) -> tensor<f32>
    (%3) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[-1]} : () -> tensor<1xi64>
    (%4) = "pd_op.reshape" (%0, %3) {stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<1xi64>) -> tensor<-1xf32>
    (%5) = "pd_op.sum" (%4, %1) {dtype:Undefined,keepdim:true,stop_gradient:[false]} : (tensor<-1xf32>, tensor<0xi64>) -> tensor<1xf32>
    (%6) = "pd_op.max" (%0, %1) {keepdim:false,stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<0xi64>) -> tensor<f32>
    (%7) = "pd_op.fetch" (%2) {col:0,name:"mean",persistable:[true],stop_gradient:[false]} : (tensor<f32>) -> tensor<f32>
    (%8) = "pd_op.fetch" (%5) {col:1,name:"sum",persistable:[true],stop_gradient:[false]} : (tensor<1xf32>) -> tensor<1xf32>
    (%9) = "pd_op.fetch" (%6) {col:2,name:"max",persistable:[true],stop_gradient:[false]} : (tensor<f32>) -> tensor<f32>
}"#;
    let mut p = parse(text);
    bind(&mut p, &[]);
    let feed = || {
        let x = EvalTensor::from_f64s(DType::Float32, &[2, 3], &[1.0, -2.0, 3.5, 0.5, 4.0, -1.0]);
        vec![("x", x.unwrap())]
    };
    let before = interpret(&p, &feed());
    let stats = run_pipeline(&mut p, "constant_folding{constants-as-params=true}");
    assert_eq!(stat(&stats, "constants hoisted"), 2, "{p}");
    assert_eq!(count(&p, "pd_op.full_int_array"), 0, "{p}");
    let lists: Vec<Vec<i64>> = p
        .parameters()
        .map(|(n, _)| {
            pir_params::bound::tensor(&p, n)
                .unwrap()
                .to_vec::<i64>()
                .unwrap()
        })
        .collect();
    assert!(
        lists.contains(&vec![0, 1]) && lists.contains(&vec![0]),
        "{lists:?}"
    );
    assert_eq!(
        lists.len(),
        3,
        "[-1], [0, 1] shared by mean and max, [0]: {lists:?}"
    );
    assert_close(&before, &interpret(&p, &feed()), 0.0);
}

/// `shape64(x)[0]` stacked with constants, read by `reader` (`%9` is the
/// stacked list, `%1` the data input, `%2` `scale(x)`).
fn batch_shape_program(elements: &str, reader: &str, extra: &str) -> Program {
    let text = format!(
        r#"{{
    (%1) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,6],stop_gradient:[false]}} : () -> tensor<-1x6xf32>
    (%0) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2}} : () -> tensor<1xf32>
    (%2) = "pd_op.scale" (%1, %0) {{bias:0.5,bias_after_scale:true,stop_gradient:[false]}} : (tensor<-1x6xf32>, tensor<1xf32>) -> tensor<-1x6xf32>
    (%3) = "pd_op.shape64" (%1) {{stop_gradient:[true]}} : (tensor<-1x6xf32>) -> tensor<2xi64>
    (%4) = "pd_op.full_int_array" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0]}} : () -> tensor<1xi64>
    (%5) = "pd_op.full_int_array" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1]}} : () -> tensor<1xi64>
    (%6) = "pd_op.slice" (%3, %4, %5) {{axes:[0],decrease_axis:[0],infer_flags:[1],stop_gradient:[true]}} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
    (%7) = "pd_op.full" () {{dtype:int64,place:Place(cpu),shape:[],stop_gradient:[true],value:2}} : () -> tensor<i64>
    (%8) = "pd_op.full" () {{dtype:int64,place:Place(cpu),shape:[],stop_gradient:[true],value:3}} : () -> tensor<i64>
{extra}    (%20) = "pd_op.full" () {{dtype:int64,place:Place(cpu),shape:[],stop_gradient:[true],value:0}} : () -> tensor<i64>
    (%21) = "builtin.combine" ({elements}) {{stop_gradient:[true]}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> vec[tensor<i64>,tensor<i64>,tensor<i64>]
    (%9) = "pd_op.stack" (%21) {{axis:0,stop_gradient:[true]}} : (vec[tensor<i64>,tensor<i64>,tensor<i64>]) -> tensor<3xi64>
{reader}}}"#
    );
    parse(&text)
}

const RESHAPE_READER: &str = r#"    (%10) = "pd_op.reshape" (%2, %9) {stop_gradient:[false]} : (tensor<-1x6xf32>, tensor<3xi64>) -> tensor<-1x2x3xf32>
    (%11) = "pd_op.fetch" (%10) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x2x3xf32>) -> tensor<-1x2x3xf32>
"#;

const FULL_READER: &str = r#"    (%12) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%10) = "pd_op.full_with_tensor" (%12, %9) {dtype:float32,stop_gradient:[true]} : (tensor<1xf32>, tensor<3xi64>) -> tensor<2x-1x3xf32>
    (%11) = "pd_op.fetch" (%10) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<2x-1x3xf32>) -> tensor<2x-1x3xf32>
"#;

fn batch_feed() -> Vec<(&'static str, EvalTensor)> {
    let values: Vec<f64> = (0..18).map(|i| f64::from(i) * 0.5 - 3.0).collect();
    vec![(
        "x",
        EvalTensor::from_f64s(DType::Float32, &[3, 6], &values).unwrap(),
    )]
}

#[test]
fn a_reshape_to_the_batch_size_read_at_run_time_copies_it_instead() {
    let mut p = batch_shape_program("%6, %7, %8", RESHAPE_READER, "");
    let before = interpret(&p, &batch_feed());
    let stats = run_pipeline(&mut p, "batch_size_like,dce");
    assert_eq!(stat(&stats, "shapes rewritten"), 1, "{p}");
    let printed = p.to_string();
    assert!(printed.contains("value:[0,2,3]"), "{printed}");
    for gone in ["pd_op.shape64", "pd_op.slice", "pd_op.stack"] {
        assert_eq!(count(&p, gone), 0, "{gone} left: {printed}");
    }
    assert_close(&before, &interpret(&p, &batch_feed()), 0.0);
}

#[test]
fn a_full_of_the_batch_size_read_at_run_time_becomes_full_batch_size_like() {
    let mut p = batch_shape_program("%7, %6, %8", FULL_READER, "");
    let before = interpret(&p, &batch_feed());
    let stats = run_pipeline(&mut p, "batch_size_like,dce");
    assert_eq!(stat(&stats, "shapes rewritten"), 1, "{p}");
    let printed = p.to_string();
    assert!(
        printed.contains(
            r#""pd_op.full_batch_size_like" (%0) {dtype:float32,input_dim_idx:0,output_dim_idx:1,place:Place(undefined:0),shape:[2,-1,3],stop_gradient:[true],value:0.25}"#
        ),
        "{printed}"
    );
    assert_eq!(count(&p, "pd_op.shape64"), 0, "{printed}");
    assert_close(&before, &interpret(&p, &batch_feed()), 0.0);
}

#[test]
fn shapes_that_do_not_just_repeat_the_batch_size_stay() {
    let second_input = r#"    (%13) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[-1,6],stop_gradient:[false]} : () -> tensor<-1x6xf32>
"#;
    let cases = [
        // Not at the leading place: reshape's 0 copies the dim at its own place.
        ("%7, %6, %8", RESHAPE_READER, String::new()),
        // A constant 0 would copy a dim too.
        ("%6, %20, %8", RESHAPE_READER, String::new()),
        // The batch size of another input.
        (
            "%6, %7, %8",
            RESHAPE_READER,
            format!(
                "{second_input}{}",
                r#"    (%14) = "pd_op.shape64" (%13) {stop_gradient:[true]} : (tensor<-1x6xf32>) -> tensor<2xi64>
    (%15) = "pd_op.slice" (%14, %4, %5) {axes:[0],decrease_axis:[0],infer_flags:[1],stop_gradient:[true]} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
"#
            ),
        ),
        // The input's buffer is written in place (its dims may change).
        (
            "%6, %7, %8",
            RESHAPE_READER,
            r#"    (%16) = "pd_op.relu_" (%1) {stop_gradient:[false]} : (tensor<-1x6xf32>) -> tensor<-1x6xf32>
"#
            .to_string(),
        ),
        // A program with LoD ops: full_batch_size_like would count sequences.
        (
            "%7, %6, %8",
            FULL_READER,
            r#"    (%17) = "pd_op.lod_array_length" (%1) {stop_gradient:[true]} : (tensor<-1x6xf32>) -> tensor<1xi64>
"#
            .to_string(),
        ),
    ];
    for (i, (elements, reader, extra)) in cases.iter().enumerate() {
        let elements = if i == 2 { "%15, %7, %8" } else { elements };
        let mut p = batch_shape_program(elements, reader, extra);
        let stats = run_pipeline(&mut p, "batch_size_like");
        assert_eq!(stat(&stats, "shapes rewritten"), 0, "case {i}: {p}");
    }
}

/// `w` scaled to a value of unknown dims (`tensor<-1x3xf32>`), read by a
/// `builtin.combine` with the input (then concatenated) and by `reader`.
fn combined_fold(reader: &str) -> Program {
    let text = format!(
        r#"{{
    (%0) = "builtin.parameter" () {{is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]}} : () -> tensor<2x3xf32>
    (%1) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]}} : () -> tensor<-1x3xf32>
    (%2) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2}} : () -> tensor<1xf32>
    (%3) = "pd_op.scale" (%0, %2) {{bias:0.5,bias_after_scale:true,stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<-1x3xf32>
    (%4) = "builtin.combine" (%1, %3) {{}} : (tensor<-1x3xf32>, tensor<-1x3xf32>) -> vec[tensor<-1x3xf32>,tensor<-1x3xf32>]
    (%5) = "pd_op.full" () {{dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0}} : () -> tensor<1xi32>
    (%6) = "pd_op.concat" (%4, %5) {{stop_gradient:[false]}} : (vec[tensor<-1x3xf32>,tensor<-1x3xf32>], tensor<1xi32>) -> tensor<-1x3xf32>
    (%7) = "pd_op.fetch" (%6) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>
{reader}}}"#
    );
    let mut p = parse(&text);
    bind(
        &mut p,
        &[("w", f32s(&[2, 3], &[0.5, -1.0, 2.0, 0.25, -3.0, 1.5]))],
    );
    p
}

/// `combined_fold(reader)` after `constant_folding`, checked to compute the
/// same and to keep the scale for the combine; and the parameters created.
fn fold_combined(reader: &str) -> (Program, u64) {
    let mut p = combined_fold(reader);
    let before = interpret(&p, &x_feed());
    let stats = run_pipeline(&mut p, "constant_folding");
    assert_close(&before, &interpret(&p, &x_feed()), 0.0);
    assert_eq!(count(&p, "pd_op.scale"), 1, "{p}");
    (p, stat(&stats, "parameters created"))
}

#[test]
fn a_combine_keeps_reading_a_folded_value_of_unknown_dims() {
    // The parameter made for %3 would be a `tensor<2x3xf32>`, which the
    // combine's declared element type `tensor<-1x3xf32>` cannot take.
    let (p, created) = fold_combined("");
    assert_eq!(created, 0, "{p}");
    // Another reader takes the parameter; the combine keeps the scale.
    let add = r#"    (%8) = "pd_op.add" (%1, %3) {stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<-1x3xf32>) -> tensor<-1x3xf32>
    (%9) = "pd_op.fetch" (%8) {col:1,name:"sum",persistable:[true],stop_gradient:[false]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>
"#;
    let (p, created) = fold_combined(add);
    assert_eq!(created, 1, "{p}");
    assert!(
        p.to_string()
            .contains(r#"(tensor<-1x3xf32>, tensor<2x3xf32>) -> tensor<-1x3xf32>"#),
        "the add reads the parameter: {p}"
    );
}

#[test]
fn a_constant_of_unknown_dims_read_by_a_combine_is_not_hoisted() {
    let (p, stats) = hoist_unknown_dims_full(
        r#"    (%2) = "builtin.combine" (%0, %1) {} : (tensor<-1xf32>, tensor<-1xf32>) -> vec[tensor<-1xf32>,tensor<-1xf32>]
    (%3) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi32>
    (%4) = "pd_op.concat" (%2, %3) {stop_gradient:[false]} : (vec[tensor<-1xf32>,tensor<-1xf32>], tensor<1xi32>) -> tensor<-1xf32>
    (%5) = "pd_op.fetch" (%4) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1xf32>) -> tensor<-1xf32>
"#,
    );
    // %3 (the axis) is hoisted, %1 stays a `full`.
    assert_eq!(stat(&stats, "constants hoisted"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.full"), 1, "{p}");
}

/// `shape64(x)[1]` of an `x: [-1, 6]` is 6 by the symbolic shapes although
/// the shape is not constant: it folds, and the reshape reads a constant.
#[test]
fn a_static_dim_read_from_a_dynamic_shape_folds() {
    let mut p = batch_shape_program(
        "%6, %7, %8",
        RESHAPE_READER,
        r#"    (%30) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2]} : () -> tensor<1xi64>
    (%31) = "pd_op.slice" (%3, %5, %30) {axes:[0],decrease_axis:[0],infer_flags:[1],stop_gradient:[true]} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
    (%32) = "pd_op.multiply" (%31, %7) {stop_gradient:[true]} : (tensor<i64>, tensor<i64>) -> tensor<i64>
    (%33) = "pd_op.fetch" (%32) {col:1,name:"twelve",persistable:[true],stop_gradient:[true]} : (tensor<i64>) -> tensor<i64>
"#,
    );
    let before = interpret(&p, &batch_feed());
    let stats = run_pipeline(&mut p, "constant_folding");
    assert_eq!(stat(&stats, "shapes folded symbolically"), 1, "{p}");
    assert_close(&before, &interpret(&p, &batch_feed()), 0.0);
    // The batch size stays read at run time.
    assert_eq!(count(&p, "pd_op.shape64"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.multiply"), 0, "{p}");
}

/// `shape64(x)` and `shape64(scale(x))` read one shape: the second and the
/// arithmetic after it merge into the first.
#[test]
fn shapes_of_equal_shaped_values_merge() {
    let mut p = batch_shape_program(
        "%6, %7, %8",
        RESHAPE_READER,
        r#"    (%30) = "pd_op.shape64" (%2) {stop_gradient:[true]} : (tensor<-1x6xf32>) -> tensor<2xi64>
    (%31) = "pd_op.slice" (%30, %4, %5) {axes:[0],decrease_axis:[0],infer_flags:[1],stop_gradient:[true]} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
    (%32) = "pd_op.add" (%6, %31) {stop_gradient:[true]} : (tensor<i64>, tensor<i64>) -> tensor<i64>
    (%33) = "pd_op.fetch" (%32) {col:1,name:"twice",persistable:[true],stop_gradient:[true]} : (tensor<i64>) -> tensor<i64>
"#,
    );
    let before = interpret(&p, &batch_feed());
    let stats = run_pipeline(&mut p, "cse,dce");
    assert_eq!(stat(&stats, "ops merged"), 2, "{p}");
    assert_eq!(count(&p, "pd_op.shape64"), 1, "{p}");
    assert_close(&before, &interpret(&p, &batch_feed()), 0.0);
}
