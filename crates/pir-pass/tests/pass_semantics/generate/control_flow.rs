//! Actions of the generator that nest blocks: `if` and `while`.

use super::*;

impl Gen {
    /// Generates a region's block: ops, then a `cf.yield` of `yields`
    /// values of the given kinds. Returns the yielded values.
    pub(super) fn region_block(
        &mut self,
        block: BlockId,
        ops: usize,
        kinds: &[Kind],
    ) -> Vec<ValueId> {
        let (pool, recent) = (self.pool.len(), self.recent.len());
        self.depth += 1;
        self.gen_block(block, ops);
        let mut yields = Vec::new();
        for &kind in kinds {
            let v = match self.pick(|k| k == kind) {
                Some(x) if self.chance(4) => {
                    // A copy in the branch, yielded.
                    let t = self.ty(kind);
                    let op = AssignOp::build(&mut self.b(block), x.v, &[t]).0;
                    self.keep(op, kind).unwrap()
                }
                Some(x) => x.v,
                None => self.full(block, kind, 0.5),
            };
            yields.push(v);
        }
        self.depth -= 1;
        self.pool.truncate(pool);
        self.recent.truncate(recent);
        yields
    }

    pub(super) fn if_op(&mut self, block: BlockId) -> bool {
        let cond = match self.pick(|k| k == Kind::B) {
            Some(c) if self.chance(2) => c.v,
            _ => match self.compare(block) {
                Some(c) => c,
                None => return false,
            },
        };
        let n = self.rng.below(3);
        let mut kinds = Vec::new();
        for _ in 0..n {
            if let Some(x) = self.pick(Kind::float) {
                kinds.push(x.kind);
            }
        }
        let types: Vec<Type> = kinds.iter().map(|&k| self.ty(k)).collect();
        let sym = self.ctx.symbol("pd_op.if");
        let op = self.b(block).create(sym, &[Some(cond)], &types, &[], 2);
        let mut branches = Vec::new();
        for r in 0..2 {
            let region = self.p.op_region(op, r);
            let body = self.p.add_block(region);
            let ops = 1 + self.rng.below(5);
            let yields = self.region_block(body, ops, &kinds);
            self.b(body).op("cf.yield", &yields, &[], &[]);
            branches.push(yields);
        }
        for (i, &kind) in kinds.iter().enumerate() {
            let r = self.p.result(op, i);
            let (a, b) = (self.group(branches[0][i]), self.group(branches[1][i]));
            let g = self.union(a, b);
            self.group_of.insert(r, g);
            self.kind_of.insert(r, kind);
            self.push(r);
        }
        true
    }

    pub(super) fn while_op(&mut self, block: BlockId) -> bool {
        // The counter: a fresh zero, or a counter of an earlier loop.
        let i0 = match self.pick(|k| k == Kind::I) {
            Some(i) if self.chance(4) => i.v,
            _ => self.full(block, Kind::I, 0.0),
        };
        let n = self.rng.below(4) as f64;
        let limit = self.full(block, Kind::I, n);
        // The condition, computed twice the same way: one twin goes to the
        // loop, the other is used after it.
        let c1 = self.emit(block, "pd_op.less_than", &[i0, limit], Kind::B);
        let c2 = self.emit(block, "pd_op.less_than", &[i0, limit], Kind::B);
        let (c1, c2) = (self.p.result(c1, 0), self.p.result(c2, 0));
        self.track(c1, Kind::B, 1.0);
        self.track(c2, Kind::B, 1.0);
        let (cond, twin) = if self.chance(2) { (c1, c2) } else { (c2, c1) };
        // Carried values, some of them copies.
        let mut inputs = Vec::new();
        for _ in 0..1 + self.rng.below(2) {
            let Some(x) = (match inputs.last() {
                Some(&prev) if self.chance(6) => Some(prev),
                _ => self.pick(Kind::float),
            }) else {
                break;
            };
            let x = if self.chance(3) {
                let t = self.ty(x.kind);
                let op = AssignOp::build(&mut self.b(block), x.v, &[t]).0;
                let v = self.keep(op, x.kind).unwrap();
                Val { v, kind: x.kind }
            } else {
                x
            };
            let g = self.group(x.v);
            self.bound[g] = self.bound[g].max(1.0);
            inputs.push(x);
        }
        inputs.push(Val {
            v: i0,
            kind: Kind::I,
        });
        let operands: Vec<Option<ValueId>> = std::iter::once(Some(cond))
            .chain(inputs.iter().map(|x| Some(x.v)))
            .collect();
        let types: Vec<Type> = inputs.iter().map(|x| self.ty(x.kind)).collect();
        let sym = self.ctx.symbol("pd_op.while");
        let op = self.b(block).create(sym, &operands, &types, &[], 1);
        let region = self.p.op_region(op, 0);
        let body = self.p.add_block(region);

        let (pool, recent, in_loop) = (self.pool.len(), self.recent.len(), self.in_loop);
        self.in_loop = true;
        self.depth += 1;
        let mut args = Vec::new();
        for x in &inputs {
            let arg = self.p.add_block_arg(body, self.ty(x.kind));
            self.track_alias(arg, x.kind, x.v);
            self.push(arg);
            args.push(arg);
        }
        // An op that reads only a value from before the loop: invariant
        // unless some op writes that value's buffer.
        if self.chance(2) {
            let outer: Vec<Val> = self.pool[..pool]
                .iter()
                .copied()
                .filter(|v| v.kind.float())
                .collect();
            if !outer.is_empty() {
                let x = outer[self.rng.below(outer.len())];
                let name = self.choose(&["pd_op.exp", "pd_op.tanh", "pd_op.abs"]);
                let op = self.emit(body, name, &[x.v], x.kind);
                self.keep(op, x.kind);
            }
        }
        let ops = 1 + self.rng.below(6);
        self.gen_block(body, ops);
        // Advance the counter: out of place, or in place on the argument.
        let counter = *args.last().unwrap();
        let t = self.ty(Kind::I);
        let next = if self.chance(2) {
            let one = self.full(body, Kind::S, 1.0);
            let op = ScaleOp::build(&mut self.b(body), counter, one, 1.0, true, &[t]).0;
            let r = self.p.result(op, 0);
            self.track(r, Kind::I, 10.0);
            r
        } else {
            let op = IncrementInplaceOp::build(&mut self.b(body), counter, 1.0, &[t]).0;
            let r = self.p.result(op, 0);
            self.track_alias(r, Kind::I, counter);
            r
        };
        let next_cond = self.emit(body, "pd_op.less_than", &[next, limit], Kind::B);
        let next_cond = self.p.result(next_cond, 0);
        self.track(next_cond, Kind::B, 1.0);
        // Legacy style: the next condition copied into the condition operand.
        let next_cond = if self.chance(3) {
            let t = self.ty(Kind::B);
            let op = AssignOutInplaceOp::build(&mut self.b(body), next_cond, cond, &[t]).0;
            let r = self.p.result(op, 0);
            self.track_alias(r, Kind::B, cond);
            r
        } else {
            next_cond
        };
        let mut yields = vec![next_cond];
        for (x, &arg) in inputs.iter().zip(&args).take(inputs.len() - 1) {
            let mut y = match self.pick(|k| k == x.kind) {
                Some(y) if self.chance(3) => y.v,
                _ => arg,
            };
            // Keep the loop from growing its values.
            if self.bound_of(y) > self.bound_of(arg) {
                let t = self.ty(x.kind);
                let op = self.b(body).op("pd_op.tanh", &[y], &[t], &[]);
                y = self.p.result(op, 0);
                self.track(y, x.kind, 1.0);
            }
            // As Paddle's translator writes a legacy loop: the next value
            // copied into the argument, and the copy yielded.
            if y != arg && self.chance(3) {
                let t = self.ty(x.kind);
                let op = AssignOutInplaceOp::build(&mut self.b(body), y, arg, &[t]).0;
                let g = self.group(arg);
                let bound = self.bound_of(y);
                self.bound[g] = self.bound[g].max(bound);
                y = self.p.result(op, 0);
                self.track_alias(y, x.kind, arg);
            }
            yields.push(y);
        }
        yields.push(next);
        self.b(body).op("cf.yield", &yields, &[], &[]);
        self.depth -= 1;
        self.in_loop = in_loop;
        self.pool.truncate(pool);
        self.recent.truncate(recent);

        for (i, x) in inputs.iter().enumerate() {
            let r = self.p.result(op, i);
            let (a, b) = (self.group(x.v), self.group(yields[i + 1]));
            let g = self.union(a, b);
            self.group_of.insert(r, g);
            self.kind_of.insert(r, x.kind);
            self.push(r);
        }
        // The twin after the loop, and sometimes the (rebound) condition.
        self.push(twin);
        if self.chance(2) {
            self.push(cond);
        }
        if self.depth == 0 && self.chance(2) {
            self.output(
                block,
                Val {
                    v: twin,
                    kind: Kind::B,
                },
            );
        }
        true
    }
}
