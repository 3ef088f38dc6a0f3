//! Synthetic programs for benchmarks and size tests, built through the API.
//!
//! [`mlp`] builds the shape of the corpus model `huge_5000ops` at any size:
//! `blocks` stacked Linear(4,4) + ReLU + LayerNorm(4) blocks — four parameters
//! and four ops per block — plus the feed (`pd_op.data`) and fetch ops, with
//! the attributes (kinds and order) Paddle's `jit.save` gives them.
//!
//! ```
//! let ctx = pir_dialects::pd_op_context();
//! let p = pir_dialects::synthetic::mlp(ctx, 10);
//! assert_eq!(p.num_ops(), 82);
//! p.verify().unwrap();
//! ```

use std::sync::Arc;

use pir_core::builtin::{
    bool_array, BoolAttr, DenseTensorType, F32Attr, I32Attr, ScalarType, StrAttr,
};
use pir_core::{Attribute, Builder, IrContext, Program, Symbol, Type};

use crate::pd_op::{DataType, DataTypeAttr, IntArrayAttr, Place, PlaceAttr};

/// Builds the synthetic MLP of `blocks` blocks (`8 * blocks + 2` ops).
pub fn mlp(ctx: Arc<IrContext>, blocks: usize) -> Program {
    let mut p = Program::with_capacity(ctx.clone(), blocks * 8 + 2);
    let top = p.top_block();
    let f32_ty = ctx.intern_type(ScalarType::F32);
    let t4 = DenseTensorType::get(&ctx, f32_ty, &[4]);
    let t4x4 = DenseTensorType::get(&ctx, f32_ty, &[4, 4]);
    let tn4 = DenseTensorType::get(&ctx, f32_ty, &[-1, 4]);
    let tn = DenseTensorType::get(&ctx, f32_ty, &[-1]);
    let sym = |s: &str| ctx.symbol(s);
    let no_grad = bool_array(&ctx, &[false]);
    let f = ctx.intern_attr(BoolAttr(false));
    let stop_gradient = sym("stop_gradient");
    let struct_name = sym("struct_name");

    let mut b = Builder::at_end(&mut p, top);
    let mut params = Vec::with_capacity(blocks);
    for i in 0..blocks {
        let names = [
            (format!("linear_{i}.w_0"), t4x4),
            (format!("linear_{i}.b_0"), t4),
            (format!("layer_norm_{i}.w_0"), t4),
            (format!("layer_norm_{i}.b_0"), t4),
        ];
        let values: Vec<_> = names
            .iter()
            .map(|(name, ty)| {
                let op = b.create(
                    sym("builtin.parameter"),
                    &[],
                    &[*ty],
                    &parameter_attrs(&ctx, name),
                    0,
                );
                b.program().result(op, 0)
            })
            .collect();
        params.push(values);
    }
    let data_attrs: [(Symbol, Attribute); 5] = [
        (sym("name"), StrAttr::get(&ctx, "x")),
        (sym("shape"), IntArrayAttr::get(&ctx, &[-1, 4])),
        (sym("dtype"), DataTypeAttr::get(&ctx, DataType::Float32)),
        (sym("place"), PlaceAttr::get(&ctx, Place::undefined())),
        (stop_gradient, no_grad),
    ];
    let data = b.create(sym("pd_op.data"), &[], &[tn4], &data_attrs, 0);
    let mut x = b.program().result(data, 0);
    let epsilon = F32Attr::get(&ctx, 1e-5);
    let three_false = bool_array(&ctx, &[false, false, false]);
    for (i, w) in params.iter().enumerate() {
        let scope = if i == 0 {
            "/Block/".to_owned()
        } else {
            format!("/Block_{i}/")
        };
        let linear = StrAttr::get(&ctx, &format!("{scope}Linear/"));
        let one = |ty: Type| -> [Type; 1] { [ty] };
        let mm = b.create(
            sym("pd_op.matmul"),
            &[Some(x), Some(w[0])],
            &one(tn4),
            &[
                (sym("transpose_x"), f),
                (sym("transpose_y"), f),
                (struct_name, linear),
                (stop_gradient, no_grad),
            ],
            0,
        );
        let mm = b.program().result(mm, 0);
        let add = b.create(
            sym("pd_op.add"),
            &[Some(mm), Some(w[1])],
            &one(tn4),
            &[(struct_name, linear), (stop_gradient, no_grad)],
            0,
        );
        let add = b.program().result(add, 0);
        let block_name = StrAttr::get(&ctx, &scope);
        let relu = b.create(
            sym("pd_op.relu"),
            &[Some(add)],
            &one(tn4),
            &[(struct_name, block_name), (stop_gradient, no_grad)],
            0,
        );
        let relu = b.program().result(relu, 0);
        let ln = b.create(
            sym("pd_op.layer_norm"),
            &[Some(relu), Some(w[2]), Some(w[3])],
            &[tn4, tn, tn],
            &[
                (sym("epsilon"), epsilon),
                (sym("begin_norm_axis"), ctx.intern_attr(I32Attr(1))),
                (
                    struct_name,
                    StrAttr::get(&ctx, &format!("{scope}LayerNorm/")),
                ),
                (stop_gradient, three_false),
            ],
            0,
        );
        x = b.program().result(ln, 0);
    }
    b.create(
        sym("pd_op.fetch"),
        &[Some(x)],
        &[tn4],
        &[
            (sym("name"), StrAttr::get(&ctx, "fetch_name_0")),
            (sym("col"), ctx.intern_attr(I32Attr(0))),
            (sym("persistable"), bool_array(&ctx, &[true])),
            (stop_gradient, no_grad),
        ],
        0,
    );
    p
}

/// The attributes of a trainable `builtin.parameter` named `name`, in the
/// order Paddle's reader inserts them.
pub fn parameter_attrs(ctx: &IrContext, name: &str) -> [(Symbol, Attribute); 7] {
    let t = bool_array(ctx, &[true]);
    let f = bool_array(ctx, &[false]);
    [
        (ctx.symbol("is_distributed"), f),
        (ctx.symbol("is_parameter"), t),
        (ctx.symbol("need_clip"), t),
        (ctx.symbol("parameter_name"), StrAttr::get(ctx, name)),
        (ctx.symbol("persistable"), t),
        (ctx.symbol("stop_gradient"), f),
        (ctx.symbol("trainable"), t),
    ]
}
