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
mod memo;
mod special;
pub mod values;

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use pir_core::builtin::StrAttr;
use pir_core::entity::EntityId;
use pir_core::{
    AttrDict, Attribute, BlockId, InsertPoint, IrContext, OpId, Program, Symbol, Type, ValueId,
};
use pir_dialects::op_def::OpDef;
use pir_dialects::pd_op::attrs::{IntArrayAttr, Place, PlaceAttr};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::desc::{OpDesc, ProgramDesc, VarDesc, VarKind};
use crate::error::{LegacyError, Location, Result};
use crate::inline::InlineVec;
use attrs::{bool_array, AttrMap, BoolLists};
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

/// Map orders by the hash of their keys' addresses, with those addresses.
type LocalOrders = FxHashMap<u64, Vec<(Box<[(usize, usize)]>, Arc<[usize]>)>>;

/// A target definition with the plan into it.
pub(crate) type TargetPlan = (&'static OpDef, Arc<general::Plan>);

/// Most key lists [`Translator::order_of`] remembers per translation.
const MAX_LOCAL_ORDERS: usize = 256;

/// Variable names Paddle never binds (the feed and fetch lists).
const NO_CAST: [&str; 2] = ["feed", "fetch"];

/// How many op names, op types, tensor types and attribute key lists the
/// per-translation maps make room for at the start.
const TYPICAL_KINDS: usize = 32;

fn map_with_capacity<K, V>(n: usize) -> FxHashMap<K, V> {
    FxHashMap::with_capacity_and_hasher(n, Default::default())
}

/// Translates a decoded program into a new [`Program`] of `ctx` (which must
/// have the `pd_op` and `cf` dialects, as [`pir_dialects::pd_op_context`]).
pub fn translate(desc: &ProgramDesc<'_>, ctx: Arc<IrContext>, options: Options) -> Result<Program> {
    let consts = memo::consts(&ctx);
    let ops = desc.num_ops();
    let var_types = desc
        .blocks
        .iter()
        .map(|b| vec![Cell::new(Type::NULL); b.vars.len()])
        .collect();
    // Room for the parameters, the ops and the ops builders add (about one
    // per op): the per-op lists are never copied to grow.
    let params = desc.blocks[0].vars.iter().filter(|v| v.persistable).count();
    let room = params + 2 * ops + 8;
    let memo = RefCell::new(memo::take_context_memo(&ctx));
    let mut t = Translator {
        desc,
        memo,
        program: Program::with_capacity(ctx.clone(), room),
        ctx,
        scopes: Scopes::with_capacity(desc.blocks[0].vars.len()),
        attrs: Vec::with_capacity(room),
        // Room for the key lists and op types of a typical model:
        // these maps would otherwise grow a few times on every small one.
        var_types,
        orders: RefCell::new(map_with_capacity(TYPICAL_KINDS)),

        bool_lists: BoolLists::default(),
        top_names: FxHashMap::default(),
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

/// What the walk over the top block's ops for parameters and undefined
/// inputs knows of a name.
#[derive(Debug, Clone, Copy, Default)]
struct TopName {
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

/// How Paddle's writer and reader leave an op's attributes (see
/// [`general::final_attrs`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Writer {
    /// `builtin.parameter`: a fixed list.
    Parameter,
    /// A `pd_op` op with a definition: declared attributes in order (the
    /// index of its facts in `Translator::def_facts`).
    Declared(&'static OpDef, usize),
    /// Any other op: every attribute in its map's order.
    Generic,
}

/// Attributes and symbols every translation uses, made once per context
/// ([`memo::consts`]).
#[derive(Clone, Copy)]
pub(crate) struct Consts {
    /// `[true]`
    pub true1: Attribute,
    /// `[false]`
    pub false1: Attribute,
    /// Symbols of the attributes the writer emits for parameters, in order.
    pub param_syms: [Symbol; 7],
    /// `stop_gradient`
    pub stop_gradient: Symbol,
    /// `persistable`
    pub persistable: Symbol,
    /// The CPU place.
    pub cpu: Attribute,
    /// The int array `[1]` (the shape of a `full` made for an attribute).
    pub shape1: Attribute,
}

/// The attributes of `builtin.parameter`, in the writer's order.
pub(crate) const PARAM_ATTRS: [&str; 7] = [
    "is_distributed",
    "is_parameter",
    "need_clip",
    "parameter_name",
    "persistable",
    "stop_gradient",
    "trainable",
];

impl Consts {
    pub(crate) fn new(ctx: &IrContext) -> Self {
        Consts {
            true1: bool_array(ctx, &[true]),
            false1: bool_array(ctx, &[false]),
            param_syms: PARAM_ATTRS.map(|n| ctx.symbol(n)),
            stop_gradient: ctx.symbol("stop_gradient"),
            persistable: ctx.symbol("persistable"),
            cpu: PlaceAttr::get(ctx, Place::cpu()),
            shape1: IntArrayAttr::get(ctx, &[1]),
        }
    }
}

/// What the translator keeps of a created op until the end.
pub(crate) struct OpRecord<'d> {
    /// Its attributes.
    pub map: AttrMap<'d>,
    /// How the writer treats them.
    pub writer: Writer,
}

/// The result flags, in the order Paddle sets them.
pub(crate) const FLAGS: [&str; 2] = ["stop_gradient", "persistable"];

pub(crate) struct Translator<'d> {
    pub desc: &'d ProgramDesc<'d>,
    pub ctx: Arc<IrContext>,
    pub program: Program,
    pub scopes: Scopes<'d>,
    /// Every created op's attributes (by op index).
    pub attrs: Vec<Option<OpRecord<'d>>>,
    /// Op names, definition facts and dense types made so far (kept for
    /// the next translation in the same context).
    pub memo: RefCell<memo::ContextMemo>,
    /// The PIR type of each variable (by block and index), once asked for.
    var_types: Vec<Vec<Cell<Type>>>,
    /// Map orders by the addresses of the keys (see [`Translator::order_of`]).
    orders: RefCell<LocalOrders>,

    /// Flag lists made so far.
    pub bool_lists: BoolLists,
    /// What the walk for parameters learns of each name the top block's
    /// ops use (one look-up per use instead of one per set).
    top_names: FxHashMap<&'d str, TopName>,
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
        self.create_parameters_and_data(top)?;
        self.translate_block(0, TOP, top)?;
        self.create_set_parameters()?;
        self.set_value_flags();
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
        name: &'static str,
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
        name: &'static str,
        operands: &[Option<ValueId>],
        results: &[Type],
        attrs: AttrMap<'d>,
        regions: usize,
    ) -> OpId {
        let key = (name.as_ptr() as usize, name.len());
        let (sym, writer) = match self.memo.get_mut().names.get(&key) {
            Some(&known) => known,
            None => {
                let known = (self.ctx.symbol(name), self.writer_of(name));
                self.memo.get_mut().names.insert(key, known);
                known
            }
        };
        self.create_op_sym(at, sym, writer, operands, results, attrs, regions)
    }

    /// Creates an op of a name made at run time (`legacy.<type>`).
    pub fn create_op_named(
        &mut self,
        at: InsertPoint,
        name: &str,
        operands: &[Option<ValueId>],
        results: &[Type],
        attrs: AttrMap<'d>,
    ) -> OpId {
        let sym = self.ctx.symbol(name);
        let writer = self.writer_of(name);
        self.create_op_sym(at, sym, writer, operands, results, attrs, 0)
    }

    fn writer_of(&mut self, name: &str) -> Writer {
        if name == "builtin.parameter" {
            return Writer::Parameter;
        }
        match general::def(name).filter(|d| d.has_yaml_info) {
            Some(d) => {
                let facts = &mut self.memo.get_mut().def_facts;
                facts.push(memo::def_facts(&self.ctx, d));
                Writer::Declared(d, facts.len() - 1)
            }
            None => Writer::Generic,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn create_op_sym(
        &mut self,
        at: InsertPoint,
        sym: Symbol,
        writer: Writer,
        operands: &[Option<ValueId>],
        results: &[Type],
        attrs: AttrMap<'d>,
        regions: usize,
    ) -> OpId {
        let op = self
            .program
            .create_op(sym, operands, results, AttrDict::EMPTY, regions);
        self.program.insert_op(op, at);
        let i = op.index();
        let rec = Some(OpRecord { map: attrs, writer });
        if self.attrs.len() == i {
            self.attrs.push(rec);
        } else {
            if self.attrs.len() < i {
                self.attrs.resize_with(i + 1, || None);
            }
            self.attrs[i] = rec;
        }
        op
    }

    /// The attribute map of a created op.
    pub fn attr_map(&mut self, op: OpId) -> Option<&mut AttrMap<'d>> {
        self.attrs
            .get_mut(op.index())
            .and_then(Option::as_mut)
            .map(|r| &mut r.map)
    }

    /// The libstdc++ `unordered_map` order of the keys of `map` (indices),
    /// remembered: most ops of a type insert the same keys.
    pub fn order_of(&self, map: &AttrMap<'d>) -> Arc<[usize]> {
        self.order_of_keys(map.keys())
    }

    /// The libstdc++ `unordered_map` order of distinct `keys` inserted in
    /// this order (indices).
    pub fn order_of_keys<'k>(&self, keys: impl Iterator<Item = &'k str> + Clone) -> Arc<[usize]> {
        // Most maps have the static names of a definition or builder: known
        // by the keys' addresses (equal addresses are equal keys) without
        // hashing their text.
        let addr = |k: &str| (k.as_ptr() as usize, k.len());
        let mut h = rustc_hash::FxHasher::default();
        for k in keys.clone() {
            std::hash::Hash::hash(&addr(k), &mut h);
        }
        let hash = std::hash::Hasher::finish(&h);
        let mut orders = self.orders.borrow_mut();
        if let Some(list) = orders.get(&hash) {
            for (known, order) in list {
                if known.iter().copied().eq(keys.clone().map(addr)) {
                    return order.clone();
                }
            }
        }
        let order = memo::map_order(keys.clone());
        if orders.len() < MAX_LOCAL_ORDERS {
            let known = keys.map(addr).collect();
            orders.entry(hash).or_default().push((known, order.clone()));
        }
        order
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
        let (b, i) = self
            .desc
            .find_var_pos(block, name)
            .ok_or_else(|| self.var_err(name, "variable is not declared"))?;
        self.var_type_at(b, i)
            .map_err(|e| self.var_err(name, e.to_string()))
    }

    /// The PIR type of variable `i` of block `b` (computed once).
    pub fn var_type_at(&self, b: usize, i: usize) -> Result<Type, values::TypeError> {
        let cell = &self.var_types[b][i];
        if cell.get() != Type::NULL {
            return Ok(cell.get());
        }
        let var = &self.desc.blocks[b].vars[i];
        let t = if var.kind == VarKind::DenseTensor {
            self.memo
                .borrow_mut()
                .dense_type(var.dtype(), var.shape(), || {
                    values::var_type(&self.ctx, var)
                })?
        } else {
            values::var_type(&self.ctx, var)?
        };
        cell.set(t);
        Ok(t)
    }

    /// The current binding of `name`.
    pub fn lookup(&self, scope: ScopeId, name: &str) -> Result<VarInfo> {
        self.scopes
            .get(scope, name)
            .ok_or_else(|| self.var_err(name, "used before any op defines it"))
    }

    /// The default target of legacy op type `op_type` (in place or not)
    /// with its plan ([`memo::target_plan`], asked once per context).
    pub fn target_plan(&self, op_type: &'d str, inplace: bool) -> Option<TargetPlan> {
        self.memo.borrow_mut().target_plan(op_type, inplace)
    }

    /// The `pd_op` definition a legacy op translates to by default
    /// (`pd_op.<compat name>`, with `_` when in place), memoized by type.
    pub fn target(&self, op: &OpDesc<'d>) -> Option<&'static OpDef> {
        memo::target(op.op_type, general::is_inplace(op))
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
        let new = self.create_op_named(InsertPoint::BlockEnd(dst), &name, &operands, &types, attrs);
        for (i, out) in outs.into_iter().enumerate() {
            let v = self.program.result(new, i);
            self.scopes.push(scope, out, VarInfo::plain(v));
        }
        Ok(())
    }

    // ------------------------------------------------------------ parameters

    /// `builtin.parameter` for each persistable variable of the top block, in
    /// the order ops first read it (inputs slot by slot, slots sorted); then
    /// `pd_op.data` at the top for each variable the top block reads before
    /// writing that is neither a parameter nor the feed/fetch list. One walk
    /// over the ops finds both (Paddle makes two).
    fn create_parameters_and_data(&mut self, top: BlockId) -> Result<()> {
        let desc = self.desc;
        let block = &desc.blocks[0];
        self.top_names.reserve(block.vars.len());
        for (i, var) in block.vars.iter().enumerate() {
            if var.persistable && !NO_CAST.contains(&var.name) {
                self.top_names
                    .entry(var.name)
                    .or_default()
                    .param
                    .get_or_insert(i);
            }
        }
        // Names read before any op writes them, each once, in the order
        // first read.
        let mut external = Vec::with_capacity(block.vars.len());
        for op in &block.ops {
            for name in op.input_arg_names() {
                let state = self.top_names.entry(name).or_default();
                if state.written {
                    continue;
                }
                if !state.external {
                    state.external = true;
                    external.push(name);
                }
                // Feed and fetch lists are never parameters.
                let (Some(i), false) = (state.param, state.visited) else {
                    continue;
                };
                let Ok(ty) = self.var_type_at(0, i) else {
                    continue;
                };
                let mut attrs = AttrMap::new();
                attrs.set("parameter_name", StrAttr::get(&self.ctx, name));
                let p = self.create_op(top, false, "builtin.parameter", &[], &[ty], attrs, 0);
                let v = self.program.result(p, 0);
                self.scopes.push(TOP, name, VarInfo::plain(v));
                if let Some(state) = self.top_names.get_mut(name) {
                    state.visited = true;
                }
            }
            for name in op.output_arg_names() {
                self.top_names.entry(name).or_default().written = true;
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
            // The op's inputs, as a set only when an output needs it.
            let mut inputs: Option<FxHashSet<&str>> = None;
            for name in op.output_arg_names() {
                let unvisited_param = self
                    .top_names
                    .get(name)
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
                self.create_op_at(
                    InsertPoint::After(after),
                    "builtin.set_parameter",
                    &[Some(info.value)],
                    &[],
                    attrs,
                    0,
                );
                if let Some(state) = self.top_names.get_mut(name) {
                    state.visited = true;
                }
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------ flags

    /// `stop_gradient` and `persistable` of every op result bound to a
    /// variable of the top scope, as the variable is declared.
    ///
    /// Paddle sets `stop_gradient` for every block, walking the top scope's
    /// names in its hash map's order, then `persistable` the same way: the
    /// last block that sees a variable decides its flags, and when a value is
    /// bound to several names the last of them in that order wins. Each
    /// op's map gets `stop_gradient` before `persistable` either way, so both
    /// are set in one walk; the map order is worked out only when a value has
    /// several names.
    fn set_value_flags(&mut self) {
        let desc = self.desc;
        let last = desc.blocks.len() - 1;
        // (deciding block, name index, value, stop_gradient, persistable)
        let keys = self.scopes.top_keys();
        let mut updates: Vec<(usize, usize, ValueId, bool, bool)> = Vec::with_capacity(keys.len());
        // Names in any order: a value's updates are ordered below when it has
        // several names, and one name's values are pushed oldest first.
        for (k, name, values) in self.scopes.top_entries() {
            if NO_CAST.contains(&name) {
                continue;
            }
            let found = (0..=last)
                .rev()
                .find_map(|b| desc.find_var(b, name).map(|v| (b, v)));
            let Some((b, var)) = found else {
                continue;
            };
            for info in values {
                updates.push((b, k, info.value, var.stop_gradient, var.persistable));
            }
        }
        let mut seen = vec![false; self.program.value_slots()];
        let mut shared = false;
        for u in &updates {
            let i = u.2.index();
            shared |= std::mem::replace(&mut seen[i], true);
        }
        if shared {
            let mut position = vec![0usize; keys.len()];
            for (pos, k) in crate::umap::iteration_order(keys).into_iter().enumerate() {
                position[k] = pos;
            }
            updates.sort_by_key(|u| (u.0, position[u.1]));
        }
        // The last update of a value decides its flags (bit 0: set, bit 1:
        // stop_gradient, bit 2: persistable); ops are flagged in the order
        // first touched (the order does not matter: maps are per op).
        let mut flags = vec![0u8; self.program.value_slots()];
        let mut touched_op = vec![false; self.attrs.len()];
        let mut touched = Vec::with_capacity(self.attrs.len());
        for (_, _, value, stop_gradient, persistable) in updates {
            if let pir_core::ValueDef::Result { op, .. } = self.program.value_def(value) {
                flags[value.index()] =
                    1 | u8::from(stop_gradient) << 1 | u8::from(persistable) << 2;
                if let Some(t) = touched_op.get_mut(op.index()) {
                    if !std::mem::replace(t, true) {
                        touched.push(op);
                    }
                }
            }
        }
        for op in touched {
            self.set_flags(op, &flags);
        }
    }

    /// Sets `stop_gradient` then `persistable` of `op`'s results from
    /// `flags` (per value, as [`Translator::set_value_flags`] leaves them);
    /// results without flags keep what an op builder gave, else false.
    fn set_flags(&mut self, op: OpId, flags: &[u8]) {
        let n = self.program.num_results(op);
        let Some(rec) = self.attrs.get_mut(op.index()).and_then(Option::as_mut) else {
            return;
        };
        let ctx = &*self.ctx;
        for (which, name) in FLAGS.iter().enumerate() {
            let at = rec.map.slot_of(name, Attribute::NULL);
            let given = rec.map.entries()[at].1;
            // One result with its flag set, over nothing or one flag (most
            // ops): the flag alone decides.
            if n == 1 && (given.is_null() || given == self.k.true1 || given == self.k.false1) {
                let f = flags[self.program.result(op, 0).index()];
                if f & 1 != 0 {
                    let attr = if f & (2 << which) != 0 {
                        self.k.true1
                    } else {
                        self.k.false1
                    };
                    rec.map.set_at(at, attr);
                    continue;
                }
            }
            let given: Option<InlineVec<bool, 4>> = if given == self.k.true1 {
                Some(InlineVec::from(&[true][..]))
            } else {
                Some(given).filter(|a| !a.is_null()).and_then(|a| {
                    ctx.attr_as::<pir_core::builtin::ArrayAttr>(a).map(|arr| {
                        arr.0
                            .iter()
                            .map(|&x| {
                                ctx.attr_as::<pir_core::builtin::BoolAttr>(x)
                                    .is_some_and(|b| b.0)
                            })
                            .collect()
                    })
                })
            };
            let mut bits = given.unwrap_or_else(|| std::iter::repeat_n(false, n).collect());
            for (i, bit) in bits.as_mut_slice().iter_mut().enumerate().take(n) {
                let f = flags[self.program.result(op, i).index()];
                if f & 1 != 0 {
                    *bit = f & (2 << which) != 0;
                }
            }
            let attr = match bits.as_slice() {
                [true] => self.k.true1,
                [false] => self.k.false1,
                more => self.bool_lists.get(ctx, more),
            };
            rec.map.set_at(at, attr);
        }
    }

    // ------------------------------------------------------------ finish

    /// Gives every op its final attribute dictionary, in the order Paddle's
    /// writer produces and with what its reader keeps.
    fn finish(mut self) -> Program {
        let mut attrs = std::mem::take(&mut self.attrs);
        let mut entries = Vec::with_capacity(TYPICAL_KINDS);
        for (i, slot) in attrs.iter_mut().enumerate() {
            let Some(rec) = slot else {
                continue;
            };
            let op = OpId::new(i);
            entries.clear();
            general::final_attrs(&mut self, rec.writer, &rec.map, &mut entries);
            let dict = self.ctx.dict(&entries);
            self.program.set_attrs(op, dict);
        }
        memo::keep_context_memo(&self.ctx, self.memo.take());
        self.program
    }
}
