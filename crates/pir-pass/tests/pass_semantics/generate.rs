//! The random program generator: programs full of duplicates, copies,
//! in-place writes, views and control flow.

use super::*;

// ---------------------------------------------------------------------------
// The random program generator
// ---------------------------------------------------------------------------

/// The value types programs use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    /// `[2,3]` f32.
    M,
    /// `[3,2]` f32.
    T,
    /// `[6]` f32.
    V,
    /// `[1]` f32.
    S,
    /// `[]` f32.
    Z,
    /// `[1]` i64 (loop counters).
    I,
    /// `[1]` bool.
    B,
}

impl Kind {
    fn dims(self) -> &'static [i64] {
        match self {
            Kind::M => &[2, 3],
            Kind::T => &[3, 2],
            Kind::V => &[6],
            Kind::S | Kind::I | Kind::B => &[1],
            Kind::Z => &[],
        }
    }
    fn float(self) -> bool {
        !matches!(self, Kind::I | Kind::B)
    }
    fn scalar(self) -> bool {
        matches!(self, Kind::S | Kind::Z)
    }
    fn dtype(self) -> DataType {
        match self {
            Kind::I => DataType::Int64,
            Kind::B => DataType::Bool,
            _ => DataType::Float32,
        }
    }
}

/// The result kind of an element-wise op on `a` and `b`.
pub(super) fn bcast(a: Kind, b: Kind) -> Option<Kind> {
    if !a.float() || !b.float() {
        return None;
    }
    if a == b {
        return Some(a);
    }
    match (a.scalar(), b.scalar()) {
        (false, true) => Some(a),
        (true, false) => Some(b),
        (true, true) => Some(Kind::S),
        (false, false) => None,
    }
}

/// Largest magnitude a buffer may reach: everything stays finite in f32.
pub(super) const LIMIT: f64 = 1.0e4;

#[derive(Clone, Copy, Debug)]
pub(super) struct Val {
    v: ValueId,
    kind: Kind,
}

pub(super) struct Gen {
    rng: Rng,
    p: Program,
    ctx: Arc<IrContext>,
    /// Values visible at the insertion point.
    pool: Vec<Val>,
    /// Out-of-place ops visible at the insertion point (for duplicates).
    recent: Vec<OpId>,
    kind_of: HashMap<ValueId, Kind>,
    /// Union-find over buffers that may be shared, with a magnitude bound per root.
    group_of: HashMap<ValueId, usize>,
    parent: Vec<usize>,
    bound: Vec<f64>,
    depth: usize,
    in_loop: bool,
    outputs: usize,
}

impl Gen {
    fn new(seed: u64) -> Self {
        let ctx = pir_dialects::pd_op_context();
        Gen {
            rng: Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1),
            p: Program::new(ctx.clone()),
            ctx,
            pool: Vec::new(),
            recent: Vec::new(),
            kind_of: HashMap::new(),
            group_of: HashMap::new(),
            parent: Vec::new(),
            bound: Vec::new(),
            depth: 0,
            in_loop: false,
            outputs: 0,
        }
    }

    fn chance(&mut self, n: usize) -> bool {
        self.rng.below(n) == 0
    }

    fn choose<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.rng.below(items.len())]
    }

    fn ty(&self, kind: Kind) -> Type {
        let scalar = match kind {
            Kind::I => ScalarType::I64,
            Kind::B => ScalarType::Bool,
            _ => ScalarType::F32,
        };
        DenseTensorType::get(&self.ctx, self.ctx.intern_type(scalar), kind.dims())
    }

    // --- buffers and bounds ---------------------------------------------

    fn find(&mut self, mut g: usize) -> usize {
        while self.parent[g] != g {
            self.parent[g] = self.parent[self.parent[g]];
            g = self.parent[g];
        }
        g
    }

    fn union(&mut self, a: usize, b: usize) -> usize {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[rb] = ra;
            self.bound[ra] = self.bound[ra].max(self.bound[rb]);
        }
        ra
    }

    fn group(&mut self, v: ValueId) -> usize {
        let g = self.group_of[&v];
        self.find(g)
    }

    fn bound_of(&mut self, v: ValueId) -> f64 {
        let g = self.group(v);
        self.bound[g]
    }

    /// Registers `v` with a buffer of its own.
    fn track(&mut self, v: ValueId, kind: Kind, bound: f64) {
        let g = self.parent.len();
        self.parent.push(g);
        self.bound.push(bound);
        self.group_of.insert(v, g);
        self.kind_of.insert(v, kind);
    }

    /// Registers `v` as sharing a buffer with `of`.
    fn track_alias(&mut self, v: ValueId, kind: Kind, of: ValueId) {
        let g = self.group(of);
        self.group_of.insert(v, g);
        self.kind_of.insert(v, kind);
    }

    fn push(&mut self, v: ValueId) {
        let kind = self.kind_of[&v];
        self.pool.push(Val { v, kind });
    }

    /// Magnitude bound of the result of `op` (in-place or not) given its
    /// operands' current bounds; infinite for ops not modelled.
    fn op_bound(&mut self, op: OpId) -> f64 {
        let name = self.p.op_name_str(op).to_owned();
        let base = name.strip_suffix('_').unwrap_or(&name);
        let operands: Vec<ValueId> = self.p.operands(op).flatten().collect();
        let b: Vec<f64> = operands.iter().map(|&v| self.bound_of(v)).collect();
        let bias = attr_num(&self.p, op, "bias").unwrap_or(0.0).abs();
        match base {
            "pd_op.relu" | "pd_op.abs" | "pd_op.assign" | "pd_op.cast" | "pd_op.transpose"
            | "pd_op.reshape" => b[0],
            "pd_op.exp" => b[0].exp(),
            "pd_op.tanh" | "pd_op.sin" => b[0].min(1.0),
            "pd_op.sigmoid" => 1.0,
            "pd_op.add" | "pd_op.subtract" => b[0] + b[1],
            "pd_op.multiply" => b[0] * b[1],
            "pd_op.maximum" | "pd_op.minimum" => b[0].max(b[1]),
            "pd_op.scale" => b[0] * b[1] + bias,
            "pd_op.sum" => b[0] * 6.0,
            "pd_op.assign_out" | "pd_op.add_n" => b[0],
            "pd_op.less_than" | "pd_op.greater_than" | "pd_op.equal" => 1.0,
            _ => f64::INFINITY,
        }
    }

    // --- building -------------------------------------------------------

    fn b(&mut self, block: BlockId) -> Builder<'_> {
        Builder::at_end(&mut self.p, block)
    }

    /// An op without attributes and with one result.
    fn emit(&mut self, block: BlockId, name: &str, operands: &[ValueId], kind: Kind) -> OpId {
        let t = self.ty(kind);
        self.b(block).op(name, operands, &[t], &[])
    }

    /// A `full` constant (tracked, not in the pool).
    fn full(&mut self, block: BlockId, kind: Kind, value: f64) -> ValueId {
        let t = self.ty(kind);
        let op = FullOp::build(
            &mut self.b(block),
            kind.dims(),
            value,
            kind.dtype(),
            Place::cpu(),
            &[t],
        );
        let r = self.p.result(op.0, 0);
        self.track(r, kind, value.abs());
        r
    }

    fn int_array(&mut self, block: BlockId, values: &[i64]) -> ValueId {
        let t = DenseTensorType::get(
            &self.ctx,
            self.ctx.intern_type(ScalarType::I64),
            &[values.len() as i64],
        );
        let op = FullIntArrayOp::build(
            &mut self.b(block),
            values,
            DataType::Int64,
            Place::cpu(),
            &[t],
        );
        let r = self.p.result(op.0, 0);
        self.track(r, Kind::I, 10.0);
        r
    }

    /// Keeps the out-of-place `op` (result of `kind`) if its bound allows,
    /// else erases it.
    fn keep(&mut self, op: OpId, kind: Kind) -> Option<ValueId> {
        let bound = self.op_bound(op);
        if bound > LIMIT {
            self.p.erase_op(op).unwrap();
            return None;
        }
        let r = self.p.result(op, 0);
        self.track(r, kind, bound);
        self.push(r);
        self.recent.push(op);
        Some(r)
    }

    /// A pool value of a kind accepted by `pred`, recent ones preferred.
    fn pick(&mut self, pred: impl Fn(Kind) -> bool) -> Option<Val> {
        let c: Vec<Val> = self.pool.iter().copied().filter(|v| pred(v.kind)).collect();
        if c.is_empty() {
            return None;
        }
        let i = if self.chance(2) {
            c.len() - 1 - self.rng.below(c.len().min(4))
        } else {
            self.rng.below(c.len())
        };
        Some(c[i])
    }

    // --- actions (each returns whether it built something) ---------------

    fn unary(&mut self, block: BlockId) -> bool {
        let Some(x) = self.pick(Kind::float) else {
            return false;
        };
        let name = self.choose(&[
            "pd_op.relu",
            "pd_op.abs",
            "pd_op.exp",
            "pd_op.tanh",
            "pd_op.sin",
            "pd_op.sigmoid",
        ]);
        let op = self.emit(block, name, &[x.v], x.kind);
        self.keep(op, x.kind).is_some()
    }

    fn binary(&mut self, block: BlockId) -> bool {
        let Some(x) = self.pick(Kind::float) else {
            return false;
        };
        let Some(y) = self.pick(|k| bcast(x.kind, k).is_some()) else {
            return false;
        };
        let kind = bcast(x.kind, y.kind).unwrap();
        let name = self.choose(&[
            "pd_op.add",
            "pd_op.subtract",
            "pd_op.multiply",
            "pd_op.maximum",
        ]);
        let op = self.emit(block, name, &[x.v, y.v], kind);
        self.keep(op, kind).is_some()
    }

    fn scale(&mut self, block: BlockId) -> bool {
        let Some(x) = self.pick(Kind::float) else {
            return false;
        };
        let bias = self.choose(&[0.0, 1.0, -0.5]);
        let s = match self.pick(|k| k == Kind::S) {
            Some(s) if self.chance(3) => s.v,
            _ => {
                let s = self.choose(&[0.5, 2.0, -1.0, 1.0]);
                self.full(block, Kind::S, s)
            }
        };
        let t = self.ty(x.kind);
        let op = ScaleOp::build(&mut self.b(block), x.v, s, bias as f32, true, &[t]).0;
        self.keep(op, x.kind).is_some()
    }

    /// A copy canonicalize would remove, sometimes followed by a write to
    /// the copy or to its source (then the copy is real).
    fn copy(&mut self, block: BlockId) -> bool {
        let Some(x) = self.pick(|_| true) else {
            return false;
        };
        let t = self.ty(x.kind);
        let op = match self.rng.below(4) {
            1 if x.kind.float() => {
                let one = self.full(block, Kind::S, 1.0);
                ScaleOp::build(&mut self.b(block), x.v, one, 0.0, true, &[t]).0
            }
            2 => CastOp::build(&mut self.b(block), x.v, x.kind.dtype(), &[t]).0,
            3 if matches!(x.kind, Kind::M | Kind::T) => {
                let other = if x.kind == Kind::M { Kind::T } else { Kind::M };
                let tt = self.ty(other);
                let t1 = TransposeOp::build(&mut self.b(block), x.v, &[1, 0], &[tt]).0;
                let mid = self.p.result(t1, 0);
                let b = self.bound_of(x.v);
                self.track(mid, other, b);
                TransposeOp::build(&mut self.b(block), mid, &[1, 0], &[t]).0
            }
            _ => AssignOp::build(&mut self.b(block), x.v, &[t]).0,
        };
        let Some(r) = self.keep(op, x.kind) else {
            return false;
        };
        match self.rng.below(3) {
            0 => {
                let v = Val { v: r, kind: x.kind };
                self.write(block, Some(v));
            }
            1 => {
                self.write(block, Some(x));
            }
            _ => {}
        }
        true
    }

    fn transpose(&mut self, block: BlockId) -> bool {
        let Some(x) = self.pick(|k| matches!(k, Kind::M | Kind::T)) else {
            return false;
        };
        let other = if x.kind == Kind::M { Kind::T } else { Kind::M };
        let t = self.ty(other);
        let op = TransposeOp::build(&mut self.b(block), x.v, &[1, 0], &[t]).0;
        self.keep(op, other).is_some()
    }

    fn sum(&mut self, block: BlockId) -> bool {
        let Some(x) = self.pick(|k| matches!(k, Kind::M | Kind::T | Kind::V)) else {
            return false;
        };
        let axes: &[i64] = match (self.chance(2), x.kind) {
            (true, _) => &[],
            (false, Kind::V) => &[0],
            (false, _) => &[0, 1],
        };
        let axis = self.int_array(block, axes);
        let t = self.ty(Kind::Z);
        let op = SumOp::build(
            &mut self.b(block),
            x.v,
            axis,
            DataType::Float32,
            false,
            &[t],
        )
        .0;
        self.keep(op, Kind::Z).is_some()
    }

    /// A bool from comparing two scalars.
    fn compare(&mut self, block: BlockId) -> Option<ValueId> {
        let x = self.pick(Kind::scalar)?;
        let y = match self.pick(|k| k == Kind::S) {
            Some(y) if self.chance(2) => y.v,
            _ => {
                let c = self.choose(&[-1.0, 0.0, 0.5, 1.5]);
                self.full(block, Kind::S, c)
            }
        };
        let name = self.choose(&["pd_op.less_than", "pd_op.greater_than", "pd_op.equal"]);
        let op = self.emit(block, name, &[x.v, y], Kind::B);
        self.keep(op, Kind::B)
    }

    fn cast_bool(&mut self, block: BlockId) -> bool {
        let Some(x) = self.pick(|k| k == Kind::B) else {
            return false;
        };
        let t = self.ty(Kind::S);
        let op = CastOp::build(&mut self.b(block), x.v, DataType::Float32, &[t]).0;
        self.keep(op, Kind::S).is_some()
    }

    fn constant(&mut self, block: BlockId) -> bool {
        let kind = self.choose(&[Kind::M, Kind::S, Kind::S, Kind::Z]);
        let value = self.choose(&[0.0, 1.0, -1.5, 0.25]);
        let v = self.full(block, kind, value);
        self.push(v);
        true
    }

    /// An in-place write of `target` (or of a pool value). Inside a loop
    /// body only writes that cannot grow the buffer are kept.
    fn write(&mut self, block: BlockId, target: Option<Val>) -> bool {
        let Some(x) = target.or_else(|| self.pick(|_| true)) else {
            return false;
        };
        if x.kind == Kind::I {
            let t = self.ty(Kind::I);
            let op = IncrementInplaceOp::build(&mut self.b(block), x.v, 1.0, &[t]).0;
            let r = self.p.result(op, 0);
            self.track_alias(r, Kind::I, x.v);
            self.push(r);
            return true;
        }
        if x.kind == Kind::B {
            let op = self.emit(block, "pd_op.logical_not_", &[x.v], Kind::B);
            let r = self.p.result(op, 0);
            self.track_alias(r, Kind::B, x.v);
            self.push(r);
            return true;
        }
        let t = self.ty(x.kind);
        let op = match self.rng.below(12) {
            0..=5 => {
                let name = self.choose(&[
                    "pd_op.relu_",
                    "pd_op.abs_",
                    "pd_op.tanh_",
                    "pd_op.sin_",
                    "pd_op.sigmoid_",
                    "pd_op.exp_",
                ]);
                self.emit(block, name, &[x.v], x.kind)
            }
            6 | 7 => {
                let s = self.choose(&[0.5, -1.0, 2.0]);
                let bias = self.choose(&[0.0, 0.0, 1.0]);
                let s = self.full(block, Kind::S, s);
                ScaleInplaceOp::build(&mut self.b(block), x.v, s, bias as f32, true, &[t]).0
            }
            8 => {
                let Some(y) = self.pick(|k| k == x.kind) else {
                    return false;
                };
                AssignOutInplaceOp::build(&mut self.b(block), y.v, x.v, &[t]).0
            }
            _ => {
                let Some(y) = self.pick(|k| bcast(x.kind, k) == Some(x.kind)) else {
                    return false;
                };
                let name = self.choose(&["pd_op.add_", "pd_op.subtract_", "pd_op.multiply_"]);
                self.emit(block, name, &[x.v, y.v], x.kind)
            }
        };
        let written = if self.p.op_name_str(op) == "pd_op.assign_out_" {
            self.p.operand(op, 1).unwrap()
        } else {
            x.v
        };
        let bound = self.op_bound(op);
        let current = self.bound_of(written);
        if bound > LIMIT || (self.in_loop && bound > current) {
            self.p.erase_op(op).unwrap();
            return false;
        }
        let g = self.group(written);
        self.bound[g] = current.max(bound);
        let r = self.p.result(op, 0);
        self.track_alias(r, x.kind, written);
        self.push(r);
        true
    }

    /// The same op on the same operands again, half of the time after an
    /// in-place write of one operand.
    fn duplicate(&mut self, block: BlockId) -> bool {
        if self.recent.is_empty() {
            return false;
        }
        let n = self.recent.len();
        let op = self.recent[n - 1 - self.rng.below(n.min(6))];
        if self.chance(2) {
            let operands: Vec<ValueId> = self
                .p
                .operands(op)
                .flatten()
                .filter(|v| self.kind_of.get(v).is_some_and(|k| k.float()))
                // A `builtin.combine` vector is no tensor to write in place.
                .filter(|&v| {
                    let ty = self.p.value_type(v);
                    self.ctx
                        .type_as::<pir_core::builtin::VectorType>(ty)
                        .is_none()
                })
                .collect();
            if !operands.is_empty() {
                let v = self.choose(&operands);
                let kind = self.kind_of[&v];
                self.write(block, Some(Val { v, kind }));
            }
        }
        if self.op_bound(op) > LIMIT {
            return false;
        }
        let kind = self.kind_of[&self.p.result(op, 0)];
        let copy = self.p.clone_op(op, &mut IrMapping::default());
        self.p.insert_op(copy, InsertPoint::BlockEnd(block));
        self.keep(copy, kind).is_some()
    }

    /// `builtin.combine` of a few tensors of one kind, read by `add_n`,
    /// `builtin.slice` or `builtin.split` (the last two alias the elements).
    fn vector(&mut self, block: BlockId) -> bool {
        let Some(first) = self.pick(Kind::float) else {
            return false;
        };
        let mut elems = vec![first.v];
        for _ in 0..1 + self.rng.below(2) {
            if let Some(x) = self.pick(|k| k == first.kind) {
                elems.push(x.v);
            }
        }
        let t = self.ty(first.kind);
        let vt = pir_core::builtin::VectorType::get(&self.ctx, &vec![t; elems.len()]);
        let combine = self.b(block).op("builtin.combine", &elems, &[vt], &[]);
        let v = self.p.result(combine, 0);
        let bound = elems.iter().map(|&e| self.bound_of(e)).sum();
        self.track(v, first.kind, bound);
        for _ in 0..1 + self.rng.below(2) {
            match self.rng.below(3) {
                0 => {
                    let op = self.b(block).op("pd_op.add_n", &[v], &[t], &[]);
                    self.keep(op, first.kind);
                }
                1 => {
                    let i = self.rng.below(elems.len());
                    let index = self.ctx.intern_attr(I32Attr(i32::try_from(i).unwrap()));
                    let op = self
                        .b(block)
                        .op("builtin.slice", &[v], &[t], &[("index", index)]);
                    let r = self.p.result(op, 0);
                    self.track_alias(r, first.kind, elems[i]);
                    self.push(r);
                }
                _ => {
                    let op = self
                        .b(block)
                        .op("builtin.split", &[v], &vec![t; elems.len()], &[]);
                    for (i, &e) in elems.iter().enumerate() {
                        let r = self.p.result(op, i);
                        self.track_alias(r, first.kind, e);
                        self.push(r);
                    }
                }
            }
        }
        true
    }

    /// A view (`reshape_`), usually written through.
    fn view(&mut self, block: BlockId) -> bool {
        let Some(x) = self.pick(|k| matches!(k, Kind::M | Kind::T | Kind::V)) else {
            return false;
        };
        let to = self.choose(&[Kind::M, Kind::T, Kind::V]);
        let shape = self.int_array(block, to.dims());
        let t = self.ty(to);
        let op = ReshapeInplaceOp::build(&mut self.b(block), x.v, shape, &[t]).0;
        let r = self.p.result(op, 0);
        self.track_alias(r, to, x.v);
        self.push(r);
        if self.rng.below(3) > 0 {
            self.write(block, Some(Val { v: r, kind: to }));
        }
        true
    }

    fn output(&mut self, block: BlockId, x: Val) {
        let name = format!("out{}", self.outputs);
        self.outputs += 1;
        if self.chance(4) {
            let attr = StrAttr::get(&self.ctx, &name);
            self.b(block).op(
                "builtin.shadow_output",
                &[x.v],
                &[],
                &[("output_name", attr)],
            );
        } else {
            let t = self.ty(x.kind);
            let col = i32::try_from(self.outputs).unwrap();
            FetchOp::build(&mut self.b(block), x.v, &name, col, &[t]);
        }
    }

    fn fetch(&mut self, block: BlockId) -> bool {
        let Some(x) = self.pick(|_| true) else {
            return false;
        };
        self.output(block, x);
        true
    }

    /// Generates a region's block: ops, then a `cf.yield` of `yields`
    /// values of the given kinds. Returns the yielded values.
    fn region_block(&mut self, block: BlockId, ops: usize, kinds: &[Kind]) -> Vec<ValueId> {
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

    fn if_op(&mut self, block: BlockId) -> bool {
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

    fn while_op(&mut self, block: BlockId) -> bool {
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

    /// One random action; false when it could not be applied here.
    fn step(&mut self, block: BlockId) -> bool {
        let nested = self.depth < 2;
        match self.rng.below(100) {
            0..=11 => self.unary(block),
            12..=21 => self.binary(block),
            22..=25 => self.scale(block),
            26..=34 => self.copy(block),
            35..=36 => self.transpose(block),
            37..=39 => self.sum(block),
            40..=42 => self.compare(block).is_some(),
            43 => self.cast_bool(block),
            44..=46 => self.constant(block),
            47..=58 => self.write(block, None),
            59..=70 => self.duplicate(block),
            71..=76 => self.view(block),
            77..=80 if self.depth == 0 => self.fetch(block),
            81..=85 if nested => self.if_op(block),
            86..=91 if nested => self.while_op(block),
            92..=94 => self.vector(block),
            95..=97 => {
                // Dead code: an op nobody uses.
                let Some(x) = self.pick(Kind::float) else {
                    return false;
                };
                self.emit(block, "pd_op.relu", &[x.v], x.kind);
                true
            }
            _ => false,
        }
    }

    fn gen_block(&mut self, block: BlockId, ops: usize) {
        for _ in 0..ops {
            for _ in 0..10 {
                if self.step(block) {
                    break;
                }
            }
        }
    }
}

/// A random program of the given seed whose values stay finite and small
/// (the generator's bounds are a heuristic; a program that escapes them is
/// replaced by the next attempt).
pub(super) fn generate(seed: u64) -> Program {
    for attempt in 0.. {
        let p = generate_once(seed.wrapping_add(attempt << 32));
        if interpret_measured(&p).is_ok_and(|(_, largest)| largest <= 1.0e6) {
            return p;
        }
    }
    unreachable!()
}

pub(super) fn generate_once(seed: u64) -> Program {
    let mut g = Gen::new(seed);
    let top = g.p.top_block();
    for (name, kind) in [("x", Kind::M), ("y", Kind::M), ("s", Kind::S)] {
        let t = g.ty(kind);
        let op = DataOp::build(
            &mut g.b(top),
            name,
            kind.dims(),
            kind.dtype(),
            Place::cpu(),
            &[t],
        );
        let r = g.p.result(op.0, 0);
        g.track(r, kind, 2.0);
        g.push(r);
    }
    let ops = 8 + g.rng.below(25);
    g.gen_block(top, ops);
    let pool = g.pool.clone();
    let mut any = false;
    for x in pool {
        if g.chance(4) {
            g.output(top, x);
            any = true;
        }
    }
    if !any {
        let last = *g.pool.last().unwrap();
        g.output(top, last);
    }
    g.p
}

// ---------------------------------------------------------------------------
// The property
// ---------------------------------------------------------------------------
