//! Dim expressions (Paddle's `symbol::DimExpr`): integers, symbols `S0`,
//! `S1`, … and the operations over them, printed as Paddle prints them.

use std::cmp::Ordering;
use std::fmt;

use crate::simplify::simplify;

/// Most nodes an expression may have. Arithmetic that would build a larger
/// one gives [`None`] from the `checked_*` builders, and the analysis makes
/// a fresh symbol instead, so hostile programs cannot grow expressions (or
/// the recursion over them) without bound.
pub const MAX_NODES: usize = 64;

/// A symbol: printed `S{index}`; numbered in the order the analysis makes them.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Sym(pub u32);

impl Sym {
    /// Paddle orders symbols by their names' text (`S10` before `S2`).
    pub fn cmp_by_name(self, other: Sym) -> Ordering {
        let (mut a, mut b) = ([0u8; 12], [0u8; 12]);
        let la = digits(self.0, &mut a);
        let lb = digits(other.0, &mut b);
        la.cmp(lb)
    }
}

fn digits(mut n: u32, buf: &mut [u8; 12]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &buf[i..]
}

impl fmt::Display for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "S{}", self.0)
    }
}

/// A dim expression.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DimExpr {
    /// A known extent.
    Int(i64),
    /// An unknown extent.
    Sym(Sym),
    /// `-x`.
    Neg(Box<DimExpr>),
    /// The sum of the operands.
    Add(Box<[DimExpr]>),
    /// The product of the operands.
    Mul(Box<[DimExpr]>),
    /// Integer division.
    Div(Box<(DimExpr, DimExpr)>),
    /// The largest operand.
    Max(Box<[DimExpr]>),
    /// The smallest operand.
    Min(Box<[DimExpr]>),
    /// The extent the operands broadcast to.
    Broadcast(Box<[DimExpr]>),
}

impl From<i64> for DimExpr {
    fn from(v: i64) -> DimExpr {
        DimExpr::Int(v)
    }
}

impl From<Sym> for DimExpr {
    fn from(s: Sym) -> DimExpr {
        DimExpr::Sym(s)
    }
}

impl DimExpr {
    /// The integer, when the expression is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            DimExpr::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// The symbol, when the expression is one.
    pub fn as_sym(&self) -> Option<Sym> {
        match self {
            DimExpr::Sym(s) => Some(*s),
            _ => None,
        }
    }

    /// Whether the expression is a known integer.
    pub fn is_int(&self) -> bool {
        matches!(self, DimExpr::Int(_))
    }

    /// The operands of a variadic operation.
    pub fn operands(&self) -> Option<&[DimExpr]> {
        match self {
            DimExpr::Add(v)
            | DimExpr::Mul(v)
            | DimExpr::Max(v)
            | DimExpr::Min(v)
            | DimExpr::Broadcast(v) => Some(v),
            _ => None,
        }
    }

    /// The variadic operation of `self`'s kind over `ops` (a broadcast for
    /// any other kind: only variadic expressions are rebuilt).
    pub fn with_operands(&self, ops: Vec<DimExpr>) -> DimExpr {
        let ops = ops.into_boxed_slice();
        match self {
            DimExpr::Add(_) => DimExpr::Add(ops),
            DimExpr::Mul(_) => DimExpr::Mul(ops),
            DimExpr::Max(_) => DimExpr::Max(ops),
            DimExpr::Min(_) => DimExpr::Min(ops),
            _ => DimExpr::Broadcast(ops),
        }
    }

    /// How many nodes the expression has.
    pub fn nodes(&self) -> usize {
        match self {
            DimExpr::Int(_) | DimExpr::Sym(_) => 1,
            DimExpr::Neg(x) => 1 + x.nodes(),
            DimExpr::Div(b) => 1 + b.0.nodes() + b.1.nodes(),
            DimExpr::Add(v)
            | DimExpr::Mul(v)
            | DimExpr::Max(v)
            | DimExpr::Min(v)
            | DimExpr::Broadcast(v) => 1 + v.iter().map(DimExpr::nodes).sum::<usize>(),
        }
    }

    /// Paddle's priority for substitution: integers 0, symbols 1, the rest 2.
    pub fn priority(&self) -> u8 {
        match self {
            DimExpr::Int(_) => 0,
            DimExpr::Sym(_) => 1,
            _ => 2,
        }
    }

    /// Calls `f` on every symbol of the expression.
    pub fn for_each_sym(&self, f: &mut impl FnMut(Sym)) {
        match self {
            DimExpr::Int(_) => {}
            DimExpr::Sym(s) => f(*s),
            DimExpr::Neg(x) => x.for_each_sym(f),
            DimExpr::Div(b) => {
                b.0.for_each_sym(f);
                b.1.for_each_sym(f);
            }
            DimExpr::Add(v)
            | DimExpr::Mul(v)
            | DimExpr::Max(v)
            | DimExpr::Min(v)
            | DimExpr::Broadcast(v) => v.iter().for_each(|x| x.for_each_sym(f)),
        }
    }
}

/// Builds `op(a, b)` simplified, or `None` when the result would pass
/// [`MAX_NODES`].
fn binary(
    a: &DimExpr,
    b: &DimExpr,
    make: impl FnOnce(Box<[DimExpr]>) -> DimExpr,
) -> Option<DimExpr> {
    if a.nodes() + b.nodes() + 1 > MAX_NODES {
        return None;
    }
    Some(simplify(&make(Box::new([a.clone(), b.clone()]))))
}

/// `a + b` (Paddle's `operator+`).
pub fn add(a: &DimExpr, b: &DimExpr) -> Option<DimExpr> {
    if let (DimExpr::Int(x), DimExpr::Int(y)) = (a, b) {
        return x.checked_add(*y).map(DimExpr::Int);
    }
    binary(a, b, DimExpr::Add)
}

/// `a - b` (Paddle's `operator-`: `Add(a, Negative(b))`).
pub fn sub(a: &DimExpr, b: &DimExpr) -> Option<DimExpr> {
    if let (DimExpr::Int(x), DimExpr::Int(y)) = (a, b) {
        return x.checked_sub(*y).map(DimExpr::Int);
    }
    let neg = DimExpr::Neg(Box::new(b.clone()));
    binary(a, &neg, DimExpr::Add)
}

/// `a * b` (Paddle's `operator*`).
pub fn mul(a: &DimExpr, b: &DimExpr) -> Option<DimExpr> {
    if let (DimExpr::Int(x), DimExpr::Int(y)) = (a, b) {
        return x.checked_mul(*y).map(DimExpr::Int);
    }
    binary(a, b, DimExpr::Mul)
}

/// `a / b` (Paddle's `operator/`: two integers fold to the quotient,
/// truncated toward zero as C++ divides).
pub fn div(a: &DimExpr, b: &DimExpr) -> Option<DimExpr> {
    if let (DimExpr::Int(x), DimExpr::Int(y)) = (a, b) {
        return x.checked_div(*y).map(DimExpr::Int);
    }
    if a.nodes() + b.nodes() + 1 > MAX_NODES {
        return None;
    }
    Some(simplify(&DimExpr::Div(Box::new((a.clone(), b.clone())))))
}

/// `Max(a, b)` as Paddle's builder makes it (integers fold).
pub fn max(a: &DimExpr, b: &DimExpr) -> Option<DimExpr> {
    if let (DimExpr::Int(x), DimExpr::Int(y)) = (a, b) {
        return Some(DimExpr::Int(*x.max(y)));
    }
    binary(a, b, DimExpr::Max)
}

/// `Min(a, b)` as Paddle's builder makes it (integers fold).
pub fn min(a: &DimExpr, b: &DimExpr) -> Option<DimExpr> {
    if let (DimExpr::Int(x), DimExpr::Int(y)) = (a, b) {
        return Some(DimExpr::Int(*x.min(y)));
    }
    binary(a, b, DimExpr::Min)
}

/// `Broadcast(a, b)` simplified.
pub fn broadcast(a: &DimExpr, b: &DimExpr) -> Option<DimExpr> {
    binary(a, b, DimExpr::Broadcast)
}

fn write_list(f: &mut fmt::Formatter<'_>, name: &str, v: &[DimExpr]) -> fmt::Result {
    f.write_str(name)?;
    f.write_str("(")?;
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{x}")?;
    }
    f.write_str(")")
}

impl fmt::Display for DimExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DimExpr::Int(v) => write!(f, "{v}"),
            DimExpr::Sym(s) => write!(f, "{s}"),
            DimExpr::Neg(x) => write!(f, "-{x}"),
            DimExpr::Div(b) => write!(f, "Div({}, {})", b.0, b.1),
            DimExpr::Add(v) => write_list(f, "Add", v),
            DimExpr::Mul(v) => write_list(f, "Mul", v),
            DimExpr::Max(v) => write_list(f, "Max", v),
            DimExpr::Min(v) => write_list(f, "Min", v),
            DimExpr::Broadcast(v) => write_list(f, "Broadcast", v),
        }
    }
}

/// Writes `[a, b, c]` as Paddle prints a list of dim expressions.
pub(crate) fn write_dims(f: &mut impl fmt::Write, dims: &[DimExpr]) -> fmt::Result {
    f.write_char('[')?;
    for (i, d) in dims.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{d}")?;
    }
    f.write_char(']')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(n: u32) -> DimExpr {
        DimExpr::Sym(Sym(n))
    }

    #[test]
    fn prints_as_paddle() {
        let e = add(&s(3), &DimExpr::Int(1)).unwrap();
        assert_eq!(e.to_string(), "Add(S3, 1)");
        let e = mul(&DimExpr::Int(160), &s(0)).unwrap();
        assert_eq!(e.to_string(), "Mul(S0, 160)");
    }

    #[test]
    fn symbols_order_by_name() {
        assert_eq!(Sym(10).cmp_by_name(Sym(2)), Ordering::Less);
        assert_eq!(Sym(1).cmp_by_name(Sym(11)), Ordering::Less);
    }

    #[test]
    fn integer_overflow_is_none() {
        assert!(add(&DimExpr::Int(i64::MAX), &DimExpr::Int(1)).is_none());
        assert!(div(&DimExpr::Int(1), &DimExpr::Int(0)).is_none());
    }
}
