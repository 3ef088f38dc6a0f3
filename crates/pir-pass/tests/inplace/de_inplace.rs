//! `de_inplace`, alone and followed by `inplace`.

use super::*;

/// Runs `de_inplace` on `text`: it converts nothing, and the `relu_` stays.
fn keeps_the_relu_write(text: &str) -> Program {
    let (p, counts) = run_checked(text, "de_inplace");
    assert_eq!(counts, [0]);
    assert_eq!(count(&p, "pd_op.relu_"), 1, "{p}");
    p
}

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
        keeps_the_relu_write(&text);
    }
}

/// `relu_` on the loop-carried body argument is the loop's state update: it
/// stays.
#[test]
fn de_inplace_keeps_writes_to_loop_carried_arguments() {
    let text = while_program(
        &[unary("abs", 2, "%0")],
        &[unary("relu_", 7, "%arg_0"), unary("exp", 13, "%arg_0")],
    );
    keeps_the_relu_write(&text);
}

/// Reads of the source nested in a later `if` are rewired like direct ones.
#[test]
fn de_inplace_rewires_reads_nested_in_later_ops() {
    let text = program(
        &[
            vec![DATA.into(), unary("abs", 1, "%0"), unary("relu_", 2, "%1")],
            if_else(
                3,
                1,
                4,
                (&[unary("exp", 5, "%1")], "%5"),
                (&[unary("tanh", 6, "%1")], "%6"),
            ),
            vec![add(7, 4, 2), fetch(7, 8, "out")],
        ]
        .concat(),
    );
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
    let text = program(
        &[
            vec![DATA.into(), unary("abs", 1, "%0"), unary("relu_", 2, "%1")],
            if_else(3, 1, 4, (&[], "%1"), (&[unary("tanh", 6, "%1")], "%6")),
            vec![add(7, 4, 2), fetch(7, 8, "out")],
        ]
        .concat(),
    );
    keeps_the_relu_write(&text);
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
    let p = keeps_the_relu_write(&text);
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
