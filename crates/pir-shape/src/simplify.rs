//! Simplification of dim expressions, pass for pass as Paddle's
//! `SimplifyDimExpr` runs them: operands simplified, sorted (Paddle's
//! order of kinds), nested operations flattened, unit and constant
//! operands folded, inverse pairs and redundant broadcast operands removed,
//! until nothing changes.

use std::cmp::Ordering;

use crate::expr::DimExpr;

/// Rounds of the pipeline at most (each round shrinks or reorders the
/// expression; Paddle loops until a fixed point, which bounded expressions
/// reach in a few rounds).
const MAX_ROUNDS: usize = 32;

/// Paddle's `SimplifyDimExpr`.
pub fn simplify(expr: &DimExpr) -> DimExpr {
    simplify_depth(expr, 0)
}

/// Deepest nesting simplified: expressions are bounded by
/// [`crate::expr::MAX_NODES`], so this is never reached by the analysis.
const MAX_DEPTH: usize = 64;

fn simplify_depth(expr: &DimExpr, depth: usize) -> DimExpr {
    if matches!(expr, DimExpr::Int(_) | DimExpr::Sym(_)) || depth > MAX_DEPTH {
        return expr.clone();
    }
    let mut e = expr.clone();
    for _ in 0..MAX_ROUNDS {
        let before = e.clone();
        e = neg_operand(e, depth);
        e = double_neg(e);
        e = simplify_operands(e, depth);
        e = sort_operands(e);
        e = flatten(e);
        e = fold_unit(e);
        e = fold_constants(e);
        e = fold_inverse_pair(e);
        e = fold_redundant_broadcast(e);
        e = fold_symbolic_broadcast(e);
        e = simplify_broadcast(e);
        e = simplify_div(e);
        if e == before {
            break;
        }
    }
    e
}

fn rank(e: &DimExpr) -> u8 {
    match e {
        DimExpr::Broadcast(_) => 10,
        DimExpr::Mul(_) => 20,
        DimExpr::Div(_) => 30,
        DimExpr::Add(_) => 40,
        DimExpr::Sym(_) => 50,
        DimExpr::Int(_) => 60,
        DimExpr::Neg(_) => 70,
        DimExpr::Max(_) => 80,
        DimExpr::Min(_) => 90,
    }
}

/// Paddle's `IsLhsBeforeRhs`.
pub(crate) fn before(a: &DimExpr, b: &DimExpr) -> bool {
    match (a, b) {
        (DimExpr::Int(x), DimExpr::Int(y)) => x < y,
        (DimExpr::Sym(x), DimExpr::Sym(y)) => x.cmp_by_name(*y) == Ordering::Less,
        (DimExpr::Neg(x), DimExpr::Neg(y)) => before(x, y),
        (DimExpr::Div(x), DimExpr::Div(y)) => before(&x.0, &y.0),
        (DimExpr::Add(x), DimExpr::Add(y))
        | (DimExpr::Mul(x), DimExpr::Mul(y))
        | (DimExpr::Broadcast(x), DimExpr::Broadcast(y)) => list_before(x, y),
        _ => rank(a) < rank(b),
    }
}

fn list_before(x: &[DimExpr], y: &[DimExpr]) -> bool {
    if x.len() != y.len() {
        return x.len() < y.len();
    }
    for (a, b) in x.iter().zip(y) {
        if a != b {
            return before(a, b);
        }
    }
    false
}

fn order(a: &DimExpr, b: &DimExpr) -> Ordering {
    if before(a, b) {
        Ordering::Less
    } else if before(b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

/// One operand left: the operand; none: the unit.
fn collapse(like: &DimExpr, mut ops: Vec<DimExpr>, unit: i64) -> DimExpr {
    match ops.len() {
        0 => DimExpr::Int(unit),
        1 => ops.pop().unwrap_or(DimExpr::Int(unit)),
        _ => like.with_operands(ops),
    }
}

/// [`collapse`] of `ops` without the operands at `dropped`.
fn collapse_without(like: &DimExpr, ops: &[DimExpr], dropped: &[usize], unit: i64) -> DimExpr {
    let rest = ops
        .iter()
        .enumerate()
        .filter(|(k, _)| !dropped.contains(k))
        .map(|(_, o)| o.clone())
        .collect();
    collapse(like, rest, unit)
}

fn neg_operand(e: DimExpr, depth: usize) -> DimExpr {
    match e {
        DimExpr::Neg(x) => {
            let s = simplify_depth(&x, depth + 1);
            if s == DimExpr::Int(0) {
                DimExpr::Int(0)
            } else {
                DimExpr::Neg(Box::new(s))
            }
        }
        e => e,
    }
}

fn double_neg(e: DimExpr) -> DimExpr {
    let DimExpr::Neg(inner) = &e else { return e };
    match &**inner {
        DimExpr::Neg(x) => (**x).clone(),
        DimExpr::Int(v) => DimExpr::Int(v.wrapping_neg()),
        DimExpr::Mul(ops) => {
            let minus = ops.iter().filter(|o| **o == DimExpr::Int(-1)).count();
            if minus != 1 {
                return e;
            }
            let rest: Vec<DimExpr> = ops
                .iter()
                .filter(|o| **o != DimExpr::Int(-1))
                .cloned()
                .collect();
            collapse(inner, rest, 1)
        }
        DimExpr::Div(b) if b.1 == DimExpr::Int(-1) => b.0.clone(),
        _ => e,
    }
}

fn simplify_operands(e: DimExpr, depth: usize) -> DimExpr {
    match &e {
        DimExpr::Add(ops) | DimExpr::Mul(ops) | DimExpr::Broadcast(ops) => {
            let new: Vec<DimExpr> = ops.iter().map(|o| simplify_depth(o, depth + 1)).collect();
            if new[..] == ops[..] {
                e
            } else {
                e.with_operands(new)
            }
        }
        DimExpr::Div(b) => {
            let l = simplify_depth(&b.0, depth + 1);
            let r = simplify_depth(&b.1, depth + 1);
            DimExpr::Div(Box::new((l, r)))
        }
        _ => e,
    }
}

fn sort_operands(e: DimExpr) -> DimExpr {
    match &e {
        DimExpr::Add(ops) | DimExpr::Mul(ops) | DimExpr::Broadcast(ops) => {
            if ops.len() == 1 {
                return ops[0].clone();
            }
            if ops.windows(2).all(|w| !before(&w[1], &w[0])) {
                return e;
            }
            let mut v = ops.to_vec();
            v.sort_by(order);
            e.with_operands(v)
        }
        _ => e,
    }
}

fn flatten(e: DimExpr) -> DimExpr {
    match &e {
        DimExpr::Add(ops) => {
            let nested = ops
                .iter()
                .any(|o| matches!(o, DimExpr::Add(_)) || is_neg_add(o));
            if !nested {
                return e;
            }
            let mut out = Vec::new();
            flatten_add(&e, false, &mut out);
            DimExpr::Add(out.into_boxed_slice())
        }
        DimExpr::Mul(ops) if ops.iter().any(|o| matches!(o, DimExpr::Mul(_))) => {
            let mut out = Vec::new();
            flatten_same(&e, &mut out);
            DimExpr::Mul(out.into_boxed_slice())
        }
        DimExpr::Broadcast(ops) if ops.iter().any(|o| matches!(o, DimExpr::Broadcast(_))) => {
            let mut out = Vec::new();
            flatten_same(&e, &mut out);
            DimExpr::Broadcast(out.into_boxed_slice())
        }
        _ => e,
    }
}

fn is_neg_add(e: &DimExpr) -> bool {
    match e {
        DimExpr::Neg(x) => matches!(**x, DimExpr::Add(_)) || is_neg_add(x),
        _ => false,
    }
}

fn flatten_add(e: &DimExpr, negated: bool, out: &mut Vec<DimExpr>) {
    match e {
        DimExpr::Add(ops) => ops.iter().for_each(|o| flatten_add(o, negated, out)),
        DimExpr::Neg(x) => flatten_add(x, !negated, out),
        other if negated => out.push(DimExpr::Neg(Box::new(other.clone()))),
        other => out.push(other.clone()),
    }
}

fn flatten_same(e: &DimExpr, out: &mut Vec<DimExpr>) {
    match (e, e.operands()) {
        (DimExpr::Mul(_) | DimExpr::Broadcast(_), Some(ops)) => {
            for o in ops {
                if std::mem::discriminant(o) == std::mem::discriminant(e) {
                    flatten_same(o, out);
                } else {
                    out.push(o.clone());
                }
            }
        }
        _ => out.push(e.clone()),
    }
}

fn add_const(e: &DimExpr) -> Option<i64> {
    match e {
        DimExpr::Int(v) => Some(*v),
        DimExpr::Neg(x) => x.as_int().map(i64::wrapping_neg),
        _ => None,
    }
}

fn fold_unit(e: DimExpr) -> DimExpr {
    let (unit, is_const): (i64, fn(&DimExpr) -> bool) = match &e {
        DimExpr::Add(_) => (0, |o| add_const(o).is_some()),
        DimExpr::Mul(_) | DimExpr::Broadcast(_) => (1, DimExpr::is_int),
        DimExpr::Div(b) => {
            return if b.1 == DimExpr::Int(1) {
                b.0.clone()
            } else {
                e
            };
        }
        _ => return e,
    };
    let Some(ops) = e.operands() else { return e };
    if !ops.iter().any(is_const) {
        return e;
    }
    let rest: Vec<DimExpr> = ops
        .iter()
        .filter(|o| **o != DimExpr::Int(unit))
        .cloned()
        .collect();
    if rest.len() == ops.len() {
        return e;
    }
    collapse(&e, rest, unit)
}

fn fold_constants(e: DimExpr) -> DimExpr {
    if let DimExpr::Div(b) = &e {
        return fold_div_constants(&e, &b.0, &b.1);
    }
    let Some(ops) = e.operands() else { return e };
    let is_const = |o: &DimExpr| match &e {
        DimExpr::Add(_) => add_const(o).is_some(),
        _ => o.is_int(),
    };
    if ops.iter().filter(|o| is_const(o)).count() <= 1 {
        return e;
    }
    let (unit, fold): (i64, fn(i64, i64) -> i64) = match &e {
        DimExpr::Add(_) => (0, i64::wrapping_add),
        DimExpr::Mul(_) => (1, i64::wrapping_mul),
        DimExpr::Max(_) => (i64::MIN, i64::max),
        DimExpr::Min(_) => (i64::MAX, i64::min),
        _ => (1, |acc, v| if acc == 1 { v } else { acc }),
    };
    let mut acc = unit;
    let mut rest = Vec::new();
    for o in ops {
        match (is_const(o), add_const(o)) {
            (true, Some(v)) => acc = fold(acc, v),
            _ => rest.push(o.clone()),
        }
    }
    let keep = match &e {
        DimExpr::Max(_) | DimExpr::Min(_) => true,
        _ => acc != unit,
    };
    if keep {
        rest.push(DimExpr::Int(acc));
    }
    collapse(&e, rest, unit)
}

fn mul_operands(e: &DimExpr) -> Vec<DimExpr> {
    match e {
        DimExpr::Mul(ops) => ops.to_vec(),
        other => vec![other.clone()],
    }
}

fn div_result(mut num: Vec<DimExpr>, mut den: Vec<DimExpr>) -> DimExpr {
    let join = |mut v: Vec<DimExpr>| {
        if v.len() == 1 {
            v.pop().unwrap_or(DimExpr::Int(1))
        } else {
            DimExpr::Mul(v.into_boxed_slice())
        }
    };
    match (num.is_empty(), den.is_empty()) {
        (true, true) => DimExpr::Int(1),
        (false, true) => join(std::mem::take(&mut num)),
        (true, false) => DimExpr::Div(Box::new((DimExpr::Int(1), join(std::mem::take(&mut den))))),
        (false, false) => DimExpr::Div(Box::new((join(num), join(den)))),
    }
}

fn fold_div_constants(e: &DimExpr, l: &DimExpr, r: &DimExpr) -> DimExpr {
    let (ln, li): (Vec<DimExpr>, Vec<DimExpr>) =
        mul_operands(l).into_iter().partition(|o| !o.is_int());
    let (rn, ri): (Vec<DimExpr>, Vec<DimExpr>) =
        mul_operands(r).into_iter().partition(|o| !o.is_int());
    let (Some(a), Some(b)) = (
        li.first().and_then(DimExpr::as_int),
        ri.first().and_then(DimExpr::as_int),
    ) else {
        return e.clone();
    };
    if li.len() != 1 || ri.len() != 1 || (a == 0 && b == 0) {
        return e.clone();
    }
    let g = gcd(a, b).max(1);
    let (a, b) = (a / g, b / g);
    let (mut ln, mut rn) = (ln, rn);
    if a != 1 {
        ln.push(DimExpr::Int(a));
    }
    if b != 1 {
        rn.push(DimExpr::Int(b));
    }
    div_result(ln, rn)
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).unwrap_or(1)
}

fn fold_inverse_pair(e: DimExpr) -> DimExpr {
    let DimExpr::Add(ops) = &e else { return e };
    for i in 0..ops.len() {
        for j in 0..ops.len() {
            if i == j {
                continue;
            }
            let inverse = match (&ops[i], &ops[j]) {
                (DimExpr::Neg(x), y) => **x == *y,
                (x, DimExpr::Neg(y)) => **y == *x,
                _ => false,
            };
            if inverse {
                return collapse_without(&e, ops, &[i, j], 0);
            }
        }
    }
    e
}

fn fold_redundant_broadcast(e: DimExpr) -> DimExpr {
    let DimExpr::Broadcast(ops) = &e else {
        return e;
    };
    for i in 0..ops.len() {
        if (0..ops.len()).any(|j| j != i && ops[i] == ops[j]) {
            return collapse_without(&e, ops, &[i], 1);
        }
    }
    e
}

fn fold_symbolic_broadcast(e: DimExpr) -> DimExpr {
    let DimExpr::Broadcast(ops) = &e else {
        return e;
    };
    let mut found: Option<(i64, usize)> = None;
    for (i, o) in ops.iter().enumerate() {
        let Some(v) = o.as_int() else { continue };
        match found {
            None => found = Some((v, i)),
            Some(_) if v > 1 => found = Some((v, i)),
            _ => {}
        }
    }
    let Some((v, i)) = found else { return e };
    if v != 1 {
        return DimExpr::Int(v);
    }
    collapse_without(&e, ops, &[i], 1)
}

/// Whether `lhs` is a sum or product holding `rhs` whose other operands
/// are positive integers or symbols (so `lhs >= rhs`).
fn greater_than(lhs: &DimExpr, rhs: &DimExpr) -> bool {
    let ops = match lhs {
        DimExpr::Add(ops) | DimExpr::Mul(ops) => ops,
        _ => return false,
    };
    let mut has = false;
    for o in ops.iter() {
        if o == rhs {
            has = true;
        } else if !(o.as_int().is_some_and(|v| v > 0) || o.as_sym().is_some()) {
            return false;
        }
    }
    has
}

fn simplify_broadcast(e: DimExpr) -> DimExpr {
    let DimExpr::Broadcast(ops) = &e else {
        return e;
    };
    let mut v = ops.to_vec();
    'outer: while v.len() > 1 {
        for i in 0..v.len() - 1 {
            for j in i + 1..v.len() {
                if greater_than(&v[i], &v[j]) {
                    v.remove(j);
                    continue 'outer;
                } else if greater_than(&v[j], &v[i]) {
                    v.remove(i);
                    continue 'outer;
                }
            }
        }
        break;
    }
    if v.len() == ops.len() {
        return e;
    }
    collapse(&e, v, 1)
}

fn simplify_div(e: DimExpr) -> DimExpr {
    let DimExpr::Div(b) = &e else { return e };
    let mut l = mul_operands(&b.0);
    let mut r = mul_operands(&b.1);
    l.sort_by(order);
    r.sort_by(order);
    let (mut i, mut j) = (0, 0);
    let (mut nl, mut nr) = (Vec::new(), Vec::new());
    while i < l.len() && j < r.len() {
        if l[i] == r[j] {
            i += 1;
            j += 1;
        } else if before(&l[i], &r[j]) {
            nl.push(l[i].clone());
            i += 1;
        } else {
            nr.push(r[j].clone());
            j += 1;
        }
    }
    nl.extend_from_slice(&l[i..]);
    nr.extend_from_slice(&r[j..]);
    div_result(nl, nr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::Sym;

    fn s(n: u32) -> DimExpr {
        DimExpr::Sym(Sym(n))
    }

    #[test]
    fn folds_constants_and_units() {
        let e = DimExpr::Add(Box::new([DimExpr::Int(1), s(0), DimExpr::Int(2)]));
        assert_eq!(simplify(&e).to_string(), "Add(S0, 3)");
        let e = DimExpr::Mul(Box::new([DimExpr::Int(1), s(0)]));
        assert_eq!(simplify(&e), s(0));
        let e = DimExpr::Add(Box::new([s(1), DimExpr::Neg(Box::new(s(1)))]));
        assert_eq!(simplify(&e), DimExpr::Int(0));
    }

    #[test]
    fn broadcasts_fold() {
        let e = DimExpr::Broadcast(Box::new([s(1), s(0), s(1)]));
        assert_eq!(simplify(&e).to_string(), "Broadcast(S0, S1)");
        let e = DimExpr::Broadcast(Box::new([s(1), DimExpr::Int(1)]));
        assert_eq!(simplify(&e), s(1));
        let e = DimExpr::Broadcast(Box::new([s(1), DimExpr::Int(4)]));
        assert_eq!(simplify(&e), DimExpr::Int(4));
    }

    #[test]
    fn divisions_cancel() {
        let e = DimExpr::Div(Box::new((
            DimExpr::Mul(Box::new([s(0), DimExpr::Int(8)])),
            DimExpr::Int(4),
        )));
        assert_eq!(simplify(&e).to_string(), "Mul(S0, 2)");
        let e = DimExpr::Div(Box::new((DimExpr::Mul(Box::new([s(0), s(1)])), s(1))));
        assert_eq!(simplify(&e), s(0));
    }
}
