//! Builtin ops and control flow (Paddle's `builtin_op.cc` and
//! `control_flow_op.cc`): `if` merges its branches' shapes, `while` gives
//! its carried values fresh symbols, infers its body, and records which of
//! them the loop keeps equal to their initial values.

use pir_core::builtin::DenseTensorType;
use pir_core::{BlockId, ValueId};
use pir_dialects::pd_op::DataType;

use super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::{ShapeOrData, TensorFact};

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("builtin.parameter", parameter),
    ("builtin.constant", from_type),
    ("builtin.combine", combine),
    ("builtin.split", split),
    ("builtin.slice", slice),
    ("cf.yield", nothing),
    ("builtin.shadow_output", nothing),
    ("pd_op.assign_out_", assign_out),
    ("pd_op.if", if_),
    ("pd_op.while", while_),
    ("cf.has_elements", has_elements),
    ("pd_op.select_input", select_input),
    ("builtin.set_parameter", nothing),
];

fn nothing(_: &mut Cx<'_>) -> Res {
    Ok(())
}

/// At most this many elements of a loaded integer parameter become data.
const MAX_PARAMETER_DATA: usize = 64;

/// A parameter: its type's shape; for passes (not Paddle's print, whose
/// parameters never carry data) also the data of a small loaded integer
/// vector, such as the axes constant folding leaves as a parameter.
fn parameter(cx: &mut Cx<'_>) -> Res {
    if cx.a.serves_passes() && cx.result_is_int(0) {
        if let (Some(dims), Some(values)) = (cx.result_dims(0), parameter_ints(cx)) {
            cx.set_tensor(
                0,
                TensorFact::with_data(super::ints(&dims), super::ints(&values)),
            );
            return Ok(());
        }
    }
    from_type(cx)
}

/// The elements of the op's parameter when it is a loaded int32/int64
/// vector of at most [`MAX_PARAMETER_DATA`] elements. The element width
/// comes from the value's data type; bytes that do not fill exactly that
/// many elements of that width give no data.
fn parameter_ints(cx: &Cx<'_>) -> Option<Vec<i64>> {
    let dims = cx.result_dims(0)?;
    if dims.len() > 1 || dims.iter().any(|&d| d < 0) {
        return None;
    }
    let count = dims.first().map_or(1, |&d| d as usize);
    if count > MAX_PARAMETER_DATA {
        return None;
    }
    let ty = cx.p.value_type(cx.p.result(cx.op, 0));
    let elem = cx.ctx().type_as::<DenseTensorType>(ty)?.dtype;
    let width = match super::int_dtype(cx.ctx(), elem)? {
        DataType::Int32 => 4,
        DataType::Int64 => 8,
        _ => return None,
    };
    let name = cx.str_attr("parameter_name")?;
    let data = cx.p.parameter(name)?.data.as_ref()?;
    let bytes = data.bytes();
    if bytes.len() != width * count {
        return None;
    }
    Some(if width == 4 {
        bytes
            .chunks_exact(4)
            .map(|c| i64::from(i32::from_le_bytes([c[0], c[1], c[2], c[3]])))
            .collect()
    } else {
        bytes
            .chunks_exact(8)
            .map(|c| i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
            .collect()
    })
}

/// Declared values: their type's shape, fresh symbols for unknown dims.
fn from_type(cx: &mut Cx<'_>) -> Res {
    for r in 0..cx.num_results() {
        result_from_type(cx, r);
    }
    Ok(())
}

/// Paddle's inference of an op without the symbolic shape interface: its
/// types' shapes when they are all known; else the facts of the first op
/// of its name inferred with the same operand facts and attributes
/// (Paddle's op cache); else its types' shapes with fresh symbols.
pub(crate) fn without_interface(cx: &mut Cx<'_>) -> Res {
    if !cx.a.has_op_cache() {
        return from_type(cx);
    }
    let name = cx.p.op_name(cx.op);
    let operands = (0..cx.num_operands()).map(|i| cx.input(i)).collect();
    let attrs = pir_dialects::op_def(cx.p.op_name_str(cx.op))
        .map(|def| {
            def.attributes
                .iter()
                .filter_map(|a| cx.attr(a.name.as_str()))
                .collect()
        })
        .unwrap_or_default();
    let key = (name, operands, attrs);
    let all_static =
        (0..cx.num_results()).all(|r| cx.result_dims(r).is_some_and(|d| d.iter().all(|&x| x >= 0)));
    let cached =
        cx.a.cached(&key)
            .filter(|facts| facts.len() == cx.num_results())
            .map(<[ShapeOrData]>::to_vec);
    match cached {
        Some(facts) if !all_static => {
            for (r, f) in facts.into_iter().enumerate() {
                cx.set(r, f);
            }
        }
        _ => from_type(cx)?,
    }
    let results = (0..cx.num_results())
        .map(|r| cx.a.get(cx.p, cx.p.result(cx.op, r)))
        .collect();
    cx.a.cache(key, results);
    Ok(())
}

/// Paddle's `SetSymbolForValueByStaticShape` for result `r`.
pub(crate) fn result_from_type(cx: &mut Cx<'_>, r: usize) {
    if r < cx.num_results() {
        let v = cx.p.result(cx.op, r);
        let f = cx.a.static_fact(cx.p.ctx(), cx.p.value_type(v));
        cx.set(r, f);
    }
}

/// `select_input`: operand 1's dims where both choices agree, a fresh
/// symbol where they differ; operand 2's shape when their ranks differ.
fn select_input(cx: &mut Cx<'_>) -> Res {
    let first = cx.shape(1)?;
    let second = cx.shape(2)?;
    if first.len() != second.len() {
        cx.set_shape(0, second);
        return Ok(());
    }
    let mut out = first;
    if !second.is_empty() {
        for (d, other) in out.iter_mut().zip(&second) {
            if d != other {
                *d = cx.a.new_sym();
            }
        }
    }
    cx.set_shape(0, out);
    Ok(())
}

fn combine(cx: &mut Cx<'_>) -> Res {
    let mut list = Vec::with_capacity(cx.num_operands());
    for i in 0..cx.num_operands() {
        match cx.input(i) {
            ShapeOrData::Tensor(t) => list.push(t),
            _ => return Err(Bad("combine of a non-tensor".into())),
        }
    }
    cx.set(0, ShapeOrData::List(list));
    Ok(())
}

fn split(cx: &mut Cx<'_>) -> Res {
    let list = cx.list(0)?;
    for (k, t) in list.into_iter().enumerate() {
        cx.set_tensor(k, t);
    }
    Ok(())
}

fn slice(cx: &mut Cx<'_>) -> Res {
    let list = cx.list(0)?;
    let i = cx.int_attr("index").unwrap_or(0);
    let t = usize::try_from(i)
        .ok()
        .and_then(|i| list.get(i).cloned())
        .ok_or_else(|| Bad(format!("slice index {i} out of range")))?;
    cx.set_tensor(0, t);
    Ok(())
}

fn assign_out(cx: &mut Cx<'_>) -> Res {
    let f = cx.input(0);
    cx.set(0, f);
    Ok(())
}

fn has_elements(cx: &mut Cx<'_>) -> Res {
    cx.set_shape(0, vec![DimExpr::Int(1)]);
    Ok(())
}

fn region_block(cx: &Cx<'_>, region: usize) -> Option<BlockId> {
    if region >= cx.p.num_regions(cx.op) {
        return None;
    }
    cx.p.region_blocks(cx.p.op_region(cx.op, region))
        .first()
        .copied()
}

fn yield_operand(cx: &Cx<'_>, block: BlockId, i: usize) -> Option<ValueId> {
    let last = cx.p.block_last_op(block)?;
    (i < cx.p.num_operands(last))
        .then(|| cx.p.operand(last, i))
        .flatten()
}

fn fact_of(cx: &mut Cx<'_>, v: Option<ValueId>) -> ShapeOrData {
    match v {
        Some(v) => cx.a.get(cx.p, v),
        None => ShapeOrData::Null,
    }
}

/// `if`: both branches inferred; a result dim is the branches' common
/// expression, or a fresh symbol where they differ.
fn if_(cx: &mut Cx<'_>) -> Res {
    let (Some(t), Some(f)) = (region_block(cx, 0), region_block(cx, 1)) else {
        return Err(Bad("if without two branches".into()));
    };
    cx.a.infer_block(cx.p, t, cx.depth + 1);
    cx.a.infer_block(cx.p, f, cx.depth + 1);
    for r in 0..cx.num_results() {
        let tv = yield_operand(cx, t, r);
        let fv = yield_operand(cx, f, r);
        let td = fact_of(cx, tv).dims().to_vec();
        let fd = fact_of(cx, fv).dims().to_vec();
        let mut out = td.clone();
        if !fd.is_empty() {
            if fd.len() != td.len() {
                return Err(Bad("if branches yield different ranks".into()));
            }
            for i in 0..td.len() {
                if td[i] != fd[i] {
                    out[i] = cx.sym();
                }
            }
        }
        cx.set_shape(r, out);
    }
    Ok(())
}

/// Most elements of a carried integer tensor whose data the loop follows.
const MAX_CARRIED_DATA: i64 = 9;

fn init_block_arg(cx: &mut Cx<'_>, origin: Option<ValueId>, arg: ValueId) -> Res {
    match fact_of(cx, origin) {
        ShapeOrData::Tensor(t) => {
            let ty = cx.p.value_type(arg);
            let f = cx.a.static_fact(cx.p.ctx(), ty);
            cx.a.set(arg, f.clone());
            let dims = cx
                .ctx()
                .type_as::<pir_core::builtin::DenseTensorType>(ty)
                .map(|t| t.dims.to_vec())
                .unwrap_or_default();
            let small =
                !dims.iter().any(|&d| d < 0) && dims.iter().product::<i64>() <= MAX_CARRIED_DATA;
            if let Some(data) = t.data {
                if small && cx.value_is_int(arg) {
                    let shape = f.dims().to_vec();
                    let syms = data.iter().map(|_| cx.sym()).collect();
                    cx.a.set(arg, ShapeOrData::Tensor(TensorFact::with_data(shape, syms)));
                }
            }
            Ok(())
        }
        ShapeOrData::Array(h) => {
            let hint = h.iter().map(|_| cx.sym()).collect();
            cx.a.set(arg, ShapeOrData::Array(hint));
            Ok(())
        }
        _ => Err(Bad("a while carries a list or a null value".into())),
    }
}

fn dims_of(cx: &mut Cx<'_>, v: Option<ValueId>) -> Vec<DimExpr> {
    fact_of(cx, v).dims().to_vec()
}

/// Paddle's `AddCstrForArgs`: a carried dim the body keeps equal to itself,
/// to its initial value, or to their broadcast, equals the initial dim.
fn constrain_arg(cx: &mut Cx<'_>, origin: Option<ValueId>, yielded: Option<ValueId>, arg: ValueId) {
    let ShapeOrData::Tensor(a) = cx.a.get(cx.p, arg) else {
        return;
    };
    let y = dims_of(cx, yielded);
    let o = dims_of(cx, origin);
    if a.shape.len() != y.len() || o.len() != a.shape.len() {
        return;
    }
    for (oj, aj) in o.iter().zip(&a.shape) {
        if cx.a.is_gt_one(oj) {
            cx.a.add_gt_one(aj);
        }
    }
    for j in 0..a.shape.len() {
        // Each equality may substitute symbols: read the facts again.
        let a = cx.a.get(cx.p, arg).dims().to_vec();
        let y = dims_of(cx, yielded);
        let o = dims_of(cx, origin);
        if j >= a.len() || j >= y.len() || j >= o.len() || a[j].is_int() {
            continue;
        }
        if a[j] == y[j] || o[j] == y[j] {
            cx.eq(&o[j], &a[j]);
            continue;
        }
        let b1 = crate::expr::broadcast(&a[j], &o[j]);
        let b2 = crate::expr::broadcast(&o[j], &a[j]);
        if b1.as_ref() == Some(&y[j]) || b2.as_ref() == Some(&y[j]) {
            cx.eq(&o[j], &a[j]);
        }
    }
}

/// `while`: carried values get fresh symbols (and their data fresh
/// symbols); after the body, dims the loop keeps are equated with the
/// initial ones, and a carried known dim the body changes becomes a fresh
/// symbol and the body is inferred again.
fn while_(cx: &mut Cx<'_>) -> Res {
    let body = region_block(cx, 0).ok_or_else(|| Bad("while without a body".into()))?;
    let args: Vec<ValueId> = cx.p.block_args(body).to_vec();
    if args.len() + 1 != cx.num_operands() {
        return Err(Bad("while operands and body arguments differ".into()));
    }
    if cx.a.loops_by_induction() {
        return while_by_induction(cx, body, &args);
    }
    for (i, &arg) in args.iter().enumerate() {
        let origin = cx.operand(i + 1);
        init_block_arg(cx, origin, arg)?;
    }
    cx.a.infer_block(cx.p, body, cx.depth + 1);
    for (i, &arg) in args.iter().enumerate() {
        let origin = cx.operand(i + 1);
        let yielded = yield_operand(cx, body, i + 1);
        constrain_arg(cx, origin, yielded, arg);
    }
    let mut again = false;
    for (i, &arg) in args.iter().enumerate() {
        let yielded = yield_operand(cx, body, i + 1);
        let ShapeOrData::Tensor(y) = fact_of(cx, yielded) else {
            continue;
        };
        let a = cx.a.get(cx.p, arg).dims().to_vec();
        let mut new = a.clone();
        let mut changed = false;
        for j in 0..y.shape.len().min(a.len()) {
            if a[j].is_int() && y.shape[j] != a[j] {
                new[j] = cx.sym();
                changed = true;
            }
        }
        if changed {
            again = true;
            cx.a.set(arg, ShapeOrData::shape(new));
        }
    }
    if again {
        cx.a.infer_block(cx.p, body, cx.depth + 1);
    }
    for r in 0..cx.num_results() {
        let yielded = yield_operand(cx, body, r + 1);
        let f = fact_of(cx, yielded);
        cx.set(r, f);
    }
    for (r, &arg) in args.iter().enumerate().take(cx.num_results()) {
        let origin = cx.operand(r + 1);
        let ShapeOrData::Tensor(o) = fact_of(cx, origin) else {
            continue;
        };
        let out_v = cx.p.result(cx.op, r);
        let out = cx.a.get(cx.p, out_v).dims().to_vec();
        let a = cx.a.get(cx.p, arg).dims().to_vec();
        if o.shape.len() != a.len() {
            continue;
        }
        for j in 0..out.len().min(a.len()) {
            if cx.a.dims_equal(&out[j], &a[j]) {
                let (x, y) = (out[j].clone(), o.shape[j].clone());
                cx.eq(&x, &y);
            }
        }
    }
    Ok(())
}

/// `while` by induction over the iterations: every carried value starts
/// with its initial value's dims (data dropped: a counter changes); after
/// the body, each dim the yield does not provably keep becomes a fresh
/// symbol, once, and the body is inferred again, until every dim left
/// is kept. Each kept dim then holds in every iteration (the first has it,
/// and an iteration that has it yields it back), and the results have the
/// arguments' facts. Each round freshens at least one dim, so there are at
/// most as many rounds as carried dims, plus one.
fn while_by_induction(cx: &mut Cx<'_>, body: BlockId, args: &[ValueId]) -> Res {
    for (i, &arg) in args.iter().enumerate() {
        let fact = match fact_of(cx, cx.operand(i + 1)) {
            ShapeOrData::Tensor(t) => ShapeOrData::shape(t.shape),
            ShapeOrData::Array(h) => ShapeOrData::Array(h),
            _ => return Err(Bad("a while carries a list or a null value".into())),
        };
        cx.a.set(arg, fact);
    }
    let mut fresh: Vec<Vec<bool>> = args
        .iter()
        .map(|&arg| vec![false; cx.a.get(cx.p, arg).dims().len()])
        .collect();
    // A carried value whose rank is not what it started with (a malformed
    // or unverified body) gets all its dims fresh at once; the bound keeps
    // even such a body from looping.
    let max_rounds = fresh.iter().map(Vec::len).sum::<usize>() + args.len() + 2;
    for round in 0.. {
        if round > max_rounds {
            return Err(Bad("the dims a while carries do not settle".into()));
        }
        cx.a.infer_block(cx.p, body, cx.depth + 1);
        let mut changed = false;
        for (i, &arg) in args.iter().enumerate() {
            let carried = cx.a.get(cx.p, arg);
            let yielded = dims_of(cx, yield_operand(cx, body, i + 1));
            let mut dims = carried.dims().to_vec();
            let mut freshened = false;
            let Some(fresh_i) = fresh.get_mut(i) else {
                break;
            };
            if fresh_i.len() != dims.len() {
                *fresh_i = vec![false; dims.len()];
            }
            for (j, d) in dims.iter_mut().enumerate() {
                let kept = yielded.get(j).is_some_and(|y| cx.a.dims_equal(d, y))
                    && yielded.len() == fresh_i.len();
                if !kept && !fresh_i[j] {
                    fresh_i[j] = true;
                    *d = cx.sym();
                    freshened = true;
                }
            }
            if freshened {
                changed = true;
                let fact = match carried {
                    ShapeOrData::Array(_) => ShapeOrData::Array(dims),
                    _ => ShapeOrData::shape(dims),
                };
                cx.a.set(arg, fact);
            }
        }
        if !changed {
            break;
        }
    }
    for (r, &arg) in args.iter().enumerate().take(cx.num_results()) {
        let fact = cx.a.get(cx.p, arg);
        cx.set(r, fact);
    }
    Ok(())
}
