//! Region proposals of two-stage detectors: `generate_proposals` (anchors
//! decoded by the predicted deltas, clipped, filtered, NMS per image),
//! `distribute_fpn_proposals` (RoIs to pyramid levels by size) and
//! `collect_fpn_proposals` (the best RoIs of all levels, image by image).
//!
//! Paddle lists RoIs image by image with per-image counts beside them (its
//! `rois_num` tensors); the graphs work on all images at once and derive
//! each row's image from those counts. Without the counts Paddle reads
//! them from the LoD, which ONNX has not: refused.

use pir_params::DType;

use crate::export::{a_int, Exporter};
use crate::mappers::index::{reduce, sorted_top_k};
use crate::mappers::misc::image_of_rows;
use crate::mappers::nms::{column, filled, widen_by_one};
use crate::ExportError;

type R = Result<(), ExportError>;

/// `Range(0, n)` for the `[1]` int64 `n`.
fn range(x: &mut Exporter<'_>, n: &str) -> Result<String, ExportError> {
    let n = x.reshape(n, &[]);
    let zero = x.const_scalar(DType::Int64, 0.0)?;
    let one = x.const_scalar(DType::Int64, 1.0)?;
    Ok(x.node1("Range", &[&zero, &n, &one], vec![]))
}

/// The length of axis 0 of `t`, as a `[1]` int64.
fn rows(x: &mut Exporter<'_>, t: &str) -> String {
    let shape = x.node1("Shape", &[t], vec![]);
    let zero = x.const_i64s(&[0]);
    let one = x.const_i64s(&[1]);
    x.node1("Slice", &[&shape, &zero, &one], vec![])
}

/// For each image of `images` (`[B]` int64 ids), how many rows of `image`
/// (`[R]` int64) are its, counting only the rows where `keep` (`[R]` bool)
/// holds when given; int32 `[B]`.
fn per_image_counts(
    x: &mut Exporter<'_>,
    image: &str,
    keep: Option<&str>,
    images: &str,
) -> Result<String, ExportError> {
    let a = x.unsqueeze(images, &[1]);
    let b = x.unsqueeze(image, &[0]);
    let mut mine = x.node1("Equal", &[&a, &b], vec![]);
    if let Some(keep) = keep {
        let k = x.unsqueeze(keep, &[0]);
        mine = x.node1("And", &[&mine, &k], vec![]);
    }
    let mine = x.cast(&mine, DType::Int64)?;
    let counts = reduce(x, "ReduceSum", &mine, &[1], false);
    x.cast(&counts, DType::Int32)
}

/// Columns `x1, y1, x2, y2` of boxes `[.., 4]`, each `[..]`.
fn corners(x: &mut Exporter<'_>, boxes: &str) -> [String; 4] {
    let parts: [String; 4] = std::array::from_fn(|_| x.tmp());
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    x.node("Split", &[boxes], &refs, vec![a_int("axis", -1)]);
    parts.map(|p| x.squeeze(&p, &[-1]))
}

/// `distribute_fpn_proposals(fpn_rois, rois_num, min_level, max_level,
/// refer_level, refer_scale, pixel_offset)` → the RoIs of each level
/// (input order), their counts per image, and `restore_index` (`[R, 1]`:
/// where each input RoI went in the levels' concatenation).
///
/// A RoI's level is `floor(log2(sqrt(area) / refer_scale + 1e-6) +
/// refer_level)` clamped to the levels, its area 0 when its corners are
/// swapped.
pub(crate) fn distribute_fpn_proposals(x: &mut Exporter<'_>) -> R {
    if !x.has_input(1) {
        return Err(x.unsupported("RoIs without rois_num (per-image counts in a LoD)"));
    }
    let attrs = x.attrs();
    let min_level = attrs.i64_or("min_level", 2)?;
    let max_level = attrs.i64_or("max_level", 5)?;
    let refer_level = attrs.i64_or("refer_level", 4)?;
    let refer_scale = attrs.i64_or("refer_scale", 224)?;
    let offset = if attrs.bool_or("pixel_offset", true)? {
        1.0
    } else {
        0.0
    };
    if max_level < min_level || max_level - min_level > 16 || refer_scale <= 0 {
        return Err(x.unsupported("levels min_level..=max_level (at most 17) and refer_scale > 0"));
    }
    let d = x.in_dtype(0)?;
    let rois = x.input(0)?;
    let num = x.input(1)?;
    let [x1, y1, x2, y2] = corners(x, &rois);
    let off = x.const_scalar(d, offset)?;
    let w = x.node1("Sub", &[&x2, &x1], vec![]);
    let h = x.node1("Sub", &[&y2, &y1], vec![]);
    let zero = x.const_scalar(d, 0.0)?;
    let swapped_x = x.node1("Less", &[&w, &zero], vec![]);
    let swapped_y = x.node1("Less", &[&h, &zero], vec![]);
    let swapped = x.node1("Or", &[&swapped_x, &swapped_y], vec![]);
    let w = x.node1("Add", &[&w, &off], vec![]);
    let h = x.node1("Add", &[&h, &off], vec![]);
    let area = x.node1("Mul", &[&w, &h], vec![]);
    let area = x.node1("Where", &[&swapped, &zero, &area], vec![]);
    let scale = x.node1("Sqrt", &[&area], vec![]);
    let refer = x.const_scalar(d, refer_scale as f64)?;
    let eps = x.const_scalar(d, 1e-6)?;
    let ratio = x.node1("Div", &[&scale, &refer], vec![]);
    let ratio = x.node1("Add", &[&ratio, &eps], vec![]);
    let log = x.node1("Log", &[&ratio], vec![]);
    let ln2 = x.const_scalar(d, std::f64::consts::LN_2)?;
    let log2 = x.node1("Div", &[&log, &ln2], vec![]);
    let base = x.const_scalar(d, refer_level as f64)?;
    let level = x.node1("Add", &[&log2, &base], vec![]);
    let level = x.node1("Floor", &[&level], vec![]);
    let (lo, hi) = (
        x.const_scalar(d, min_level as f64)?,
        x.const_scalar(d, max_level as f64)?,
    );
    let level = x.node1("Max", &[&level, &lo], vec![]);
    let level = x.node1("Min", &[&level, &hi], vec![]);
    let level = x.cast(&level, DType::Int64)?;
    // Per level: its RoIs and their counts per image.
    let n_rois = rows(x, &rois);
    let image = image_of_rows(x, &n_rois, &num)?;
    let n_images = rows(x, &num);
    let images = range(x, &n_images)?;
    let (mut level_rois, mut level_nums) = (Vec::new(), Vec::new());
    for l in min_level..=max_level {
        let at = x.const_scalar(DType::Int64, l as f64)?;
        let mine = x.node1("Equal", &[&level, &at], vec![]);
        level_rois.push(x.node1("Compress", &[&rois, &mine], vec![a_int("axis", 0)]));
        level_nums.push(per_image_counts(x, &image, Some(&mine), &images)?);
    }
    for (i, names) in [(0, level_rois), (1, level_nums)] {
        if let Some(v) = x.result(i) {
            x.set_vec(v, names);
        }
    }
    // restore_index[i]: the RoIs of lower levels, and those of its level
    // before it.
    let (la, lb) = (x.unsqueeze(&level, &[1]), x.unsqueeze(&level, &[0]));
    let lower = x.node1("Less", &[&lb, &la], vec![]);
    let same = x.node1("Equal", &[&lb, &la], vec![]);
    let index = range(x, &n_rois)?;
    let (ia, ib) = (x.unsqueeze(&index, &[1]), x.unsqueeze(&index, &[0]));
    let earlier = x.node1("Less", &[&ib, &ia], vec![]);
    let before = x.node1("And", &[&same, &earlier], vec![]);
    let before = x.node1("Or", &[&lower, &before], vec![]);
    let before = x.cast(&before, DType::Int64)?;
    let position = reduce(x, "ReduceSum", &before, &[1], true);
    x.no_value_info();
    x.cast_out(2, &position)
}

/// `collect_fpn_proposals(multi_level_rois, multi_level_scores,
/// multi_level_rois_num, post_nms_topn)` → the `post_nms_topn` best RoIs
/// of all levels and images (by score, ties to the earlier), listed image
/// by image in score order, and their count per image.
pub(crate) fn collect_fpn_proposals(x: &mut Exporter<'_>) -> R {
    if !x.has_input(2) {
        return Err(x.unsupported("RoIs without rois_num (per-image counts in a LoD)"));
    }
    let top = x.attrs().i64_or("post_nms_topn", 0)?;
    if top < 0 {
        return Err(x.unsupported("a negative post_nms_topn"));
    }
    let rois = x.input_vec(0)?;
    let scores = x.input_vec(1)?;
    let nums = x.input_vec(2)?;
    if rois.len() != scores.len() || rois.len() != nums.len() || rois.is_empty() {
        return Err(x.unsupported("as many score and count tensors as RoI tensors"));
    }
    let mut images = Vec::new();
    let mut flat_scores = Vec::new();
    for ((r, s), n) in rois.iter().zip(&scores).zip(&nums) {
        let count = rows(x, r);
        images.push(image_of_rows(x, &count, n)?);
        flat_scores.push(x.reshape(s, &[-1]));
    }
    let cat = |x: &mut Exporter<'_>, parts: &[String]| {
        let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
        x.node1("Concat", &refs, vec![a_int("axis", 0)])
    };
    let all_rois = cat(x, &rois);
    let all_scores = cat(x, &flat_scores);
    let all_images = cat(x, &images);
    let total = rows(x, &all_rois);
    let limit = x.const_i64s(&[top]);
    let k = x.node1("Min", &[&total, &limit], vec![]);
    let (_, best) = sorted_top_k(x, &all_scores, &k, 0, true);
    // Image by image, score order kept: sort by image * (total + 1) + rank.
    let image = x.node1("Gather", &[&all_images, &best], vec![a_int("axis", 0)]);
    let one = x.const_i64s(&[1]);
    let stride = x.node1("Add", &[&total, &one], vec![]);
    let key = x.node1("Mul", &[&image, &stride], vec![]);
    let rank = range(x, &k)?;
    let key = x.node1("Add", &[&key, &rank], vec![]);
    let (_, order) = sorted_top_k(x, &key, &k, 0, false);
    let chosen = x.node1("Gather", &[&best, &order], vec![a_int("axis", 0)]);
    let out = x.node1("Gather", &[&all_rois, &chosen], vec![a_int("axis", 0)]);
    x.identity_out(0, &out);
    let image = x.node1("Gather", &[&all_images, &chosen], vec![a_int("axis", 0)]);
    let n_images = rows(x, &nums[0]);
    let ids = range(x, &n_images)?;
    let counts = per_image_counts(x, &image, None, &ids)?;
    x.no_value_info();
    x.identity_out(1, &counts);
    Ok(())
}

/// `exp` of the log-size deltas is capped at `log(1000 / 16)`, as Paddle's.
const BBOX_CLIP: f64 = 4.135_166_556_742_356;

/// `generate_proposals(scores [N, A, H, W], bbox_deltas [N, 4A, H, W],
/// im_shape [N, 2], anchors [H, W, A, 4], variances [H, W, A, 4],
/// pre_nms_top_n, post_nms_top_n, nms_thresh, min_size, eta,
/// pixel_offset)` → `rpn_rois [K, 4]`, `rpn_roi_probs [K, 1]`,
/// `rpn_rois_num [N]`.
///
/// Per image: the `pre_nms_top_n` best anchors, decoded by their deltas
/// (sizes scaled by `exp`, capped), clipped to the image, those narrower
/// or lower than `max(min_size, 1)` (or, with `pixel_offset`, centred
/// outside the image) dropped, greedy NMS, the first `post_nms_top_n`
/// kept, by score. An image left without boxes gets one zero box, as
/// Paddle's.
pub(crate) fn generate_proposals(x: &mut Exporter<'_>) -> R {
    let attrs = x.attrs();
    let pre = attrs.i64_or("pre_nms_top_n", 6000)?;
    let post = attrs.i64_or("post_nms_top_n", 1000)?;
    let nms_thresh = attrs.f64_or("nms_thresh", 0.5)?;
    let min_size = attrs.f64_or("min_size", 0.1)?.max(1.0);
    let eta = attrs.f64_or("eta", 1.0)?;
    let pixel_offset = attrs.bool_or("pixel_offset", true)?;
    if eta < 1.0 {
        return Err(x.unsupported("an adaptive NMS threshold (eta < 1) has no ONNX form"));
    }
    if nms_thresh <= 0.0 {
        return Err(x.unsupported("no NMS (nms_thresh <= 0): Paddle's order is then unspecified"));
    }
    let dims = x.in_dims(0)?;
    if dims.len() != 4 || dims[1..].iter().any(|&v| v < 1) {
        return Err(x.unsupported("scores [N, A, H, W] with A, H, W known"));
    }
    let m = dims[1] * dims[2] * dims[3];
    let d = x.in_dtype(0)?;
    let offset = if pixel_offset { 1.0 } else { 0.0 };
    let scores = x.input(0)?;
    let deltas = x.input(1)?;
    let im_shape = x.input(2)?;
    let anchors = x.input(3)?;
    let variances = x.input(4)?;
    // Scores [N, H*W*A], deltas [N, H*W*A, 4], in the anchors' order.
    let perm = crate::export::a_ints("perm", &[0, 2, 3, 1]);
    let scores = x.node1("Transpose", &[&scores], vec![perm.clone()]);
    let scores = x.reshape(&scores, &[0, -1]);
    let deltas = x.node1("Transpose", &[&deltas], vec![perm]);
    let deltas = x.reshape(&deltas, &[0, -1, 4]);
    let anchors = x.reshape(&anchors, &[-1, 4]);
    let variances = x.reshape(&variances, &[-1, 4]);
    // The best pre_nms_top_n of each image.
    let k = if pre <= 0 { m } else { pre.min(m) };
    let k = x.const_i64s(&[k]);
    let (best_scores, best) = sorted_top_k(x, &scores, &k, 1, true);
    let anchors = x.node1("Gather", &[&anchors, &best], vec![a_int("axis", 0)]);
    let variances = x.node1("Gather", &[&variances, &best], vec![a_int("axis", 0)]);
    let pick = x.unsqueeze(&best, &[2]);
    let four = x.const_i64s(&[1, 1, 4]);
    let pick = x.node1("Expand", &[&pick, &four], vec![]);
    let deltas = x.node1("GatherElements", &[&deltas, &pick], vec![a_int("axis", 1)]);
    // Decode.
    let off = x.const_scalar(d, offset)?;
    let half = x.const_scalar(d, 0.5)?;
    let [ax1, ay1, ax2, ay2] = corners(x, &anchors);
    let [dx, dy, dw, dh] = corners(x, &deltas);
    let [vx, vy, vw, vh] = corners(x, &variances);
    let mut decoded = Vec::new();
    let cap = x.const_scalar(d, BBOX_CLIP)?;
    let centre_size = |x: &mut Exporter<'_>,
                       lo: &str,
                       hi: &str,
                       delta: &str,
                       var: &str,
                       log_delta: &str,
                       log_var: &str|
     -> Result<(String, String), ExportError> {
        let size = x.node1("Sub", &[hi, lo], vec![]);
        let size = x.node1("Add", &[&size, &off], vec![]);
        let hs = x.node1("Mul", &[&size, &half], vec![]);
        let centre = x.node1("Add", &[lo, &hs], vec![]);
        let shift = x.node1("Mul", &[var, delta], vec![]);
        let shift = x.node1("Mul", &[&shift, &size], vec![]);
        let centre = x.node1("Add", &[&shift, &centre], vec![]);
        let grow = x.node1("Mul", &[log_var, log_delta], vec![]);
        let grow = x.node1("Min", &[&grow, &cap], vec![]);
        let grow = x.node1("Exp", &[&grow], vec![]);
        let size = x.node1("Mul", &[&grow, &size], vec![]);
        let hs = x.node1("Mul", &[&size, &half], vec![]);
        Ok((centre, hs))
    };
    let (cx, hw) = centre_size(x, &ax1, &ax2, &dx, &vx, &dw, &vw)?;
    let (cy, hh) = centre_size(x, &ay1, &ay2, &dy, &vy, &dh, &vh)?;
    // Clip to [0, size - offset]; im_shape rows are (height, width).
    let [im_h, im_w] = {
        let parts: [String; 2] = std::array::from_fn(|_| x.tmp());
        let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
        x.node("Split", &[&im_shape], &refs, vec![a_int("axis", 1)]);
        parts
    };
    let zero = x.const_scalar(d, 0.0)?;
    for (centre, half_size, lo_shift, limit) in [
        (&cx, &hw, false, &im_w),
        (&cy, &hh, false, &im_h),
        (&cx, &hw, true, &im_w),
        (&cy, &hh, true, &im_h),
    ] {
        let v = if lo_shift {
            let v = x.node1("Add", &[centre, half_size], vec![]);
            x.node1("Sub", &[&v, &off], vec![])
        } else {
            x.node1("Sub", &[centre, half_size], vec![])
        };
        let top = x.node1("Sub", &[limit, &off], vec![]);
        let v = x.node1("Min", &[&v, &top], vec![]);
        decoded.push(x.node1("Max", &[&v, &zero], vec![]));
    }
    // Drop the small boxes (and, with pixel_offset, those centred outside).
    let ws = x.node1("Sub", &[&decoded[2], &decoded[0]], vec![]);
    let ws = x.node1("Add", &[&ws, &off], vec![]);
    let hs = x.node1("Sub", &[&decoded[3], &decoded[1]], vec![]);
    let hs = x.node1("Add", &[&hs, &off], vec![]);
    let floor = x.const_scalar(d, min_size)?;
    let wide = x.node1("GreaterOrEqual", &[&ws, &floor], vec![]);
    let high = x.node1("GreaterOrEqual", &[&hs, &floor], vec![]);
    let mut keep = x.node1("And", &[&wide, &high], vec![]);
    if pixel_offset {
        for (lo, size, limit) in [(&decoded[0], &ws, &im_w), (&decoded[1], &hs, &im_h)] {
            let c = x.node1("Mul", &[size, &half], vec![]);
            let c = x.node1("Add", &[lo, &c], vec![]);
            let inside = x.node1("LessOrEqual", &[&c, limit], vec![]);
            keep = x.node1("And", &[&keep, &inside], vec![]);
        }
    }
    let cols: Vec<String> = decoded.iter().map(|c| x.unsqueeze(c, &[2])).collect();
    let refs: Vec<&str> = cols.iter().map(String::as_str).collect();
    let boxes = x.node1("Concat", &refs, vec![a_int("axis", 2)]);
    // Dropped boxes score -inf, below NMS's floor (the lowest float).
    let low = x.const_scalar(d, f64::NEG_INFINITY)?;
    let nms_scores = x.node1("Where", &[&keep, &best_scores, &low], vec![]);
    let nms_scores = x.cast(&nms_scores, DType::Float32)?;
    let nms_scores = x.unsqueeze(&nms_scores, &[1]);
    let nms_boxes = if pixel_offset {
        widen_by_one(x, &boxes, d)?
    } else {
        boxes.clone()
    };
    let nms_boxes = x.cast(&nms_boxes, DType::Float32)?;
    let per_image = x.const_i64s(&[if post > 0 { post } else { m }]);
    let iou = x.const_values(DType::Float32, &[1], &[nms_thresh])?;
    let score_floor = x.const_values(DType::Float32, &[1], &[f64::from(f32::MIN)])?;
    let selected = x.node1(
        "NonMaxSuppression",
        &[&nms_boxes, &nms_scores, &per_image, &iou, &score_floor],
        vec![],
    );
    let image = column(x, &selected, 0);
    let which = column(x, &selected, 2);
    let (ia, wa) = (x.unsqueeze(&image, &[1]), x.unsqueeze(&which, &[1]));
    let at = x.node1("Concat", &[&ia, &wa], vec![a_int("axis", 1)]);
    let rois = x.node1("GatherND", &[&boxes, &at], vec![]);
    let probs = x.node1("GatherND", &[&best_scores, &at], vec![]);
    let n = rows(x, &best_scores);
    let ids = range(x, &n)?;
    let counts = per_image_counts(x, &image, None, &ids)?;
    // An image left without boxes gets one zero box of score 0, in its
    // place among the images.
    let zero_count = x.const_scalar(DType::Int32, 0.0)?;
    let empty = x.node1("Equal", &[&counts, &zero_count], vec![]);
    let empty_images = x.node1("NonZero", &[&empty], vec![]);
    let empty_images = x.squeeze(&empty_images, &[0]);
    let n_empty = rows(x, &empty_images);
    let four = x.const_i64s(&[4]);
    let zero_shape = x.node1("Concat", &[&n_empty, &four], vec![a_int("axis", 0)]);
    let zero_boxes = filled(x, &zero_shape, d, 0.0)?;
    let zero_scores = filled(x, &n_empty, d, 0.0)?;
    let all_images = x.node1("Concat", &[&image, &empty_images], vec![a_int("axis", 0)]);
    let rois = x.node1("Concat", &[&rois, &zero_boxes], vec![a_int("axis", 0)]);
    let probs = x.node1("Concat", &[&probs, &zero_scores], vec![a_int("axis", 0)]);
    let total = rows(x, &all_images);
    let one = x.const_i64s(&[1]);
    let stride = x.node1("Add", &[&total, &one], vec![]);
    let key = x.node1("Mul", &[&all_images, &stride], vec![]);
    let position = range(x, &total)?;
    let key = x.node1("Add", &[&key, &position], vec![]);
    let (_, order) = sorted_top_k(x, &key, &total, 0, false);
    let rois = x.node1("Gather", &[&rois, &order], vec![a_int("axis", 0)]);
    x.identity_out(0, &rois);
    let probs = x.node1("Gather", &[&probs, &order], vec![a_int("axis", 0)]);
    let probs = x.unsqueeze(&probs, &[1]);
    x.identity_out(1, &probs);
    let one_count = x.const_scalar(DType::Int32, 1.0)?;
    let counts = x.node1("Max", &[&counts, &one_count], vec![]);
    if x.result(2).is_some_and(|v| !x.p.use_empty(v)) {
        // Paddle types the counts float32; its kernel writes int32.
        x.retype_result(2, DType::Int32, &[-1])?;
    }
    x.no_value_info();
    x.identity_out(2, &counts);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_at, export_ops, op_types};

    const PROPOSALS: &str = r#"    (%0) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[-1,3,4,4],stop_gradient:[false]} : () -> tensor<-1x3x4x4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"d",place:Place(undefined:0),shape:[-1,12,4,4],stop_gradient:[false]} : () -> tensor<-1x12x4x4xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"im",place:Place(undefined:0),shape:[-1,2],stop_gradient:[false]} : () -> tensor<-1x2xf32>
    (%3) = "pd_op.data" () {dtype:float32,name:"a",place:Place(undefined:0),shape:[4,4,3,4],stop_gradient:[false]} : () -> tensor<4x4x3x4xf32>
    (%4) = "pd_op.data" () {dtype:float32,name:"v",place:Place(undefined:0),shape:[4,4,3,4],stop_gradient:[false]} : () -> tensor<4x4x3x4xf32>
    (%5, %6, %7) = "pd_op.generate_proposals" (%0, %1, %2, %3, %4) {eta:ETA,min_size:1,nms_thresh:0.6,pixel_offset:true,post_nms_top_n:8,pre_nms_top_n:20,stop_gradient:[false,false,false]} : (tensor<-1x3x4x4xf32>, tensor<-1x12x4x4xf32>, tensor<-1x2xf32>, tensor<4x4x3x4xf32>, tensor<4x4x3x4xf32>) -> tensor<-1x4xf32>, tensor<-1x1xf32>, tensor<-1xf32>
    (%8) = "pd_op.fetch" (%5) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#;

    #[test]
    fn proposals_take_the_top_anchors_before_one_batched_nms() {
        let g = export_ops(&PROPOSALS.replace("ETA", "1"));
        let types = op_types(&g);
        let top_k = types.iter().position(|t| *t == "TopK");
        let nms = types.iter().position(|t| *t == "NonMaxSuppression");
        assert!(top_k.is_some() && top_k < nms, "{types:?}");
        assert_eq!(
            types.iter().filter(|t| **t == "NonMaxSuppression").count(),
            1
        );
    }

    #[test]
    fn an_adaptive_threshold_is_refused() {
        let err = export_at(&PROPOSALS.replace("ETA", "0.9"), 17).expect_err("eta < 1");
        assert!(err.to_string().contains("eta"), "{err}");
    }

    #[test]
    fn rois_without_counts_are_refused() {
        let text = r#"    (%0) = "pd_op.data" () {dtype:float32,name:"r",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%1, %2, %3) = "pd_op.distribute_fpn_proposals" (%0, <<NULL VALUE>>) {max_level:3,min_level:2,pixel_offset:false,refer_level:2,refer_scale:8,stop_gradient:[false,false,false]} : (tensor<-1x4xf32>, <<NULL TYPE>>) -> vec[tensor<-1x4xf32>,tensor<-1x4xf32>], vec[tensor<-1xi32>,tensor<-1xi32>], tensor<-1x1xi32>
    (%4) = "pd_op.fetch" (%3) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x1xi32>) -> tensor<-1x1xi32>"#;
        let err = export_at(text, 17).expect_err("no rois_num");
        assert!(err.to_string().contains("rois_num"), "{err}");
    }
}
