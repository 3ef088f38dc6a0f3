//! `de_inplace` and `inplace`: small programs in Paddle's text, each run
//! through a pass and then checked twice — by structure (which ops were
//! converted, which operand reads what) and by meaning: a small interpreter
//! that models buffers (an in-place op writes its input's buffer, a view
//! shares it, `shadow_output` reads its buffer at the end) runs the program
//! before and after, and the fetched outputs must be equal. A use rewired to
//! the wrong value shows up as a different number.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;

use std::collections::{BTreeMap, HashMap};

use common::{count, parse, run_records};
use pir_core::builtin::{DenseTensorType, F32Attr, F64Attr, I32Attr, I64Attr, StrAttr};
use pir_core::{Attribute, BlockId, OpId, Program, ValueId};
use pir_dialects::op_def::OpDefinition;

/// Runs `pipeline` with verification after each pass; returns the number of
/// ops each pass converted, in order.
fn run(p: &mut Program, pipeline: &str) -> Vec<u64> {
    run_records(p, pipeline)
        .iter()
        .map(|r| r.statistics.get("ops converted"))
        .collect()
}

/// The ops of the top block.
fn top_ops(p: &Program) -> Vec<OpId> {
    p.block_ops(p.top_block()).collect()
}

/// The first op named `name` anywhere in the program.
fn find(p: &Program, name: &str) -> OpId {
    let mut found = None;
    p.walk(p.module_op(), pir_core::walk::Order::Pre, &mut |op| {
        if found.is_none() && p.op_name_str(op) == name {
            found = Some(op);
        }
    });
    found.unwrap_or_else(|| panic!("no {name} in\n{p}"))
}

fn operand_def(p: &Program, op: OpId, i: usize) -> String {
    let v = p.operand(op, i).unwrap();
    match p.defining_op(v) {
        Some(d) => p.op_name_str(d).to_owned(),
        None => "block argument".into(),
    }
}

// ------------------------------------------------------------ interpreter

/// Buffers and the buffer each value names.
#[derive(Default)]
struct Machine {
    bufs: Vec<Vec<f64>>,
    env: HashMap<ValueId, usize>,
    /// The buffers of each vector's elements.
    vectors: HashMap<ValueId, Vec<usize>>,
    fetched: BTreeMap<String, Vec<f64>>,
    shadow: Vec<(String, usize)>,
}

fn number(p: &Program, a: Attribute) -> f64 {
    let ctx = p.ctx();
    ctx.attr_as::<F64Attr>(a)
        .map(|a| a.value())
        .or_else(|| ctx.attr_as::<F32Attr>(a).map(|a| f64::from(a.value())))
        .or_else(|| ctx.attr_as::<I64Attr>(a).map(|a| a.0 as f64))
        .or_else(|| ctx.attr_as::<I32Attr>(a).map(|a| f64::from(a.0)))
        .unwrap()
}

fn string(p: &Program, op: OpId, name: &str) -> String {
    let a = p.attr(op, name).unwrap();
    p.ctx().attr_as::<StrAttr>(a).unwrap().0.to_string()
}

/// Number of elements of a static tensor type (dynamic dims count 1).
fn elements(p: &Program, v: ValueId) -> usize {
    let t = p.ctx().type_as::<DenseTensorType>(p.value_type(v)).unwrap();
    t.dims.iter().map(|&d| d.max(1) as usize).product()
}

fn binary(x: &[f64], y: &[f64], f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    let n = x.len().max(y.len());
    (0..n).map(|i| f(x[i % x.len()], y[i % y.len()])).collect()
}

impl Machine {
    fn read(&self, p: &Program, op: OpId, i: usize) -> Vec<f64> {
        self.bufs[self.env[&p.operand(op, i).unwrap()]].clone()
    }

    fn fresh(&mut self, v: ValueId, data: Vec<f64>) {
        self.bufs.push(data);
        self.env.insert(v, self.bufs.len() - 1);
    }

    /// Runs a block; returns the buffers its `cf.yield` names.
    fn block(&mut self, p: &Program, block: BlockId) -> Vec<usize> {
        for op in p.block_ops(block) {
            if let Some(yielded) = self.op(p, op) {
                return yielded;
            }
        }
        Vec::new()
    }

    fn op(&mut self, p: &Program, op: OpId) -> Option<Vec<usize>> {
        let name = p.op_name_str(op).to_owned();
        let base = name.strip_suffix('_').unwrap_or(&name);
        let data = match base {
            "cf.yield" => {
                let bufs = p.operands(op).map(|v| self.env[&v.unwrap()]).collect();
                return Some(bufs);
            }
            "pd_op.if" => {
                let cond = self.read(p, op, 0)[0] != 0.0;
                let region = p.op_region(op, if cond { 0 } else { 1 });
                let yielded = self.block(p, p.region_blocks(region)[0]);
                for (r, b) in p.results(op).zip(yielded) {
                    self.env.insert(r, b);
                }
                return None;
            }
            "pd_op.while" => {
                let body = p.region_blocks(p.op_region(op, 0))[0];
                let mut cond = self.env[&p.operand(op, 0).unwrap()];
                let mut carried: Vec<usize> = (1..p.num_operands(op))
                    .map(|i| self.env[&p.operand(op, i).unwrap()])
                    .collect();
                while self.bufs[cond][0] != 0.0 {
                    for (&arg, &b) in p.block_args(body).iter().zip(&carried) {
                        self.env.insert(arg, b);
                    }
                    let yielded = self.block(p, body);
                    cond = yielded[0];
                    carried = yielded[1..].to_vec();
                }
                for (r, b) in p.results(op).zip(carried) {
                    self.env.insert(r, b);
                }
                return None;
            }
            "pd_op.split_with_num" => {
                // Along axis 0: contiguous chunks, each a fresh buffer.
                assert_eq!(self.read(p, op, 1), [0.0], "axis 0 only");
                let x = self.read(p, op, 0);
                let num = number(p, p.attr(op, "num").unwrap()) as usize;
                let chunks = x
                    .chunks(x.len() / num)
                    .map(|chunk| {
                        self.bufs.push(chunk.to_vec());
                        self.bufs.len() - 1
                    })
                    .collect();
                self.vectors.insert(p.result(op, 0), chunks);
                return None;
            }
            "builtin.split" => {
                let elements = self.vectors[&p.operand(op, 0).unwrap()].clone();
                for (r, b) in p.results(op).zip(elements) {
                    self.env.insert(r, b);
                }
                return None;
            }
            "pd_op.fetch" => {
                let x = self.read(p, op, 0);
                self.fetched.insert(string(p, op, "name"), x.clone());
                x
            }
            "builtin.shadow_output" => {
                let b = self.env[&p.operand(op, 0).unwrap()];
                self.shadow.push((string(p, op, "output_name"), b));
                return None;
            }
            "pd_op.data" | "builtin.parameter" => {
                let r = p.result(op, 0);
                (0..elements(p, r)).map(|i| i as f64 * 0.75 - 2.0).collect()
            }
            "pd_op.full" => {
                let r = p.result(op, 0);
                vec![number(p, p.attr(op, "value").unwrap()); elements(p, r)]
            }
            "pd_op.full_int_array" => vec![0.0],
            "pd_op.full_with_tensor" => {
                let r = p.result(op, 0);
                vec![self.read(p, op, 0)[0]; elements(p, r)]
            }
            // In test mode, `upscale_in_train` passes its input through.
            "pd_op.dropout" => self.read(p, op, 0),
            "pd_op.abs" => self.read(p, op, 0).iter().map(|x| x.abs()).collect(),
            "pd_op.exp" => self.read(p, op, 0).iter().map(|x| x.exp()).collect(),
            "pd_op.relu" => self.read(p, op, 0).iter().map(|x| x.max(0.0)).collect(),
            "pd_op.tanh" => self.read(p, op, 0).iter().map(|x| x.tanh()).collect(),
            "pd_op.reshape" | "pd_op.assign" | "pd_op.cast" => self.read(p, op, 0),
            "pd_op.sum" => vec![self.read(p, op, 0).iter().sum()],
            "pd_op.scale" => {
                let s = self.read(p, op, 1)[0];
                let bias = number(p, p.attr(op, "bias").unwrap());
                self.read(p, op, 0).iter().map(|x| x * s + bias).collect()
            }
            "pd_op.add" => binary(&self.read(p, op, 0), &self.read(p, op, 1), |a, b| a + b),
            "pd_op.subtract" => binary(&self.read(p, op, 0), &self.read(p, op, 1), |a, b| a - b),
            "pd_op.multiply" => binary(&self.read(p, op, 0), &self.read(p, op, 1), |a, b| a * b),
            "pd_op.less_than" => binary(&self.read(p, op, 0), &self.read(p, op, 1), |a, b| {
                f64::from(u8::from(a < b))
            }),
            other => panic!("the test interpreter does not know {other}"),
        };
        // Buffers as the definition says: an in-place pair writes the
        // input's buffer, a view shares it.
        let r = p.result(op, 0);
        let def = p.op_info(op).and_then(|i| i.interface::<OpDefinition>());
        let (inplace, view) = def.map_or((&[][..], &[][..]), |d| {
            (d.0.inplace.as_slice(), d.0.view.as_slice())
        });
        let writes = inplace.iter().map(|pair| (pair, true));
        for (&(o, i), write) in writes.chain(view.iter().map(|pair| (pair, false))) {
            let def = def.unwrap().0;
            if def.output_index(&o) == Some(0) {
                let b = self.env[&p.operand(op, def.input_index(&i).unwrap()).unwrap()];
                if write {
                    self.bufs[b] = data;
                }
                self.env.insert(r, b);
                return None;
            }
        }
        self.fresh(r, data);
        None
    }
}

/// What a program outputs: fetched copies, and shadow outputs read at the end.
fn outputs(p: &Program) -> BTreeMap<String, Vec<f64>> {
    let mut m = Machine::default();
    m.block(p, p.top_block());
    let mut out = std::mem::take(&mut m.fetched);
    for (name, b) in &m.shadow {
        out.insert(name.clone(), m.bufs[*b].clone());
    }
    assert!(!out.is_empty(), "the program outputs nothing");
    out
}

/// Runs `pipeline` on `text` and checks that the outputs did not change.
/// Returns the program and the per-pass conversion counts.
fn run_checked(text: &str, pipeline: &str) -> (Program, Vec<u64>) {
    let mut p = parse(text);
    let before = outputs(&p);
    let counts = run(&mut p, pipeline);
    assert_eq!(outputs(&p), before, "{pipeline} changed the outputs:\n{p}");
    (p, counts)
}

/// Runs `pipeline` on `text` (a program the interpreter does not model);
/// the result must verify.
fn run_checked_structure(text: &str, pipeline: &str) -> (Program, Vec<u64>) {
    let mut p = parse(text);
    let counts = run(&mut p, pipeline);
    (p, counts)
}

const DATA: &str = r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>"#;
const PARAM: &str = r#"(%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<2x3xf32>"#;

fn fetch(v: u32, n: u32, name: &str) -> String {
    format!(
        r#"(%{n}) = "pd_op.fetch" (%{v}) {{col:0,name:"{name}",persistable:[true],stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>"#
    )
}

fn unary(op: &str, out: u32, x: &str) -> String {
    format!(
        r#"(%{out}) = "pd_op.{op}" ({x}) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>"#
    )
}

fn add(out: u32, x: u32, y: u32) -> String {
    format!(
        r#"(%{out}) = "pd_op.add" (%{x}, %{y}) {{stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>"#
    )
}

fn program(lines: &[String]) -> String {
    let body: String = lines.iter().map(|l| format!("    {l}\n")).collect();
    format!("{{\n{body}}}")
}

// ------------------------------------------------------------ de_inplace

/// `relu_` on an intermediate becomes `relu`; the read of the source before
/// it keeps reading the source, the read after it reads the new result.
#[test]
fn de_inplace_rewires_later_reads_of_the_source() {
    let text = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        unary("exp", 2, "%1"),
        unary("relu_", 3, "%1"),
        unary("tanh", 4, "%1"),
        add(5, 2, 4),
        add(6, 5, 3),
        fetch(6, 7, "out"),
    ]);
    let (p, counts) = run_checked(&text, "de_inplace");
    assert_eq!(counts, [1]);
    let expected = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        unary("exp", 2, "%1"),
        unary("relu", 3, "%1"),
        unary("tanh", 4, "%3"),
        add(5, 2, 4),
        add(6, 5, 3),
        fetch(6, 7, "out"),
    ]);
    assert_eq!(
        p.to_string().trim_end(),
        parse(&expected).to_string().trim_end()
    );
    let ops = top_ops(&p);
    assert_eq!(operand_def(&p, ops[2], 0), "pd_op.abs", "exp reads before");
    assert_eq!(operand_def(&p, ops[4], 0), "pd_op.relu", "tanh reads after");
}

/// A chain of two in-place ops converts in one run, and a read of the
/// first source after both reads the second result.
#[test]
fn de_inplace_converts_a_chain() {
    let text = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        unary("relu_", 2, "%1"),
        unary("exp", 3, "%1"),
        unary("tanh_", 4, "%2"),
        unary("exp", 5, "%1"),
        add(6, 3, 5),
        add(7, 6, 4),
        fetch(7, 8, "out"),
    ]);
    let (p, counts) = run_checked(&text, "de_inplace");
    assert_eq!(counts, [1 + 1]);
    assert_eq!(
        count(&p, "pd_op.relu_") + count(&p, "pd_op.tanh_"),
        0,
        "{p}"
    );
    let ops = top_ops(&p);
    assert_eq!(operand_def(&p, ops[3], 0), "pd_op.relu", "{p}");
    assert_eq!(operand_def(&p, ops[5], 0), "pd_op.tanh", "{p}");
}

/// Inputs and weights are updated in place on purpose: `relu_` on a
/// `pd_op.data` or `builtin.parameter` value stays.
#[test]
fn de_inplace_keeps_writes_to_data_and_parameters() {
    for source in [DATA, PARAM] {
        let text = program(&[
            source.into(),
            unary("relu_", 1, "%0"),
            unary("exp", 2, "%0"),
            add(3, 1, 2),
            fetch(3, 4, "out"),
        ]);
        let (p, counts) = run_checked(&text, "de_inplace");
        assert_eq!(counts, [0]);
        assert_eq!(count(&p, "pd_op.relu_"), 1, "{p}");
    }
}

const N: &str = r#"(%1) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:3} : () -> tensor<1xi64>"#;

/// A `while` that runs three times over `%2` (a copy of the input), `body`
/// being the body's first lines (`%arg_0` the carried tensor, `%7` the value
/// it yields), then `add(%5, %2)` (the loop's result and its input).
fn while_program(before: &[String], body: &[String]) -> String {
    while_program_then(before, body, &[add(11, 5, 2), fetch(11, 12, "out")])
}

/// The loop of [`while_program`] (results `%5`, the tensor, and `%6`, the
/// counter), then `after`.
fn while_program_then(before: &[String], body: &[String], after: &[String]) -> String {
    let mut lines: Vec<String> = vec![DATA.into(), N.into()];
    lines.extend_from_slice(before);
    lines.push(r#"(%3) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi64>"#.into());
    lines.push(r#"(%4) = "pd_op.less_than" (%3, %1) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>"#.into());
    lines.push(r#"(%5, %6) = "pd_op.while" (cond=%4, inputs=%2, %3) {"#.into());
    lines.push(r#"^%arg_0 {}, %arg_1 {}"#.into());
    for l in body {
        lines.push(format!("    {l}"));
    }
    lines.push(r#"    (%8) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>"#.into());
    lines.push(r#"    (%9) = "pd_op.scale" (%arg_1, %8) {bias:1,bias_after_scale:true,stop_gradient:[true]} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>"#.into());
    lines.push(r#"    (%10) = "pd_op.less_than" (%9, %1) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>"#.into());
    lines.push(r#"    () = "cf.yield" (%10, %7, %9) {} : (tensor<1xb>, tensor<2x3xf32>, tensor<1xi64>) -> "#.into());
    lines.push("}".into());
    lines.extend_from_slice(after);
    program(&lines)
}

/// `relu_` on the loop-carried body argument is the loop's state update: it
/// stays.
#[test]
fn de_inplace_keeps_writes_to_loop_carried_arguments() {
    let text = while_program(
        &[unary("abs", 2, "%0")],
        &[unary("relu_", 7, "%arg_0"), unary("exp", 13, "%arg_0")],
    );
    let (p, counts) = run_checked(&text, "de_inplace");
    assert_eq!(counts, [0]);
    assert_eq!(count(&p, "pd_op.relu_"), 1, "{p}");
}

/// Reads of the source nested in a later `if` are rewired like direct ones.
#[test]
fn de_inplace_rewires_reads_nested_in_later_ops() {
    let text = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        unary("relu_", 2, "%1"),
        r#"(%3) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xb>"#.into(),
        r#"(%4) = "pd_op.if" (%3) {stop_gradient:[false]} -> tensor<2x3xf32> {"#.into(),
        format!("    {}", unary("exp", 5, "%1")),
        r#"    () = "cf.yield" (%5) {} : (tensor<2x3xf32>) -> "#.into(),
        "} else {".into(),
        format!("    {}", unary("tanh", 6, "%1")),
        r#"    () = "cf.yield" (%6) {} : (tensor<2x3xf32>) -> "#.into(),
        "}".into(),
        add(7, 4, 2),
        fetch(7, 8, "out"),
    ]);
    let (p, counts) = run_checked(&text, "de_inplace");
    assert_eq!(counts, [1]);
    let exp = find(&p, "pd_op.exp");
    assert_eq!(operand_def(&p, exp, 0), "pd_op.relu", "{p}");
    let tanh = find(&p, "pd_op.tanh");
    assert_eq!(operand_def(&p, tanh, 0), "pd_op.relu", "{p}");
}

/// A source the executor knows by identity (here: yielded by a later `if`
/// branch) is left alone.
#[test]
fn de_inplace_keeps_writes_to_yielded_values() {
    let text = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        unary("relu_", 2, "%1"),
        r#"(%3) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xb>"#.into(),
        r#"(%4) = "pd_op.if" (%3) {stop_gradient:[false]} -> tensor<2x3xf32> {"#.into(),
        r#"    () = "cf.yield" (%1) {} : (tensor<2x3xf32>) -> "#.into(),
        "} else {".into(),
        format!("    {}", unary("tanh", 6, "%1")),
        r#"    () = "cf.yield" (%6) {} : (tensor<2x3xf32>) -> "#.into(),
        "}".into(),
        add(7, 4, 2),
        fetch(7, 8, "out"),
    ]);
    let (p, counts) = run_checked(&text, "de_inplace");
    assert_eq!(counts, [0]);
    assert_eq!(count(&p, "pd_op.relu_"), 1, "{p}");
}

/// A view of the source taken before the write sees the write: `relu_`
/// stays, and so does the `reshape_` (rewiring the later read of its source
/// to the reshaped value would change that read's type).
#[test]
fn de_inplace_keeps_writes_seen_through_an_earlier_view() {
    let text = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        r#"(%2) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[6]} : () -> tensor<1xi64>"#.into(),
        r#"(%3) = "pd_op.reshape_" (%1, %2) {stop_gradient:[false]} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<6xf32>"#.into(),
        unary("relu_", 4, "%1"),
        r#"(%5) = "pd_op.sum" (%3, %2) {dtype:float32,keepdim:false,stop_gradient:[false]} : (tensor<6xf32>, tensor<1xi64>) -> tensor<f32>"#.into(),
        r#"(%6) = "pd_op.fetch" (%5) {col:0,name:"sum",persistable:[true],stop_gradient:[false]} : (tensor<f32>) -> tensor<f32>"#.into(),
        fetch(4, 7, "out"),
    ]);
    let (p, counts) = run_checked(&text, "de_inplace");
    assert_eq!(counts, [0]);
    assert_eq!(count(&p, "pd_op.relu_"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.reshape_"), 1, "{p}");
}

/// Later in-place ops and views on the chain are fine: a `reshape_` after
/// the write reads the new result.
#[test]
fn de_inplace_rewires_a_later_view() {
    let text = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        r#"(%2) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[6]} : () -> tensor<1xi64>"#.into(),
        unary("relu_", 3, "%1"),
        r#"(%4) = "pd_op.reshape_" (%1, %2) {stop_gradient:[false]} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<6xf32>"#.into(),
        r#"(%5) = "pd_op.sum" (%4, %2) {dtype:float32,keepdim:false,stop_gradient:[false]} : (tensor<6xf32>, tensor<1xi64>) -> tensor<f32>"#.into(),
        r#"(%6) = "pd_op.fetch" (%5) {col:0,name:"sum",persistable:[true],stop_gradient:[false]} : (tensor<f32>) -> tensor<f32>"#.into(),
    ]);
    let (p, counts) = run_checked(&text, "de_inplace");
    // relu_, then reshape_ (its source has no later read).
    assert_eq!(counts, [2]);
    let reshape = find(&p, "pd_op.reshape");
    assert_eq!(operand_def(&p, reshape, 0), "pd_op.relu", "{p}");
}

/// `batch_norm_` updates its running mean and variance in place (declared
/// as views): it becomes `batch_norm` only when both pairs are legal, and a
/// later read of the mean then reads `mean_out`.
#[test]
fn de_inplace_needs_every_pair_legal() {
    let program = |variance: &str| {
        format!(
            r#"{{
    (%0) = "builtin.parameter" () {{is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"mean",persistable:[true],stop_gradient:[true],trainable:[false]}} : () -> tensor<8xf32>
    (%1) = "builtin.parameter" () {{is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"variance",persistable:[true],stop_gradient:[true],trainable:[false]}} : () -> tensor<8xf32>
    (%2) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[2,8,4,4],stop_gradient:[false]}} : () -> tensor<2x8x4x4xf32>
    (%3) = "pd_op.abs" (%0) {{stop_gradient:[true]}} : (tensor<8xf32>) -> tensor<8xf32>
    (%4) = "pd_op.abs" (%1) {{stop_gradient:[true]}} : (tensor<8xf32>) -> tensor<8xf32>
    (%5, %6, %7, %8, %9, %10) = "pd_op.batch_norm_" (%2, %3, {variance}, %0, %1) {{data_format:"NCHW",epsilon:1e-05,is_test:true,momentum:0.9,stop_gradient:[false,false,false,false,false,false],trainable_statistics:false,use_global_stats:true}} : (tensor<2x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<-1xu8>
    (%11) = "pd_op.exp" (%3) {{stop_gradient:[true]}} : (tensor<8xf32>) -> tensor<8xf32>
    (%12) = "pd_op.fetch" (%11) {{col:0,name:"m",persistable:[true],stop_gradient:[false]}} : (tensor<8xf32>) -> tensor<8xf32>
    (%13) = "pd_op.fetch" (%5) {{col:1,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
}}"#
        )
    };
    let (p, counts) = run_checked_structure(&program("%1"), "de_inplace");
    assert_eq!(counts, [0], "the variance is a parameter: {p}");
    let (p, counts) = run_checked_structure(&program("%4"), "de_inplace");
    assert_eq!(counts, [1], "{p}");
    let exp = find(&p, "pd_op.exp");
    assert_eq!(operand_def(&p, exp, 0), "pd_op.batch_norm", "{p}");
    assert_eq!(
        p.result(find(&p, "pd_op.batch_norm"), 1),
        p.operand(exp, 0).unwrap()
    );
}

// ------------------------------------------------------------ inplace

/// `relu(a)` as the last reader of an intermediate becomes `relu_`.
#[test]
fn inplace_converts_the_last_read() {
    let text = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        unary("exp", 2, "%1"),
        unary("relu", 3, "%1"),
        add(4, 2, 3),
        fetch(4, 5, "out"),
    ]);
    let (p, counts) = run_checked(&text, "inplace");
    // relu, and add (its first operand dies there too).
    assert_eq!(counts, [2]);
    let expected = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        unary("exp", 2, "%1"),
        unary("relu_", 3, "%1"),
        add(4, 2, 3).replace("pd_op.add", "pd_op.add_"),
        fetch(4, 5, "out"),
    ]);
    assert_eq!(
        p.to_string().trim_end(),
        parse(&expected).to_string().trim_end()
    );
}

/// A read of the input after the op keeps it out-of-place; the later
/// reader, being last, converts.
#[test]
fn inplace_keeps_ops_whose_input_is_read_later() {
    let text = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        unary("relu", 2, "%1"),
        unary("exp", 3, "%1"),
        add(4, 2, 3),
        fetch(4, 5, "out"),
    ]);
    let (p, _) = run_checked(&text, "inplace");
    assert_eq!(count(&p, "pd_op.relu"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.exp_"), 1, "{p}");
    // A later reader without an in-place twin.
    let text = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        unary("relu", 2, "%1"),
        r#"(%3) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0,1]} : () -> tensor<2xi64>"#.into(),
        r#"(%4) = "pd_op.sum" (%1, %3) {dtype:float32,keepdim:false,stop_gradient:[false]} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<f32>"#.into(),
        r#"(%5) = "pd_op.fetch" (%4) {col:0,name:"sum",persistable:[true],stop_gradient:[false]} : (tensor<f32>) -> tensor<f32>"#.into(),
        fetch(2, 6, "out"),
    ]);
    let (p, counts) = run_checked(&text, "inplace");
    assert_eq!(counts, [0], "{p}");
}

/// Inputs and weights are never overwritten.
#[test]
fn inplace_keeps_data_and_parameters() {
    for source in [DATA, PARAM] {
        let text = program(&[source.into(), unary("relu", 1, "%0"), fetch(1, 2, "out")]);
        let (p, counts) = run_checked(&text, "inplace");
        assert_eq!(counts, [0], "{p}");
    }
}

/// Constants may be shared by Paddle: `exp(full)` stays.
#[test]
fn inplace_keeps_constants() {
    let text = program(&[
        r#"(%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2,3],stop_gradient:[true],value:0.5} : () -> tensor<2x3xf32>"#.into(),
        unary("exp", 1, "%0"),
        fetch(1, 2, "out"),
    ]);
    let (_, counts) = run_checked(&text, "inplace");
    assert_eq!(counts, [0]);
}

/// Inside a loop body a value captured from outside is read again by the
/// next iteration: `relu` on it stays. A body-local value converts.
#[test]
fn inplace_keeps_captured_values_in_a_loop_body() {
    let text = while_program(
        &[unary("abs", 2, "%0"), unary("exp", 20, "%0")],
        &[
            unary("relu", 13, "%20"),
            unary("tanh", 14, "%arg_0"),
            add(15, 14, 13),
            unary("exp", 7, "%15"),
        ],
    );
    let (p, _) = run_checked(&text, "inplace");
    assert_eq!(count(&p, "pd_op.relu"), 1, "{p}");
    assert_eq!(
        count(&p, "pd_op.tanh"),
        1,
        "the body argument is carried: {p}"
    );
    assert_eq!(count(&p, "pd_op.add_"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.exp_"), 1, "{p}");
}

/// Broadcasting: `add(x: 1x3, y: 2x3)` gives 2x3, not x's type; with two
/// dynamic inputs of equal type the result may still be larger.
#[test]
fn inplace_keeps_ops_whose_result_type_may_differ() {
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[1,3],stop_gradient:[false]} : () -> tensor<1x3xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%2) = "pd_op.abs" (%0) {stop_gradient:[false]} : (tensor<1x3xf32>) -> tensor<1x3xf32>
    (%3) = "pd_op.add" (%2, %1) {stop_gradient:[false]} : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.fetch" (%3) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}"#;
    let (p, counts) = run_checked(text, "inplace");
    assert_eq!(counts, [0], "{p}");
    let dynamic = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%2) = "pd_op.abs" (%0) {stop_gradient:[false]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>
    (%3) = "pd_op.add" (%2, %1) {stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<-1x3xf32>) -> tensor<-1x3xf32>
    (%4) = "pd_op.relu" (%3) {stop_gradient:[false]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>
    (%5) = "pd_op.fetch" (%4) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>
}"#;
    let (p, counts) = run_checked(dynamic, "inplace");
    // Only relu (one tensor input) converts.
    assert_eq!(counts, [1], "{p}");
    assert_eq!(count(&p, "pd_op.relu_"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.add"), 1, "{p}");
    // A static bias cannot grow a dynamic batch: that add converts.
    let bias = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"b",place:Place(undefined:0),shape:[3],stop_gradient:[false]} : () -> tensor<3xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"c",place:Place(undefined:0),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%3) = "pd_op.abs" (%0) {stop_gradient:[false]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>
    (%4) = "pd_op.add" (%3, %1) {stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<3xf32>) -> tensor<-1x3xf32>
    (%5) = "pd_op.abs" (%0) {stop_gradient:[false]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>
    (%6) = "pd_op.add" (%5, %2) {stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<2x3xf32>) -> tensor<-1x3xf32>
    (%7) = "pd_op.fetch" (%4) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>
    (%8) = "pd_op.fetch" (%6) {col:1,name:"out2",persistable:[true],stop_gradient:[false]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>
}"#;
    let (p, counts) = run_checked_structure(bias, "inplace");
    // The add of a [2,3] operand could grow a batch of 1: it stays.
    assert_eq!(counts, [1], "{p}");
    assert_eq!(count(&p, "pd_op.add_"), 1, "{p}");
}

/// Paddle never runs `transpose` in place. A `-1` other than a leading
/// batch dim (which Paddle refuses) is fine for an op of one tensor input,
/// whose result has that input's shape; `add` of two such tensors may
/// broadcast one to a larger result and stays out of place.
#[test]
fn inplace_keeps_transposes_and_broadcasts_of_inner_dynamic_dims() {
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,3],stop_gradient:[false]} : () -> tensor<2x3x3xf32>
    (%1) = "pd_op.abs" (%0) {stop_gradient:[false]} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    (%2) = "pd_op.transpose" (%1) {perm:[0,2,1],stop_gradient:[false]} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
}"#;
    let (p, counts) = run_checked_structure(text, "inplace");
    assert_eq!(counts, [0], "{p}");
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,-1],stop_gradient:[false]} : () -> tensor<2x-1xf32>
    (%1) = "pd_op.abs" (%0) {stop_gradient:[false]} : (tensor<2x-1xf32>) -> tensor<2x-1xf32>
    (%2) = "pd_op.relu" (%1) {stop_gradient:[false]} : (tensor<2x-1xf32>) -> tensor<2x-1xf32>
    (%3) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[2,-1],stop_gradient:[false]} : () -> tensor<2x-1xf32>
    (%4) = "pd_op.exp" (%3) {stop_gradient:[false]} : (tensor<2x-1xf32>) -> tensor<2x-1xf32>
    (%5) = "pd_op.add" (%2, %4) {stop_gradient:[false]} : (tensor<2x-1xf32>, tensor<2x-1xf32>) -> tensor<2x-1xf32>
    (%6) = "pd_op.fetch" (%5) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<2x-1xf32>) -> tensor<2x-1xf32>
}"#;
    let (p, counts) = run_checked(text, "inplace");
    assert_eq!(counts, [1], "{p}");
    assert_eq!(count(&p, "pd_op.relu_"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.exp_"), 0, "exp reads a data input\n{p}");
    assert_eq!(count(&p, "pd_op.add_"), 0, "{p}");
}

/// Reads nested in control flow count where their op runs: an input read
/// in an earlier branch and a result read in a later one are done with or
/// read after the write, so the op goes in place (as Paddle's
/// `inplace_pass` takes them); an input read in a later branch is not dead,
/// and the op stays.
#[test]
fn inplace_orders_reads_inside_regions_by_their_op() {
    let branch = |line: String| {
        vec![
            r#"(%9) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xb>"#.to_owned(),
            r#"(%10) = "pd_op.if" (%9) {stop_gradient:[false]} -> tensor<2x3xf32> {"#.into(),
            format!("    {line}"),
            r#"    () = "cf.yield" (%11) {} : (tensor<2x3xf32>) -> "#.into(),
            "} else {".into(),
            r#"    () = "cf.yield" (%0) {} : (tensor<2x3xf32>) -> "#.into(),
            "}".into(),
        ]
    };
    // The input is read in an earlier branch.
    let mut lines = vec![DATA.to_owned(), unary("abs", 1, "%0")];
    lines.extend(branch(unary("exp", 11, "%1")));
    lines.extend([unary("relu", 2, "%1"), add(3, 2, 10), fetch(3, 4, "out")]);
    let (p, _) = run_checked(&program(&lines), "inplace");
    assert_eq!(count(&p, "pd_op.relu_"), 1, "{p}");
    // The result is read in a later branch.
    let mut lines = vec![
        DATA.to_owned(),
        unary("abs", 1, "%0"),
        unary("relu", 2, "%1"),
    ];
    lines.extend(branch(unary("exp", 11, "%2")));
    lines.extend([add(3, 2, 10), fetch(3, 4, "out")]);
    let (p, _) = run_checked(&program(&lines), "inplace");
    assert_eq!(count(&p, "pd_op.relu_"), 1, "{p}");
    // The input is read in a later branch.
    let mut lines = vec![
        DATA.to_owned(),
        unary("abs", 1, "%0"),
        unary("relu", 2, "%1"),
    ];
    lines.extend(branch(unary("exp", 11, "%1")));
    lines.extend([add(3, 2, 10), fetch(3, 4, "out")]);
    let (p, _) = run_checked(&program(&lines), "inplace");
    assert_eq!(count(&p, "pd_op.relu_"), 0, "{p}");
}

/// An op reading its input twice (`add(a, a)`) would read what it writes,
/// and a fetched value's buffer may be handed out: both stay out-of-place.
#[test]
fn inplace_keeps_inputs_read_twice_or_fetched() {
    let twice = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        add(2, 1, 1),
        fetch(2, 3, "out"),
    ]);
    let (p, counts) = run_checked(&twice, "inplace");
    assert_eq!(counts, [0], "{p}");
    let fetched = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        fetch(1, 2, "a"),
        unary("relu", 3, "%1"),
        fetch(3, 4, "out"),
    ]);
    let (p, counts) = run_checked(&fetched, "inplace");
    assert_eq!(counts, [0], "{p}");
}

/// A value the executor binds by name keeps its buffer: an earlier shadow
/// output, or a yield of the value.
#[test]
fn inplace_keeps_pinned_values() {
    let shadowed = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        r#"() = "builtin.shadow_output" (%1) {output_name:"a"} : (tensor<2x3xf32>) -> "#.into(),
        unary("relu", 2, "%1"),
        fetch(2, 3, "out"),
    ]);
    let (p, counts) = run_checked(&shadowed, "inplace");
    assert_eq!(counts, [0], "{p}");
    let yielded = program(&[
        DATA.into(),
        r#"(%1) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xb>"#.into(),
        r#"(%2) = "pd_op.if" (%1) {stop_gradient:[false]} -> tensor<2x3xf32> {"#.into(),
        format!("    {}", unary("abs", 3, "%0")),
        format!("    {}", unary("relu", 4, "%3")),
        r#"    () = "cf.yield" (%3) {} : (tensor<2x3xf32>) -> "#.into(),
        "} else {".into(),
        r#"    () = "cf.yield" (%0) {} : (tensor<2x3xf32>) -> "#.into(),
        "}".into(),
        fetch(2, 5, "out"),
    ]);
    let (p, counts) = run_checked(&yielded, "inplace");
    assert_eq!(counts, [0], "{p}");
}

/// An `if` result shares the buffer its taken branch yields, and the
/// branch is done: after the `if`, an op may write the result in place (as
/// Paddle's `inplace_pass` does). Not when a branch yields a value read after
/// the `if`: writing the result would write that value.
#[test]
fn inplace_writes_if_results_whose_branches_are_done() {
    let branches = |else_yield: &str| {
        vec![
            DATA.into(),
            unary("abs", 1, "%0"),
            r#"(%2) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xb>"#.into(),
            r#"(%3) = "pd_op.if" (%2) {stop_gradient:[false]} -> tensor<2x3xf32> {"#.into(),
            format!("    {}", unary("exp", 4, "%1")),
            r#"    () = "cf.yield" (%4) {} : (tensor<2x3xf32>) -> "#.into(),
            "} else {".into(),
            format!("    {}", unary("tanh", 5, "%1")),
            format!(r#"    () = "cf.yield" ({else_yield}) {{}} : (tensor<2x3xf32>) -> "#),
            "}".into(),
        ]
    };
    let mut fresh = branches("%5");
    fresh.extend([unary("relu", 6, "%3"), add(7, 6, 1), fetch(7, 8, "out")]);
    let (p, counts) = run_checked(&program(&fresh), "inplace");
    assert_eq!(counts, [2], "relu and add: {p}");
    assert_eq!(
        operand_def(&p, find(&p, "pd_op.relu_"), 0),
        "pd_op.if",
        "{p}"
    );
    let mut outer = branches("%1");
    outer.extend([unary("relu", 6, "%3"), add(7, 6, 1), fetch(7, 8, "out")]);
    let (p, _) = run_checked(&program(&outer), "inplace");
    assert_eq!(
        count(&p, "pd_op.relu_"),
        0,
        "the else branch yields abs, read later: {p}"
    );
}

// ------------------------------------------------------------ both

/// `de_inplace` then `inplace` gives the in-place chain back.
#[test]
fn de_inplace_then_inplace_restores_a_chain() {
    let text = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        unary("relu_", 2, "%1"),
        unary("tanh_", 3, "%2"),
        unary("exp_", 4, "%3"),
        fetch(4, 5, "out"),
    ]);
    let original = parse(&text).to_string();
    let (p, counts) = run_checked(&text, "de_inplace,inplace");
    assert_eq!(counts, [3, 3]);
    assert_eq!(p.to_string(), original);
}

/// The optimisation pipeline the pair is meant for keeps the program valid
/// and its meaning.
#[test]
fn de_inplace_and_inplace_around_the_cleanups() {
    let text = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        unary("relu_", 2, "%1"),
        unary("exp", 3, "%1"),
        unary("exp", 4, "%2"),
        r#"(%5) = "pd_op.assign" (%3) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>"#.into(),
        add(6, 5, 4),
        unary("tanh_", 7, "%6"),
        unary("relu", 8, "%6"),
        add(9, 7, 8),
        fetch(9, 10, "out"),
    ]);
    let (p, counts) = run_checked(&text, "de_inplace,canonicalize,cse,dce,inplace");
    assert_eq!(counts[0], 2, "{p}");
    // After de_inplace both exps read relu's result; CSE merges them and
    // the assign goes: exp, add(e, e), tanh, relu, add.
    assert_eq!(count(&p, "pd_op.exp") + count(&p, "pd_op.exp_"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.assign"), 0, "{p}");
}

/// How many ops of each in-place kind (`relu_`, `reshape_`, ...) `p` has,
/// nested ones included.
fn in_place_ops(p: &Program) -> BTreeMap<String, usize> {
    let mut kinds = BTreeMap::new();
    p.walk(p.module_op(), pir_core::walk::Order::Pre, &mut |op| {
        let def = p.op_info(op).and_then(|i| i.interface::<OpDefinition>());
        if def.is_some_and(|d| !d.0.inplace.is_empty() || !d.0.view.is_empty()) {
            *kinds.entry(p.op_name_str(op).to_owned()).or_insert(0) += 1;
        }
    });
    kinds
}

/// Names the model being run if a pass panics on it.
struct RunningOn<'a>(&'a str);

impl Drop for RunningOn<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("while running {}", self.0);
        }
    }
}

/// One snapshot line: the ops each pipeline converted, and which in-place
/// ops `inplace` alone made.
fn snapshot_line(name: &str, original: &Program) -> String {
    let _context = RunningOn(name);
    let mut parts = Vec::new();
    for pipeline in ["de_inplace", "inplace", "de_inplace,inplace"] {
        let mut p = original.clone();
        let counts: Vec<String> = run(&mut p, pipeline).iter().map(u64::to_string).collect();
        let mut part = format!("{pipeline} {}", counts.join("+"));
        if pipeline == "inplace" {
            let (before, after) = (in_place_ops(original), in_place_ops(&p));
            let added: Vec<String> = after
                .iter()
                .filter_map(|(kind, &n)| {
                    let added = n - before.get(kind).copied().unwrap_or(0);
                    let kind = kind.strip_prefix("pd_op.").unwrap_or(kind);
                    (added > 0).then(|| format!("{kind} {added}"))
                })
                .collect();
            if !added.is_empty() {
                part += &format!(" ({})", added.join(", "));
            }
        }
        parts.push(part);
    }
    format!("{name}: {}", parts.join(" | "))
}

/// Both passes on every corpus and control-flow model verify, and convert
/// the ops `tests/snapshots/inplace_corpus.txt` records (one line per model:
/// the ops `de_inplace`, `inplace` and `de_inplace,inplace` converted, and
/// the in-place ops `inplace` added by kind). Models of the full corpus
/// absent here are skipped. Re-bless after an intended change with
/// `PIR_BLESS=1 cargo test -p pir-pass --test inplace` and review the diff.
#[test]
fn corpus_in_place_ops_match_their_snapshot() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/inplace_corpus.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let (header, recorded): (Vec<&str>, Vec<&str>) =
        text.lines().partition(|l| l.starts_with("//"));
    let mut snapshot: BTreeMap<String, String> = recorded
        .iter()
        .filter_map(|l| Some((l.split_once(':')?.0.to_owned(), (*l).to_owned())))
        .collect();
    let mut failures = Vec::new();
    let mut seen = Vec::new();
    let models = pir_corpus::models()
        .into_iter()
        .chain(pir_corpus::control_flow_models());
    for model in models {
        let ctx = pir_dialects::pd_op_context();
        let original = pir_serde::read_file(ctx, &model.json(), &Default::default())
            .unwrap()
            .program;
        let line = snapshot_line(&model.name, &original);
        if snapshot.get(&model.name) != Some(&line) {
            failures.push(format!(
                "  recorded {:?}\n  now      {line:?}",
                snapshot.get(&model.name)
            ));
            snapshot.insert(model.name.clone(), line);
        }
        seen.push(model.name);
    }
    // Every model of the full corpus ran: a recorded model that did not is
    // gone.
    if pir_corpus::full_corpus_available() && std::env::var_os("PIR_CORPUS").is_none() {
        for name in snapshot.keys().filter(|n| !seen.contains(n)) {
            failures.push(format!("  {name}: recorded, but no such model"));
        }
        snapshot.retain(|n, _| seen.contains(n));
    }
    if std::env::var_os("PIR_BLESS").is_some() {
        let mut out: String = header.iter().map(|l| format!("{l}\n")).collect();
        for line in snapshot.values() {
            out += line;
            out.push('\n');
        }
        std::fs::write(&path, out).unwrap();
    } else {
        assert!(
            failures.is_empty(),
            "{} differs (re-bless with PIR_BLESS=1 and review):\n{}",
            path.display(),
            failures.join("\n")
        );
    }
}

/// Two inputs with a dynamic batch: in place only when both provably have
/// the data input's batch (by the symbolic shapes), as a residual add does.
#[test]
fn inplace_converts_a_residual_add_of_one_batch() {
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%1) = "pd_op.abs" (%0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%2) = "pd_op.exp" (%1) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%3) = "pd_op.add" (%2, %1) {stop_gradient:[false]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%4) = "pd_op.fetch" (%3) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
}"#;
    let (p, counts) = run_checked(text, "inplace");
    assert_eq!(counts, [1], "{p}");
    assert_eq!(count(&p, "pd_op.add_"), 1, "{p}");
}

/// The same add of two data inputs' values: one batch may be 1 and
/// broadcast to the other's, so the result may not fit the first buffer.
#[test]
fn inplace_keeps_an_add_of_two_batches() {
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%2) = "pd_op.abs" (%0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%3) = "pd_op.abs" (%1) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%4) = "pd_op.add" (%2, %3) {stop_gradient:[false]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%5) = "pd_op.fetch" (%4) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
}"#;
    let (p, counts) = run_checked(text, "inplace");
    assert_eq!(counts, [0], "{p}");
}

/// A value an earlier in-place op wrote (`relu_`) is still the last
/// version of its buffer: the add after it writes there too.
#[test]
fn inplace_continues_a_chain() {
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.abs" (%0) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%2) = "pd_op.relu_" (%1) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.add" (%2, %0) {stop_gradient:[false]} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.fetch" (%3) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}"#;
    let (p, counts) = run_checked(text, "inplace");
    assert_eq!(counts, [1], "{p}");
    assert_eq!(count(&p, "pd_op.add_"), 1, "{p}");
    // ... but not when the chain's first value is read after the add
    let text = text.replace(
        r#"(%4) = "pd_op.fetch" (%3)"#,
        r#"(%5) = "pd_op.exp" (%1) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.fetch" (%3)"#,
    );
    let (p, _) = run_checked(&text, "inplace");
    assert_eq!(count(&p, "pd_op.add_"), 0, "{p}");
}

/// A view (`reshape`, `squeeze`, `unsqueeze`, `flatten`) of a dead value
/// shares its buffer although the types differ, dynamic inner dims
/// included: the op keeps the element count by definition. A view whose
/// input is read later does not.
#[test]
fn inplace_converts_views_of_dead_values() {
    let view = |out: &str, later: &str| {
        format!(
            r#"{{
    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,-1,8],stop_gradient:[false]}} : () -> tensor<-1x-1x8xf32>
    (%1) = "pd_op.abs" (%0) {{stop_gradient:[false]}} : (tensor<-1x-1x8xf32>) -> tensor<-1x-1x8xf32>
    (%2) = "pd_op.full_int_array" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0,0,2,4]}} : () -> tensor<4xi64>
    (%3) = "pd_op.reshape" (%1, %2) {{stop_gradient:[false]}} : (tensor<-1x-1x8xf32>, tensor<4xi64>) -> tensor<{out}xf32>
    {later}
    (%4) = "pd_op.fetch" (%3) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<{out}xf32>) -> tensor<{out}xf32>
}}"#
        )
    };
    let (p, counts) = run_checked_structure(&view("-1x-1x2x4", ""), "inplace");
    assert_eq!(counts, [1], "{p}");
    assert_eq!(count(&p, "pd_op.reshape_"), 1, "{p}");
    let read_later = r#"(%5) = "pd_op.exp" (%1) {stop_gradient:[false]} : (tensor<-1x-1x8xf32>) -> tensor<-1x-1x8xf32>"#;
    let (p, _) = run_checked_structure(&view("-1x-1x2x4", read_later), "inplace");
    assert_eq!(count(&p, "pd_op.reshape_"), 0, "{p}");
}

/// A loop's result is done with its loop once the loop is: an op after the
/// loop may write it in place (Paddle's `inplace_pass` does), although the
/// loop shared its buffer with the carried input, the body's argument and
/// what the body yielded. Not when the loop's input is read after the loop
/// (a loop that runs no iteration hands the input's buffer out as its
/// result), nor when the carried value started as a constant (Paddle folds
/// constants into persistable tensors kept across runs).
#[test]
fn inplace_writes_loop_results_after_the_loop() {
    let body = [unary("tanh", 7, "%arg_0")];
    let after = [unary("exp", 11, "%5"), fetch(11, 12, "out")];
    let text = while_program_then(&[unary("abs", 2, "%0")], &body, &after);
    let (p, counts) = run_checked(&text, "inplace");
    assert_eq!(counts, [1], "{p}");
    assert_eq!(
        operand_def(&p, find(&p, "pd_op.exp_"), 0),
        "pd_op.while",
        "{p}"
    );
    // The input is read after the loop, by the add itself.
    let text = while_program(&[unary("abs", 2, "%0")], &body);
    let (p, _) = run_checked(&text, "inplace");
    assert_eq!(count(&p, "pd_op.add_"), 0, "{p}");
    // The counter started as `full`.
    let counter = [
        r#"(%11) = "pd_op.abs" (%6) {stop_gradient:[true]} : (tensor<1xi64>) -> tensor<1xi64>"#.to_owned(),
        r#"(%12) = "pd_op.fetch" (%11) {col:0,name:"n",persistable:[true],stop_gradient:[true]} : (tensor<1xi64>) -> tensor<1xi64>"#.to_owned(),
        fetch(5, 13, "out"),
    ];
    let text = while_program_then(&[unary("abs", 2, "%0")], &body, &counter);
    let (p, counts) = run_checked(&text, "inplace");
    assert_eq!(counts, [0], "{p}");
}

const SPLIT_INPUT: &str = r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4,3],stop_gradient:[false]} : () -> tensor<4x3xf32>"#;

/// `split_with_num` of `%1` (4x3) into two 2x3 halves `%4`, `%5`, then
/// `rest`.
fn split_program(rest: &[String]) -> String {
    let mut lines = vec![
        SPLIT_INPUT.to_owned(),
        r#"(%1) = "pd_op.abs" (%0) {stop_gradient:[false]} : (tensor<4x3xf32>) -> tensor<4x3xf32>"#.into(),
        r#"(%2) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi32>"#.into(),
        r#"(%3) = "pd_op.split_with_num" (%1, %2) {num:2,stop_gradient:[false]} : (tensor<4x3xf32>, tensor<1xi32>) -> vec[tensor<2x3xf32>,tensor<2x3xf32>]"#.into(),
        r#"(%4, %5) = "builtin.split" (%3) {stop_gradient:[false,false]} : (vec[tensor<2x3xf32>,tensor<2x3xf32>]) -> tensor<2x3xf32>, tensor<2x3xf32>"#.into(),
    ];
    lines.extend_from_slice(rest);
    program(&lines)
}

/// The elements one `builtin.split` takes out of a vector that one op made
/// are buffers of their own: an op writing one of them leaves its sibling,
/// read later, alone. A second split of the vector names the same buffers
/// again, and the write waits for its reads.
#[test]
fn inplace_writes_one_element_of_a_split_vector() {
    let text = split_program(&[
        unary("exp", 6, "%4"),
        unary("tanh", 7, "%5"),
        add(8, 6, 7),
        fetch(8, 9, "out"),
    ]);
    let (p, counts) = run_checked(&text, "inplace");
    assert_eq!(counts, [3], "exp, tanh and add: {p}");
    let text = split_program(&[
        unary("exp", 6, "%4"),
        r#"(%10, %11) = "builtin.split" (%3) {stop_gradient:[false,false]} : (vec[tensor<2x3xf32>,tensor<2x3xf32>]) -> tensor<2x3xf32>, tensor<2x3xf32>"#.into(),
        unary("tanh", 7, "%10"),
        add(8, 6, 7),
        fetch(8, 9, "out"),
    ]);
    let (p, _) = run_checked(&text, "inplace");
    assert_eq!(count(&p, "pd_op.exp_"), 0, "{p}");
}

/// `dropout` draws its mask at random (its definition declares the side
/// effect), but where its result goes does not change the draw: as the
/// last reader of its input it goes in place, as Paddle's `inplace_pass`
/// takes it.
#[test]
fn inplace_converts_a_dropout() {
    let text = program(&[
        DATA.into(),
        unary("abs", 1, "%0"),
        r#"(%2) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.1} : () -> tensor<1xf32>"#.into(),
        r#"(%3, %4) = "pd_op.dropout" (%1, <<NULL VALUE>>, %2) {fix_seed:false,is_test:true,mode:"upscale_in_train",seed:0,stop_gradient:[false,false]} : (tensor<2x3xf32>, <<NULL TYPE>>, tensor<1xf32>) -> tensor<2x3xf32>, tensor<2x3xu8>"#.into(),
        fetch(3, 5, "out"),
    ]);
    let (p, counts) = run_checked(&text, "inplace");
    assert_eq!(counts, [1], "{p}");
    assert_eq!(count(&p, "pd_op.dropout_"), 1, "{p}");
}

/// `full_with_tensor` fills a fresh buffer on every run (Paddle never folds
/// it), so an op may write its result; a `full`'s result, which Paddle
/// folds into a persistable tensor, stays unwritten.
#[test]
fn inplace_writes_filled_tensors_but_not_constants() {
    let fill = |source: &str| {
        program(&[
            DATA.into(),
            r#"(%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf32>"#.into(),
            r#"(%2) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2,3]} : () -> tensor<2xi64>"#.into(),
            source.to_owned(),
            unary("exp", 4, "%3"),
            add(5, 4, 0),
            fetch(5, 6, "out"),
        ])
    };
    let filled = fill(
        r#"(%3) = "pd_op.full_with_tensor" (%1, %2) {dtype:float32,stop_gradient:[true]} : (tensor<1xf32>, tensor<2xi64>) -> tensor<2x3xf32>"#,
    );
    let (p, _) = run_checked(&filled, "inplace");
    assert_eq!(count(&p, "pd_op.exp_"), 1, "{p}");
    let constant = fill(
        r#"(%3) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2,3],stop_gradient:[true],value:2} : () -> tensor<2x3xf32>"#,
    );
    let (p, _) = run_checked(&constant, "inplace");
    assert_eq!(count(&p, "pd_op.exp_"), 0, "{p}");
}
