//! Graph sampling InferMeta functions of Paddle's `multiary.cc`:
//! `GraphKhopSamplerInferMeta`, `GraphReindexInferMeta`,
//! `GraphSampleNeighborsInferMeta`. Their sizes depend on the data, so
//! results are `[-1]` (or `[-1, 1]`).

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// The shape check the three share: `[n]` or `[n, 1]`.
fn check_ids(dims: &DDim, name: &str) -> Result<(), Bad> {
    if dims.rank() == 2 {
        let last = dims.at(1)?;
        if last != 1 {
            return Err(Bad(format!(
                "The last dim of {name} should be 1 when it is 2D, but we get {last}"
            )));
        }
    } else if dims.rank() != 1 {
        return Err(Bad(format!(
            "The {name} should be 1D, when it is not 2D, but we get {}",
            dims.rank()
        )));
    }
    Ok(())
}

fn flat(dtype: DataType) -> Result<Meta, Bad> {
    Ok(Meta::new(dtype, DDim::new(&[-1])?))
}

/// The optional tensor of parameter `i`, required when `wanted`.
fn required(a: &Args<'_>, i: usize, wanted: bool) -> Result<Option<Meta>, Bad> {
    if !wanted {
        return Ok(None);
    }
    a.opt_tensor(i)?
        .map(Some)
        .ok_or_else(|| Bad(format!("operand of parameter {i} is missing")))
}

/// `GraphKhopSamplerInferMeta` (row, colptr, x, eids, sample_sizes,
/// return_eids).
pub(crate) fn graph_khop_sampler(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let row = a.tensor(0)?;
    let colptr = a.tensor(1)?;
    let x = a.tensor(2)?;
    let sample_sizes = a.ints(4)?;
    let return_eids = a.bool(5)?;
    check_ids(&row.dims, "row")?;
    check_ids(&colptr.dims, "col_ptr")?;
    check_ids(&x.dims, "x")?;
    if sample_sizes.is_empty() {
        return Err(Bad(
            "The parameter 'sample_sizes' in GraphSampleOp must be set. But received 'sample_sizes' is empty."
                .into(),
        ));
    }
    if let Some(eids) = required(a, 3, return_eids)? {
        check_ids(&eids.dims, "eids")?;
        set(outs, 4, flat(row.dtype)?);
    }
    set(outs, 0, Meta::new(row.dtype, DDim::new(&[-1, 1])?));
    set(outs, 1, Meta::new(row.dtype, DDim::new(&[-1, 1])?));
    set(outs, 2, flat(DataType::Int32)?);
    set(outs, 3, Meta::new(x.dtype, x.dims));
    Ok(())
}

/// `GraphReindexInferMeta` (x, neighbors, count, hashtable_value,
/// hashtable_index).
pub(crate) fn graph_reindex(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let neighbors = a.tensor(1)?;
    let count = a.tensor(2)?;
    check_ids(&x.dims, "X")?;
    check_ids(&neighbors.dims, "Neighbors")?;
    check_ids(&count.dims, "Count")?;
    if let (Some(value), Some(index)) = (a.opt_tensor(3)?, a.opt_tensor(4)?) {
        check_ids(&value.dims, "HashTable_Value")?;
        check_ids(&index.dims, "HashTable_Index")?;
    }
    set(outs, 0, flat(neighbors.dtype)?);
    set(outs, 1, flat(neighbors.dtype)?);
    set(outs, 2, flat(x.dtype)?);
    Ok(())
}

/// `GraphSampleNeighborsInferMeta` (row, colptr, x, eids, perm_buffer,
/// sample_size, return_eids, flag_perm_buffer).
pub(crate) fn graph_sample_neighbors(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let row = a.tensor(0)?;
    let colptr = a.tensor(1)?;
    let x = a.tensor(2)?;
    let return_eids = a.bool(6)?;
    let flag_perm_buffer = a.bool(7)?;
    check_ids(&row.dims, "Row")?;
    check_ids(&colptr.dims, "Col_Ptr")?;
    check_ids(&x.dims, "X")?;
    if let Some(eids) = required(a, 3, return_eids)? {
        check_ids(&eids.dims, "Eids")?;
        set(outs, 2, flat(row.dtype)?);
    }
    if let Some(perm) = required(a, 4, flag_perm_buffer)? {
        check_ids(&perm.dims, "Perm_Buffer")?;
    }
    set(outs, 0, flat(row.dtype)?);
    set(outs, 1, flat(DataType::Int32)?);
    Ok(())
}

/// `WeightedSampleNeighborsInferMeta` (row, colptr, edge_weight,
/// input_nodes, eids, sample_size, return_eids).
pub(crate) fn weighted_sample_neighbors(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let row = a.tensor(0)?;
    let colptr = a.tensor(1)?;
    let weight = a.tensor(2)?;
    let x = a.tensor(3)?;
    let return_eids = a.bool(6)?;
    check_ids(&row.dims, "row")?;
    check_ids(&colptr.dims, "colptr")?;
    check_ids(&weight.dims, "edge_weight")?;
    check_ids(&x.dims, "input_nodes")?;
    if let Some(eids) = required(a, 4, return_eids)? {
        check_ids(&eids.dims, "eids")?;
        set(outs, 2, flat(row.dtype)?);
    }
    set(outs, 0, flat(row.dtype)?);
    set(outs, 1, flat(DataType::Int32)?);
    Ok(())
}
