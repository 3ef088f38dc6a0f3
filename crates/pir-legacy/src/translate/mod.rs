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
//! This module is the driver: the translator's state, errors, variable
//! types and the walk over blocks and ops. Concerns live in submodules:
//! `params` (parameters, undefined inputs, `set_parameter`), `ops` (creating
//! ops, their attribute maps until the end, the final dictionaries), `flags`
//! (the result flags of top-scope values), [`values`] (names → values,
//! types), [`attrs`] (attribute translation), `general` (the table-driven
//! path most ops take; `plan`, what it reads of each op type once),
//! `special` and `arith` (ops with a translation of
//! their own), `control_flow` (`conditional_block`, `while`), `build` (ops
//! Paddle builds through its op builders, with their shape inference),
//! `memo` (what is computed once per process or per context).

mod arith;
pub mod attrs;
mod build;
mod control_flow;
mod flags;
mod general;
mod memo;
mod ops;
mod params;
mod plan;
mod special;
pub mod values;

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use pir_core::{Attribute, BlockId, InsertPoint, IrContext, Program, Symbol, Type, ValueId};
use pir_dialects::op_def::{AttrSpec, OpDef};
use pir_dialects::pd_op::attrs::{IntArrayAttr, Place, PlaceAttr};
use rustc_hash::FxHashMap;

use crate::desc::{AttrValue, OpDesc, ProgramDesc, VarDesc, VarKind};
use crate::error::{LegacyError, Location, Result};
use attrs::AttrMap;
use pir_core::builtin::bool_array;
use values::{ScopeId, Scopes, VarInfo, TOP};

pub(crate) use arith::mul_flat_shape;
pub(crate) use ops::{OpRecord, Writer};

/// How to translate.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Turn a legacy op that cannot be translated into an unregistered op
    /// `legacy.<type>` (with its inputs and typed outputs) instead of failing.
    pub lenient: bool,
    /// What one translation may make at most.
    pub limits: Limits,
}

/// What one translation may make at most: a budget for the whole program,
/// since a small file can ask for far more than it holds (each sub-block
/// is translated once per op that runs it, so blocks that each run the next
/// one twice unfold into 2^depth copies). A legacy op is translated only
/// when what is made so far, plus the most that op can make, stays within
/// every limit; otherwise the translation stops with
/// [`LegacyError::Limit`] naming the op and the limit.
///
/// The defaults are several times what the largest real models need:
/// those have 10^5–10^6 legacy ops, which become up to about twice as many
/// ops (the builders' `full`, `combine`, `slice` ops), with one or two
/// values, two or three operands and about ten attributes each, and every
/// sub-block translated once (at most [`crate::desc::MAX_BLOCKS`] blocks).
/// At the limits a program takes about 2 GiB; a caller with more memory
/// may raise them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most ops made (parameters, builders' ops and `cf.yield` included).
    pub max_ops: usize,
    /// Most values made (op results and block arguments).
    pub max_values: usize,
    /// Most operands of all ops made together.
    pub max_operands: usize,
    /// Most attributes of all ops made together.
    pub max_attrs: usize,
    /// Most sub-block translations (one per `conditional_block` or `while`
    /// translated, however often its block was translated before).
    pub max_sub_blocks: usize,
    /// Most legacy op entries walked: each legacy op translated counts one
    /// plus its slots, arguments and attributes, a sub-block's ops once per
    /// translation of it. Some ops make nothing (a `shadow_output` of an
    /// unbound name), so the limits above do not bound the walk: without
    /// this one, a block of many such ops run by as many
    /// `conditional_block` ops would cost their product.
    pub max_walked: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_ops: 10_000_000,
            max_values: 20_000_000,
            max_operands: 30_000_000,
            max_attrs: 100_000_000,
            max_sub_blocks: 1_000_000,
            max_walked: 100_000_000,
        }
    }
}

/// What a translation has made so far (checked against [`Limits`]).
#[derive(Debug, Clone, Copy, Default)]
struct Made {
    ops: usize,
    values: usize,
    operands: usize,
    attrs: usize,
    sub_blocks: usize,
    walked: usize,
}

pub use crate::desc::MAX_DEPTH;

/// A target definition with the plan into it.
pub(crate) type TargetPlan = (&'static OpDef, Arc<plan::Plan>);

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
        scopes: Scopes::for_program(desc),
        attrs: Vec::with_capacity(room),
        // Room for the key lists and op types of a typical model:
        // these maps would otherwise grow a few times on every small one.
        var_types,
        lookups: memo::Lookups::default(),
        orders: RefCell::new(map_with_capacity(TYPICAL_KINDS)),
        // Asked only for dictionaries the memo does not know (rare once
        // a model's ops were read): made when first needed.
        specs_by_key: RefCell::default(),

        top_names: params::TopNames::default(),
        options,
        made: Made::default(),
        control_flow: Vec::new(),
        value_flags: Vec::new(),
        depth: 0,
        at: Cursor::default(),
        kind_checks_owed: 0,
        k: consts,
    };
    // An error ends the translation where it is found; a kind check owed
    // by an earlier legacy op that fails is reported first.
    if let Err(e) = t.run().and_then(|()| t.check_control_flow()) {
        let mut records = std::mem::take(&mut t.attrs);
        t.set_all_flags(&mut records);
        return Err(t.first_kind_error(&records).unwrap_or(e));
    }
    t.finish()
}

/// Where the translator is: the block and op being translated (for errors).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Cursor {
    /// Block index.
    pub block: Option<usize>,
    /// Op index within the block.
    pub op: Option<usize>,
}

/// Attributes and symbols every translation uses, made once per context
/// ([`memo::consts`]).
#[derive(Clone, Copy)]
pub(crate) struct Consts {
    /// `[true]`
    pub true1: Attribute,
    /// `[false]`
    pub false1: Attribute,
    /// `true`
    pub bool_true: Attribute,
    /// `false`
    pub bool_false: Attribute,
    /// Symbols of the attributes the writer emits for parameters, in order.
    pub param_syms: [Symbol; 7],
    /// `stop_gradient`
    pub stop_gradient: Symbol,
    /// `persistable`
    pub persistable: Symbol,
    /// The CPU place.
    pub cpu: Attribute,
    /// The undefined place (ops left to place at run time).
    pub undefined_place: Attribute,
    /// The int array `[1]` (the shape of a `full` made for an attribute).
    pub shape1: Attribute,
}

/// The legacy op being translated and where: its block in the
/// `ProgramDesc` (where its variables are declared), the scope its variable
/// names resolve in and the block that receives the ops it becomes.
#[derive(Clone, Copy)]
pub struct OpSite<'o, 'd> {
    /// The legacy block holding the op.
    pub b: usize,
    /// The op.
    pub op: &'o OpDesc<'d>,
    /// Where its variable names resolve.
    pub scope: ScopeId,
    /// Where the translation goes.
    pub dst: BlockId,
}

/// The attributes of `builtin.parameter` (as its definition declares them),
/// in the writer's order: by name (`is_distributed`, `is_parameter`,
/// `need_clip`, `parameter_name`, `persistable`, `stop_gradient`,
/// `trainable`).
pub(crate) static PARAM_ATTRS: std::sync::LazyLock<[&'static str; 7]> =
    std::sync::LazyLock::new(|| {
        let def = pir_dialects::op_def("builtin.parameter");
        let mut names: Vec<&'static str> = def
            .map(|d| d.attributes.iter().map(|a| a.name.as_str()).collect())
            .unwrap_or_default();
        names.sort_unstable();
        // The definitions are compiled in: no input reaches this.
        names
            .try_into()
            .expect("`builtin.parameter` is defined with seven attributes")
    });

impl Consts {
    pub(crate) fn new(ctx: &IrContext) -> Self {
        Consts {
            true1: bool_array(ctx, &[true]),
            false1: bool_array(ctx, &[false]),
            bool_true: ctx.intern_attr(pir_core::builtin::BoolAttr(true)),
            bool_false: ctx.intern_attr(pir_core::builtin::BoolAttr(false)),
            param_syms: PARAM_ATTRS.map(|n| ctx.symbol(n)),
            stop_gradient: ctx.symbol("stop_gradient"),
            persistable: ctx.symbol("persistable"),
            cpu: PlaceAttr::get(ctx, Place::cpu()),
            undefined_place: PlaceAttr::get(ctx, Place::undefined()),
            shape1: IntArrayAttr::get(ctx, &[1]),
        }
    }
}

/// A definition's and an attribute key's addresses, with the key's length.
type SpecKey = (usize, usize, usize);

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
    pub memo: RefCell<Box<memo::ContextMemo>>,
    /// The PIR type of each variable that is not a dense tensor (by block
    /// and index), once asked for (dense tensors' are kept in the memo, see
    /// [`Translator::var_type_at`]).
    var_types: Vec<Vec<Cell<Type>>>,
    /// How many look-ups of each kind the translation has made.
    pub(super) lookups: memo::Lookups,
    /// Map orders by the addresses of the keys (see [`Translator::order_of`]).
    orders: RefCell<ops::LocalOrders>,
    /// The declared attribute a key names in a definition, by the
    /// definition's and the key's addresses (see
    /// [`Translator::check_attr_kinds`]).
    specs_by_key: RefCell<FxHashMap<SpecKey, Option<&'static AttrSpec>>>,

    /// What the walk for parameters learns of each name the top block's
    /// ops use (one look-up per use instead of one per set).
    top_names: params::TopNames<'d>,
    pub options: Options,
    /// What is made so far, against `options.limits`.
    made: Made,
    /// The `pd_op.if` and `pd_op.while` ops made with their region counts
    /// and the legacy ops that made them, checked at the end.
    control_flow: Vec<(pir_core::OpId, usize, Cursor)>,
    /// The result flags of each value (bit 0: set, bit 1: `stop_gradient`,
    /// bit 2: `persistable`), given to the ops' maps as their final
    /// dictionaries are made (see [`Translator::set_value_flags`]).
    value_flags: Vec<u8>,
    depth: usize,
    /// The op being translated, for errors.
    pub at: Cursor,
    /// How many attribute kind checks the ops translated so far owe.
    kind_checks_owed: usize,
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
        self.location_at(self.at)
    }

    /// Where legacy op `at` is, with its type.
    fn location_at(&self, at: Cursor) -> Location {
        let op_type = match (at.block, at.op) {
            (Some(b), Some(i)) => self
                .desc
                .blocks
                .get(b)
                .and_then(|blk| blk.ops.get(i))
                .map(|op| op.op_type.to_owned()),
            _ => None,
        };
        Location {
            block: at.block,
            op: at.op,
            op_type,
            var: None,
        }
    }

    /// An error at the current op.
    pub fn err(&self, message: impl Into<String>) -> LegacyError {
        LegacyError::invalid(self.location(), message)
    }

    /// Attribute `name` of the current op holds `value`, not what the
    /// translator reads there (`expected`).
    pub fn attr_kind_err(&self, name: &str, value: &AttrValue<'_>, expected: &str) -> LegacyError {
        self.err(format!(
            "attribute `{name}` is {}, expected {expected}",
            value.kind_name()
        ))
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
            .find_var_pos(block, name)
            .ok_or_else(|| self.var_err(name, "variable is not declared"))?;
        self.var_type_at(b, i)
            .map_err(|e| self.var_err(name, e.to_string()))
    }

    /// The PIR type of variable `i` of block `b` (computed once; a dense
    /// tensor's is asked of the memo by its place, where a model translated
    /// again finds it, and checked there: one step rather than two).
    // Inlined: asked for most outputs of every op, and a dense tensor's type
    // kept from the last translation is found in fewer instructions than
    // the call's own; making a type stays out of line.
    #[inline(always)]
    pub fn var_type_at(&self, b: usize, i: usize) -> Result<Type, values::TypeError> {
        let var = &self.desc.blocks[b].vars[i];
        if var.kind == VarKind::DenseTensor {
            let elem = memo::Elem::Legacy(var.dtype());
            let kept = self
                .memo
                .borrow()
                .kept_tensor_type_at((b, i), elem, var.shape());
            if let Some(t) = kept {
                return Ok(t);
            }
        }
        self.make_var_type_at(b, i)
    }

    /// [`Translator::var_type_at`] of a variable whose type is not kept.
    #[inline(never)]
    fn make_var_type_at(&self, b: usize, i: usize) -> Result<Type, values::TypeError> {
        let var = &self.desc.blocks[b].vars[i];
        if var.kind == VarKind::DenseTensor {
            return self.memo.borrow_mut().tensor_type_at(
                (b, i),
                memo::Elem::Legacy(var.dtype()),
                var.shape(),
                || values::var_type(&self.ctx, var),
            );
        }
        let cell = &self.var_types[b][i];
        if cell.get() != Type::NULL {
            return Ok(cell.get());
        }
        let t = values::var_type(&self.ctx, var)?;
        cell.set(t);
        Ok(t)
    }

    /// The current binding of `name`.
    pub fn lookup(&self, scope: ScopeId, name: &str) -> Result<VarInfo> {
        self.binding(scope, name)
            .ok_or_else(|| self.var_err(name, "used before any op defines it"))
    }

    /// The current binding of `name`, if any: where the top block declares
    /// it is found through the numbered look-ups
    /// ([`Translator::find_var_pos`]), so a model translated again hashes
    /// no name bound in the top scope.
    pub fn binding(&self, scope: ScopeId, name: &str) -> Option<VarInfo> {
        self.scopes
            .get_finding_top(scope, name, || self.find_var_pos(TOP, name))
    }

    /// [`Translator::lookup`] of a name found declared at `declared` from
    /// the block of `scope`, when known.
    pub fn lookup_declared(
        &self,
        scope: ScopeId,
        name: &str,
        declared: Option<values::Declared>,
    ) -> Result<VarInfo> {
        self.scopes
            .get_declared(scope, name, declared)
            .ok_or_else(|| self.var_err(name, "used before any op defines it"))
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
            self.check_budget(op)?;
            let first_new = self.attrs.len();
            let site = OpSite { b, op, scope, dst };
            match op.op_type {
                "conditional_block" => self.translate_if(site)?,
                "while" => self.translate_while(site)?,
                "while_grad" | "conditional_block_grad" => {
                    self.unsupported_or_lenient(site, "gradient control flow")?
                }
                _ => self.translate_op(site)?,
            }
            self.owe_kind_checks(first_new);
        }
        self.depth -= 1;
        Ok(())
    }

    /// Every attribute of the `pd_op` ops made since op index `first` must
    /// have the kind the op's definition declares: a legacy attribute of
    /// another kind (a string where an int array belongs) would otherwise
    /// make an op the verifier rejects. Owed once per legacy op, on what it
    /// made; made with the final dictionaries ([`ops::KindCheck`]).
    fn owe_kind_checks(&mut self, first: usize) {
        let Some(made) = self.attrs.get_mut(first..) else {
            return;
        };
        for rec in made.iter_mut().flatten() {
            if rec.kind_check.is_none() && matches!(rec.writer, Writer::Declared(..)) {
                rec.kind_check = Some(ops::KindCheck {
                    seq: self.kind_checks_owed,
                    at: self.at,
                });
                self.kind_checks_owed += 1;
            }
        }
    }

    /// What is wrong with the attribute kinds of `rec`, if anything (see
    /// [`Translator::owe_kind_checks`]).
    fn kind_mismatch(&self, rec: &OpRecord<'_>) -> Option<String> {
        let Writer::Declared(def, facts) = rec.writer else {
            return None;
        };
        let mut memo = self.memo.borrow_mut();
        let memo::ContextMemo {
            def_facts, kinds, ..
        } = &mut **memo;
        let facts = &def_facts[facts];
        for (j, &(name, attr)) in rec.map.entries().iter().enumerate() {
            if attr.is_null() {
                continue;
            }
            // Most maps list the declared attributes in order.
            let kind = match facts.specs.get(j) {
                Some(&(n, kind)) if attrs::same(n, name) => kind,
                _ => match self.spec_by_key(def, name) {
                    Some(spec) => spec.kind,
                    None => continue,
                },
            };
            if !kinds.matches(&self.ctx, attr, kind) {
                return Some(format!(
                    "attribute `{name}` of `{}` would be {} (the legacy attribute \
                     has the wrong kind), it takes {kind:?}",
                    def.name,
                    self.ctx.attr_data(attr).kind_name(),
                ));
            }
        }
        None
    }

    /// The error of a failed kind check.
    fn kind_error(&self, check: ops::KindCheck, message: String) -> LegacyError {
        LegacyError::invalid(self.location_at(check.at), message)
    }

    /// The first of the kind checks owed in `records` that fails, in the
    /// order they were owed (the error each legacy op would have met right
    /// after its translation).
    fn first_kind_error(&self, records: &[Option<OpRecord<'_>>]) -> Option<LegacyError> {
        let mut owed: Vec<(ops::KindCheck, &OpRecord<'_>)> = records
            .iter()
            .flatten()
            .filter_map(|rec| Some((rec.kind_check?, rec)))
            .collect();
        owed.sort_by_key(|(check, _)| check.seq);
        owed.into_iter().find_map(|(check, rec)| {
            let message = self.kind_mismatch(rec)?;
            Some(self.kind_error(check, message))
        })
    }

    /// The attribute of `def` named `key`, remembered by the addresses of
    /// both: most keys out of declared order are an op builder's static
    /// names and the result flags, met again on every op of a kind, and a
    /// definition's list is searched name by name. Within one translation
    /// an address names one text (keys are static or borrow from the file).
    fn spec_by_key(&self, def: &'static OpDef, key: &str) -> Option<&'static AttrSpec> {
        let at = (
            std::ptr::from_ref(def) as usize,
            key.as_ptr() as usize,
            key.len(),
        );
        *self
            .specs_by_key
            .borrow_mut()
            .entry(at)
            .or_insert_with(|| def.attribute(key))
    }

    // ------------------------------------------------------------ budget

    /// Fails when what is made so far plus the most legacy op `op` can make
    /// passes a limit (checked before the op makes anything). The most an
    /// op makes is bounded by its size: a `builtin.slice`, a
    /// `builtin.combine` operand and a `builtin.split` result per argument,
    /// a `full` per attribute, the op itself, its yields and a fake branch's
    /// values per output (with room to spare for the fixed few of each).
    /// The op's entries are counted as walked ([`Limits::max_walked`]).
    fn check_budget(&mut self, op: &OpDesc<'_>) -> Result<()> {
        let args: usize = op.input_arg_names().count() + op.output_arg_names().count();
        let slots = op.inputs().len() + op.outputs().len();
        let attrs = op.attrs.len() + op.extra.len();
        let ops = 8 + 2 * args + slots + attrs;
        let values = 8 + 3 * args + slots + attrs;
        let operands = 8 + 4 * args + slots;
        let attr_entries = 8 * ops + attrs;
        self.within("ops", self.made.ops, ops, self.options.limits.max_ops)?;
        self.within(
            "values",
            self.made.values,
            values,
            self.options.limits.max_values,
        )?;
        self.within(
            "operands",
            self.made.operands,
            operands,
            self.options.limits.max_operands,
        )?;
        self.within(
            "attributes",
            self.made.attrs,
            attr_entries,
            self.options.limits.max_attrs,
        )?;
        let walked = 1 + args + slots + attrs;
        self.within(
            "legacy op entries walked",
            self.made.walked,
            walked,
            self.options.limits.max_walked,
        )?;
        self.made.walked += walked;
        Ok(())
    }

    /// Fails when `made` and `more` of `what` together pass `limit`.
    /// Inlined: it runs five times per legacy op and almost always passes.
    #[inline]
    fn within(&self, what: &str, made: usize, more: usize, limit: usize) -> Result<()> {
        if made.saturating_add(more) <= limit {
            return Ok(());
        }
        self.over_limit(what, made, limit)
    }

    /// The error of [`Translator::within`].
    #[cold]
    #[inline(never)]
    fn over_limit(&self, what: &str, made: usize, limit: usize) -> Result<()> {
        Err(LegacyError::Limit {
            at: Box::new(self.location()),
            message: format!(
                "the translation would make more than {limit} {what} \
                 ({made} made so far; `Options::limits` sets the limit)"
            ),
        })
    }

    /// Counts a sub-block translation against its limit, before it starts.
    pub(crate) fn enter_sub_block(&mut self) -> Result<()> {
        let limit = self.options.limits.max_sub_blocks;
        self.within("sub-block translations", self.made.sub_blocks, 1, limit)?;
        self.made.sub_blocks += 1;
        Ok(())
    }

    /// Counts what a created op holds.
    fn count_op(&mut self, operands: usize, results: usize, attrs: usize) {
        self.made.ops += 1;
        self.made.values += results;
        self.made.operands += operands;
        self.made.attrs += attrs;
    }

    /// Adds a block argument (counted as a value).
    pub(crate) fn add_block_arg(&mut self, block: BlockId, ty: Type) -> ValueId {
        self.made.values += 1;
        self.program.add_block_arg(block, ty)
    }

    /// Remembers a control-flow op made for the current legacy op, with
    /// its region count, for [`Translator::check_control_flow`].
    pub(crate) fn note_control_flow(&mut self, op: pir_core::OpId, regions: usize) {
        self.control_flow.push((op, regions, self.at));
    }

    /// Every `pd_op.if` has its two branches and every `pd_op.while` its
    /// body, each one block ending in `cf.yield`: a translation that left
    /// one out would give a program the verifier rejects, so it is an
    /// error here instead, naming the legacy op that made it.
    fn check_control_flow(&self) -> Result<()> {
        let yield_sym = self.ctx.symbol("cf.yield");
        for &(op, regions, at) in &self.control_flow {
            let p = &self.program;
            let problem = if p.num_regions(op) != regions {
                Some(format!("has {} regions, not {regions}", p.num_regions(op)))
            } else {
                p.regions(op).enumerate().find_map(|(r, region)| {
                    let blocks = p.region_blocks(region);
                    let [block] = blocks else {
                        return Some(format!("region {r} has {} blocks, not 1", blocks.len()));
                    };
                    let ends_in_yield = p
                        .block_last_op(*block)
                        .is_some_and(|last| p.op_name(last) == yield_sym);
                    (!ends_in_yield).then(|| format!("region {r} does not end in `cf.yield`"))
                })
            };
            if let Some(problem) = problem {
                return Err(LegacyError::invalid(
                    self.location_at(at),
                    format!("internal error: `{}` {problem}", p.op_name_str(op)),
                ));
            }
        }
        Ok(())
    }

    fn translate_op(&mut self, site: OpSite<'d, 'd>) -> Result<()> {
        let OpSite { op, scope, .. } = site;
        if op.op_type == "shadow_output" {
            let x = op.input_args("x").first();
            if x.is_none_or(|x| self.binding(scope, x).is_none()) {
                return Ok(());
            }
        }
        match self.translate_special(site) {
            Some(r) => r,
            None => match self.translate_general(site) {
                Err(LegacyError::Unsupported { message, .. }) => {
                    self.unsupported_or_lenient(site, &message)
                }
                r => r.map(|_| ()),
            },
        }
    }

    /// Fails, or with `lenient` emits `legacy.<type>` with the op's inputs
    /// as operands and one result per typed output variable.
    fn unsupported_or_lenient(&mut self, site: OpSite<'d, 'd>, message: &str) -> Result<()> {
        let OpSite { b, op, scope, dst } = site;
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
}
