//! `inplace`: which ops it writes in place, and which it must not.

use super::*;

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
    let t_1_3 = f32_tensor(&[1, 3]);
    let t_2_3 = f32_tensor(&[2, 3]);
    let text = program(&[
        data_of(0, "x", &[1, 3]),
        data_of(1, "y", &[2, 3]),
        unary_of("abs", 2, "%0", &t_1_3),
        add_of(3, 2, 1, [&t_1_3, &t_2_3, &t_2_3]),
        fetch_of(3, 4, 0, "out", &t_2_3),
    ]);
    let (p, counts) = run_checked(&text, "inplace");
    assert_eq!(counts, [0], "{p}");
    let t_n_3 = f32_tensor(&[-1, 3]);
    let dynamic = program(&[
        data_of(0, "x", &[-1, 3]),
        data_of(1, "y", &[-1, 3]),
        unary_of("abs", 2, "%0", &t_n_3),
        add_of(3, 2, 1, [&t_n_3, &t_n_3, &t_n_3]),
        unary_of("relu", 4, "%3", &t_n_3),
        fetch_of(4, 5, 0, "out", &t_n_3),
    ]);
    let (p, counts) = run_checked(&dynamic, "inplace");
    // Only relu (one tensor input) converts.
    assert_eq!(counts, [1], "{p}");
    assert_eq!(count(&p, "pd_op.relu_"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.add"), 1, "{p}");
    // A static bias cannot grow a dynamic batch: that add converts.
    let t_n_3 = f32_tensor(&[-1, 3]);
    let t_3 = f32_tensor(&[3]);
    let t_2_3 = f32_tensor(&[2, 3]);
    let bias = program(&[
        data_of(0, "x", &[-1, 3]),
        data_of(1, "b", &[3]),
        data_of(2, "c", &[2, 3]),
        unary_of("abs", 3, "%0", &t_n_3),
        add_of(4, 3, 1, [&t_n_3, &t_3, &t_n_3]),
        unary_of("abs", 5, "%0", &t_n_3),
        add_of(6, 5, 2, [&t_n_3, &t_2_3, &t_n_3]),
        fetch_of(4, 7, 0, "out", &t_n_3),
        fetch_of(6, 8, 1, "out2", &t_n_3),
    ]);
    let (p, counts) = run_checked_structure(&bias, "inplace");
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
    let t_2_3_3 = f32_tensor(&[2, 3, 3]);
    let text = program(&[
        data_of(0, "x", &[2, 3, 3]),
        unary_of("abs", 1, "%0", &t_2_3_3),
        r#"(%2) = "pd_op.transpose" (%1) {perm:[0,2,1],stop_gradient:[false]} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>"#.into(),
        fetch_of(2, 3, 0, "out", &t_2_3_3),
    ]);
    let (p, counts) = run_checked_structure(&text, "inplace");
    assert_eq!(counts, [0], "{p}");
    let t_2_n = f32_tensor(&[2, -1]);
    let text = program(&[
        data_of(0, "x", &[2, -1]),
        unary_of("abs", 1, "%0", &t_2_n),
        unary_of("relu", 2, "%1", &t_2_n),
        data_of(3, "y", &[2, -1]),
        unary_of("exp", 4, "%3", &t_2_n),
        add_of(5, 2, 4, [&t_2_n, &t_2_n, &t_2_n]),
        fetch_of(5, 6, 0, "out", &t_2_n),
    ]);
    let (p, counts) = run_checked(&text, "inplace");
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
    let branch = |line: String| if_else(9, 1, 10, (&[line], "%11"), (&[], "%0"));
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
    let taken = [unary("abs", 3, "%0"), unary("relu", 4, "%3")];
    let yielded = program(
        &[
            vec![DATA.into()],
            if_else(1, 1, 2, (&taken, "%3"), (&[], "%0")),
            vec![fetch(2, 5, "out")],
        ]
        .concat(),
    );
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
        let mut lines = vec![DATA.into(), unary("abs", 1, "%0")];
        lines.extend(if_else(
            2,
            0,
            3,
            (&[unary("exp", 4, "%1")], "%4"),
            (&[unary("tanh", 5, "%1")], else_yield),
        ));
        lines
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

/// Two inputs with a dynamic batch: in place only when both provably have
/// the data input's batch (by the symbolic shapes), as a residual add does.
#[test]
fn inplace_converts_a_residual_add_of_one_batch() {
    let t_n_4 = f32_tensor(&[-1, 4]);
    let text = program(&[
        data_of(0, "x", &[-1, 4]),
        unary_of("abs", 1, "%0", &t_n_4),
        unary_of("exp", 2, "%1", &t_n_4),
        add_of(3, 2, 1, [&t_n_4, &t_n_4, &t_n_4]),
        fetch_of(3, 4, 0, "out", &t_n_4),
    ]);
    let (p, counts) = run_checked(&text, "inplace");
    assert_eq!(counts, [1], "{p}");
    assert_eq!(count(&p, "pd_op.add_"), 1, "{p}");
}

/// The same add of two data inputs' values: one batch may be 1 and
/// broadcast to the other's, so the result may not fit the first buffer.
#[test]
fn inplace_keeps_an_add_of_two_batches() {
    let t_n_4 = f32_tensor(&[-1, 4]);
    let text = program(&[
        data_of(0, "x", &[-1, 4]),
        data_of(1, "y", &[-1, 4]),
        unary_of("abs", 2, "%0", &t_n_4),
        unary_of("abs", 3, "%1", &t_n_4),
        add_of(4, 2, 3, [&t_n_4, &t_n_4, &t_n_4]),
        fetch_of(4, 5, 0, "out", &t_n_4),
    ]);
    let (p, counts) = run_checked(&text, "inplace");
    assert_eq!(counts, [0], "{p}");
}

/// A value an earlier in-place op wrote (`relu_`) is still the last
/// version of its buffer: the add after it writes there too.
#[test]
fn inplace_continues_a_chain() {
    let t_2_3 = f32_tensor(&[2, 3]);
    let text = program(&[
        data_of(0, "x", &[2, 3]),
        unary_of("abs", 1, "%0", &t_2_3),
        unary_of("relu_", 2, "%1", &t_2_3),
        add_of(3, 2, 0, [&t_2_3, &t_2_3, &t_2_3]),
        fetch_of(3, 4, 0, "out", &t_2_3),
    ]);
    let (p, counts) = run_checked(&text, "inplace");
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
