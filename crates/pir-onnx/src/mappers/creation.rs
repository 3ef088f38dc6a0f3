//! Constants and tensors made from scalars: `full`, `full_int_array`,
//! `assign_value`, `full_like`, `full_with_tensor`, `arange`, `linspace`,
//! `eye`, `one_hot`.

use pir_params::DType;

use crate::export::{a_int, a_tensor, encode_values, Exporter, Known};
use crate::proto::TensorProto;
use crate::ExportError;

type R = Result<(), ExportError>;

/// Constants larger than this are made with `ConstantOfShape` (when all
/// elements are equal) instead of stored.
const INLINE_ELEMENTS: i64 = 64;

/// Stores result 0 as a constant of the given elements (known to mappers
/// reading it).
fn constant(x: &mut Exporter<'_>, dtype: DType, dims: &[i64], values: Vec<f64>) -> R {
    let raw = encode_values(dtype, &values)
        .ok_or_else(|| x.unsupported(format!("a {dtype} constant")))?;
    let data_type = x.onnx_type(dtype)? as i32;
    let out = x.out(0);
    x.lazy_initializer(TensorProto {
        dims: dims.to_vec(),
        data_type,
        name: out.clone(),
        raw_data: raw,
        ..Default::default()
    });
    let v = x.result(0).ok_or_else(|| x.unsupported("no result"))?;
    x.set_known(v, Known { values });
    Ok(())
}

/// Result 0 of the op: a tensor of `shape` (a 1-D int64 value) whose
/// elements are all `value`.
pub(crate) fn filled(x: &mut Exporter<'_>, shape: &str, dtype: DType, value: f64) -> R {
    let t = fill_value(x, dtype, value)?;
    let out = x.out(0);
    x.node(
        "ConstantOfShape",
        &[shape],
        &[&out],
        vec![a_tensor("value", t)],
    );
    Ok(())
}

/// A `ConstantOfShape` value attribute: one element of `dtype`.
fn fill_value(x: &Exporter<'_>, dtype: DType, value: f64) -> Result<TensorProto, ExportError> {
    Ok(TensorProto {
        dims: vec![1],
        data_type: x.onnx_type(dtype)? as i32,
        raw_data: encode_values(dtype, &[value])
            .ok_or_else(|| x.unsupported(format!("a {dtype} fill value")))?,
        ..Default::default()
    })
}

/// `full(shape, value, dtype)`.
pub(crate) fn full(x: &mut Exporter<'_>) -> R {
    let attrs = x.attrs();
    let value = attrs.f64_or("value", 0.0)?;
    let dtype = x.out_dtype(0)?;
    let dims = attrs.ints("shape")?;
    let n: i64 = dims.iter().product();
    if dims.iter().any(|&d| d < 0) {
        return Err(x.unsupported("a shape with unknown dims"));
    }
    if n <= INLINE_ELEMENTS {
        return constant(x, dtype, &dims, vec![value; n as usize]);
    }
    let shape = x.const_i64s(&dims);
    filled(x, &shape, dtype, value)
}

/// `full_int_array(value, dtype)`.
pub(crate) fn full_int_array(x: &mut Exporter<'_>) -> R {
    let values = x.attrs().ints("value")?;
    let dtype = x.out_dtype(0)?;
    let n = values.len() as i64;
    constant(
        x,
        dtype,
        &[n],
        values.into_iter().map(|v| v as f64).collect(),
    )
}

/// `assign_value(shape, dtype, values)` and its in-place form.
pub(crate) fn assign_value(x: &mut Exporter<'_>) -> R {
    let attrs = x.attrs();
    let values = attrs.f64s_opt("values")?.unwrap_or_default();
    let dims = attrs.ints("shape")?;
    let dtype = x.out_dtype(0)?;
    let n: i64 = dims.iter().product();
    if n as usize != values.len() {
        return Err(x.unsupported("values do not fill the shape"));
    }
    constant(x, dtype, &dims, values)?;
    if x.op_name().ends_with('_') {
        let out = x.name_of(x.result(0).ok_or_else(|| x.unsupported("no result"))?)?;
        x.rename_operand(0, out);
    }
    Ok(())
}

/// `full_like(x, value, dtype)`.
pub(crate) fn full_like(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let dtype = x.out_dtype(0)?;
    let value = match x.known(1).filter(|k| k.values.len() == 1) {
        Some(k) => k.values[0],
        None if x.has_input(1) => {
            // A value computed at run time: broadcast it.
            let v = x.input(1)?;
            let vd = x.in_dtype(1)?;
            let v = if vd == dtype { v } else { x.cast(&v, dtype)? };
            let v = x.reshape(&v, &[]);
            let shape = x.node1("Shape", &[&a], vec![]);
            let out = x.out(0);
            x.node("Expand", &[&v, &shape], &[&out], vec![]);
            return Ok(());
        }
        None => x.attrs().f64_or("value", 0.0)?,
    };
    let shape = x.node1("Shape", &[&a], vec![]);
    filled(x, &shape, dtype, value)
}

/// `full_with_tensor(value, shape, dtype)`.
pub(crate) fn full_with_tensor(x: &mut Exporter<'_>) -> R {
    let dtype = x.out_dtype(0)?;
    let v = x.input(0)?;
    let vd = x.in_dtype(0)?;
    let v = if vd == dtype { v } else { x.cast(&v, dtype)? };
    let v = x.reshape(&v, &[]);
    let shape = x.int_array_input(1, "shape")?;
    let out = x.out(0);
    x.node("Expand", &[&v, &shape], &[&out], vec![]);
    Ok(())
}

/// `full_batch_size_like(input, shape, value, input_dim_idx, output_dim_idx)`.
pub(crate) fn full_batch_size_like(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let attrs = x.attrs();
    let shape = attrs.ints("shape")?;
    let value = attrs.f64_or("value", 0.0)?;
    let in_idx = attrs.i64_or("input_dim_idx", 0)?;
    let out_idx = attrs.i64_or("output_dim_idx", 0)?;
    let dtype = x.out_dtype(0)?;
    let s = x.node1("Shape", &[&a], vec![]);
    let idx = x.const_i64s(&[in_idx]);
    let batch = x.node1("Gather", &[&s, &idx], vec![a_int("axis", 0)]);
    let mut parts = Vec::new();
    for (i, &d) in shape.iter().enumerate() {
        parts.push(if i as i64 == out_idx {
            batch.clone()
        } else {
            x.const_i64s(&[d])
        });
    }
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    let full_shape = x.node1("Concat", &refs, vec![a_int("axis", 0)]);
    let t = fill_value(x, dtype, value)?;
    let out = x.out(0);
    x.node(
        "ConstantOfShape",
        &[&full_shape],
        &[&out],
        vec![a_tensor("value", t)],
    );
    Ok(())
}

/// A 0-d input of `dtype` from operand `i`.
fn scalar_input(x: &mut Exporter<'_>, i: usize, dtype: DType) -> Result<String, ExportError> {
    let v = x.input(i)?;
    let d = x.in_dtype(i)?;
    let v = if d == dtype { v } else { x.cast(&v, dtype)? };
    Ok(x.reshape(&v, &[]))
}

/// `arange(start, end, step, dtype)`.
pub(crate) fn arange(x: &mut Exporter<'_>) -> R {
    let dtype = x.out_dtype(0)?;
    if let (Some(s), Some(e), Some(st)) = (x.known(0), x.known(1), x.known(2)) {
        let (s, e, st) = (s.values[0], e.values[0], st.values[0]);
        if st != 0.0 {
            let n = ((e - s) / st).ceil().max(0.0) as i64;
            if n <= 1 << 16 {
                let values: Vec<f64> = (0..n).map(|i| s + i as f64 * st).collect();
                return constant(x, dtype, &[n], values);
            }
        }
    }
    let s = scalar_input(x, 0, dtype)?;
    let e = scalar_input(x, 1, dtype)?;
    let st = scalar_input(x, 2, dtype)?;
    let out = x.out(0);
    x.node("Range", &[&s, &e, &st], &[&out], vec![]);
    Ok(())
}

/// `linspace(start, stop, number)`: constant operands only.
pub(crate) fn linspace(x: &mut Exporter<'_>) -> R {
    let dtype = x.out_dtype(0)?;
    let (Some(s), Some(e), Some(n)) = (x.known(0), x.known(1), x.known(2)) else {
        return Err(x.unsupported("start, stop and number must be constants"));
    };
    let (s, e, n) = (s.values[0], e.values[0], n.values[0] as i64);
    if !(0..=1 << 20).contains(&n) {
        return Err(x.unsupported("number out of range"));
    }
    let step = if n > 1 { (e - s) / (n - 1) as f64 } else { 0.0 };
    let values: Vec<f64> = (0..n)
        .map(|i| {
            // Paddle fills the second half from the end, so the last
            // element is `stop` exactly.
            if i < n / 2 {
                s + step * i as f64
            } else {
                e - step * (n - 1 - i) as f64
            }
        })
        .collect();
    let is_int = matches!(dtype, DType::Int32 | DType::Int64);
    let values = if is_int {
        values.into_iter().map(f64::trunc).collect()
    } else {
        values
    };
    constant(x, dtype, &[n], values)
}

/// `eye(num_rows, num_columns)`: constant sizes only.
pub(crate) fn eye(x: &mut Exporter<'_>) -> R {
    let dtype = x.out_dtype(0)?;
    let rows = crate::mappers::shape::scalar_arg(x, 0, "num_rows", 0)?;
    let cols = crate::mappers::shape::scalar_arg(x, 1, "num_columns", -1)?;
    let cols = if cols < 0 { rows } else { cols };
    if rows < 0 || rows * cols > 1 << 22 {
        return Err(x.unsupported("size out of range"));
    }
    let mut values = vec![0.0; (rows * cols) as usize];
    for i in 0..rows.min(cols) {
        values[(i * cols + i) as usize] = 1.0;
    }
    constant(x, dtype, &[rows, cols], values)
}

/// `one_hot(x, num_classes)`.
pub(crate) fn one_hot(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let depth = crate::mappers::shape::scalar_arg(x, 1, "num_classes", -1)?;
    if depth <= 0 {
        return Err(x.unsupported("num_classes must be a positive constant"));
    }
    let dtype = x.out_dtype(0)?;
    let depth = x.const_values(DType::Int64, &[], &[depth as f64])?;
    let values = x.const_values(dtype, &[2], &[0.0, 1.0])?;
    let out = x.out(0);
    x.node(
        "OneHot",
        &[&a, &depth, &values],
        &[&out],
        vec![a_int("axis", -1)],
    );
    Ok(())
}
