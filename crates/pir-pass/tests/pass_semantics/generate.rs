//! The random program generator: programs full of duplicates, copies,
//! in-place writes, views and control flow.

use super::*;
mod aliasing;
mod control_flow;

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
