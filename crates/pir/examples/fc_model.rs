//! Builds the save/load design's fc example from scratch — parameter → data →
//! matmul → add → relu → full → scale → fetch — with random weights, and saves
//! it as a Paddle model (`PREFIX.json` + `PREFIX.pdiparams`).
//!
//! `cargo run -p pir --example fc_model -- PREFIX` (scripts/paddle_check_fc.py
//! loads and runs the result in Paddle).
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

use pir::core::builtin::{
    bool_array, BoolAttr, DenseTensorType, F32Attr, F64Attr, I32Attr, ScalarType, StrAttr,
};
use pir::core::{Attribute, Builder, Program, Symbol};
use pir::dialects::pd_op::{DataType, DataTypeAttr, IntArrayAttr, Place, PlaceAttr};
use pir::params::{DType, Tensor};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let prefix = std::env::args().nth(1).ok_or("usage: fc_model PREFIX")?;
    let ctx = pir::dialects::pd_op_context();
    let mut p = Program::new(ctx.clone());
    let top = p.top_block();
    let f32_ty = ctx.intern_type(ScalarType::F32);
    let t = |dims: &[i64]| DenseTensorType::get(&ctx, f32_ty, dims);
    let sym = |s: &str| ctx.symbol(s);
    let sg = |v: bool| bool_array(&ctx, &[v]);
    let attrs = |list: &[(&str, Attribute)]| -> Vec<(Symbol, Attribute)> {
        list.iter().map(|&(n, a)| (sym(n), a)).collect()
    };

    let mut b = Builder::at_end(&mut p, top);
    let param = |b: &mut Builder<'_>, name: &str, dims: &[i64]| {
        let a = pir::dialects::synthetic::parameter_attrs(&ctx, name);
        let op = b.create(sym("builtin.parameter"), &[], &[t(dims)], &a, 0);
        b.program().result(op, 0)
    };
    let bias = param(&mut b, "fc_0.b_0", &[30]);
    let weight = param(&mut b, "fc_0.w_0", &[30, 30]);
    let data = b.create(
        sym("pd_op.data"),
        &[],
        &[t(&[-1, 30])],
        &attrs(&[
            ("name", StrAttr::get(&ctx, "A")),
            ("shape", IntArrayAttr::get(&ctx, &[-1, 30])),
            ("dtype", DataTypeAttr::get(&ctx, DataType::Float32)),
            ("place", PlaceAttr::get(&ctx, Place::undefined())),
            ("stop_gradient", sg(true)),
        ]),
        0,
    );
    let x = b.program().result(data, 0);
    let f = ctx.intern_attr(BoolAttr(false));
    let mm = b.create(
        sym("pd_op.matmul"),
        &[Some(x), Some(weight)],
        &[t(&[-1, 30])],
        &attrs(&[
            ("transpose_x", f),
            ("transpose_y", f),
            ("stop_gradient", sg(false)),
        ]),
        0,
    );
    let mm = b.program().result(mm, 0);
    let add = b.create(
        sym("pd_op.add"),
        &[Some(mm), Some(bias)],
        &[t(&[-1, 30])],
        &attrs(&[("stop_gradient", sg(false))]),
        0,
    );
    let add = b.program().result(add, 0);
    let relu = b.create(
        sym("pd_op.relu"),
        &[Some(add)],
        &[t(&[-1, 30])],
        &attrs(&[("stop_gradient", sg(false))]),
        0,
    );
    let relu = b.program().result(relu, 0);
    let full = b.create(
        sym("pd_op.full"),
        &[],
        &[t(&[1])],
        &attrs(&[
            ("shape", IntArrayAttr::get(&ctx, &[1])),
            ("value", F64Attr::get(&ctx, 1.0)),
            ("dtype", DataTypeAttr::get(&ctx, DataType::Float32)),
            ("place", PlaceAttr::get(&ctx, Place::cpu())),
            ("stop_gradient", sg(true)),
        ]),
        0,
    );
    let full = b.program().result(full, 0);
    let scale = b.create(
        sym("pd_op.scale"),
        &[Some(relu), Some(full)],
        &[t(&[-1, 30])],
        &attrs(&[
            ("bias", F32Attr::get(&ctx, 0.0)),
            ("bias_after_scale", ctx.intern_attr(BoolAttr(true))),
            ("stop_gradient", sg(false)),
        ]),
        0,
    );
    let scale = b.program().result(scale, 0);
    b.create(
        sym("pd_op.fetch"),
        &[Some(scale)],
        &[t(&[-1, 30])],
        &attrs(&[
            ("name", StrAttr::get(&ctx, "fetch_name_0")),
            ("col", ctx.intern_attr(I32Attr(0))),
            ("persistable", sg(true)),
            ("stop_gradient", sg(false)),
        ]),
        0,
    );
    p.verify().map_err(|e| e.to_string())?;

    // Deterministic weights in [-1, 1).
    let mut state = 0x853c_49e6_748f_ea9bu64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 40) as f32 / (1u64 << 23) as f32) - 1.0
    };
    for (name, dims) in [("fc_0.b_0", vec![30i64]), ("fc_0.w_0", vec![30, 30])] {
        let n: i64 = dims.iter().product();
        let values: Vec<f32> = (0..n).map(|_| next()).collect();
        let tensor = Tensor::from_slice(DType::Float32, dims.clone(), &values)?;
        let ty = t(&dims);
        pir::params::bound::bind_typed(&mut p, name, ty, tensor);
    }
    let model = pir::Model {
        program: p,
        trainable: true,
        version: pir::serde::PIR_VERSION,
        readable: false,
    };
    model.save(&prefix, true)?;
    println!("{}", model.program);
    Ok(())
}
