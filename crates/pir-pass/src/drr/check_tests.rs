//! Unit tests of `Rule::check`, typed expressions and the Rust builder.

use pir_core::Program;

use super::tests::{fc_program, run, FC};
use super::{compile, Expr, RuleBuilder, RuleErrorKind, RuleSet};
use crate::rewrite::{apply_greedily, FrozenPatternSet, GreedyConfig};

/// The typed error a text rule is refused with.
fn refusal(text: &str) -> super::RuleError {
    match RuleSet::parse(text, "test.drr") {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => match e.rule_error {
            Some(r) => *r,
            None => panic!("refused, but not by the check: {e}"),
        },
    }
}

#[test]
fn a_refused_rule_names_itself_and_where_it_stands() {
    let text = "rule fine { %y = pd_op.relu(%x) => %y = %x }\n\nrule typo {\n    %out = pd_op.relux(%x)\n    =>\n    %out = %x\n}\n";
    let e = refusal(text);
    assert_eq!(e.rule, "typo");
    assert_eq!(*e.kind, RuleErrorKind::UnknownOp("pd_op.relux".into()));
    let at = e.location.unwrap();
    assert_eq!((at.line, at.column), (4, 12));
    assert_eq!(
        e.to_string(),
        "rule `typo` (line 4, column 12): unknown op `pd_op.relux` (not an op of Paddle 3.3.1)"
    );
    // The file's error says the same place.
    let file = RuleSet::parse(text, "t.drr").unwrap_err().to_string();
    assert!(file.contains("line 4, column 12"), "{file}");
}

#[test]
fn expressions_of_the_wrong_type_refuse_the_rule_when_it_loads() {
    let rule = |where_: &str, result: &str| {
        format!("rule r {{ %y = pd_op.transpose(%x) {{perm: $p}}\n where {where_}\n => %y = pd_op.transpose(%x) {{perm: {result}}} }}")
    };
    let cases = [
        // A `where` that is not a bool.
        (
            rule("rank(%x)", "$p"),
            "`where`: expected a bool, found an int",
        ),
        // Arithmetic on a list.
        (rule("rank(%x) + $p == 1", "$p"), "`+`: expected a number"),
        // Sides that are never equal.
        (rule("rank(%x) == \"a\"", "$p"), "never equal"),
        // A tensor where a value is wanted.
        (rule("%x == 1", "$p"), "a tensor"),
        // A function given a value where it reads a tensor.
        (
            rule("rank(1) == 1", "$p"),
            "`rank`'s argument: expected a tensor",
        ),
        // `if` with branches of two kinds.
        (rule("if(true, 1, \"a\") == 1", "$p"), "`if`'s branches"),
        // A result attribute of another kind than declared (int64 list).
        (
            rule("true", "true"),
            "attribute `perm` of pd_op.transpose: expected a list of (an int), found a bool",
        ),
        (
            rule("true", "[0.5]"),
            "expected a list of (an int), found a list of (a float)",
        ),
    ];
    for (text, message) in cases {
        let e = refusal(&text);
        assert!(e.to_string().contains(message), "{text}\n=> {e}");
        assert!(e.location.is_some());
    }
    // A source attribute required to be a value of another kind.
    let e = refusal("rule r { %y = pd_op.matmul(%x, %w) {transpose_x: 1} => %y = %x }");
    assert!(
        e.to_string()
            .contains("attribute `transpose_x` of pd_op.matmul: expected a bool, found an int"),
        "{e}"
    );
    // A dtype attribute given a number.
    let e = refusal("rule r { %y = pd_op.relu(%x) => %y = pd_op.cast(%x) {dtype: 3} }");
    assert!(matches!(*e.kind, RuleErrorKind::Mistyped { .. }), "{e}");
    // A result type that is not a type.
    let e = refusal("rule r { %y = pd_op.relu(%x) => %y = pd_op.relu(%x) : rank(%x) }");
    assert!(
        e.to_string().contains("a result type: expected a type"),
        "{e}"
    );
}

#[test]
fn well_typed_expressions_mix_ints_floats_and_words() {
    let ok = [
        "rule r { %y = pd_op.relu(%x) where dtype(%x) == float32 && 1 == 1.0 && abs(-2) < 2.5 => %y = %x }",
        "rule r { %y = pd_op.transpose(%x) {perm: $p} where $p == range(len($p)) && gather($p, [0])[0] >= 0 => %y = %x }",
        "rule r { %y = pd_op.scale(%x, %s) {bias: $b} where f32($b * 2) + 1 != 0 => %y = pd_op.scale(%x, %s) {bias: 0, bias_after_scale: true} }",
        "rule r { %y = pd_op.relu(%x) where max(rank(%x), 1) * 2 - prod(shape(%x)) % 3 > 0 || [] == [1] => %y = %x }",
    ];
    for text in ok {
        if let Err(e) = RuleSet::parse(text, "ok.drr") {
            panic!("{text}\n=> {e}");
        }
    }
}

#[test]
fn a_missing_dimension_is_data_and_means_no_match() {
    // `dim(%w, 5)` of a 2-D weight has no value on this match: the rule
    // does not fire, and the driver sees no failure (unlike a broken limit).
    let (mut p, _) = fc_program(&[8, 16], &[16]);
    let before = p.to_string();
    let rules = FC.replace("where is_param(%w) || true", "where dim(%w, 5) == 16");
    let set = FrozenPatternSet::new(RuleSet::parse(&rules, "t.drr").unwrap().patterns());
    let module = p.module_op();
    let outcome = apply_greedily(&mut p, module, &set, &GreedyConfig::default());
    assert_eq!(outcome.rewrites, 0);
    assert!(outcome.failure.is_none());
    assert_eq!(p.to_string(), before);
    // The same rule fires where the dimension exists.
    let (mut p, _) = fc_program(&[8, 16], &[16]);
    assert_eq!(run(&mut p, &rules.replace("dim(%w, 5)", "dim(%w, 1)")), 1);
}

/// The FC rule of `tests.rs`, built in Rust.
fn fc_built() -> super::CheckedRule {
    let rank = |t: &str| Expr::call("rank", [Expr::tensor(t)]);
    let dim = |t: &str, i: i64| Expr::call("dim", [Expr::tensor(t), Expr::from(i)]);
    RuleBuilder::new("matmul_add_to_fc")
        .source(|s| {
            s.op("pd_op.matmul", ["%x", "%w"], ["%mm"])
                .attr("transpose_x", false)
                .attr("transpose_y", false)
                .op("pd_op.add", ["mm", "b"], ["out"])
        })
        .where_(
            rank("w")
                .eq(2)
                .and(rank("b").eq(1))
                .and(dim("w", 1).eq(dim("b", 0))),
        )
        .where_(Expr::call("is_param", [Expr::tensor("w")]).or(true))
        .result(|r| {
            r.op("pd_op.fc", ["x", "w", "b"], ["out"])
                .attr("in_num_col_dims", rank("x") - 1)
                .attr("activation_type", Expr::str(""))
                .attr("padding_weights", false)
        })
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// `p` after the rule's pattern ran on it, printed.
fn rewritten(mut p: Program, rule: &super::CheckedRule) -> (u64, String) {
    let set = FrozenPatternSet::new(vec![Box::new(compile(rule))]);
    let module = p.module_op();
    let n = apply_greedily(&mut p, module, &set, &GreedyConfig::default()).rewrites;
    (n, p.to_string())
}

#[test]
fn a_rule_built_in_rust_is_its_text_twin_and_rewrites_the_same() {
    let built = fc_built();
    let text = RuleSet::parse(FC, "fc.drr").unwrap();
    assert_eq!(built, text.rules[0]);
    // Printed, the built rule reads back as the text's.
    let printed = built.rule().to_string();
    assert_eq!(RuleSet::parse(&printed, "printed").unwrap(), text);
    for (weight, bias) in [([8i64, 16], [16i64]), ([8, 16], [1])] {
        let (a, _) = fc_program(&weight, &bias);
        let (b, _) = fc_program(&weight, &bias);
        let from_rust = rewritten(a, &built);
        let from_text = rewritten(b, &text.rules[0]);
        assert_eq!(from_rust, from_text);
    }
    assert_eq!(rewritten(fc_program(&[8, 16], &[16]).0, &built).0, 1);
}

#[test]
fn a_rule_built_in_rust_is_checked_as_text_is() {
    let e = RuleBuilder::new("typo")
        .source(|s| s.op("pd_op.relux", ["x"], ["out"]))
        .result(|r| r.alias("out", "x"))
        .build()
        .unwrap_err();
    assert_eq!(*e.kind, RuleErrorKind::UnknownOp("pd_op.relux".into()));
    assert_eq!(e.location, None);
    assert_eq!(
        e.to_string(),
        "rule `typo`: unknown op `pd_op.relux` (not an op of Paddle 3.3.1)"
    );
    let e = RuleBuilder::new("unbound")
        .source(|s| s.op("pd_op.relu", ["x"], ["out"]))
        .where_(Expr::var("alpha").gt(0))
        .result(|r| r.alias("out", "x"))
        .build()
        .unwrap_err();
    assert_eq!(*e.kind, RuleErrorKind::UnboundVariable("alpha".into()));
    let e = RuleBuilder::new("orphan")
        .source(|s| s.attr("axis", 1).op("pd_op.relu", ["x"], ["out"]))
        .result(|r| r.alias("out", "x"))
        .build()
        .unwrap_err();
    assert_eq!(*e.kind, RuleErrorKind::AttributeWithoutOp("axis".into()));
    let e = RuleBuilder::new("empty").build().unwrap_err();
    assert_eq!(*e.kind, RuleErrorKind::NoSourceOp("empty".into()));
}

#[test]
fn an_expression_built_too_deep_is_refused() {
    // A tree the parser would refuse, built in Rust: the check walks it
    // without recursion and refuses it before typing recurses over it.
    let mut e = Expr::from(true);
    for _ in 0..1000 {
        e = !e;
    }
    let refused = RuleBuilder::new("deep")
        .source(|s| s.op("pd_op.relu", ["x"], ["out"]))
        .where_(e)
        .result(|r| r.alias("out", "x"))
        .build()
        .unwrap_err();
    assert_eq!(*refused.kind, RuleErrorKind::TooDeep);
}

#[test]
fn op_names_resolve_in_each_context_matched() {
    // Two programs, two contexts (symbols differ): one compiled rule
    // matches in both, and again in the first.
    let rules = RuleSet::parse(FC, "fc.drr").unwrap();
    let pattern = compile(&rules.rules[0]);
    let set = FrozenPatternSet::new(vec![Box::new(pattern)]);
    for _ in 0..2 {
        let (mut a, _) = fc_program(&[8, 16], &[16]);
        let (mut b, _) = fc_program(&[8, 16], &[16]);
        for p in [&mut a, &mut b] {
            let module = p.module_op();
            assert_eq!(
                apply_greedily(p, module, &set, &GreedyConfig::default()).rewrites,
                1
            );
        }
    }
}
