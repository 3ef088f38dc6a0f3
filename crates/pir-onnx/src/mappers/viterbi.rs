//! The best tag path of a linear-chain CRF: `viterbi_decode` and
//! `crf_decoding`, on padded `[batch, time, tags]` scores with lengths.
//!
//! Both run the same dynamic program as two `Scan`s:
//!
//! ```text
//! forward  (t = 0 .. time-1): s[b, j, i] = alpha[b, j] + trans[j, i]
//!                             alpha[b, i] = max_j s + emission[b, t, i]   (0 < t < len[b])
//!                             track[t][b, i] = argmax_j s                 (i itself elsewhere)
//! backward (t = time-1 .. 0): path[t] = tag; tag = track[t][tag]
//! ```
//!
//! At step 0 and past a row's length its `alpha` stays as it was and its
//! `track` maps each tag to itself, so the backward walk from the last step
//! reaches the row's last tag unchanged; path positions past the length are
//! then 0, as Paddle writes them. Both scans cover every step (ONNX runtimes
//! refuse a scan of no step, which one-step scores would otherwise need). Ties go to the first tag, as in Paddle's loops (`ArgMax`
//! keeps the first maximum).

use pir_params::DType;

use crate::export::{a_int, a_ints, Exporter};
use crate::mappers::decoding::length_column;
use crate::mappers::index::reduce;
use crate::mappers::scan::{dim, iota, scan, ScanTypes};
use crate::mappers::solve::cut;
use crate::ExportError;

type R = Result<(), ExportError>;

/// The inputs of the dynamic program.
struct Chain<'a> {
    /// Scores `[batch, time, tags]`.
    emission: &'a str,
    /// `[tags, tags]`: `trans[j][i]` scores tag `j` followed by tag `i`.
    trans: &'a str,
    /// Lengths as an int64 `[batch, 1]` column.
    lengths: &'a str,
    /// Added to `alpha` at each row's last step (`viterbi_decode`'s stop
    /// scores), `[tags]`.
    stop: Option<&'a str>,
    /// The scores' element type.
    dtype: DType,
}

/// The forward pass from `alpha0` (`[batch, tags]`, the first step's
/// scores): the last `alpha` and the stacked `track` (`[time, batch,
/// tags]`, int64).
fn forward(
    x: &mut Exporter<'_>,
    c: &Chain<'_>,
    alpha0: &str,
) -> Result<(String, String), ExportError> {
    let elem = x.onnx_type(c.dtype)?;
    let i64t = x.onnx_type(DType::Int64)?;
    let steps_by_batch = x.node1("Transpose", &[c.emission], vec![a_ints("perm", &[1, 0, 2])]);
    let time = dim(x, c.emission, 1);
    let one = x.const_scalar(DType::Int64, 1.0)?;
    let zero = x.const_scalar(DType::Int64, 0.0)?;
    let step_numbers = iota(x, &time)?;
    let tags = dim(x, c.emission, 2);
    let same_tag = iota(x, &tags)?;
    let last_step = x.node1("Sub", &[c.lengths, &one], vec![]);
    let types = ScanTypes {
        state: &[(elem, 2)],
        scanned: &[(elem, 2), (i64t, 0)],
        outputs: &[(i64t, 2)],
    };
    let (alpha, track) = scan(
        x,
        &[alpha0.to_string()],
        &[steps_by_batch, step_numbers],
        &types,
        false,
        |x, state, step| {
            let alpha = &state[0];
            let column = x.unsqueeze(alpha, &[2]);
            let scores = x.node1("Add", &[&column, c.trans], vec![]);
            let best = reduce(x, "ReduceMax", &scores, &[1], false);
            let from = x.node1(
                "ArgMax",
                &[&scores],
                vec![a_int("axis", 1), a_int("keepdims", 0)],
            );
            let next = x.node1("Add", &[&best, &step[0]], vec![]);
            let inside = x.node1("Less", &[&step[1], c.lengths], vec![]);
            let moved = x.node1("Greater", &[&step[1], &zero], vec![]);
            let live = x.node1("And", &[&inside, &moved], vec![]);
            let mut next = x.node1("Where", &[&live, &next, alpha], vec![]);
            if let Some(stop) = c.stop {
                let ends = x.node1("Equal", &[&step[1], &last_step], vec![]);
                let ends = x.node1("And", &[&ends, &live], vec![]);
                let stopped = x.node1("Add", &[&next, stop], vec![]);
                next = x.node1("Where", &[&ends, &stopped, &next], vec![]);
            }
            let track = x.node1("Where", &[&live, &from, &same_tag], vec![]);
            Ok((vec![next], vec![track]))
        },
    )?;
    Ok((alpha[0].clone(), track[0].clone()))
}

/// The backward walk from `last` (`[batch, 1]` int64, the last step's tag)
/// through `track`: the path `[batch, time]`, 0 past each row's length.
fn backward(
    x: &mut Exporter<'_>,
    c: &Chain<'_>,
    track: &str,
    last: &str,
) -> Result<String, ExportError> {
    let i64t = x.onnx_type(DType::Int64)?;
    let types = ScanTypes {
        state: &[(i64t, 2)],
        scanned: &[(i64t, 2)],
        outputs: &[(i64t, 2)],
    };
    let (_, tags) = scan(
        x,
        &[last.to_string()],
        &[track.to_string()],
        &types,
        true,
        |x, state, step| {
            let before = x.node1(
                "GatherElements",
                &[&step[0], &state[0]],
                vec![a_int("axis", 1)],
            );
            Ok((vec![before], vec![state[0].clone()]))
        },
    )?;
    let path = x.squeeze(&tags[0], &[2]);
    let path = x.node1("Transpose", &[&path], vec![a_ints("perm", &[1, 0])]);
    let time = dim(x, c.emission, 1);
    let positions = iota(x, &time)?;
    let inside = x.node1("Less", &[&positions, c.lengths], vec![]);
    let zero = x.const_scalar(DType::Int64, 0.0)?;
    Ok(x.node1("Where", &[&inside, &path, &zero], vec![]))
}

/// Row `at` of the `[rows, tags]` matrix `m`, as `[tags]`.
fn row(x: &mut Exporter<'_>, m: &str, at: i64) -> Result<String, ExportError> {
    let i = x.const_scalar(DType::Int64, at as f64)?;
    Ok(x.node1("Gather", &[m, &i], vec![a_int("axis", 0)]))
}

/// The first step's scores `[batch, tags]`.
fn first_step(x: &mut Exporter<'_>, emission: &str) -> String {
    let first = cut(x, emission, 1, 0, 1);
    x.squeeze(&first, &[1])
}

/// Checks `[batch, time, tags]` scores (operand 0) and a transition matrix
/// (operand 1) of `extra_rows + tags` rows.
fn check_ranks(x: &Exporter<'_>) -> R {
    if x.in_rank(0)? != 3 || x.in_rank(1)? != 2 {
        return Err(x.unsupported("padded [batch, time, tags] scores and a 2-D transition matrix"));
    }
    Ok(())
}

/// `viterbi_decode(potentials, transition_params, lengths,
/// include_bos_eos_tag)`: the best score of each row and its tag path,
/// `[batch, max(lengths)]`. With the begin/end tags, the transition's
/// last row scores the start and its row before the stop, added at each
/// row's first and last step.
pub(crate) fn viterbi_decode(x: &mut Exporter<'_>) -> R {
    check_ranks(x)?;
    let with_tags = x.attrs().bool_or("include_bos_eos_tag", true)?;
    let dtype = x.in_dtype(0)?;
    let emission = x.input(0)?;
    let trans = x.input(1)?;
    let lengths = length_column(x, 2)?;
    let mut alpha0 = first_step(x, &emission);
    let mut stop = None;
    if with_tags {
        let n = x.node1("Shape", &[&trans], vec![]);
        let at = x.const_i64s(&[0]);
        let n = x.node1("Gather", &[&n, &at], vec![a_int("axis", 0)]);
        let two = x.const_i64s(&[2]);
        let one = x.const_i64s(&[1]);
        let stop_at = x.node1("Sub", &[&n, &two], vec![]);
        let start_at = x.node1("Sub", &[&n, &one], vec![]);
        let stop_row = x.node1("Gather", &[&trans, &stop_at], vec![a_int("axis", 0)]);
        let start_row = x.node1("Gather", &[&trans, &start_at], vec![a_int("axis", 0)]);
        alpha0 = x.node1("Add", &[&alpha0, &start_row], vec![]);
        // A row of length 1 stops at its first step.
        let one_s = x.const_scalar(DType::Int64, 1.0)?;
        let single = x.node1("Equal", &[&lengths, &one_s], vec![]);
        let stopped = x.node1("Add", &[&alpha0, &stop_row], vec![]);
        alpha0 = x.node1("Where", &[&single, &stopped, &alpha0], vec![]);
        stop = Some(stop_row);
    }
    let chain = Chain {
        emission: &emission,
        trans: &trans,
        lengths: &lengths,
        stop: stop.as_deref(),
        dtype,
    };
    let (alpha, track) = forward(x, &chain, &alpha0)?;
    let scores = reduce(x, "ReduceMax", &alpha, &[1], false);
    let last = x.node1(
        "ArgMax",
        &[&alpha],
        vec![a_int("axis", 1), a_int("keepdims", 1)],
    );
    let path = backward(x, &chain, &track, &last)?;
    // Paddle's path is as long as the longest row.
    let longest = reduce(x, "ReduceMax", &lengths, &[], true);
    let longest = x.reshape(&longest, &[1]);
    let start = x.const_i64s(&[0]);
    let axis = x.const_i64s(&[1]);
    let path = x.node1("Slice", &[&path, &start, &longest, &axis], vec![]);
    x.identity_out(0, &scores);
    x.identity_out(1, &path);
    // Paddle's InferMeta types the scores as the lengths and leaves the
    // path untyped.
    let batch = x.in_dims(0)?[0];
    x.retype_result(0, dtype, &[batch])?;
    x.retype_result(1, DType::Int64, &[batch, -1])
}

/// `crf_decoding(emission, transition, label, length)`: the transition's
/// first row scores the start, its second the end, the rest tag to tag.
/// The path `[batch, time]`, or with a label, 1 where the label agrees
/// with it (0 past each length).
pub(crate) fn crf_decoding(x: &mut Exporter<'_>) -> R {
    if !x.has_input(3) {
        return Err(x.unsupported(
            "without `length` the op reads LoD sequences, and ONNX tensors carry no LoD \
             (give the padded form with lengths)",
        ));
    }
    check_ranks(x)?;
    let dtype = x.in_dtype(0)?;
    let emission = x.input(0)?;
    let weights = x.input(1)?;
    let lengths = length_column(x, 3)?;
    let start = row(x, &weights, 0)?;
    let end = row(x, &weights, 1)?;
    let trans = cut(x, &weights, 0, 2, i64::MAX);
    let first = first_step(x, &emission);
    let alpha0 = x.node1("Add", &[&first, &start], vec![]);
    let chain = Chain {
        emission: &emission,
        trans: &trans,
        lengths: &lengths,
        stop: None,
        dtype,
    };
    let (alpha, track) = forward(x, &chain, &alpha0)?;
    let ended = x.node1("Add", &[&alpha, &end], vec![]);
    let last = x.node1(
        "ArgMax",
        &[&ended],
        vec![a_int("axis", 1), a_int("keepdims", 1)],
    );
    let mut path = backward(x, &chain, &track, &last)?;
    if x.has_input(2) {
        let label = crate::mappers::decoding::input_i64(x, 2)?;
        let path_shape = x.node1("Shape", &[&path], vec![]);
        let label = x.node1("Reshape", &[&label, &path_shape], vec![]);
        let agree = x.node1("Equal", &[&label, &path], vec![]);
        let agree = x.cast(&agree, DType::Int64)?;
        let time = dim(x, &emission, 1);
        let positions = iota(x, &time)?;
        let inside = x.node1("Less", &[&positions, &lengths], vec![]);
        let zero = x.const_scalar(DType::Int64, 0.0)?;
        path = x.node1("Where", &[&inside, &agree, &zero], vec![]);
    }
    x.cast_out(0, &path)
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_at, export_ops};
    use crate::ExportError;

    fn scans(g: &crate::proto::GraphProto) -> Vec<bool> {
        g.node
            .iter()
            .filter(|n| n.op_type == "Scan")
            .map(|n| {
                n.attribute
                    .iter()
                    .any(|a| a.name == "scan_input_directions")
            })
            .collect()
    }

    #[test]
    fn viterbi_decode_is_a_forward_then_a_backward_scan() {
        let g = export_ops(
            r#"    (%0) = "pd_op.data" () {dtype:float32,name:"p",place:Place(undefined:0),shape:[-1,6,5],stop_gradient:[true]} : () -> tensor<-1x6x5xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"t",place:Place(undefined:0),shape:[5,5],stop_gradient:[true]} : () -> tensor<5x5xf32>
    (%2) = "pd_op.data" () {dtype:int64,name:"l",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
    (%3, %4) = "pd_op.viterbi_decode" (%0, %1, %2) {include_bos_eos_tag:true,stop_gradient:[true,true]} : (tensor<-1x6x5xf32>, tensor<5x5xf32>, tensor<-1xi64>) -> tensor<-1xi64>, tensor<f32>
    (%5) = "pd_op.fetch" (%3) {col:0,name:"s",persistable:[true],stop_gradient:[true]} : (tensor<-1xi64>) -> tensor<-1xi64>
    (%6) = "pd_op.fetch" (%4) {col:1,name:"path",persistable:[true],stop_gradient:[true]} : (tensor<f32>) -> tensor<f32>"#,
        );
        assert_eq!(scans(&g), [false, true]);
        // The scores are the potentials' dtype, the path int64 [batch, -1].
        let elem = |i: usize| match g.output[i].r#type.as_ref().and_then(|t| t.value.clone()) {
            Some(crate::proto::type_proto::Value::TensorType(t)) => t.elem_type,
            _ => panic!("a tensor output"),
        };
        assert_eq!(elem(0), crate::proto::DataType::Float as i32);
        assert_eq!(elem(1), crate::proto::DataType::Int64 as i32);
    }

    #[test]
    fn crf_decoding_with_a_label_compares_it_with_the_path() {
        let g = export_ops(
            r#"    (%0) = "pd_op.data" () {dtype:float32,name:"e",place:Place(undefined:0),shape:[-1,5,4],stop_gradient:[true]} : () -> tensor<-1x5x4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[6,4],stop_gradient:[true]} : () -> tensor<6x4xf32>
    (%2) = "pd_op.data" () {dtype:int64,name:"label",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xi64>
    (%3) = "pd_op.data" () {dtype:int64,name:"l",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
    (%4) = "pd_op.crf_decoding" (%0, %1, %2, %3) {stop_gradient:[true]} : (tensor<-1x5x4xf32>, tensor<6x4xf32>, tensor<-1x5xi64>, tensor<-1xi64>) -> tensor<-1x5xi64>
    (%5) = "pd_op.fetch" (%4) {col:0,name:"y",persistable:[true],stop_gradient:[true]} : (tensor<-1x5xi64>) -> tensor<-1x5xi64>"#,
        );
        assert_eq!(scans(&g), [false, true]);
        let equals = g.node.iter().filter(|n| n.op_type == "Equal").count();
        assert!(equals >= 1);
    }

    #[test]
    fn crf_decoding_of_lod_sequences_is_refused() {
        let r = export_at(
            r#"    (%0) = "pd_op.data" () {dtype:float32,name:"e",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[6,4],stop_gradient:[true]} : () -> tensor<6x4xf32>
    (%2) = "pd_op.crf_decoding" (%0, %1, <<NULL VALUE>>, <<NULL VALUE>>) {stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<6x4xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<-1x1xi64>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"y",persistable:[true],stop_gradient:[true]} : (tensor<-1x1xi64>) -> tensor<-1x1xi64>"#,
            17,
        );
        assert!(
            matches!(r, Err(ExportError::Unsupported { message, .. }) if message.contains("LoD"))
        );
    }
}
