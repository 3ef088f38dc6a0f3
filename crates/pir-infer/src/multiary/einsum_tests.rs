//! `EinsumRawInferMeta` cases checked against Paddle 3.3.1: programs Paddle
//! built (its printed IR, trimmed to the op and its operands) and the result
//! types it printed.

use crate::testing::check;

/// Explicit equations: attention, matmul-like contractions, transposes.
#[test]
fn explicit() {
    // paddle.einsum("bhqk,bhkd->bqhd") on [[2,3,4,5],[2,3,5,6]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[2,3,4,5],stop_gradient:[true]} : () -> tensor<2x3x4x5xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[2,3,5,6],stop_gradient:[true]} : () -> tensor<2x3x5x6xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<2x3x4x5xf32>, tensor<2x3x5x6xf32>) -> vec[tensor<2x3x4x5xf32>,tensor<2x3x5x6xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"bhqk,bhkd->bqhd",stop_gradient:[true,true,true]} : (vec[tensor<2x3x4x5xf32>,tensor<2x3x5x6xf32>]) -> tensor<2x4x3x6xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<2x3x4x5xf32>,tensor<2x3x5x6xf32>]"#,
        &[
            "tensor<2x4x3x6xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<2x3x4x5xf32>,tensor<2x3x5x6xf32>]",
        ],
    );
    // paddle.einsum("bhqk,bhkd->bqhd") on [[-1,8,-1,-1],[-1,8,-1,64]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[-1,8,-1,-1],stop_gradient:[true]} : () -> tensor<-1x8x-1x-1xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[-1,8,-1,64],stop_gradient:[true]} : () -> tensor<-1x8x-1x64xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<-1x8x-1x-1xf32>, tensor<-1x8x-1x64xf32>) -> vec[tensor<-1x8x-1x-1xf32>,tensor<-1x8x-1x64xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"bhqk,bhkd->bqhd",stop_gradient:[true,true,true]} : (vec[tensor<-1x8x-1x-1xf32>,tensor<-1x8x-1x64xf32>]) -> tensor<-1x-1x8x64xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<-1x8x-1x-1xf32>,tensor<-1x8x-1x64xf32>]"#,
        &[
            "tensor<-1x-1x8x64xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<-1x8x-1x-1xf32>,tensor<-1x8x-1x64xf32>]",
        ],
    );
    // paddle.einsum("i,i->") on [[5],[5]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<5xf32>, tensor<5xf32>) -> vec[tensor<5xf32>,tensor<5xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"i,i->",stop_gradient:[true,true,true]} : (vec[tensor<5xf32>,tensor<5xf32>]) -> tensor<f32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<5xf32>,tensor<5xf32>]"#,
        &[
            "tensor<f32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<5xf32>,tensor<5xf32>]",
        ],
    );
    // paddle.einsum("bij,bjk->bik") on [[-1,3,4],[-1,4,5]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[-1,4,5],stop_gradient:[true]} : () -> tensor<-1x4x5xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<-1x3x4xf32>, tensor<-1x4x5xf32>) -> vec[tensor<-1x3x4xf32>,tensor<-1x4x5xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"bij,bjk->bik",stop_gradient:[true,true,true]} : (vec[tensor<-1x3x4xf32>,tensor<-1x4x5xf32>]) -> tensor<-1x3x5xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<-1x3x4xf32>,tensor<-1x4x5xf32>]"#,
        &[
            "tensor<-1x3x5xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<-1x3x4xf32>,tensor<-1x4x5xf32>]",
        ],
    );
    // paddle.einsum("bij,bjk->bik") on [[-1,-1,4],[2,4,-1]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[-1,-1,4],stop_gradient:[true]} : () -> tensor<-1x-1x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[2,4,-1],stop_gradient:[true]} : () -> tensor<2x4x-1xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<-1x-1x4xf32>, tensor<2x4x-1xf32>) -> vec[tensor<-1x-1x4xf32>,tensor<2x4x-1xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"bij,bjk->bik",stop_gradient:[true,true,true]} : (vec[tensor<-1x-1x4xf32>,tensor<2x4x-1xf32>]) -> tensor<2x-1x-1xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<-1x-1x4xf32>,tensor<2x4x-1xf32>]"#,
        &[
            "tensor<2x-1x-1xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<-1x-1x4xf32>,tensor<2x4x-1xf32>]",
        ],
    );
    // paddle.einsum("ij->ji") on [[3,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<3x4xf32>) -> vec[tensor<3x4xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"ij->ji",stop_gradient:[true,true,true]} : (vec[tensor<3x4xf32>]) -> tensor<4x3xf32>, vec[tensor<0xf32>], vec[tensor<3x4xf32>]"#,
        &[
            "tensor<4x3xf32>",
            "vec[tensor<0xf32>]",
            "vec[tensor<3x4xf32>]",
        ],
    );
    // paddle.einsum("ijk->ki") on [[2,3,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float64,name:"x0",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf64>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<2x3x4xf64>) -> vec[tensor<2x3x4xf64>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"ijk->ki",stop_gradient:[true,true,true]} : (vec[tensor<2x3x4xf64>]) -> tensor<4x2xf64>, vec[tensor<0xf32>], vec[tensor<2x3x4xf64>]"#,
        &[
            "tensor<4x2xf64>",
            "vec[tensor<0xf32>]",
            "vec[tensor<2x3x4xf64>]",
        ],
    );
    // paddle.einsum("i,j->ij") on [[3],[4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<3xf32>, tensor<4xf32>) -> vec[tensor<3xf32>,tensor<4xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"i,j->ij",stop_gradient:[true,true,true]} : (vec[tensor<3xf32>,tensor<4xf32>]) -> tensor<3x4xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<3xf32>,tensor<4xf32>]"#,
        &[
            "tensor<3x4xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<3xf32>,tensor<4xf32>]",
        ],
    );
    // paddle.einsum("ij,j->i") on [[3,4],[4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<4xf32>) -> vec[tensor<3x4xf32>,tensor<4xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"ij,j->i",stop_gradient:[true,true,true]} : (vec[tensor<3x4xf32>,tensor<4xf32>]) -> tensor<3xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<3x4xf32>,tensor<4xf32>]"#,
        &[
            "tensor<3xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<3x4xf32>,tensor<4xf32>]",
        ],
    );
    // paddle.einsum("bsd,btd->bst") on [[-1,5,8],[-1,5,8]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[-1,5,8],stop_gradient:[true]} : () -> tensor<-1x5x8xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[-1,5,8],stop_gradient:[true]} : () -> tensor<-1x5x8xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<-1x5x8xf32>, tensor<-1x5x8xf32>) -> vec[tensor<-1x5x8xf32>,tensor<-1x5x8xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"bsd,btd->bst",stop_gradient:[true,true,true]} : (vec[tensor<-1x5x8xf32>,tensor<-1x5x8xf32>]) -> tensor<-1x5x5xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<-1x5x8xf32>,tensor<-1x5x8xf32>]"#,
        &[
            "tensor<-1x5x5xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<-1x5x8xf32>,tensor<-1x5x8xf32>]",
        ],
    );
    // paddle.einsum("abc,cd->abd") on [[2,-1,4],[4,6]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[2,-1,4],stop_gradient:[true]} : () -> tensor<2x-1x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[4,6],stop_gradient:[true]} : () -> tensor<4x6xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<2x-1x4xf32>, tensor<4x6xf32>) -> vec[tensor<2x-1x4xf32>,tensor<4x6xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"abc,cd->abd",stop_gradient:[true,true,true]} : (vec[tensor<2x-1x4xf32>,tensor<4x6xf32>]) -> tensor<2x-1x6xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<2x-1x4xf32>,tensor<4x6xf32>]"#,
        &[
            "tensor<2x-1x6xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<2x-1x4xf32>,tensor<4x6xf32>]",
        ],
    );
    // paddle.einsum("ij,kj->ik") on [[3,4],[5,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[5,4],stop_gradient:[true]} : () -> tensor<5x4xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<5x4xf32>) -> vec[tensor<3x4xf32>,tensor<5x4xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"ij,kj->ik",stop_gradient:[true,true,true]} : (vec[tensor<3x4xf32>,tensor<5x4xf32>]) -> tensor<3x5xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<3x4xf32>,tensor<5x4xf32>]"#,
        &[
            "tensor<3x5xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<3x4xf32>,tensor<5x4xf32>]",
        ],
    );
    // paddle.einsum("i->i") on [[-1]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<-1xf32>) -> vec[tensor<-1xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"i->i",stop_gradient:[true,true,true]} : (vec[tensor<-1xf32>]) -> tensor<-1xf32>, vec[tensor<0xf32>], vec[tensor<-1xf32>]"#,
        &[
            "tensor<-1xf32>",
            "vec[tensor<0xf32>]",
            "vec[tensor<-1xf32>]",
        ],
    );
    // paddle.einsum("ijk,ikl->ijl") on [[2,3,4],[2,4,5]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float64,name:"x0",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf64>
(%1) = "pd_op.data" () {dtype:float64,name:"x1",place:Place(undefined:0),shape:[2,4,5],stop_gradient:[true]} : () -> tensor<2x4x5xf64>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<2x3x4xf64>, tensor<2x4x5xf64>) -> vec[tensor<2x3x4xf64>,tensor<2x4x5xf64>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"ijk,ikl->ijl",stop_gradient:[true,true,true]} : (vec[tensor<2x3x4xf64>,tensor<2x4x5xf64>]) -> tensor<2x3x5xf64>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<2x3x4xf64>,tensor<2x4x5xf64>]"#,
        &[
            "tensor<2x3x5xf64>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<2x3x4xf64>,tensor<2x4x5xf64>]",
        ],
    );
    // paddle.einsum("bhld,lrd->bhlr") on [[2,4,-1,8],[-1,-1,8]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[2,4,-1,8],stop_gradient:[true]} : () -> tensor<2x4x-1x8xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[-1,-1,8],stop_gradient:[true]} : () -> tensor<-1x-1x8xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<2x4x-1x8xf32>, tensor<-1x-1x8xf32>) -> vec[tensor<2x4x-1x8xf32>,tensor<-1x-1x8xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"bhld,lrd->bhlr",stop_gradient:[true,true,true]} : (vec[tensor<2x4x-1x8xf32>,tensor<-1x-1x8xf32>]) -> tensor<2x4x-1x-1xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<2x4x-1x8xf32>,tensor<-1x-1x8xf32>]"#,
        &[
            "tensor<2x4x-1x-1xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<2x4x-1x8xf32>,tensor<-1x-1x8xf32>]",
        ],
    );
    // paddle.einsum("bij,bkj->bik") on [[1,3,4],[6,5,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[1,3,4],stop_gradient:[true]} : () -> tensor<1x3x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[6,5,4],stop_gradient:[true]} : () -> tensor<6x5x4xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<1x3x4xf32>, tensor<6x5x4xf32>) -> vec[tensor<1x3x4xf32>,tensor<6x5x4xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"bij,bkj->bik",stop_gradient:[true,true,true]} : (vec[tensor<1x3x4xf32>,tensor<6x5x4xf32>]) -> tensor<6x3x5xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<1x3x4xf32>,tensor<6x5x4xf32>]"#,
        &[
            "tensor<6x3x5xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<1x3x4xf32>,tensor<6x5x4xf32>]",
        ],
    );
}

/// `...` as `paddle.einsum` rewrites it: unused letters, operands unsqueezed
/// to the same ellipsis rank.
#[test]
fn ellipsis() {
    // paddle.einsum("...ij,...jk->...ik") on [[2,3,4,5],[-1,3,5,6]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[2,3,4,5],stop_gradient:[true]} : () -> tensor<2x3x4x5xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[-1,3,5,6],stop_gradient:[true]} : () -> tensor<-1x3x5x6xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<2x3x4x5xf32>, tensor<-1x3x5x6xf32>) -> vec[tensor<2x3x4x5xf32>,tensor<-1x3x5x6xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"dyij,dyjk->dyik",stop_gradient:[true,true,true]} : (vec[tensor<2x3x4x5xf32>,tensor<-1x3x5x6xf32>]) -> tensor<2x3x4x6xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<2x3x4x5xf32>,tensor<-1x3x5x6xf32>]"#,
        &[
            "tensor<2x3x4x6xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<2x3x4x5xf32>,tensor<-1x3x5x6xf32>]",
        ],
    );
    // paddle.einsum("...ij,...jk->...ik") on [[4,5],[2,3,5,6]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[1,1,4,5],stop_gradient:[true]} : () -> tensor<1x1x4x5xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[2,3,5,6],stop_gradient:[true]} : () -> tensor<2x3x5x6xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<1x1x4x5xf32>, tensor<2x3x5x6xf32>) -> vec[tensor<1x1x4x5xf32>,tensor<2x3x5x6xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"dyij,dyjk->dyik",stop_gradient:[true,true,true]} : (vec[tensor<1x1x4x5xf32>,tensor<2x3x5x6xf32>]) -> tensor<2x3x4x6xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<1x1x4x5xf32>,tensor<2x3x5x6xf32>]"#,
        &[
            "tensor<2x3x4x6xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<1x1x4x5xf32>,tensor<2x3x5x6xf32>]",
        ],
    );
    // paddle.einsum("...ij,...jk->...ik") on [[2,1,4,5],[3,5,6]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[2,1,4,5],stop_gradient:[true]} : () -> tensor<2x1x4x5xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[1,3,5,6],stop_gradient:[true]} : () -> tensor<1x3x5x6xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<2x1x4x5xf32>, tensor<1x3x5x6xf32>) -> vec[tensor<2x1x4x5xf32>,tensor<1x3x5x6xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"dyij,dyjk->dyik",stop_gradient:[true,true,true]} : (vec[tensor<2x1x4x5xf32>,tensor<1x3x5x6xf32>]) -> tensor<2x3x4x6xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<2x1x4x5xf32>,tensor<1x3x5x6xf32>]"#,
        &[
            "tensor<2x3x4x6xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<2x1x4x5xf32>,tensor<1x3x5x6xf32>]",
        ],
    );
    // paddle.einsum("...i->...") on [[2,3,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<2x3x4xf32>) -> vec[tensor<2x3x4xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"dyi->dy",stop_gradient:[true,true,true]} : (vec[tensor<2x3x4xf32>]) -> tensor<2x3xf32>, vec[tensor<0xf32>], vec[tensor<2x3x4xf32>]"#,
        &[
            "tensor<2x3xf32>",
            "vec[tensor<0xf32>]",
            "vec[tensor<2x3x4xf32>]",
        ],
    );
    // paddle.einsum("...ii->...i") on [[2,3,3]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[2,3,3],stop_gradient:[true]} : () -> tensor<2x3x3xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<2x3x3xf32>) -> vec[tensor<2x3x3xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"dii->di",stop_gradient:[true,true,true]} : (vec[tensor<2x3x3xf32>]) -> tensor<2x3xf32>, vec[tensor<0xf32>], vec[tensor<2x3x3xf32>]"#,
        &[
            "tensor<2x3xf32>",
            "vec[tensor<0xf32>]",
            "vec[tensor<2x3x3xf32>]",
        ],
    );
    // paddle.einsum("i...,j...->ij...") on [[2,3,4],[5,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[5,1,4],stop_gradient:[true]} : () -> tensor<5x1x4xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<2x3x4xf32>, tensor<5x1x4xf32>) -> vec[tensor<2x3x4xf32>,tensor<5x1x4xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"idy,jdy->ijdy",stop_gradient:[true,true,true]} : (vec[tensor<2x3x4xf32>,tensor<5x1x4xf32>]) -> tensor<2x5x3x4xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<2x3x4xf32>,tensor<5x1x4xf32>]"#,
        &[
            "tensor<2x5x3x4xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<2x3x4xf32>,tensor<5x1x4xf32>]",
        ],
    );
    // paddle.einsum("...,...->...") on [[],[3]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<1xf32>, tensor<3xf32>) -> vec[tensor<1xf32>,tensor<3xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"d,d->d",stop_gradient:[true,true,true]} : (vec[tensor<1xf32>,tensor<3xf32>]) -> tensor<3xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<1xf32>,tensor<3xf32>]"#,
        &[
            "tensor<3xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<1xf32>,tensor<3xf32>]",
        ],
    );
}

/// Implicit outputs: `paddle.einsum` appends `->` and the labels used once.
#[test]
fn implicit() {
    // paddle.einsum("ij,jk") on [[3,4],[4,5]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[4,5],stop_gradient:[true]} : () -> tensor<4x5xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<4x5xf32>) -> vec[tensor<3x4xf32>,tensor<4x5xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"ij,jk->ik",stop_gradient:[true,true,true]} : (vec[tensor<3x4xf32>,tensor<4x5xf32>]) -> tensor<3x5xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<3x4xf32>,tensor<4x5xf32>]"#,
        &[
            "tensor<3x5xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<3x4xf32>,tensor<4x5xf32>]",
        ],
    );
    // paddle.einsum("ij") on [[3,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<3x4xf32>) -> vec[tensor<3x4xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"ij->ij",stop_gradient:[true,true,true]} : (vec[tensor<3x4xf32>]) -> tensor<3x4xf32>, vec[tensor<0xf32>], vec[tensor<3x4xf32>]"#,
        &[
            "tensor<3x4xf32>",
            "vec[tensor<0xf32>]",
            "vec[tensor<3x4xf32>]",
        ],
    );
    // paddle.einsum("ji") on [[3,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<3x4xf32>) -> vec[tensor<3x4xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"ji->ij",stop_gradient:[true,true,true]} : (vec[tensor<3x4xf32>]) -> tensor<4x3xf32>, vec[tensor<0xf32>], vec[tensor<3x4xf32>]"#,
        &[
            "tensor<4x3xf32>",
            "vec[tensor<0xf32>]",
            "vec[tensor<3x4xf32>]",
        ],
    );
    // paddle.einsum("ii") on [[4,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[4,4],stop_gradient:[true]} : () -> tensor<4x4xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<4x4xf32>) -> vec[tensor<4x4xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"ii->",stop_gradient:[true,true,true]} : (vec[tensor<4x4xf32>]) -> tensor<f32>, vec[tensor<0xf32>], vec[tensor<4x4xf32>]"#,
        &["tensor<f32>", "vec[tensor<0xf32>]", "vec[tensor<4x4xf32>]"],
    );
    // paddle.einsum("i,i") on [[5],[5]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<5xf32>, tensor<5xf32>) -> vec[tensor<5xf32>,tensor<5xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"i,i->",stop_gradient:[true,true,true]} : (vec[tensor<5xf32>,tensor<5xf32>]) -> tensor<f32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<5xf32>,tensor<5xf32>]"#,
        &[
            "tensor<f32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<5xf32>,tensor<5xf32>]",
        ],
    );
}

/// Repeated letters (diagonals) and sums.
#[test]
fn diagonal_and_sums() {
    // paddle.einsum("ii->i") on [[3,3]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3,3],stop_gradient:[true]} : () -> tensor<3x3xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<3x3xf32>) -> vec[tensor<3x3xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"ii->i",stop_gradient:[true,true,true]} : (vec[tensor<3x3xf32>]) -> tensor<3xf32>, vec[tensor<0xf32>], vec[tensor<3x3xf32>]"#,
        &[
            "tensor<3xf32>",
            "vec[tensor<0xf32>]",
            "vec[tensor<3x3xf32>]",
        ],
    );
    // paddle.einsum("ii->i") on [[-1,3]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<-1x3xf32>) -> vec[tensor<-1x3xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"ii->i",stop_gradient:[true,true,true]} : (vec[tensor<-1x3xf32>]) -> tensor<3xf32>, vec[tensor<0xf32>], vec[tensor<-1x3xf32>]"#,
        &[
            "tensor<3xf32>",
            "vec[tensor<0xf32>]",
            "vec[tensor<-1x3xf32>]",
        ],
    );
    // paddle.einsum("ij->") on [[3,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<3x4xf32>) -> vec[tensor<3x4xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"ij->",stop_gradient:[true,true,true]} : (vec[tensor<3x4xf32>]) -> tensor<f32>, vec[tensor<0xf32>], vec[tensor<3x4xf32>]"#,
        &["tensor<f32>", "vec[tensor<0xf32>]", "vec[tensor<3x4xf32>]"],
    );
    // paddle.einsum("i,i->") on [[-1],[5]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<-1xf32>, tensor<5xf32>) -> vec[tensor<-1xf32>,tensor<5xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"i,i->",stop_gradient:[true,true,true]} : (vec[tensor<-1xf32>,tensor<5xf32>]) -> tensor<f32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<-1xf32>,tensor<5xf32>]"#,
        &[
            "tensor<f32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<-1xf32>,tensor<5xf32>]",
        ],
    );
    // paddle.einsum("iij->j") on [[3,3,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3,3,4],stop_gradient:[true]} : () -> tensor<3x3x4xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<3x3x4xf32>) -> vec[tensor<3x3x4xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"iij->j",stop_gradient:[true,true,true]} : (vec[tensor<3x3x4xf32>]) -> tensor<4xf32>, vec[tensor<0xf32>], vec[tensor<3x3x4xf32>]"#,
        &[
            "tensor<4xf32>",
            "vec[tensor<0xf32>]",
            "vec[tensor<3x3x4xf32>]",
        ],
    );
}

/// Extent-1 broadcasting and unknown (`-1`) or zero extents.
#[test]
fn broadcast_and_dynamic() {
    // paddle.einsum("ij,ij->ij") on [[1,4],[3,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[1,4],stop_gradient:[true]} : () -> tensor<1x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<1x4xf32>, tensor<3x4xf32>) -> vec[tensor<1x4xf32>,tensor<3x4xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"ij,ij->ij",stop_gradient:[true,true,true]} : (vec[tensor<1x4xf32>,tensor<3x4xf32>]) -> tensor<3x4xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<1x4xf32>,tensor<3x4xf32>]"#,
        &[
            "tensor<3x4xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<1x4xf32>,tensor<3x4xf32>]",
        ],
    );
    // paddle.einsum("ij,ij->ij") on [[3,1],[3,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3,1],stop_gradient:[true]} : () -> tensor<3x1xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<3x1xf32>, tensor<3x4xf32>) -> vec[tensor<3x1xf32>,tensor<3x4xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"ij,ij->ij",stop_gradient:[true,true,true]} : (vec[tensor<3x1xf32>,tensor<3x4xf32>]) -> tensor<3x4xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<3x1xf32>,tensor<3x4xf32>]"#,
        &[
            "tensor<3x4xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<3x1xf32>,tensor<3x4xf32>]",
        ],
    );
    // paddle.einsum("ij,ij->ij") on [[-1,4],[1,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[1,4],stop_gradient:[true]} : () -> tensor<1x4xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<1x4xf32>) -> vec[tensor<-1x4xf32>,tensor<1x4xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"ij,ij->ij",stop_gradient:[true,true,true]} : (vec[tensor<-1x4xf32>,tensor<1x4xf32>]) -> tensor<1x4xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<-1x4xf32>,tensor<1x4xf32>]"#,
        &[
            "tensor<1x4xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<-1x4xf32>,tensor<1x4xf32>]",
        ],
    );
    // paddle.einsum("ij,ij->i") on [[-1,4],[1,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[1,4],stop_gradient:[true]} : () -> tensor<1x4xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<1x4xf32>) -> vec[tensor<-1x4xf32>,tensor<1x4xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"ij,ij->i",stop_gradient:[true,true,true]} : (vec[tensor<-1x4xf32>,tensor<1x4xf32>]) -> tensor<1xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<-1x4xf32>,tensor<1x4xf32>]"#,
        &[
            "tensor<1xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<-1x4xf32>,tensor<1x4xf32>]",
        ],
    );
    // paddle.einsum("ij,jk->ik") on [[3,0],[0,5]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3,0],stop_gradient:[true]} : () -> tensor<3x0xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[0,5],stop_gradient:[true]} : () -> tensor<0x5xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<3x0xf32>, tensor<0x5xf32>) -> vec[tensor<3x0xf32>,tensor<0x5xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"ij,jk->ik",stop_gradient:[true,true,true]} : (vec[tensor<3x0xf32>,tensor<0x5xf32>]) -> tensor<3x5xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<3x0xf32>,tensor<0x5xf32>]"#,
        &[
            "tensor<3x5xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<3x0xf32>,tensor<0x5xf32>]",
        ],
    );
}

/// Equations given to the op as they are (`paddle._pir_ops.einsum`): an
/// output label no operand has is `-1`, labels short of the rank read the
/// leading dims, a second `->` is ignored, an empty label string is a 0-d operand.
#[test]
fn raw_equations() {
    // _pir_ops.einsum("ij->ik") on [[3,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<3x4xf32>) -> vec[tensor<3x4xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"ij->ik",stop_gradient:[true,true,true]} : (vec[tensor<3x4xf32>]) -> tensor<3x-1xf32>, vec[tensor<0xf32>], vec[tensor<3x4xf32>]"#,
        &[
            "tensor<3x-1xf32>",
            "vec[tensor<0xf32>]",
            "vec[tensor<3x4xf32>]",
        ],
    );
    // _pir_ops.einsum("i->i") on [[3,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<3x4xf32>) -> vec[tensor<3x4xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"i->i",stop_gradient:[true,true,true]} : (vec[tensor<3x4xf32>]) -> tensor<3xf32>, vec[tensor<0xf32>], vec[tensor<3x4xf32>]"#,
        &[
            "tensor<3xf32>",
            "vec[tensor<0xf32>]",
            "vec[tensor<3x4xf32>]",
        ],
    );
    // _pir_ops.einsum("ij->j->i") on [[3,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<3x4xf32>) -> vec[tensor<3x4xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"ij->j->i",stop_gradient:[true,true,true]} : (vec[tensor<3x4xf32>]) -> tensor<4xf32>, vec[tensor<0xf32>], vec[tensor<3x4xf32>]"#,
        &[
            "tensor<4xf32>",
            "vec[tensor<0xf32>]",
            "vec[tensor<3x4xf32>]",
        ],
    );
    // _pir_ops.einsum("i,i->i") on [[1],[-1]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<1xf32>, tensor<-1xf32>) -> vec[tensor<1xf32>,tensor<-1xf32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"i,i->i",stop_gradient:[true,true,true]} : (vec[tensor<1xf32>,tensor<-1xf32>]) -> tensor<-1xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<1xf32>,tensor<-1xf32>]"#,
        &[
            "tensor<-1xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<1xf32>,tensor<-1xf32>]",
        ],
    );
    // _pir_ops.einsum("ii->i") on [[1,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[1,4],stop_gradient:[true]} : () -> tensor<1x4xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<1x4xf32>) -> vec[tensor<1x4xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"ii->i",stop_gradient:[true,true,true]} : (vec[tensor<1x4xf32>]) -> tensor<4xf32>, vec[tensor<0xf32>], vec[tensor<1x4xf32>]"#,
        &[
            "tensor<4xf32>",
            "vec[tensor<0xf32>]",
            "vec[tensor<1x4xf32>]",
        ],
    );
    // _pir_ops.einsum("->") on [[]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<f32>) -> vec[tensor<f32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"->",stop_gradient:[true,true,true]} : (vec[tensor<f32>]) -> tensor<f32>, vec[tensor<0xf32>], vec[tensor<f32>]"#,
        &["tensor<f32>", "vec[tensor<0xf32>]", "vec[tensor<f32>]"],
    );
    // _pir_ops.einsum("i,->i") on [[3],[]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"x1",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%2) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<3xf32>, tensor<f32>) -> vec[tensor<3xf32>,tensor<f32>]
(%3, %4, %5) = "pd_op.einsum" (%2) {equation:"i,->i",stop_gradient:[true,true,true]} : (vec[tensor<3xf32>,tensor<f32>]) -> tensor<3xf32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<3xf32>,tensor<f32>]"#,
        &[
            "tensor<3xf32>",
            "vec[tensor<0xf32>,tensor<0xf32>]",
            "vec[tensor<3xf32>,tensor<f32>]",
        ],
    );
    // _pir_ops.einsum("ij->ij") on [[0,4]]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x0",place:Place(undefined:0),shape:[0,4],stop_gradient:[true]} : () -> tensor<0x4xf32>
(%1) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<0x4xf32>) -> vec[tensor<0x4xf32>]
(%2, %3, %4) = "pd_op.einsum" (%1) {equation:"ij->ij",stop_gradient:[true,true,true]} : (vec[tensor<0x4xf32>]) -> tensor<0x4xf32>, vec[tensor<0xf32>], vec[tensor<0x4xf32>]"#,
        &[
            "tensor<0x4xf32>",
            "vec[tensor<0xf32>]",
            "vec[tensor<0x4xf32>]",
        ],
    );
}
