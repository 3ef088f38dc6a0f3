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

use std::sync::Arc;

use pir_core::builtin::StrAttr;
use pir_core::entity::EntityId;
use pir_core::{
    AttrDict, Attribute, BlockId, InsertPoint, IrContext, OpId, Program, Symbol, Type, ValueId,
};
use pir_dialects::op_def::OpDef;
use rustc_hash::{FxHashMap, FxHashSet};

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
pub fn translate(desc: &ProgramDesc<'_>, ctx: Arc<IrContext>, options: Options) -> Result<Program> {
    let consts = Consts::new(&ctx);
    let ops = desc.num_ops();
    let mut t = Translator {
        desc,
        // Parameters, the ops and a few made by builders.
        program: Program::with_capacity(ctx.clone(), 2 * ops + 8),
        ctx,
        scopes: Scopes::new(),
        attrs: Vec::with_capacity(2 * ops + 8),
        writers: FxHashMap::default(),
        orders: FxHashMap::default(),
        targets: FxHashMap::default(),
        param_vars: FxHashMap::default(),
        params_visited: FxHashSet::default(),
        options,
        depth: 0,
        at: Cursor::default(),
        k: consts,
    };
    t.run()?;
    Ok(t.finish())
}

/// Where the translator is: the block and op being translated (for errors).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Cursor {
    /// Block index.
    pub block: Option<usize>,
    /// Op index within the block.
    pub op: Option<usize>,
}

/// How Paddle's writer and reader leave an op's attributes (see
/// [`general::final_attrs`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Writer {
    /// `builtin.parameter`: a fixed list.
    Parameter,
    /// A `pd_op` op with a definition: declared attributes in order.
    Declared(&'static OpDef),
    /// Any other op: every attribute in its map's order.
    Generic,
}

/// Attributes and symbols every translation uses, made once.
pub(crate) struct Consts {
    /// `[true]`
    pub true1: Attribute,
    /// `[false]`
    pub false1: Attribute,
    /// Symbols of the attribute names the writer emits for parameters.
    pub sym: FxHashMap<&'static str, Symbol>,
}

impl Consts {
    fn new(ctx: &IrContext) -> Self {
        let names = [
            "is_distributed",
            "is_parameter",
            "need_clip",
            "parameter_name",
            "persistable",
            "stop_gradient",
            "trainable",
        ];
        Consts {
            true1: bool_array(ctx, &[true]),
            false1: bool_array(ctx, &[false]),
            sym: names.iter().map(|&n| (n, ctx.symbol(n))).collect(),
        }
    }

    /// The symbol of `name`.
    pub fn symbol(&self, ctx: &IrContext, name: &str) -> Symbol {
        match self.sym.get(name) {
            Some(&s) => s,
            None => ctx.symbol(name),
        }
    }
}

pub(crate) struct Translator<'d> {
    pub desc: &'d ProgramDesc<'d>,
    pub ctx: Arc<IrContext>,
    pub program: Program,
    pub scopes: Scopes<'d>,
    /// Every created op's attributes (by op index) with the way the writer
    /// treats them.
    pub attrs: Vec<Option<(AttrMap<'d>, Writer)>>,
    /// How ops of each name are written.
    writers: FxHashMap<Symbol, Writer>,
    /// The libstdc++ map order of each key sequence seen.
    orders: FxHashMap<Vec<&'d str>, Vec<usize>>,
    /// The target definition of each legacy op type (in-place or not).
    targets: FxHashMap<(&'d str, bool), Option<&'static OpDef>>,
    /// Persistable variables of the top block by name.
    param_vars: FxHashMap<&'d str, &'d VarDesc<'d>>,
    params_visited: FxHashSet<&'d str>,
    pub options: Options,
    depth: usize,
    /// The op being translated, for errors.
    pub at: Cursor,
    /// Attributes made once.
    pub k: Consts,
}

impl<'d> Translator<'d> {
    fn run(&mut self) -> Result<()> {
        let top = self.program.top_block();
        self.create_parameters(top);
        self.create_data_for_external_inputs()?;
        self.translate_block(0, TOP, top)?;
        self.create_set_parameters()?;
        let top_order = self.scopes.top_order();
        for persistable in [false, true] {
            for b in 0..self.desc.blocks.len() {
                self.set_value_flags(&top_order, b, persistable);
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------ errors

    /// Where the translator is, with the op type.
    pub fn location(&self) -> Location {
        let op_type = match (self.at.block, self.at.op) {
            (Some(b), Some(i)) => self
                .desc
                .blocks
                .get(b)
                .and_then(|blk| blk.ops.get(i))
                .map(|op| op.op_type.to_owned()),
            _ => None,
        };
        Location {
            block: self.at.block,
            op: self.at.op,
            op_type,
            var: None,
        }
    }

    /// An error at the current op.
    pub fn err(&self, message: impl Into<String>) -> LegacyError {
        LegacyError::invalid(self.location(), message)
    }

    /// An error naming a variable at the current op.
    pub fn var_err(&self, var: &str, message: impl Into<String>) -> LegacyError {
        let mut at = self.location();
        at.var = Some(var.to_owned());
        LegacyError::invalid(at, message)
    }

    /// The op cannot be translated.
    pub fn unsupported(&self, op_type: &str, message: impl Into<String>) -> LegacyError {
        LegacyError::Unsupported {
            at: Box::new(self.location()),
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
        attrs: AttrMap<'d>,
        regions: usize,
    ) -> OpId {
        let at = if at_front {
            InsertPoint::BlockStart(block)
        } else {
            InsertPoint::BlockEnd(block)
        };
        self.create_op_at(at, name, operands, results, attrs, regions)
    }

    /// Creates an op at `at`.
    pub fn create_op_at(
        &mut self,
        at: InsertPoint,
        name: &str,
        operands: &[Option<ValueId>],
        results: &[Type],
        attrs: AttrMap<'d>,
        regions: usize,
    ) -> OpId {
        let sym = self.ctx.symbol(name);
        let writer = *self.writers.entry(sym).or_insert_with(|| {
            if name == "builtin.parameter" {
                return Writer::Parameter;
            }
            match general::def(name).filter(|d| d.has_yaml_info) {
                Some(d) => Writer::Declared(d),
                None => Writer::Generic,
            }
        });
        let op = self
            .program
            .create_op(sym, operands, results, AttrDict::EMPTY, regions);
        self.program.insert_op(op, at);
        let i = op.index();
        if self.attrs.len() <= i {
            self.attrs.resize_with(i + 1, || None);
        }
        self.attrs[i] = Some((attrs, writer));
        op
    }

    /// The attribute map of a created op.
    pub fn attr_map(&mut self, op: OpId) -> Option<&mut AttrMap<'d>> {
        self.attrs
            .get_mut(op.index())
            .and_then(Option::as_mut)
            .map(|(m, _)| m)
    }

    /// The libstdc++ `unordered_map` order of `keys` (indices), memoized:
    /// most ops of a type insert the same keys.
    pub fn order_of(&mut self, keys: &[&'d str]) -> &[usize] {
        if !self.orders.contains_key(keys) {
            self.orders
                .insert(keys.to_vec(), crate::umap::iteration_order(keys));
        }
        self.orders.get(keys).map_or(&[], Vec::as_slice)
    }

    /// The type of a value.
    pub fn ty(&self, v: ValueId) -> Type {
        self.program.value_type(v)
    }

    /// Finds a variable from block `block` outwards.
    pub fn var(&self, block: usize, name: &str) -> Option<&'d VarDesc<'d>> {
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

    /// The `pd_op` definition a legacy op translates to by default
    /// (`pd_op.<compat name>`, with `_` when in place), memoized by type.
    pub fn target(&mut self, op: &OpDesc<'d>) -> Option<&'static OpDef> {
        let inplace = general::is_inplace(op);
        *self
            .targets
            .entry((op.op_type, inplace))
            .or_insert_with(|| general::def(&general::target_name_of(op.op_type, inplace)))
    }

    // ------------------------------------------------------------ blocks

    /// Translates the ops of legacy block `b` into `dst` with names in `scope`.
    pub fn translate_block(&mut self, b: usize, scope: ScopeId, dst: BlockId) -> Result<()> {
        if self.depth >= MAX_DEPTH {
            return Err(LegacyError::Limit {
                at: Box::new(self.location()),
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
            self.at = Cursor {
                block: Some(b),
                op: Some(i),
            };
            match op.op_type {
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

    fn translate_op(
        &mut self,
        b: usize,
        op: &'d OpDesc<'d>,
        scope: ScopeId,
        dst: BlockId,
    ) -> Result<()> {
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
        op: &'d OpDesc<'d>,
        scope: ScopeId,
        dst: BlockId,
        message: &str,
    ) -> Result<()> {
        if !self.options.lenient {
            return Err(self.unsupported(op.op_type, message));
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
        for (name, value) in op.all_attrs() {
            let v = attrs::general(&self.ctx, value);
            if !v.is_null() {
                attrs.set(name, v);
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
            if var.persistable && !NO_CAST.contains(&var.name) {
                self.param_vars.entry(var.name).or_insert(var);
            }
        }
        let mut defined: FxHashSet<&str> = FxHashSet::default();
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
                attrs.set("parameter_name", StrAttr::get(&self.ctx, name));
                let p = self.create_op(top, false, "builtin.parameter", &[], &[ty], attrs, 0);
                let v = self.program.result(p, 0);
                self.scopes.push(TOP, name, VarInfo::plain(v));
                self.params_visited.insert(name);
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
        let mut written: FxHashSet<&str> = FxHashSet::default();
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
            for name in op.output_arg_names() {
                if !self.param_vars.contains_key(name)
                    || self.params_visited.contains(name)
                    || op.input_arg_names().any(|i| i == name)
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
                attrs.set("parameter_name", StrAttr::get(&self.ctx, name));
                self.create_op_at(
                    InsertPoint::After(after),
                    "builtin.set_parameter",
                    &[Some(info.value)],
                    &[],
                    attrs,
                    0,
                );
                self.params_visited.insert(name);
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------ flags

    /// `stop_gradient` (or `persistable`) of every op result bound to a
    /// variable of the top scope, as block `b` declares the variable. Paddle
    /// runs this for every block, `stop_gradient` first; the last block that
    /// sees a variable decides.
    fn set_value_flags(&mut self, top_order: &[&'d str], b: usize, persistable: bool) {
        let name = if persistable {
            "persistable"
        } else {
            "stop_gradient"
        };
        let mut updates: Vec<(OpId, usize, bool)> = Vec::new();
        for &var_name in top_order {
            if NO_CAST.contains(&var_name) {
                continue;
            }
            let Some(var) = self.desc.find_var(b, var_name) else {
                continue;
            };
            let flag = if persistable {
                var.persistable
            } else {
                var.stop_gradient
            };
            for info in self.scopes.top_values(var_name) {
                if let pir_core::ValueDef::Result { op, index } = self.program.value_def(info.value)
                {
                    updates.push((op, index as usize, flag));
                }
            }
        }
        for (op, index, value) in updates {
            self.set_flag(op, name, index, value);
        }
    }

    fn set_flag(&mut self, op: OpId, name: &'static str, index: usize, value: bool) {
        let n = self.program.num_results(op);
        let (true1, false1) = (self.k.true1, self.k.false1);
        let ctx = self.ctx.clone();
        let Some(map) = self.attr_map(op) else {
            return;
        };
        // One result: the two arrays made once.
        if n == 1 && index == 0 {
            map.set(name, if value { true1 } else { false1 });
            return;
        }
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
        let attrs = std::mem::take(&mut self.attrs);
        let mut entries = Vec::new();
        for (i, slot) in attrs.iter().enumerate() {
            let Some((map, writer)) = slot else {
                continue;
            };
            let op = OpId::new(i);
            entries.clear();
            general::final_attrs(&mut self, *writer, map, &mut entries);
            let dict = self.ctx.dict(&entries);
            self.program.set_attrs(op, dict);
        }
        self.program
    }
}
