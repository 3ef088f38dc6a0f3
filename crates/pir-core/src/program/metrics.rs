//! What a program holds: its size in ops and bytes, and its parameters.

use super::{BlockId, Parameter, Program, ValueId, OP_ERASED};
use crate::context::Symbol;

impl Program {
    /// Number of op slots ever allocated (erased ops included): every
    /// [`OpId`](super::OpId)'s index is below it, and an op created later
    /// has an index at or above it.
    pub fn op_slots(&self) -> usize {
        self.ops.len()
    }

    /// Number of value slots ever allocated (erased values included): every
    /// [`ValueId`]'s index is below it, so analyses can keep dense tables.
    pub fn value_slots(&self) -> usize {
        self.values.len()
    }

    /// Number of live operations, the module op excluded.
    pub fn num_ops(&self) -> usize {
        self.ops
            .iter()
            .filter(|(_, d)| d.flags & OP_ERASED == 0)
            .count()
            .saturating_sub(1)
    }

    /// Heap bytes held by the program's arenas (capacity, not just length).
    pub fn heap_bytes(&self) -> usize {
        let block_vecs: usize = self
            .blocks
            .iter()
            .map(|(_, b)| {
                b.args.capacity() * std::mem::size_of::<ValueId>()
                    + b.kwargs.capacity() * std::mem::size_of::<(Symbol, ValueId)>()
            })
            .sum();
        let region_vecs: usize = self
            .regions
            .iter()
            .map(|(_, r)| r.blocks.capacity() * std::mem::size_of::<BlockId>())
            .sum();
        self.ops.capacity_bytes()
            + self.values.capacity_bytes()
            + self.operands.capacity_bytes()
            + self.blocks.capacity_bytes()
            + self.regions.capacity_bytes()
            + block_vecs
            + region_vecs
    }

    /// Releases spare arena capacity. The readers do not call it: room a
    /// program never filled was never written, so it takes address space
    /// but no memory, while shrinking copies an arena under allocators that
    /// do not shrink in place (mimalloc), holding both copies meanwhile (a
    /// 1M-op program peaked 10 MB higher).
    pub fn shrink_to_fit(&mut self) {
        self.ops.shrink_to_fit();
        self.values.shrink_to_fit();
        self.operands.shrink_to_fit();
        self.blocks.shrink_to_fit();
        self.regions.shrink_to_fit();
    }

    // ------------------------------------------------------------ parameters

    /// Sets the parameter `name` (replacing an existing one in place).
    pub fn set_parameter(&mut self, name: &str, param: Parameter) {
        match self.parameters.get_mut(name) {
            Some(entry) => *entry = param,
            None => {
                self.parameters.insert(name.to_owned(), param);
            }
        }
    }

    /// The parameter `name`.
    pub fn parameter(&self, name: &str) -> Option<&Parameter> {
        self.parameters.get(name)
    }

    /// All parameters in insertion order.
    pub fn parameters(&self) -> impl Iterator<Item = (&str, &Parameter)> + '_ {
        self.parameters.iter().map(|(n, p)| (n.as_str(), p))
    }

    /// Removes a parameter (the others keep their order).
    pub fn remove_parameter(&mut self, name: &str) -> Option<Parameter> {
        self.parameters.shift_remove(name)
    }
}
