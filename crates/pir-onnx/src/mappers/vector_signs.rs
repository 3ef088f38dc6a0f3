//! Where the signs of eigenvectors and singular vectors cancel: LAPACK's,
//! which Paddle returns, follow no rule, so the vectors an unrolled solver
//! computes (`eigen`) may differ from Paddle's by the sign of each vector,
//! and are exported only where no output depends on those signs.

use pir_core::{OpId, ValueId};
use rustc_hash::FxHashMap;

use crate::attrs::attrs;
use crate::export::Exporter;
use crate::ExportError;

/// The error for vectors (`what`) read other than in products that cancel
/// their signs (`forms`): see the module docs.
pub(crate) fn signs_read(x: &Exporter<'_>, what: &str, forms: &str) -> ExportError {
    x.unsupported(format!(
        "{what} read other than in products that cancel their signs ({forms}): LAPACK's, \
         which Paddle returns, have signs that follow no rule a graph could reproduce"
    ))
}

/// Which axis of a value carries the signs of the vectors it was computed
/// from: flipping vector `k` flips index `k` of this axis.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum SignAxis {
    /// The last axis (the columns of `V`).
    Last,
    /// The axis before it (the rows of `Vᵀ`).
    SecondLast,
}

/// Whether every path from the vectors `seeds` (values of one block, each
/// with the axis that indexes its vectors) to an output of the program
/// cancels their signs, so that any signs give Paddle's results: the
/// vectors and values computed from them may be scaled (`scale` without
/// bias), multiplied or divided elementwise by a tensor that carries no
/// signs and adds no axes, transposed (keeping the sign-carrying axis among
/// the last two), or multiplied by a diagonal matrix (`diag`, `diag_embed`)
/// on the side that keeps the sign-carrying axis, and must end in a
/// `matmul` that sums over the sign-carrying axes of both its operands
/// (`V·Vᵀ`, `(V·D)·Vᵀ`, `U·VH`). Anything else (a fetch, an addition, a
/// `matmul` with another matrix, a reader in a nested block) sees the
/// signs.
pub(crate) fn signs_cancel(x: &Exporter<'_>, seeds: &[(ValueId, SignAxis)]) -> bool {
    let p = x.p;
    let Some(block) = seeds.first().and_then(|&(v, _)| p.value_parent_block(v)) else {
        return false;
    };
    let mut carriers: FxHashMap<ValueId, SignAxis> = seeds.iter().copied().collect();
    // In program order, so both operands of a product are classified
    // before the product is.
    for op in p.block_ops(block) {
        let mut read = p
            .operands(op)
            .flatten()
            .filter(|o| carriers.contains_key(o));
        let Some(c) = read.next() else {
            continue;
        };
        if p.num_results(op) != 1 {
            return false;
        }
        let once = read.next().is_none();
        let carried = carriers.get(&c).copied();
        let first = p.operand(op, 0) == Some(c);
        let axis = match p.op_name_str(op) {
            // Linear in the carrier: s·V (no bias), V ⊙ z, V / z for a z
            // that does not carry the signs and adds no axes.
            "pd_op.scale" | "pd_op.scale_"
                if first && once && attrs(p, op).f64_or("bias", 0.0).ok() == Some(0.0) =>
            {
                carried
            }
            "pd_op.multiply" | "pd_op.multiply_" | "pd_op.divide" | "pd_op.divide_"
                if once
                    && (first || p.op_name_str(op).starts_with("pd_op.multiply"))
                    && keeps_rank(x, op, c) =>
            {
                carried
            }
            "pd_op.transpose" if once => match carried.and_then(|a| transposed(x, op, a)) {
                Some(axis) => Some(axis),
                None => return false,
            },
            "pd_op.matmul" => match matmul_signs(x, op, &carriers) {
                Some(axis) => axis,
                None => return false,
            },
            _ => return false,
        };
        if let Some(axis) = axis {
            carriers.insert(p.result(op, 0), axis);
        }
    }
    // Readers in nested blocks were not classified.
    carriers.keys().all(|&c| {
        p.uses(c)
            .all(|u| p.op_parent_block(p.operand_owner(u)) == Some(block))
    })
}

/// For a `matmul` with a sign-carrying operand: `Some(None)` when it sums
/// over the sign-carrying axes of both operands (the signs cancel),
/// `Some(Some(axis))` when it multiplies a carrier by a diagonal matrix on
/// the side that keeps its signs (the result carries them on `axis`), and
/// `None` otherwise.
fn matmul_signs(
    x: &Exporter<'_>,
    op: OpId,
    carriers: &FxHashMap<ValueId, SignAxis>,
) -> Option<Option<SignAxis>> {
    let p = x.p;
    let a = attrs(p, op);
    let tx = a.bool_or("transpose_x", false).ok()?;
    let ty = a.bool_or("transpose_y", false).ok()?;
    let (lhs, rhs) = (p.operand(op, 0)?, p.operand(op, 1)?);
    // The axis each operand sums over.
    let summed_l = if tx {
        SignAxis::SecondLast
    } else {
        SignAxis::Last
    };
    let summed_r = if ty {
        SignAxis::Last
    } else {
        SignAxis::SecondLast
    };
    match (carriers.get(&lhs), carriers.get(&rhs)) {
        (Some(&l), Some(&r)) => (l == summed_l && r == summed_r).then_some(None),
        (Some(&l), None) if l == summed_l && is_diagonal(x, rhs) => Some(Some(SignAxis::Last)),
        (None, Some(&r)) if r == summed_r && is_diagonal(x, lhs) => {
            Some(Some(SignAxis::SecondLast))
        }
        _ => None,
    }
}

/// The dims of value `v`, if it is a tensor.
fn dims_of(x: &Exporter<'_>, v: ValueId) -> Option<Vec<i64>> {
    x.dims_of_type(x.p.value_type(v))
}

/// Whether the result of `op` has the rank of its operand `c` (so axes
/// counted from the end are the same axes in both).
fn keeps_rank(x: &Exporter<'_>, op: OpId, c: ValueId) -> bool {
    let out = dims_of(x, x.p.result(op, 0)).map(|d| d.len());
    out.is_some() && out == dims_of(x, c).map(|d| d.len())
}

/// Where `transpose` (`op`) moves the sign-carrying axis `axis`: one of the
/// last two, or `None`.
fn transposed(x: &Exporter<'_>, op: OpId, axis: SignAxis) -> Option<SignAxis> {
    let perm = attrs(x.p, op).ints("perm").ok()?;
    let r = perm.len() as i64;
    let from = match axis {
        SignAxis::Last => r - 1,
        SignAxis::SecondLast => r - 2,
    };
    let to = perm.iter().position(|&a| (a + r) % r.max(1) == from)? as i64;
    match r - to {
        1 => Some(SignAxis::Last),
        2 => Some(SignAxis::SecondLast),
        _ => None,
    }
}

/// Whether `m` is a diagonal matrix by construction: `diag` of a vector,
/// or `diag_embed` onto the last two axes, at offset 0.
fn is_diagonal(x: &Exporter<'_>, m: ValueId) -> bool {
    let p = x.p;
    let Some(op) = p.defining_op(m) else {
        return false;
    };
    let a = attrs(p, op);
    match p.op_name_str(op) {
        "pd_op.diag" => {
            a.i64_or("offset", 0).ok() == Some(0)
                && p.operand(op, 0)
                    .and_then(|v| dims_of(x, v))
                    .is_some_and(|d| d.len() == 1)
        }
        "pd_op.diag_embed" => {
            let Some(rank) = dims_of(x, m).map(|d| d.len() as i64) else {
                return false;
            };
            let axis = |name, default| {
                a.i64_or(name, default)
                    .ok()
                    .map(|v: i64| (v + rank) % rank.max(1))
            };
            a.i64_or("offset", 0).ok() == Some(0)
                && matches!(
                    (axis("dim1", -2), axis("dim2", -1)),
                    (Some(d1), Some(d2)) if (d1.min(d2), d1.max(d2)) == (rank - 2, rank - 1)
                )
        }
        _ => false,
    }
}
