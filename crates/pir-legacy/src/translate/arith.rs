//! The arithmetic legacy ops with translations of their own: `mul` (2-D
//! flattening around a `matmul`), the old `matmul` (`alpha` as a `scale`),
//! `elementwise_*` with a broadcast `axis` (`y` reshaped first) and the
//! embeddings (`lookup_table` keeps a unit dim that a `squeeze` removes).

use pir_core::{InsertPoint, ValueId};

use super::attrs::AttrMap;
use super::general::{def, target_name, Hooks};
use super::values::{self, ScopeId, VarInfo};
use super::{OpSite, Translator};
use crate::desc::OpDesc;
use crate::error::Result;

/// The 2-D shape `mul` flattens an input of dims `dims` to around its
/// first `n` dims (`n <= dims.len()`): the product of each part, `-1` when
/// a part holds an unknown dim. Dims from the file may multiply past
/// `i64`: the product wraps, as Paddle's `int64_t` product does (a checked
/// one would panic in builds with overflow checks).
pub(crate) fn mul_flat_shape(dims: &[i64], n: usize) -> [i64; 2] {
    let product = |part: &[i64]| part.iter().fold(1i64, |a, &d| a.wrapping_mul(d)).max(-1);
    [product(&dims[..n]), product(&dims[n..])]
}

impl<'d> Translator<'d> {
    /// `mul`: both inputs flattened to 2-D by `x/y_num_col_dims`, `matmul`,
    /// and the result reshaped back.
    pub(super) fn mul(&mut self, site: OpSite<'_, 'd>) -> Result<()> {
        let OpSite { op, scope, dst, .. } = site;
        let d = def("pd_op.matmul").ok_or_else(|| self.err("no pd_op.matmul"))?;
        self.slice_vector_inputs(op, scope, dst)?;
        let xn = self
            .int_attr(op, "x_num_col_dims")?
            .ok_or_else(|| self.err("`mul` needs `x_num_col_dims`"))?;
        let yn = self
            .int_attr(op, "y_num_col_dims")?
            .ok_or_else(|| self.err("`mul` needs `y_num_col_dims`"))?;
        let xv = self.single_input(op, scope, "X")?;
        let yv = self.single_input(op, scope, "Y")?;
        let xs = self.dense_dims(xv)?;
        let ys = self.dense_dims(yv)?;
        let (xn, yn) = (xn.max(0) as usize, yn.max(0) as usize);
        if xn > xs.len() || yn > ys.len() {
            return Err(self.err("`mul`: num_col_dims exceeds the input rank"));
        }
        let x2 = self.build_reshape(dst, xv, &mul_flat_shape(&xs, xn))?;
        let y2 = self.build_reshape(dst, yv, &mul_flat_shape(&ys, yn))?;
        let results = self.general_outputs(site, &self.plan(op, d))?;
        let mut m = AttrMap::new();
        m.set("transpose_x", self.k.bool_false);
        m.set("transpose_y", self.k.bool_false);
        self.create_with_outputs(site, d.name.as_str(), &[Some(x2), Some(y2)], &results, m);
        if let Some(&out) = op.output("Out").and_then(|v| v.first()) {
            let ov = self.lookup(scope, out)?.value;
            let mut shape: Vec<i64> = xs[..xn].to_vec();
            shape.extend_from_slice(&ys[yn..]);
            let r = self.build_reshape(dst, ov, &shape)?;
            self.scopes.push(scope, out, VarInfo::plain(r));
        }
        Ok(())
    }

    fn single_input(&self, op: &OpDesc<'d>, scope: ScopeId, slot: &str) -> Result<ValueId> {
        match op.input_args(slot) {
            [one] => Ok(self.lookup(scope, one)?.value),
            other => Err(self.err(format!(
                "input `{slot}` needs one variable, has {}",
                other.len()
            ))),
        }
    }

    fn dense_dims(&self, v: ValueId) -> Result<crate::desc::Dims> {
        values::dense_parts(&self.ctx, self.ty(v))
            .map(|(_, dims)| dims)
            .ok_or_else(|| self.err("expected a dense tensor input"))
    }

    /// The old `matmul`: `Scale_x/y/out` must be 1; `alpha` becomes a `scale`.
    pub(super) fn legacy_matmul(&mut self, site: OpSite<'_, 'd>) -> Result<()> {
        let OpSite { op, scope, dst, .. } = site;
        for n in ["Scale_x", "Scale_y", "Scale_out"] {
            if let Some(v) = self.float_attr(op, n)? {
                if (v - 1.0).abs() > 1e-6 {
                    return Err(self.unsupported("matmul", format!("`{n}` is {v}, not 1")));
                }
            }
        }
        let d = def("pd_op.matmul").ok_or_else(|| self.err("no pd_op.matmul"))?;
        let new = self.general_with(site, &self.plan(op, d), &Hooks::default())?;
        let alpha = self
            .float_attr(op, "alpha")?
            .ok_or_else(|| self.err("`matmul` needs `alpha`"))?;
        if (alpha - 1.0).abs() >= 1e-6 {
            let out = op.output_args("Out").first().copied().unwrap_or_default();
            let v = self.program.result(new, 0);
            let s = self.build_scale(dst, v, alpha)?;
            self.scopes.push(scope, out, VarInfo::plain(s));
        }
        Ok(())
    }

    /// `elementwise_*` with `axis`: `y` reshaped so plain broadcasting agrees.
    pub(super) fn elementwise(&mut self, site: OpSite<'_, 'd>) -> Result<()> {
        let OpSite { op, scope, dst, .. } = site;
        let inplace = super::general::is_inplace(op);
        let found = if op.op_type == "grad_add" {
            let name = if inplace { "pd_op.add_" } else { "pd_op.add" };
            def(name).map(|d| (d, self.plan(op, d)))
        } else {
            self.target_plan(op.op_type, inplace)
        };
        let (d, plan) = found
            .ok_or_else(|| self.unsupported(op.op_type, format!("no op `{}`", target_name(op))))?;
        let axis = self
            .int_attr(op, "axis")?
            .ok_or_else(|| self.err("elementwise op needs `axis`"))?;
        if axis == -1 {
            return self
                .general_with(site, &plan, &Hooks::default())
                .map(|_| ());
        }
        self.slice_vector_inputs(op, scope, dst)?;
        let xv = self.single_input(op, scope, "X")?;
        let yv = self.single_input(op, scope, "Y")?;
        let xs = self.dense_dims(xv)?;
        let ys = self.dense_dims(yv)?;
        let rank = xs.len() as i64;
        let axis = i64::from(axis) + if axis < 0 { rank } else { 0 };
        if !(0..=rank).contains(&axis) {
            return Err(self.err(format!("`axis` {axis} is outside the rank {rank} of `X`")));
        }
        let append = rank - axis - ys.len() as i64;
        let y_new = if append <= 0 {
            yv
        } else if !ys.contains(&-1) {
            let mut shape = vec![1i64; axis as usize];
            shape.extend_from_slice(&ys);
            shape.extend(std::iter::repeat_n(1, append as usize));
            self.build_reshape(dst, yv, &shape)?
        } else {
            let s = self.build_shape64(dst, yv)?;
            let ones = self.build_full_int_array(dst, &vec![1; append as usize])?;
            let c = self.build_combine(dst, &[s, ones]);
            let shape = self.build_concat0(dst, c)?;
            let yt = self.dense_dims(yv)?;
            let ty = pir_core::builtin::DenseTensorType::get(
                &self.ctx,
                values::as_dense(&self.ctx, self.ty(yv)).map_or(pir_core::Type::NULL, |t| t.dtype),
                &vec![-1; yt.len() + append as usize],
            );
            let stop = self.k.true1;
            let mut m = AttrMap::new();
            m.set("stop_gradient", stop);
            let r = self.create_op(
                InsertPoint::BlockEnd(dst),
                "pd_op.reshape",
                &[Some(yv), Some(shape)],
                &[ty],
                m,
                0,
            );
            self.program.result(r, 0)
        };
        let results = self.general_outputs(site, &self.plan(op, d))?;
        let attrs = self.general_attrs(op, &self.plan(op, d), &Hooks::default())?;
        self.create_with_outputs(
            site,
            d.name.as_str(),
            &[Some(xv), Some(y_new)],
            &results,
            attrs,
        );
        Ok(())
    }

    /// `lookup_table(_v2)` → `embedding`; the old `lookup_table` keeps a
    /// trailing unit dim that a `squeeze` removes.
    pub(super) fn embedding(&mut self, site: OpSite<'_, 'd>) -> Result<()> {
        let OpSite { op, scope, dst, .. } = site;
        let d = def("pd_op.embedding").ok_or_else(|| self.err("no pd_op.embedding"))?;
        self.general_with(site, &self.plan(op, d), &Hooks::default())?;
        if op.op_type == "lookup_table" {
            if let Some(&out) = op.output("Out").and_then(|v| v.first()) {
                let v = self.lookup(scope, out)?.value;
                let s = self.build_squeeze(dst, v, &[-2])?;
                self.scopes.push(scope, out, VarInfo::plain(s));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::mul_flat_shape;

    /// Each part is the product of its dims, `-1` for an unknown one, and
    /// dims whose product passes `i64` wrap instead of panicking.
    #[test]
    fn mul_flat_shape_multiplies_each_part_and_wraps() {
        assert_eq!(mul_flat_shape(&[2, 3, 4], 1), [2, 12]);
        assert_eq!(mul_flat_shape(&[-1, 3, 4], 2), [-1, 4]);
        assert_eq!(mul_flat_shape(&[5], 1), [5, 1]);
        let huge = mul_flat_shape(&[i64::MAX, 3, 1 << 40, 1 << 40], 2);
        assert_eq!(huge, [i64::MAX.wrapping_mul(3).max(-1), 0]);
    }
}
