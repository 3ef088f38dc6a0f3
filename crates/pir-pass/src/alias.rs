//! Alias analysis: which values share a buffer, which buffers some op may
//! write, and which values the executor or the caller knows by identity.
//!
//! PIR is SSA, but Paddle's tensors are buffers: `relu_(x)` writes `x`,
//! `reshape_(x)` returns a view of it, and control flow passes buffers around
//! (a `pd_op.while` rebinds its condition and loop-carried variables every
//! iteration, its body arguments and `cf.yield` operands share their data,
//! `pd_op.if` results share the data its branches yield). Two values of one
//! *alias class* may name the same memory. A class is *written* when some op
//! may store into it; then a read of any member depends on where it happens,
//! and no pass may merge, forward or move such values (the seed's `tensor`,
//! as opposed to the read-only, alias-free `v_tensor`).
//!
//! Edges of the alias relation, all derived from the op definitions and the
//! control-flow ops:
//! - an output mapped to an input by the op's in-place or view map (which
//!   also writes the class: every view map in Paddle 3.3.1 belongs to an
//!   in-place op);
//! - `pd_op.while`: condition ↔ the yielded next condition; loop-carried
//!   input `i` ↔ result `i` ↔ body argument `i` ↔ yielded value `i`
//!   (all written: the executor rebinds them each iteration, but none
//!   stored: the rebinding shares buffers and copies nothing, so what a
//!   buffer holds changes only by the ops that store into it, the in-place
//!   and view ops and the unknown ones; loop-invariant code motion asks
//!   this);
//! - `pd_op.if` / `pd_op.pylayer`: result `i` ↔ operand `i` of every branch's
//!   `cf.yield`;
//! - `builtin.combine`, `builtin.split`, `builtin.slice`: a vector and its
//!   elements;
//! - an unregistered op, or an in-place op without a definition: every
//!   operand ↔ every result, and the class is written (nothing is known).
//!
//! A value is *pinned* when its identity is observable: results of
//! `pd_op.data`, `builtin.parameter`, `builtin.constant_tensor` (the caller's
//! tensors and the weights), and operands of `builtin.shadow_output`,
//! `builtin.set_parameter`, `cf.yield` and `pd_op.while`. Paddle's executor
//! binds those to named variables; one buffer may not stand for two of them.
//! (`pd_op.fetch` copies its operand into the fetch list, so it pins nothing.)

use pir_core::builtin::{op_names, DenseTensorType, VectorType};
use pir_core::entity::EntityId;
use pir_core::op_info::traits;
use pir_core::{BlockId, OpId, Program, ValueDef, ValueId};
use pir_dialects::op_def::{OpDef, OpDefinition};
use pir_dialects::ops::{DataOp, IfOp, PylayerOp, WhileOp};
use pir_dialects::value_tensor::ValueTensorType;

/// What an op means for the buffers it touches, by name.
#[derive(Debug, Clone, Copy)]
enum Role {
    While,
    If,
    PyLayer,
    Yield,
    Combine,
    Split,
    /// Observes its operands by identity (outputs of the program).
    Sink,
    /// Its results are the caller's or the weights' buffers.
    Source,
    /// A definition with in-place/view maps.
    Mapped(&'static OpDef),
    /// Registered, without definition, flagged in-place: unknown aliasing.
    UnknownInplace,
    /// Not registered: unknown aliasing and effects.
    Unknown,
    /// Reads its operands, returns fresh results.
    Plain,
}

/// Roles by op name: an op's role depends on its name only, and a program
/// has few distinct names. A map, not a table indexed by symbol: a query of
/// one value's class sees a handful of names, and sizing a table to the
/// context's symbols on every query made each one cost as much as the
/// program's size.
#[derive(Default)]
struct Roles(rustc_hash::FxHashMap<pir_core::Symbol, Role>);

impl Roles {
    fn of(&mut self, p: &Program, op: OpId) -> Role {
        *self.0.entry(p.op_name(op)).or_insert_with(|| role(p, op))
    }
}

fn role(p: &Program, op: OpId) -> Role {
    let name = p.op_name_str(op);
    match name {
        WhileOp::NAME => return Role::While,
        IfOp::NAME => return Role::If,
        PylayerOp::NAME => return Role::PyLayer,
        "cf.yield" => return Role::Yield,
        "builtin.combine" => return Role::Combine,
        "builtin.split" | "builtin.slice" => return Role::Split,
        "builtin.shadow_output" | "builtin.set_parameter" => return Role::Sink,
        DataOp::NAME | op_names::PARAMETER | "builtin.constant_tensor" => return Role::Source,
        _ => {}
    }
    let Some(info) = p.op_info(op) else {
        return Role::Unknown;
    };
    match info.interface::<OpDefinition>().map(|d| d.0) {
        Some(def) if !def.inplace.is_empty() || !def.view.is_empty() => Role::Mapped(def),
        Some(_) if !info.has_trait(traits::INPLACE) => Role::Plain,
        None if !info.has_trait(traits::INPLACE) => Role::Plain,
        _ => Role::UnknownInplace,
    }
}

/// Pairs `(result index, operand index)` of a definition's in-place and
/// view maps. Both write: in Paddle 3.3.1 every op with a view map is an
/// in-place op, and the view-only pairs (`batch_norm_`'s running mean and
/// variance, `rnn_`'s dropout state) are state its kernel updates. Variadic
/// inputs never carry such a map, so input positions are operand positions.
fn mapped_pairs(def: &'static OpDef) -> impl Iterator<Item = (usize, usize)> {
    def.inplace
        .iter()
        .chain(def.view)
        .filter_map(move |&(o, i)| {
            Some((def.output_index(o.as_str())?, def.input_index(i.as_str())?))
        })
}

/// Whether `op` only reads its operand `index`: it neither stores into it
/// nor gives its buffer another name. An in-place or view pair on it,
/// control flow, vectors, sinks and ops nothing is known of all do more.
pub(crate) fn only_reads(p: &Program, op: OpId, index: usize) -> bool {
    match role(p, op) {
        Role::Plain | Role::Source => p.num_regions(op) == 0,
        Role::Mapped(def) => p.num_regions(op) == 0 && !mapped_pairs(def).any(|(_, i)| i == index),
        _ => false,
    }
}

/// Whether every result of `op` is a buffer of its own: a registered op
/// without regions, in-place or view maps, and not a caller's or weight's
/// tensor.
pub(crate) fn has_fresh_results(p: &Program, op: OpId) -> bool {
    matches!(role(p, op), Role::Plain) && p.num_regions(op) == 0
}

/// The `cf.yield` ending `block`, if any.
pub(crate) fn yield_of(p: &Program, block: BlockId) -> Option<OpId> {
    p.block_last_op(block)
        .filter(|&op| p.op_name_str(op) == "cf.yield")
}

/// The body block of a `while` (its first region's first block).
pub(crate) fn while_body(p: &Program, op: OpId) -> Option<BlockId> {
    let region = p.regions(op).next()?;
    p.region_blocks(region).first().copied()
}

/// Facts about one value found while visiting its neighbours.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Local {
    written: bool,
    stored: bool,
    pinned: bool,
    /// Pinned as an input, weight or output of the program.
    external: bool,
    condition: bool,
}

impl Local {
    /// The value is an input, weight or output of the program: the caller
    /// or the parameter file sees its buffer.
    fn bind_externally(&mut self) {
        self.pinned = true;
        self.external = true;
    }
}

impl Local {
    /// An op stores into the buffer (which also makes it written).
    fn store(&mut self) {
        self.written = true;
        self.stored = true;
    }
}

/// Calls `f` on every value that shares a buffer with `v` by one edge, and
/// returns what the edges say about `v` itself.
fn neighbours(p: &Program, roles: &mut Roles, v: ValueId, f: &mut impl FnMut(ValueId)) -> Local {
    let mut local = Local::default();
    let operand = |op: OpId, i: usize, f: &mut dyn FnMut(ValueId)| {
        if let Some(x) = p.operand(op, i) {
            f(x);
        }
    };
    let result = |op: OpId, i: usize, f: &mut dyn FnMut(ValueId)| {
        if i < p.num_results(op) {
            f(p.result(op, i));
        }
    };
    // Where the value comes from.
    match p.value_def(v) {
        ValueDef::Result { op, index } => {
            let index = index as usize;
            match roles.of(p, op) {
                Role::Mapped(def) => {
                    for (o, i) in mapped_pairs(def) {
                        if o == index {
                            operand(op, i, f);
                            local.store();
                        }
                    }
                }
                Role::Unknown | Role::UnknownInplace => {
                    p.operands(op).flatten().for_each(&mut *f);
                    local.store();
                }
                Role::While => {
                    local.written = true;
                    operand(op, index + 1, f);
                    if let Some(body) = while_body(p, op) {
                        if let Some(&arg) = p.block_args(body).get(index) {
                            f(arg);
                        }
                        if let Some(y) = yield_of(p, body) {
                            operand(y, index + 1, f);
                        }
                    }
                }
                Role::If | Role::PyLayer => {
                    for region in p.regions(op) {
                        for &block in p.region_blocks(region) {
                            if let Some(y) = yield_of(p, block) {
                                operand(y, index, f);
                            }
                        }
                    }
                }
                Role::Split => operand(op, 0, f),
                Role::Combine => p.operands(op).flatten().for_each(&mut *f),
                Role::Source => local.bind_externally(),
                Role::Yield | Role::Sink | Role::Plain => {}
            }
        }
        ValueDef::BlockArg { block, index } => {
            let index = index as usize;
            if let Some(parent) = p.block_parent_op(block) {
                if matches!(roles.of(p, parent), Role::While) {
                    local.written = true;
                    operand(parent, index + 1, f);
                    result(parent, index, f);
                    if let Some(y) = yield_of(p, block) {
                        operand(y, index + 1, f);
                    }
                }
            }
        }
        ValueDef::BlockKwarg { .. } | ValueDef::Erased => {}
    }
    // Where the value goes.
    for u in p.uses(v) {
        let user = p.operand_owner(u);
        let k = p.operand_index(u);
        match roles.of(p, user) {
            Role::Mapped(def) => {
                for (o, i) in mapped_pairs(def) {
                    if i == k {
                        result(user, o, f);
                        local.store();
                    }
                }
            }
            Role::Unknown | Role::UnknownInplace => {
                p.results(user).for_each(&mut *f);
                local.store();
            }
            Role::While => {
                local.written = true;
                local.pinned = true;
                if k == 0 {
                    local.condition = true;
                    if let Some(y) = while_body(p, user).and_then(|b| yield_of(p, b)) {
                        operand(y, 0, f);
                    }
                } else {
                    let i = k - 1;
                    result(user, i, f);
                    if let Some(body) = while_body(p, user) {
                        if let Some(&arg) = p.block_args(body).get(i) {
                            f(arg);
                        }
                    }
                }
            }
            Role::Yield => {
                local.pinned = true;
                let Some(block) = p.op_parent_block(user) else {
                    local.bind_externally();
                    continue;
                };
                let Some(parent) = p.block_parent_op(block) else {
                    local.bind_externally();
                    continue;
                };
                match roles.of(p, parent) {
                    Role::While => {
                        local.written = true;
                        if k == 0 {
                            local.condition = true;
                            operand(parent, 0, f);
                        } else {
                            let i = k - 1;
                            operand(parent, i + 1, f);
                            result(parent, i, f);
                            if let Some(&arg) = p.block_args(block).get(i) {
                                f(arg);
                            }
                        }
                    }
                    _ => result(parent, k, f),
                }
            }
            Role::Combine => p.results(user).for_each(&mut *f),
            Role::Split => p.results(user).for_each(&mut *f),
            Role::Sink => local.bind_externally(),
            Role::If | Role::PyLayer | Role::Source | Role::Plain => {}
        }
    }
    local
}

/// What is known about one alias class.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ClassFacts {
    /// Some op may store into a buffer of the class, or a `while` rebinds
    /// one of its members (see [`ClassFacts::stored`]).
    pub written: bool,
    /// Some op may store into a buffer of the class: an in-place or view op,
    /// or an op nothing is known of. A `while` rebinding its variables only
    /// shares buffers (Paddle's executor points the body arguments, the
    /// yielded values and the results at each other's data and copies
    /// nothing), so a class that is written but not stored keeps its
    /// contents: each buffer holds the value it was computed with.
    pub stored: bool,
    /// Some member's identity is observable (see the module docs).
    pub pinned: bool,
    /// Some member is an input, weight or output of the program (a result of
    /// `pd_op.data`, `builtin.parameter` or `builtin.constant_tensor`, an
    /// operand of `builtin.shadow_output` or `builtin.set_parameter`, or
    /// what a block outside any op yields): its buffer is the caller's or
    /// the weights'. The other pins are control flow's (an `if` or `while`
    /// result, a loop's carried values and what its body yields), and they
    /// hold only until the op is done: after it, the buffers it bound have
    /// no names but the class's members.
    pub external: bool,
    /// Some member is the condition of a `while` (its operand, or the next
    /// condition its body yields). The loop points the condition operand's
    /// variable at each next condition's data, so unlike the other
    /// rebindings this one changes what the operand reads after the loop
    /// (and inside its body).
    pub condition: bool,
    /// Number of values in the class.
    pub size: u32,
}

/// The alias class of one value, computed on demand (for rewrites that
/// change the program between queries).
#[derive(Debug, Clone)]
pub struct AliasClass {
    /// The values sharing a buffer with the queried one (itself included).
    pub members: Vec<ValueId>,
    /// Facts about the class.
    pub facts: ClassFacts,
    /// Whether the queried value itself is pinned.
    pub pinned: bool,
}

/// The alias class of `v`, by a walk over the alias edges from `v`.
pub fn alias_class(p: &Program, v: ValueId) -> AliasClass {
    alias_class_through(p, v, |_| true)
}

/// The alias class of `v` as [`alias_class`] walks it, except that the walk
/// goes on from a member other than `v` only where `expand` holds: a member
/// it stops at joins the class (its own edges' facts count) and its other
/// neighbours join only when another path reaches them. For a caller that
/// knows more about one value than the edges say (the elements of a vector
/// one op made and one `builtin.split` took apart are buffers of their own,
/// although each is an edge away from the vector).
pub fn alias_class_through(
    p: &Program,
    v: ValueId,
    expand: impl Fn(ValueId) -> bool,
) -> AliasClass {
    let mut members = vec![v];
    let mut seen = rustc_hash::FxHashSet::default();
    seen.insert(v);
    let mut facts = ClassFacts::default();
    let mut pinned_self = false;
    let mut next = 0;
    let mut roles = Roles::default();
    while let Some(&x) = members.get(next) {
        next += 1;
        let follow = x == v || expand(x);
        let local = neighbours(p, &mut roles, x, &mut |y| {
            if follow && seen.insert(y) {
                members.push(y);
            }
        });
        facts.written |= local.written;
        facts.stored |= local.stored;
        facts.pinned |= local.pinned;
        facts.external |= local.external;
        facts.condition |= local.condition;
        if x == v {
            pinned_self = local.pinned;
        }
    }
    facts.size = u32::try_from(members.len()).unwrap_or(u32::MAX);
    AliasClass {
        members,
        facts,
        pinned: pinned_self,
    }
}

/// Whether `v` is a pure value: no op writes its buffer, so every read of it
/// gives the same data wherever it happens.
pub fn is_unwritten(p: &Program, v: ValueId) -> bool {
    !alias_class(p, v).facts.written
}

/// Alias classes of every value of a program, computed once.
///
/// Valid until the program changes in a way that adds alias edges or
/// writes; passes that only erase or merge values without writes (CSE, DCE)
/// may keep using it.
#[derive(Debug, Clone)]
pub struct AliasAnalysis {
    /// Class index of each value slot (`u32::MAX`: not a live value).
    class_of: Vec<u32>,
    /// Whether each value slot is pinned.
    pinned: Vec<bool>,
    classes: Vec<ClassFacts>,
}

const NO_CLASS: u32 = u32::MAX;

impl AliasAnalysis {
    /// Analyses every value defined under the program's module op.
    pub fn new(p: &Program) -> Self {
        let slots = p.value_slots();
        let mut a = AliasAnalysis {
            class_of: vec![NO_CLASS; slots],
            pinned: vec![false; slots],
            classes: Vec::new(),
        };
        let mut stack = Vec::new();
        let mut roles = Roles::default();
        let mut visit_value = |a: &mut AliasAnalysis, v: ValueId| {
            if a.class_of[v.index()] != NO_CLASS {
                return;
            }
            let class = u32::try_from(a.classes.len()).unwrap_or(NO_CLASS - 1);
            let mut facts = ClassFacts::default();
            a.class_of[v.index()] = class;
            stack.push(v);
            while let Some(x) = stack.pop() {
                facts.size += 1;
                let local = neighbours(p, &mut roles, x, &mut |y| {
                    if let Some(slot) = a.class_of.get_mut(y.index()) {
                        if *slot == NO_CLASS {
                            *slot = class;
                            stack.push(y);
                        }
                    }
                });
                a.pinned[x.index()] = local.pinned;
                facts.written |= local.written;
                facts.stored |= local.stored;
                facts.pinned |= local.pinned;
                facts.external |= local.external;
                facts.condition |= local.condition;
            }
            a.classes.push(facts);
        };
        p.walk(p.module_op(), pir_core::walk::Order::Pre, &mut |op| {
            for r in p.results(op) {
                visit_value(&mut a, r);
            }
            for region in p.regions(op) {
                for &block in p.region_blocks(region) {
                    for &arg in p.block_args(block) {
                        visit_value(&mut a, arg);
                    }
                    for &(_, arg) in p.block_kwargs(block) {
                        visit_value(&mut a, arg);
                    }
                }
            }
        });
        a
    }

    /// Facts about the class of `v` (a value created after the analysis is
    /// taken as written and pinned: nothing is known of it).
    pub fn facts(&self, v: ValueId) -> ClassFacts {
        match self.class_of.get(v.index()) {
            Some(&c) if c != NO_CLASS => self.classes[c as usize],
            _ => ClassFacts {
                written: true,
                stored: true,
                pinned: true,
                external: true,
                condition: true,
                size: 1,
            },
        }
    }

    /// Whether some op may write the buffer of `v`.
    pub fn is_written(&self, v: ValueId) -> bool {
        self.facts(v).written
    }

    /// Whether some op may store into the buffer of `v` (not only rebind it:
    /// [`ClassFacts::stored`]).
    pub fn is_stored(&self, v: ValueId) -> bool {
        self.facts(v).stored
    }

    /// Whether what `v` reads stays what it was computed as, wherever it is
    /// read: no op stores into its class, and no `while` rebinds it as its
    /// condition. (The loop's other rebindings point variables at buffers
    /// and change none.)
    pub fn is_stable(&self, v: ValueId) -> bool {
        let f = self.facts(v);
        !f.stored && !f.condition
    }

    /// Whether the identity of `v` itself is observable.
    pub fn is_pinned(&self, v: ValueId) -> bool {
        self.pinned.get(v.index()).copied().unwrap_or(true)
    }

    /// Whether `a` and `b` may share a buffer.
    pub fn may_alias(&self, a: ValueId, b: ValueId) -> bool {
        let class = |v: ValueId| self.class_of.get(v.index()).copied().unwrap_or(NO_CLASS);
        a == b || class(a) == NO_CLASS || class(a) == class(b)
    }

    /// Whether `v` has value semantics: alias-free, never written and not
    /// pinned — the seed's `v_tensor`.
    pub fn has_value_semantics(&self, v: ValueId) -> bool {
        let f = self.facts(v);
        !f.written && f.size == 1 && !self.is_pinned(v)
    }
}

/// Whether `ty` is a dense tensor (or a value tensor, its read-only twin) or
/// a vector of them: the only results Paddle's CSE merges (tensor arrays,
/// selected rows and dist tensors carry state of their own).
pub fn is_dense(p: &Program, ty: pir_core::Type) -> bool {
    let ctx = p.ctx();
    let tensor = |t| ctx.type_is::<DenseTensorType>(t) || ctx.type_is::<ValueTensorType>(t);
    tensor(ty)
        || ctx
            .type_as::<VectorType>(ty)
            .is_some_and(|v| v.0.iter().all(|&t| tensor(t)))
}

/// Whether every use of `r` may read `x` instead: same type, neither buffer
/// written by any op (a copy of a written buffer is observable), and not
/// both observed by identity (an output of the program fed by an input, or
/// two variables of the executor made one). Computed on demand: the greedy
/// driver changes the program between queries.
pub fn may_forward(p: &Program, x: ValueId, r: ValueId) -> bool {
    if x == r || p.value_type(x) != p.value_type(r) {
        return false;
    }
    let (cx, cr) = (alias_class(p, x), alias_class(p, r));
    !cx.facts.written && !cr.facts.written && (!cr.pinned || !cx.facts.pinned)
}
