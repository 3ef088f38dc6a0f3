//! Ops Paddle's translation builds for one legacy op, folded back into it
//! so that a translated program is written as the program it came from:
//!
//! - `elementwise_*` with an `axis`: `reshape(y, [1.., dims(y), 1..])` then
//!   the binary op → the legacy op with `axis` on `y`;
//! - `mul`: `reshape(x)`, `reshape(y)`, `matmul`, `reshape(out)` → `mul`
//!   with `x_num_col_dims` / `y_num_col_dims`;
//! - `fill_constant` with `ShapeTensorList`: `stack` of the list, then
//!   `full_with_tensor` → the list itself.
//!
//! The built ops are known by their attributes: the builders give them
//! `stop_gradient` only, where every op translated from a legacy op also
//! has `persistable`. Each fold checks the shapes the legacy op implies,
//! so a fold never changes what the program computes.

use pir_core::{OpId, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

use super::attrs::Plain;
use super::Writer;

/// How a kept op is written differently.
#[derive(Debug, Clone)]
pub(crate) enum Fold {
    /// A binary op whose `y` was reshaped for `axis`.
    Axis {
        /// `y` before the reshape.
        y: ValueId,
        /// The legacy `axis`.
        axis: i32,
    },
    /// `matmul` between reshapes: a legacy `mul`.
    Mul {
        /// The operands before their reshapes.
        x: ValueId,
        y: ValueId,
        /// `x_num_col_dims`, `y_num_col_dims`.
        xn: i32,
        yn: i32,
        /// The value of the reshape after the matmul.
        out: ValueId,
    },
    /// `full_with_tensor` of a stacked list: `ShapeTensorList`.
    ShapeList {
        /// The list's values.
        items: Vec<ValueId>,
    },
}

/// The folds of a program: ops not written, and kept ops written another way.
#[derive(Debug, Default)]
pub(crate) struct Folds {
    pub skipped: FxHashSet<OpId>,
    pub kept: FxHashMap<OpId, Fold>,
}

impl Writer<'_> {
    /// Whether `op` was built by the translation (see the module docs).
    fn built(&self, op: OpId) -> bool {
        self.program.attr(op, "persistable").is_none()
            && self.program.attr(op, "stop_gradient").is_some()
    }

    fn dims(&self, v: ValueId) -> Option<Vec<i64>> {
        self.ctx
            .type_as::<pir_core::builtin::DenseTensorType>(self.program.value_type(v))
            .map(|d| d.dims.to_vec())
    }

    /// A built `reshape` read once, with a constant shape: (input, shape).
    fn built_reshape(&self, v: ValueId) -> Option<(OpId, ValueId, Vec<i64>)> {
        self.reshape_of(v).filter(|(op, _, _)| self.built(*op))
    }

    /// A `reshape` read once, with a constant shape: (op, input, shape).
    fn reshape_of(&self, v: ValueId) -> Option<(OpId, ValueId, Vec<i64>)> {
        if self.program.use_count(v) != 1 {
            return None;
        }
        self.reshape_of_any(v)
    }

    /// The `reshape` making `v`, with a constant shape: (op, input, shape).
    fn reshape_of_any(&self, v: ValueId) -> Option<(OpId, ValueId, Vec<i64>)> {
        let op = self.program.defining_op(v)?;
        if self.program.op_name_str(op) != "pd_op.reshape" {
            return None;
        }
        let input = self.program.operand(op, 0)?;
        let shape = match self.constant_value(self.program.operand(op, 1)?)? {
            Plain::List(l) => l
                .iter()
                .map(|x| match x {
                    Plain::Int(i) => Some(*i),
                    _ => None,
                })
                .collect::<Option<Vec<i64>>>()?,
            _ => return None,
        };
        Some((op, input, shape))
    }

    /// Finds the folds of the whole program.
    pub(super) fn find_folds(&mut self) {
        let mut folds = Folds::default();
        let mut stack = vec![self.program.top_block()];
        while let Some(block) = stack.pop() {
            for op in self.program.block_ops(block) {
                for r in self.program.regions(op) {
                    stack.extend(self.program.region_blocks(r).iter().copied());
                }
                let name = self.program.op_name_str(op);
                if pir_dialects::op_facts::OpFact::ArithmeticBinary.holds(self.program, op) {
                    self.fold_axis(op, &mut folds);
                } else if name == "pd_op.matmul" {
                    self.fold_mul(op, &mut folds);
                } else if name == "pd_op.full_with_tensor" {
                    self.fold_shape_list(op, &mut folds);
                }
            }
        }
        self.folds = folds;
    }

    fn fold_axis(&self, op: OpId, folds: &mut Folds) -> Option<()> {
        let (reshape, y, shape) = self.built_reshape(self.program.operand(op, 1)?)?;
        let ys = self.dims(y)?;
        let xs = self.dims(self.program.operand(op, 0)?)?;
        let axis = shape.iter().take_while(|&&d| d == 1).count();
        let axis = (0..=axis).find(|&a| {
            shape.len() == xs.len()
                && shape.len() >= a + ys.len()
                && shape[a..a + ys.len()] == ys[..]
                && shape[..a].iter().all(|&d| d == 1)
                && shape[a + ys.len()..].iter().all(|&d| d == 1)
                && a + ys.len() < xs.len()
        })?;
        folds.skipped.insert(reshape);
        folds.kept.insert(
            op,
            Fold::Axis {
                y,
                axis: i32::try_from(axis).ok()?,
            },
        );
        Some(())
    }

    fn fold_mul(&self, op: OpId, folds: &mut Folds) -> Option<()> {
        // A `matmul` of the translation's own carries the legacy flags.
        self.program.attr(op, "persistable")?;
        let flags = |name: &str| {
            self.program
                .attr(op, name)
                .and_then(|a| super::attrs::plain(self.ctx, a))
                == Some(Plain::Bool(false))
        };
        if !flags("transpose_x") || !flags("transpose_y") {
            return None;
        }
        let (rx, x, xshape) = self.built_reshape(self.program.operand(op, 0)?)?;
        let (ry, y, yshape) = self.built_reshape(self.program.operand(op, 1)?)?;
        let r = self.result_at(op, 0)?;
        if self.program.use_count(r) != 1 {
            return None;
        }
        let user = self.program.operand_owner(self.program.uses(r).next()?);
        // The reshape of the result carries the legacy output's flags.
        if self.program.op_name_str(user) != "pd_op.reshape" || self.program.num_results(user) != 1
        {
            return None;
        }
        let out = self.result_at(user, 0)?;
        let (ro, _, oshape) = self
            .reshape_of_any(out)
            .filter(|(o, input, _)| *o == user && *input == r)?;
        let xs = self.dims(x)?;
        let ys = self.dims(y)?;
        let flat = crate::translate::mul_flat_shape;
        let xn = (1..=xs.len()).find(|&n| flat(&xs, n)[..] == xshape[..])?;
        let yn = (1..=ys.len()).find(|&n| flat(&ys, n)[..] == yshape[..])?;
        let mut expect: Vec<i64> = xs[..xn].to_vec();
        expect.extend_from_slice(&ys[yn..]);
        if expect != oshape {
            return None;
        }
        folds.skipped.extend([rx, ry, ro]);
        folds.kept.insert(
            op,
            Fold::Mul {
                x,
                y,
                xn: i32::try_from(xn).ok()?,
                yn: i32::try_from(yn).ok()?,
                out: self.result_at(ro, 0)?,
            },
        );
        Some(())
    }

    fn fold_shape_list(&self, op: OpId, folds: &mut Folds) -> Option<()> {
        let shape = self.program.operand(op, 1)?;
        let stack = self.program.defining_op(shape)?;
        if self.program.op_name_str(stack) != "pd_op.stack"
            || !self.built(stack)
            || self.program.use_count(shape) != 1
        {
            return None;
        }
        let list = self.program.operand(stack, 0)?;
        let combine = self.program.defining_op(list)?;
        if self.program.op_name_str(combine) != "builtin.combine" {
            return None;
        }
        let items: Option<Vec<ValueId>> = self.program.operands(combine).collect();
        folds.skipped.insert(stack);
        folds.kept.insert(op, Fold::ShapeList { items: items? });
        Some(())
    }
}
