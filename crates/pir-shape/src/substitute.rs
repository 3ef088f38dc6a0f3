//! Substitution of dim expressions (Paddle's `SubstituteDimExpr`): a
//! pattern maps expressions to their replacements; whole matches first,
//! then operands, then a variadic operation holding all of a pattern's
//! operands.

use rustc_hash::FxHashMap;

use crate::expr::DimExpr;
use crate::simplify::simplify;

/// Expressions to replace, by the expression replacing each.
pub type Pattern = FxHashMap<DimExpr, DimExpr>;

/// `e` with the pattern applied and, when it changed, simplified (as
/// Paddle's `SubstituteShapeOrData` simplifies every substituted dim).
pub fn substitute(e: &DimExpr, pattern: &Pattern) -> DimExpr {
    if pattern.is_empty() {
        return e.clone();
    }
    substitute_opt(e, pattern, 0).map_or_else(|| e.clone(), |r| simplify(&r))
}

/// Deepest nesting visited (expressions are bounded far below this).
const MAX_DEPTH: usize = 64;

fn substitute_opt(e: &DimExpr, pattern: &Pattern, depth: usize) -> Option<DimExpr> {
    if let Some(r) = pattern.get(e) {
        return Some(r.clone());
    }
    if depth > MAX_DEPTH {
        return None;
    }
    match e {
        DimExpr::Int(_) | DimExpr::Sym(_) => None,
        DimExpr::Neg(x) => substitute_opt(x, pattern, depth + 1).map(|x| DimExpr::Neg(Box::new(x))),
        DimExpr::Div(b) => {
            let l = substitute_opt(&b.0, pattern, depth + 1);
            let r = substitute_opt(&b.1, pattern, depth + 1);
            if l.is_none() && r.is_none() {
                return None;
            }
            Some(DimExpr::Div(Box::new((
                l.unwrap_or_else(|| b.0.clone()),
                r.unwrap_or_else(|| b.1.clone()),
            ))))
        }
        _ => variadic(e, pattern, depth),
    }
}

fn variadic(e: &DimExpr, pattern: &Pattern, depth: usize) -> Option<DimExpr> {
    let ops = e.operands()?;
    let mut replaced = 0;
    let new: Vec<DimExpr> = ops
        .iter()
        .map(|o| match substitute_opt(o, pattern, depth + 1) {
            Some(r) => {
                replaced += 1;
                r
            }
            None => o.clone(),
        })
        .collect();
    if replaced > 0 {
        let whole = simplify(&e.with_operands(new));
        if std::mem::discriminant(&whole) == std::mem::discriminant(e) {
            if let Some(sub) = sub_operands(&whole, pattern) {
                return Some(sub);
            }
        }
        return Some(whole);
    }
    sub_operands(e, pattern)
}

/// A pattern of `e`'s kind whose operands all occur in `e` replaces them.
fn sub_operands(e: &DimExpr, pattern: &Pattern) -> Option<DimExpr> {
    let ops = e.operands()?;
    for (k, v) in pattern {
        if std::mem::discriminant(k) != std::mem::discriminant(e) {
            continue;
        }
        let Some(kops) = k.operands() else { continue };
        if !kops.iter().all(|o| ops.contains(o)) {
            continue;
        }
        let mut out = vec![v.clone()];
        out.extend(ops.iter().filter(|o| !kops.contains(o)).cloned());
        return Some(simplify(&e.with_operands(out)));
    }
    None
}
