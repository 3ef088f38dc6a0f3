//! `ProgramDesc` → PIR, step for step as Paddle 3.3.1's `ProgramTranslator`:
//! parameters first (in the order ops first read them), undefined inputs as
//! `pd_op.data`, then the ops of the top block (control flow recursing into
//! sub-blocks), then `stop_gradient`/`persistable` for every value bound to a
//! variable of the top scope.
//!
//! The result is what Paddle holds after saving the translation to JSON and
//! loading it back (that is what `pir print` of a `.pdmodel` is compared
//! with): attributes a `pd_op` definition does not declare are dropped, and
//! every op's attributes are in the order Paddle's writer puts them.
//!
//! Concerns live in submodules: [`values`] (names → values, types),
//! [`attrs`] (attribute translation), `general` (the table-driven path most
//! ops take), `special` (ops with a translation of their own),
//! `control_flow` (`conditional_block`, `while`), `build` (ops Paddle builds
//! through its op builders, with their shape inference).

mod arith;
pub mod attrs;
mod build;
mod control_flow;
mod general;
mod special;
pub mod values;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use pir_core::builtin::StrAttr;
use pir_core::{AttrDict, BlockId, InsertPoint, IrContext, OpId, Program, Type, ValueId};

use crate::desc::{OpDesc, ProgramDesc, VarDesc, VarKind};
use crate::error::{LegacyError, Location, Result};
use attrs::{bool_array, AttrMap};
use values::{ScopeId, Scopes, VarInfo, TOP};

/// How to translate.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Turn a legacy op that cannot be translated into an unregistered op
    /// `legacy.<type>` (with its inputs and typed outputs) instead of failing.
    pub lenient: bool,
}

/// Deepest nesting of sub-blocks followed (each level recurses once).
pub const MAX_DEPTH: usize = 64;

/// Variable names Paddle never binds (the feed and fetch lists).
const NO_CAST: [&str; 2] = ["feed", "fetch"];

/// Translates a decoded program into a new [`Program`] of `ctx` (which must
/// have the `pd_op` and `cf` dialects, as [`pir_dialects::pd_op_context`]).
pub fn translate(desc: &ProgramDesc, ctx: Arc<IrContext>, options: Options) -> Result<Program> {
    let desc = &with_extra_attrs(desc);
    let mut t = Translator {
        desc,
        program: Program::new(ctx.clone()),
        ctx,
        scopes: Scopes::new(),
        attrs: HashMap::new(),
        param_vars: HashMap::new(),
        params_visited: HashSet::new(),
        options,
        depth: 0,
        at: Location::default(),
    };
    t.run()?;
    Ok(t.finish())
}

/// A copy of `desc` in which every op has its extra attributes, with their
/// defaults where the file lacks them — what Paddle's `OpDesc` answers.
fn with_extra_attrs(desc: &ProgramDesc) -> ProgramDesc {
    let c = crate::compat::compat();
    let mut out = desc.clone();
    for block in &mut out.blocks {
        for op in &mut block.ops {
            for (name, value) in c.extra_attrs(&op.op_type) {
                if op.attr(name).is_none() {
                    op.attrs.push(crate::desc::Attr {
                        name: (*name).to_owned(),
                        value: value.clone(),
                    });
                }
            }
        }
    }
    out
}

pub(crate) struct Translator<'d> {
    pub desc: &'d ProgramDesc,
    pub ctx: Arc<IrContext>,
    pub program: Program,
    pub scopes: Scopes,
    /// Every created op's attributes with their insertion history.
    pub attrs: HashMap<OpId, AttrMap>,
    /// Persistable variables of the top block by name.
    param_vars: HashMap<String, &'d VarDesc>,
    params_visited: HashSet<String>,
    pub options: Options,
    depth: usize,
    /// The op being translated, for errors.
    pub at: Location,
}

impl<'d> Translator<'d> {
    fn run(&mut self) -> Result<()> {
        let top = self.program.top_block();
        self.create_parameters(top);
        self.create_data_for_external_inputs()?;
        self.translate_block(0, TOP, top)?;
        self.create_set_parameters()?;
        for persistable in [false, true] {
            for b in 0..self.desc.blocks.len() {
                self.set_value_flags(b, persistable);
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------ errors

    /// An error at the current op.
    pub fn err(&self, message: impl Into<String>) -> LegacyError {
        LegacyError::invalid(self.at.clone(), message)
    }

    /// An error naming a variable at the current op.
    pub fn var_err(&self, var: &str, message: impl Into<String>) -> LegacyError {
        let mut at = self.at.clone();
        at.var = Some(var.to_owned());
        LegacyError::invalid(at, message)
    }

    /// The op cannot be translated.
    pub fn unsupported(&self, op_type: &str, message: impl Into<String>) -> LegacyError {
        LegacyError::Unsupported {
            at: Box::new(self.at.clone()),
            op_type: op_type.to_owned(),
            message: message.into(),
        }
    }

    // ------------------------------------------------------------ building

    /// Creates an op at the end (or start) of `block`.
    #[allow(clippy::too_many_arguments)]
    pub fn create_op(
        &mut self,
        block: BlockId,
        at_front: bool,
        name: &str,
        operands: &[Option<ValueId>],
        results: &[Type],
        attrs: AttrMap,
        regions: usize,
    ) -> OpId {
        let sym = self.ctx.symbol(name);
        let op = self
            .program
            .create_op(sym, operands, results, AttrDict::EMPTY, regions);
        let at = if at_front {
            InsertPoint::BlockStart(block)
        } else {
            InsertPoint::BlockEnd(block)
        };
        self.program.insert_op(op, at);
        self.attrs.insert(op, attrs);
        op
    }

    /// The type of a value.
    pub fn ty(&self, v: ValueId) -> Type {
        self.program.value_type(v)
    }

    /// Finds a variable from block `block` outwards.
    pub fn var(&self, block: usize, name: &str) -> Option<&'d VarDesc> {
        self.desc.find_var(block, name)
    }

    /// The PIR type of variable `name` seen from `block`.
    pub fn var_type(&self, block: usize, name: &str) -> Result<Type> {
        let var = self
            .var(block, name)
            .ok_or_else(|| self.var_err(name, "variable is not declared"))?;
        values::var_type(&self.ctx, var).map_err(|e| self.var_err(name, e.to_string()))
    }

    /// The current binding of `name`.
    pub fn lookup(&self, scope: ScopeId, name: &str) -> Result<VarInfo> {
        self.scopes
            .get(scope, name)
            .ok_or_else(|| self.var_err(name, "used before any op defines it"))
    }

    // ------------------------------------------------------------ blocks

    /// Translates the ops of legacy block `b` into `dst` with names in `scope`.
    pub fn translate_block(&mut self, b: usize, scope: ScopeId, dst: BlockId) -> Result<()> {
        if self.depth >= MAX_DEPTH {
            return Err(LegacyError::Limit {
                at: Box::new(self.at.clone()),
                message: format!("sub-blocks nested deeper than {MAX_DEPTH}"),
            });
        }
        self.depth += 1;
        let desc = self.desc;
        let block = desc
            .blocks
            .get(b)
            .ok_or_else(|| self.err(format!("block {b} does not exist")))?;
        for (i, op) in block.ops.iter().enumerate() {
            self.at = Location {
                block: Some(b),
                op: Some(i),
                op_type: Some(op.op_type.clone()),
                var: None,
            };
            match op.op_type.as_str() {
                "conditional_block" => self.translate_if(b, op, scope, dst)?,
                "while" => self.translate_while(b, op, scope, dst)?,
                "while_grad" | "conditional_block_grad" => {
                    self.unsupported_or_lenient(b, op, scope, dst, "gradient control flow")?
                }
                _ => self.translate_op(b, op, scope, dst)?,
            }
        }
        self.depth -= 1;
        Ok(())
    }

    fn translate_op(&mut self, b: usize, op: &OpDesc, scope: ScopeId, dst: BlockId) -> Result<()> {
        if op.op_type == "shadow_output" {
            let x = op.input_args("x").first();
            if !x.is_some_and(|x| self.scopes.has(scope, x)) {
                return Ok(());
            }
        }
        match self.translate_special(b, op, scope, dst) {
            Some(r) => r,
            None => match self.translate_general(b, op, scope, dst) {
                Err(LegacyError::Unsupported { message, .. }) => {
                    self.unsupported_or_lenient(b, op, scope, dst, &message)
                }
                r => r.map(|_| ()),
            },
        }
    }

    /// Fails, or with `lenient` emits `legacy.<type>` with the op's inputs
    /// as operands and one result per typed output variable.
    fn unsupported_or_lenient(
        &mut self,
        b: usize,
        op: &OpDesc,
        scope: ScopeId,
        dst: BlockId,
        message: &str,
    ) -> Result<()> {
        if !self.options.lenient {
            return Err(self.unsupported(&op.op_type, message));
        }
        let mut operands = Vec::new();
        for name in op.input_arg_names() {
            if let Some(v) = self.scopes.get(scope, name) {
                operands.push(Some(v.value));
            }
        }
        let mut outs = Vec::new();
        let mut types = Vec::new();
        for name in op.output_arg_names() {
            if let Ok(t) = self.var_type(b, name) {
                outs.push(name);
                types.push(t);
            }
        }
        let mut attrs = AttrMap::new();
        for a in &op.attrs {
            let v = attrs::general(&self.ctx, &a.value);
            if !v.is_null() {
                attrs.set(&a.name, v);
            }
        }
        let name = format!("legacy.{}", op.op_type);
        let new = self.create_op(dst, false, &name, &operands, &types, attrs, 0);
        for (i, out) in outs.into_iter().enumerate() {
            let v = self.program.result(new, i);
            self.scopes.push(scope, out, VarInfo::plain(v));
        }
        Ok(())
    }

    // ------------------------------------------------------------ parameters

    /// `builtin.parameter` for each persistable variable of the top block, in
    /// the order ops first read it (inputs slot by slot, slots sorted).
    fn create_parameters(&mut self, top: BlockId) {
        let desc = self.desc;
        let block = &desc.blocks[0];
        for var in &block.vars {
            if var.persistable && !NO_CAST.contains(&var.name.as_str()) {
                self.param_vars.entry(var.name.clone()).or_insert(var);
            }
        }
        let mut defined: HashSet<&str> = HashSet::new();
        for op in &block.ops {
            for name in op.input_arg_names() {
                if NO_CAST.contains(&name) || defined.contains(name) {
                    continue;
                }
                if self.params_visited.contains(name) {
                    continue;
                }
                let Some(var) = self.param_vars.get(name).copied() else {
                    continue;
                };
                let Ok(ty) = values::var_type(&self.ctx, var) else {
                    continue;
                };
                let mut attrs = AttrMap::new();
                let ctx = self.ctx.clone();
                attrs.set("parameter_name", StrAttr::get(&ctx, name));
                let p = self.create_op(top, false, "builtin.parameter", &[], &[ty], attrs, 0);
                let v = self.program.result(p, 0);
                self.scopes.push(TOP, name, VarInfo::plain(v));
                self.params_visited.insert(name.to_owned());
                defined.insert(name);
            }
            for name in op.output_arg_names() {
                defined.insert(name);
            }
        }
    }

    /// `pd_op.data` at the top for each variable the top block reads before
    /// writing that is neither a parameter nor the feed/fetch list.
    fn create_data_for_external_inputs(&mut self) -> Result<()> {
        let desc = self.desc;
        let block = &desc.blocks[0];
        let mut written: HashSet<&str> = HashSet::new();
        let mut external = Vec::new();
        for op in &block.ops {
            for name in op.input_arg_names() {
                if !written.contains(name) {
                    external.push(name);
                }
            }
            for name in op.output_arg_names() {
                written.insert(name);
            }
        }
        for name in external {
            if block.var(name).is_none() || self.scopes.has(TOP, name) || NO_CAST.contains(&name) {
                continue;
            }
            self.create_undefined(name)?;
        }
        Ok(())
    }

    /// `pd_op.data` (or `pd_op.create_array`) at the very start of the
    /// program for a variable nothing defines (`CreateUndefinedVariable`).
    pub fn create_undefined(&mut self, name: &str) -> Result<VarInfo> {
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
    pub fn value_or_create(&mut self, scope: ScopeId, name: &str) -> Result<VarInfo> {
        match self.scopes.get(scope, name) {
            Some(v) => Ok(v),
            None => self.create_undefined(name),
        }
    }

    /// `builtin.set_parameter` after the op that last writes a persistable
    /// variable no op read first (walking the top block backwards).
    fn create_set_parameters(&mut self) -> Result<()> {
        let desc = self.desc;
        for op in desc.blocks[0].ops.iter().rev() {
            if op.op_type == "data" || op.op_type == "feed" {
                continue;
            }
            let inputs: HashSet<&str> = op.input_arg_names().collect();
            for name in op.output_arg_names() {
                if !self.param_vars.contains_key(name)
                    || self.params_visited.contains(name)
                    || inputs.contains(name)
                {
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
                attrs.set("parameter_name", StrAttr::get(&self.ctx.clone(), name));
                let sym = self.ctx.symbol("builtin.set_parameter");
                let set = self
                    .program
                    .create_op(sym, &[Some(info.value)], &[], AttrDict::EMPTY, 0);
                self.program.insert_op(set, InsertPoint::After(after));
                self.attrs.insert(set, attrs);
                self.params_visited.insert(name.to_owned());
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------ flags

    /// `stop_gradient` (or `persistable`) of every op result bound to a
    /// variable of the top scope, as block `b` declares the variable. Paddle
    /// runs this for every block, `stop_gradient` first; the last block that
    /// sees a variable decides.
    fn set_value_flags(&mut self, b: usize, persistable: bool) {
        let mut updates: Vec<(OpId, usize, bool)> = Vec::new();
        for (name, list) in self.scopes.top_entries() {
            if NO_CAST.contains(&name) {
                continue;
            }
            let Some(var) = self.desc.find_var(b, name) else {
                continue;
            };
            for info in list {
                if let pir_core::ValueDef::Result { op, index } = self.program.value_def(info.value)
                {
                    let flag = if persistable {
                        var.persistable
                    } else {
                        var.stop_gradient
                    };
                    updates.push((op, index as usize, flag));
                }
            }
        }
        let name = if persistable {
            "persistable"
        } else {
            "stop_gradient"
        };
        for (op, index, value) in updates {
            self.set_flag(op, name, index, value);
        }
    }

    fn set_flag(&mut self, op: OpId, name: &str, index: usize, value: bool) {
        let n = self.program.num_results(op);
        let ctx = self.ctx.clone();
        let Some(map) = self.attrs.get_mut(&op) else {
            return;
        };
        let mut flags: Vec<bool> = match map.get(name) {
            Some(a) => ctx
                .attr_as::<pir_core::builtin::ArrayAttr>(a)
                .map(|arr| {
                    arr.0
                        .iter()
                        .map(|&x| {
                            ctx.attr_as::<pir_core::builtin::BoolAttr>(x)
                                .is_some_and(|b| b.0)
                        })
                        .collect()
                })
                .unwrap_or_else(|| vec![false; n]),
            None => vec![false; n],
        };
        if index < flags.len() {
            flags[index] = value;
        }
        map.set(name, bool_array(&ctx, &flags));
    }

    // ------------------------------------------------------------ finish

    /// Gives every op its final attribute dictionary, in the order Paddle's
    /// writer produces and with what its reader keeps.
    fn finish(mut self) -> Program {
        let ops: Vec<(OpId, AttrMap)> = self.attrs.drain().collect();
        for (op, map) in ops {
            let name = self.program.op_name_str(op).to_owned();
            let dict = general::final_attrs(&self.ctx, &name, &map);
            self.program.set_attrs(op, dict);
        }
        self.program
    }
}
