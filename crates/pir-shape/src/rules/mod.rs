//! Per-op inference rules (Paddle's `InferSymbolicShapeInterface`), a
//! module per subject. Ops of no particular subject sit by operand count,
//! as in Paddle's files: `nullary`, `unary` (with `unary/` splitting the
//! one-operand ops by kind), `binary`, `multiary`, `same_operands` (results
//! shaped like the first operand), `element_wise` (broadcasting binaries),
//! `backward`. The others are named by subject, whatever their operand
//! count: `control_flow` (`if`, `while`, builtin ops), `arrays` (tensor
//! arrays, loop-gradient stacks), `slice`, `linalg`, `quantize`,
//! `detection`, `fused`, `graph`, `recurrent`, `norm`, `vocab`,
//! `tensor_lists`. Each module's `RULES` lists the ops it serves.

mod arrays;
mod backward;
mod binary;
mod control_flow;
mod detection;
mod element_wise;
mod fused;
mod graph;
mod linalg;
mod multiary;
mod norm;
mod nullary;
mod quantize;
mod recurrent;
mod same_operands;
mod slice;
mod tensor_lists;
mod unary;
mod vocab;

use pir_core::builtin::{
    ArrayAttr, BoolAttr, DenseTensorType, F32Attr, F64Attr, I32Attr, I64Attr, IndexAttr,
    ScalarType, StrAttr,
};
use pir_core::{Attribute, IrContext, OpId, Program, ValueId};
use pir_dialects::pd_op::{DataType, IntArrayAttr};
use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use crate::analysis::ShapeAnalysis;
use crate::expr::{self, DimExpr};
use crate::fact::{ShapeOrData, TensorFact};

/// What a rule refused (Paddle's `PADDLE_ENFORCE` message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Bad(pub String);

pub(crate) type Res = Result<(), Bad>;

/// A rule: sets the facts of an op's results.
pub(crate) type Rule = fn(&mut Cx<'_>) -> Res;

/// The ops of the definitions that declare the symbolic shape interface.
mod table {
    use pir_dialects::op_def::OP_DEFS;

    /// `(op, InferMeta function)` of every op declaring the interface, in
    /// name order.
    pub(super) fn symbolic_ops() -> impl Iterator<Item = (&'static str, &'static str)> {
        OP_DEFS
            .iter()
            .filter(|d| {
                d.interfaces
                    .iter()
                    .any(|i| i.ends_with("InferSymbolicShapeInterface"))
            })
            .map(|d| {
                (
                    d.name.as_str(),
                    d.runtime.map_or("", |rt| rt.infer_meta_func.as_str()),
                )
            })
    }
}

const FAMILIES: [&[(&str, Rule)]; 26] = [
    arrays::RULES,
    tensor_lists::RULES,
    slice::RULES,
    nullary::RULES,
    unary::RULES,
    binary::RULES,
    multiary::RULES,
    multiary::metrics::RULES,
    same_operands::RULES,
    element_wise::RULES,
    backward::RULES,
    control_flow::RULES,
    linalg::RULES,
    detection::RULES,
    quantize::RULES,
    fused::RULES,
    graph::RULES,
    recurrent::RULES,
    norm::RULES,
    vocab::RULES,
    unary::diag::RULES,
    unary::linalg::RULES,
    unary::misc::RULES,
    unary::pool::RULES,
    unary::signal::RULES,
    unary::unique::RULES,
];

/// The rule shared by the ops whose InferMeta function is `func`, for ops
/// declaring the symbolic shape interface without a rule of their own:
/// Paddle gives these families one rule each.
fn family_rule(func: &str) -> Option<Rule> {
    Some(match func {
        "UnchangedInferMeta"
        | "UnchangedInferMetaCheckAxis"
        | "UnchangedExceptLayoutInferMeta"
        | "IsfiniteInferMeta"
        | "RealAndImagInferMeta"
        | "CIdentityInferMeta"
        | "StridedUnChangedInferMeta"
        | "CastInferMeta"
        | "AllReduceInferMeta"
        | "ClipByNormInferMeta"
        | "SetValueInferMeta"
        | "QuantizeLinearInferMeta" => same_operands::same,
        "ElementwiseInferMeta"
        | "ElementwiseRawInferMeta"
        | "CompareInferMeta"
        | "CompareRawInferMeta"
        | "LogicalBinaryInferMeta"
        | "BitwiseShiftInferMeta" => element_wise::plain,
        "ReduceInferMeta" | "ReduceIntArrayAxisInferMeta" | "ReduceSumInferMeta" => unary::reduce,
        "GeneralUnaryGradInferMeta"
        | "GeneralBinaryGradInferMeta"
        | "GeneralTernaryGradInferMeta"
        | "GeneralQuaternaryGradInferMeta"
        | "GeneralQuinaryGradInferMeta" => backward::grad_like_inputs,
        _ => return None,
    })
}

/// The rule of ops named `name`: its own, else its family's when it
/// declares the symbolic shape interface.
pub(crate) fn find(name: &str) -> Option<Rule> {
    static TABLE: OnceLock<FxHashMap<&'static str, Rule>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut m = FxHashMap::default();
        for (op, func) in table::symbolic_ops() {
            if let Some(r) = family_rule(func) {
                m.insert(op, r);
            }
        }
        for list in FAMILIES {
            for &(n, r) in list {
                m.insert(n, r);
            }
        }
        m
    });
    table.get(name).copied()
}

/// Names of the ops with a rule (their own or their family's).
pub fn ops_with_rules() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = FAMILIES
        .iter()
        .flat_map(|l| l.iter().map(|&(n, _)| n))
        .chain(
            table::symbolic_ops()
                .filter(|(_, f)| family_rule(f).is_some())
                .map(|(n, _)| n),
        )
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The ops Paddle 3.3.1 gives the symbolic shape interface.
pub fn ops_declaring_interface() -> impl Iterator<Item = &'static str> {
    table::symbolic_ops().map(|(n, _)| n)
}

/// The op being inferred and the analysis.
pub(crate) struct Cx<'a> {
    pub p: &'a Program,
    pub a: &'a mut ShapeAnalysis,
    pub op: OpId,
    pub depth: usize,
}

fn bad<T>(msg: impl Into<String>) -> Result<T, Bad> {
    Err(Bad(msg.into()))
}

impl Cx<'_> {
    pub fn ctx(&self) -> &IrContext {
        self.p.ctx()
    }

    /// Operand `i`, if present.
    pub fn operand(&self, i: usize) -> Option<ValueId> {
        (i < self.p.num_operands(self.op))
            .then(|| self.p.operand(self.op, i))
            .flatten()
    }

    pub fn num_operands(&self) -> usize {
        self.p.num_operands(self.op)
    }

    /// The fact of operand `i` (null when absent).
    pub fn input(&mut self, i: usize) -> ShapeOrData {
        match self.operand(i) {
            Some(v) => self.a.get(self.p, v),
            None => ShapeOrData::Null,
        }
    }

    /// Operand `i` as a tensor.
    pub fn tensor(&mut self, i: usize) -> Result<TensorFact, Bad> {
        match self.input(i) {
            ShapeOrData::Tensor(t) => Ok(t),
            ShapeOrData::Null => bad(format!("operand {i} is missing")),
            _ => bad(format!("operand {i} is not a tensor")),
        }
    }

    /// The shape of operand `i`.
    pub fn shape(&mut self, i: usize) -> Result<Vec<DimExpr>, Bad> {
        Ok(self.tensor(i)?.shape)
    }

    /// Operand `i` as a list of tensors.
    pub fn list(&mut self, i: usize) -> Result<Vec<TensorFact>, Bad> {
        match self.input(i) {
            ShapeOrData::List(l) => Ok(l),
            ShapeOrData::Tensor(t) => Ok(vec![t]),
            _ => bad(format!("operand {i} is not a list")),
        }
    }

    pub fn num_results(&self) -> usize {
        self.p.num_results(self.op)
    }

    /// Sets result `i`'s fact (ignored past the results; a result
    /// without a type, an absent optional output, gets the null fact).
    /// For passes, a fact of another rank than the result's type (some of
    /// Paddle's rules make them, and `pir shapes` prints them as Paddle
    /// does) is replaced by the type's shape, and the op listed as
    /// skipped: dims of different axes must never look equal to a pass.
    pub fn set(&mut self, i: usize, fact: ShapeOrData) {
        if i < self.num_results() {
            let r = self.p.result(self.op, i);
            let ty = self.p.value_type(r);
            let fact = if ty.is_null() {
                ShapeOrData::Null
            } else if self.a.serves_passes() {
                let wrong = crate::rank_check::wrong_ranks(self.ctx(), ty, &fact).next();
                match wrong {
                    Some((_, fact_rank, type_rank)) => {
                        self.a.note_skipped(
                            self.p,
                            self.op,
                            format!(
                                "a fact of rank {fact_rank} for result {i} of rank {type_rank}"
                            ),
                        );
                        self.a.static_fact(self.p.ctx(), ty)
                    }
                    None => fact,
                }
            } else {
                fact
            };
            self.a.set(r, fact);
        }
    }

    /// Whether result `i` is absent (an optional output without a type).
    pub fn result_is_null(&self, i: usize) -> bool {
        i >= self.num_results() || self.p.value_type(self.p.result(self.op, i)).is_null()
    }

    pub fn set_shape(&mut self, i: usize, shape: Vec<DimExpr>) {
        self.set(i, ShapeOrData::shape(shape));
    }

    pub fn set_tensor(&mut self, i: usize, t: TensorFact) {
        self.set(i, ShapeOrData::Tensor(t));
    }

    pub fn sym(&mut self) -> DimExpr {
        self.a.new_sym()
    }

    pub fn eq(&mut self, a: &DimExpr, b: &DimExpr) {
        self.a.add_eq(a, b);
    }

    pub fn broadcastable(&mut self, a: &DimExpr, b: &DimExpr) {
        self.a.add_broadcastable(a, b);
    }

    /// `a + b`, or a fresh symbol when it cannot be represented.
    pub fn add(&mut self, a: &DimExpr, b: &DimExpr) -> DimExpr {
        expr::add(a, b).unwrap_or_else(|| self.sym())
    }
    pub fn sub(&mut self, a: &DimExpr, b: &DimExpr) -> DimExpr {
        expr::sub(a, b).unwrap_or_else(|| self.sym())
    }
    pub fn mul(&mut self, a: &DimExpr, b: &DimExpr) -> DimExpr {
        expr::mul(a, b).unwrap_or_else(|| self.sym())
    }
    pub fn div(&mut self, a: &DimExpr, b: &DimExpr) -> DimExpr {
        expr::div(a, b).unwrap_or_else(|| self.sym())
    }
    pub fn max(&mut self, a: &DimExpr, b: &DimExpr) -> DimExpr {
        expr::max(a, b).unwrap_or_else(|| self.sym())
    }
    pub fn min(&mut self, a: &DimExpr, b: &DimExpr) -> DimExpr {
        expr::min(a, b).unwrap_or_else(|| self.sym())
    }
    pub fn broadcast(&mut self, a: &DimExpr, b: &DimExpr) -> DimExpr {
        expr::broadcast(a, b).unwrap_or_else(|| self.sym())
    }

    /// The product of `dims`.
    pub fn product(&mut self, dims: &[DimExpr]) -> DimExpr {
        let mut acc = DimExpr::Int(1);
        for d in dims {
            acc = self.mul(&acc, d);
        }
        acc
    }

    // ------------------------------------------------------------ attributes

    pub fn attr(&self, name: &str) -> Option<Attribute> {
        self.p.attr(self.op, name).filter(|a| !a.is_null())
    }

    pub fn int_attr(&self, name: &str) -> Option<i64> {
        attr_int(self.ctx(), self.attr(name)?)
    }

    pub fn float_attr(&self, name: &str) -> Option<f64> {
        attr_float(self.ctx(), self.attr(name)?)
    }

    pub fn bool_attr(&self, name: &str) -> Option<bool> {
        self.ctx()
            .attr_as::<BoolAttr>(self.attr(name)?)
            .map(|b| b.0)
    }

    pub fn str_attr(&self, name: &str) -> Option<&str> {
        self.ctx()
            .attr_as::<StrAttr>(self.attr(name)?)
            .map(|s| &*s.0)
    }

    /// An integer list attribute (an IntArray or an array of integers).
    pub fn ints_attr(&self, name: &str) -> Option<Vec<i64>> {
        let a = self.attr(name)?;
        let ctx = self.ctx();
        if let Some(arr) = ctx.attr_as::<IntArrayAttr>(a) {
            return Some(arr.0.to_vec());
        }
        ctx.attr_as::<ArrayAttr>(a)?
            .0
            .iter()
            .map(|&x| attr_int(ctx, x))
            .collect()
    }

    /// An integer list given by attribute `name` or, when the op has it as
    /// operand `i`, by that operand's data (Paddle's IntArray inputs).
    pub fn int_list(&mut self, i: usize, name: &str) -> Result<Option<Vec<DimExpr>>, Bad> {
        if let Some(v) = self.ints_attr(name) {
            return Ok(Some(v.into_iter().map(DimExpr::Int).collect()));
        }
        if self.operand(i).is_none() {
            return Ok(None);
        }
        Ok(match self.input(i) {
            ShapeOrData::Tensor(t) => t.data,
            ShapeOrData::List(l) => {
                let mut out = Vec::new();
                for t in l {
                    match t.data.as_deref() {
                        Some([d]) => out.push(d.clone()),
                        _ => return Ok(None),
                    }
                }
                Some(out)
            }
            _ => None,
        })
    }

    /// The dims of result `i`'s type.
    pub fn result_dims(&self, i: usize) -> Option<Vec<i64>> {
        if i >= self.num_results() {
            return None;
        }
        let ty = self.p.value_type(self.p.result(self.op, i));
        self.ctx()
            .type_as::<DenseTensorType>(ty)
            .map(|t| t.dims.to_vec())
    }

    /// Whether result `i` is an int32 or int64 tensor.
    pub fn result_is_int(&self, i: usize) -> bool {
        if i >= self.num_results() {
            return false;
        }
        self.value_is_int(self.p.result(self.op, i))
    }

    /// Whether `v` is an int32 or int64 tensor (the values whose data the
    /// analysis follows).
    pub fn value_is_int(&self, v: ValueId) -> bool {
        let ty = self.p.value_type(v);
        let Some(t) = self.ctx().type_as::<DenseTensorType>(ty) else {
            return false;
        };
        matches!(
            int_dtype(self.ctx(), t.dtype),
            Some(DataType::Int32 | DataType::Int64)
        )
    }

    /// Gives result `i` the fact of operand `j` (shape and data).
    pub fn share(&mut self, j: usize, i: usize) {
        let f = self.input(j);
        self.set(i, f);
    }

    /// Normalizes a possibly negative axis against `rank`.
    pub fn axis(&self, axis: i64, rank: usize) -> Result<usize, Bad> {
        let r = rank as i64;
        let a = if axis < 0 { axis + r } else { axis };
        if a < 0 || a >= r {
            return bad(format!("axis {axis} out of range for rank {rank}"));
        }
        Ok(a as usize)
    }
}

/// Refuses `x` unless its rank is `rank`; `message` words the refusal
/// from the rank received (Paddle's `PADDLE_ENFORCE_EQ` on a rank).
pub(crate) fn rank_is(x: &[DimExpr], rank: usize, message: impl FnOnce(usize) -> String) -> Res {
    if x.len() == rank {
        Ok(())
    } else {
        Err(Bad(message(x.len())))
    }
}

/// The integer data type of an element type (int32 and int64 only: the
/// element types whose data the analysis follows).
pub(crate) fn int_dtype(ctx: &IrContext, elem: pir_core::Type) -> Option<DataType> {
    match ctx.type_as::<ScalarType>(elem)? {
        ScalarType::I32 => Some(DataType::Int32),
        ScalarType::I64 => Some(DataType::Int64),
        _ => None,
    }
}

pub(crate) fn attr_int(ctx: &IrContext, a: Attribute) -> Option<i64> {
    ctx.attr_as::<I64Attr>(a)
        .map(|x| x.0)
        .or_else(|| ctx.attr_as::<I32Attr>(a).map(|x| i64::from(x.0)))
        .or_else(|| ctx.attr_as::<IndexAttr>(a).map(|x| x.0))
        .or_else(|| {
            let f = attr_float_only(ctx, a)?;
            (f.fract() == 0.0 && f.abs() < 9.0e18).then_some(f as i64)
        })
}

fn attr_float_only(ctx: &IrContext, a: Attribute) -> Option<f64> {
    ctx.attr_as::<F64Attr>(a)
        .map(|x| x.value())
        .or_else(|| ctx.attr_as::<F32Attr>(a).map(|x| f64::from(x.value())))
}

pub(crate) fn attr_float(ctx: &IrContext, a: Attribute) -> Option<f64> {
    attr_float_only(ctx, a).or_else(|| {
        ctx.attr_as::<I64Attr>(a)
            .map(|x| x.0 as f64)
            .or_else(|| ctx.attr_as::<I32Attr>(a).map(|x| f64::from(x.0)))
    })
}

/// Ints as dim expressions.
pub(crate) fn ints(v: &[i64]) -> Vec<DimExpr> {
    v.iter().map(|&x| DimExpr::Int(x)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_names_a_defined_op() {
        for list in FAMILIES {
            for &(name, _) in list {
                assert!(
                    pir_dialects::op_def(name).is_some() || name.starts_with("builtin."),
                    "{name} is not an op of the definitions"
                );
            }
        }
    }

    #[test]
    fn most_ops_declaring_the_interface_have_a_rule() {
        let with: Vec<&str> = ops_with_rules();
        let declared: Vec<&str> = ops_declaring_interface().collect();
        let covered = declared.iter().filter(|n| with.contains(n)).count();
        eprintln!(
            "{covered}/{} ops declaring the interface have a rule",
            declared.len()
        );
        assert!(
            declared.len() > 600,
            "{} ops declare the interface",
            declared.len()
        );
        assert!(covered >= 450, "only {covered} have a rule");
    }
}
