//! The [`Rewriter`]: the builder a pattern edits through, every edit
//! recorded.
//!
//! A pattern reads the program ([`Rewriter::program`]) and changes it only
//! through the rewriter: ops are built at an insertion point
//! ([`Rewriter::build`], [`Rewriter::create_op_at`]), modified
//! ([`Rewriter::set_attr`], [`Rewriter::modify_op`]), replaced and erased.
//! Each edit is recorded for the driver and told to the listener by
//! construction: there is no `&mut Program` to edit behind their backs.

use pir_core::entity::EntityId;
use pir_core::{AttrDict, Attribute, Builder, InsertPoint, OpId, Program, Symbol, Type, ValueId};

use super::RewriteListener;

/// Edits a program on behalf of a pattern, recording what changed and which
/// ops the driver should revisit (users of replaced values, definitions of
/// erased ops' operands, created and modified ops), and telling a listener.
pub struct Rewriter<'p> {
    program: &'p mut Program,
    pub(super) changes: u64,
    pub(super) touched: Vec<OpId>,
    /// Ops created and inserted (the driver bounds their total).
    pub(super) created: u64,
    /// Why the pattern cannot go on (see [`Rewriter::fail`]).
    pub(super) failure: Option<String>,
    pub(super) listener: Option<&'p mut (dyn RewriteListener + 'p)>,
}

impl<'p> Rewriter<'p> {
    /// A rewriter over `program`.
    pub fn new(program: &'p mut Program) -> Self {
        Rewriter {
            program,
            changes: 0,
            touched: Vec::new(),
            created: 0,
            failure: None,
            listener: None,
        }
    }

    /// The program, to read (edits go through the rewriter's methods).
    pub fn program(&self) -> &Program {
        self.program
    }

    /// Number of changes recorded.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// Reports that the pattern is at fault — it broke a limit of its own
    /// language, say — rather than not matching: the driver stops and says
    /// why ([`super::Stop::Failed`]). The pattern should leave the program
    /// as it found it and return `false`.
    pub fn fail(&mut self, message: impl Into<String>) {
        self.failure = Some(message.into());
    }

    /// Modifies `op` in place with `f` (which should change `op` alone),
    /// and records the modification.
    pub fn modify_op<R>(&mut self, op: OpId, f: impl FnOnce(&mut Program) -> R) -> R {
        let r = f(self.program);
        self.record_modified(op);
        r
    }

    /// Sets attribute `name` of `op` (recorded unless it is unchanged).
    pub fn set_attr(&mut self, op: OpId, name: &str, attr: Attribute) {
        if self.program.attr(op, name) != Some(attr) {
            self.program.set_attr(op, name, attr);
            self.record_modified(op);
        }
    }

    fn record_modified(&mut self, op: OpId) {
        if let Some(l) = self.listener.as_deref_mut() {
            l.on_modify(self.program, op);
        }
        self.changes += 1;
        self.touched.push(op);
    }

    /// Replaces `op`'s attribute dictionary (recorded unless it is unchanged).
    pub fn set_attrs(&mut self, op: OpId, attrs: AttrDict) {
        if self.program.attrs(op) != attrs {
            self.program.set_attrs(op, attrs);
            self.record_modified(op);
        }
    }

    /// Creates an op and inserts it before `anchor`; returns it. Absent
    /// optional operands are `None`.
    pub fn create_op_before(
        &mut self,
        anchor: OpId,
        name: Symbol,
        operands: &[Option<ValueId>],
        result_types: &[Type],
        attrs: AttrDict,
    ) -> OpId {
        self.create_op_at(
            InsertPoint::Before(anchor),
            name,
            operands,
            result_types,
            attrs,
        )
    }

    /// Creates an op and inserts it at `point`; returns it.
    pub fn create_op_at(
        &mut self,
        point: InsertPoint,
        name: Symbol,
        operands: &[Option<ValueId>],
        result_types: &[Type],
        attrs: AttrDict,
    ) -> OpId {
        let op = self
            .program
            .create_op(name, operands, result_types, attrs, 0);
        self.insert_at(point, op);
        op
    }

    /// Inserts a detached op (made with [`Program::create_op`]) before `anchor`.
    pub fn insert_before(&mut self, anchor: OpId, op: OpId) {
        self.insert_at(InsertPoint::Before(anchor), op);
    }

    /// Inserts a detached op at `point`.
    pub fn insert_at(&mut self, point: InsertPoint, op: OpId) {
        Builder::new(self.program, point).insert(op);
        self.record_inserted(op);
    }

    /// Builds ops at `point` with `f` (typed views' `build`, `Builder::op`,
    /// setting the new ops' attributes); every op it creates and inserts is
    /// recorded, in the order created. Returns what `f` returns.
    pub fn build<R>(&mut self, point: InsertPoint, f: impl FnOnce(&mut Builder<'_>) -> R) -> R {
        let first = self.program.op_slots();
        let r = f(&mut Builder::new(self.program, point));
        for index in first..self.program.op_slots() {
            let op = OpId::new(index);
            if !self.program.is_erased(op) && self.program.op_parent_block(op).is_some() {
                self.record_inserted(op);
            }
        }
        r
    }

    fn record_inserted(&mut self, op: OpId) {
        if let Some(l) = self.listener.as_deref_mut() {
            l.on_insert(self.program, op);
        }
        self.changes += 1;
        self.created += 1;
        self.touched.push(op);
    }

    /// Replaces `op` by a new op `name` reading `operands`, with `attrs` and
    /// `op`'s result types, inserted in its place. Returns the new op, or
    /// `None` (nothing changed) if `op`'s results cannot all be replaced.
    pub fn replace_op_with_new(
        &mut self,
        op: OpId,
        name: Symbol,
        operands: &[Option<ValueId>],
        attrs: AttrDict,
    ) -> Option<OpId> {
        let types: Vec<Type> = self
            .program
            .results(op)
            .map(|r| self.program.value_type(r))
            .collect();
        let new = self.create_op_before(op, name, operands, &types, attrs);
        let values: Vec<ValueId> = self.program.results(new).collect();
        self.replace_op(op, &values).then_some(new)
    }

    fn touch_users(&mut self, v: ValueId) {
        let users: Vec<OpId> = self
            .program
            .uses(v)
            .map(|u| self.program.operand_owner(u))
            .collect();
        self.touched.extend(users);
    }

    /// Replaces every use of `from` with `to`.
    pub fn replace_all_uses(&mut self, from: ValueId, to: ValueId) {
        if from == to || self.program.use_empty(from) {
            return;
        }
        self.touch_users(from);
        if let Some(l) = self.listener.as_deref_mut() {
            l.on_replace(self.program, from, to);
        }
        self.program.replace_all_uses_with(from, to);
        self.changes += 1;
    }

    /// Replaces the results of `op` by `values` and erases `op`.
    pub fn replace_op(&mut self, op: OpId, values: &[ValueId]) -> bool {
        let results: Vec<ValueId> = self.program.results(op).collect();
        if results.len() != values.len() {
            return false;
        }
        for (&r, &v) in results.iter().zip(values) {
            self.replace_all_uses(r, v);
        }
        self.erase_op(op)
    }

    /// Erases `op` (its results must be unused); the defining ops of its
    /// operands are revisited.
    pub fn erase_op(&mut self, op: OpId) -> bool {
        let defs: Vec<OpId> = self
            .program
            .operands(op)
            .flatten()
            .filter_map(|v| self.program.defining_op(v))
            .collect();
        if self.program.results(op).any(|r| !self.program.use_empty(r)) {
            return false;
        }
        if let Some(l) = self.listener.as_deref_mut() {
            l.on_erase(self.program, op);
        }
        if self.program.erase_op(op).is_err() {
            return false;
        }
        self.touched.extend(defs);
        self.changes += 1;
        true
    }
}
