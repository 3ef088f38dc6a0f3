//! Box matching and soft suppression: `bipartite_match` (greedy matching
//! of a distance matrix, one round per match, unrolled) and `matrix_nms`
//! (Matrix NMS: every box's score decayed by its overlaps with the better
//! boxes of its class, all at once as `[K, K]` matrices).

use pir_params::DType;

use crate::export::{a_int, Exporter};
use crate::mappers::index::{reduce, sorted_top_k};
use crate::mappers::nms::column;
use crate::ExportError;

type R = Result<(), ExportError>;

/// Rows and columns matched greedily at most (one unrolled round each).
const MAX_ROUNDS: i64 = 64;

/// Paddle's kernel switches to a sort-based matching from this many rows
/// (the same matches but for ties; not reproduced).
const SORTED_FROM_ROWS: i64 = 130;

/// Distances below this are no match.
const EPS: f64 = 1e-6;

/// `bipartite_match(dist_mat [R, C], match_type, dist_threshold)` →
/// `col_to_row_match_indices [1, C]` (int32, -1 unmatched) and
/// `col_to_row_match_dist [1, C]`.
///
/// Each round matches the largest distance (at least 1e-6) between a free
/// row and a free column, ties to the first in column-major order, until
/// none is left. `per_prediction` then gives each column still free its
/// best row at or above `dist_threshold`. One instance only: a LoD of
/// several has no ONNX form.
pub(crate) fn bipartite_match(x: &mut Exporter<'_>) -> R {
    let dims = x.in_dims(0)?;
    let (rows, cols) = match dims[..] {
        [r, c] if r >= 1 && c >= 1 => (r, c),
        _ => return Err(x.unsupported("a distance matrix [R, C] of known size")),
    };
    if rows >= SORTED_FROM_ROWS {
        return Err(x.unsupported(format!(
            "{rows} rows (Paddle matches {SORTED_FROM_ROWS} rows or more by sorting)"
        )));
    }
    let rounds = rows.min(cols);
    if rounds > MAX_ROUNDS {
        return Err(x.unsupported(format!("{rounds} matches (unrolled up to {MAX_ROUNDS})")));
    }
    let attrs = x.attrs();
    let match_type = attrs.str_or("match_type", "bipartite")?;
    let threshold = attrs.f64_or("dist_threshold", 0.5)?;
    let per_prediction = match match_type.as_str() {
        "bipartite" => false,
        "per_prediction" => true,
        other => return Err(x.unsupported(format!("match_type \"{other}\""))),
    };
    x.retype_result(0, DType::Int32, &[1, cols])?;
    let d = x.in_dtype(0)?;
    x.retype_result(1, d, &[1, cols])?;
    let dist = x.input(0)?;
    let eps = x.const_scalar(d, EPS)?;
    let none = x.const_scalar(d, -1.0)?;
    let zero = x.const_scalar(d, 0.0)?;
    let usable = x.node1("GreaterOrEqual", &[&dist, &eps], vec![]);
    // Column-major: [C, R] flattened, so ArgMax's first maximum is the
    // kernel's.
    let by_col = x.node1(
        "Transpose",
        &[&dist],
        vec![crate::export::a_ints("perm", &[1, 0])],
    );
    let usable_t = x.node1(
        "Transpose",
        &[&usable],
        vec![crate::export::a_ints("perm", &[1, 0])],
    );
    let col_ids: Vec<f64> = (0..cols).map(|c| c as f64).collect();
    let col_ids = x.const_values(DType::Int64, &[cols, 1], &col_ids)?;
    let row_ids: Vec<f64> = (0..rows).map(|r| r as f64).collect();
    let row_ids = x.const_values(DType::Int64, &[1, rows], &row_ids)?;
    let mut col_free = x.const_values(DType::Bool, &[cols, 1], &vec![1.0; cols as usize])?;
    let mut row_free = x.const_values(DType::Bool, &[1, rows], &vec![1.0; rows as usize])?;
    let mut indices = x.const_values(DType::Int64, &[cols, 1], &vec![-1.0; cols as usize])?;
    let mut dists = x.const_values(d, &[cols, 1], &vec![0.0; cols as usize])?;
    let r_const = x.const_scalar(DType::Int64, rows as f64)?;
    for _ in 0..rounds {
        let free = x.node1("And", &[&col_free, &row_free], vec![]);
        let free = x.node1("And", &[&free, &usable_t], vec![]);
        let open = x.node1("Where", &[&free, &by_col, &none], vec![]);
        let flat = x.reshape(&open, &[-1]);
        let at = x.node1("ArgMax", &[&flat], vec![a_int("keepdims", 1)]);
        let best = reduce(x, "ReduceMax", &flat, &[], true);
        let found = x.node1("Greater", &[&best, &zero], vec![]);
        let col = x.node1("Div", &[&at, &r_const], vec![]);
        let row = x.node1("Mod", &[&at, &r_const], vec![]);
        let is_col = x.node1("Equal", &[&col_ids, &col], vec![]);
        let is_col = x.node1("And", &[&is_col, &found], vec![]);
        let is_row = x.node1("Equal", &[&row_ids, &row], vec![]);
        let is_row = x.node1("And", &[&is_row, &found], vec![]);
        indices = x.node1("Where", &[&is_col, &row, &indices], vec![]);
        dists = x.node1("Where", &[&is_col, &best, &dists], vec![]);
        let taken = x.node1("Not", &[&is_col], vec![]);
        col_free = x.node1("And", &[&col_free, &taken], vec![]);
        let taken = x.node1("Not", &[&is_row], vec![]);
        row_free = x.node1("And", &[&row_free, &taken], vec![]);
    }
    if per_prediction {
        // Each free column: its best row at or above the threshold (the
        // first of equal ones).
        let floor = x.const_scalar(d, threshold)?;
        let high = x.node1("GreaterOrEqual", &[&by_col, &floor], vec![]);
        let ok = x.node1("And", &[&high, &usable_t], vec![]);
        let open = x.node1("Where", &[&ok, &by_col, &none], vec![]);
        let row = x.node1(
            "ArgMax",
            &[&open],
            vec![a_int("axis", 1), a_int("keepdims", 1)],
        );
        let best = reduce(x, "ReduceMax", &open, &[1], true);
        let found = x.node1("Greater", &[&best, &zero], vec![]);
        let take = x.node1("And", &[&found, &col_free], vec![]);
        indices = x.node1("Where", &[&take, &row, &indices], vec![]);
        dists = x.node1("Where", &[&take, &best, &dists], vec![]);
    }
    let perm = crate::export::a_ints("perm", &[1, 0]);
    let indices = x.node1("Transpose", &[&indices], vec![perm.clone()]);
    let indices = x.cast(&indices, DType::Int32)?;
    x.identity_out(0, &indices);
    let dists = x.node1("Transpose", &[&dists], vec![perm]);
    x.identity_out(1, &dists);
    Ok(())
}

/// Pairwise IoU of boxes `[.., K, 4]` → `[.., K, K]` (row `i`, column
/// `j`), Paddle's way: unnormalised boxes count `+1` in widths, swapped
/// corners have area 0, disjoint boxes IoU 0.
fn pairwise_iou(
    x: &mut Exporter<'_>,
    boxes: &str,
    normalized: bool,
    d: DType,
) -> Result<String, ExportError> {
    let parts: [String; 4] = std::array::from_fn(|_| x.tmp());
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    x.node("Split", &[boxes], &refs, vec![a_int("axis", -1)]);
    let [x1, y1, x2, y2] = parts; // each [.., K, 1]
                                  // Row i as [.., K, 1], column j as [.., 1, K].
    let col = |x: &mut Exporter<'_>, v: &str| {
        let s = x.squeeze(v, &[-1]);
        x.unsqueeze(&s, &[-2])
    };
    let (cx1, cy1, cx2, cy2) = (col(x, &x1), col(x, &y1), col(x, &x2), col(x, &y2));
    let norm = x.const_scalar(d, if normalized { 0.0 } else { 1.0 })?;
    let zero = x.const_scalar(d, 0.0)?;
    let area = |x: &mut Exporter<'_>, a1: &str, b1: &str, a2: &str, b2: &str| {
        let w = x.node1("Sub", &[a2, a1], vec![]);
        let h = x.node1("Sub", &[b2, b1], vec![]);
        let bad_w = x.node1("Less", &[&w, &zero], vec![]);
        let bad_h = x.node1("Less", &[&h, &zero], vec![]);
        let bad = x.node1("Or", &[&bad_w, &bad_h], vec![]);
        let w = x.node1("Add", &[&w, &norm], vec![]);
        let h = x.node1("Add", &[&h, &norm], vec![]);
        let a = x.node1("Mul", &[&w, &h], vec![]);
        x.node1("Where", &[&bad, &zero, &a], vec![])
    };
    let area_i = area(x, &x1, &y1, &x2, &y2);
    let area_j = area(x, &cx1, &cy1, &cx2, &cy2);
    let ix1 = x.node1("Max", &[&x1, &cx1], vec![]);
    let iy1 = x.node1("Max", &[&y1, &cy1], vec![]);
    let ix2 = x.node1("Min", &[&x2, &cx2], vec![]);
    let iy2 = x.node1("Min", &[&y2, &cy2], vec![]);
    let iw = x.node1("Sub", &[&ix2, &ix1], vec![]);
    let iw = x.node1("Add", &[&iw, &norm], vec![]);
    let ih = x.node1("Sub", &[&iy2, &iy1], vec![]);
    let ih = x.node1("Add", &[&ih, &norm], vec![]);
    let inter = x.node1("Mul", &[&iw, &ih], vec![]);
    let union = x.node1("Add", &[&area_i, &area_j], vec![]);
    let union = x.node1("Sub", &[&union, &inter], vec![]);
    let iou = x.node1("Div", &[&inter, &union], vec![]);
    // Disjoint: j starts right of i's end (or ends left of its start).
    let apart = [(&cx1, &x2), (&x1, &cx2), (&cy1, &y2), (&y1, &cy2)];
    let mut disjoint = String::new();
    for (a, b) in apart {
        let g = x.node1("Greater", &[a, b], vec![]);
        disjoint = if disjoint.is_empty() {
            g
        } else {
            x.node1("Or", &[&disjoint, &g], vec![])
        };
    }
    Ok(x.node1("Where", &[&disjoint, &zero, &iou], vec![]))
}

/// `matrix_nms(bboxes [N, M, 4], scores [N, C, M], score_threshold,
/// nms_top_k, keep_top_k, post_threshold, use_gaussian, gaussian_sigma,
/// background_label, normalized)` → `out [K, 6]` (class, decayed score,
/// box), `index [K, 1]` (`image * M + box`), `roisnum [N]`.
///
/// Per image and class (the background skipped): the `nms_top_k` best
/// boxes scoring above `score_threshold`, by score; box `i`'s score times
/// the smallest decay over the better boxes `j` (`exp((max_iou_j^2 -
/// iou_ij^2) * sigma)`, or `(1 - iou_ij) / (1 - max_iou_j)`, `max_iou_j`
/// being `j`'s largest IoU with a box better than it), kept above
/// `post_threshold`. Then per image the `keep_top_k` best of all classes by
/// decayed score.
pub(crate) fn matrix_nms(x: &mut Exporter<'_>) -> R {
    let attrs = x.attrs();
    let score_threshold = attrs.f64_or("score_threshold", 0.0)?;
    let nms_top_k = attrs.i64_or("nms_top_k", -1)?;
    let keep_top_k = attrs.i64_or("keep_top_k", -1)?;
    let post_threshold = attrs.f64_or("post_threshold", 0.0)?;
    let gaussian = attrs.bool_or("use_gaussian", false)?;
    let sigma = attrs.f64_or("gaussian_sigma", 2.0)?;
    let background = attrs.i64_or("background_label", 0)?;
    let normalized = attrs.bool_or("normalized", true)?;
    let bdims = x.in_dims(0)?;
    let sdims = x.in_dims(1)?;
    let (m, c) = match (&bdims[..], &sdims[..]) {
        ([_, m, 4], [_, c, m2]) if m == m2 && *m >= 1 && *c >= 1 => (*m, *c),
        _ => return Err(x.unsupported("boxes [N, M, 4] and scores [N, C, M] of known M and C")),
    };
    let k = if nms_top_k > -1 { nms_top_k.min(m) } else { m };
    if !(1..=1024).contains(&k) {
        return Err(x.unsupported("1 to 1024 candidates per class"));
    }
    let d = x.in_dtype(1)?;
    let bboxes = x.input(0)?;
    let scores = x.input(1)?;
    // The k best of each class: scores [N, C, k], boxes [N, C, k, 4].
    let kk = x.const_i64s(&[k]);
    let (top, idx) = sorted_top_k(x, &scores, &kk, 2, true);
    let expanded = x.unsqueeze(&bboxes, &[1]);
    let target = x.const_i64s(&[1, c, 1, 1]);
    let expanded = x.node1("Expand", &[&expanded, &target], vec![]);
    let pick = x.unsqueeze(&idx, &[3]);
    let four = x.const_i64s(&[1, 1, 1, 4]);
    let pick = x.node1("Expand", &[&pick, &four], vec![]);
    let boxes = x.node1(
        "GatherElements",
        &[&expanded, &pick],
        vec![a_int("axis", 2)],
    );
    let iou = pairwise_iou(x, &boxes, normalized, d)?;
    // Only the better boxes j < i count.
    let lower: Vec<f64> = (0..k * k)
        .map(|p| f64::from(u8::from(p % k < p / k)))
        .collect();
    let lower = x.const_values(DType::Bool, &[k, k], &lower)?;
    let zero = x.const_scalar(d, 0.0)?;
    let one = x.const_scalar(d, 1.0)?;
    let iou = x.node1("Where", &[&lower, &iou, &zero], vec![]);
    // max_iou of box j, as a row [.., 1, k].
    let max_iou = reduce(x, "ReduceMax", &iou, &[-1], false);
    let max_iou = x.unsqueeze(&max_iou, &[-2]);
    let decay = if gaussian {
        let mm = x.node1("Mul", &[&max_iou, &max_iou], vec![]);
        let ii = x.node1("Mul", &[&iou, &iou], vec![]);
        let diff = x.node1("Sub", &[&mm, &ii], vec![]);
        let s = x.const_scalar(d, sigma)?;
        let e = x.node1("Mul", &[&diff, &s], vec![]);
        x.node1("Exp", &[&e], vec![])
    } else {
        let num = x.node1("Sub", &[&one, &iou], vec![]);
        let den = x.node1("Sub", &[&one, &max_iou], vec![]);
        x.node1("Div", &[&num, &den], vec![])
    };
    let decay = x.node1("Where", &[&lower, &decay, &one], vec![]);
    let decay = reduce(x, "ReduceMin", &decay, &[-1], false);
    let decay = x.node1("Min", &[&decay, &one], vec![]);
    let decayed = x.node1("Mul", &[&decay, &top], vec![]);
    // Kept: above both thresholds, not the background.
    let floor = x.const_scalar(d, score_threshold)?;
    let post = x.const_scalar(d, post_threshold)?;
    let candidate = x.node1("Greater", &[&top, &floor], vec![]);
    let survives = x.node1("Greater", &[&decayed, &post], vec![]);
    let mut keep = x.node1("And", &[&candidate, &survives], vec![]);
    if (0..c).contains(&background) {
        let not_bg: Vec<f64> = (0..c)
            .map(|i| f64::from(u8::from(i != background)))
            .collect();
        let not_bg = x.const_values(DType::Bool, &[c, 1], &not_bg)?;
        keep = x.node1("And", &[&keep, &not_bg], vec![]);
    }
    // Per image, the best kept of all classes: [N, C*k], class-major.
    let low = x.const_scalar(d, f64::NEG_INFINITY)?;
    let ranked = x.node1("Where", &[&keep, &decayed, &low], vec![]);
    let ranked = x.reshape(&ranked, &[0, -1]);
    let limit = if keep_top_k > -1 {
        keep_top_k.min(c * k)
    } else {
        c * k
    };
    let limit = x.const_i64s(&[limit]);
    let (best, at) = sorted_top_k(x, &ranked, &limit, 1, true);
    let chosen = x.node1("Greater", &[&best, &low], vec![]);
    let nz = x.node1("NonZero", &[&chosen], vec![]);
    let nz = x.node1(
        "Transpose",
        &[&nz],
        vec![crate::export::a_ints("perm", &[1, 0])],
    );
    let image = column(x, &nz, 0);
    let score = x.node1("GatherND", &[&best, &nz], vec![]);
    let flat = x.node1("GatherND", &[&at, &nz], vec![]);
    let k_const = x.const_scalar(DType::Int64, k as f64)?;
    let class = x.node1("Div", &[&flat, &k_const], vec![]);
    let rank = x.node1("Mod", &[&flat, &k_const], vec![]);
    // The box: idx[image, class, rank].
    let (ui, uc, ur) = (
        x.unsqueeze(&image, &[1]),
        x.unsqueeze(&class, &[1]),
        x.unsqueeze(&rank, &[1]),
    );
    let where3 = x.node1("Concat", &[&ui, &uc, &ur], vec![a_int("axis", 1)]);
    let which = x.node1("GatherND", &[&idx, &where3], vec![]);
    let uw = x.unsqueeze(&which, &[1]);
    let where2 = x.node1("Concat", &[&ui, &uw], vec![a_int("axis", 1)]);
    let coords = x.node1("GatherND", &[&bboxes, &where2], vec![]);
    let label = x.cast(&class, d)?;
    let label = x.unsqueeze(&label, &[1]);
    let score = x.unsqueeze(&score, &[1]);
    let out = x.node1("Concat", &[&label, &score, &coords], vec![a_int("axis", 1)]);
    x.identity_out(0, &out);
    let m_const = x.const_scalar(DType::Int64, m as f64)?;
    let base = x.node1("Mul", &[&image, &m_const], vec![]);
    let index = x.node1("Add", &[&base, &which], vec![]);
    let index = x.unsqueeze(&index, &[1]);
    x.cast_out(1, &index)?;
    let per_image = x.cast(&chosen, DType::Int64)?;
    let per_image = reduce(x, "ReduceSum", &per_image, &[1], false);
    x.cast_out(2, &per_image)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_at, export_ops, op_types};

    fn bipartite(rows: i64, kind: &str) -> String {
        format!(
            r#"    (%0) = "pd_op.data" () {{dtype:float32,name:"d",place:Place(undefined:0),shape:[{rows},5],stop_gradient:[false]}} : () -> tensor<{rows}x5xf32>
    (%1, %2) = "pd_op.bipartite_match" (%0) {{dist_threshold:0.5,match_type:"{kind}",stop_gradient:[false,false]}} : (tensor<{rows}x5xf32>) -> tensor<{rows}x5xi32>, tensor<{rows}x5xf32>
    (%3) = "pd_op.fetch" (%1) {{col:0,name:"y",persistable:[true],stop_gradient:[false]}} : (tensor<{rows}x5xi32>) -> tensor<{rows}x5xi32>"#
        )
    }

    #[test]
    fn bipartite_matching_takes_one_round_per_possible_match() {
        let g = export_ops(&bipartite(3, "bipartite"));
        let rounds = op_types(&g).iter().filter(|t| **t == "ArgMax").count();
        assert_eq!(rounds, 3);
        let g = export_ops(&bipartite(3, "per_prediction"));
        let rounds = op_types(&g).iter().filter(|t| **t == "ArgMax").count();
        assert_eq!(rounds, 4, "the rounds and the per-column pass");
        // Paddle's outputs are one row: the declared [3, 5] is replaced.
        let dims = g.output[0]
            .r#type
            .as_ref()
            .and_then(|t| match &t.value {
                Some(crate::proto::type_proto::Value::TensorType(t)) => t.shape.clone(),
                _ => None,
            })
            .map(|s| s.dim.len());
        assert_eq!(dims, Some(2));
    }

    #[test]
    fn unknown_kinds_and_sorted_matching_are_refused() {
        let err = export_at(&bipartite(3, "greedy"), 17).expect_err("match type");
        assert!(err.to_string().contains("greedy"), "{err}");
        let err = export_at(&bipartite(130, "bipartite"), 17).expect_err("130 rows");
        assert!(err.to_string().contains("sorting"), "{err}");
    }

    #[test]
    fn matrix_nms_decays_with_one_iou_matrix() {
        let text = r#"    (%0) = "pd_op.data" () {dtype:float32,name:"b",place:Place(undefined:0),shape:[-1,6,4],stop_gradient:[false]} : () -> tensor<-1x6x4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[-1,3,6],stop_gradient:[false]} : () -> tensor<-1x3x6xf32>
    (%2, %3, %4) = "pd_op.matrix_nms" (%0, %1) {background_label:0,gaussian_sigma:2,keep_top_k:4,nms_top_k:5,normalized:false,post_threshold:0.1,score_threshold:0.3,stop_gradient:[false,false,false],use_gaussian:true} : (tensor<-1x6x4xf32>, tensor<-1x3x6xf32>) -> tensor<-1x6xf32>, tensor<-1x1xi32>, tensor<-1xi32>
    (%5) = "pd_op.fetch" (%2) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x6xf32>) -> tensor<-1x6xf32>"#;
        let g = export_ops(text);
        let types = op_types(&g);
        // Divisions: the IoUs and each pick's class; the Gaussian decay
        // has none.
        assert_eq!(
            types.iter().filter(|t| **t == "Div").count(),
            2,
            "{types:?}"
        );
        assert_eq!(types.iter().filter(|t| **t == "Exp").count(), 1);
        assert!(!types.contains(&"NonMaxSuppression"));
    }
}
