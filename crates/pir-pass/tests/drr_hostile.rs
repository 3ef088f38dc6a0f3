//! Rule files and programs written to hurt: rules that grow the program
//! without end or undo each other, expressions that build huge lists or
//! trees deeper than any stack, files and patterns large enough that a
//! quadratic step would take minutes. Each must end quickly with an error
//! that says what and where (or a correct result), never hang, abort or
//! exhaust memory.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;

use pir_core::Program;
use pir_pass::drr::{RuleSet, MAX_BUILT, MAX_LIST_LEN, MAX_TREE_DEPTH};
use pir_pass::rewrite::{apply_greedily, FrozenPatternSet, GreedyConfig, Outcome, Stop};
use pir_pass::PassManager;

const MLP: &str = include_str!("../../../tests/corpus/mlp_tiny.txt");

/// The 14-op MLP of the corpus (two relus).
fn mlp() -> Program {
    common::parse(MLP)
}

/// Applies `rules` to `p` with the driver's defaults.
fn apply(p: &mut Program, rules: &str) -> Outcome {
    let set = RuleSet::parse(rules, "test.drr").unwrap_or_else(|e| panic!("{e}"));
    let patterns = FrozenPatternSet::new(set.patterns());
    let module = p.module_op();
    apply_greedily(p, module, &patterns, &GreedyConfig::default())
}

/// Runs the `drr` pass on `p` with the rules of `text` (written to a file,
/// as `pir opt --rules` reads them): the error message, if the pass fails.
fn run_drr(p: &mut Program, name: &str, text: &str, options: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("pir-drr-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.drr"));
    std::fs::write(&path, text).unwrap();
    let pipeline = format!("drr{{file={}{options}}}", path.display());
    let mut pm = PassManager::parse(&pipeline).map_err(|e| e.to_string())?;
    let result = pm.run(p).map(|_| ()).map_err(|e| e.to_string());
    let _ = std::fs::remove_file(&path);
    result
}

/// The error of parsing `text`.
fn parse_error(text: &str) -> String {
    match RuleSet::parse(text, "test.drr") {
        Ok(_) => panic!("accepted a hostile rule file"),
        Err(e) => e.to_string(),
    }
}

// ------------------------------------------------------- unbounded growth

const GROW: &str = "rule grow {
    %y = pd_op.relu(%x)
    =>
    %t = pd_op.relu(%x) : type(%y)
    %y = pd_op.relu(%t)
}
";

#[test]
fn a_rule_that_grows_the_program_stops_with_an_error_naming_it() {
    let mut p = mlp();
    let outcome = apply(&mut p, GROW);
    assert_eq!(outcome.stop, Stop::GrowthLimit, "{outcome:?}");
    // 14 ops: the default bound is 16 × 14 + 4096 created ops.
    assert_eq!(outcome.max_created, 16 * 14 + 4096);
    assert!(outcome.created <= outcome.max_created + 2, "{outcome:?}");
    let mut p = mlp();
    let error = run_drr(&mut p, "grow", GROW, "").unwrap_err();
    assert!(error.contains("grow the program"), "{error}");
    assert!(error.contains("rule `grow` ("), "{error}");
    assert!(error.contains("grow.drr:1)"), "{error}");
}

#[test]
fn the_growth_bound_is_an_option_of_the_drr_pass() {
    let mut p = mlp();
    let error = run_drr(&mut p, "grow_small", GROW, ",max-created=10").unwrap_err();
    assert!(error.contains("more than the limit of 10"), "{error}");
}

#[test]
fn rules_that_undo_each_other_stop_with_an_error_naming_both() {
    let flip = "rule to_sigmoid {
    %y = pd_op.relu(%x)
    =>
    %y = pd_op.sigmoid(%x)
}
rule to_relu {
    %y = pd_op.sigmoid(%x)
    =>
    %y = pd_op.relu(%x)
}
";
    let mut p = mlp();
    let outcome = apply(&mut p, flip);
    assert_eq!(outcome.stop, Stop::IterationLimit, "{outcome:?}");
    let mut p = mlp();
    let error = run_drr(&mut p, "flip", flip, "").unwrap_err();
    assert!(error.contains("max-iterations"), "{error}");
    assert!(
        error.contains("rule `to_sigmoid` (") && error.contains("flip.drr:1)"),
        "{error}"
    );
    assert!(
        error.contains("rule `to_relu` (") && error.contains("flip.drr:6)"),
        "{error}"
    );
}

// --------------------------------------------------------- unbounded lists

/// A rule firing on relu when `constraint` holds.
fn relu_rule(constraint: &str) -> String {
    format!("rule lists {{\n    %y = pd_op.relu(%x)\n    where {constraint}\n    =>\n    %y = pd_op.sigmoid(%x)\n}}\n")
}

/// The driver's error for a rule whose constraint breaks a limit.
fn limit_error(constraint: &str) -> String {
    let mut p = mlp();
    let before = p.to_string();
    let outcome = apply(&mut p, &relu_rule(constraint));
    assert_eq!(outcome.stop, Stop::Failed, "{constraint}: {outcome:?}");
    assert_eq!(
        p.to_string(),
        before,
        "a failed rule leaves the program alone"
    );
    outcome.describe(|_| "rule `lists`".to_owned()).unwrap()
}

#[test]
fn lists_a_rule_builds_are_bounded_with_an_error() {
    let n = MAX_LIST_LEN / 2 + 1;
    let e = limit_error(&format!("len(range({n}) + range({n})) > 0"));
    assert!(e.contains("`+` builds a list of"), "{e}");
    let e = limit_error(&format!("len(range({})) > 0", MAX_LIST_LEN + 1));
    assert!(e.contains("`range("), "{e}");
    // Lists within the bound are fine.
    let mut p = mlp();
    let ok = relu_rule(&format!(
        "len(range({n}) + range({n} - 2)) == {}",
        2 * n - 2
    ));
    assert_eq!(apply(&mut p, &ok).stop, Stop::Converged);
    assert!(!p.to_string().contains("pd_op.relu"));
}

#[test]
fn what_one_evaluation_builds_in_all_is_bounded() {
    // Each list is allowed; together they exceed the budget.
    let lists = MAX_BUILT / MAX_LIST_LEN + 2;
    let items = vec![format!("range({MAX_LIST_LEN})"); lists].join(", ");
    let e = limit_error(&format!("len([{items}]) > 0"));
    assert!(e.contains("list items and string bytes in all"), "{e}");
    // A string doubled again and again.
    let e = limit_error(&format!(
        "len({}\"{}\") > 0",
        "\"x\" + ".repeat(10),
        "y".repeat(MAX_LIST_LEN)
    ));
    assert!(e.contains("builds a string"), "{e}");
    // Copies count: one long list picked again and again by `gather`.
    let e = limit_error(&format!(
        "len(gather([range({MAX_LIST_LEN})], [{}])) > 0",
        vec!["0"; 20].join(", ")
    ));
    assert!(e.contains("in all"), "{e}");
}

#[test]
fn a_limit_in_a_result_attribute_is_an_error_and_undoes_the_rewrite() {
    let rule = format!(
        "rule big_attr {{
    %y = pd_op.relu(%x)
    =>
    %t = pd_op.relu(%x) : type(%y)
    %y = pd_op.sigmoid(%t) {{__len: len(range({n}) + range({n}))}}
}}
",
        n = MAX_LIST_LEN
    );
    let mut p = mlp();
    let before = p.to_string();
    let error = run_drr(&mut p, "big_attr", &rule, "").unwrap_err();
    assert!(
        error.contains("rule `big_attr` (") && error.contains("builds a list"),
        "{error}"
    );
    assert_eq!(p.to_string(), before);
}

// ------------------------------------------------------------ deep trees

/// A rule whose constraint is `expr` (the relu rule).
fn deep_rule(expr: &str) -> String {
    relu_rule(expr)
}

#[test]
fn long_prefix_runs_are_refused_with_a_position() {
    for prefix in ["!", "-", "- ", "! "] {
        let text = deep_rule(&format!("{}true", prefix.repeat(200_000)));
        let e = parse_error(&text);
        assert!(e.contains("too deep"), "{e}");
        assert!(e.contains("test.drr: line 3, column"), "{e}");
    }
}

#[test]
fn long_operator_chains_are_refused_with_a_position() {
    let n = 50_000;
    for (name, expr) in [
        ("+", format!("1{} == 2", " + 1".repeat(n))),
        ("&&", format!("true{}", " && true".repeat(n))),
        ("||", format!("false{}", " || true".repeat(n))),
        ("*", format!("1{} == 1", "*1".repeat(n))),
        ("index", format!("[[1]]{} == 1", "[0]".repeat(n))),
        ("mixed", format!("1{} == 1", " + -!-1 * [1][0]".repeat(n))),
    ] {
        let e = parse_error(&deep_rule(&expr));
        assert!(e.contains("too deep"), "{name}: {e}");
        assert!(e.contains("test.drr: line 3, column"), "{name}: {e}");
    }
}

/// Trees as deep as the parser accepts, of each shape.
fn deepest_trees() -> Vec<(&'static str, String)> {
    let d = MAX_TREE_DEPTH;
    vec![
        // `1 + 1 + ... == d`: the chain is d - 1 deep, `==` one more.
        ("chain", format!("1{} == {}", " + 1".repeat(d - 2), d - 1)),
        ("not", format!("{}false", "!".repeat(d - 1))),
        ("neg", format!("{}(1) == 1", "-".repeat(d - 2))),
        ("and", format!("true{}", " && true".repeat(d - 1))),
        // Lists nested 62 deep, indexed back down to their item: 125
        // levels, two negations and `==` make 128 (indexing an int, as
        // `1[0]`, is refused by the rule's types).
        (
            "index",
            format!(
                "--{}1{}{} == 1",
                "[".repeat((d - 4) / 2),
                "]".repeat((d - 4) / 2),
                "[0]".repeat((d - 4) / 2)
            ),
        ),
    ]
}

#[test]
fn the_deepest_accepted_trees_evaluate_print_and_drop_on_a_small_stack() {
    // A thread with half the default stack of a spawned thread: the walks
    // over a tree of the deepest accepted kind must fit with room to spare.
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            for (name, expr) in deepest_trees() {
                let text = deep_rule(&expr);
                let rules = RuleSet::parse(&text, "test.drr")
                    .unwrap_or_else(|e| panic!("{name}: the deepest tree is accepted: {e}"));
                let printed = rules.to_string();
                let again = RuleSet::parse(&printed, "printed.drr")
                    .unwrap_or_else(|e| panic!("{name}: printed tree parses: {e}\n{printed}"));
                assert_eq!(again, rules, "{name}");
                let cloned = again.clone();
                assert!(!format!("{cloned:?}").is_empty());
                drop(cloned);
                let mut p = mlp();
                let outcome = apply(&mut p, &text);
                assert_eq!(outcome.stop, Stop::Converged, "{name}: {outcome:?}");
                assert_eq!(outcome.rewrites, 2, "{name}: the constraint holds");
                // One level deeper is refused.
                let deeper = deep_rule(&format!("!({expr})"));
                assert!(parse_error(&deeper).contains("too deep"), "{name}");
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn deep_nesting_of_every_kind_is_refused() {
    for (open, close) in [("(", ")"), ("[", "]"), ("len(", ")"), ("[1][", "]")] {
        let text = deep_rule(&format!(
            "{}1{} == 1",
            open.repeat(100_000),
            close.repeat(100_000)
        ));
        let e = parse_error(&text);
        assert!(e.contains("test.drr: line 3, column"), "{open}: {e}");
    }
}

// -------------------------------------------------------- quadratic paths

#[test]
fn a_file_of_many_rules_loads_and_runs() {
    // 40,000 rules: a rescan of the file per rule (for its line) or a
    // search of the names per rule takes minutes.
    let n = 40_000;
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!(
            "rule r{i} {{\n    %y = pd_op.relu(%x)\n    where {i} >= 0\n    =>\n    %y = pd_op.sigmoid(%x)\n}}\n"
        ));
    }
    let rules = RuleSet::parse(&text, "many.drr").unwrap();
    assert_eq!(rules.rules.len(), n);
    assert_eq!(rules.rules[n - 1].line, 6 * (n - 1) + 1);
    let mut p = mlp();
    let set = FrozenPatternSet::new(rules.patterns());
    let module = p.module_op();
    let outcome = apply_greedily(&mut p, module, &set, &GreedyConfig::default());
    assert_eq!(outcome.stop, Stop::Converged);
    assert_eq!(outcome.per_pattern[0], 2);
}

/// A program whose data feeds a chain of `n` ops named `op`, then a relu
/// and a fetch.
fn chain(op: &str, n: usize) -> Program {
    let mut text = String::from("{\n    (%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[false]} : () -> tensor<-1x8xf32>\n");
    for i in 1..=n + 1 {
        let name = if i <= n { op } else { "relu" };
        text.push_str(&format!(
            "    (%{i}) = \"pd_op.{name}\" (%{}) {{stop_gradient:[false]}} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>\n",
            i - 1
        ));
    }
    text.push_str(&format!("    (%{}) = \"pd_op.fetch\" (%{}) {{col:0,name:\"out\",persistable:[true],stop_gradient:[false]}} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>\n}}\n", n + 2, n + 1));
    common::parse(&text)
}

/// A program whose data feeds a relu, then a fetch.
fn relu_chain(n: usize) -> Program {
    chain("relu", n - 1)
}

#[test]
fn a_long_source_pattern_compiles_and_matches() {
    // A chain of 30,000 source ops: quadratic checks take minutes, and a
    // recursion per op in the matcher overflows the stack. (Rooted at the
    // one relu, the pattern is tried once.)
    let n = 30_000;
    let mut text = String::from("rule long {\n    %t0 = pd_op.sigmoid(%x)\n");
    for i in 1..n {
        text.push_str(&format!("    %t{i} = pd_op.sigmoid(%t{})\n", i - 1));
    }
    text.push_str(&format!(
        "    %y = pd_op.relu(%t{})\n    =>\n    %y = pd_op.tanh(%x)\n}}\n",
        n - 1
    ));
    let rules = RuleSet::parse(&text, "long.drr").unwrap();
    let mut p = chain("sigmoid", n);
    let set = FrozenPatternSet::new(rules.patterns());
    let module = p.module_op();
    let outcome = apply_greedily(&mut p, module, &set, &GreedyConfig::default());
    assert_eq!(outcome.stop, Stop::Converged, "{outcome:?}");
    assert_eq!(outcome.rewrites, 1);
    assert_eq!(common::count(&p, "pd_op.sigmoid"), 0);
    assert_eq!(common::count(&p, "pd_op.tanh"), 1);
}

#[test]
fn a_long_result_pattern_is_built_in_order() {
    // 30,000 result ops, each reading the one before: placing each by a
    // search of the ops placed so far is quadratic.
    let n = 30_000;
    let mut text = String::from(
        "rule long_result {\n    %y = pd_op.relu(%x)\n    =>\n    %r0 = pd_op.sigmoid(%x) : type(%y)\n",
    );
    for i in 1..n {
        text.push_str(&format!(
            "    %r{i} = pd_op.sigmoid(%r{}) : type(%y)\n",
            i - 1
        ));
    }
    text.push_str(&format!("    %y = pd_op.sigmoid(%r{})\n}}\n", n - 1));
    let rules = RuleSet::parse(&text, "long_result.drr").unwrap();
    let mut p = relu_chain(1);
    let set = FrozenPatternSet::new(rules.patterns());
    let module = p.module_op();
    let config = GreedyConfig {
        max_created: Some(2 * n as u64),
        ..GreedyConfig::default()
    };
    let outcome = apply_greedily(&mut p, module, &set, &config);
    assert_eq!(outcome.stop, Stop::Converged, "{outcome:?}");
    assert_eq!(common::count(&p, "pd_op.sigmoid"), n + 1);
    assert!(p.verify().is_ok(), "the result ops are placed in order");
    // Results that all read one matched value are placed after it, each
    // before those placed earlier: the same spot again and again.
    let mut text = String::from(
        "rule one_spot {\n    %a = pd_op.relu(%x)\n    %y = pd_op.relu(%a)\n    =>\n    %y = pd_op.sigmoid(%a)\n",
    );
    for i in 0..n {
        text.push_str(&format!("    %s{i} = pd_op.sigmoid(%a) : type(%y)\n"));
    }
    text.push_str("}\n");
    let rules = RuleSet::parse(&text, "one_spot.drr").unwrap();
    let mut p = relu_chain(2);
    let set = FrozenPatternSet::new(rules.patterns());
    let outcome = apply_greedily(&mut p, module, &set, &config);
    assert_eq!(outcome.rewrites, 1, "{outcome:?}");
    assert!(p.verify().is_ok());
}

#[test]
fn many_attributes_and_results_are_checked_in_linear_time() {
    let n = 100_000;
    let attrs: Vec<String> = (0..n).map(|i| format!("__a{i}: {i}")).collect();
    let text = format!(
        "rule attrs {{\n    %y = pd_op.relu(%x) {{{}}}\n    =>\n    %y = pd_op.sigmoid(%x)\n}}\n",
        attrs.join(", ")
    );
    assert_eq!(
        RuleSet::parse(&text, "attrs.drr").unwrap().rules[0].pattern[0]
            .attrs
            .len(),
        n
    );
    let twice = format!(
        "rule attrs {{\n    %y = pd_op.relu(%x) {{{}, __a7: 1}}\n    =>\n    %y = pd_op.sigmoid(%x)\n}}\n",
        attrs.join(", ")
    );
    assert!(parse_error(&twice).contains("attribute `__a7` is given twice"));
    // An op of no definition (no operand count to check) with many results
    // and operands.
    let results: Vec<String> = (0..n).map(|i| format!("%o{i}")).collect();
    let operands: Vec<String> = (0..n).map(|i| format!("%i{i}")).collect();
    let text = format!(
        "rule wide {{\n    {} = builtin.wide({})\n    =>\n    %o0 = %i0\n}}\n",
        results.join(", "),
        operands.join(", ")
    );
    assert_eq!(RuleSet::parse(&text, "wide.drr").unwrap().rules.len(), 1);
}

// ------------------------------------------------------- hostile programs

#[test]
fn persistable_costs_the_program_not_its_paths() {
    // w = full, then 50 × w = add(w, w): 2^50 paths from the last add to
    // the constant, one value each. A walk of every path never ends.
    let mut text = String::from("{\n    (%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[false]} : () -> tensor<-1x8xf32>\n    (%1) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[8,8],stop_gradient:[true],value:1} : () -> tensor<8x8xf32>\n");
    let levels = 50;
    for i in 2..levels + 2 {
        text.push_str(&format!(
            "    (%{i}) = \"pd_op.add\" (%{p}, %{p}) {{stop_gradient:[true]}} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>\n",
            p = i - 1
        ));
    }
    let w = levels + 1;
    text.push_str(&format!("    (%{a}) = \"pd_op.matmul\" (%0, %{w}) {{stop_gradient:[false],transpose_x:false,transpose_y:false}} : (tensor<-1x8xf32>, tensor<8x8xf32>) -> tensor<-1x8xf32>\n", a = w + 1));
    text.push_str(&format!("    (%{f}) = \"pd_op.full\" () {{dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2}} : () -> tensor<1xf32>\n", f = w + 2));
    text.push_str(&format!("    (%{s}) = \"pd_op.scale\" (%{a}, %{f}) {{bias:0,bias_after_scale:true,stop_gradient:[false]}} : (tensor<-1x8xf32>, tensor<1xf32>) -> tensor<-1x8xf32>\n", s = w + 3, a = w + 1, f = w + 2));
    text.push_str(&format!("    (%{o}) = \"pd_op.fetch\" (%{s}) {{col:0,name:\"out\",persistable:[true],stop_gradient:[false]}} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>\n}}\n", o = w + 4, s = w + 3));
    let mut p = common::parse(&text);
    common::run(&mut p, "matmul_scale_fuse");
    // The weight is persistable (50 ops deep, within Paddle's bound): the
    // scale moved onto it, before the matmul that the fetch now reads.
    assert_eq!(common::count(&p, "pd_op.scale"), 1);
    let names: Vec<String> = p
        .block_ops(p.top_block())
        .map(|o| p.op_name_str(o).to_owned())
        .collect();
    let n = names.len();
    assert_eq!(
        names[n - 3..],
        ["pd_op.scale", "pd_op.matmul", "pd_op.fetch"],
        "{p}"
    );
}

// ------------------------------------------------------------ no-op rules

#[test]
fn a_chain_of_replacements_is_checked_as_one() {
    // `%t = %y`, `%y = %t` gives `%y` itself back: no rewrite (and no claim
    // of one, which the driver's debug check would refuse).
    let mut p = mlp();
    let before = p.to_string();
    let rule = "rule itself {\n    %y = pd_op.relu(%x)\n    =>\n    %t = %y\n    %y = %t\n}\n";
    let outcome = apply(&mut p, rule);
    assert_eq!(outcome.stop, Stop::Converged);
    assert_eq!(outcome.rewrites, 0);
    assert_eq!(p.to_string(), before);
    // `%t = %x`, `%y = %t` forwards `%x` to `%y`: where that is safe, as
    // `%y = %x` would.
    let mut p = mlp();
    let rule = "rule forward {\n    %y = pd_op.relu(%x)\n    =>\n    %t = %x\n    %y = %t\n}\n";
    assert_eq!(apply(&mut p, rule).rewrites, 2);
    assert_eq!(common::count(&p, "pd_op.relu"), 0);
}
