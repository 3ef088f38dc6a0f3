//! The top block's parameters and undefined inputs (Paddle's
//! `ProgramTranslator` steps before and after the ops): `builtin.parameter`
//! for each persistable variable in the order ops first read it, `pd_op.data`
//! for what is read before anything writes it, and `builtin.set_parameter`
//! after the last write of a persistable variable nothing read first.

use pir_core::builtin::StrAttr;
use pir_core::{BlockId, InsertPoint};
use rustc_hash::{FxHashMap, FxHashSet};

use super::attrs::AttrMap;
use super::values::{self, ScopeId, VarInfo, TOP};
use super::{Translator, NO_CAST};
use crate::desc::{Name, VarKind};
use crate::error::Result;

/// What the walk over the top block's ops for parameters and undefined
/// inputs knows of a name.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct TopName {
    /// Index of the (first) persistable variable of that name, when it is
    /// one that can become a parameter.
    param: Option<usize>,
    /// A `builtin.parameter` or `builtin.set_parameter` was made for it.
    visited: bool,
    /// An op walked so far writes it.
    written: bool,
    /// Already listed as read before any op writes it.
    external: bool,
}

/// What the walk for parameters learns of each name the top block's ops
/// use: the names the top block declares by the index of their first
/// variable there (found by the block's index of names, as the translator
/// finds them), the others by name.
#[derive(Debug, Default)]
pub(super) struct TopNames<'d> {
    declared: Vec<TopName>,
    other: FxHashMap<Name<'d>, TopName>,
}

impl<'d> TopNames<'d> {
    /// Room for the names of a top block of `n` variables.
    fn reset(&mut self, n: usize) {
        self.declared.clear();
        self.declared.resize(n, TopName::default());
        self.other.clear();
    }

    /// What is known of `name`, declared (last) at `at` in the top block
    /// (if there), made when first asked.
    fn entry(&mut self, name: &'d str, at: Option<usize>) -> &mut TopName {
        match at.and_then(|i| self.declared.get_mut(i)) {
            Some(state) => state,
            None => self.other.entry(Name(name)).or_default(),
        }
    }

    /// What is known of `name`, declared (last) at `at` in the top block.
    fn get(&self, name: &str, at: Option<usize>) -> Option<&TopName> {
        match at {
            Some(i) => self.declared.get(i),
            None => self.other.get(name),
        }
    }

    /// Whether some name was a parameter no op read.
    fn any_unvisited_param(&self) -> bool {
        let unvisited = |s: &TopName| s.param.is_some() && !s.visited;
        self.declared.iter().any(unvisited) || self.other.values().any(unvisited)
    }
}

impl<'d> Translator<'d> {
    /// `builtin.parameter` for each persistable variable of the top block, in
    /// the order ops first read it (inputs slot by slot, slots sorted); then
    /// `pd_op.data` at the top for each variable the top block reads before
    /// writing that is neither a parameter nor the feed/fetch list. One walk
    /// over the ops finds both (Paddle makes two).
    pub(super) fn create_parameters_and_data(&mut self, top: BlockId) -> Result<()> {
        let desc = self.desc;
        let block = &desc.blocks[0];
        self.top_names.reset(block.vars.len());
        // Each variable is where its name is found unless a name is
        // declared twice: then only its last declaration is seen, as in
        // Paddle, whose block keeps one variable a name.
        let distinct = block.names_distinct();
        for (i, var) in block.vars.iter().enumerate() {
            let seen = distinct || block.var_index(var.name) == Some(i);
            if seen && var.persistable && !NO_CAST.contains(&var.name) {
                self.top_names
                    .entry(var.name, Some(i))
                    .param
                    .get_or_insert(i);
            }
        }
        // Names read before any op writes them, each once, in the order
        // first read, with where the top block declares them.
        let mut external = Vec::with_capacity(block.vars.len());
        // Looked up once for all parameters.
        let (parameter, writer) = self.op_kind("builtin.parameter");
        for op in &block.ops {
            for name in op.input_arg_names() {
                // Found through the translator's numbered look-ups, so a
                // model translated again hashes no name here.
                let at = self.find_var_pos(0, name).map(|(_, i)| i);
                let state = self.top_names.entry(name, at);
                if state.written {
                    continue;
                }
                let first_read = !state.external;
                if first_read {
                    state.external = true;
                    external.push((name, at));
                }
                // Feed and fetch lists are never parameters.
                let (Some(i), false) = (state.param, state.visited) else {
                    continue;
                };
                // Marked while at hand (nothing below asks), unmarked in the
                // rare case its type cannot be made.
                state.visited = true;
                let Ok(ty) = self.var_type_at(0, i) else {
                    self.top_names.entry(name, at).visited = false;
                    continue;
                };
                // A name that becomes a parameter is bound: no `pd_op.data`
                // for it (so it need not be looked up again below).
                if first_read {
                    external.pop();
                }
                let mut attrs = AttrMap::new();
                attrs.push_new("parameter_name", self.parameter_name(name));
                let p = self.create_op_sym(
                    InsertPoint::BlockEnd(top),
                    parameter,
                    writer,
                    &[],
                    &[ty],
                    attrs,
                    0,
                );
                let v = self.program.result(p, 0);
                let declared = at.map(|f| (0, f));
                self.scopes
                    .push_declared(TOP, name, declared, VarInfo::plain(v));
            }
            for name in op.output_arg_names() {
                let at = self.find_var_pos(0, name).map(|(_, i)| i);
                self.top_names.entry(name, at).written = true;
            }
        }
        for (name, at) in external {
            let Some(f) = at else {
                continue;
            };
            if self.scopes.get_declared(TOP, name, Some((0, f))).is_some()
                || NO_CAST.contains(&name)
            {
                continue;
            }
            self.create_undefined(name)?;
        }
        Ok(())
    }

    /// `pd_op.data` (or `pd_op.create_array`) at the very start of the
    /// program for a variable nothing defines (`CreateUndefinedVariable`).
    pub fn create_undefined(&mut self, name: &'d str) -> Result<VarInfo> {
        let var = self
            .var(0, name)
            .ok_or_else(|| self.var_err(name, "variable is not declared in the top block"))?;
        let top = self.program.top_block();
        let v = if var.kind == VarKind::DenseTensorArray {
            self.build_create_array(top, true, values::phi_dtype(var.dtype()))?
        } else {
            let dtype = values::phi_dtype(var.dtype());
            self.build_data(top, true, name, var.shape(), dtype)?
        };
        let info = VarInfo::plain(v);
        self.scopes.push(TOP, name, info);
        Ok(info)
    }

    /// The binding of `name`, creating an undefined variable in the top
    /// block when there is none (`GetValueOrCreateInTop`).
    pub fn value_or_create(&mut self, scope: ScopeId, name: &'d str) -> Result<VarInfo> {
        match self.binding(scope, name) {
            Some(v) => Ok(v),
            None => self.create_undefined(name),
        }
    }

    /// `builtin.set_parameter` after the op that last writes a persistable
    /// variable no op read first (walking the top block backwards).
    pub(super) fn create_set_parameters(&mut self) -> Result<()> {
        // Most models read every parameter: nothing to look for.
        if !self.top_names.any_unvisited_param() {
            return Ok(());
        }
        let desc = self.desc;
        let block = &desc.blocks[0];
        for op in block.ops.iter().rev() {
            if op.op_type == "data" || op.op_type == "feed" {
                continue;
            }
            // The op's inputs, as a set only when an output needs it.
            let mut inputs: Option<FxHashSet<&str>> = None;
            for name in op.output_arg_names() {
                let at = self.find_var_pos(0, name).map(|(_, i)| i);
                let unvisited_param = self
                    .top_names
                    .get(name, at)
                    .is_some_and(|s| s.param.is_some() && !s.visited);
                if !unvisited_param {
                    continue;
                }
                let inputs = inputs.get_or_insert_with(|| op.input_arg_names().collect());
                if inputs.contains(name) {
                    continue;
                }
                let Some(mut info) = self.scopes.get(TOP, name) else {
                    continue;
                };
                let Some(def) = self.program.defining_op(info.value) else {
                    continue;
                };
                let top = self.program.top_block();
                let mut after = def;
                if info.by_vector {
                    let slice = self.build_slice(top, InsertPoint::BlockEnd(top), info)?;
                    self.scopes.push(TOP, name, VarInfo::plain(slice));
                    info = VarInfo::plain(slice);
                    if let Some(d) = self.program.defining_op(slice) {
                        after = d;
                    }
                }
                let mut attrs = AttrMap::new();
                attrs.set("parameter_name", StrAttr::get(&self.ctx, name));
                self.create_op(
                    InsertPoint::After(after),
                    "builtin.set_parameter",
                    &[Some(info.value)],
                    &[],
                    attrs,
                    0,
                );
                self.top_names.entry(name, at).visited = true;
            }
        }
        Ok(())
    }
}
