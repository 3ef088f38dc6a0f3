//! Editing a program: use lists (set operands, replace uses) and op
//! placement (insert, move, detach, erase). Every edit keeps the intrusive
//! lists consistent in O(1) per link, O(uses) for a value's uses.

use super::*;

impl Program {
    // -------------------------------------------------------------- use lists

    pub(super) fn link_use(&mut self, operand: OperandId, v: ValueId) {
        let head = self.values[v].first_use;
        let o = &mut self.operands[operand];
        o.value = Some(v);
        o.prev_use = None;
        o.next_use = head;
        if let Some(h) = head {
            self.operands[h].prev_use = Some(operand);
        }
        self.values[v].first_use = Some(operand);
    }

    /// Appends operands of `op` holding `values` (each linked into its
    /// value's uses), giving the index of the first.
    #[inline]
    pub(super) fn push_operands(&mut self, op: OpId, values: &[Option<ValueId>]) -> u32 {
        let first = self.operands.len() as u32;
        for &value in values {
            let id = self.operands.push(OperandData {
                value: None,
                owner: op,
                prev_use: None,
                next_use: None,
            });
            if let Some(v) = value {
                self.link_use(id, v);
            }
        }
        first
    }

    pub(super) fn unlink_use(&mut self, operand: OperandId) {
        let OperandData {
            value,
            prev_use,
            next_use,
            ..
        } = self.operands[operand].clone();
        let Some(v) = value else { return };
        match prev_use {
            Some(p) => self.operands[p].next_use = next_use,
            None => self.values[v].first_use = next_use,
        }
        if let Some(n) = next_use {
            self.operands[n].prev_use = prev_use;
        }
        let o = &mut self.operands[operand];
        o.value = None;
        o.prev_use = None;
        o.next_use = None;
    }

    /// Sets the value in an operand slot (`None` makes it absent).
    pub fn set_operand_value(&mut self, operand: OperandId, value: Option<ValueId>) {
        self.unlink_use(operand);
        if let Some(v) = value {
            self.link_use(operand, v);
        }
    }

    /// Sets operand `index` of an op.
    pub fn set_operand(
        &mut self,
        op: OpId,
        index: usize,
        value: Option<ValueId>,
    ) -> Result<(), EditError> {
        let d = &self.ops[op];
        if index >= d.num_operands as usize {
            return Err(EditError::OutOfRange {
                what: "operand",
                index,
                len: d.num_operands as usize,
            });
        }
        self.set_operand_value(OperandId::new(d.first_operand as usize + index), value);
        Ok(())
    }

    /// Replaces all operands of an op (their number may change).
    pub fn set_operands(&mut self, op: OpId, values: &[Option<ValueId>]) {
        let old: Vec<OperandId> = self.operand_ids(op).collect();
        if old.len() == values.len() {
            for (o, &v) in old.into_iter().zip(values) {
                self.set_operand_value(o, v);
            }
            return;
        }
        for o in old {
            self.unlink_use(o);
        }
        let first = self.push_operands(op, values);
        let d = &mut self.ops[op];
        d.first_operand = first;
        d.num_operands = values.len() as u32;
    }

    /// Makes every use of `from` a use of `to`. O(uses of `from`).
    pub fn replace_all_uses_with(&mut self, from: ValueId, to: ValueId) {
        if from == to {
            return;
        }
        while let Some(operand) = self.values[from].first_use {
            self.unlink_use(operand);
            self.link_use(operand, to);
        }
    }

    /// Replaces the uses of `from` for which `pred` holds.
    pub fn replace_uses_if(
        &mut self,
        from: ValueId,
        to: ValueId,
        mut pred: impl FnMut(&Program, OperandId) -> bool,
    ) {
        let uses: Vec<OperandId> = self.uses(from).collect();
        for operand in uses {
            if pred(self, operand) {
                self.set_operand_value(operand, Some(to));
            }
        }
    }

    /// Replaces each result of `op` by the matching value, then erases `op`.
    pub fn replace_op(&mut self, op: OpId, new_values: &[ValueId]) -> Result<(), EditError> {
        let results: Vec<ValueId> = self.results(op).collect();
        if results.len() != new_values.len() {
            return Err(EditError::OutOfRange {
                what: "replacement value",
                index: new_values.len(),
                len: results.len(),
            });
        }
        for (r, &n) in results.into_iter().zip(new_values) {
            self.replace_all_uses_with(r, n);
        }
        self.erase_op(op)
    }

    // ----------------------------------------------------------- op placement

    /// Inserts a detached op at `at`.
    // Readers place every op they make: inlined, the placing costs a
    // load of a model's JSON no call per op.
    #[inline]
    pub fn insert_op(&mut self, op: OpId, at: InsertPoint) {
        assert!(
            self.ops[op].parent.is_none(),
            "{op:?} is already in a block; detach or move it"
        );
        self.link_detached_op(op, at);
    }

    /// Creates an op as [`Program::create_op`] does and inserts it at `at`.
    ///
    /// # Panics
    /// As [`Program::create_op`].
    // A translator making every op in place calls it once per op: one call
    // with the linking inlined costs less than two (and the new op needs
    // no check that it is detached).
    #[inline]
    pub fn create_op_at(
        &mut self,
        at: InsertPoint,
        name: Symbol,
        operands: &[Option<ValueId>],
        result_types: &[Type],
        attrs: AttrDict,
        num_regions: usize,
    ) -> OpId {
        let op = self.create_op(name, operands, result_types, attrs, num_regions);
        self.link_detached_op(op, at);
        op
    }

    /// Links a detached op into the block of `at`, there.
    #[inline]
    fn link_detached_op(&mut self, op: OpId, at: InsertPoint) {
        let (block, prev, next) = match at {
            InsertPoint::BlockStart(b) => (b, None, self.blocks[b].first_op),
            InsertPoint::BlockEnd(b) => (b, self.blocks[b].last_op, None),
            InsertPoint::Before(o) => (
                self.ops[o]
                    .parent
                    .expect("insertion point op is not in a block"),
                self.ops[o].prev,
                Some(o),
            ),
            InsertPoint::After(o) => (
                self.ops[o]
                    .parent
                    .expect("insertion point op is not in a block"),
                Some(o),
                self.ops[o].next,
            ),
        };
        let d = &mut self.ops[op];
        d.parent = Some(block);
        d.prev = prev;
        d.next = next;
        match prev {
            Some(p) => self.ops[p].next = Some(op),
            None => self.blocks[block].first_op = Some(op),
        }
        match next {
            Some(n) => self.ops[n].prev = Some(op),
            None => self.blocks[block].last_op = Some(op),
        }
    }

    /// Appends a detached op to a block.
    #[inline]
    pub fn append_op(&mut self, block: BlockId, op: OpId) {
        self.insert_op(op, InsertPoint::BlockEnd(block));
    }

    /// Unlinks an op from its block (it keeps its operands, results and regions).
    pub fn detach_op(&mut self, op: OpId) {
        let OpData {
            parent, prev, next, ..
        } = self.ops[op].clone();
        let Some(block) = parent else { return };
        match prev {
            Some(p) => self.ops[p].next = next,
            None => self.blocks[block].first_op = next,
        }
        match next {
            Some(n) => self.ops[n].prev = prev,
            None => self.blocks[block].last_op = prev,
        }
        let d = &mut self.ops[op];
        d.parent = None;
        d.prev = None;
        d.next = None;
    }

    /// Moves an op to `at` (O(1)).
    pub fn move_op(&mut self, op: OpId, at: InsertPoint) {
        if at == InsertPoint::Before(op) || at == InsertPoint::After(op) {
            return;
        }
        self.detach_op(op);
        self.insert_op(op, at);
    }

    /// Moves every block of region `from` to the end of region `to` (MLIR's
    /// `takeBody` when `to` is empty), for rebuilding an op with other
    /// operands or results around the same body. Ops and values keep their
    /// ids, so every use stays a use; the caller makes sure `to`'s op sees
    /// what `from`'s did. Moving them into a region nested in them (which
    /// would make the blocks contain themselves) is refused.
    pub fn move_region_blocks(&mut self, from: RegionId, to: RegionId) -> Result<(), EditError> {
        if from == to {
            return Ok(());
        }
        let mut region = Some(to);
        while let Some(r) = region {
            if r == from {
                return Err(EditError::RegionInsideItself { from, to });
            }
            region = self
                .region_parent_op(r)
                .and_then(|op| self.op_parent_block(op))
                .and_then(|block| self.block_parent_region(block));
        }
        let blocks = std::mem::take(&mut self.regions[from].blocks);
        for &block in &blocks {
            self.blocks[block].parent = Some(to);
        }
        self.regions[to].blocks.extend(blocks);
        Ok(())
    }

    /// Erases an op and everything in its regions. Its results must be unused.
    pub fn erase_op(&mut self, op: OpId) -> Result<(), EditError> {
        if self.is_erased(op) {
            return Err(EditError::Erased(op));
        }
        for (index, r) in self.results(op).enumerate() {
            let uses = self.use_count(r);
            if uses > 0 {
                return Err(EditError::ResultInUse {
                    op,
                    name: self.op_name_str(op).to_owned(),
                    index: index as u32,
                    uses,
                });
            }
        }
        self.detach_op(op);
        // Drop every use made inside the op first, so nested values become unused.
        let mut nested = Vec::new();
        self.collect_nested(op, &mut nested);
        for &o in &nested {
            let ids: Vec<OperandId> = self.operand_ids(o).collect();
            for id in ids {
                self.unlink_use(id);
            }
        }
        for &o in &nested {
            for r in self.results(o).collect::<Vec<_>>() {
                // Only reachable for invalid IR (a nested value used outside): make such uses absent.
                while let Some(u) = self.values[r].first_use {
                    self.unlink_use(u);
                }
                self.values[r].kind_index = DEF_DEAD << 30;
            }
            self.ops[o].flags |= OP_ERASED;
        }
        Ok(())
    }

    /// `op` followed by every op nested in its regions (pre-order).
    fn collect_nested(&self, op: OpId, out: &mut Vec<OpId>) {
        out.push(op);
        for r in self.regions(op) {
            for &b in &self.regions[r].blocks {
                for o in self.block_ops(b) {
                    self.collect_nested(o, out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ops made in place at every kind of insertion point, and the same ops
    /// made detached and inserted: the same block order, links and uses.
    #[test]
    fn an_op_made_in_place_is_where_an_inserted_one_would_be() {
        let ctx = Arc::new(IrContext::new());
        let ty = ctx.intern_type(crate::builtin::ScalarType::F32);
        let name = ctx.symbol("test.op");
        let build = |in_place: bool| {
            let mut p = Program::new(ctx.clone());
            let top = p.top_block();
            let make = |p: &mut Program, at: InsertPoint, operands: &[Option<ValueId>]| {
                if in_place {
                    p.create_op_at(at, name, operands, &[ty], AttrDict::EMPTY, 0)
                } else {
                    let op = p.create_op(name, operands, &[ty], AttrDict::EMPTY, 0);
                    p.insert_op(op, at);
                    op
                }
            };
            let a = make(&mut p, InsertPoint::BlockEnd(top), &[]);
            let v = p.result(a, 0);
            let b = make(&mut p, InsertPoint::BlockStart(top), &[Some(v)]);
            let c = make(&mut p, InsertPoint::After(b), &[Some(v), None]);
            let d = make(&mut p, InsertPoint::Before(b), &[]);
            let e = make(&mut p, InsertPoint::BlockEnd(top), &[Some(v)]);
            let order: Vec<OpId> = p.block_ops(top).collect();
            assert_eq!(order, [d, b, c, a, e]);
            for op in [a, b, c, d, e] {
                assert_eq!(p.op_parent_block(op), Some(top));
            }
            (
                order,
                p.use_count(v),
                p.uses(v).map(|u| p.operand_owner(u)).collect::<Vec<_>>(),
            )
        };
        assert_eq!(build(true), build(false));
    }
}
