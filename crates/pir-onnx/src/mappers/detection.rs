//! Detection heads: `prior_box` (constants computed here from the known
//! feature and image sizes), `box_coder` (centre-size decoding), `yolo_box`
//! (YOLOv3 decoding), and `cumprod` (a product chain over a known axis).

use crate::export::{a_int, a_ints, Exporter};
use crate::mappers::shape::norm_axis;
use crate::ExportError;

type R = Result<(), ExportError>;

/// Paddle's aspect ratios: 1 first, then each new one (and its inverse
/// with `flip`), skipping near-duplicates.
fn expand_aspect_ratios(ratios: &[f64], flip: bool) -> Vec<f64> {
    let mut out = vec![1.0];
    for &ar in ratios {
        if out.iter().any(|&r| (r - ar).abs() < 1e-6) {
            continue;
        }
        out.push(ar);
        if flip {
            out.push(1.0 / ar);
        }
    }
    out
}

/// `prior_box(input, image, ...)`: the boxes depend only on sizes, so they
/// are constants when the sizes are known.
pub(crate) fn prior_box(x: &mut Exporter<'_>) -> R {
    let feat = x.in_dims(0)?;
    let img = x.in_dims(1)?;
    if feat.len() != 4 || img.len() != 4 || feat[2..].iter().chain(&img[2..]).any(|&d| d < 0) {
        return Err(x.unsupported("feature and image sizes must be known"));
    }
    let (fh, fw, ih, iw) = (feat[2], feat[3], img[2] as f64, img[3] as f64);
    let attrs = x.attrs();
    let min_sizes = attrs.f64s_opt("min_sizes")?.unwrap_or_default();
    let max_sizes = attrs.f64s_opt("max_sizes")?.unwrap_or_default();
    let ratios = attrs.f64s_opt("aspect_ratios")?.unwrap_or_default();
    let variances = attrs.f64s_opt("variances")?.unwrap_or_default();
    let flip = attrs.bool_or("flip", true)?;
    let clip = attrs.bool_or("clip", true)?;
    let mut step_w = attrs.f64_or("step_w", 0.0)?;
    let mut step_h = attrs.f64_or("step_h", 0.0)?;
    let offset = attrs.f64_or("offset", 0.5)?;
    let mm_order = attrs.bool_or("min_max_aspect_ratios_order", false)?;
    if step_w == 0.0 || step_h == 0.0 {
        step_w = iw / fw as f64;
        step_h = ih / fh as f64;
    }
    let ars = expand_aspect_ratios(&ratios, flip);
    if fh * fw > 1 << 20 {
        return Err(x.unsupported("too many priors"));
    }
    let mut boxes = Vec::new();
    for h in 0..fh {
        for w in 0..fw {
            let cx = (w as f64 + offset) * step_w;
            let cy = (h as f64 + offset) * step_h;
            let mut push = |bw: f64, bh: f64| {
                boxes.extend_from_slice(&[
                    (cx - bw) / iw,
                    (cy - bh) / ih,
                    (cx + bw) / iw,
                    (cy + bh) / ih,
                ]);
            };
            for (s, &min) in min_sizes.iter().enumerate() {
                let max_box = max_sizes.get(s).map(|&max| (min * max).sqrt() / 2.0);
                if mm_order {
                    push(min / 2.0, min / 2.0);
                    if let Some(m) = max_box {
                        push(m, m);
                    }
                    for &ar in &ars {
                        if (ar - 1.0).abs() < 1e-6 {
                            continue;
                        }
                        push(min * ar.sqrt() / 2.0, min / ar.sqrt() / 2.0);
                    }
                } else {
                    for &ar in &ars {
                        push(min * ar.sqrt() / 2.0, min / ar.sqrt() / 2.0);
                    }
                    if let Some(m) = max_box {
                        push(m, m);
                    }
                }
            }
        }
    }
    if clip {
        for b in boxes.iter_mut() {
            *b = b.clamp(0.0, 1.0);
        }
    }
    let priors = boxes.len() as i64 / 4 / (fh * fw).max(1);
    let dims = [fh, fw, priors, 4];
    let d = x.out_dtype(0)?;
    // Paddle computes in float32.
    let boxes: Vec<f64> = boxes.into_iter().map(|v| f64::from(v as f32)).collect();
    let b = x.const_values(d, &dims, &boxes)?;
    x.identity_out(0, &b);
    let var: Vec<f64> = (0..boxes.len() / 4)
        .flat_map(|_| variances.iter().copied())
        .collect();
    if var.len() == boxes.len() {
        let v = x.const_values(d, &dims, &var)?;
        x.identity_out(1, &v);
    }
    Ok(())
}

/// The four `[.., 1]` coordinates of boxes `b` (last axis 4).
fn corners(x: &mut Exporter<'_>, b: &str) -> Vec<String> {
    let parts: Vec<String> = (0..4).map(|_| x.tmp()).collect();
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    let ones = x.const_i64s(&[1, 1, 1, 1]);
    x.node("Split", &[b, &ones], &refs, vec![a_int("axis", -1)]);
    parts
}

/// `box_coder(prior_box, prior_box_var, target_box)`, `decode_center_size`.
pub(crate) fn box_coder(x: &mut Exporter<'_>) -> R {
    let attrs = x.attrs();
    let code = attrs.str_or("code_type", "encode_center_size")?;
    if code != "decode_center_size" {
        return Err(x.unsupported(format!("code_type {code}")));
    }
    let normalized = attrs.bool_or("box_normalized", true)?;
    let axis = attrs.i64_or("axis", 0)?;
    let variance = attrs.f64s_opt("variance")?.unwrap_or_default();
    let d = x.in_dtype(2)?;
    let pb = x.input(0)?;
    let pb = x.reshape(&pb, &[-1, 4]);
    let pb = x.unsqueeze(&pb, &[if axis == 0 { 0 } else { 1 }]);
    let tb = x.input(2)?;
    let p = corners(x, &pb);
    let t = corners(x, &tb);
    let norm = if normalized { 0.0 } else { 1.0 };
    let one_n = x.const_scalar(d, norm)?;
    let half = x.const_scalar(d, 0.5)?;
    let pw = x.node1("Sub", &[&p[2], &p[0]], vec![]);
    let pw = x.node1("Add", &[&pw, &one_n], vec![]);
    let ph = x.node1("Sub", &[&p[3], &p[1]], vec![]);
    let ph = x.node1("Add", &[&ph, &one_n], vec![]);
    let hw = x.node1("Mul", &[&pw, &half], vec![]);
    let hh = x.node1("Mul", &[&ph, &half], vec![]);
    let pcx = x.node1("Add", &[&p[0], &hw], vec![]);
    let pcy = x.node1("Add", &[&p[1], &hh], vec![]);
    let v: Vec<String> = if x.has_input(1) {
        let pv = x.input(1)?;
        let pv = x.reshape(&pv, &[-1, 4]);
        let pv = x.unsqueeze(&pv, &[if axis == 0 { 0 } else { 1 }]);
        corners(x, &pv)
    } else if variance.len() == 4 {
        variance
            .iter()
            .map(|&v| x.const_scalar(d, v))
            .collect::<Result<_, _>>()?
    } else {
        (0..4)
            .map(|_| x.const_scalar(d, 1.0))
            .collect::<Result<_, _>>()?
    };
    let m = |x: &mut Exporter<'_>, a: &str, b: &str| x.node1("Mul", &[a, b], vec![]);
    let t0 = m(x, &v[0], &t[0]);
    let t0 = m(x, &t0, &pw);
    let cx = x.node1("Add", &[&t0, &pcx], vec![]);
    let t1 = m(x, &v[1], &t[1]);
    let t1 = m(x, &t1, &ph);
    let cy = x.node1("Add", &[&t1, &pcy], vec![]);
    let t2 = m(x, &v[2], &t[2]);
    let e2 = x.node1("Exp", &[&t2], vec![]);
    let w = m(x, &e2, &pw);
    let t3 = m(x, &v[3], &t[3]);
    let e3 = x.node1("Exp", &[&t3], vec![]);
    let h = m(x, &e3, &ph);
    let hw = m(x, &w, &half);
    let hh = m(x, &h, &half);
    let x1 = x.node1("Sub", &[&cx, &hw], vec![]);
    let y1 = x.node1("Sub", &[&cy, &hh], vec![]);
    let x2 = x.node1("Add", &[&cx, &hw], vec![]);
    let x2 = x.node1("Sub", &[&x2, &one_n], vec![]);
    let y2 = x.node1("Add", &[&cy, &hh], vec![]);
    let y2 = x.node1("Sub", &[&y2, &one_n], vec![]);
    let out = x.out(0);
    x.node(
        "Concat",
        &[&x1, &y1, &x2, &y2],
        &[&out],
        vec![a_int("axis", -1)],
    );
    Ok(())
}

/// `yolo_box(x, img_size, anchors, class_num, conf_thresh,
/// downsample_ratio, clip_bbox, scale_x_y)`.
pub(crate) fn yolo_box(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let dims = x.in_dims(0)?;
    if dims.len() != 4 || dims[2] < 0 || dims[3] < 0 {
        return Err(x.unsupported("the grid size must be known"));
    }
    let (gh, gw) = (dims[2], dims[3]);
    let attrs = x.attrs();
    let anchors = attrs.ints_or("anchors", &[])?;
    let classes = attrs.i64_or("class_num", 1)?;
    let thresh = attrs.f64_or("conf_thresh", 0.01)?;
    let ratio = attrs.i64_or("downsample_ratio", 32)?;
    let clip = attrs.bool_or("clip_bbox", true)?;
    let scale = attrs.f64_or("scale_x_y", 1.0)?;
    if attrs.bool_or("iou_aware", false)? {
        return Err(x.unsupported("iou_aware"));
    }
    let an = anchors.len() as i64 / 2;
    let d = x.in_dtype(0)?;
    // [N, an, 5 + classes, H, W]
    let v = x.reshape(&a, &[0, an, 5 + classes, gh, gw]);
    let take = |x: &mut Exporter<'_>, from: i64, to: i64| {
        let s = x.const_i64s(&[from]);
        let e = x.const_i64s(&[to]);
        let ax = x.const_i64s(&[2]);
        x.node1("Slice", &[&v, &s, &e, &ax], vec![])
    };
    let tx = take(x, 0, 1);
    let ty = take(x, 1, 2);
    let tw = take(x, 2, 3);
    let th = take(x, 3, 4);
    let to = take(x, 4, 5);
    let tc = take(x, 5, 5 + classes);
    // Image sizes per sample: [N, 1, 1, 1, 1].
    let img = x.input(1)?;
    let img = x.cast(&img, d)?;
    let img_parts = [x.tmp(), x.tmp()];
    let ones = x.const_i64s(&[1, 1]);
    x.node(
        "Split",
        &[&img, &ones],
        &[&img_parts[0], &img_parts[1]],
        vec![a_int("axis", 1)],
    );
    let img_h = x.reshape(&img_parts[0], &[-1, 1, 1, 1, 1]);
    let img_w = x.reshape(&img_parts[1], &[-1, 1, 1, 1, 1]);
    let col: Vec<f64> = (0..gh).flat_map(|_| (0..gw).map(|c| c as f64)).collect();
    let row: Vec<f64> = (0..gh)
        .flat_map(|r| (0..gw).map(move |_| r as f64))
        .collect();
    let col = x.const_values(d, &[1, 1, 1, gh, gw], &col)?;
    let row = x.const_values(d, &[1, 1, 1, gh, gw], &row)?;
    let aw: Vec<f64> = (0..an).map(|j| anchors[2 * j as usize] as f64).collect();
    let ah: Vec<f64> = (0..an)
        .map(|j| anchors[2 * j as usize + 1] as f64)
        .collect();
    let aw = x.const_values(d, &[1, an, 1, 1, 1], &aw)?;
    let ah = x.const_values(d, &[1, an, 1, 1, 1], &ah)?;
    let k_scale = x.const_scalar(d, scale)?;
    let k_bias = x.const_scalar(d, -0.5 * (scale - 1.0))?;
    let k_gw = x.const_scalar(d, gw as f64)?;
    let k_gh = x.const_scalar(d, gh as f64)?;
    let k_iw = x.const_scalar(d, (ratio * gw) as f64)?;
    let k_ih = x.const_scalar(d, (ratio * gh) as f64)?;
    let half = x.const_scalar(d, 0.5)?;
    let center = |x: &mut Exporter<'_>, t: &str, grid: &str, img: &str, g: &str| {
        let s = x.node1("Sigmoid", &[t], vec![]);
        let s = x.node1("Mul", &[&s, &k_scale], vec![]);
        let s = x.node1("Add", &[&s, &k_bias], vec![]);
        let s = x.node1("Add", &[&s, grid], vec![]);
        let s = x.node1("Mul", &[&s, img], vec![]);
        x.node1("Div", &[&s, g], vec![])
    };
    let cx = center(x, &tx, &col, &img_w, &k_gw);
    let cy = center(x, &ty, &row, &img_h, &k_gh);
    let size = |x: &mut Exporter<'_>, t: &str, anchor: &str, img: &str, input: &str| {
        let e = x.node1("Exp", &[t], vec![]);
        let e = x.node1("Mul", &[&e, anchor], vec![]);
        let e = x.node1("Mul", &[&e, img], vec![]);
        let e = x.node1("Div", &[&e, input], vec![]);
        x.node1("Mul", &[&e, &half], vec![])
    };
    let hw = size(x, &tw, &aw, &img_w, &k_iw);
    let hh = size(x, &th, &ah, &img_h, &k_ih);
    let mut x1 = x.node1("Sub", &[&cx, &hw], vec![]);
    let mut y1 = x.node1("Sub", &[&cy, &hh], vec![]);
    let mut x2 = x.node1("Add", &[&cx, &hw], vec![]);
    let mut y2 = x.node1("Add", &[&cy, &hh], vec![]);
    if clip {
        let zero = x.const_scalar(d, 0.0)?;
        let one = x.const_scalar(d, 1.0)?;
        x1 = x.node1("Max", &[&x1, &zero], vec![]);
        y1 = x.node1("Max", &[&y1, &zero], vec![]);
        let wm = x.node1("Sub", &[&img_w, &one], vec![]);
        let hm = x.node1("Sub", &[&img_h, &one], vec![]);
        x2 = x.node1("Min", &[&x2, &wm], vec![]);
        y2 = x.node1("Min", &[&y2, &hm], vec![]);
    }
    let conf = x.node1("Sigmoid", &[&to], vec![]);
    let k_thresh = x.const_scalar(d, thresh)?;
    let keep = x.node1("GreaterOrEqual", &[&conf, &k_thresh], vec![]);
    let keep_f = x.cast(&keep, d)?;
    // [N, an, 4, H, W] → [N, an, H, W, 4] → [N, an*H*W, 4]
    let b = x.node1("Concat", &[&x1, &y1, &x2, &y2], vec![a_int("axis", 2)]);
    let b = x.node1("Mul", &[&b, &keep_f], vec![]);
    let b = x.node1("Transpose", &[&b], vec![a_ints("perm", &[0, 1, 3, 4, 2])]);
    let out = x.out(0);
    let shape = x.const_i64s(&[0, -1, 4]);
    x.node("Reshape", &[&b, &shape], &[&out], vec![]);
    let s = x.node1("Sigmoid", &[&tc], vec![]);
    let s = x.node1("Mul", &[&s, &conf], vec![]);
    let s = x.node1("Mul", &[&s, &keep_f], vec![]);
    let s = x.node1("Transpose", &[&s], vec![a_ints("perm", &[0, 1, 3, 4, 2])]);
    let out = x.out(1);
    let shape = x.const_i64s(&[0, -1, classes]);
    x.node("Reshape", &[&s, &shape], &[&out], vec![]);
    Ok(())
}

/// `cumprod(x, dim, exclusive, reverse)` over an axis of known length.
pub(crate) fn cumprod(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let dims = x.in_dims(0)?;
    let d = x.in_dtype(0)?;
    let rank = dims.len() as i64;
    let attrs = x.attrs();
    let axis = norm_axis(attrs.i64_or("dim", -1)?, rank.max(1));
    let exclusive = attrs.bool_or("exclusive", false)?;
    let reverse = attrs.bool_or("reverse", false)?;
    let n = if rank == 0 { 1 } else { dims[axis as usize] };
    if !(1..=1024).contains(&n) {
        return Err(x.unsupported("the axis length must be known (at most 1024)"));
    }
    if rank == 0 {
        x.identity_out(0, &a);
        return Ok(());
    }
    let parts: Vec<String> = (0..n).map(|_| x.tmp()).collect();
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    let ones = x.const_i64s(&vec![1; n as usize]);
    x.node("Split", &[&a, &ones], &refs, vec![a_int("axis", axis)]);
    let order: Vec<usize> = if reverse {
        (0..n as usize).rev().collect()
    } else {
        (0..n as usize).collect()
    };
    let mut acc: Option<String> = None;
    let mut results = vec![String::new(); n as usize];
    let one = x.const_scalar(d, 1.0)?;
    for &i in &order {
        let before = acc.clone();
        let next = match &acc {
            None => parts[i].clone(),
            Some(p) => x.node1("Mul", &[p, &parts[i]], vec![]),
        };
        results[i] = if exclusive {
            match before {
                None => {
                    let z = x.node1("Mul", &[&parts[i], &one], vec![]);
                    let zero = x.const_scalar(d, 0.0)?;
                    let z = x.node1("Mul", &[&z, &zero], vec![]);
                    x.node1("Add", &[&z, &one], vec![])
                }
                Some(p) => p,
            }
        } else {
            next.clone()
        };
        acc = Some(next);
    }
    let refs: Vec<&str> = results.iter().map(String::as_str).collect();
    let out = x.out(0);
    x.node("Concat", &refs, &[&out], vec![a_int("axis", axis)]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::expand_aspect_ratios;

    #[test]
    fn aspect_ratios_start_with_one_skip_repeats_and_add_inverses_with_flip() {
        assert_eq!(expand_aspect_ratios(&[1.0, 2.0], true), [1.0, 2.0, 0.5]);
        assert_eq!(expand_aspect_ratios(&[2.0, 2.0], false), [1.0, 2.0]);
    }
}
