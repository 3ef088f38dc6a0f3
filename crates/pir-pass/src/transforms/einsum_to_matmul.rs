//! `einsum_to_matmul`: a two-operand `pd_op.einsum` that is a batched matrix
//! product becomes `pd_op.matmul`, with `pd_op.transpose` ops where the
//! operands or the result are laid out otherwise. Attention written as
//! `paddle.einsum("bhqk,bhkd->bqhd", attn, v)` is the common case: Paddle's
//! einsum kernel parses the equation and plans its transposes on every run,
//! which at inference sizes costs more than the product.
//!
//! The equation must be explicit (`->`), of two operands, letters (and a
//! `...` for the same number of leading batch dims in every term), no
//! letter twice in one operand, and its letters must fall into
//! the product's roles: batch letters in both operands and the output, one
//! contracted letter in both operands only, and one free letter of each
//! operand that goes to the output (a letter of one operand only that the
//! output drops is a sum, which a matmul does not do). Static sizes of a
//! letter must agree. The other results of the einsum (its cache and shape
//! vectors) must be unused, and its operand a `builtin.combine` of the two
//! tensors.

use pir_core::builtin::DenseTensorType;
use pir_core::walk::Order;
use pir_core::{Builder, InsertPoint, OpId, Program, Type, ValueId};
use pir_dialects::ops::{EinsumOp, MatmulOp, TransposeOp};

use crate::pass::{Changed, Pass, PassError, PassResult, PassRun};
use crate::transforms::dense_dims;

pass_without_options! {
    /// The `einsum_to_matmul` pass.
    INFO = "einsum_to_matmul",
        "turn a two-operand einsum that is a batched matrix product into matmul \
                  (and transposes)";
    /// The `einsum_to_matmul` pass.
    EinsumToMatmul
}

impl Pass for EinsumToMatmul {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        let mut candidates = Vec::new();
        program.walk(root, Order::Pre, &mut |op| {
            if let Some(e) = EinsumOp::from_op(program, op) {
                candidates.push(e);
            }
        });
        let mut rewritten = 0u64;
        for einsum in candidates {
            if let Some(plan) = plan(program, einsum) {
                apply(program, einsum, &plan).map_err(|message| PassError {
                    pass: INFO.argument.into(),
                    message,
                })?;
                rewritten += 1;
            }
        }
        cx.statistics.add("einsums rewritten", rewritten);
        Ok(Changed::from(rewritten > 0))
    }
}

/// How one einsum becomes a matmul.
#[derive(Debug, PartialEq, Eq)]
struct Plan {
    x: ValueId,
    y: ValueId,
    /// Transpose of `x` to `[batch.., free, contracted]` (`None`: as it is).
    perm_x: Option<Vec<i32>>,
    transpose_x: bool,
    perm_y: Option<Vec<i32>>,
    transpose_y: bool,
    /// Transpose of the product `[batch.., free x, free y]` to the output.
    perm_out: Option<Vec<i32>>,
    /// Dims of `x` and `y` after their transposes, and of the product.
    dims_x: Vec<i64>,
    dims_y: Vec<i64>,
    dims_product: Vec<i64>,
}

/// The plan for `einsum`, or `None` when it is not a batched matrix product
/// this pass handles (module docs).
fn plan(p: &Program, einsum: EinsumOp) -> Option<Plan> {
    let equation = einsum.equation(p)?;
    let (inputs, output) = equation.split_once("->")?;
    let (a, b) = inputs.split_once(',')?;
    if [einsum.inner_cache(p), einsum.xshape(p)]
        .iter()
        .any(|&r| !p.use_empty(r))
    {
        return None;
    }
    let combine = p.defining_op(einsum.x(p)?)?;
    if p.op_name_str(combine) != "builtin.combine" || p.num_operands(combine) != 2 {
        return None;
    }
    let (x, y) = (p.operand(combine, 0)?, p.operand(combine, 1)?);
    let (dx, dy) = (dense_dims(p, x)?, dense_dims(p, y)?);
    let dc = dense_dims(p, einsum.out(p))?;
    // `...` stands for the same number of batch dims in both operands.
    let ellipsis = ellipsis_dims(a, dx.len())?;
    if ellipsis_dims(b, dy.len())? != ellipsis {
        return None;
    }
    let (a, b, c) = (
        letters(a, ellipsis)?,
        letters(b, ellipsis)?,
        letters(output, ellipsis)?,
    );
    if dx.len() != a.len() || dy.len() != b.len() || dc.len() != c.len() {
        return None;
    }
    let in_a = |l: char| a.contains(&l);
    let in_b = |l: char| b.contains(&l);
    let in_c = |l: char| c.contains(&l);
    // A letter of one operand that the output drops is a sum; an output
    // letter of neither operand is unknown.
    let summed = |l: char| !(in_c(l) || (in_a(l) && in_b(l)));
    if a.iter().chain(&b).any(|&l| summed(l)) || c.iter().any(|&l| !in_a(l) && !in_b(l)) {
        return None;
    }
    let batch: Vec<char> = c.iter().copied().filter(|&l| in_a(l) && in_b(l)).collect();
    let contracted: Vec<char> = a.iter().copied().filter(|&l| in_b(l) && !in_c(l)).collect();
    let free_a: Vec<char> = a.iter().copied().filter(|&l| !in_b(l)).collect();
    let free_b: Vec<char> = b.iter().copied().filter(|&l| !in_a(l)).collect();
    let ([k], [m], [n]) = (&contracted[..], &free_a[..], &free_b[..]) else {
        return None;
    };
    // A letter's static sizes agree wherever it appears.
    let size = |l: char| -> Option<i64> {
        let sizes = [(&a, &dx), (&b, &dy), (&c, &dc)]
            .into_iter()
            .filter_map(|(ls, ds)| ls.iter().position(|&x| x == l).map(|i| ds[i]));
        let mut known = -1;
        for s in sizes {
            if s >= 0 {
                if known >= 0 && known != s {
                    return None;
                }
                known = s;
            }
        }
        Some(known)
    };
    for &l in a.iter().chain(&b) {
        size(l)?;
    }
    let layout = |from: &[char], dims: &[i64], inner: [char; 2]| {
        // As it is, as its last two swapped (matmul's transpose flag), or
        // through a transpose.
        let target: Vec<char> = batch.iter().copied().chain(inner).collect();
        let perm = permutation(from, &target)?;
        let mut swapped = target.clone();
        swapped.swap(target.len() - 2, target.len() - 1);
        let permuted: Vec<i64> = perm.iter().map(|&i| dims[i as usize]).collect();
        if is_identity(&perm) {
            Some((None, false, permuted))
        } else if from == swapped.as_slice() {
            Some((None, true, dims.to_vec()))
        } else {
            Some((Some(perm), false, permuted))
        }
    };
    let (perm_x, transpose_x, dims_x) = layout(&a, dx, [*m, *k])?;
    let (perm_y, transpose_y, dims_y) = layout(&b, dy, [*k, *n])?;
    let product: Vec<char> = batch.iter().copied().chain([*m, *n]).collect();
    let dims_product = product
        .iter()
        .map(|&l| size(l))
        .collect::<Option<Vec<_>>>()?;
    let perm_out = permutation(&product, &c)?;
    Some(Plan {
        x,
        y,
        perm_x,
        transpose_x,
        perm_y,
        transpose_y,
        perm_out: (!is_identity(&perm_out)).then_some(perm_out),
        dims_x,
        dims_y,
        dims_product,
    })
}

/// How many dims the `...` of `term` stands for in an operand of `rank` dims
/// (0 without one).
fn ellipsis_dims(term: &str, rank: usize) -> Option<usize> {
    let term = term.trim();
    match term.split_once("...") {
        Some((before, after)) => rank.checked_sub(before.len() + after.len()),
        None => Some(0),
    }
}

/// The letters of one term of an equation, its `...` spelled as `ellipsis`
/// letters of their own (Greek, which an equation cannot contain), when it
/// has only letters and none twice.
fn letters(term: &str, ellipsis: usize) -> Option<Vec<char>> {
    let term = term.trim();
    let (before, after) = term.split_once("...").unwrap_or((term, ""));
    let named = |part: &str| part.chars().all(|l| l.is_ascii_alphabetic());
    if !named(before) || !named(after) {
        return None;
    }
    let batch = (0..u32::try_from(ellipsis).ok()?).map(|i| char::from_u32(0x3b1 + i));
    let ls: Vec<char> = if term.contains("...") {
        before
            .chars()
            .map(Some)
            .chain(batch)
            .chain(after.chars().map(Some))
            .collect::<Option<_>>()?
    } else {
        before.chars().collect()
    };
    let distinct = ls.iter().enumerate().all(|(i, l)| !ls[..i].contains(l));
    (!ls.is_empty() && distinct).then_some(ls)
}

/// `perm` with `to[i] == from[perm[i]]`, when `to` is a rearrangement of `from`.
fn permutation(from: &[char], to: &[char]) -> Option<Vec<i32>> {
    if from.len() != to.len() {
        return None;
    }
    to.iter()
        .map(|l| {
            from.iter()
                .position(|x| x == l)
                .and_then(|i| i32::try_from(i).ok())
        })
        .collect()
}

fn is_identity(perm: &[i32]) -> bool {
    perm.iter()
        .enumerate()
        .all(|(i, &j)| usize::try_from(j) == Ok(i))
}

/// `ty` with other dims.
fn with_dims(p: &Program, ty: Type, dims: &[i64]) -> Option<Type> {
    let t = p.ctx().type_as::<DenseTensorType>(ty)?;
    Some(DenseTensorType::get(p.ctx(), t.dtype, dims))
}

/// `v` transposed by `perm` (`v` itself for `None`), the op recorded in `made`.
fn transpose(
    b: &mut Builder<'_>,
    made: &mut Vec<OpId>,
    v: ValueId,
    perm: &Option<Vec<i32>>,
    t: Type,
) -> ValueId {
    match perm {
        Some(perm) => {
            let op = TransposeOp::build(b, v, perm, &[t]).0;
            made.push(op);
            b.program().result(op, 0)
        }
        None => v,
    }
}

/// Builds the plan's ops before `einsum`, rewires its output and erases it.
fn apply(p: &mut Program, einsum: EinsumOp, plan: &Plan) -> Result<(), String> {
    let out = einsum.out(p);
    let out_type = p.value_type(out);
    let stop_gradient = crate::drr::value_stop_gradient(p, out);
    let sg = crate::drr::stop_gradient_attr(p.ctx(), &[stop_gradient]);
    let typed = |p: &Program, dims: &[i64]| {
        with_dims(p, out_type, dims).ok_or_else(|| "einsum output is not a dense tensor".to_owned())
    };
    let (tx, ty, tm) = (
        typed(p, &plan.dims_x)?,
        typed(p, &plan.dims_y)?,
        typed(p, &plan.dims_product)?,
    );
    let mut made = Vec::new();
    let mut b = Builder::new(p, InsertPoint::Before(einsum.0));
    let x = transpose(&mut b, &mut made, plan.x, &plan.perm_x, tx);
    let y = transpose(&mut b, &mut made, plan.y, &plan.perm_y, ty);
    let mm = MatmulOp::build(&mut b, x, y, plan.transpose_x, plan.transpose_y, &[tm]).0;
    made.push(mm);
    let product = b.program().result(mm, 0);
    let result = transpose(&mut b, &mut made, product, &plan.perm_out, out_type);
    for op in made {
        p.set_attr(op, "stop_gradient", sg);
    }
    p.replace_all_uses_with(out, result);
    p.erase_op(einsum.0).map_err(|e| e.to_string())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a test fails loudly by design
mod tests {
    use super::*;

    fn program(equation: &str, x: &str, y: &str, out: &str) -> Program {
        let ctx = pir_dialects::pd_op_context();
        let text = format!(
            r#"{{
    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[1],stop_gradient:[false]}} : () -> tensor<{x}xf32>
    (%1) = "pd_op.data" () {{dtype:float32,name:"y",place:Place(undefined:0),shape:[1],stop_gradient:[false]}} : () -> tensor<{y}xf32>
    (%2) = "builtin.combine" (%0, %1) {{stop_gradient:[false]}} : (tensor<{x}xf32>, tensor<{y}xf32>) -> vec[tensor<{x}xf32>,tensor<{y}xf32>]
    (%3, %4, %5) = "pd_op.einsum" (%2) {{equation:"{equation}",stop_gradient:[false,false,false]}} : (vec[tensor<{x}xf32>,tensor<{y}xf32>]) -> tensor<{out}xf32>, vec[tensor<f32>,tensor<f32>], vec[tensor<{x}xf32>,tensor<{y}xf32>]
    (%6) = "pd_op.fetch" (%3) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<{out}xf32>) -> tensor<{out}xf32>
}}"#
        );
        Program::parse(&ctx, &text).unwrap()
    }

    fn planned(equation: &str, x: &str, y: &str, out: &str) -> Option<Plan> {
        let p = program(equation, x, y, out);
        let op = p.block_ops(p.top_block()).nth(3).unwrap();
        plan(&p, EinsumOp::from_op(&p, op).unwrap())
    }

    #[test]
    fn attention_output_is_a_matmul_and_a_transpose() {
        let plan = planned("bhqk,bhkd->bqhd", "-1x4x5x5", "-1x4x5x8", "-1x5x4x8").unwrap();
        assert_eq!((plan.perm_x, plan.perm_y), (None, None));
        assert!(!plan.transpose_x && !plan.transpose_y);
        assert_eq!(plan.perm_out, Some(vec![0, 2, 1, 3]));
        assert_eq!(plan.dims_product, [-1, 4, 5, 8]);
    }

    #[test]
    fn swapped_operands_use_the_transpose_flags() {
        let plan = planned("bkq,bdk->bqd", "2x3x5", "2x7x3", "2x5x7").unwrap();
        assert!(plan.transpose_x && plan.transpose_y);
        assert_eq!(
            (plan.perm_x, plan.perm_y, plan.perm_out),
            (None, None, None)
        );
    }

    #[test]
    fn an_ellipsis_is_batch_dims() {
        let plan = planned("...qd,...kd->...qk", "2x4x5x8", "2x4x6x8", "2x4x5x6").unwrap();
        assert!(!plan.transpose_x && plan.transpose_y);
        assert_eq!(
            (plan.perm_x, plan.perm_y, plan.perm_out),
            (None, None, None)
        );
        assert_eq!(plan.dims_product, [2, 4, 5, 6]);
    }

    #[test]
    fn other_layouts_get_transposes() {
        let plan = planned("qbk,kbd->bqd", "5x2x3", "3x2x7", "2x5x7").unwrap();
        assert_eq!(plan.perm_x, Some(vec![1, 0, 2]));
        assert_eq!(plan.perm_y, Some(vec![1, 0, 2]));
        assert_eq!(plan.dims_x, [2, 5, 3]);
        assert_eq!(plan.perm_out, None);
    }

    #[test]
    fn what_is_not_a_matmul_stays() {
        for (eq, x, y, out) in [
            ("ij,jk", "2x3", "3x4", "2x4"),               // implicit output
            ("ij,jk->i", "2x3", "3x4", "2"),              // a sum
            ("ii,ij->ij", "3x3", "3x4", "3x4"),           // a diagonal
            ("ij,kl->ijkl", "2x3", "4x5", "2x3x4x5"),     // an outer product
            ("...ij,jk->...ik", "5x2x3", "3x4", "5x2x4"), // one-sided batch
            ("...ij,...jk->ik", "5x2x3", "5x3x4", "2x4"), // summed batch
            ("ij,jk->ik", "2x3", "4x5", "2x5"),           // sizes disagree
            ("bij,bjk,bkl->bil", "2x3", "3x4", "2x4"),
        ] {
            assert_eq!(planned(eq, x, y, out), None, "{eq}");
        }
    }

    #[test]
    fn the_rewrite_verifies() {
        let mut p = program("bhqk,bhkd->bqhd", "-1x4x5x5", "-1x4x5x8", "-1x5x4x8");
        let op = p.block_ops(p.top_block()).nth(3).unwrap();
        let e = EinsumOp::from_op(&p, op).unwrap();
        let plan = plan(&p, e).unwrap();
        apply(&mut p, e, &plan).unwrap();
        p.verify().unwrap();
        let text = p.to_string();
        assert!(text.contains(r#""pd_op.matmul" (%0, %1)"#), "{text}");
        assert!(text.contains("perm:[0,2,1,3]"), "{text}");
        assert!(!text.contains("einsum"), "{text}");
    }
}
