//! Indexing, sorting and reductions: gather/scatter, top-k, arg-max,
//! cumulative sums, `set_value`, and the `Reduce*` family.

use pir_params::DType;

use crate::export::{a_int, a_ints, a_str, Exporter};
use crate::mappers::elementwise::out_inplace;
use crate::mappers::shape::{norm_axis, scalar_arg};
use crate::ExportError;

type R = Result<(), ExportError>;

/// `gather(x, index, axis)` and `index_select(x, index, axis)`.
pub(crate) fn gather(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let idx = x.input(1)?;
    let axis = if x.op_name() == "pd_op.gather" {
        scalar_arg(x, 2, "axis", 0)?
    } else {
        x.attrs().i64_or("axis", 0)?
    };
    let out = x.out(0);
    x.node("Gather", &[&a, &idx], &[&out], vec![a_int("axis", axis)]);
    Ok(())
}

/// `gather_nd(x, index)`.
pub(crate) fn gather_nd(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let idx = x.input(1)?;
    let idx = if x.in_dtype(1)? == DType::Int64 {
        idx
    } else {
        x.cast(&idx, DType::Int64)?
    };
    let out = x.out(0);
    x.node("GatherND", &[&a, &idx], &[&out], vec![]);
    Ok(())
}

/// `take_along_axis(arr, indices, axis)`.
pub(crate) fn take_along_axis(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let idx = x.input(1)?;
    let axis = x.attrs().i64_or("axis", 0)?;
    let out = x.out(0);
    x.node(
        "GatherElements",
        &[&a, &idx],
        &[&out],
        vec![a_int("axis", axis)],
    );
    Ok(())
}

/// `put_along_axis(arr, indices, values, axis, reduce)`.
pub(crate) fn put_along_axis(x: &mut Exporter<'_>) -> R {
    x.need_opset(16, "a reducing ScatterElements")?;
    let a = x.input(0)?;
    let idx = x.input(1)?;
    let v = x.input(2)?;
    let attrs = x.attrs();
    let axis = attrs.i64_or("axis", 0)?;
    let reduce = attrs.str_or("reduce", "assign")?;
    let reduction = match reduce.as_str() {
        "assign" => "none",
        "add" => "add",
        "mul" | "multiply" => "mul",
        other => return Err(x.unsupported(format!("reduce {other}"))),
    };
    let shape = x.node1("Shape", &[&idx], vec![]);
    let v = x.node1("Expand", &[&v, &shape], vec![]);
    let out = out_inplace(x);
    x.node(
        "ScatterElements",
        &[&a, &idx, &v],
        &[&out],
        vec![a_int("axis", axis), a_str("reduction", reduction)],
    );
    Ok(())
}

/// `scatter(x, index, updates, overwrite)` (overwrite only).
pub(crate) fn scatter(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let idx = x.input(1)?;
    let u = x.input(2)?;
    let overwrite = x.attrs().bool_or("overwrite", true)?;
    let idx = x.cast(&idx, DType::Int64)?;
    let idx = x.reshape(&idx, &[-1, 1]);
    let out = out_inplace(x);
    let reduction = if overwrite { "none" } else { "add" };
    if !overwrite {
        x.need_opset(16, "an adding ScatterND")?;
        // Paddle zeroes the indexed rows first, then adds.
        let ud = x.in_dtype(2)?;
        let zero = x.const_scalar(ud, 0.0)?;
        let zeros = x.node1("Mul", &[&u, &zero], vec![]);
        let cleared = x.node1("ScatterND", &[&a, &idx, &zeros], vec![]);
        x.node(
            "ScatterND",
            &[&cleared, &idx, &u],
            &[&out],
            vec![a_str("reduction", reduction)],
        );
    } else {
        x.node("ScatterND", &[&a, &idx, &u], &[&out], vec![]);
    }
    Ok(())
}

/// `scatter_nd_add(x, index, updates)`.
pub(crate) fn scatter_nd_add(x: &mut Exporter<'_>) -> R {
    x.need_opset(16, "an adding ScatterND")?;
    let a = x.input(0)?;
    let idx = x.input(1)?;
    let u = x.input(2)?;
    let idx = x.cast(&idx, DType::Int64)?;
    let out = x.out(0);
    x.node(
        "ScatterND",
        &[&a, &idx, &u],
        &[&out],
        vec![a_str("reduction", "add")],
    );
    Ok(())
}

/// `topk(x, k, axis, largest, sorted)`.
pub(crate) fn topk(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let attrs = x.attrs();
    let axis = attrs.i64_or("axis", -1)?;
    let largest = attrs.bool_or("largest", true)?;
    let k = match x.known(1).filter(|k| k.values.len() == 1) {
        Some(k) => {
            let v = k.values[0] as i64;
            x.const_i64s(&[v])
        }
        None if x.has_input(1) => {
            let k = x.input(1)?;
            let k = x.cast(&k, DType::Int64)?;
            x.reshape(&k, &[1])
        }
        None => {
            let v = attrs.i64_or("k", 1)?;
            x.const_i64s(&[v])
        }
    };
    top_k(x, &a, &k, axis, largest);
    Ok(())
}

/// Results 0 and 1 of the op: the `k` largest (or smallest) values of `a`
/// along `axis`, sorted, and their indices.
fn top_k(x: &mut Exporter<'_>, a: &str, k: &str, axis: i64, largest: bool) {
    let values = x.out(0);
    let indices = x.out(1);
    top_k_into(x, a, k, axis, largest, [&values, &indices]);
}

/// The `k` (a `[1]` int64) largest (or smallest) values of `a` along
/// `axis`, sorted (ties: the lower index first), and their indices, as
/// fresh names.
pub(crate) fn sorted_top_k(
    x: &mut Exporter<'_>,
    a: &str,
    k: &str,
    axis: i64,
    largest: bool,
) -> (String, String) {
    let (values, indices) = (x.tmp(), x.tmp());
    top_k_into(x, a, k, axis, largest, [&values, &indices]);
    (values, indices)
}

/// A sorted `TopK` node writing `out` (values, indices).
fn top_k_into(x: &mut Exporter<'_>, a: &str, k: &str, axis: i64, largest: bool, out: [&str; 2]) {
    x.node(
        "TopK",
        &[a, k],
        &out,
        vec![
            a_int("axis", axis),
            a_int("largest", i64::from(largest)),
            a_int("sorted", 1),
        ],
    );
}

/// `argsort(x, axis, descending)`: a full top-k.
pub(crate) fn argsort(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let attrs = x.attrs();
    let axis = norm_axis(attrs.i64_or("axis", -1)?, rank);
    let descending = attrs.bool_or("descending", false)?;
    let shape = x.node1("Shape", &[&a], vec![]);
    let ax = x.const_i64s(&[axis]);
    let k = x.node1("Gather", &[&shape, &ax], vec![a_int("axis", 0)]);
    top_k(x, &a, &k, axis, descending);
    Ok(())
}

/// `argmax` / `argmin(x, axis, keepdims, flatten, dtype)`.
pub(crate) fn argmax(x: &mut Exporter<'_>) -> R {
    let mut a = x.input(0)?;
    let op = if x.op_name() == "pd_op.argmin" {
        "ArgMin"
    } else {
        "ArgMax"
    };
    let attrs = x.attrs();
    let keep = attrs.bool_or("keepdims", false)?;
    let flatten = attrs.bool_or("flatten", false)?;
    let mut axis = scalar_arg(x, 1, "axis", -1)?;
    if flatten {
        a = x.reshape(&a, &[-1]);
        axis = 0;
    }
    let r = x.node1(
        op,
        &[&a],
        vec![a_int("axis", axis), a_int("keepdims", i64::from(keep))],
    );
    let d = x.out_dtype(0)?;
    let r = if d == DType::Int64 { r } else { x.cast(&r, d)? };
    let out_rank = x.out_dims(0)?.len();
    let r = if flatten && keep {
        let rank = x.in_rank(0)?;
        x.reshape(&r, &vec![1; rank as usize])
    } else if flatten && out_rank == 0 {
        x.reshape(&r, &[])
    } else {
        r
    };
    x.finish_with(&r)
}

/// `cumsum(x, axis, flatten, exclusive, reverse)` and `cumprod` (written
/// as exp of a cumulative sum of logs is wrong for signs: refused).
pub(crate) fn cumsum(x: &mut Exporter<'_>) -> R {
    let mut a = x.input(0)?;
    let attrs = x.attrs();
    let flatten = attrs.bool_or("flatten", false)?;
    let exclusive = attrs.bool_or("exclusive", false)?;
    let reverse = attrs.bool_or("reverse", false)?;
    let mut axis = scalar_arg(x, 1, "axis", -1)?;
    if flatten || axis == -1 && x.in_rank(0)? == 0 {
        a = x.reshape(&a, &[-1]);
        axis = 0;
    }
    let ax = x.const_values(DType::Int64, &[], &[axis as f64])?;
    let out = x.out(0);
    x.node(
        "CumSum",
        &[&a, &ax],
        &[&out],
        vec![
            a_int("exclusive", i64::from(exclusive)),
            a_int("reverse", i64::from(reverse)),
        ],
    );
    Ok(())
}

/// `nonzero(x)`: ONNX gives `[rank, n]`, Paddle `[n, rank]`.
pub(crate) fn nonzero(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let nz = x.node1("NonZero", &[&a], vec![]);
    let out = x.out(0);
    x.node("Transpose", &[&nz], &[&out], vec![a_ints("perm", &[1, 0])]);
    Ok(())
}

/// A reduction `op` of `a` over `axes` (all when empty).
pub(crate) fn reduce(x: &mut Exporter<'_>, op: &str, a: &str, axes: &[i64], keep: bool) -> String {
    let keep = a_int("keepdims", i64::from(keep));
    let axes_as_input = op == "ReduceSum" || x.opset >= 18;
    if axes.is_empty() {
        x.node1(op, &[a], vec![keep])
    } else if axes_as_input {
        let ax = x.const_i64s(axes);
        x.node1(op, &[a, &ax], vec![keep])
    } else {
        x.node1(op, &[a], vec![a_ints("axes", axes), keep])
    }
}

/// `sum`, `mean`, `max`, `min`, `prod`, `amax`, `amin`, `all`, `any`,
/// `logsumexp`, `mean_all`, `frobenius_norm`.
pub(crate) fn reduction(x: &mut Exporter<'_>) -> R {
    let name = x.op_name().trim_start_matches("pd_op.").to_string();
    let a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let attrs = x.attrs();
    let keep = attrs.bool_or("keepdim", false)? || attrs.bool_or("keep_dim", false)?;
    let reduce_all = attrs.bool_or("reduce_all", false)?;
    let axes = if name == "mean_all" || reduce_all {
        Vec::new()
    } else {
        let ax = if x.has_input(1) {
            x.int_array(1, "axis")?
                .ok_or_else(|| x.unsupported("axes must be constant"))?
        } else {
            attrs.ints_or("axis", &[])?
        };
        let mut ax: Vec<i64> = ax.iter().map(|&v| norm_axis(v, rank)).collect();
        ax.sort_unstable();
        ax.dedup();
        if ax.len() as i64 == rank {
            Vec::new()
        } else {
            ax
        }
    };
    let out_d = x.out_dtype(0)?;
    let in_d = x.in_dtype(0)?;
    let r = match name.as_str() {
        "sum" => {
            let a = if in_d == out_d { a } else { x.cast(&a, out_d)? };
            reduce(x, "ReduceSum", &a, &axes, keep)
        }
        "mean" | "mean_all" => reduce(x, "ReduceMean", &a, &axes, keep),
        "max" | "amax" => reduce(x, "ReduceMax", &a, &axes, keep),
        "min" | "amin" => reduce(x, "ReduceMin", &a, &axes, keep),
        "prod" => reduce(x, "ReduceProd", &a, &axes, keep),
        "logsumexp" => reduce(x, "ReduceLogSumExp", &a, &axes, keep),
        "frobenius_norm" => reduce(x, "ReduceL2", &a, &axes, keep),
        "all" | "any" => {
            let i = x.cast(&a, DType::Int32)?;
            let op = if name == "all" {
                "ReduceMin"
            } else {
                "ReduceMax"
            };
            let r = reduce(x, op, &i, &axes, keep);
            x.cast(&r, DType::Bool)?
        }
        _ => return Err(x.unsupported("no reduction mapping")),
    };
    let r = if out_d != in_d && !matches!(name.as_str(), "sum" | "all" | "any") {
        x.cast(&r, out_d)?
    } else {
        r
    };
    // A full reduction keeping no dims is 0-d in both.
    x.finish_with(&r)
}

/// `p_norm(x, porder, axis, epsilon, keepdim, asvector)`.
pub(crate) fn p_norm(x: &mut Exporter<'_>) -> R {
    let mut a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let d = x.in_dtype(0)?;
    let attrs = x.attrs();
    let p = attrs.f64_or("porder", 2.0)?;
    let axis = attrs.i64_or("axis", -1)?;
    let keep = attrs.bool_or("keepdim", false)?;
    let asvector = attrs.bool_or("asvector", false)?;
    let axes = if asvector {
        a = x.reshape(&a, &[-1]);
        vec![0]
    } else {
        vec![norm_axis(axis, rank)]
    };
    let r = if p == 2.0 {
        reduce(x, "ReduceL2", &a, &axes, keep)
    } else if p == 1.0 {
        reduce(x, "ReduceL1", &a, &axes, keep)
    } else if p.is_infinite() {
        let ab = x.node1("Abs", &[&a], vec![]);
        let op = if p > 0.0 { "ReduceMax" } else { "ReduceMin" };
        reduce(x, op, &ab, &axes, keep)
    } else if p == 0.0 {
        let zero = x.const_scalar(d, 0.0)?;
        let nz = x.node1("Equal", &[&a, &zero], vec![]);
        let nz = x.node1("Not", &[&nz], vec![]);
        let nz = x.cast(&nz, d)?;
        reduce(x, "ReduceSum", &nz, &axes, keep)
    } else {
        let ab = x.node1("Abs", &[&a], vec![]);
        let pk = x.const_scalar(d, p)?;
        let pw = x.node1("Pow", &[&ab, &pk], vec![]);
        let s = reduce(x, "ReduceSum", &pw, &axes, keep);
        let inv = x.const_scalar(d, 1.0 / p)?;
        x.node1("Pow", &[&s, &inv], vec![])
    };
    let r = if asvector && keep {
        x.reshape(&r, &vec![1; rank as usize])
    } else {
        r
    };
    x.finish_with(&r)
}

/// `set_value`, `set_value_with_tensor` and their in-place forms: the
/// written positions found by slicing an index grid of x, then a
/// `ScatterND` of the (broadcast) values into the flattened x.
pub(crate) fn set_value(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let rank = x.in_rank(0)?;
    let with_tensor = x.op_name().contains("with_tensor");
    let first = if with_tensor { 2 } else { 1 };
    let attrs = x.attrs();
    let axes: Vec<i64> = attrs
        .ints("axes")?
        .into_iter()
        .map(|v| norm_axis(v, rank))
        .collect();
    let decrease = attrs.ints_or("decrease_axes", &[])?;
    let none_axes = attrs.ints_or("none_axes", &[])?;
    if !none_axes.is_empty() {
        return Err(x.unsupported("none_axes"));
    }
    let starts = x.int_array_input(first, "starts")?;
    let ends = x.int_array_input(first + 1, "ends")?;
    let steps = x.int_array_input(first + 2, "steps")?;
    let values = if with_tensor {
        let v = x.input(1)?;
        if x.in_dtype(1)? == d {
            v
        } else {
            x.cast(&v, d)?
        }
    } else {
        let vals = attrs.f64s_opt("values")?.unwrap_or_default();
        let shape = attrs.ints_or("shape", &[])?;
        x.const_values(d, &shape, &vals)?
    };
    // Positions of x as a grid of flat indices.
    let shape = x.node1("Shape", &[&a], vec![]);
    let numel = x.node1("ReduceProd", &[&shape], vec![a_int("keepdims", 0)]);
    let zero = x.const_scalar(DType::Int64, 0.0)?;
    let one = x.const_scalar(DType::Int64, 1.0)?;
    let flat_idx = x.node1("Range", &[&zero, &numel, &one], vec![]);
    let grid = x.node1("Reshape", &[&flat_idx, &shape], vec![]);
    let ax = x.const_i64s(&axes);
    let picked = x.node1("Slice", &[&grid, &starts, &ends, &ax, &steps], vec![]);
    let picked_shape = x.node1("Shape", &[&picked], vec![]);
    // Values broadcast to the slice as Paddle sees it (decreased axes gone).
    let target = if decrease.is_empty() {
        picked_shape.clone()
    } else {
        let mut dd: Vec<i64> = decrease.iter().map(|&v| norm_axis(v, rank)).collect();
        dd.sort_unstable();
        let sq = x.squeeze(&picked, &dd);
        x.node1("Shape", &[&sq], vec![])
    };
    let vexp = x.node1("Expand", &[&values, &target], vec![]);
    let vflat = x.reshape(&vexp, &[-1]);
    let idx = x.reshape(&picked, &[-1, 1]);
    let aflat = x.reshape(&a, &[-1]);
    let scattered = x.node1("ScatterND", &[&aflat, &idx, &vflat], vec![]);
    let out = out_inplace(x);
    x.node("Reshape", &[&scattered, &shape], &[&out], vec![]);
    Ok(())
}

/// `index_sample(x, index)`: per-row gather.
pub(crate) fn index_sample(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let idx = x.input(1)?;
    let out = x.out(0);
    x.node(
        "GatherElements",
        &[&a, &idx],
        &[&out],
        vec![a_int("axis", 1)],
    );
    Ok(())
}
