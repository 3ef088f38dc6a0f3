//! Graph sampling ops (Paddle's `multiary_infer_sym.cc`): neighbour
//! sampling and reindexing, whose result sizes are known only at run time.

use super::binary::dim;
use super::control_flow::result_from_type;
use super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.graph_khop_sampler", graph_khop_sampler),
    ("pd_op.graph_sample_neighbors", graph_sample_neighbors),
    ("pd_op.reindex_graph", reindex_graph),
    ("pd_op.weighted_sample_neighbors", weighted_sample_neighbors),
];

/// The graph samplers' index operands: a column (`[n, 1]`) or a vector.
fn graph_index(cx: &mut Cx<'_>, shape: &[DimExpr], what: &str) -> Res {
    match shape.len() {
        2 => {
            cx.eq(&shape[1], &DimExpr::Int(1));
            Ok(())
        }
        1 => Ok(()),
        n => Err(Bad(format!(
            "The {what} should be 1D, when it is not 2D, but we get {n}"
        ))),
    }
}

/// Paddle reads every operand's shape first, the optional ones too: an
/// absent one is refused.
fn graph_khop_sampler(cx: &mut Cx<'_>) -> Res {
    let (row, colptr, x) = (cx.shape(0)?, cx.shape(1)?, cx.shape(2)?);
    let eids = cx.shape(3)?;
    graph_index(cx, &row, "row")?;
    graph_index(cx, &colptr, "col_ptr")?;
    graph_index(cx, &x, "x")?;
    if cx.ints_attr("sample_sizes").unwrap_or_default().is_empty() {
        return Err(Bad(
            "The parameter 'sample_sizes' in GraphSampleOp must be set. But received 'sample_sizes' is empty."
                .into(),
        ));
    }
    if cx.bool_attr("return_eids").unwrap_or(false) {
        graph_index(cx, &eids, "eids")?;
        let n = cx.sym();
        cx.set_shape(4, vec![n]);
    } else {
        result_from_type(cx, 4);
    }
    let edges = cx.sym();
    let nodes = cx.sym();
    cx.set_shape(0, vec![edges.clone(), DimExpr::Int(1)]);
    cx.set_shape(1, vec![edges, DimExpr::Int(1)]);
    cx.set_shape(2, vec![nodes]);
    cx.set_shape(3, vec![dim(&x, 0, "Input(X)")?]);
    Ok(())
}

/// Like `graph_khop_sampler`, every operand must be present.
fn graph_sample_neighbors(cx: &mut Cx<'_>) -> Res {
    let (row, colptr, x) = (cx.shape(0)?, cx.shape(1)?, cx.shape(2)?);
    let (eids, perm) = (cx.shape(3)?, cx.shape(4)?);
    graph_index(cx, &row, "Row")?;
    graph_index(cx, &colptr, "Col_Ptr")?;
    graph_index(cx, &x, "X")?;
    if cx.bool_attr("return_eids").unwrap_or(false) {
        graph_index(cx, &eids, "Eids")?;
        let n = cx.sym();
        cx.set_shape(2, vec![n]);
    } else {
        result_from_type(cx, 2);
    }
    if cx.bool_attr("flag_perm_buffer").unwrap_or(false) {
        graph_index(cx, &perm, "Perm_Buffer")?;
    }
    let n = cx.sym();
    cx.set_shape(0, vec![n]);
    cx.set_shape(1, vec![dim(&x, 0, "Input(X)")?]);
    Ok(())
}

/// Like `graph_khop_sampler`, every operand must be present.
fn reindex_graph(cx: &mut Cx<'_>) -> Res {
    let (x, neighbors, count) = (cx.shape(0)?, cx.shape(1)?, cx.shape(2)?);
    let (value, index) = (cx.shape(3)?, cx.shape(4)?);
    graph_index(cx, &x, "X")?;
    graph_index(cx, &neighbors, "Neighbors")?;
    graph_index(cx, &count, "Count")?;
    graph_index(cx, &value, "HashTable_Value")?;
    graph_index(cx, &index, "HashTable_Index")?;
    let unique = cx.sym();
    let n = dim(&neighbors, 0, "Input(Neighbors)")?;
    cx.set_shape(0, vec![n.clone()]);
    cx.set_shape(1, vec![n]);
    cx.set_shape(2, vec![unique]);
    Ok(())
}

/// Like `graph_khop_sampler`, every operand must be present.
fn weighted_sample_neighbors(cx: &mut Cx<'_>) -> Res {
    let (row, colptr, weight) = (cx.shape(0)?, cx.shape(1)?, cx.shape(2)?);
    let (x, eids) = (cx.shape(3)?, cx.shape(4)?);
    graph_index(cx, &row, "row")?;
    graph_index(cx, &colptr, "col_ptr")?;
    graph_index(cx, &weight, "edge_weight")?;
    graph_index(cx, &x, "input_nodes")?;
    let n = cx.sym();
    cx.set_shape(0, vec![n]);
    let n = cx.sym();
    cx.set_shape(1, vec![n]);
    if cx.bool_attr("return_eids").unwrap_or(false) {
        graph_index(cx, &eids, "eids")?;
        let n = cx.sym();
        cx.set_shape(2, vec![n]);
    } else {
        result_from_type(cx, 2);
    }
    Ok(())
}
