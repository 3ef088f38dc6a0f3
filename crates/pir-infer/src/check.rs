//! Re-inference of a whole program against its stored result types.

use pir_core::{BlockId, IrContext, OpId, Program, Type};
use pir_dialects::op_def::{OpDef, ValueKind};

use crate::meta::{out_eq, Out};
use crate::{InferError, Inferer};

/// The IR kind of result `i` of an op defined by `def`.
pub(crate) fn result_kind(def: Option<&OpDef>, i: usize) -> ValueKind {
    def.and_then(|d| d.outputs.get(i).or(d.outputs.last()))
        .map_or(ValueKind::DenseTensor, |o| o.kind)
}

/// `t` as the IR prints it, `null` for an absent optional result: how
/// stored and inferred types are shown side by side.
pub fn display_type_or_null(ctx: &IrContext, t: Type) -> String {
    if t.is_null() {
        "null".to_owned()
    } else {
        ctx.display_type(t)
    }
}

/// `types` shown by [`display_type_or_null`], joined by `, `.
pub fn display_types(ctx: &IrContext, types: &[Type]) -> String {
    types
        .iter()
        .map(|&t| display_type_or_null(ctx, t))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The outcome for one op.
#[derive(Clone, Debug)]
pub enum OpCheck {
    /// Inferred types equal the stored ones.
    Equal,
    /// The op's result types are declared, not inferred (see
    /// [`crate::DECLARED_OPS`]): nothing to check.
    Declared,
    /// They differ.
    Differ {
        /// Stored result types.
        stored: Vec<Type>,
        /// Inferred result types.
        inferred: Vec<Type>,
    },
    /// No inference, or the function refused the op.
    Error(InferError),
}

/// The outcome for a program: one entry per op checked, with its index path
/// (op index in its block, then region, block and op index for nested ops).
#[derive(Clone, Debug, Default)]
pub struct ProgramCheck {
    /// `(path, op, outcome)` of every op except equal and declared ones.
    pub reports: Vec<(Vec<usize>, OpId, OpCheck)>,
    /// Ops whose types were inferred.
    pub checked: usize,
    /// Ops whose inferred types equal the stored ones.
    pub equal: usize,
    /// Ops whose types are declared (parameters, constants, feeds).
    pub declared: usize,
}

impl ProgramCheck {
    /// Ops whose types differ.
    pub fn differing(&self) -> usize {
        self.reports
            .iter()
            .filter(|r| matches!(r.2, OpCheck::Differ { .. }))
            .count()
    }
}

impl Inferer {
    /// Infers `op` and compares with its stored result types.
    pub fn check_op(&self, p: &Program, op: OpId, outs: &mut Vec<Out>) -> OpCheck {
        let name = p.op_name(op);
        if self.is_declared(name) {
            return OpCheck::Declared;
        }
        if let Err(e) = self.infer_into(p, op, outs) {
            return OpCheck::Error(e);
        }
        let ctx = p.ctx();
        let def = self.def_of(name);
        let same = outs.iter().enumerate().all(|(i, o)| {
            let stored = p.value_type(p.result(op, i));
            // An optional result the op was built without stays null:
            // that is the op's shape, not something inferred.
            // Likewise a gradient the backward pass does not need is null.
            (stored.is_null()
                && (def
                    .and_then(|d| d.outputs.get(i))
                    .is_some_and(|o| o.optional)
                    || p.op_name_str(op).ends_with("_grad")))
                || out_eq(ctx, result_kind(def, i), o, stored)
        });
        if same {
            return OpCheck::Equal;
        }
        let stored = p.results(op).map(|v| p.value_type(v)).collect();
        match self.infer(p, op) {
            Ok(inferred) => OpCheck::Differ { stored, inferred },
            Err(e) => OpCheck::Error(e),
        }
    }

    /// Re-infers every op nested in the program's module.
    pub fn check_program(&self, p: &Program) -> ProgramCheck {
        let mut out = ProgramCheck::default();
        let mut path = Vec::new();
        let mut outs = Vec::new();
        self.check_block(p, p.top_block(), &mut path, &mut outs, &mut out);
        out
    }

    fn check_block(
        &self,
        p: &Program,
        block: BlockId,
        path: &mut Vec<usize>,
        outs: &mut Vec<Out>,
        out: &mut ProgramCheck,
    ) {
        for (i, op) in p.block_ops(block).enumerate() {
            path.push(i);
            match self.check_op(p, op, outs) {
                OpCheck::Equal => {
                    out.checked += 1;
                    out.equal += 1;
                }
                OpCheck::Declared => out.declared += 1,
                c => {
                    if matches!(c, OpCheck::Differ { .. }) {
                        out.checked += 1;
                    }
                    out.reports.push((path.clone(), op, c));
                }
            }
            for (r, region) in p.regions(op).enumerate() {
                for (b, &blk) in p.region_blocks(region).iter().enumerate() {
                    path.push(r);
                    path.push(b);
                    self.check_block(p, blk, path, outs, out);
                    path.pop();
                    path.pop();
                }
            }
            path.pop();
        }
    }
}
