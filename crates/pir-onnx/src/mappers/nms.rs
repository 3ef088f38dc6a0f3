//! Box selection and pooling of detection models: `nms`, `multiclass_nms3`
//! (ONNX `NonMaxSuppression` plus the ordering and limits Paddle's kernel
//! applies around it), `roi_pool` (`MaxRoiPool`), `anchor_generator`
//! (constants from the known feature size).
//!
//! Paddle's greedy NMS keeps a box unless its IoU with a kept box exceeds
//! the threshold, visiting boxes by score (ties by index): ONNX's
//! `NonMaxSuppression` does the same. Unnormalised boxes
//! (`normalized=false`) measure widths as `x2 - x1 + 1`: the boxes are
//! given to ONNX with `x2 + 1` and `y2 + 1`, which gives the same IoU for
//! every pair that overlaps or touches (Paddle counts boxes less than one
//! unit apart as disjoint, ONNX then as barely overlapping: an IoU far
//! below any threshold in use). An adaptive threshold (`nms_eta < 1`) has
//! no ONNX form and is refused.

use pir_params::DType;

use crate::export::{a_int, a_tensor, encode_values, Exporter};
use crate::mappers::index::reduce;
use crate::mappers::misc::{roi_batch_index, roi_grid};
use crate::proto::TensorProto;
use crate::ExportError;

type R = Result<(), ExportError>;

/// Column `i` of the 2-D int64 `m`, as a 1-D tensor.
pub(crate) fn column(x: &mut Exporter<'_>, m: &str, i: i64) -> String {
    let at = x.const_i64s(&[i]);
    let c = x.node1("Gather", &[m, &at], vec![a_int("axis", 1)]);
    x.squeeze(&c, &[1])
}

/// Boxes `[.., 4]` with 1 added to `x2` and `y2` (Paddle's unnormalised
/// widths and heights as plain ones).
pub(crate) fn widen_by_one(
    x: &mut Exporter<'_>,
    boxes: &str,
    d: DType,
) -> Result<String, ExportError> {
    let shift = x.const_values(d, &[4], &[0.0, 0.0, 1.0, 1.0])?;
    Ok(x.node1("Add", &[boxes, &shift], vec![]))
}

/// A tensor of shape `shape` (a 1-D int64 tensor) filled with `value`.
pub(crate) fn filled(
    x: &mut Exporter<'_>,
    shape: &str,
    dtype: DType,
    value: f64,
) -> Result<String, ExportError> {
    let raw = encode_values(dtype, &[value])
        .ok_or_else(|| x.unsupported(format!("a {dtype} fill value")))?;
    let data_type = x.onnx_type(dtype)? as i32;
    let fill = TensorProto {
        dims: vec![1],
        data_type,
        raw_data: raw,
        ..Default::default()
    };
    Ok(x.node1("ConstantOfShape", &[shape], vec![a_tensor("value", fill)]))
}

/// The rows of `t` where the 1-D bool `keep` is true.
pub(crate) fn rows_where(x: &mut Exporter<'_>, t: &str, keep: &str) -> String {
    x.node1("Compress", &[t, keep], vec![a_int("axis", 0)])
}

/// `nms(boxes [N, 4], threshold)`: the indices of the kept boxes in input
/// order, padded with zeros to `N` (Paddle's kernel visits boxes in input
/// order, so the scores given to ONNX decrease with the index).
pub(crate) fn nms(x: &mut Exporter<'_>) -> R {
    let boxes = x.input(0)?;
    let threshold = x.attrs().f64_or("threshold", 1.0)?;
    let dims = x.node1("Shape", &[&boxes], vec![]);
    let zero = x.const_i64s(&[0]);
    let one = x.const_i64s(&[1]);
    let n = x.node1("Slice", &[&dims, &zero, &one], vec![]);
    let n0 = x.reshape(&n, &[]);
    let (z, step) = (
        x.const_scalar(DType::Int64, 0.0)?,
        x.const_scalar(DType::Int64, -1.0)?,
    );
    // Scores n, n-1, ..., 1: the first box first.
    let order = x.node1("Range", &[&n0, &z, &step], vec![]);
    let scores = x.cast(&order, DType::Float32)?;
    let scores = x.reshape(&scores, &[1, 1, -1]);
    let b = x.cast(&boxes, DType::Float32)?;
    let b = x.unsqueeze(&b, &[0]);
    let iou = x.const_values(DType::Float32, &[1], &[threshold])?;
    let selected = x.node1("NonMaxSuppression", &[&b, &scores, &n, &iou], vec![]);
    let kept = column(x, &selected, 2);
    // Zeros after the kept indices, to N in all.
    let zeros = filled(x, &n, DType::Int64, 0.0)?;
    let padded = x.node1("Concat", &[&kept, &zeros], vec![a_int("axis", 0)]);
    let padded = x.node1("Slice", &[&padded, &zero, &n], vec![]);
    x.cast_out(0, &padded)?;
    Ok(())
}

/// `multiclass_nms3(bboxes [N, M, 4], scores [N, C, M], rois_num,
/// score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized,
/// nms_eta, background_label)` → `out [K, 6]` (label, score, box), `index
/// [K, 1]` (`image * M + box`), `nms_rois_num [N]`.
///
/// Per image and class (ascending, the background skipped): the boxes
/// scoring above `score_threshold`, the `nms_top_k` best of them, greedy
/// NMS. Then per image the `keep_top_k` best by score of all kept boxes
/// (ties: the earlier in class-then-score order), listed by class and
/// score.
pub(crate) fn multiclass_nms3(x: &mut Exporter<'_>) -> R {
    if x.has_input(2) || x.in_rank(1)? != 3 {
        return Err(x.unsupported("scores per roi (rank 2, with rois_num) are not supported"));
    }
    let attrs = x.attrs();
    let score_threshold = attrs.f64_or("score_threshold", 0.0)?;
    let nms_top_k = attrs.i64_or("nms_top_k", -1)?;
    let keep_top_k = attrs.i64_or("keep_top_k", -1)?;
    let nms_threshold = attrs.f64_or("nms_threshold", 0.3)?;
    let normalized = attrs.bool_or("normalized", true)?;
    let eta = attrs.f64_or("nms_eta", 1.0)?;
    let background = attrs.i64_or("background_label", 0)?;
    if eta < 1.0 {
        return Err(x.unsupported("an adaptive NMS threshold (nms_eta < 1) has no ONNX form"));
    }
    let d = x.in_dtype(1)?;
    if x.in_dims(0)?.last() != Some(&4) {
        return Err(x.unsupported("only boxes of 4 coordinates (no polygons)"));
    }
    let bboxes = x.input(0)?;
    let mut scores = x.input(1)?;
    let m = x.in_dims(0)?.get(1).copied().unwrap_or(-1);
    if nms_top_k > -1 && (m < 0 || nms_top_k < m) {
        // Only the nms_top_k best scores of each class take part: the rest
        // drop to -inf, below any threshold.
        let k = x.const_i64s(&[nms_top_k]);
        let (values, best) = (x.tmp(), x.tmp());
        x.node(
            "TopK",
            &[&scores, &k],
            &[&values, &best],
            vec![a_int("axis", 2)],
        );
        let all = x.node1("Shape", &[&scores], vec![]);
        let falses = filled(x, &all, DType::Bool, 0.0)?;
        let top = x.node1("Shape", &[&best], vec![]);
        let trues = filled(x, &top, DType::Bool, 1.0)?;
        let chosen = x.node1(
            "ScatterElements",
            &[&falses, &best, &trues],
            vec![a_int("axis", 2)],
        );
        let low = x.const_scalar(d, f64::NEG_INFINITY)?;
        scores = x.node1("Where", &[&chosen, &scores, &low], vec![]);
    }
    let onnx_boxes = if normalized {
        bboxes.clone()
    } else {
        widen_by_one(x, &bboxes, d)?
    };
    let onnx_boxes = x.cast(&onnx_boxes, DType::Float32)?;
    let onnx_scores = x.cast(&scores, DType::Float32)?;
    let per_class = x.const_i64s(&[if m > 0 { m } else { i64::from(i32::MAX) }]);
    let iou = x.const_values(DType::Float32, &[1], &[nms_threshold])?;
    let floor = x.const_values(DType::Float32, &[1], &[score_threshold])?;
    let selected = x.node1(
        "NonMaxSuppression",
        &[&onnx_boxes, &onnx_scores, &per_class, &iou, &floor],
        vec![],
    );
    // Drop the background class.
    let class = column(x, &selected, 1);
    let bg = x.const_scalar(DType::Int64, background as f64)?;
    let is_bg = x.node1("Equal", &[&class, &bg], vec![]);
    let not_bg = x.node1("Not", &[&is_bg], vec![]);
    let mut selected = rows_where(x, &selected, &not_bg);
    let mut score = x.node1("GatherND", &[&scores, &selected], vec![]);
    if keep_top_k > -1 {
        // Rank of each row among its image's rows: how many score higher,
        // or as high and come first.
        let image = column(x, &selected, 0);
        let (ia, ib) = (x.unsqueeze(&image, &[1]), x.unsqueeze(&image, &[0]));
        let same = x.node1("Equal", &[&ia, &ib], vec![]);
        let (sa, sb) = (x.unsqueeze(&score, &[1]), x.unsqueeze(&score, &[0]));
        let higher = x.node1("Less", &[&sa, &sb], vec![]);
        let tie = x.node1("Equal", &[&sa, &sb], vec![]);
        let k_shape = x.node1("Shape", &[&score], vec![]);
        let k0 = x.reshape(&k_shape, &[]);
        let (z, one) = (
            x.const_scalar(DType::Int64, 0.0)?,
            x.const_scalar(DType::Int64, 1.0)?,
        );
        let pos = x.node1("Range", &[&z, &k0, &one], vec![]);
        let (pa, pb) = (x.unsqueeze(&pos, &[1]), x.unsqueeze(&pos, &[0]));
        let earlier = x.node1("Greater", &[&pa, &pb], vec![]);
        let tie_first = x.node1("And", &[&tie, &earlier], vec![]);
        let before = x.node1("Or", &[&higher, &tie_first], vec![]);
        let before = x.node1("And", &[&before, &same], vec![]);
        let before = x.cast(&before, DType::Int64)?;
        let rank = reduce(x, "ReduceSum", &before, &[1], false);
        let limit = x.const_scalar(DType::Int64, keep_top_k as f64)?;
        let keep = x.node1("Less", &[&rank, &limit], vec![]);
        selected = rows_where(x, &selected, &keep);
        score = rows_where(x, &score, &keep);
    }
    let image = column(x, &selected, 0);
    let class = column(x, &selected, 1);
    let which = column(x, &selected, 2);
    let pick = {
        let a = x.unsqueeze(&image, &[1]);
        let b = x.unsqueeze(&which, &[1]);
        x.node1("Concat", &[&a, &b], vec![a_int("axis", 1)])
    };
    let boxes = x.node1("GatherND", &[&bboxes, &pick], vec![]);
    let label = x.cast(&class, d)?;
    let label = x.unsqueeze(&label, &[1]);
    let score = x.unsqueeze(&score, &[1]);
    let out = x.out(0);
    x.node(
        "Concat",
        &[&label, &score, &boxes],
        &[&out],
        vec![a_int("axis", 1)],
    );
    // index = image * M + box.
    let dims = x.node1("Shape", &[&bboxes], vec![]);
    let at1 = x.const_i64s(&[1]);
    let boxes_per_image = x.node1("Gather", &[&dims, &at1], vec![a_int("axis", 0)]);
    let base = x.node1("Mul", &[&image, &boxes_per_image], vec![]);
    let index = x.node1("Add", &[&base, &which], vec![]);
    let index = x.unsqueeze(&index, &[1]);
    x.cast_out(1, &index)?;
    // Kept boxes per image.
    let at0 = x.const_i64s(&[0]);
    let n = x.node1("Gather", &[&dims, &at0], vec![a_int("axis", 0)]);
    let n0 = x.reshape(&n, &[]);
    let (z, one) = (
        x.const_scalar(DType::Int64, 0.0)?,
        x.const_scalar(DType::Int64, 1.0)?,
    );
    let images = x.node1("Range", &[&z, &n0, &one], vec![]);
    let images = x.unsqueeze(&images, &[1]);
    let row_image = x.unsqueeze(&image, &[0]);
    let mine = x.node1("Equal", &[&images, &row_image], vec![]);
    let mine = x.cast(&mine, DType::Int64)?;
    let counts = reduce(x, "ReduceSum", &mine, &[1], false);
    x.cast_out(2, &counts)?;
    Ok(())
}

/// `roi_pool(x, boxes, boxes_num, pooled_height, pooled_width,
/// spatial_scale)`: ONNX's `MaxRoiPool` (the same rounding of roi corners
/// and bins). The argmax output has no ONNX form: an error when read.
pub(crate) fn roi_pool(x: &mut Exporter<'_>) -> R {
    if x.result(1).is_some_and(|v| !x.p.use_empty(v)) {
        return Err(x.unsupported("the arg_max output has no ONNX form"));
    }
    let a = x.input(0)?;
    let boxes = x.input(1)?;
    let (ph, pw, scale) = roi_grid(x)?;
    let d = x.in_dtype(1)?;
    let batch = roi_batch_index(x, &boxes, 2)?;
    let batch = x.cast(&batch, d)?;
    let batch = x.unsqueeze(&batch, &[1]);
    let rois = x.node1("Concat", &[&batch, &boxes], vec![a_int("axis", 1)]);
    let out = x.out(0);
    x.node(
        "MaxRoiPool",
        &[&a, &rois],
        &[&out],
        vec![
            crate::export::a_ints("pooled_shape", &[ph, pw]),
            crate::export::a_float("spatial_scale", scale),
        ],
    );
    Ok(())
}

/// The anchors of `anchor_generator` for a `height x width` feature map:
/// `[height, width, ratios * sizes, 4]`, ratios outer, in float32 as
/// Paddle's kernel computes them.
fn anchors(
    height: i64,
    width: i64,
    sizes: &[f64],
    ratios: &[f64],
    stride: (f64, f64),
    offset: f64,
) -> Vec<f64> {
    let (sw, sh) = (stride.0 as f32, stride.1 as f32);
    let offset = offset as f32;
    let mut out = Vec::new();
    for h in 0..height {
        for w in 0..width {
            let cx = w as f32 * sw + offset * (sw - 1.0);
            let cy = h as f32 * sh + offset * (sh - 1.0);
            for &ar in ratios {
                let ar = ar as f32;
                for &size in sizes {
                    let size = size as f32;
                    let base_w = (sw * sh / ar).sqrt().round();
                    let base_h = (base_w * ar).round();
                    let aw = f64::from(size / sw * base_w);
                    let ah = f64::from(size / sh * base_h);
                    let (cx, cy) = (f64::from(cx), f64::from(cy));
                    for v in [
                        cx - 0.5 * (aw - 1.0),
                        cy - 0.5 * (ah - 1.0),
                        cx + 0.5 * (aw - 1.0),
                        cy + 0.5 * (ah - 1.0),
                    ] {
                        out.push(f64::from(v as f32));
                    }
                }
            }
        }
    }
    out
}

/// `anchor_generator(input, anchor_sizes, aspect_ratios, variances, stride,
/// offset)`: constants, from the feature map's known height and width.
pub(crate) fn anchor_generator(x: &mut Exporter<'_>) -> R {
    let dims = x.in_dims(0)?;
    if dims.len() != 4 || dims[2] < 0 || dims[3] < 0 {
        return Err(x.unsupported("the feature map's height and width must be known"));
    }
    let (h, w) = (dims[2], dims[3]);
    let attrs = x.attrs();
    let sizes = attrs.f64s("anchor_sizes")?;
    let ratios = attrs.f64s("aspect_ratios")?;
    let variances = attrs.f64s("variances")?;
    let stride = attrs
        .f64s_opt("stride")?
        .unwrap_or_else(|| vec![16.0, 16.0]);
    let offset = attrs.f64_or("offset", 0.5)?;
    if stride.len() != 2 || variances.len() != 4 {
        return Err(x.unsupported("two strides and four variances"));
    }
    let per_cell = (sizes.len() * ratios.len()) as i64;
    if h * w * per_cell > 1 << 22 {
        return Err(x.unsupported("too many anchors"));
    }
    let values = anchors(h, w, &sizes, &ratios, (stride[0], stride[1]), offset);
    let shape = [h, w, per_cell, 4];
    let d = x.out_dtype(0)?;
    let a = x.const_values(d, &shape, &values)?;
    x.identity_out(0, &a);
    let var: Vec<f64> = (0..h * w * per_cell)
        .flat_map(|_| variances.iter().copied())
        .collect();
    let v = x.const_values(d, &shape, &var)?;
    x.identity_out(1, &v);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::anchors;

    #[test]
    fn anchors_are_centred_on_their_cell_with_rounded_base_sizes() {
        // stride 4: centre of cell (0, 0) at 0.5 * 3 = 1.5; base 4x4; size 8
        // scales it to 8: corners 1.5 -+ 3.5.
        let a = anchors(1, 1, &[8.0], &[1.0], (4.0, 4.0), 0.5);
        assert_eq!(a, [-2.0, -2.0, 5.0, 5.0]);
        // Ratio 2: base_w = round(sqrt(8)) = 3, base_h = 6.
        let a = anchors(1, 2, &[4.0], &[2.0], (4.0, 4.0), 0.5);
        assert_eq!(a.len(), 8);
        assert_eq!(a[..4], [0.5, -1.0, 2.5, 4.0]);
        assert_eq!(a[4], 4.5, "the next cell is one stride to the right");
    }

    const NMS3: &str = r#"    (%0) = "pd_op.data" () {dtype:float32,name:"b",place:Place(undefined:0),shape:[-1,6,4],stop_gradient:[false]} : () -> tensor<-1x6x4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[-1,3,6],stop_gradient:[false]} : () -> tensor<-1x3x6xf32>
    (%2, %3, %4) = "pd_op.multiclass_nms3" (%0, %1, <<NULL VALUE>>) {background_label:0,keep_top_k:4,nms_eta:ETA,nms_threshold:0.5,nms_top_k:3,normalized:false,score_threshold:0.3,stop_gradient:[false,false,false]} : (tensor<-1x6x4xf32>, tensor<-1x3x6xf32>, <<NULL TYPE>>) -> tensor<-1x6xf32>, tensor<-1x1xi32>, tensor<-1xi32>
    (%5) = "pd_op.fetch" (%2) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x6xf32>) -> tensor<-1x6xf32>"#;

    #[test]
    fn multiclass_nms_runs_onnx_nms_after_the_per_class_top_k() {
        use crate::mappers::tests::{export_ops, op_types};
        let g = export_ops(&NMS3.replace("ETA", "1"));
        let types = op_types(&g);
        let nms = types.iter().position(|t| *t == "NonMaxSuppression");
        let top_k = types.iter().position(|t| *t == "TopK");
        assert!(top_k < nms && nms.is_some(), "{types:?}");
    }

    #[test]
    fn an_adaptive_nms_threshold_is_refused() {
        let err = crate::mappers::tests::export_at(&NMS3.replace("ETA", "0.5"), 17)
            .expect_err("nms_eta < 1");
        assert!(err.to_string().contains("nms_eta"), "{err}");
    }
}
