//! Random ops: `uniform`, `gaussian`, `randint`, `uniform_random_batch_size_like`,
//! `exponential_`, `bernoulli`, `randperm`, `multinomial`, `gumbel_softmax`,
//! `poisson` and `dirichlet` (draws by rejection, in an ONNX `Loop` that
//! runs until every element has its draw).
//!
//! Each draws from ONNX's generators (`RandomUniformLike`,
//! `RandomNormalLike`, `Multinomial`) and shapes the draw the way Paddle's
//! kernel does, so an exported op samples the same distribution with the
//! same shape and dtype — never the same numbers: Paddle's generator is not
//! ONNX's. A seed other than 0 becomes the ONNX `seed` (runs repeat, but
//! differ from Paddle's). Degenerate draws are exact: `uniform(min, min)`
//! gives `min`, `gaussian(std=0)` gives `mean`, `bernoulli` of 0 or 1 gives
//! 0 or 1, `randint(k, k+1)` gives `k`. `scripts/onnx_check.py` judges
//! outputs that depend on a random node by shape and dtype only.

use pir_params::DType;

use crate::export::{a_float, a_graph, a_int, Exporter};
use crate::mappers::index::reduce;
use crate::mappers::shape::norm_axis;
use crate::proto::{type_proto, DataType, TypeProto, ValueInfoProto};
use crate::ExportError;

type R = Result<(), ExportError>;

/// The dtypes ONNX's generators produce.
fn check_float(x: &Exporter<'_>, d: DType) -> Result<(), ExportError> {
    if matches!(d, DType::Float16 | DType::Float32 | DType::Float64) {
        Ok(())
    } else {
        Err(x.unsupported(format!("ONNX draws random {d} numbers only as floats")))
    }
}

/// A `seed` attribute for a Paddle seed (0: a fresh one each run).
fn seed_attr(seed: i64) -> Vec<crate::proto::AttributeProto> {
    if seed == 0 {
        Vec::new()
    } else {
        vec![a_float("seed", seed as f64)]
    }
}

/// Uniform draws in `[0, 1)` of `dtype` shaped like `like`.
fn uniform_like(
    x: &mut Exporter<'_>,
    like: &str,
    dtype: DType,
    seed: i64,
) -> Result<String, ExportError> {
    check_float(x, dtype)?;
    let mut attrs = vec![
        a_int("dtype", x.onnx_type(dtype)? as i64),
        a_float("low", 0.0),
        a_float("high", 1.0),
    ];
    attrs.extend(seed_attr(seed));
    Ok(x.node1("RandomUniformLike", &[like], attrs))
}

/// A float tensor of zeros whose shape is the int64 1-D tensor `shape`.
fn zeros_of_shape(x: &mut Exporter<'_>, shape: &str) -> String {
    x.node1("ConstantOfShape", &[shape], vec![])
}

/// `low + (high - low) * u`, the affine map of Paddle's uniform kernels.
fn stretch(x: &mut Exporter<'_>, u: &str, low: &str, high: &str) -> Result<String, ExportError> {
    let span = x.node1("Sub", &[high, low], vec![]);
    let scaled = x.node1("Mul", &[u, &span], vec![]);
    Ok(x.node1("Add", &[&scaled, low], vec![]))
}

/// Operand `i` (a one-element tensor) as a 0-d value of `dtype`.
fn scalar_operand(x: &mut Exporter<'_>, i: usize, dtype: DType) -> Result<String, ExportError> {
    let v = x.input(i)?;
    let v = if x.in_dtype(i)? == dtype {
        v
    } else {
        x.cast(&v, dtype)?
    };
    Ok(x.reshape(&v, &[]))
}

/// `uniform(shape, min, max, dtype, seed)`.
pub(crate) fn uniform(x: &mut Exporter<'_>) -> R {
    let dtype = x.out_dtype(0)?;
    let seed = x.attrs().i64_or("seed", 0)?;
    let shape = x.int_array_input(0, "shape")?;
    let zeros = zeros_of_shape(x, &shape);
    let u = uniform_like(x, &zeros, dtype, seed)?;
    let low = scalar_operand(x, 1, dtype)?;
    let high = scalar_operand(x, 2, dtype)?;
    let r = stretch(x, &u, &low, &high)?;
    x.finish_with(&r)
}

/// `uniform_random_batch_size_like(input, shape, input_dim_idx,
/// output_dim_idx, min, max, seed, dtype)`: `shape` with one dim taken from
/// the input.
pub(crate) fn uniform_batch_size_like(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let attrs = x.attrs();
    let shape = attrs.ints("shape")?;
    let in_idx = attrs.i64_or("input_dim_idx", 0)?;
    let out_idx = attrs.i64_or("output_dim_idx", 0)?;
    let (low, high) = (attrs.f64_or("min", -1.0)?, attrs.f64_or("max", 1.0)?);
    let seed = attrs.i64_or("seed", 0)?;
    if attrs.i64_or("diag_num", 0)? > 0 {
        return Err(x.unsupported("diagonal values (diag_num > 0)"));
    }
    if !(0..shape.len() as i64).contains(&out_idx) {
        return Err(x.unsupported(format!("output_dim_idx {out_idx} is out of range")));
    }
    let dtype = x.out_dtype(0)?;
    // The attribute's shape with its `output_dim_idx` entry replaced by the
    // input's `input_dim_idx` dim.
    let dims = x.node1("Shape", &[&a], vec![]);
    let pick = x.const_i64s(&[in_idx]);
    let batch = x.node1("Gather", &[&dims, &pick], vec![a_int("axis", 0)]);
    let base = x.const_i64s(&shape);
    let at = x.const_i64s(&[out_idx]);
    let full_shape = x.node1("ScatterElements", &[&base, &at, &batch], vec![]);
    let zeros = zeros_of_shape(x, &full_shape);
    let u = uniform_like(x, &zeros, dtype, seed)?;
    let low = x.const_scalar(dtype, low)?;
    let high = x.const_scalar(dtype, high)?;
    let r = stretch(x, &u, &low, &high)?;
    x.finish_with(&r)
}

/// `gaussian(shape, mean, std, seed, dtype)`: `mean + std * n`, `n` standard
/// normal.
pub(crate) fn gaussian(x: &mut Exporter<'_>) -> R {
    let dtype = x.out_dtype(0)?;
    check_float(x, dtype)?;
    let attrs = x.attrs();
    let mean = attrs.f64_or("mean", 0.0)?;
    let std = attrs.f64_or("std", 1.0)?;
    let seed = attrs.i64_or("seed", 0)?;
    let shape = x.int_array_input(0, "shape")?;
    let zeros = zeros_of_shape(x, &shape);
    let mut gen = vec![
        a_int("dtype", x.onnx_type(dtype)? as i64),
        a_float("mean", 0.0),
        a_float("scale", 1.0),
    ];
    gen.extend(seed_attr(seed));
    let n = x.node1("RandomNormalLike", &[&zeros], gen);
    let std = x.const_scalar(dtype, std)?;
    let mean = x.const_scalar(dtype, mean)?;
    let scaled = x.node1("Mul", &[&n, &std], vec![]);
    let out = x.out(0);
    x.node("Add", &[&scaled, &mean], &[&out], vec![]);
    Ok(())
}

/// `randint(shape, low, high, dtype)`: `floor(low + (high - low) * u)`,
/// drawn in float64 and kept below `high`.
pub(crate) fn randint(x: &mut Exporter<'_>) -> R {
    let attrs = x.attrs();
    let (low, high) = (attrs.i64_or("low", 0)?, attrs.i64_or("high", 1)?);
    if high <= low {
        return Err(x.unsupported(format!("an empty range [{low}, {high})")));
    }
    let shape = x.int_array_input(0, "shape")?;
    let zeros = zeros_of_shape(x, &shape);
    let u = uniform_like(x, &zeros, DType::Float64, 0)?;
    let lo = x.const_scalar(DType::Float64, low as f64)?;
    let hi = x.const_scalar(DType::Float64, high as f64)?;
    let r = stretch(x, &u, &lo, &hi)?;
    let r = x.node1("Floor", &[&r], vec![]);
    // `u * span` may round up to `span` itself.
    let top = x.const_scalar(DType::Float64, (high - 1) as f64)?;
    let r = x.node1("Min", &[&r, &top], vec![]);
    x.cast_out(0, &r)
}

/// `exponential_(x, lam)`: `x` refilled with `-log(1 - u) / lam`.
pub(crate) fn exponential(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let dtype = x.in_dtype(0)?;
    let lam = x.attrs().f64_or("lam", 1.0)?;
    let u = uniform_like(x, &a, dtype, 0)?;
    let one = x.const_scalar(dtype, 1.0)?;
    let rest = x.node1("Sub", &[&one, &u], vec![]);
    let log = x.node1("Log", &[&rest], vec![]);
    let k = x.const_scalar(dtype, -1.0 / lam)?;
    let out = crate::mappers::elementwise::out_inplace(x);
    x.node("Mul", &[&log, &k], &[&out], vec![]);
    Ok(())
}

/// `bernoulli(x)`: 1 where a uniform draw falls below the probability.
pub(crate) fn bernoulli(x: &mut Exporter<'_>) -> R {
    let p = x.input(0)?;
    let dtype = x.in_dtype(0)?;
    let u = uniform_like(x, &p, dtype, 0)?;
    let hit = x.node1("Less", &[&u, &p], vec![]);
    x.cast_out(0, &hit)?;
    Ok(())
}

/// `randperm(n, dtype)`: the order that sorts `n` uniform draws.
pub(crate) fn randperm(x: &mut Exporter<'_>) -> R {
    let n = x.attrs().i64("n")?;
    if n < 1 {
        return Err(x.unsupported(format!("n = {n}")));
    }
    let shape = x.const_i64s(&[n]);
    let zeros = zeros_of_shape(x, &shape);
    let u = uniform_like(x, &zeros, DType::Float32, 0)?;
    let k = x.const_i64s(&[n]);
    let (values, order) = (x.tmp(), x.tmp());
    x.node("TopK", &[&u, &k], &[&values, &order], vec![]);
    x.cast_out(0, &order)?;
    Ok(())
}

/// Gumbel(0, 1) noise shaped like `like`: `-log(-log(u))`.
fn gumbel_noise(x: &mut Exporter<'_>, like: &str, dtype: DType) -> Result<String, ExportError> {
    let u = uniform_like(x, like, dtype, 0)?;
    let l = x.node1("Log", &[&u], vec![]);
    let l = x.node1("Neg", &[&l], vec![]);
    let l = x.node1("Log", &[&l], vec![]);
    Ok(x.node1("Neg", &[&l], vec![]))
}

/// `multinomial(x, num_samples, replacement)`: category draws from the
/// (unnormalised) probabilities of each row. With replacement ONNX's
/// `Multinomial`; without, the `num_samples` largest of `log p + Gumbel`
/// (the Gumbel-top-k draw, which samples without replacement).
pub(crate) fn multinomial(x: &mut Exporter<'_>) -> R {
    let p = x.input(0)?;
    let rank = x.in_rank(0)?;
    let dtype = x.in_dtype(0)?;
    let samples = x
        .known_ints(1)
        .and_then(|v| v.first().copied())
        .ok_or_else(|| x.unsupported("num_samples must be a constant"))?;
    let replacement = x.attrs().bool_or("replacement", false)?;
    if !(1..=2).contains(&rank) || samples < 1 {
        return Err(x.unsupported("a 1-D or 2-D input and at least one sample"));
    }
    let rows = if rank == 1 { x.unsqueeze(&p, &[0]) } else { p };
    let log = x.node1("Log", &[&rows], vec![]);
    let drawn = if replacement {
        x.node1(
            "Multinomial",
            &[&log],
            vec![
                a_int("sample_size", samples),
                a_int("dtype", crate::proto::DataType::Int64 as i64),
            ],
        )
    } else {
        let g = gumbel_noise(x, &log, dtype)?;
        let keys = x.node1("Add", &[&log, &g], vec![]);
        let k = x.const_i64s(&[samples]);
        let (values, order) = (x.tmp(), x.tmp());
        x.node("TopK", &[&keys, &k], &[&values, &order], vec![]);
        order
    };
    let drawn = if rank == 1 {
        x.squeeze(&drawn, &[0])
    } else {
        drawn
    };
    x.cast_out(0, &drawn)?;
    Ok(())
}

/// `gumbel_softmax(x, temperature, hard, axis)`: softmax of
/// `(x + Gumbel) / temperature`; with `hard`, the one-hot of its largest
/// entry (what Paddle's straight-through result equals in value).
pub(crate) fn gumbel_softmax(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let dtype = x.in_dtype(0)?;
    let rank = x.in_rank(0)?;
    let attrs = x.attrs();
    let temperature = attrs.f64_or("temperature", 1.0)?;
    let hard = attrs.bool_or("hard", false)?;
    let axis = norm_axis(attrs.i64_or("axis", -1)?, rank.max(1));
    let g = gumbel_noise(x, &a, dtype)?;
    let y = x.node1("Add", &[&a, &g], vec![]);
    let t = x.const_scalar(dtype, temperature)?;
    let y = x.node1("Div", &[&y, &t], vec![]);
    let y = x.node1("Softmax", &[&y], vec![a_int("axis", axis)]);
    let out = x.out(0);
    if hard {
        let top = reduce(x, "ReduceMax", &y, &[axis], true);
        let hit = x.node1("Equal", &[&y, &top], vec![]);
        let to = x.onnx_type(dtype)?;
        x.node("Cast", &[&hit], &[&out], vec![a_int("to", to as i64)]);
    } else {
        x.node("Identity", &[&y], &[&out], vec![]);
    }
    Ok(())
}

/// An ONNX tensor type of element `elem` and unknown shape.
pub(crate) fn any_shape(elem: DataType) -> TypeProto {
    TypeProto {
        value: Some(type_proto::Value::TensorType(type_proto::Tensor {
            elem_type: elem as i32,
            shape: None,
        })),
    }
}

/// A draw by rejection: a `Loop` over the state `init` (values and their
/// element types) whose body `step` maps the state to the next one and a
/// bool scalar, whether any element still draws. Returns the final state.
fn draw_until_done(
    x: &mut Exporter<'_>,
    init: &[(String, DataType)],
    step: impl FnOnce(&mut Exporter<'_>, &[String]) -> Result<(Vec<String>, String), ExportError>,
) -> Result<Vec<String>, ExportError> {
    let body = x.subgraph("draw", |x| {
        let iteration = x.tmp();
        let cond = x.tmp();
        // ONNX runtimes want the iteration count's shape stated (a scalar).
        let mut scalar = any_shape(DataType::Int64);
        if let Some(type_proto::Value::TensorType(t)) = &mut scalar.value {
            t.shape = Some(crate::proto::TensorShapeProto { dim: vec![] });
        }
        x.graph_input(value_info(iteration, scalar));
        x.graph_input(value_info(cond, any_shape(DataType::Bool)));
        let mut state = Vec::new();
        for (_, elem) in init {
            let name = x.tmp();
            x.graph_input(value_info(name.clone(), any_shape(*elem)));
            state.push(name);
        }
        let (next, more) = step(x, &state)?;
        let more_out = x.tmp();
        x.node("Identity", &[&more], &[&more_out], vec![]);
        x.graph_output(value_info(more_out, any_shape(DataType::Bool)));
        for (value, (_, elem)) in next.iter().zip(init) {
            let out = x.tmp();
            x.node("Identity", &[value], &[&out], vec![]);
            x.graph_output(value_info(out, any_shape(*elem)));
        }
        Ok(())
    })?;
    let start = x.const_values(DType::Bool, &[], &[1.0])?;
    let mut inputs = vec![String::new(), start];
    inputs.extend(init.iter().map(|(n, _)| n.clone()));
    let outputs: Vec<String> = init.iter().map(|_| x.tmp()).collect();
    let in_refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let out_refs: Vec<&str> = outputs.iter().map(String::as_str).collect();
    x.node("Loop", &in_refs, &out_refs, vec![a_graph("body", body)]);
    Ok(outputs)
}

pub(crate) fn value_info(name: String, ty: TypeProto) -> ValueInfoProto {
    ValueInfoProto {
        name,
        r#type: Some(ty),
        doc_string: String::new(),
    }
}

/// Whether any element of the bool `t` is true, as a bool scalar.
fn any(x: &mut Exporter<'_>, t: &str) -> Result<String, ExportError> {
    let n = x.cast(t, DType::Float32)?;
    let m = reduce(x, "ReduceMax", &n, &[], false);
    let zero = x.const_scalar(DType::Float32, 0.0)?;
    Ok(x.node1("Greater", &[&m, &zero], vec![]))
}

/// `poisson(x)`: Knuth's draw per element: multiply uniforms until the
/// product falls to `exp(-lambda)` or below; the count of factors less one.
/// In float64 (exact for rates below ~700, where `exp(-rate)` underflows);
/// iterations grow with the largest rate.
pub(crate) fn poisson(x: &mut Exporter<'_>) -> R {
    let rate = x.input(0)?;
    let d = x.in_dtype(0)?;
    check_float(x, d)?;
    let rate = x.cast(&rate, DType::Float64)?;
    let neg = x.node1("Neg", &[&rate], vec![]);
    let floor = x.node1("Exp", &[&neg], vec![]);
    let zero = x.const_scalar(DType::Float64, 0.0)?;
    let one = x.const_scalar(DType::Float64, 1.0)?;
    let count = x.node1("Mul", &[&rate, &zero], vec![]);
    let product = x.node1("Add", &[&count, &one], vec![]);
    let yes = x.const_scalar(DType::Bool, 1.0)?;
    let shape = x.node1("Shape", &[&rate], vec![]);
    let active = x.node1("Expand", &[&yes, &shape], vec![]);
    let init = [
        (count, DataType::Double),
        (product, DataType::Double),
        (active, DataType::Bool),
    ];
    let done = draw_until_done(x, &init, |x, s| {
        let (count, product, active) = (&s[0], &s[1], &s[2]);
        let u = uniform_like(x, product, DType::Float64, 0)?;
        let next = x.node1("Mul", &[product, &u], vec![]);
        let product = x.node1("Where", &[active, &next, product], vec![]);
        let step = x.cast(active, DType::Float64)?;
        let count = x.node1("Add", &[count, &step], vec![]);
        let active = x.node1("Greater", &[&product, &floor], vec![]);
        let more = any(x, &active)?;
        Ok((vec![count, product, active], more))
    })?;
    let k = x.node1("Sub", &[&done[0], &one], vec![]);
    x.cast_out(0, &k)?;
    Ok(())
}

/// Gamma(alpha, 1) draws shaped like the float64 `alpha`: Marsaglia and
/// Tsang's rejection method at `alpha + 1` where `alpha < 1` (then scaled
/// by `u^(1/alpha)`), at `alpha` elsewhere.
fn gamma(x: &mut Exporter<'_>, alpha: &str) -> Result<String, ExportError> {
    let one = x.const_scalar(DType::Float64, 1.0)?;
    let small = x.node1("Less", &[alpha, &one], vec![]);
    let bumped = x.node1("Add", &[alpha, &one], vec![]);
    let a = x.node1("Where", &[&small, &bumped, alpha], vec![]);
    let third = x.const_scalar(DType::Float64, 1.0 / 3.0)?;
    let d = x.node1("Sub", &[&a, &third], vec![]);
    let nine = x.const_scalar(DType::Float64, 9.0)?;
    let c = x.node1("Mul", &[&d, &nine], vec![]);
    let c = x.node1("Sqrt", &[&c], vec![]);
    let c = x.node1("Reciprocal", &[&c], vec![]);
    let zero = x.const_scalar(DType::Float64, 0.0)?;
    let value = x.node1("Mul", &[&a, &zero], vec![]);
    let no = x.const_scalar(DType::Bool, 0.0)?;
    let shape = x.node1("Shape", &[&a], vec![]);
    let done = x.node1("Expand", &[&no, &shape], vec![]);
    let init = [(value, DataType::Double), (done, DataType::Bool)];
    let drawn = draw_until_done(x, &init, |x, s| {
        let (value, done) = (&s[0], &s[1]);
        let mut normal = vec![
            a_int("dtype", DataType::Double as i64),
            a_float("mean", 0.0),
            a_float("scale", 1.0),
        ];
        normal.extend(seed_attr(0));
        let z = x.node1("RandomNormalLike", &[value], normal);
        let u = uniform_like(x, value, DType::Float64, 0)?;
        // v = (1 + c z)^3, accepted when v > 0 and
        // log u < z^2 / 2 + d - d v + d log v.
        let cz = x.node1("Mul", &[&c, &z], vec![]);
        let base = x.node1("Add", &[&cz, &one], vec![]);
        let sq = x.node1("Mul", &[&base, &base], vec![]);
        let v = x.node1("Mul", &[&sq, &base], vec![]);
        let positive = x.node1("Greater", &[&v, &zero], vec![]);
        let z2 = x.node1("Mul", &[&z, &z], vec![]);
        let half = x.const_scalar(DType::Float64, 0.5)?;
        let bound = x.node1("Mul", &[&z2, &half], vec![]);
        let dv = x.node1("Mul", &[&d, &v], vec![]);
        let safe_v = x.node1("Where", &[&positive, &v, &one], vec![]);
        let log_v = x.node1("Log", &[&safe_v], vec![]);
        let d_log_v = x.node1("Mul", &[&d, &log_v], vec![]);
        let bound = x.node1("Add", &[&bound, &d], vec![]);
        let bound = x.node1("Sub", &[&bound, &dv], vec![]);
        let bound = x.node1("Add", &[&bound, &d_log_v], vec![]);
        let log_u = x.node1("Log", &[&u], vec![]);
        let below = x.node1("Less", &[&log_u, &bound], vec![]);
        let accept = x.node1("And", &[&positive, &below], vec![]);
        let fresh = x.node1("Not", &[done], vec![]);
        let take = x.node1("And", &[&accept, &fresh], vec![]);
        let value = x.node1("Where", &[&take, &dv, value], vec![]);
        let done = x.node1("Or", &[done, &take], vec![]);
        let waiting = x.node1("Not", &[&done], vec![]);
        let more = any(x, &waiting)?;
        Ok((vec![value, done], more))
    })?;
    // alpha < 1: Gamma(alpha) = Gamma(alpha + 1) * u^(1 / alpha).
    let u = uniform_like(x, &drawn[0], DType::Float64, 0)?;
    let inv = x.node1("Reciprocal", &[alpha], vec![]);
    let scale = x.node1("Pow", &[&u, &inv], vec![]);
    let scaled = x.node1("Mul", &[&drawn[0], &scale], vec![]);
    Ok(x.node1("Where", &[&small, &scaled, &drawn[0]], vec![]))
}

/// `dirichlet(alpha)`: independent Gamma(alpha_i) draws normalised over the
/// last axis.
pub(crate) fn dirichlet(x: &mut Exporter<'_>) -> R {
    let alpha = x.input(0)?;
    let d = x.in_dtype(0)?;
    check_float(x, d)?;
    let alpha = x.cast(&alpha, DType::Float64)?;
    let g = gamma(x, &alpha)?;
    let total = reduce(x, "ReduceSum", &g, &[-1], true);
    let r = x.node1("Div", &[&g, &total], vec![]);
    let r = x.cast(&r, d)?;
    x.finish_with(&r)
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_at, export_ops, op_types};

    #[test]
    fn uniform_draws_with_onnx_and_stretches_to_the_range() {
        let g = export_ops(
            r#"    (%0) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2,3]} : () -> tensor<2xi64>
    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%2) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf32>
    (%3) = "pd_op.uniform" (%0, %1, %2) {dtype:float32,place:Place(undefined:0),seed:7,stop_gradient:[false]} : (tensor<2xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.fetch" (%3) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>"#,
        );
        let draw = g
            .node
            .iter()
            .find(|n| n.op_type == "RandomUniformLike")
            .expect("a draw");
        let seed = draw.attribute.iter().find(|a| a.name == "seed");
        assert_eq!(seed.map(|a| a.f), Some(7.0), "a fixed Paddle seed is kept");
        assert!(op_types(&g).contains(&"ConstantOfShape"));
    }

    #[test]
    fn integer_random_draws_are_refused_for_float_only_generators() {
        let err = export_at(
            r#"    (%0) = "pd_op.data" () {dtype:int32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[false]} : () -> tensor<4xi32>
    (%1) = "pd_op.exponential_" (%0) {lam:1,stop_gradient:[false]} : (tensor<4xi32>) -> tensor<4xi32>
    (%2) = "pd_op.fetch" (%1) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<4xi32>) -> tensor<4xi32>"#,
            17,
        )
        .expect_err("int32 draws have no ONNX generator");
        assert!(err.to_string().contains("only as floats"), "{err}");
    }
}
