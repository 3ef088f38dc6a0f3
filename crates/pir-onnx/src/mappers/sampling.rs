//! Ops that move pixels by index or by learned offsets: the mask of
//! `max_pool*_with_index` (ONNX `MaxPool`'s indices made plane-local),
//! `unpool` and `unpool3d` (max-unpooling: a scatter into zeros), `fold` (col2im: a
//! grouped transposed convolution with one-hot kernels, exact: each output
//! pixel is a sum of the patches covering it), `deformable_conv` (bilinear
//! samples at the offset kernel positions, taken with `GridSample`, then
//! the convolution as a grouped matrix product).

use pir_params::DType;

use crate::export::{a_int, a_ints, a_str, Exporter};
use crate::mappers::more::one_hot_kernels;
use crate::ExportError;

type R = Result<(), ExportError>;

/// `unpool(x, indices, output_size, ...)` / `unpool3d`: each value of `x`
/// written at its plane-local flat index of the output plane, zeros
/// elsewhere (later writes win, as in Paddle's kernel).
pub(crate) fn unpool(x: &mut Exporter<'_>) -> R {
    let format = x.attrs().str_or("data_format", "NCHW")?;
    if format != "NCHW" && format != "NCDHW" {
        return Err(x.unsupported(format!("data_format {format}")));
    }
    let a = x.input(0)?;
    let idx = x.input(1)?;
    let out_dims = x.out_dims(0)?;
    if out_dims.len() < 3 || out_dims[2..].iter().any(|&d| d < 0) {
        return Err(x.unsupported("the output's spatial size must be known"));
    }
    let plane: i64 = out_dims[2..].iter().product();
    let d = x.in_dtype(0)?;
    let flat = x.reshape(&a, &[0, 0, -1]);
    let idx = x.cast(&idx, DType::Int64)?;
    let idx = x.reshape(&idx, &[0, 0, -1]);
    // Zeros [N, C, plane].
    let dims = x.node1("Shape", &[&a], vec![]);
    let (from, to) = (x.const_i64s(&[0]), x.const_i64s(&[2]));
    let nc = x.node1("Slice", &[&dims, &from, &to], vec![]);
    let p = x.const_i64s(&[plane]);
    let shape = x.node1("Concat", &[&nc, &p], vec![a_int("axis", 0)]);
    let zero = x.const_scalar(d, 0.0)?;
    let zeros = x.node1("Expand", &[&zero, &shape], vec![]);
    let written = x.node1(
        "ScatterElements",
        &[&zeros, &idx, &flat],
        vec![a_int("axis", 2)],
    );
    let mut target = vec![0, 0];
    target.extend_from_slice(&out_dims[2..]);
    let r = x.reshape(&written, &target);
    x.finish_with(&r)
}

/// `max_pool2d_with_index` / `max_pool3d_with_index`: the pooled values
/// as `pool2d` maps them, and the mask (the plane-local flat index of each
/// maximum, the first on ties) from the `Indices` of ONNX's `MaxPool`, which
/// count over the whole tensor: taken modulo the plane size.
pub(crate) fn max_pool_with_index(x: &mut Exporter<'_>) -> R {
    crate::mappers::nn::pool(x)?;
    if x.result(1).is_none_or(|v| x.p.use_empty(v)) {
        return Ok(());
    }
    let a = x.input(0)?;
    let dims = x.in_dims(0)?;
    let n = dims.len().saturating_sub(2);
    if n == 0 || dims[2..].iter().any(|&d| d < 0) {
        return Err(x.unsupported("the mask needs known spatial dims"));
    }
    let spatial = dims[2..].to_vec();
    let attrs = x.attrs();
    let kernel = match x.int_array(1, "kernel_size")? {
        Some(k) => k,
        None => attrs.ints("kernel_size")?,
    };
    let global = attrs.bool_or("global_pooling", false)?;
    let adaptive = attrs.bool_or("adaptive", false)?;
    let (kernel, strides, pads) = if global {
        (spatial.clone(), spatial.clone(), vec![0; 2 * n])
    } else if adaptive {
        // Equal bins only: kernel = stride = input / output.
        if kernel.len() != n
            || spatial
                .iter()
                .zip(&kernel)
                .any(|(&d, &k)| k <= 0 || d % k != 0)
        {
            return Err(x.unsupported("the mask of adaptive pooling with unequal bins"));
        }
        let k: Vec<i64> = spatial.iter().zip(&kernel).map(|(&d, &k)| d / k).collect();
        (k.clone(), k, vec![0; 2 * n])
    } else {
        let strides = attrs.ints_or("strides", &vec![1; n])?;
        let p = attrs.ints_or("paddings", &vec![0; n])?;
        if p.len() != n || kernel.len() != n {
            return Err(x.unsupported("the mask with asymmetric paddings"));
        }
        (kernel, strides, [p.clone(), p].concat())
    };
    let ceil_mode = attrs.bool_or("ceil_mode", false)?;
    let (values, indices) = (x.tmp(), x.tmp());
    x.node(
        "MaxPool",
        &[&a],
        &[&values, &indices],
        vec![
            a_ints("kernel_shape", &kernel),
            a_ints("strides", &strides),
            a_ints("pads", &pads),
            a_int("ceil_mode", i64::from(ceil_mode)),
        ],
    );
    let plane = x.const_scalar(DType::Int64, spatial.iter().product::<i64>() as f64)?;
    let local = x.node1("Mod", &[&indices, &plane], vec![]);
    x.cast_out(1, &local)?;
    Ok(())
}

/// `fold(x [N, C*kh*kw, L], output_sizes, kernel_sizes, strides, paddings,
/// dilations)` → `[N, C, H, W]`.
pub(crate) fn fold(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let attrs = x.attrs();
    let size = attrs.ints("output_sizes")?;
    let k = attrs.ints("kernel_sizes")?;
    let s = attrs.ints_or("strides", &[1, 1])?;
    let p = attrs.ints_or("paddings", &[0, 0, 0, 0])?;
    let dil = attrs.ints_or("dilations", &[1, 1])?;
    let ck = x.in_dims(0)?.get(1).copied().unwrap_or(-1);
    if [&size, &k, &s, &dil].iter().any(|v| v.len() != 2) || p.len() != 4 {
        return Err(x.unsupported("2-D sizes and 4 paddings"));
    }
    if ck <= 0 || k.iter().chain(&s).chain(&dil).any(|&v| v <= 0) {
        return Err(x.unsupported("known channels and positive kernel, strides, dilations"));
    }
    let kk = k[0] * k[1];
    if ck % kk != 0 {
        return Err(x.unsupported("channels not a multiple of the kernel size"));
    }
    let c = ck / kk;
    // Blocks along each axis, and the rows/columns the last block leaves.
    let mut blocks = [0; 2];
    let mut rest = [0; 2];
    for i in 0..2 {
        let span = size[i] + p[i] + p[i + 2] - (dil[i] * (k[i] - 1) + 1);
        if span < 0 {
            return Err(x.unsupported("the kernel is larger than the padded output"));
        }
        blocks[i] = span / s[i] + 1;
        rest[i] = span % s[i];
    }
    let cols = x.reshape(&a, &[0, ck, blocks[0], blocks[1]]);
    let weight = one_hot_kernels(x, d, c, &k)?;
    let r = x.node1(
        "ConvTranspose",
        &[&cols, &weight],
        vec![
            a_ints("kernel_shape", &k),
            a_ints("strides", &s),
            a_ints("dilations", &dil),
            a_ints("pads", &p),
            a_ints("output_padding", &rest),
            a_int("group", c),
        ],
    );
    x.finish_with(&r)
}

/// The known dims a deformable convolution needs: input `[C, H, W]`,
/// kernel `[Cout, kh, kw]`, output `[Ho, Wo]`.
struct DeformDims {
    c: i64,
    h: i64,
    w: i64,
    c_out: i64,
    kh: i64,
    kw: i64,
    ho: i64,
    wo: i64,
}

fn deform_dims(x: &Exporter<'_>) -> Result<DeformDims, ExportError> {
    let i = x.in_dims(0)?;
    let f = x.in_dims(2)?;
    let o = x.in_dims(1)?;
    let known = |v: &[i64]| v.len() == 4 && v[1..].iter().all(|&d| d > 0);
    if !known(&i) || !known(&o) || f.len() != 4 || f.iter().any(|&d| d <= 0) {
        return Err(x.unsupported("input, offset and filter sizes must be known"));
    }
    if i[2] < 2 || i[3] < 2 {
        return Err(x.unsupported("an input of height or width 1"));
    }
    Ok(DeformDims {
        c: i[1],
        h: i[2],
        w: i[3],
        c_out: f[0],
        kh: f[2],
        kw: f[3],
        ho: o[2],
        wo: o[3],
    })
}

/// `deformable_conv(x, offset, filter, mask, strides, paddings, dilations,
/// deformable_groups, groups)`: Paddle's deformable im2col (kernel tap
/// `(i, j)` of output `(ho, wo)` samples at `(ho*sh - ph + i*dh + dy,
/// wo*sw - pw + j*dw + dx)`, bilinear, zero outside), times the mask when
/// given, then the grouped product with the filter. `GridSample` with
/// `align_corners` samples exactly so (out-of-image corners count 0).
pub(crate) fn deformable_conv(x: &mut Exporter<'_>) -> R {
    x.need_opset(16, "GridSample")?;
    let dims = deform_dims(x)?;
    let DeformDims {
        c,
        h,
        w,
        c_out,
        kh,
        kw,
        ho,
        wo,
    } = dims;
    let attrs = x.attrs();
    let s = attrs.ints_or("strides", &[1, 1])?;
    let p = attrs.ints_or("paddings", &[0, 0])?;
    let dil = attrs.ints_or("dilations", &[1, 1])?;
    let dg = attrs.i64_or("deformable_groups", 1)?.max(1);
    let groups = attrs.i64_or("groups", 1)?.max(1);
    if s.len() != 2 || p.len() != 2 || dil.len() != 2 {
        return Err(x.unsupported("2-D strides, paddings and dilations"));
    }
    if c % dg != 0 || c % groups != 0 || c_out % groups != 0 {
        return Err(x.unsupported("channels not divisible by the groups"));
    }
    let kk = kh * kw;
    let l = ho * wo;
    if dg * kk * l > 1 << 24 {
        return Err(x.unsupported("too many sampling positions"));
    }
    let d = x.in_dtype(0)?;
    // Sampling positions without offsets, [kk, Ho*Wo] each.
    let mut base_y = Vec::with_capacity((kk * l) as usize);
    let mut base_x = Vec::with_capacity((kk * l) as usize);
    for i in 0..kh {
        for j in 0..kw {
            for oy in 0..ho {
                for ox in 0..wo {
                    base_y.push((oy * s[0] - p[0] + i * dil[0]) as f64);
                    base_x.push((ox * s[1] - p[1] + j * dil[1]) as f64);
                }
            }
        }
    }
    let base_y = x.const_values(d, &[1, 1, kk, l], &base_y)?;
    let base_x = x.const_values(d, &[1, 1, kk, l], &base_x)?;
    // Offsets [N, dg*2*kk, Ho, Wo] → dy, dx [N, dg, kk, Ho*Wo].
    let off = x.input(1)?;
    let off = x.reshape(&off, &[0, dg, kk, 2, l]);
    let halves = [x.tmp(), x.tmp()];
    let ones = x.const_i64s(&[1, 1]);
    x.node(
        "Split",
        &[&off, &ones],
        &[&halves[0], &halves[1]],
        vec![a_int("axis", 3)],
    );
    let dy = x.squeeze(&halves[0], &[3]);
    let dx = x.squeeze(&halves[1], &[3]);
    let py = x.node1("Add", &[&base_y, &dy], vec![]);
    let px = x.node1("Add", &[&base_x, &dx], vec![]);
    // GridSample's coordinates with align_corners: -1 + 2 * p / (size - 1).
    let normalise = |x: &mut Exporter<'_>, v: &str, size: i64| {
        let k = x.const_scalar(d, 2.0 / (size - 1) as f64)?;
        let one = x.const_scalar(d, 1.0)?;
        let v = x.node1("Mul", &[v, &k], vec![]);
        Ok::<_, ExportError>(x.node1("Sub", &[&v, &one], vec![]))
    };
    let gy = normalise(x, &py, h)?;
    let gx = normalise(x, &px, w)?;
    let gx = x.unsqueeze(&gx, &[-1]);
    let gy = x.unsqueeze(&gy, &[-1]);
    let grid = x.node1("Concat", &[&gx, &gy], vec![a_int("axis", -1)]);
    let grid = x.reshape(&grid, &[-1, kk, l, 2]);
    let a = x.input(0)?;
    let images = x.reshape(&a, &[-1, c / dg, h, w]);
    let sampled = x.node1(
        "GridSample",
        &[&images, &grid],
        vec![
            a_int("align_corners", 1),
            a_str("mode", "bilinear"),
            a_str("padding_mode", "zeros"),
        ],
    );
    // [N*dg, C/dg, kk, L] → [N, dg, C/dg, kk, L].
    let mut cols = x.reshape(&sampled, &[-1, dg, c / dg, kk, l]);
    if x.has_input(3) {
        let mask = x.input(3)?;
        let mask = x.reshape(&mask, &[0, dg, 1, kk, l]);
        cols = x.node1("Mul", &[&cols, &mask], vec![]);
    }
    // Columns [N, groups, C/groups*kk, L]; filter [groups, Cout/groups,
    // C/groups*kk].
    let cols = x.reshape(&cols, &[0, groups, c / groups * kk, l]);
    let f = x.input(2)?;
    let f = x.reshape(&f, &[groups, c_out / groups, c / groups * kk]);
    let r = x.node1("MatMul", &[&f, &cols], vec![]);
    let r = x.reshape(&r, &[0, c_out, ho, wo]);
    x.finish_with(&r)
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_ops, op_types};

    #[test]
    fn fold_is_a_grouped_transposed_convolution_covering_the_output() {
        let g = export_ops(
            r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,16,9],stop_gradient:[false]} : () -> tensor<-1x16x9xf32>
    (%1) = "pd_op.fold" (%0) {dilations:[1,1],kernel_sizes:[2,2],output_sizes:[4,4],paddings:[0,0,0,0],stop_gradient:[false],strides:[1,1]} : (tensor<-1x16x9xf32>) -> tensor<-1x4x4x4xf32>
    (%2) = "pd_op.fetch" (%1) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x4x4x4xf32>) -> tensor<-1x4x4x4xf32>"#,
        );
        let conv = g
            .node
            .iter()
            .find(|n| n.op_type == "ConvTranspose")
            .expect("a ConvTranspose");
        let group = conv.attribute.iter().find(|a| a.name == "group");
        assert_eq!(group.map(|a| a.i), Some(4), "one group per output channel");
    }

    #[test]
    fn deformable_conv_samples_with_grid_sample_then_multiplies_by_the_filter() {
        let g = export_ops(
            r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4,6,6],stop_gradient:[false]} : () -> tensor<-1x4x6x6xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"o",place:Place(undefined:0),shape:[-1,18,6,6],stop_gradient:[false]} : () -> tensor<-1x18x6x6xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[8,4,3,3],stop_gradient:[false]} : () -> tensor<8x4x3x3xf32>
    (%3) = "pd_op.deformable_conv" (%0, %1, %2, <<NULL VALUE>>) {deformable_groups:1,dilations:[1,1],groups:1,im2col_step:1,paddings:[1,1],stop_gradient:[false],strides:[1,1]} : (tensor<-1x4x6x6xf32>, tensor<-1x18x6x6xf32>, tensor<8x4x3x3xf32>, <<NULL TYPE>>) -> tensor<-1x8x6x6xf32>
    (%4) = "pd_op.fetch" (%3) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x8x6x6xf32>) -> tensor<-1x8x6x6xf32>"#,
        );
        let types = op_types(&g);
        assert!(types.contains(&"GridSample") && types.contains(&"MatMul"));
    }
}
