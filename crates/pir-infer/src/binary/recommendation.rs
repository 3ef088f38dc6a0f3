//! Recommendation-model functions of Paddle's `binary.cc`:
//! `ShuffleBatchInferMeta` and `TdmChildInferMeta` (tree-based deep model).

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{with_lod, DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `ShuffleBatchInferMeta` (x, seed, startup_seed): `out` like x and
/// `seed_out` like the seed (dims, data type, LoD); `shuffle_idx` `[-1]`
/// with no data type set (the builder's fresh tensor is float32).
pub(crate) fn shuffle_batch(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let seed = a.tensor(1)?;
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    set(outs, 1, Meta::new(DataType::Float32, DDim::new(&[-1])?));
    set(outs, 2, with_lod(&seed, seed.dtype, seed.dims));
    Ok(())
}

/// `TdmChildInferMeta` (x, tree_info, child_nums, dtype): `child` and
/// `leaf_mask` are x's dims plus `[child_nums]`, with x's data type and
/// LoD (the `dtype` attribute is not read).
pub(crate) fn tdm_child(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let info = a.tensor(1)?;
    let child_nums = a.int(2)?;
    if child_nums <= 0 {
        return Err(Bad(format!(
            "ValueError: The value of the 'child_nums' must greater than 0. But received child_nums value = {child_nums}, "
        )));
    }
    if info.dims.rank() != 2 {
        return Err(Bad(format!(
            "ShapeError: The dimensions of the 'tree info' must be 2. But received tree info's dimensions = {}, tree info's shape = {:?}.",
            info.dims.rank(),
            info.dims.as_slice()
        )));
    }
    let mut dims = x.dims;
    dims.push(child_nums)?;
    let m = with_lod(&x, x.dtype, dims);
    set(outs, 0, m.clone());
    set(outs, 1, m);
    Ok(())
}
