//! Property tests of the JSON writer and reader on random programs built
//! through the API: nested regions, block arguments, multi-result ops, absent
//! operands, null types, and every attribute kind (NaN, ±infinity and −0.0
//! floats, unicode and control characters in strings).
//!
//! - write → read → write is a fixed point;
//! - read(write(p)) prints exactly as p.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

use std::sync::Arc;

use pir_core::builtin::*;
use pir_core::{Attribute, BlockId, Builder, IrContext, Program, Type, ValueId};
use pir_dialects::pd_op::{DataLayoutAttr, DataType, DataTypeAttr, IntArrayAttr, Place, PlaceAttr};
use proptest::prelude::*;

/// A small deterministic generator driving the program builder.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let x = self.0;
        (x ^ (x >> 33)).wrapping_mul(0xff51afd7ed558ccd) ^ (x >> 29)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const STRINGS: &[&str] = &[
    "",
    "x",
    "fetch_name_0",
    "ünïcödé ✓",
    "quote\"inside",
    "back\\slash",
    "tab\tnew\nline",
    "\u{1b}[0m",
    "/Layer_1/Linear/",
    "emoji 🦀",
];
const FLOATS: &[f64] = &[
    0.0,
    -0.0,
    1.0,
    0.1,
    -2.5,
    1e-5,
    1e300,
    -1e-300,
    5e-324,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    123456789.0,
    0.30000000000000004,
];

fn types(ctx: &IrContext) -> Vec<Type> {
    let f32_ty = ctx.intern_type(ScalarType::F32);
    let i64_ty = ctx.intern_type(ScalarType::I64);
    let t1 = DenseTensorType::get(ctx, f32_ty, &[-1, 4]);
    let t2 = DenseTensorType::get(ctx, i64_ty, &[]);
    let odd = ctx.intern_type(DenseTensorType {
        dtype: ctx.intern_type(ScalarType::BF16),
        dims: vec![3, 0].into(),
        layout: DataLayout::NHWC,
        lod: vec![vec![0u64, 1, 3].into_boxed_slice()].into(),
        offset: 2,
    });
    vec![
        t1,
        t2,
        odd,
        VectorType::get(ctx, &[t1, t2]),
        Type::NULL,
        ctx.intern_type(ScalarType::C64),
    ]
}

fn attribute(ctx: &IrContext, g: &mut Gen, depth: usize) -> Attribute {
    match g.below(if depth > 1 { 15 } else { 17 }) {
        0 => ctx.intern_attr(BoolAttr(g.below(2) == 1)),
        1 => ctx.intern_attr(I32Attr(g.next() as i32)),
        2 => ctx.intern_attr(I64Attr(g.next() as i64)),
        3 => ctx.intern_attr(IndexAttr(g.next() as i64 >> 8)),
        4 => F32Attr::get(ctx, *g.pick(FLOATS) as f32),
        5 => F64Attr::get(ctx, *g.pick(FLOATS)),
        6 => StrAttr::get(ctx, g.pick::<&str>(STRINGS)),
        7 => TensorNameAttr::get(ctx, g.pick::<&str>(STRINGS)),
        8 => ctx.intern_attr(TypeAttr(*g.pick(&types(ctx)))),
        9 => {
            let (re, im) = (*g.pick(&FLOATS[..9]), *g.pick(&FLOATS[..9]));
            ctx.intern_attr(Complex128Attr(re.to_bits(), im.to_bits()))
        }
        10 => ctx.intern_attr(Complex64Attr((1.5f32).to_bits(), (-0.0f32).to_bits())),
        11 => IntArrayAttr::get(ctx, &[(g.next() as i64) >> 3, -1, 0]),
        12 => DataTypeAttr::get(ctx, *g.pick(DataType::ALL)),
        13 => PlaceAttr::get(
            ctx,
            Place {
                allocation_type: 9,
                device_id: 1,
                device_type: "npu".into(),
            },
        ),
        14 => ctx.intern_attr(DataLayoutAttr(DataLayout::Undefined)),
        15 | 16 => {
            let n = g.below(4);
            let items: Vec<Attribute> = (0..n).map(|_| attribute(ctx, g, depth + 1)).collect();
            ArrayAttr::get(ctx, &items)
        }
        _ => Attribute::NULL,
    }
}

/// Builds `n` random ops into `block`, using values of `visible` (and their own results).
fn fill_block(
    p: &mut Program,
    g: &mut Gen,
    block: BlockId,
    visible: &mut Vec<ValueId>,
    n: usize,
    depth: usize,
) {
    let ctx = p.ctx_arc().clone();
    let pool = types(&ctx);
    let names = [
        "test.op",
        "test.other",
        "pd_op.relu",
        "pd_op.unknown_op",
        "custom_op.thing",
        "builtin.combine_like",
    ];
    for _ in 0..n {
        let num_operands = g.below(4);
        let operands: Vec<Option<ValueId>> = (0..num_operands)
            .map(|_| {
                if visible.is_empty() || g.below(5) == 0 {
                    None
                } else {
                    Some(*g.pick(visible))
                }
            })
            .collect();
        let results: Vec<Type> = (0..g.below(4)).map(|_| *g.pick(&pool)).collect();
        let mut attrs = Vec::new();
        for _ in 0..g.below(5) {
            let name = *g.pick(&[
                "a",
                "b",
                "stop_gradient",
                "persistable",
                "value",
                "ünï",
                "z",
            ]);
            attrs.push((ctx.symbol(name), attribute(&ctx, g, 0)));
        }
        let regions = if depth < 2 && g.below(6) == 0 {
            1 + g.below(2)
        } else {
            0
        };
        let name = ctx.symbol(g.pick::<&str>(&names));
        let op = Builder::at_end(p, block).create(name, &operands, &results, &attrs, regions);
        for r in 0..regions {
            let region = p.op_region(op, r);
            let inner = p.add_block(region);
            let mut inner_visible = visible.clone();
            for _ in 0..g.below(3) {
                let ty = *g.pick(&pool);
                inner_visible.push(p.add_block_arg(inner, ty));
            }
            let count = 1 + g.below(4);
            fill_block(p, g, inner, &mut inner_visible, count, depth + 1);
        }
        visible.extend(p.results(op));
    }
}

fn random_program(seed: u64, n: usize) -> Program {
    let ctx: Arc<IrContext> = pir_dialects::pd_op_context();
    let mut p = Program::new(ctx);
    let mut g = Gen(seed);
    let top = p.top_block();
    fill_block(&mut p, &mut g, top, &mut Vec::new(), n, 0);
    p
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn write_read_write_is_a_fixed_point(seed in any::<u64>(), n in 1usize..30, readable in any::<bool>()) {
        let p = random_program(seed, n);
        let options = pir_serde::WriteOptions { readable, ..Default::default() };
        let first = pir_serde::write_to_vec(&p, &options).unwrap();
        let back = pir_serde::read_slice(p.ctx_arc().clone(), &first, &Default::default())
            .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&first)));
        let second = pir_serde::write_to_vec(&back.program, &options).unwrap();
        prop_assert!(first == second, "not a fixed point");
        prop_assert_eq!(back.program.to_string(), p.to_string());
    }
}
