//! `CollectFpnProposalsInferMeta` (Paddle's `ternary.cc`): the proposals of
//! every FPN level gathered into one list.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{with_lod, DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `CollectFpnProposalsInferMeta` (multi_level_rois, multi_level_scores,
/// multi_level_rois_num, post_nms_topn): `fpn_rois` `[post_nms_topn, 4]`
/// of the first level's data type and LoD; `rois_num` `[-1]` int32.
pub(crate) fn collect_fpn_proposals(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let rois = a.tensors(0)?;
    let scores = a.tensors(1)?;
    let topn = a.int(3)?;
    for r in &rois {
        let d = r.dims.at(1)?;
        if d != 4 {
            return Err(Bad(format!(
                "Second dimension of Input(MultiLevelRois) must be 4. But received dimension = {d}"
            )));
        }
    }
    for s in &scores {
        let d = s.dims.at(1)?;
        if d != 1 {
            return Err(Bad(format!(
                "Second dimension of Input(MultiLevelScores) must be 1. But received dimension = {d}"
            )));
        }
    }
    let first = rois
        .first()
        .ok_or_else(|| Bad("multi_level_rois is empty".into()))?;
    set(
        outs,
        0,
        with_lod(first, first.dtype, DDim::new(&[topn, 4])?),
    );
    set(outs, 1, Meta::new(DataType::Int32, DDim::new(&[-1])?));
    Ok(())
}
