//! Builtin and control-flow ops the lowering copies instead of turning into
//! kernels (Paddle's `SpecialLowerOps`, `HandleForSpecialOp`): the copy
//! keeps the op's name and attributes, adds `origin_id` (the copied op's
//! number), and types its results from the lowered operands or as kernel
//! types on the CPU.

use pir_core::builtin::{I32Attr, I64Attr, VectorType};
use pir_core::{BlockId, OpId, Type};
use pir_dialects::pd_op::Place;

use super::{LowerError, Lowering};
use crate::types::AllocatedType;

/// How a copied op's result types are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SpecialKind {
    /// `builtin.combine`: a vector of its lowered operands' types.
    Combine,
    /// `builtin.parameter`, `cinn_runtime.jit_kernel`: kernel types on the executor's place.
    OnPlace,
    /// `builtin.constant`, `cf.has_elements`: kernel types on the CPU.
    OnCpu,
    /// `builtin.slice`: the element of its operand's vector at `index`.
    Slice,
    /// `builtin.split`: the elements of its operand's vector.
    Split,
    /// `cf.stack_create`, `cf.tuple_push`: the op's own types.
    Same,
    /// `cf.tuple_pop`: kernel types with no place.
    Unplaced,
    /// `pd_op.select_input`, `pd_op.select_output`: the second operand's type.
    SecondOperand,
    /// Ops without results (`cf.yield`, `builtin.shadow_output`,
    /// `builtin.set_parameter`, `pd_op.assert`).
    NoResults,
}

/// How the op `name` is copied, if it is copied rather than lowered to a
/// kernel (`if`, `while` and `pylayer` are rebuilt separately).
pub(super) fn kind_of(name: &str) -> Option<SpecialKind> {
    Some(match name {
        "builtin.combine" => SpecialKind::Combine,
        "builtin.parameter" | "cinn_runtime.jit_kernel" => SpecialKind::OnPlace,
        "builtin.constant" | "cf.has_elements" => SpecialKind::OnCpu,
        "builtin.slice" => SpecialKind::Slice,
        "builtin.split" => SpecialKind::Split,
        "cf.stack_create" | "cf.tuple_push" => SpecialKind::Same,
        "cf.tuple_pop" => SpecialKind::Unplaced,
        "pd_op.select_input" | "pd_op.select_output" => SpecialKind::SecondOperand,
        "cf.yield" | "builtin.shadow_output" | "builtin.set_parameter" | "pd_op.assert" => {
            SpecialKind::NoResults
        }
        _ => return None,
    })
}

impl Lowering<'_> {
    /// Copies a special op with kernel types.
    pub(super) fn lower_special(
        &mut self,
        op: OpId,
        index: usize,
        block: BlockId,
        kind: SpecialKind,
    ) -> Result<(), LowerError> {
        let ctx = self.ctx;
        let name = self.src.op_name_str(op);
        let operands = self.new_operands(op, index)?;
        let unsupported = |what: String| LowerError::Unsupported {
            op: name.to_owned(),
            what,
        };
        let operand_types: Vec<Type> = operands
            .iter()
            .map(|v| v.map_or(Type::NULL, |v| self.dst.value_type(v)))
            .collect();
        let types: Vec<Type> = match kind {
            SpecialKind::Combine => {
                let present: Vec<Type> = operand_types
                    .iter()
                    .copied()
                    .filter(|t| !t.is_null())
                    .collect();
                vec![VectorType::get(ctx, &present)]
            }
            SpecialKind::OnPlace => self.placed_results(op, &self.place.clone())?,
            SpecialKind::OnCpu => self.placed_results(op, &Place::cpu())?,
            SpecialKind::Slice => {
                let index = self
                    .src
                    .attr(op, "index")
                    .and_then(|a| ctx.attr_as::<I32Attr>(a))
                    .map(|a| a.0)
                    .ok_or_else(|| unsupported("missing its int32 `index`".into()))?;
                let vec = operand_types
                    .first()
                    .and_then(|&t| ctx.type_as::<VectorType>(t))
                    .ok_or_else(|| unsupported("slices a vector only".into()))?;
                let item = usize::try_from(index)
                    .ok()
                    .and_then(|i| vec.0.get(i).copied())
                    .ok_or_else(|| unsupported(format!("index {index} is out of the vector")))?;
                vec![item]
            }
            SpecialKind::Split => {
                let vec = operand_types
                    .first()
                    .and_then(|&t| ctx.type_as::<VectorType>(t))
                    .ok_or_else(|| unsupported("splits a vector only".into()))?;
                vec.0.to_vec()
            }
            SpecialKind::Same => self
                .src
                .results(op)
                .map(|r| self.src.value_type(r))
                .collect(),
            SpecialKind::Unplaced => self.placed_results(op, &Place::undefined())?,
            SpecialKind::SecondOperand => {
                let ty = operand_types.get(1).copied().unwrap_or(Type::NULL);
                vec![ty; self.src.num_results(op)]
            }
            SpecialKind::NoResults => Vec::new(),
        };
        if types.len() != self.src.num_results(op) {
            return Err(unsupported(format!(
                "has {} results, its operands give {}",
                self.src.num_results(op),
                types.len()
            )));
        }
        let origin = self.source_ids.get(&op).copied().unwrap_or_default();
        let mut attrs = self.ctx.dict_entries(self.src.attrs(op)).to_vec();
        attrs.retain(|&(n, _)| n != self.names.origin_id);
        attrs.push((self.names.origin_id, ctx.intern_attr(I64Attr(origin))));
        let op_name = self.src.op_name(op);
        let new = super::NewOp {
            name: op_name,
            operands: &operands,
            types: &types,
            attrs: &attrs,
            regions: 0,
        };
        self.emit(op, new, block);
        Ok(())
    }

    /// The op's result types as kernel types at `place`.
    fn placed_results(&mut self, op: OpId, place: &Place) -> Result<Vec<Type>, LowerError> {
        let mut types = Vec::with_capacity(self.src.num_results(op));
        for r in self.src.results(op) {
            let ty = self.src.value_type(r);
            let placed = if AllocatedType::can_hold(self.ctx, ty) {
                Some(self.place_type(ty, place))
            } else {
                AllocatedType::convert(self.ctx, ty, place)
            };
            types.push(placed.ok_or_else(|| LowerError::Unsupported {
                op: self.src.op_name_str(op).to_owned(),
                what: format!(
                    "result type {} has no kernel type",
                    self.ctx.display_type(ty)
                ),
            })?);
        }
        Ok(types)
    }
}
