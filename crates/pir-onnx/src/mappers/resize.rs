//! Resizing: the `nearest/bilinear/bicubic/linear/trilinear_interp` ops as
//! ONNX `Resize`, with Paddle's coordinate conventions (`align_corners`,
//! `align_mode`), sizes from attributes, operands or the declared type, and
//! NHWC inputs between transposes.

use pir_params::DType;

use crate::export::{a_float, a_int, a_str, Exporter};
use crate::mappers::nn::{channels_first, channels_last, dims_channels_first, out_channels};
use crate::ExportError;

type R = Result<(), ExportError>;

/// The nearest/bilinear/bicubic/linear/trilinear `*_interp` ops.
pub(crate) fn interp(x: &mut Exporter<'_>) -> R {
    let mut a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let n = (rank - 2) as usize;
    let attrs = x.attrs();
    let format = attrs.str_or("data_format", "NCHW")?;
    let method = x
        .op_name()
        .trim_start_matches("pd_op.")
        .trim_end_matches("_interp")
        .to_string();
    let align_corners = attrs.bool_or("align_corners", false)?;
    let align_mode = attrs.i64_or("align_mode", 1)?;
    let last = channels_last(&format);
    a = channels_first(x, a, rank, last);
    let out_dims = dims_channels_first(x.out_dims(0)?, rank, last);
    let (mode, coord) = match method.as_str() {
        "nearest" => (
            "nearest",
            if align_corners {
                "align_corners"
            } else {
                "asymmetric"
            },
        ),
        "bicubic" => (
            "cubic",
            if align_corners {
                "align_corners"
            } else {
                "half_pixel"
            },
        ),
        _ => (
            "linear",
            if align_corners {
                "align_corners"
            } else if align_mode == 0 {
                "half_pixel"
            } else {
                "asymmetric"
            },
        ),
    };
    let spatial_out = &out_dims[2..];
    let sizes = if spatial_out.iter().all(|&d| d >= 0) {
        let in_shape = x.node1("Shape", &[&a], vec![]);
        let zero = x.const_i64s(&[0]);
        let two = x.const_i64s(&[2]);
        let nc = x.node1("Slice", &[&in_shape, &zero, &two], vec![]);
        let sp = x.const_i64s(spatial_out);
        x.node1("Concat", &[&nc, &sp], vec![a_int("axis", 0)])
    } else {
        // Sizes from the out_size / size_tensor operands, else scales.
        if x.has_input(1) || x.has_input(2) {
            let s = if x.has_input(1) {
                let s = x.input(1)?;
                x.cast(&s, DType::Int64)?
            } else {
                x.int_array_input(2, "size_tensor")?
            };
            let in_shape = x.node1("Shape", &[&a], vec![]);
            let zero = x.const_i64s(&[0]);
            let two = x.const_i64s(&[2]);
            let nc = x.node1("Slice", &[&in_shape, &zero, &two], vec![]);
            x.node1("Concat", &[&nc, &s], vec![a_int("axis", 0)])
        } else if x.has_input(3) {
            let sc = x.input(3)?;
            let sc = x.cast(&sc, DType::Float32)?;
            let count = x.in_dims(3)?.first().copied().unwrap_or(-1);
            let sc = if count == 1 && n > 1 {
                let reps = x.const_i64s(&[n as i64]);
                x.node1("Tile", &[&sc, &reps], vec![])
            } else {
                sc
            };
            let ones = x.const_values(DType::Float32, &[2], &[1.0, 1.0])?;
            let scales = x.node1("Concat", &[&ones, &sc], vec![a_int("axis", 0)]);
            let r = resize(x, &[&a, "", &scales], mode, coord);
            out_channels(x, r, rank, last);
            return Ok(());
        } else {
            let scale = attrs.f64s_opt("scale")?.unwrap_or_default();
            let scale = if scale.len() == 1 {
                vec![scale[0]; n]
            } else {
                scale
            };
            if scale.len() != n {
                return Err(x.unsupported("output size unknown"));
            }
            let mut sc = vec![1.0, 1.0];
            sc.extend(scale);
            let scales = x.const_values(DType::Float32, &[rank], &sc)?;
            let r = resize(x, &[&a, "", &scales], mode, coord);
            out_channels(x, r, rank, last);
            return Ok(());
        }
    };
    let r = resize(x, &[&a, "", "", &sizes], mode, coord);
    out_channels(x, r, rank, last);
    Ok(())
}

/// A `Resize` node of `inputs` (X, roi, scales[, sizes]) with Paddle's
/// rounding of nearest neighbours and cubic coefficient.
fn resize(x: &mut Exporter<'_>, inputs: &[&str], mode: &str, coord: &str) -> String {
    x.node1(
        "Resize",
        inputs,
        vec![
            a_str("mode", mode),
            a_str("coordinate_transformation_mode", coord),
            a_str("nearest_mode", "floor"),
            a_float("cubic_coeff_a", -0.75),
        ],
    )
}
