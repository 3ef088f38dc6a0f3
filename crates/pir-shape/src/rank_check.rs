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
/// one by one, `item` counting every item); other facts and types are not
/// compared. Nothing is allocated: passes ask this for every result.
pub(crate) fn wrong_ranks<'a>(
    ctx: &'a IrContext,
    ty: Type,
    fact: &'a ShapeOrData,
) -> impl Iterator<Item = (usize, usize, usize)> + 'a {
    let single = match fact {
        ShapeOrData::Tensor(t) => ctx
            .type_as::<DenseTensorType>(ty)
            .map(|d| (0, t.rank(), d.dims.len())),
        _ => None,
    };
    let (items, item_types): (&[_], &[Type]) = match fact {
        ShapeOrData::List(items) => (
            items,
            ctx.type_as::<VectorType>(ty).map_or(&[], |v| &v.0[..]),
        ),
        _ => (&[], &[]),
    };
    let listed = items
        .iter()
        .zip(item_types)
        .enumerate()
        .filter_map(move |(i, (t, &item))| {
            let d = ctx.type_as::<DenseTensorType>(item)?;
            Some((i, t.rank(), d.dims.len()))
        });
    single
        .into_iter()
        .chain(listed)
        .filter(|&(_, fact_rank, type_rank)| fact_rank != type_rank)
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
