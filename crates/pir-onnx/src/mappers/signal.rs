//! Signal framing: `frame` (overlapping windows of a sequence, one `Gather`
//! of computed positions) and `overlap_add` (its inverse: windows summed
//! back into a sequence, a `ScatterND` that adds, opset 16).
//!
//! Both work along the last axis (`[..., seq]` ⇄ `[..., frame_length,
//! frames]`) or the first (`[seq, ...]` ⇄ `[frames, frame_length, ...]`);
//! frame `f` holds the samples `f * hop + i`, `i < frame_length`.

use pir_params::DType;

use crate::export::{a_int, a_ints, a_str, Exporter};
use crate::mappers::scan::{dim, iota};
use crate::ExportError;

type R = Result<(), ExportError>;

/// The largest frame length a `frame` positions constant holds.
const MAX_FRAME: i64 = 1 << 20;

/// Whether attribute `axis` frames the last axis (`-1`, or the last of
/// `rank`) or the first (`0`); other axes are refused, as Paddle does.
fn along_last(x: &Exporter<'_>, rank: i64) -> Result<bool, ExportError> {
    match x.attrs().i64_or("axis", -1)? {
        0 if rank > 1 => Ok(false),
        a if a == -1 || a == rank - 1 => Ok(true),
        a => Err(x.unsupported(format!("axis {a}: only the first or the last axis"))),
    }
}

/// `frame(x, frame_length, hop_length, axis)`: `(seq - frame_length) / hop
/// + 1` windows.
pub(crate) fn frame(x: &mut Exporter<'_>) -> R {
    let rank = x.in_rank(0)?;
    let last = along_last(x, rank)?;
    let attrs = x.attrs();
    let length = attrs.i64("frame_length")?;
    let hop = attrs.i64("hop_length")?;
    if !(1..=MAX_FRAME).contains(&length) || hop < 1 {
        return Err(x.unsupported(format!(
            "frame_length {length} and hop_length {hop} (frame_length 1 to {MAX_FRAME}, hop at least 1)"
        )));
    }
    let a = x.input(0)?;
    let axis = if last { rank - 1 } else { 0 };
    let seq = dim(x, &a, axis);
    let length_c = x.const_scalar(DType::Int64, length as f64)?;
    let hop_c = x.const_scalar(DType::Int64, hop as f64)?;
    let one = x.const_scalar(DType::Int64, 1.0)?;
    let spare = x.node1("Sub", &[&seq, &length_c], vec![]);
    let frames = x.node1("Div", &[&spare, &hop_c], vec![]);
    let frames = x.node1("Add", &[&frames, &one], vec![]);
    let starts = iota(x, &frames)?;
    let starts = x.node1("Mul", &[&starts, &hop_c], vec![]);
    let offsets: Vec<i64> = (0..length).collect();
    let offsets = x.const_i64s(&offsets);
    // Positions [frame_length, frames] (last axis) or [frames, frame_length].
    let positions = if last {
        let column = x.unsqueeze(&offsets, &[1]);
        x.node1("Add", &[&column, &starts], vec![])
    } else {
        let column = x.unsqueeze(&starts, &[1]);
        x.node1("Add", &[&column, &offsets], vec![])
    };
    let out = x.node1("Gather", &[&a, &positions], vec![a_int("axis", axis)]);
    x.finish_with(&out)
}

/// `overlap_add(x, hop_length, axis)`: `(frames - 1) * hop + frame_length`
/// samples, each the sum of the window samples over it.
pub(crate) fn overlap_add(x: &mut Exporter<'_>) -> R {
    x.need_opset(16, "overlap_add (ScatterND adding into its target)")?;
    let rank = x.in_rank(0)?;
    if rank < 2 {
        return Err(x.unsupported("windows of rank 2 or more"));
    }
    let last = along_last(x, rank)?;
    let hop = x.attrs().i64("hop_length")?;
    if hop < 1 {
        return Err(x.unsupported(format!("hop_length {hop}")));
    }
    let d = x.in_dtype(0)?;
    let a = x.input(0)?;
    // Windows as [frame_length, frames, rest] with the other dims in `rest`.
    let perm: Vec<i64> = if last {
        [rank - 2, rank - 1]
            .into_iter()
            .chain(0..rank - 2)
            .collect()
    } else {
        [1, 0].into_iter().chain(2..rank).collect()
    };
    let windows = x.node1("Transpose", &[&a], vec![a_ints("perm", &perm)]);
    let windows = x.reshape(&windows, &[0, 0, -1]);
    let length = dim(x, &windows, 0);
    let frames = dim(x, &windows, 1);
    let hop_c = x.const_scalar(DType::Int64, hop as f64)?;
    let one = x.const_scalar(DType::Int64, 1.0)?;
    let starts = iota(x, &frames)?;
    let starts = x.node1("Mul", &[&starts, &hop_c], vec![]);
    let offsets = iota(x, &length)?;
    let column = x.unsqueeze(&offsets, &[1]);
    let positions = x.node1("Add", &[&column, &starts], vec![]);
    let positions = x.unsqueeze(&positions, &[2]);
    // seq = (frames - 1) * hop + frame_length.
    let before_last = x.node1("Sub", &[&frames, &one], vec![]);
    let seq = x.node1("Mul", &[&before_last, &hop_c], vec![]);
    let seq = x.node1("Add", &[&seq, &length], vec![]);
    let seq1 = x.reshape(&seq, &[1]);
    let rest = dim(x, &windows, 2);
    let rest1 = x.reshape(&rest, &[1]);
    let target_shape = x.node1("Concat", &[&seq1, &rest1], vec![a_int("axis", 0)]);
    let zero = x.const_scalar(d, 0.0)?;
    let target = x.node1("Expand", &[&zero, &target_shape], vec![]);
    let summed = x.node1(
        "ScatterND",
        &[&target, &positions, &windows],
        vec![a_str("reduction", "add")],
    );
    // Back to [..., seq] or [seq, ...].
    let shape = x.node1("Shape", &[&a], vec![]);
    let (from, to) = if last { (0, rank - 2) } else { (2, rank) };
    let from = x.const_i64s(&[from]);
    let to = x.const_i64s(&[to]);
    let kept = x.node1("Slice", &[&shape, &from, &to], vec![]);
    let out = if last {
        let t = x.node1("Transpose", &[&summed], vec![a_ints("perm", &[1, 0])]);
        let out_shape = x.node1("Concat", &[&kept, &seq1], vec![a_int("axis", 0)]);
        x.node1("Reshape", &[&t, &out_shape], vec![])
    } else {
        let out_shape = x.node1("Concat", &[&seq1, &kept], vec![a_int("axis", 0)]);
        x.node1("Reshape", &[&summed, &out_shape], vec![])
    };
    x.finish_with(&out)
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_at, export_ops, op_types};
    use crate::ExportError;

    const OVERLAP_ADD: &str = r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,6,7],stop_gradient:[false]} : () -> tensor<-1x6x7xf32>
    (%1) = "pd_op.overlap_add" (%0) {axis:-1,hop_length:3,stop_gradient:[false]} : (tensor<-1x6x7xf32>) -> tensor<-1x24xf32>
    (%2) = "pd_op.fetch" (%1) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x24xf32>) -> tensor<-1x24xf32>"#;

    #[test]
    fn frame_gathers_computed_positions_along_its_axis() {
        let g = export_ops(
            r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,26],stop_gradient:[false]} : () -> tensor<-1x26xf32>
    (%1) = "pd_op.frame" (%0) {axis:-1,frame_length:8,hop_length:3,stop_gradient:[false]} : (tensor<-1x26xf32>) -> tensor<-1x8x7xf32>
    (%2) = "pd_op.fetch" (%1) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x8x7xf32>) -> tensor<-1x8x7xf32>"#,
        );
        let gather = g
            .node
            .iter()
            .find(|n| n.op_type == "Gather" && n.input[0] == "x")
            .expect("a Gather of the input");
        assert_eq!(gather.attribute[0].i, 1, "gathers along the last axis");
    }

    #[test]
    fn overlap_add_sums_windows_with_a_scatter_that_adds() {
        let g = export_ops(OVERLAP_ADD);
        let scatter = g
            .node
            .iter()
            .find(|n| n.op_type == "ScatterND")
            .expect("a ScatterND");
        assert_eq!(scatter.attribute[0].s, b"add");
        assert!(op_types(&g).contains(&"Transpose"));
    }

    #[test]
    fn overlap_add_below_opset_16_is_refused_naming_the_op() {
        match export_at(OVERLAP_ADD, 15) {
            Err(ExportError::Unsupported { op, message, .. }) => {
                assert_eq!(op, "pd_op.overlap_add");
                assert!(message.contains("opset 16"), "{message}");
            }
            other => panic!("expected a refusal, got {:?}", other.map(|_| ())),
        }
    }

    #[test]
    fn frame_along_a_middle_axis_is_refused() {
        let r = export_at(
            r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,26,3],stop_gradient:[false]} : () -> tensor<2x26x3xf32>
    (%1) = "pd_op.frame" (%0) {axis:1,frame_length:8,hop_length:3,stop_gradient:[false]} : (tensor<2x26x3xf32>) -> tensor<2x8x7x3xf32>
    (%2) = "pd_op.fetch" (%1) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<2x8x7x3xf32>) -> tensor<2x8x7x3xf32>"#,
            17,
        );
        assert!(
            matches!(r, Err(ExportError::Unsupported { message, .. }) if message.contains("axis 1"))
        );
    }
}
