//! Shape and layout ops: reshape, transpose, flatten, squeeze/unsqueeze,
//! concat/stack/split, slicing, tile/expand, flip/roll, shape queries.

use pir_params::DType;

use crate::export::{a_int, a_ints, Exporter};
use crate::mappers::elementwise::out_inplace;
use crate::ExportError;

type R = Result<(), ExportError>;

/// A scalar argument: operand `i` when it is a known constant, else
/// attribute `attr`, else `default`.
pub(crate) fn scalar_arg(
    x: &Exporter<'_>,
    i: usize,
    attr: &str,
    default: i64,
) -> Result<i64, ExportError> {
    if x.has_input(i) {
        return match x.known(i).filter(|k| k.values.len() == 1) {
            Some(k) => Ok(k.values[0] as i64),
            None => Err(x.unsupported(format!("operand {i} must be a constant"))),
        };
    }
    x.attrs().i64_or(attr, default)
}

/// `axis` made non-negative for rank `rank`.
pub(crate) fn norm_axis(axis: i64, rank: i64) -> i64 {
    if axis < 0 {
        axis + rank
    } else {
        axis
    }
}

/// `reshape(x, shape)`.
pub(crate) fn reshape(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let shape = x.int_array_input(1, "shape")?;
    let out = out_inplace(x);
    x.node("Reshape", &[&a, &shape], &[&out], vec![]);
    Ok(())
}

/// `transpose(x, perm)`.
pub(crate) fn transpose(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let perm: Vec<i64> = x
        .attrs()
        .ints("perm")?
        .into_iter()
        .map(|p| norm_axis(p, rank))
        .collect();
    let out = out_inplace(x);
    x.node("Transpose", &[&a], &[&out], vec![a_ints("perm", &perm)]);
    Ok(())
}

/// `flatten(x, start_axis, stop_axis)`: the shape built from x's.
pub(crate) fn flatten(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let attrs = x.attrs();
    let out = out_inplace(x);
    if rank == 0 {
        let r = x.reshape(&a, &[1]);
        x.node("Identity", &[&r], &[&out], vec![]);
        return Ok(());
    }
    let start = norm_axis(attrs.i64_or("start_axis", 1)?, rank);
    let stop = norm_axis(attrs.i64_or("stop_axis", 1)?, rank);
    let shape = x.node1("Shape", &[&a], vec![]);
    let mut parts = Vec::new();
    if start > 0 {
        let s = x.const_i64s(&[0]);
        let e = x.const_i64s(&[start]);
        parts.push(x.node1("Slice", &[&shape, &s, &e], vec![]));
    }
    parts.push(x.const_i64s(&[-1]));
    if stop + 1 < rank {
        let s = x.const_i64s(&[stop + 1]);
        let e = x.const_i64s(&[rank]);
        parts.push(x.node1("Slice", &[&shape, &s, &e], vec![]));
    }
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    let new_shape = x.node1("Concat", &refs, vec![a_int("axis", 0)]);
    x.node("Reshape", &[&a, &new_shape], &[&out], vec![]);
    Ok(())
}

/// `squeeze(x, axis)`: the axes that are 1 (all size-1 axes when empty).
pub(crate) fn squeeze(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let dims = x.in_dims(0)?;
    let rank = dims.len() as i64;
    let out_rank = x.out_dims(0)?.len() as i64;
    let axes = x
        .int_array(1, "axis")?
        .ok_or_else(|| x.unsupported("axes must be constant"))?;
    let candidates: Vec<i64> = if axes.is_empty() {
        (0..rank).collect()
    } else {
        axes.iter().map(|&ax| norm_axis(ax, rank)).collect()
    };
    let mut picked: Vec<i64> = candidates
        .iter()
        .copied()
        .filter(|&ax| dims.get(ax as usize) == Some(&1))
        .collect();
    if (rank - picked.len() as i64) > out_rank {
        // Unknown dims the type says were squeezed.
        picked = candidates
            .iter()
            .copied()
            .filter(|&ax| matches!(dims.get(ax as usize), Some(&1) | Some(&-1)))
            .collect();
    }
    picked.sort_unstable();
    picked.dedup();
    let out = out_inplace(x);
    if picked.is_empty() {
        x.node("Identity", &[&a], &[&out], vec![]);
    } else {
        let ax = x.const_i64s(&picked);
        x.node("Squeeze", &[&a, &ax], &[&out], vec![]);
    }
    Ok(())
}

/// `unsqueeze(x, axis)`: each axis inserted in turn, as Paddle does.
pub(crate) fn unsqueeze(x: &mut Exporter<'_>) -> R {
    let mut a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let axes = x
        .int_array(1, "axis")?
        .ok_or_else(|| x.unsupported("axes must be constant"))?;
    let mut positions: Vec<i64> = Vec::new();
    for (cur_rank, ax) in (rank..).zip(axes) {
        let cur = if ax < 0 { ax + cur_rank + 1 } else { ax };
        // Positions already inserted at or after `cur` move one right.
        for p in positions.iter_mut() {
            if *p >= cur {
                *p += 1;
            }
        }
        positions.push(cur);
    }
    positions.sort_unstable();
    let out = out_inplace(x);
    if !positions.is_empty() {
        a = x.unsqueeze(&a, &positions);
    }
    x.node("Identity", &[&a], &[&out], vec![]);
    Ok(())
}

/// `concat(x..., axis)`.
pub(crate) fn concat(x: &mut Exporter<'_>) -> R {
    let parts = x.input_vec(0)?;
    let axis = scalar_arg(x, 1, "axis", 0)?;
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    let out = x.out(0);
    x.node("Concat", &refs, &[&out], vec![a_int("axis", axis)]);
    Ok(())
}

/// `stack(x..., axis)`.
pub(crate) fn stack(x: &mut Exporter<'_>) -> R {
    let parts = x.input_vec(0)?;
    let types = x.vec_types(0);
    let rank = types
        .first()
        .and_then(|t| x.dims_of_type(*t))
        .map_or(0, |d| d.len() as i64);
    let axis = x.attrs().i64_or("axis", 0)?;
    let axis = if axis < 0 { axis + rank + 1 } else { axis };
    let mut ups = Vec::new();
    for p in &parts {
        ups.push(x.unsqueeze(p, &[axis]));
    }
    let refs: Vec<&str> = ups.iter().map(String::as_str).collect();
    let out = x.out(0);
    x.node("Concat", &refs, &[&out], vec![a_int("axis", axis)]);
    Ok(())
}

/// The fresh names of a vector result's tensors, recorded for `builtin.split`.
fn vector_outputs(x: &mut Exporter<'_>, result: usize, n: usize) -> Vec<String> {
    let names: Vec<String> = (0..n).map(|_| x.tmp()).collect();
    if let Some(v) = x.result(result) {
        x.set_vec(v, names.clone());
    }
    x.no_value_info();
    names
}

/// The number of tensors of vector result `i`.
fn vector_len(x: &Exporter<'_>, i: usize) -> usize {
    x.result(i).map_or(0, |v| {
        x.p.ctx()
            .type_as::<pir_core::builtin::VectorType>(x.p.value_type(v))
            .map_or(0, |t| t.0.len())
    })
}

/// `split(x, sections, axis)` and `split_with_num(x, axis, num)`.
pub(crate) fn split(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let dims = x.in_dims(0)?;
    let with_num = x.op_name() == "pd_op.split_with_num";
    let axis_operand = if with_num { 1 } else { 2 };
    let axis = norm_axis(scalar_arg(x, axis_operand, "axis", 0)?, dims.len() as i64);
    let n = vector_len(x, 0);
    let total = dims.get(axis as usize).copied().unwrap_or(-1);
    let sections: Vec<i64> = if with_num {
        if total < 0 {
            Vec::new()
        } else {
            vec![total / n.max(1) as i64; n]
        }
    } else {
        let mut s = x
            .int_array(1, "sections")?
            .ok_or_else(|| x.unsupported("sections must be constant"))?;
        if let Some(pos) = s.iter().position(|&v| v < 0) {
            if total < 0 {
                return Err(x.unsupported("a -1 section of an unknown dim"));
            }
            let known: i64 = s.iter().filter(|&&v| v >= 0).sum();
            s[pos] = total - known;
        }
        s
    };
    let outs = vector_outputs(x, 0, n);
    let refs: Vec<&str> = outs.iter().map(String::as_str).collect();
    if sections.is_empty() {
        let mut attrs = vec![a_int("axis", axis)];
        if x.opset >= 18 {
            attrs.push(a_int("num_outputs", n as i64));
        }
        x.node("Split", &[&a], &refs, attrs);
    } else {
        let s = x.const_i64s(&sections);
        x.node("Split", &[&a, &s], &refs, vec![a_int("axis", axis)]);
    }
    Ok(())
}

/// `unbind(x, axis)` and `unstack(x, axis, num)`.
pub(crate) fn unbind(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let axis = norm_axis(x.attrs().i64_or("axis", 0)?, rank);
    let n = vector_len(x, 0);
    let parts: Vec<String> = (0..n).map(|_| x.tmp()).collect();
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    let ones = x.const_i64s(&vec![1; n]);
    x.node("Split", &[&a, &ones], &refs, vec![a_int("axis", axis)]);
    let outs = vector_outputs(x, 0, n);
    let ax = x.const_i64s(&[axis]);
    for (p, o) in parts.iter().zip(&outs) {
        x.node("Squeeze", &[p, &ax], &[o], vec![]);
    }
    Ok(())
}

/// `slice(x, starts, ends, axes, decrease_axis)` and
/// `strided_slice(x, starts, ends, strides, axes)`.
pub(crate) fn slice(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let strided = x.op_name() == "pd_op.strided_slice";
    let attrs = x.attrs();
    let axes = attrs.ints("axes")?;
    let axes: Vec<i64> = axes.iter().map(|&v| norm_axis(v, rank)).collect();
    let starts = x.int_array_input(1, "starts")?;
    let ends = x.int_array_input(2, "ends")?;
    let axes_c = x.const_i64s(&axes);
    let mut inputs = vec![a, starts, ends, axes_c];
    if strided {
        inputs.push(x.int_array_input(3, "strides")?);
    }
    let decrease = if strided {
        Vec::new()
    } else {
        attrs.ints_or("decrease_axis", &[])?
    };
    let refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let sliced = x.node1("Slice", &refs, vec![]);
    let out = x.out(0);
    let out_rank = x.out_dims(0)?.len() as i64;
    if decrease.is_empty() || out_rank == rank {
        x.node("Identity", &[&sliced], &[&out], vec![]);
    } else {
        let mut d: Vec<i64> = decrease.iter().map(|&v| norm_axis(v, rank)).collect();
        d.sort_unstable();
        let ax = x.const_i64s(&d);
        x.node("Squeeze", &[&sliced, &ax], &[&out], vec![]);
    }
    Ok(())
}

/// `tile(x, repeat_times)`.
pub(crate) fn tile(x: &mut Exporter<'_>) -> R {
    let mut a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let Some(reps) = x.int_array(1, "repeat_times")? else {
        // Repeats computed at run time: ONNX's Tile takes them as they
        // are when there is one per axis.
        let known_len = x.in_dims(1).ok().and_then(|d| d.first().copied());
        // A list of tensors: the sum of their (known) sizes.
        let parts = x.operand(1).map(|v| x.p.value_type(v)).and_then(|t| {
            let list = x.p.ctx().type_as::<pir_core::builtin::VectorType>(t)?;
            list.0.iter().try_fold(0i64, |acc, &ty| {
                let dims = x.dims_of_type(ty)?;
                let n: i64 = dims.iter().product();
                (n >= 0).then_some(acc + n)
            })
        });
        let Some(len) = known_len.or(parts).filter(|&l| l >= 0) else {
            return Err(x.unsupported("repeat_times of unknown length"));
        };
        let mut r = x.int_array_input(1, "repeat_times")?;
        if len < rank {
            let ones = x.const_i64s(&vec![1; (rank - len) as usize]);
            r = x.node1("Concat", &[&ones, &r], vec![a_int("axis", 0)]);
        } else if len > rank {
            let axes: Vec<i64> = (0..len - rank).collect();
            a = x.unsqueeze(&a, &axes);
        }
        let out = x.out(0);
        x.node("Tile", &[&a, &r], &[&out], vec![]);
        return Ok(());
    };
    let n = reps.len() as i64;
    let reps = if n < rank {
        let mut r = vec![1; (rank - n) as usize];
        r.extend(reps);
        r
    } else {
        if n > rank {
            let axes: Vec<i64> = (0..n - rank).collect();
            a = x.unsqueeze(&a, &axes);
        }
        reps
    };
    let r = x.const_i64s(&reps);
    let out = x.out(0);
    x.node("Tile", &[&a, &r], &[&out], vec![]);
    Ok(())
}

/// `expand(x, shape)`: -1 keeps x's dim (ONNX broadcasting with 1).
pub(crate) fn expand(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let shape = match x.int_array(1, "shape")? {
        Some(s) => {
            let s: Vec<i64> = s.iter().map(|&v| if v < 0 { 1 } else { v }).collect();
            x.const_i64s(&s)
        }
        None => {
            let s = x.int_array_input(1, "shape")?;
            let zero = x.const_i64s(&[0]);
            let one = x.const_i64s(&[1]);
            let neg = x.node1("Less", &[&s, &zero], vec![]);
            x.node1("Where", &[&neg, &one, &s], vec![])
        }
    };
    let out = x.out(0);
    x.node("Expand", &[&a, &shape], &[&out], vec![]);
    Ok(())
}

/// `expand_as(x, y)`.
pub(crate) fn expand_as(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let shape = if x.has_input(1) {
        let y = x.input(1)?;
        x.node1("Shape", &[&y], vec![])
    } else {
        let s = x.attrs().ints("target_shape")?;
        x.const_i64s(&s)
    };
    let out = x.out(0);
    x.node("Expand", &[&a, &shape], &[&out], vec![]);
    Ok(())
}

/// `shape` (int32) and `shape64` (int64).
pub(crate) fn shape(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let s = x.node1("Shape", &[&a], vec![]);
    let d = x.out_dtype(0)?;
    let s = if d == DType::Int64 { s } else { x.cast(&s, d)? };
    x.finish_with(&s)
}

/// `numel(x)`.
pub(crate) fn numel(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let s = x.node1("Size", &[&a], vec![]);
    let d = x.out_dtype(0)?;
    let s = if d == DType::Int64 { s } else { x.cast(&s, d)? };
    let out_rank = x.out_dims(0)?.len();
    let s = if out_rank == 1 {
        x.reshape(&s, &[1])
    } else {
        s
    };
    x.finish_with(&s)
}

/// `flip(x, axis)`: a reversed slice per axis.
pub(crate) fn flip(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let rank = x.in_rank(0)?;
    // `reverse` of a translated legacy program takes its axes as an
    // operand.
    let axes = match x.int_array(1, "axis")? {
        Some(axes) => axes,
        None => x.attrs().ints("axis")?,
    };
    let axes: Vec<i64> = axes.into_iter().map(|v| norm_axis(v, rank)).collect();
    let n = axes.len();
    let starts = x.const_i64s(&vec![-1; n]);
    let ends = x.const_i64s(&vec![i64::MIN; n]);
    let ax = x.const_i64s(&axes);
    let steps = x.const_i64s(&vec![-1; n]);
    let out = x.out(0);
    x.node("Slice", &[&a, &starts, &ends, &ax, &steps], &[&out], vec![]);
    Ok(())
}

/// `roll(x, shifts, axis)`: two slices concatenated per axis.
pub(crate) fn roll(x: &mut Exporter<'_>) -> R {
    let mut a = x.input(0)?;
    let shifts = x
        .int_array(1, "shifts")?
        .ok_or_else(|| x.unsupported("shifts must be constant"))?;
    let axes = x.attrs().ints_or("axis", &[])?;
    let rank = x.in_rank(0)?;
    let flat = axes.is_empty();
    let original_shape = x.node1("Shape", &[&a], vec![]);
    let axes = if flat {
        a = x.reshape(&a, &[-1]);
        vec![0]
    } else {
        axes.iter().map(|&v| norm_axis(v, rank)).collect()
    };
    for (&shift, &axis) in shifts.iter().zip(&axes) {
        if shift == 0 {
            continue;
        }
        let ax = x.const_i64s(&[axis]);
        let s_neg = x.const_i64s(&[-shift]);
        let big = x.const_i64s(&[i64::MAX]);
        let zero = x.const_i64s(&[0]);
        // x[-s:] then x[:-s]; a negative shift the other way round, which
        // the same slices give with -s positive.
        let tail = x.node1("Slice", &[&a, &s_neg, &big, &ax], vec![]);
        let head = x.node1("Slice", &[&a, &zero, &s_neg, &ax], vec![]);
        a = x.node1("Concat", &[&tail, &head], vec![a_int("axis", axis)]);
    }
    if flat {
        a = x.node1("Reshape", &[&a, &original_shape], vec![]);
    }
    x.finish_with(&a)
}

/// `tril` / `triu`.
pub(crate) fn trilu(x: &mut Exporter<'_>) -> R {
    x.need_opset(14, "Trilu")?;
    let a = x.input(0)?;
    let k = x.attrs().i64_or("diagonal", 0)?;
    let upper = i64::from(x.op_name() == "pd_op.triu");
    let k = x.const_scalar(DType::Int64, k as f64)?;
    let out = x.out(0);
    x.node("Trilu", &[&a, &k], &[&out], vec![a_int("upper", upper)]);
    Ok(())
}

/// `meshgrid(x...)`: each 1-D input reshaped along its axis and expanded.
pub(crate) fn meshgrid(x: &mut Exporter<'_>) -> R {
    let parts = x.input_vec(0)?;
    let n = parts.len();
    let mut sizes = Vec::new();
    for p in &parts {
        sizes.push(x.node1("Shape", &[p], vec![]));
    }
    let refs: Vec<&str> = sizes.iter().map(String::as_str).collect();
    let full = x.node1("Concat", &refs, vec![a_int("axis", 0)]);
    let outs = vector_outputs(x, 0, n);
    for (i, (p, o)) in parts.iter().zip(&outs).enumerate() {
        let mut shape = vec![1i64; n];
        shape[i] = -1;
        let r = x.reshape(p, &shape);
        x.node("Expand", &[&r, &full], &[o], vec![]);
    }
    Ok(())
}

/// `pad(x, paddings, pad_value)`: Paddle's `[before0, after0, ...]`.
pub(crate) fn pad(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let p = x.attrs().ints("paddings")?;
    let value = match x.known(1).filter(|k| k.values.len() == 1) {
        Some(k) => k.values[0],
        None => x.attrs().f64_or("pad_value", 0.0)?,
    };
    let n = p.len() / 2;
    let mut pads: Vec<i64> = (0..n).map(|i| p[2 * i]).collect();
    pads.extend((0..n).map(|i| p[2 * i + 1]));
    let pads = x.const_i64s(&pads);
    let v = x.const_scalar(d, value)?;
    let out = x.out(0);
    x.node("Pad", &[&a, &pads, &v], &[&out], vec![]);
    Ok(())
}

/// `pad3d(x, paddings, mode, pad_value, data_format)`: Paddle's
/// `[left, right, top, bottom, front, back]` on the last three spatial dims.
pub(crate) fn pad3d(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let attrs = x.attrs();
    let Some(p) = x.int_array(1, "paddings")? else {
        // Paddings computed at run time: gathered into ONNX's order from
        // `[0, left, right, top, bottom, front, back]`.
        let format = attrs.str_or("data_format", "NCDHW")?;
        let mode = attrs.str_or("mode", "constant")?;
        let value = attrs.f64_or("pad_value", 0.0)?;
        let p = x.int_array_input(1, "paddings")?;
        let zero = x.const_i64s(&[0]);
        let q = x.node1("Concat", &[&zero, &p], vec![a_int("axis", 0)]);
        let order: &[i64] = if format == "NDHWC" {
            &[0, 5, 3, 1, 0, 0, 6, 4, 2, 0]
        } else {
            &[0, 0, 5, 3, 1, 0, 0, 6, 4, 2]
        };
        let idx = x.const_i64s(order);
        let pads = x.node1("Gather", &[&q, &idx], vec![a_int("axis", 0)]);
        return pad_with(x, &a, &pads, &mode, value, d);
    };
    if p.len() != 6 {
        return Err(x.unsupported("paddings must have 6 entries"));
    }
    let mode = attrs.str_or("mode", "constant")?;
    let value = attrs.f64_or("pad_value", 0.0)?;
    let format = attrs.str_or("data_format", "NCDHW")?;
    // ONNX pads: begins of every axis, then ends.
    let (d_b, d_e, h_b, h_e, w_b, w_e) = (p[4], p[5], p[2], p[3], p[0], p[1]);
    let pads = if format == "NDHWC" {
        vec![0, d_b, h_b, w_b, 0, 0, d_e, h_e, w_e, 0]
    } else {
        vec![0, 0, d_b, h_b, w_b, 0, 0, d_e, h_e, w_e]
    };
    let pads = x.const_i64s(&pads);
    pad_with(x, &a, &pads, &mode, value, d)
}

/// A `Pad` of `a` by `pads` (ONNX order) in Paddle's `mode`.
fn pad_with(x: &mut Exporter<'_>, a: &str, pads: &str, mode: &str, value: f64, d: DType) -> R {
    let onnx_mode = match mode {
        "reflect" => "reflect",
        "replicate" => "edge",
        "circular" if x.opset >= 19 => "wrap",
        "constant" => "constant",
        other => return Err(x.unsupported(format!("pad mode {other}"))),
    };
    let v = x.const_scalar(d, value)?;
    let out = x.out(0);
    x.node(
        "Pad",
        &[a, pads, &v],
        &[&out],
        vec![crate::export::a_str("mode", onnx_mode)],
    );
    Ok(())
}
