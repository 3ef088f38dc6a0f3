//! Op registrations: made at once ([`IrContext::register_op`]) or deferred
//! to a source ([`OpSource`]) that builds each when first looked up. A
//! symbol's entry holds the state of the op it names.

use std::sync::atomic::Ordering;

use super::{IrContext, Symbol};
use crate::op_info::OpInfo;

/// A symbol's op state when it names no op.
pub(super) const NO_OP: u32 = u32::MAX;

/// Marks a deferred registration: bits 16..31 are the source (below
/// `MAX_SOURCES`), bits 0..16 the op's number in it.
const DEFERRED: u32 = 1 << 31;

/// On a deferred registration: its source knows the op has no custom
/// printer (see [`OpSource::prints_generic`]), so a print builds none.
const PRINTS_GENERIC: u32 = 1 << 30;

/// Sources a context can hold (`NO_OP` must stay out of the deferred range).
const MAX_SOURCES: usize = 0x3FFF;

/// The state of a deferred registration: op `index` of source `id`.
fn deferred_state(id: usize, source: &dyn OpSource, index: u16) -> u32 {
    let generic = if source.prints_generic(index) {
        PRINTS_GENERIC
    } else {
        0
    };
    DEFERRED | generic | (id as u32) << 16 | u32::from(index)
}

/// The source number of a deferred registration's state.
fn source_of(state: u32) -> usize {
    (state >> 16) as usize & MAX_SOURCES
}

/// Registrations a dialect makes only when an op is first looked up (see
/// [`IrContext::defer_ops`]): a dialect of many ops pays nothing at context
/// creation, a lookup by name ([`OpSource::find`]) for each new symbol, and
/// for building each `OpInfo` when a program uses it.
pub trait OpSource: Send + Sync {
    /// The registration of this source's op number `index`, one that
    /// [`OpSource::find`] or [`OpSource::ops`] gave.
    fn op_info(&self, ctx: &IrContext, index: u16) -> OpInfo;

    /// The number and static name of this source's op named `name`, if it
    /// has one: asked when a symbol is first interned, so a name that
    /// cannot be one of the source's should be refused quickly. The symbol
    /// keeps the static name instead of a copy.
    fn find(&self, name: &str) -> Option<(u16, &'static str)>;

    /// How many ops the source has, about: the table of symbols makes room
    /// for their names when the source is deferred, instead of growing
    /// step by step as a program (or an analysis of every op) names them.
    fn op_count(&self) -> usize {
        self.ops().len()
    }

    /// Every op of the source: its number and name.
    fn ops(&self) -> Vec<(u16, &'static str)>;

    /// True when op number `index` is known to print in the generic form
    /// (its registration has no [`OpInfo::print`]) without building the
    /// registration: a print then builds none for most ops. False: the
    /// registration is built to see.
    fn prints_generic(&self, _index: u16) -> bool {
        false
    }
}

impl IrContext {
    /// Registers an operation. A second registration of the same name replaces the first.
    pub fn register_op(&self, info: OpInfo) {
        let name = self.symbol(&info.name);
        let index = self.op_infos.push(info);
        let index = u32::try_from(index)
            .ok()
            .filter(|&i| i < DEFERRED)
            .expect("too many registered ops");
        self.symbols.get(name.0).op.store(index, Ordering::Release);
    }

    /// Registers the ops of `source`, each built when first looked up. Like
    /// [`register_op`](Self::register_op), a later registration of a name
    /// replaces an earlier one. Lookups see no difference: [`op_info`](Self::op_info)
    /// builds a deferred op on its first call. Names are not interned here:
    /// a symbol asks the sources whether it names one of their ops when it
    /// is first interned, those interned before are asked now.
    pub fn defer_ops(&self, source: Box<dyn OpSource>) {
        let id = self.op_sources.push(source);
        assert!(id < MAX_SOURCES, "too many op sources");
        let Some(source) = self.op_sources.get(id) else {
            return;
        };
        self.symbols
            .reserve_total(self.symbols.len().saturating_add(source.op_count()));
        for i in 0..self.symbols.len() {
            let entry = self.symbols.get(i as u32);
            if let Some((index, _)) = source.find(&entry.text) {
                entry
                    .op
                    .store(deferred_state(id, &**source, index), Ordering::Release);
            }
        }
    }

    /// The deferred registration of the op named `name` (the last source's
    /// that has it) and the source's static name of it, or `NO_OP`.
    pub(super) fn deferred_op(&self, name: &str) -> (u32, Option<&'static str>) {
        let mut op = (NO_OP, None);
        for (id, source) in self.op_sources.iter() {
            if let Some((index, text)) = source.find(name) {
                op = (deferred_state(id, &**source, index), Some(text));
            }
        }
        op
    }

    /// The registration of the op named `name`, if any.
    #[inline]
    pub fn op_info(&self, name: Symbol) -> Option<&OpInfo> {
        match self.symbols.get(name.0).op.load(Ordering::Acquire) {
            NO_OP => None,
            index if index & DEFERRED != 0 => self.materialize(name),
            index => self.op_infos.get(index as usize),
        }
    }

    /// The custom printer of the op named `name`, if it has one. A deferred
    /// registration its source knows to have none (see
    /// [`OpSource::prints_generic`]) is not built.
    #[inline]
    pub fn op_printer(&self, name: Symbol) -> Option<crate::op_info::PrintFn> {
        self.op_printer_and_text(name).0
    }

    /// [`IrContext::op_printer`] and the name's text, from one look at the
    /// symbol's entry (a print wants both for every op).
    #[inline]
    pub(crate) fn op_printer_and_text(
        &self,
        name: Symbol,
    ) -> (Option<crate::op_info::PrintFn>, &str) {
        const GENERIC: u32 = DEFERRED | PRINTS_GENERIC;
        let entry = self.symbols.get(name.0);
        let state = entry.op.load(Ordering::Acquire);
        let info = match state {
            NO_OP => None,
            known_generic if known_generic & GENERIC == GENERIC => None,
            deferred if deferred & DEFERRED != 0 => self.materialize(name),
            // Registered at once: not looked up by name again.
            index => self.op_infos.get(index as usize),
        };
        (info.and_then(|info| info.print), &entry.text)
    }

    /// The registration of the op named `name` (a string), if any.
    pub fn op_info_named(&self, name: &str) -> Option<&OpInfo> {
        self.lookup_symbol(name).and_then(|s| self.op_info(s))
    }

    /// Builds the deferred registration of `name` (once, whichever thread
    /// asks first).
    #[cold]
    fn materialize(&self, name: Symbol) -> Option<&OpInfo> {
        let _building = self.materializing.lock();
        let entry = &self.symbols.get(name.0).op;
        let state = entry.load(Ordering::Acquire);
        match state {
            NO_OP => return None,
            // Built (or replaced) while this thread waited.
            built if built & DEFERRED == 0 => return self.op_infos.get(built as usize),
            _ => {}
        }
        let source = self.op_sources.get(source_of(state))?;
        let info = source.op_info(self, (state & 0xFFFF) as u16);
        let index = self.op_infos.push(info);
        entry.store(index as u32, Ordering::Release);
        self.op_infos.get(index)
    }

    /// All registered ops (deferred ones are built first).
    pub fn registered_ops(&self) -> impl Iterator<Item = &OpInfo> + '_ {
        for (_, source) in self.op_sources.iter() {
            for (_, name) in source.ops() {
                self.symbol_static(name);
            }
        }
        for i in 0..self.symbols.len() {
            self.op_info(Symbol(i as u32));
        }
        // A re-registered name leaves its old entry behind; report current ones only.
        self.op_infos
            .iter()
            .map(|(_, info)| info)
            .filter(move |info| {
                self.lookup_symbol(&info.name)
                    .and_then(|s| self.op_info(s))
                    .is_some_and(|cur| std::ptr::eq(cur, *info))
            })
    }
}
