//! `de_inplace` and `inplace`: small programs in Paddle's text, each run
//! through a pass and then checked twice — by structure (which ops were
//! converted, which operand reads what) and by meaning: a small interpreter
//! that models buffers (an in-place op writes its input's buffer, a view
//! shares it, `shadow_output` reads its buffer at the end) runs the program
//! before and after, and the fetched outputs must be equal. A use rewired to
//! the wrong value shows up as a different number.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

#[path = "../common/mod.rs"]
mod common;
mod corpus;
mod de_inplace;
mod inplace;
mod machine;

use common::{count, parse, run_records};
use machine::outputs;
use pir_core::{OpId, Program};

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

/// The printed type of an f32 tensor of `dims` (`-1`: unknown).
fn f32_tensor(dims: &[i64]) -> String {
    let prefix: String = dims.iter().map(|d| format!("{d}x")).collect();
    format!("tensor<{prefix}f32>")
}

/// `(%{id}) = pd_op.data` named `name`, an f32 tensor of `dims`.
fn data_of(id: u32, name: &str, dims: &[i64]) -> String {
    let shape: Vec<String> = dims.iter().map(i64::to_string).collect();
    format!(
        r#"(%{id}) = "pd_op.data" () {{dtype:float32,name:"{name}",place:Place(undefined:0),shape:[{}],stop_gradient:[false]}} : () -> {}"#,
        shape.join(","),
        f32_tensor(dims)
    )
}

/// `(%{n}) = pd_op.fetch (%{v})` of a `ty` tensor, column `col` named `name`.
fn fetch_of(v: u32, n: u32, col: u32, name: &str, ty: &str) -> String {
    format!(
        r#"(%{n}) = "pd_op.fetch" (%{v}) {{col:{col},name:"{name}",persistable:[true],stop_gradient:[false]}} : ({ty}) -> {ty}"#
    )
}

/// `(%{out}) = pd_op.{op} ({x})` of a `ty` tensor to one of the same type.
fn unary_of(op: &str, out: u32, x: &str, ty: &str) -> String {
    format!(r#"(%{out}) = "pd_op.{op}" ({x}) {{stop_gradient:[false]}} : ({ty}) -> {ty}"#)
}

/// `(%{out}) = pd_op.add (%{x}, %{y})` of the types `[x, y, result]`.
fn add_of(out: u32, x: u32, y: u32, [tx, ty, tr]: [&str; 3]) -> String {
    format!(
        r#"(%{out}) = "pd_op.add" (%{x}, %{y}) {{stop_gradient:[false]}} : ({tx}, {ty}) -> {tr}"#
    )
}

/// The type of the programs written with [`fetch`], [`unary`] and [`add`].
const T_2X3: &str = "tensor<2x3xf32>";

fn fetch(v: u32, n: u32, name: &str) -> String {
    fetch_of(v, n, 0, name, T_2X3)
}

fn unary(op: &str, out: u32, x: &str) -> String {
    unary_of(op, out, x, T_2X3)
}

fn add(out: u32, x: u32, y: u32) -> String {
    add_of(out, x, y, [T_2X3; 3])
}

/// A `full` bool `%{cond}` of `taken` (1: the first branch runs), then
/// `(%{out}) = pd_op.if (%{cond})` of one 2x3 tensor; each branch is its
/// lines and the value it yields.
fn if_else(cond: u32, taken: u8, out: u32, then: Branch, otherwise: Branch) -> Vec<String> {
    let mut lines = vec![
        format!(
            r#"(%{cond}) = "pd_op.full" () {{dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:{taken}}} : () -> tensor<1xb>"#
        ),
        format!(
            r#"(%{out}) = "pd_op.if" (%{cond}) {{stop_gradient:[false]}} -> tensor<2x3xf32> {{"#
        ),
    ];
    for (i, (body, yielded)) in [then, otherwise].into_iter().enumerate() {
        if i == 1 {
            lines.push("} else {".into());
        }
        lines.extend(body.iter().map(|l| format!("    {l}")));
        lines.push(format!(
            r#"    () = "cf.yield" ({yielded}) {{}} : (tensor<2x3xf32>) -> "#
        ));
    }
    lines.push("}".into());
    lines
}

/// A branch of [`if_else`]: its lines and the value it yields.
type Branch<'a> = (&'a [String], &'a str);

fn program(lines: &[String]) -> String {
    let body: String = lines.iter().map(|l| format!("    {l}\n")).collect();
    format!("{{\n{body}}}")
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
