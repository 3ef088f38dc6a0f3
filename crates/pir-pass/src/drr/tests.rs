//! Unit tests of the rule language: parsing, printing, checks, matching.

use std::sync::Arc;

use pir_core::builtin::{DenseTensorType, StrAttr};
use pir_core::{Builder, Program};
use pir_dialects::ops::{AddOp, MatmulOp, ReluOp};

use super::RuleSet;
use crate::rewrite::{apply_greedily, FrozenPatternSet, GreedyConfig};

pub(super) const FC: &str = r#"
// y = x·w + b: one pd_op.fc
rule matmul_add_to_fc {
    %mm = pd_op.matmul(%x, %w) {transpose_x: false, transpose_y: false}
    %out = pd_op.add(%mm, %b)
    where rank(%w) == 2 && rank(%b) == 1 && dim(%w, 1) == dim(%b, 0)
    where is_param(%w) || true
    =>
    %out = pd_op.fc(%x, %w, %b) {in_num_col_dims: rank(%x) - 1, activation_type: "", padding_weights: false}
}
"#;

fn parse(text: &str) -> RuleSet {
    match RuleSet::parse(text, "test.drr") {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    }
}

fn error(text: &str) -> String {
    match RuleSet::parse(text, "test.drr") {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_rule_prints_and_parses_back_to_itself() {
    let rules = parse(FC);
    let printed = rules.to_string();
    let again = parse(&printed);
    assert_eq!(rules, again, "{printed}");
    assert_eq!(printed, again.to_string());
    assert_eq!(rules.rules[0].line, 3);
}

#[test]
fn expressions_print_with_the_parentheses_they_need() {
    let text = "rule r { %y = pd_op.relu(%x)\n where (1 - (2 - 3)) * -(4) == -5 + [1, 2][0] && !(true || false)\n => %y = %x }";
    let rules = parse(text);
    let printed = rules.to_string();
    assert!(
        printed.contains("where (1 - (2 - 3)) * -(4) == -5 + [1, 2][0] && !(true || false)"),
        "{printed}"
    );
    assert_eq!(parse(&printed), rules);
}

#[test]
fn malformed_rules_say_where_and_why() {
    let cases = [
        (
            "rule r { %y = pd_op.nosuch(%x) => %y = %x }",
            "1:15",
            "unknown op `pd_op.nosuch`",
        ),
        (
            "rule r { %y = pd_op.relu(%x) {nosuch: 1} => %y = %x }",
            "1:31",
            "has no attribute `nosuch`",
        ),
        (
            "rule r { %y = pd_op.relu(%x) => %z = %x }",
            "1:1",
            "replaces no source tensor",
        ),
        (
            "rule r { %y = pd_op.relu(%x) where rank(%q) == 1 => %y = %x }",
            "",
            "`%q` is not a tensor of the pattern",
        ),
        (
            "rule r { %y = pd_op.relu(%x) where $a == 1 => %y = %x }",
            "",
            "`$a` is not bound",
        ),
        (
            "rule r { %y = pd_op.relu(%x) where frob(%x) => %y = %x }",
            "",
            "unknown function `frob`",
        ),
        (
            "rule r { %y = pd_op.relu(%x, %x) => %y = %x }",
            "",
            "has 1 operands, not 2",
        ),
        (
            "rule r { %y = pd_op.relu(%x) => %y = pd_op.transpose(%x) {} }",
            "",
            "needs attribute `perm`",
        ),
        (
            "rule r { %y = pd_op.relu(%x) => %y = pd_op.relu(none) }",
            "",
            "is not optional",
        ),
        (
            "rule r { %y = pd_op.relu(%x) => %x = pd_op.relu(%y) }",
            "",
            "input of the pattern",
        ),
        (
            "rule r { %y = pd_op.relu(%x) => %y, %z = pd_op.relu(%x) }",
            "",
            "has 1 results, not 2",
        ),
        (
            "rule r { %a = pd_op.relu(%x)\n %y = pd_op.relu(%x) => %y = %x }",
            "",
            "does not feed the last source op",
        ),
        (
            "rule r { %y = pd_op.relu(%x) => %y = %x }\nrule r { %y = pd_op.relu(%x) => %y = %x }",
            "2:1",
            "a second rule `r`",
        ),
        (
            "rule r { %y = pd_op.relu(%x) => %t = pd_op.relu(%x) }",
            "1:1",
            "replaces no source tensor",
        ),
        (
            // An op without type inference (an XPU fusion).
            "rule r { %y = pd_op.relu(%x) => %t, %a, %b = pd_op.mask_adaptive_xpu(%x)\n %y = pd_op.relu(%t) }",
            "1:33",
            "has no type inference: give its type",
        ),
        ("rule r { %y = pd_op.relu(%x)", "", "expected"),
    ];
    for (text, at, message) in cases {
        let e = error(text);
        assert!(e.contains(message), "{text}\n=> {e}");
        if !at.is_empty() {
            let (line, col) = at.split_once(':').unwrap();
            assert!(
                e.contains(&format!("line {line}, column {col}")),
                "{text}\n=> {e}"
            );
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!(
        "rule r {{ %y = pd_op.relu(%x) where {}1{} => %y = %x }}",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    assert!(error(&deep).contains("nesting"));
}

pub(super) fn fc_program(weight_dims: &[i64], bias_dims: &[i64]) -> (Program, pir_core::ValueId) {
    let ctx = pir_dialects::pd_op_context();
    let mut p = Program::new(ctx.clone());
    let f32 = ctx.intern_type(pir_core::builtin::ScalarType::F32);
    let t = |dims: &[i64]| DenseTensorType::get(&ctx, f32, dims);
    let top = p.top_block();
    let (x, w, b) = {
        let mut bd = Builder::at_end(&mut p, top);
        let name = |n: &str| [("parameter_name", StrAttr::get(&ctx, n))];
        let x = bd.op("builtin.parameter", &[], &[t(&[4, 8])], &name("x"));
        let w = bd.op("builtin.parameter", &[], &[t(weight_dims)], &name("w"));
        let b = bd.op("builtin.parameter", &[], &[t(bias_dims)], &name("b"));
        let prog = bd.program();
        (prog.result(x, 0), prog.result(w, 0), prog.result(b, 0))
    };
    let mut bd = Builder::at_end(&mut p, top);
    let mm = MatmulOp::build(&mut bd, x, w, false, false, &[t(&[4, 16])]).out(bd.program());
    let out = AddOp::build(&mut bd, mm, b, &[t(&[4, 16])]).out(bd.program());
    let y = ReluOp::build(&mut bd, out, &[t(&[4, 16])]).out(bd.program());
    (p, y)
}

pub(super) fn run(p: &mut Program, rules: &str) -> u64 {
    let set = FrozenPatternSet::new(parse(rules).patterns());
    let module = p.module_op();
    apply_greedily(p, module, &set, &GreedyConfig::default()).rewrites
}

#[test]
fn a_rule_fuses_and_computes_attributes() {
    let (mut p, y) = fc_program(&[8, 16], &[16]);
    assert_eq!(run(&mut p, FC), 1);
    p.verify().unwrap();
    let relu = p.operand(p.defining_op(y).unwrap(), 0).unwrap();
    let fc = p.defining_op(relu).unwrap();
    assert_eq!(p.op_name_str(fc), "pd_op.fc");
    let text = p.to_string();
    assert!(text.contains("in_num_col_dims:1"), "{text}");
    assert!(
        !text.contains("pd_op.matmul") && !text.contains("pd_op.add"),
        "{text}"
    );
}

#[test]
fn constraints_and_attribute_values_stop_a_rule() {
    // A bias of the wrong length.
    let (mut p, _) = fc_program(&[8, 16], &[1]);
    assert_eq!(run(&mut p, FC), 0);
    // A required attribute value that differs.
    let (mut p, _) = fc_program(&[8, 16], &[16]);
    assert_eq!(
        run(
            &mut p,
            &FC.replace("transpose_y: false", "transpose_y: true")
        ),
        0
    );
}

#[test]
fn an_intermediate_with_outside_users_stops_a_rule() {
    let (mut p, _) = fc_program(&[8, 16], &[16]);
    let mm = p
        .block_ops(p.top_block())
        .find(|&o| p.op_name_str(o) == "pd_op.matmul")
        .map(|o| p.result(o, 0))
        .unwrap();
    let ty = p.value_type(mm);
    let top = p.top_block();
    ReluOp::build(&mut Builder::at_end(&mut p, top), mm, &[ty]);
    assert_eq!(run(&mut p, FC), 0);
}

#[test]
fn bound_variables_must_agree_and_flow_into_results() {
    let rules = "rule same_flags {
        %mm = pd_op.matmul(%x, %w) {transpose_x: $t, transpose_y: $t}
        %out = pd_op.add(%mm, %b)
        =>
        %out = pd_op.fc(%x, %w, %b) {in_num_col_dims: 1, activation_type: \"relu\", padding_weights: $t}
    }";
    let (mut p, _) = fc_program(&[8, 16], &[16]);
    assert_eq!(run(&mut p, rules), 1);
    let text = p.to_string();
    assert!(
        text.contains("activation_type:\"relu\"") && text.contains("padding_weights:false"),
        "{text}"
    );
}

#[test]
fn an_unwritable_value_rolls_the_rewrite_back() {
    // `dim(%x, 7)` has no value: the rule does not fire, the program stays.
    let (mut p, _) = fc_program(&[8, 16], &[16]);
    let before = p.to_string();
    assert_eq!(run(&mut p, &FC.replace("rank(%x) - 1", "dim(%x, 7)")), 0);
    assert_eq!(p.to_string(), before);
    let _ = Arc::new(0);
}

/// Every library rule file parses, prints back to equal rules, and each rule
/// stays short.
#[test]
fn library_rules_parse_round_trip_and_stay_short() {
    for (name, text) in crate::transforms::fusion::RULE_FILES {
        let rules = match RuleSet::parse(text, name) {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        };
        assert!(!rules.rules.is_empty(), "{name}");
        let printed = rules.to_string();
        assert_eq!(parse(&printed), rules, "{name}:\n{printed}");
        for rule in &rules.rules {
            let lines = rule.to_string().lines().count();
            assert!(lines <= 15, "{name}: rule {} has {lines} lines", rule.name);
        }
    }
}

/// `scale(x, full(1))` is `x` — unless a write to either buffer would then
/// reach the other: `relu_(y)` after the scale must not write `x`.
#[test]
fn identity_rules_keep_copies_that_a_write_makes_real() {
    use pir_dialects::ops::{FullOp, ReluInplaceOp, ScaleOp};
    use pir_dialects::pd_op::{DataType, Place};
    let build = |write: bool| {
        let ctx = pir_dialects::pd_op_context();
        let mut p = Program::new(ctx.clone());
        let f32 = ctx.intern_type(pir_core::builtin::ScalarType::F32);
        let t = DenseTensorType::get(&ctx, f32, &[4]);
        let one_t = DenseTensorType::get(&ctx, f32, &[1]);
        let top = p.top_block();
        let mut b = Builder::at_end(&mut p, top);
        let w = b.op(
            "builtin.parameter",
            &[],
            &[t],
            &[("parameter_name", StrAttr::get(&ctx, "w"))],
        );
        let w = b.program().result(w, 0);
        // A fresh buffer (a parameter and an output are both pinned: never merged).
        let x = ReluOp::build(&mut b, w, &[t]).out(b.program());
        let one = FullOp::build(&mut b, &[1], 1.0, DataType::Float32, Place::cpu(), &[one_t])
            .out(b.program());
        let y = ScaleOp::build(&mut b, x, one, 0.0, true, &[t]).out(b.program());
        let y = if write {
            ReluInplaceOp::build(&mut b, y, &[t]).out(b.program())
        } else {
            y
        };
        // A reader of `x` after the write (the write must not reach it).
        let x2 = ReluOp::build(&mut b, x, &[t]).out(b.program());
        b.op(
            "builtin.shadow_output",
            &[x2],
            &[],
            &[("output_name", StrAttr::get(&ctx, "x_out"))],
        );
        b.op(
            "builtin.shadow_output",
            &[y],
            &[],
            &[("output_name", StrAttr::get(&ctx, "y_out"))],
        );
        p
    };
    let rules = crate::transforms::fusion::library_rules(&["identity_op_clean"])
        .unwrap()
        .to_string();
    let mut p = build(false);
    assert_eq!(run(&mut p, &rules), 1, "{p}");
    let mut p = build(true);
    assert_eq!(run(&mut p, &rules), 0, "{p}");
    assert!(p.to_string().contains("pd_op.scale"));
}

/// The rule the guide's DRR chapter opens with parses and fuses.
#[test]
fn the_guides_first_rule_parses_and_fires() {
    let readme = include_str!("../../../../docs/guide/src/drr.md");
    let start = readme
        .find("rule matmul_add_to_fc {")
        .expect("the guide shows a rule");
    let end = start + readme[start..].find("\n}\n").expect("the rule ends") + 3;
    let (mut p, _) = fc_program(&[8, 16], &[16]);
    assert_eq!(run(&mut p, &readme[start..end]), 1);
}

#[test]
fn result_ops_without_written_types_are_inferred() {
    // `%t` is no tensor of the pattern: its type can only come from
    // inference (Paddle's builders type the ops a rule makes the same way).
    let rules = "rule relu_through_transposes {
        %y = pd_op.relu(%x)
        =>
        %t = pd_op.transpose(%x) {perm: [1, 0]}
        %u = pd_op.exp(%t)
        %y = pd_op.transpose(%u) {perm: [1, 0]}
    }";
    let (mut p, y) = fc_program(&[8, 16], &[16]);
    assert_eq!(run(&mut p, rules), 1);
    p.verify().unwrap();
    let text = p.to_string();
    assert!(
        text.contains("(tensor<4x16xf32>) -> tensor<16x4xf32>"),
        "the intermediate is typed: {text}"
    );
    let ctx = p.ctx_arc().clone();
    assert_eq!(ctx.display_type(p.value_type(y)), "tensor<4x16xf32>");
    // A result its InferMeta refuses leaves the program as it was.
    let refused = rules.replace("{perm: [1, 0]}\n        %u", "{perm: [0]}\n        %u");
    let (mut p, _) = fc_program(&[8, 16], &[16]);
    let before = p.to_string();
    assert_eq!(run(&mut p, &refused), 0);
    assert_eq!(p.to_string(), before);
}

#[test]
fn written_types_are_checked_against_inference() {
    let rules = "rule wrongly_typed {
        %y = pd_op.relu(%x)
        =>
        %y = pd_op.exp(%x) : tensor([3, 3], float32)
    }";
    let (mut p, _) = fc_program(&[8, 16], &[16]);
    let before = p.to_string();
    let set = FrozenPatternSet::new(parse(rules).patterns());
    let module = p.module_op();
    let outcome = apply_greedily(&mut p, module, &set, &GreedyConfig::default());
    assert_eq!(outcome.stop, crate::rewrite::Stop::Failed);
    let failure = outcome.failure.map(|f| f.message).unwrap_or_default();
    assert!(
        failure.contains("wrongly_typed")
            && failure.contains("tensor<3x3xf32>")
            && failure.contains("tensor<4x16xf32>"),
        "{failure}"
    );
    assert_eq!(p.to_string(), before, "the program is left as it was");
    // The type Paddle's builder gives is accepted.
    let right = rules.replace("tensor([3, 3], float32)", "type(%y)");
    let (mut p, _) = fc_program(&[8, 16], &[16]);
    assert_eq!(run(&mut p, &right), 1);
}
