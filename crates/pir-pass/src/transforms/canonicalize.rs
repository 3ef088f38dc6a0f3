//! Canonicalization: identity ops removed and redundant op pairs folded,
//! applied by the greedy driver to a fixed point. The identity removals are
//! also a pass of their own (`remove-identity-ops`); Paddle's own cleanups
//! (`identity_op_clean`, `remove_redundant_transpose`) are DRR rules
//! ([`crate::transforms::fusion`]).
//!
//! Every pattern replaces an op by one of its operands only when the result
//! type equals the operand's type, so no consumer sees a different type, and
//! only when [`may_forward`] allows it: no op writes either value's buffer
//! (there the op is a real copy), and the two are not both pinned.

use pir_core::builtin::{F32Attr, F64Attr, I32Attr, I64Attr};
use pir_core::{Attribute, IrContext, OpId, Program, ValueId};
use pir_dialects::pd_op::DataType;

use crate::alias::alias_class;
use crate::pass::{Changed, Pass, PassContext, PassError};
use pir_dialects::ops::{AssignOp, CastOp, FullOp, ScaleOp, TransposeOp};

use crate::registry::{PassInfo, GREEDY_OPTIONS};
use crate::rewrite::{
    apply_greedily, FrozenPatternSet, GreedyConfig, RewritePattern, Rewriter, Root, Stop,
};

/// Replaces `op` (one result) by operand `index` when the types agree and
/// neither value is written in place (then the op's copy is observable).
fn forward_operand(rw: &mut Rewriter<'_>, op: OpId, index: usize) -> bool {
    let p = rw.program();
    let Some(x) = p.operand(op, index) else {
        return false;
    };
    forward_value(rw, op, x)
}

fn forward_value(rw: &mut Rewriter<'_>, op: OpId, x: ValueId) -> bool {
    let p = rw.program();
    let r = p.result(op, 0);
    if !may_forward(p, x, r) {
        return false;
    }
    rw.replace_op(op, &[x])
}

/// Whether every use of `r` may read `x` instead: same type, neither buffer
/// written by any op (a copy of a written buffer is observable), and not
/// both observed by identity (an output of the program fed by an input, or
/// two variables of the executor made one). Computed on demand: the greedy
/// driver changes the program between queries.
pub fn may_forward(p: &Program, x: ValueId, r: ValueId) -> bool {
    if x == r || p.value_type(x) != p.value_type(r) {
        return false;
    }
    let (cx, cr) = (alias_class(p, x), alias_class(p, r));
    !cx.facts.written && !cr.facts.written && (!cr.pinned || !cx.facts.pinned)
}

/// A number held by a float/int attribute.
fn number(ctx: &IrContext, a: Attribute) -> Option<f64> {
    ctx.attr_as::<F64Attr>(a)
        .map(|a| a.value())
        .or_else(|| ctx.attr_as::<F32Attr>(a).map(|a| f64::from(a.value())))
        .or_else(|| ctx.attr_as::<I64Attr>(a).map(|a| a.0 as f64))
        .or_else(|| ctx.attr_as::<I32Attr>(a).map(|a| f64::from(a.0)))
}

/// `scale(x, full(1)) + 0` is `x`.
struct ScaleByOne;

impl RewritePattern for ScaleByOne {
    fn name(&self) -> &str {
        "scale-by-one"
    }
    fn root(&self) -> Root {
        Root::op(ScaleOp::NAME)
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let p = rw.program();
        let scale = ScaleOp(op);
        if p.num_operands(op) != 2 || scale.bias(p).and_then(|b| number(p.ctx(), b)) != Some(0.0) {
            return false;
        }
        let Some(factor) = scale.scale(p) else {
            return false;
        };
        let Some(full) = p.defining_op(factor).and_then(|d| FullOp::from_op(p, d)) else {
            return false;
        };
        // The factor is the `full`'s value only while nothing writes it.
        if full.value(p).and_then(|v| number(p.ctx(), v)) != Some(1.0)
            || alias_class(p, factor).facts.written
        {
            return false;
        }
        forward_operand(rw, op, 0)
    }
}

/// `cast(x)` to the dtype `x` already has is `x`.
struct CastToSameType;

fn tensor_dtype(p: &Program, v: ValueId) -> Option<DataType> {
    use pir_core::builtin::{DenseTensorType, ScalarType};
    let ctx = p.ctx();
    let t = ctx.type_as::<DenseTensorType>(p.value_type(v))?;
    let d = DataType::of_scalar(*ctx.type_as::<ScalarType>(t.dtype)?);
    (d != DataType::Undefined).then_some(d)
}

impl RewritePattern for CastToSameType {
    fn name(&self) -> &str {
        "cast-to-same-type"
    }
    fn root(&self) -> Root {
        Root::op(CastOp::NAME)
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let p = rw.program();
        let cast = CastOp(op);
        let Some(x) = cast.x(p) else {
            return false;
        };
        let target = cast.dtype(p);
        if target.is_none() || target != tensor_dtype(p, x) {
            return false;
        }
        forward_operand(rw, op, 0)
    }
}

/// `assign(x)` (a copy) is `x` under value semantics.
struct AssignIsIdentity;

impl RewritePattern for AssignIsIdentity {
    fn name(&self) -> &str {
        "assign-is-identity"
    }
    fn root(&self) -> Root {
        Root::op(AssignOp::NAME)
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
        forward_operand(rw, op, 0)
    }
}

/// `transpose(transpose(x, p), q)` with `q ∘ p` the identity is `x`.
struct RedundantTranspose;

fn perm(p: &Program, op: OpId) -> Option<Vec<i64>> {
    let perm = TransposeOp(op).perm(p)?;
    Some(perm.into_iter().map(i64::from).collect())
}

impl RewritePattern for RedundantTranspose {
    fn name(&self) -> &str {
        "redundant-transpose"
    }
    fn root(&self) -> Root {
        Root::op(TransposeOp::NAME)
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let p = rw.program();
        let Some(inner) = TransposeOp(op)
            .x(p)
            .and_then(|v| p.defining_op(v))
            .and_then(|d| TransposeOp::from_op(p, d))
        else {
            return false;
        };
        let inner = inner.0;
        let (Some(outer_perm), Some(inner_perm)) = (perm(p, op), perm(p, inner)) else {
            return false;
        };
        let n = outer_perm.len();
        let identity = inner_perm.len() == n
            && (0..n).all(|i| {
                usize::try_from(outer_perm[i])
                    .ok()
                    .and_then(|j| inner_perm.get(j))
                    == Some(&(i as i64))
            });
        let Some(x) = p.operand(inner, 0) else {
            return false;
        };
        // The pair reads `x` through the inner result: a write to that
        // result between the two transposes would be lost.
        let inner_result = p.result(inner, 0);
        if !identity || alias_class(p, inner_result).facts.written {
            return false;
        }
        forward_value(rw, op, x)
    }
}

/// Applies an op's folding hook ([`pir_core::op_info::FoldInterface`]), which
/// each op registers next to its definition.
struct Fold;

impl RewritePattern for Fold {
    fn name(&self) -> &str {
        "fold"
    }
    fn root(&self) -> Root {
        Root::Any
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let p = rw.program();
        let Some(fold) = p
            .op_info(op)
            .and_then(|i| i.interface::<pir_core::op_info::FoldInterface>())
            .copied()
        else {
            return false;
        };
        let Some(values) = (fold.0)(p, op) else {
            return false;
        };
        let results: Vec<ValueId> = p.results(op).collect();
        let safe = values.len() == results.len()
            && values
                .iter()
                .zip(&results)
                .all(|(&v, &r)| may_forward(p, v, r));
        safe && rw.replace_op(op, &values)
    }
}

fn patterns(names: &[&str]) -> Vec<Box<dyn RewritePattern>> {
    let all: Vec<Box<dyn RewritePattern>> = vec![
        Box::new(Fold),
        Box::new(ScaleByOne),
        Box::new(CastToSameType),
        Box::new(AssignIsIdentity),
        Box::new(RedundantTranspose),
    ];
    all.into_iter()
        .filter(|p| names.is_empty() || names.contains(&p.name()))
        .collect()
}

/// The `canonicalize` pass.
pub const CANONICALIZE: PassInfo = PassInfo {
    argument: "canonicalize",
    description: "remove identity ops and fold redundant pairs to a fixed point",
    options: GREEDY_OPTIONS,
    make: |o| {
        Ok(Box::new(PatternPass::new(
            "canonicalize",
            patterns(&[]),
            o.take_greedy()?,
        )))
    },
};

/// The `remove-identity-ops` pass.
pub const REMOVE_IDENTITY_OPS: PassInfo = PassInfo {
    argument: "remove-identity-ops",
    description: "replace ops that compute their input by the input",
    options: GREEDY_OPTIONS,
    make: |o| {
        let set = patterns(&["scale-by-one", "cast-to-same-type", "assign-is-identity"]);
        Ok(Box::new(PatternPass::new(
            "remove-identity-ops",
            set,
            o.take_greedy()?,
        )))
    },
};

/// A pass running a frozen set of patterns greedily; it fails if the driver
/// does not converge.
pub struct PatternPass {
    argument: &'static str,
    patterns: FrozenPatternSet,
    /// Driver limits.
    pub config: GreedyConfig,
    /// Labels of patterns to report when they never fire (`None`: no report).
    report_unmatched: Option<Vec<String>>,
    /// Rewrites per pattern over every run of the pass.
    fired: Vec<u64>,
}

impl PatternPass {
    /// A pass over the given patterns.
    pub fn new(
        argument: &'static str,
        patterns: Vec<Box<dyn RewritePattern>>,
        config: GreedyConfig,
    ) -> Self {
        let fired = vec![0; patterns.len()];
        PatternPass {
            argument,
            patterns: FrozenPatternSet::new(patterns),
            config,
            report_unmatched: None,
            fired,
        }
    }

    /// Reports (as statistics notes) each pattern that has not fired after a
    /// run, by its label (`labels[i]` for pattern `i`).
    pub fn report_unmatched(mut self, labels: Vec<String>) -> Self {
        self.report_unmatched = Some(labels);
        self
    }

    /// The pattern set.
    pub fn patterns(&self) -> &FrozenPatternSet {
        &self.patterns
    }
}

impl Pass for PatternPass {
    fn argument(&self) -> &'static str {
        self.argument
    }
    fn run(
        &mut self,
        p: &mut Program,
        root: OpId,
        cx: &mut PassContext,
    ) -> Result<Changed, PassError> {
        let outcome = apply_greedily(p, root, &self.patterns, &self.config);
        cx.statistics.add("patterns applied", outcome.rewrites);
        for (total, n) in self.fired.iter_mut().zip(&outcome.per_pattern) {
            *total += n;
        }
        if let Some(labels) = &self.report_unmatched {
            for (label, &n) in labels.iter().zip(&self.fired) {
                if n == 0 {
                    cx.statistics.note(format!("{label} never matched"));
                }
            }
        }
        cx.statistics
            .add("iterations", u64::from(outcome.iterations));
        if outcome.stop != Stop::Converged {
            return Err(PassError {
                pass: self.argument.into(),
                message: format!(
                    "did not converge: {:?} after {} rewrites",
                    outcome.stop, outcome.rewrites
                ),
            });
        }
        Ok(Changed::from(outcome.rewrites > 0))
    }
}
