//! The constraint store (Paddle's `ConstraintsManager`): dims known equal
//! (a union-find over expressions), pairs known broadcastable, and dims
//! known greater than one.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::expr::{DimExpr, Sym};
use crate::substitute::substitute;

/// What the analysis must substitute after an equality: `origin` is
/// replaced by `replacement` wherever it occurs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Substitution {
    pub origin: DimExpr,
    pub replacement: DimExpr,
}

/// Equal, broadcastable and greater-than-one facts about dims.
#[derive(Default, Clone, Debug)]
pub struct Constraints {
    parent: FxHashMap<DimExpr, DimExpr>,
    broadcastables: Vec<(DimExpr, DimExpr)>,
    gtones: FxHashSet<DimExpr>,
}

/// Which of two expressions substitution keeps: integers over symbols over
/// the rest; among symbols the shorter name, then the smaller text.
fn keeps_lhs(lhs: &DimExpr, rhs: &DimExpr) -> Option<bool> {
    let (a, b) = (lhs.priority(), rhs.priority());
    if a != b {
        return Some(a < b);
    }
    match (lhs, rhs) {
        (DimExpr::Sym(x), DimExpr::Sym(y)) => match x
            .to_string()
            .len()
            .cmp(&y.to_string().len())
            .then(x.cmp_by_name(*y))
        {
            std::cmp::Ordering::Equal => None,
            o => Some(o == std::cmp::Ordering::Less),
        },
        _ => None,
    }
}

/// Paddle's `EliminateCommonFactor` for two sums or two products: the
/// operands the two sides do not share.
type Make = fn(Box<[DimExpr]>) -> DimExpr;

fn eliminate_common(lhs: &DimExpr, rhs: &DimExpr) -> Option<(DimExpr, DimExpr)> {
    let (l, r, make): (&[DimExpr], &[DimExpr], Make) = match (lhs, rhs) {
        (DimExpr::Add(l), DimExpr::Add(r)) => (l, r, DimExpr::Add),
        (DimExpr::Mul(l), DimExpr::Mul(r)) => (l, r, DimExpr::Mul),
        _ => return None,
    };
    let mut left: Vec<DimExpr> = l.to_vec();
    let mut right_diff = Vec::new();
    for x in r {
        if let Some(p) = left.iter().position(|y| y == x) {
            left.remove(p);
        } else {
            right_diff.push(x.clone());
        }
    }
    if left.is_empty() || right_diff.is_empty() {
        return None;
    }
    let one = |mut v: Vec<DimExpr>| {
        if v.len() == 1 {
            v.pop()
        } else {
            Some(make(v.into_boxed_slice()))
        }
    };
    Some((one(left)?, one(right_diff)?))
}

impl Constraints {
    fn find(&self, e: &DimExpr) -> DimExpr {
        let mut cur = e;
        // Paths are short (unions link roots); the bound guards against a
        // cycle a bug could make.
        for _ in 0..1024 {
            match self.parent.get(cur) {
                Some(p) if p != cur => cur = p,
                _ => break,
            }
        }
        cur.clone()
    }

    fn union(&mut self, a: &DimExpr, b: &DimExpr) {
        let (ra, rb) = (self.find(a), self.find(b));
        self.parent.entry(rb.clone()).or_insert_with(|| rb.clone());
        if ra != rb {
            self.parent.insert(ra, rb);
        }
    }

    /// Records `lhs == rhs` (Paddle's `AddEqCstr`); returns the
    /// substitution the analysis applies to its facts.
    pub(crate) fn add_eq(&mut self, lhs: &DimExpr, rhs: &DimExpr) -> Option<Substitution> {
        if lhs == rhs {
            return None;
        }
        if let Some((l, r)) = eliminate_common(lhs, rhs) {
            // Only a strictly smaller pair recurses (each side lost an operand).
            if l != *lhs && r != *rhs {
                return self.add_eq(&l, &r);
            }
        }
        if lhs.priority() >= 2 || rhs.priority() >= 2 {
            self.union(lhs, rhs);
        }
        let (origin, replacement) = match keeps_lhs(lhs, rhs)? {
            true => (rhs.clone(), lhs.clone()),
            false => (lhs.clone(), rhs.clone()),
        };
        if origin.priority() < 2 && replacement.priority() < 2 {
            self.substitute(&origin, &replacement);
        }
        Some(Substitution {
            origin,
            replacement,
        })
    }

    fn substitute(&mut self, origin: &DimExpr, replacement: &DimExpr) {
        let mut pattern = FxHashMap::default();
        pattern.insert(origin.clone(), replacement.clone());
        let old = std::mem::take(&mut self.parent);
        for (k, v) in old {
            let (k, v) = (substitute(&k, &pattern), substitute(&v, &pattern));
            self.union(&k, &v);
        }
        self.gtones = self
            .gtones
            .iter()
            .map(|g| substitute(g, &pattern))
            .collect();
        self.broadcastables = std::mem::take(&mut self.broadcastables)
            .into_iter()
            .map(|(a, b)| (substitute(&a, &pattern), substitute(&b, &pattern)))
            .filter(|(a, b)| a != b)
            .collect();
    }

    /// Whether `lhs` and `rhs` are known equal.
    pub fn is_equal(&self, lhs: &DimExpr, rhs: &DimExpr) -> bool {
        lhs == rhs
            || (self.parent.contains_key(lhs)
                && self.parent.contains_key(rhs)
                && self.find(lhs) == self.find(rhs))
    }

    /// Whether `e` is known greater than one (recorded, or by its form).
    pub fn is_gt_one(&self, e: &DimExpr) -> bool {
        self.gtones.contains(e) || gt_one_by_value(e)
    }

    /// Records `e > 1`; returns the equalities this implies with the dims
    /// `e` is broadcastable with.
    pub(crate) fn add_gt_one(&mut self, e: &DimExpr) -> Vec<(DimExpr, DimExpr)> {
        self.gtones.insert(e.clone());
        let mut eqs = Vec::new();
        for (a, b) in &self.broadcastables {
            let other = if a == e {
                b
            } else if b == e {
                a
            } else {
                continue;
            };
            if self.is_gt_one(other) {
                eqs.push((e.clone(), other.clone()));
            } else {
                eqs.push((
                    e.clone(),
                    DimExpr::Broadcast(Box::new([e.clone(), other.clone()])),
                ));
            }
        }
        eqs
    }

    /// Records that `lhs` and `rhs` broadcast together; returns the
    /// equality this implies when one side is known greater than one.
    pub(crate) fn add_broadcastable(
        &mut self,
        lhs: &DimExpr,
        rhs: &DimExpr,
    ) -> Option<(DimExpr, DimExpr)> {
        if !self.is_broadcastable(lhs, rhs) {
            self.broadcastables.push((lhs.clone(), rhs.clone()));
        }
        let bc = || DimExpr::Broadcast(Box::new([lhs.clone(), rhs.clone()]));
        match (self.is_gt_one(lhs), self.is_gt_one(rhs)) {
            (true, true) => Some((lhs.clone(), rhs.clone())),
            (true, false) => Some((lhs.clone(), bc())),
            (false, true) => Some((rhs.clone(), bc())),
            (false, false) => None,
        }
    }

    /// Whether `lhs` and `rhs` are recorded as broadcastable.
    pub fn is_broadcastable(&self, lhs: &DimExpr, rhs: &DimExpr) -> bool {
        self.broadcastables
            .iter()
            .any(|(a, b)| (a == lhs && b == rhs) || (a == rhs && b == lhs))
    }

    /// The symbols in some recorded equality (for tests and reports).
    pub fn equal_symbols(&self) -> Vec<Sym> {
        let mut out = Vec::new();
        for k in self.parent.keys() {
            k.for_each_sym(&mut |s| out.push(s));
        }
        out.sort_by_key(|s| s.0);
        out.dedup();
        out
    }
}

/// Paddle's `IsGTOneBaseOnValue`.
fn gt_one_by_value(e: &DimExpr) -> bool {
    match e {
        DimExpr::Int(v) => *v > 1,
        DimExpr::Add(ops) | DimExpr::Mul(ops) => {
            if ops.iter().all(gt_one_by_value) {
                return true;
            }
            let mut some = false;
            for o in ops.iter() {
                match o {
                    DimExpr::Broadcast(_) => some = true,
                    DimExpr::Int(v) if *v >= 1 => some = true,
                    DimExpr::Sym(_) => {}
                    _ => return false,
                }
            }
            some
        }
        _ => false,
    }
}
