//! `EinsumRawInferMeta` cases checked against Paddle 3.3.1: programs Paddle
//! built (its printed IR, trimmed to the op and its operands) and the result
//! types it printed.

use crate::testing::check;

/// A case Paddle printed: `pd_op.einsum` with `equation` on float32
/// operands of `dims` (a `data` op each, combined into a list), and the
/// result type `out` it printed. Its other two results are as Paddle
/// printed them too: a fresh tensor per operand (`inner_cache`) and the
/// operands' types (`xshape`).
fn case(equation: &str, dims: &[&[i64]], out: &str) {
    typed_case(("float32", "f32"), equation, dims, out);
}

/// [`case`] on float64 operands.
fn case_f64(equation: &str, dims: &[&[i64]], out: &str) {
    typed_case(("float64", "f64"), equation, dims, out);
}

fn typed_case((dtype, short): (&str, &str), equation: &str, dims: &[&[i64]], out: &str) {
    let types: Vec<String> = dims
        .iter()
        .map(|d| {
            let extents: String = d.iter().map(|v| format!("{v}x")).collect();
            format!("tensor<{extents}{short}>")
        })
        .collect();
    let mut body = String::new();
    for (i, (d, ty)) in dims.iter().zip(&types).enumerate() {
        let shape: Vec<String> = d.iter().map(i64::to_string).collect();
        body += &format!(
            "(%{i}) = \"pd_op.data\" () {{dtype:{dtype},name:\"x{i}\",place:Place(undefined:0),shape:[{}],stop_gradient:[true]}} : () -> {ty}\n",
            shape.join(",")
        );
    }
    let n = dims.len();
    let operands: Vec<String> = (0..n).map(|i| format!("%{i}")).collect();
    let list = format!("vec[{}]", types.join(","));
    let cache = format!("vec[{}]", vec!["tensor<0xf32>"; n].join(","));
    body += &format!(
        "(%{n}) = \"builtin.combine\" ({}) {{stop_gradient:[true]}} : ({}) -> {list}\n",
        operands.join(", "),
        types.join(", ")
    );
    body += &format!(
        "(%{}, %{}, %{}) = \"pd_op.einsum\" (%{n}) {{equation:\"{equation}\",stop_gradient:[true,true,true]}} : ({list}) -> {out}, {cache}, {list}",
        n + 1,
        n + 2,
        n + 3
    );
    check(&body, &[out, &cache, &list]);
}

/// Explicit equations: attention, matmul-like contractions, transposes.
#[test]
fn explicit() {
    // paddle.einsum("bhqk,bhkd->bqhd") on [[2,3,4,5],[2,3,5,6]]
    case("bhqk,bhkd->bqhd", &[&[2, 3, 4, 5], &[2, 3, 5, 6]], "tensor<2x4x3x6xf32>");
    // paddle.einsum("bhqk,bhkd->bqhd") on [[-1,8,-1,-1],[-1,8,-1,64]]
    case("bhqk,bhkd->bqhd", &[&[-1, 8, -1, -1], &[-1, 8, -1, 64]], "tensor<-1x-1x8x64xf32>");
    // paddle.einsum("i,i->") on [[5],[5]]
    case("i,i->", &[&[5], &[5]], "tensor<f32>");
    // paddle.einsum("bij,bjk->bik") on [[-1,3,4],[-1,4,5]]
    case("bij,bjk->bik", &[&[-1, 3, 4], &[-1, 4, 5]], "tensor<-1x3x5xf32>");
    // paddle.einsum("bij,bjk->bik") on [[-1,-1,4],[2,4,-1]]
    case("bij,bjk->bik", &[&[-1, -1, 4], &[2, 4, -1]], "tensor<2x-1x-1xf32>");
    // paddle.einsum("ij->ji") on [[3,4]]
    case("ij->ji", &[&[3, 4]], "tensor<4x3xf32>");
    // paddle.einsum("ijk->ki") on [[2,3,4]]
    case_f64("ijk->ki", &[&[2, 3, 4]], "tensor<4x2xf64>");
    // paddle.einsum("i,j->ij") on [[3],[4]]
    case("i,j->ij", &[&[3], &[4]], "tensor<3x4xf32>");
    // paddle.einsum("ij,j->i") on [[3,4],[4]]
    case("ij,j->i", &[&[3, 4], &[4]], "tensor<3xf32>");
    // paddle.einsum("bsd,btd->bst") on [[-1,5,8],[-1,5,8]]
    case("bsd,btd->bst", &[&[-1, 5, 8], &[-1, 5, 8]], "tensor<-1x5x5xf32>");
    // paddle.einsum("abc,cd->abd") on [[2,-1,4],[4,6]]
    case("abc,cd->abd", &[&[2, -1, 4], &[4, 6]], "tensor<2x-1x6xf32>");
    // paddle.einsum("ij,kj->ik") on [[3,4],[5,4]]
    case("ij,kj->ik", &[&[3, 4], &[5, 4]], "tensor<3x5xf32>");
    // paddle.einsum("i->i") on [[-1]]
    case("i->i", &[&[-1]], "tensor<-1xf32>");
    // paddle.einsum("ijk,ikl->ijl") on [[2,3,4],[2,4,5]]
    case_f64("ijk,ikl->ijl", &[&[2, 3, 4], &[2, 4, 5]], "tensor<2x3x5xf64>");
    // paddle.einsum("bhld,lrd->bhlr") on [[2,4,-1,8],[-1,-1,8]]
    case("bhld,lrd->bhlr", &[&[2, 4, -1, 8], &[-1, -1, 8]], "tensor<2x4x-1x-1xf32>");
    // paddle.einsum("bij,bkj->bik") on [[1,3,4],[6,5,4]]
    case("bij,bkj->bik", &[&[1, 3, 4], &[6, 5, 4]], "tensor<6x3x5xf32>");
}

/// `...` as `paddle.einsum` rewrites it: unused letters, operands unsqueezed
/// to the same ellipsis rank.
#[test]
fn ellipsis() {
    // paddle.einsum("...ij,...jk->...ik") on [[2,3,4,5],[-1,3,5,6]]
    case("dyij,dyjk->dyik", &[&[2, 3, 4, 5], &[-1, 3, 5, 6]], "tensor<2x3x4x6xf32>");
    // paddle.einsum("...ij,...jk->...ik") on [[4,5],[2,3,5,6]]
    case("dyij,dyjk->dyik", &[&[1, 1, 4, 5], &[2, 3, 5, 6]], "tensor<2x3x4x6xf32>");
    // paddle.einsum("...ij,...jk->...ik") on [[2,1,4,5],[3,5,6]]
    case("dyij,dyjk->dyik", &[&[2, 1, 4, 5], &[1, 3, 5, 6]], "tensor<2x3x4x6xf32>");
    // paddle.einsum("...i->...") on [[2,3,4]]
    case("dyi->dy", &[&[2, 3, 4]], "tensor<2x3xf32>");
    // paddle.einsum("...ii->...i") on [[2,3,3]]
    case("dii->di", &[&[2, 3, 3]], "tensor<2x3xf32>");
    // paddle.einsum("i...,j...->ij...") on [[2,3,4],[5,4]]
    case("idy,jdy->ijdy", &[&[2, 3, 4], &[5, 1, 4]], "tensor<2x5x3x4xf32>");
    // paddle.einsum("...,...->...") on [[],[3]]
    case("d,d->d", &[&[1], &[3]], "tensor<3xf32>");
}

/// Implicit outputs: `paddle.einsum` appends `->` and the labels used once.
#[test]
fn implicit() {
    // paddle.einsum("ij,jk") on [[3,4],[4,5]]
    case("ij,jk->ik", &[&[3, 4], &[4, 5]], "tensor<3x5xf32>");
    // paddle.einsum("ij") on [[3,4]]
    case("ij->ij", &[&[3, 4]], "tensor<3x4xf32>");
    // paddle.einsum("ji") on [[3,4]]
    case("ji->ij", &[&[3, 4]], "tensor<4x3xf32>");
    // paddle.einsum("ii") on [[4,4]]
    case("ii->", &[&[4, 4]], "tensor<f32>");
    // paddle.einsum("i,i") on [[5],[5]]
    case("i,i->", &[&[5], &[5]], "tensor<f32>");
}

/// Repeated letters (diagonals) and sums.
#[test]
fn diagonal_and_sums() {
    // paddle.einsum("ii->i") on [[3,3]]
    case("ii->i", &[&[3, 3]], "tensor<3xf32>");
    // paddle.einsum("ii->i") on [[-1,3]]
    case("ii->i", &[&[-1, 3]], "tensor<3xf32>");
    // paddle.einsum("ij->") on [[3,4]]
    case("ij->", &[&[3, 4]], "tensor<f32>");
    // paddle.einsum("i,i->") on [[-1],[5]]
    case("i,i->", &[&[-1], &[5]], "tensor<f32>");
    // paddle.einsum("iij->j") on [[3,3,4]]
    case("iij->j", &[&[3, 3, 4]], "tensor<4xf32>");
}

/// Extent-1 broadcasting and unknown (`-1`) or zero extents.
#[test]
fn broadcast_and_dynamic() {
    // paddle.einsum("ij,ij->ij") on [[1,4],[3,4]]
    case("ij,ij->ij", &[&[1, 4], &[3, 4]], "tensor<3x4xf32>");
    // paddle.einsum("ij,ij->ij") on [[3,1],[3,4]]
    case("ij,ij->ij", &[&[3, 1], &[3, 4]], "tensor<3x4xf32>");
    // paddle.einsum("ij,ij->ij") on [[-1,4],[1,4]]
    case("ij,ij->ij", &[&[-1, 4], &[1, 4]], "tensor<1x4xf32>");
    // paddle.einsum("ij,ij->i") on [[-1,4],[1,4]]
    case("ij,ij->i", &[&[-1, 4], &[1, 4]], "tensor<1xf32>");
    // paddle.einsum("ij,jk->ik") on [[3,0],[0,5]]
    case("ij,jk->ik", &[&[3, 0], &[0, 5]], "tensor<3x5xf32>");
}

/// Equations given to the op as they are (`paddle._pir_ops.einsum`): an
/// output label no operand has is `-1`, labels short of the rank read the
/// leading dims, a second `->` is ignored, an empty label string is a 0-d operand.
#[test]
fn raw_equations() {
    // _pir_ops.einsum("ij->ik") on [[3,4]]
    case("ij->ik", &[&[3, 4]], "tensor<3x-1xf32>");
    // _pir_ops.einsum("i->i") on [[3,4]]
    case("i->i", &[&[3, 4]], "tensor<3xf32>");
    // _pir_ops.einsum("ij->j->i") on [[3,4]]
    case("ij->j->i", &[&[3, 4]], "tensor<4xf32>");
    // _pir_ops.einsum("i,i->i") on [[1],[-1]]
    case("i,i->i", &[&[1], &[-1]], "tensor<-1xf32>");
    // _pir_ops.einsum("ii->i") on [[1,4]]
    case("ii->i", &[&[1, 4]], "tensor<4xf32>");
    // _pir_ops.einsum("->") on [[]]
    case("->", &[&[]], "tensor<f32>");
    // _pir_ops.einsum("i,->i") on [[3],[]]
    case("i,->i", &[&[3], &[]], "tensor<3xf32>");
    // _pir_ops.einsum("ij->ij") on [[0,4]]
    case("ij->ij", &[&[0, 4]], "tensor<0x4xf32>");
}
