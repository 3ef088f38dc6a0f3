//! The writer's side of writing for an older release
//! ([`crate::WriteOptions::version`] below the current version): before a
//! byte is written, every op the plan ([`Downgrade`]) touches has its
//! attribute lists built as JSON and the version patches undone, so a
//! program that cannot be said in the older release fails whole, naming the
//! op, its index and the attribute.

use rustc_hash::FxHashMap;

use pir_core::serial::{self, JsonWriter};
use pir_core::{Attribute, BlockId, IrContext, OpId, Program, Symbol};

use crate::error::WriteError;
use crate::patch::{Downgrade, Json};

/// An op as the older release writes it.
pub(crate) struct DowngradedOp {
    /// The older op name, when a patch renamed the op.
    pub name: Option<String>,
    /// The `"A"` entries.
    pub attrs: Vec<Json>,
    /// The `"OA"` entries.
    pub output_attrs: Vec<Json>,
}

/// Which attributes go to `"OA"` and which are never written (the writer's
/// placement, format spec §2.6).
#[derive(Clone, Copy)]
pub(crate) struct Placement {
    /// `stop_gradient`, an output attribute.
    pub stop_gradient: Option<Symbol>,
    /// `persistable`, an output attribute.
    pub persistable: Option<Symbol>,
    /// `op_callstack`, never written.
    pub op_callstack: Option<Symbol>,
    /// `builtin.parameter`, written in its short form.
    pub parameter: Option<Symbol>,
}

impl Placement {
    /// Whether attribute `n` belongs to the list `output` names (`"OA"` when
    /// true, `"A"` when false).
    pub fn keeps(&self, n: Symbol, output: bool) -> bool {
        let is_output = Some(n) == self.stop_gradient || Some(n) == self.persistable;
        if output {
            is_output
        } else {
            !is_output && Some(n) != self.op_callstack
        }
    }
}

/// The ops of `program` that writing PIR `version` changes, by op; `None`
/// when nothing is undone.
pub(crate) fn downgrade_ops(
    program: &Program,
    version: u64,
    placement: &Placement,
) -> Result<Option<FxHashMap<OpId, DowngradedOp>>, WriteError> {
    let plan = Downgrade::to(version)?;
    if plan.touches_nothing() {
        return Ok(None);
    }
    let mut walk = Walk {
        program,
        ctx: program.ctx(),
        plan: &plan,
        placement,
        op_index: 0,
        out: FxHashMap::default(),
    };
    walk.block(program.top_block())?;
    Ok(Some(walk.out))
}

struct Walk<'p> {
    program: &'p Program,
    ctx: &'p IrContext,
    plan: &'p Downgrade,
    placement: &'p Placement,
    /// The writer's op index: ops in pre-order, parameters included.
    op_index: usize,
    out: FxHashMap<OpId, DowngradedOp>,
}

impl Walk<'_> {
    fn block(&mut self, block: BlockId) -> Result<(), WriteError> {
        let p = self.program;
        for op in p.block_ops(block) {
            let name = p.op_name_str(op);
            // The parameter op's short form has no attribute lists: a plan
            // touching it is refused when it is built.
            if self.plan.touches(name) && Some(p.op_name(op)) != self.placement.parameter {
                let entries = self.ctx.dict_entries(p.attrs(op));
                let list = |output: bool| -> Result<Vec<Json>, WriteError> {
                    entries
                        .iter()
                        .filter(|(n, _)| self.placement.keeps(*n, output))
                        .map(|&(n, a)| self.entry(op, n, a))
                        .collect()
                };
                let mut attrs = list(false)?;
                let mut output_attrs = list(true)?;
                let renamed =
                    self.plan
                        .undo_op(name, &mut attrs, Some(&mut output_attrs), self.op_index)?;
                self.out.insert(
                    op,
                    DowngradedOp {
                        name: renamed,
                        attrs,
                        output_attrs,
                    },
                );
            }
            self.op_index += 1;
            for region in p.regions(op) {
                for &b in p.region_blocks(region) {
                    self.block(b)?;
                }
            }
        }
        Ok(())
    }

    /// `{"AT":attr,"N":"name"}` as a tree.
    fn entry(&self, op: OpId, name: Symbol, attr: Attribute) -> Result<Json, WriteError> {
        let mut bytes = Vec::new();
        serial::encode_attr(self.ctx, attr, &mut JsonWriter::compact(&mut bytes)).map_err(
            |source| WriteError::Encode {
                op_index: self.op_index,
                op_name: self.program.op_name_str(op).to_owned(),
                source,
            },
        )?;
        let doc = pir_json::parse(&bytes).map_err(|e| WriteError::Unsupported {
            op_index: self.op_index,
            op_name: self.program.op_name_str(op).to_owned(),
            message: format!("attribute `{}`: {e}", self.ctx.symbol_str(name)),
        })?;
        Ok(Json::Obj(vec![
            ("AT".into(), Json::from_value(doc.root())),
            ("N".into(), Json::Str(self.ctx.symbol_str(name).to_owned())),
        ]))
    }
}

/// Writes a list of attribute entries.
pub(crate) fn write_entries(w: &mut JsonWriter<'_>, entries: &[Json]) {
    w.begin_array();
    for entry in entries {
        entry.write(w);
    }
    w.end_array();
}
