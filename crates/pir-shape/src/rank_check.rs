//! Facts against types: a rule that stores a fact of the wrong rank can
//! make dims look equal that are not (the dims of another axis), so the
//! analysis can list every value whose fact's rank differs from its
//! type's.

use pir_core::builtin::{DenseTensorType, VectorType};
use pir_core::walk::Order;
use pir_core::{IrContext, OpId, Program, Type, ValueId};

use crate::analysis::ShapeAnalysis;
use crate::fact::ShapeOrData;

/// A result whose fact has another rank than its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankMismatch {
    /// The op that made the value.
    pub op: OpId,
    /// The op's name.
    pub name: String,
    /// The value.
    pub value: ValueId,
    /// Which item of a vector value (0 for a tensor).
    pub item: usize,
    /// The fact's rank.
    pub fact_rank: usize,
    /// The type's rank.
    pub type_rank: usize,
}

/// The `(item, fact rank, type rank)` of each tensor of `fact` whose rank
/// differs from its dense tensor type in `ty` (a vector's items compared
/// one by one); other facts and types are not compared.
pub(crate) fn wrong_ranks(
    ctx: &IrContext,
    ty: Type,
    fact: &ShapeOrData,
) -> Vec<(usize, usize, usize)> {
    let pairs: Vec<(usize, usize)> = match fact {
        ShapeOrData::Tensor(t) => ctx
            .type_as::<DenseTensorType>(ty)
            .map(|d| vec![(t.rank(), d.dims.len())])
            .unwrap_or_default(),
        ShapeOrData::List(items) => ctx
            .type_as::<VectorType>(ty)
            .map(|v| {
                items
                    .iter()
                    .zip(v.0.iter())
                    .filter_map(|(t, &item)| {
                        let d = ctx.type_as::<DenseTensorType>(item)?;
                        Some((t.rank(), d.dims.len()))
                    })
                    .collect()
            })
            .unwrap_or_default(),
        ShapeOrData::Array(_) | ShapeOrData::Null => Vec::new(),
    };
    pairs
        .into_iter()
        .enumerate()
        .filter(|(_, (f, t))| f != t)
        .map(|(i, (f, t))| (i, f, t))
        .collect()
}

impl ShapeAnalysis {
    /// Every result of `program`'s ops (regions included) whose fact is a
    /// tensor, or a list of tensors, of another rank than its dense tensor
    /// type (or the vector's item types). Values without a fact or of
    /// other types are not compared.
    pub fn rank_mismatches(&self, program: &Program) -> Vec<RankMismatch> {
        let mut out = Vec::new();
        let mut check = |op: OpId| {
            for value in program.results(op) {
                let Some(fact) = self.fact(value) else {
                    continue;
                };
                let ty = program.value_type(value);
                for (item, fact_rank, type_rank) in wrong_ranks(program.ctx(), ty, fact) {
                    out.push(RankMismatch {
                        op,
                        name: program.op_name_str(op).to_string(),
                        value,
                        item,
                        fact_rank,
                        type_rank,
                    });
                }
            }
        };
        program.walk_block(program.top_block(), Order::Pre, &mut check);
        out
    }
}
