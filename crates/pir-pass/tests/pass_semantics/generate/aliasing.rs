//! Actions of the generator that share buffers: in-place writes, duplicate
//! ops, vectors and views, and the program's outputs.

use super::*;

impl Gen {
    /// An in-place write of `target` (or of a pool value). Inside a loop
    /// body only writes that cannot grow the buffer are kept.
    pub(super) fn write(&mut self, block: BlockId, target: Option<Val>) -> bool {
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
    pub(super) fn duplicate(&mut self, block: BlockId) -> bool {
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
    pub(super) fn vector(&mut self, block: BlockId) -> bool {
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
    pub(super) fn view(&mut self, block: BlockId) -> bool {
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

    pub(super) fn output(&mut self, block: BlockId, x: Val) {
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

    pub(super) fn fetch(&mut self, block: BlockId) -> bool {
        let Some(x) = self.pick(|_| true) else {
            return false;
        };
        self.output(block, x);
        true
    }
}
