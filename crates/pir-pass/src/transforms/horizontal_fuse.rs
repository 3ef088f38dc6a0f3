//! `horizontal_fuse`: three or more matmuls (or fcs) reading one value with
//! weights of the same shape become one matmul over the concatenated weights
//! and a split — Paddle's horizontal_fuse_pass, which is no local pattern
//! (it looks at every user of a value), so it is written by hand.
//!
//! As in Paddle: users are matmuls without transposes and fcs whose weight
//! (the first operand other than the shared value) is a parameter, a
//! constant or a `pd_op.data`; the first user (in Paddle's use order, the
//! latest in the program) fixes the op kind and gives the fused op its
//! attributes; the new ops go right after the shared value's definition:
//! `builtin.combine` and `pd_op.concat` of the weights (and biases), the
//! fused op, `pd_op.split` by each weight's width, `builtin.split`. Unlike
//! Paddle, only users whose weights agree in shape are fused (Paddle
//! concatenates every valid user's weight and can build a concat of
//! mismatched widths), all users must be in the value's block, and nothing
//! fires where the shared value, a weight or a bias is written in place
//! (the fused op reads them earlier than the users did).

use pir_core::builtin::{op_names, DenseTensorType, VectorType};
use pir_core::{Builder, InsertPoint, OpId, Program, Type, ValueId};
use pir_dialects::ops::{ConcatOp, DataOp, FcOp, FullIntArrayOp, FullOp, MatmulOp, SplitOp};
use pir_dialects::pd_op::{DataType, Place};

use crate::alias::alias_class;
use crate::registry::{PassInfo, GREEDY_OPTIONS};
use crate::rewrite::PatternPass;
use crate::rewrite::{RewritePattern, Rewriter, Root};

/// The `horizontal_fuse` pass.
pub const INFO: PassInfo = PassInfo {
    argument: "horizontal_fuse",
    description: "fuse three or more matmuls or fcs sharing an input into one over concatenated weights, then split (Paddle's horizontal_fuse_pass)",
    options: GREEDY_OPTIONS,
    make: |o| {
        Ok(Box::new(PatternPass::new(
            "horizontal_fuse",
            vec![Box::new(HorizontalFuse)],
            o.take_greedy()?,
        )))
    },
};

struct HorizontalFuse;

/// One user to fuse.
struct User {
    op: OpId,
    weight: ValueId,
    bias: Option<ValueId>,
}

/// Whether `op` may take part, and the index of its weight operand.
fn valid_user(p: &Program, op: OpId, v: ValueId) -> Option<usize> {
    match p.op_name_str(op) {
        FcOp::NAME => {}
        MatmulOp::NAME => {
            if p.attr_bool(op, "transpose_x") == Some(true)
                || p.attr_bool(op, "transpose_y") == Some(true)
            {
                return None;
            }
        }
        _ => return None,
    }
    let v_index = p.operands(op).position(|o| o == Some(v))?;
    // Paddle checks the first operand other than the shared value only.
    let w_index = (0..p.num_operands(op)).find(|&i| i != v_index)?;
    let def = p.defining_op(p.operand(op, w_index)?)?;
    matches!(
        p.op_name_str(def),
        op_names::PARAMETER | op_names::CONSTANT | DataOp::NAME
    )
    .then_some(w_index)
}

/// Whether `v` is visible just after `point` (defined in an enclosing block,
/// or before `point` in its block).
fn defined_before(p: &Program, v: ValueId, point: OpId) -> bool {
    let Some(def) = p.defining_op(v) else {
        return true; // a block argument of an enclosing block
    };
    // The ancestor of `point` (or `point`) in `def`'s block must follow `def`.
    let mut at = point;
    while p.op_parent_block(at) != p.op_parent_block(def) {
        match p.op_parent_op(at) {
            Some(parent) => at = parent,
            None => return false,
        }
    }
    let mut cursor = Some(at);
    while let Some(op) = cursor {
        if op == def {
            return true;
        }
        cursor = p.prev_op(op);
    }
    false
}

/// Ops inserted one after another, each with Paddle's `stop_gradient`.
struct Chain {
    prev: OpId,
}

impl Chain {
    fn add(&mut self, rw: &mut Rewriter<'_>, f: impl FnOnce(&mut Builder<'_>) -> OpId) -> OpId {
        let op = rw.build(InsertPoint::After(self.prev), |b| {
            let op = f(b);
            let p = b.program();
            let operands: Vec<ValueId> = p.operands(op).flatten().collect();
            let flags = vec![stop_gradient_of(p, &operands); p.num_results(op)];
            let sg = crate::drr::stop_gradient_attr(p.ctx(), &flags);
            p.set_attr(op, "stop_gradient", sg);
            op
        });
        self.prev = op;
        op
    }

    /// `builtin.combine` of `parts`, a `full` axis and `pd_op.concat`.
    fn concat(
        &mut self,
        rw: &mut Rewriter<'_>,
        parts: &[ValueId],
        axis: usize,
        out: Type,
        int32: Type,
    ) -> ValueId {
        let p = rw.program();
        let types: Vec<Type> = parts.iter().map(|&w| p.value_type(w)).collect();
        let vec_t = VectorType::get(p.ctx(), &types);
        let list = self.add(rw, |b| b.op("builtin.combine", parts, &[vec_t], &[]));
        let list = rw.program().result(list, 0);
        let axis_v = self.add(rw, |b| {
            FullOp::build(
                b,
                &[1],
                axis as f64,
                DataType::Int32,
                Place::cpu(),
                &[int32],
            )
            .0
        });
        let axis_v = rw.program().result(axis_v, 0);
        let cat = self.add(rw, |b| ConcatOp::build(b, list, axis_v, &[out]).0);
        rw.program().result(cat, 0)
    }
}

/// Paddle's rule for a new op's `stop_gradient`: true when every operand's is.
fn stop_gradient_of(p: &Program, operands: &[ValueId]) -> bool {
    operands
        .iter()
        .all(|&v| crate::drr::value_stop_gradient(p, v))
}

impl HorizontalFuse {
    /// The users to fuse: Paddle's order (latest first), all of the first's kind.
    fn users(p: &Program, v: ValueId, def: OpId) -> Option<(Vec<User>, usize)> {
        let block = p.op_parent_block(def);
        let mut in_order = Vec::new();
        let mut cursor = p.next_op(def);
        let using: Vec<OpId> = p.uses(v).map(|u| p.operand_owner(u)).collect();
        if using.len() < 3 || using.iter().any(|&o| p.op_parent_block(o) != block) {
            return None;
        }
        while let Some(op) = cursor {
            if using.contains(&op) && !in_order.contains(&op) {
                in_order.push(op);
            }
            cursor = p.next_op(op);
        }
        let mut users: Vec<User> = Vec::new();
        let mut w_index = 0;
        for &op in in_order.iter().rev() {
            let Some(wi) = valid_user(p, op, v) else {
                continue;
            };
            let weight = p.operand(op, wi)?;
            if let Some(first) = users.first() {
                let compare = if w_index == 0 { 1 } else { 0 };
                let (a, b) = (
                    super::dense_dims(p, first.weight)?,
                    super::dense_dims(p, weight)?,
                );
                if p.op_name_str(op) != p.op_name_str(first.op)
                    || p.num_operands(op) != p.num_operands(first.op)
                    || p.num_results(op) != p.num_results(first.op)
                    || wi != w_index
                    || a.len() != b.len()
                    || a.get(compare) != b.get(compare)
                {
                    continue;
                }
            } else {
                w_index = wi;
            }
            let bias = if p.num_operands(op) > 2 {
                Some(p.operand(op, 2)?)
            } else {
                None
            };
            users.push(User { op, weight, bias });
        }
        (users.len() >= 3).then_some((users, w_index))
    }
}

impl RewritePattern for HorizontalFuse {
    fn name(&self) -> &str {
        "horizontal-fuse"
    }

    fn root(&self) -> Root {
        Root::Any
    }

    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, def: OpId) -> bool {
        let p = rw.program();
        for v in p.results(def).collect::<Vec<_>>() {
            if self.fuse(rw, def, v).is_some() {
                return true;
            }
        }
        false
    }
}

impl HorizontalFuse {
    fn fuse(&self, rw: &mut Rewriter<'_>, def: OpId, v: ValueId) -> Option<()> {
        let p = rw.program();
        let (users, w_index) = Self::users(p, v, def)?;
        let biased = users.iter().all(|u| u.bias.is_some());
        if users.iter().any(|u| u.bias.is_some()) && !biased {
            return None;
        }
        let mut read: Vec<ValueId> = vec![v];
        read.extend(users.iter().map(|u| u.weight));
        read.extend(users.iter().filter_map(|u| u.bias));
        if read.iter().any(|&x| alias_class(p, x).facts.written)
            || read[1..].iter().any(|&x| !defined_before(p, x, def))
        {
            return None;
        }
        let x_dims = super::dense_dims(p, v)?.to_vec();
        let w_dims: Vec<Vec<i64>> = users
            .iter()
            .map(|u| super::dense_dims(p, u.weight).map(<[i64]>::to_vec))
            .collect::<Option<_>>()?;
        // The width each user contributes, and the axis of the fused result.
        let sections: Vec<i64> = w_dims
            .iter()
            .map(|d| {
                if w_index == 1 {
                    d.last().copied()
                } else {
                    d.first().copied()
                }
            })
            .collect::<Option<_>>()?;
        if sections.iter().any(|&s| s < 0) || x_dims.len() < 2 {
            return None;
        }
        let total: i64 = sections.iter().sum();
        let split_axis = if w_index == 1 {
            x_dims.len() - 1
        } else {
            x_dims.len() - 2
        };
        let concat_axis = w_index; // weights side by side (w·x: stacked)
        let ctx = p.ctx_arc().clone();
        let first = &users[0];
        let elem = p
            .ctx()
            .type_as::<DenseTensorType>(p.value_type(first.weight))?
            .dtype;
        let mut w_cat_dims = w_dims[0].clone();
        *w_cat_dims.get_mut(concat_axis)? = w_dims.iter().map(|d| d[concat_axis]).sum();
        let mut out_dims = x_dims.clone();
        out_dims[split_axis] = total;
        let fused_attrs = p.attrs(first.op);
        let fused_name = p.op_name(first.op);
        let out_types: Vec<Type> = users
            .iter()
            .map(|u| p.value_type(p.result(u.op, 0)))
            .collect();
        let weights: Vec<ValueId> = users.iter().map(|u| u.weight).collect();
        let biases: Vec<ValueId> = users.iter().filter_map(|u| u.bias).collect();
        let int32 = |n: i64| {
            DenseTensorType::get(
                &ctx,
                ctx.intern_type(pir_core::builtin::ScalarType::I32),
                &[n],
            )
        };
        let int64 = |n: i64| {
            DenseTensorType::get(
                &ctx,
                ctx.intern_type(pir_core::builtin::ScalarType::I64),
                &[n],
            )
        };

        let mut chain = Chain { prev: def };
        let w_cat_t = DenseTensorType::get(&ctx, elem, &w_cat_dims);
        let w_cat = chain.concat(rw, &weights, concat_axis, w_cat_t, int32(1));
        let b_cat = if biased {
            let b_t = DenseTensorType::get(&ctx, elem, &[total]);
            Some(chain.concat(rw, &biases, 0, b_t, int32(1)))
        } else {
            None
        };
        let fused_t = DenseTensorType::get(&ctx, elem, &out_dims);
        let mut operands = if w_index == 1 {
            vec![Some(v), Some(w_cat)]
        } else {
            vec![Some(w_cat), Some(v)]
        };
        if let Some(b) = b_cat {
            operands.push(Some(b));
        }
        let fused = chain.add(rw, |b| {
            let op = b
                .program()
                .create_op(fused_name, &operands, &[fused_t], fused_attrs, 0);
            b.insert(op)
        });
        // The fused op carries its first user's attributes, gradient flag included.
        rw.set_attrs(fused, fused_attrs);
        let fused_out = rw.program().result(fused, 0);
        let sections_v = chain.add(rw, |b| {
            FullIntArrayOp::build(
                b,
                &sections,
                DataType::Int64,
                Place::cpu(),
                &[int64(sections.len() as i64)],
            )
            .0
        });
        let sections_v = rw.program().result(sections_v, 0);
        let axis_v = chain.add(rw, |b| {
            FullOp::build(
                b,
                &[1],
                split_axis as f64,
                DataType::Int32,
                Place::cpu(),
                &[int32(1)],
            )
            .0
        });
        let axis_v = rw.program().result(axis_v, 0);
        let vec_out = VectorType::get(&ctx, &out_types);
        let split = chain.add(rw, |b| {
            SplitOp::build(b, fused_out, sections_v, axis_v, &[vec_out]).0
        });
        let split_out = rw.program().result(split, 0);
        let parts = chain.add(rw, |b| b.op("builtin.split", &[split_out], &out_types, &[]));
        let parts: Vec<ValueId> = rw.program().results(parts).collect();
        for (u, &part) in users.iter().zip(&parts) {
            let old = rw.program().result(u.op, 0);
            rw.replace_all_uses(old, part);
        }
        for u in &users {
            rw.erase_op(u.op);
        }
        Some(())
    }
}
