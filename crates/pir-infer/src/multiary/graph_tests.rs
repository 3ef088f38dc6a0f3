//! The graph sampling functions' cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::check;
use crate::testing::{program, refusal};

/// `GraphKhopSamplerInferMeta`.
#[test]
fn graph_khop_sampler() {
    check(
        r#"(%48) = "pd_op.data" () {dtype:int64,name:"v64",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%49) = "pd_op.data" () {dtype:int64,name:"v65",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%50) = "pd_op.data" () {dtype:int64,name:"v66",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xi64>
(%144, %145, %146, %147, %148) = "pd_op.graph_khop_sampler" (%48, %49, %50, <<NULL VALUE>>) {return_eids:false,sample_sizes:[2,3],stop_gradient:[true,true,true,true,true]} : (tensor<-1xi64>, tensor<-1xi64>, tensor<5xi64>, <<NULL TYPE>>) -> tensor<-1x1xi64>, tensor<-1x1xi64>, tensor<-1xi32>, tensor<5xi64>, tensor<0xf32>"#,
        &[
            "tensor<-1x1xi64>",
            "tensor<-1x1xi64>",
            "tensor<-1xi32>",
            "tensor<5xi64>",
            "tensor<0xf32>",
        ],
    );
    check(
        r#"(%51) = "pd_op.data" () {dtype:int32,name:"v67",place:Place(undefined:0),shape:[20,1],stop_gradient:[true]} : () -> tensor<20x1xi32>
(%52) = "pd_op.data" () {dtype:int32,name:"v68",place:Place(undefined:0),shape:[11],stop_gradient:[true]} : () -> tensor<11xi32>
(%53) = "pd_op.data" () {dtype:int32,name:"v69",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi32>
(%54) = "pd_op.data" () {dtype:int32,name:"v70",place:Place(undefined:0),shape:[20],stop_gradient:[true]} : () -> tensor<20xi32>
(%149, %150, %151, %152, %153) = "pd_op.graph_khop_sampler" (%51, %52, %53, %54) {return_eids:true,sample_sizes:[4],stop_gradient:[true,true,true,true,true]} : (tensor<20x1xi32>, tensor<11xi32>, tensor<-1x1xi32>, tensor<20xi32>) -> tensor<-1x1xi32>, tensor<-1x1xi32>, tensor<-1xi32>, tensor<-1x1xi32>, tensor<-1xi32>"#,
        &[
            "tensor<-1x1xi32>",
            "tensor<-1x1xi32>",
            "tensor<-1xi32>",
            "tensor<-1x1xi32>",
            "tensor<-1xi32>",
        ],
    );
}

/// `GraphReindexInferMeta`.
#[test]
fn graph_reindex() {
    check(
        r#"(%55) = "pd_op.data" () {dtype:int64,name:"v71",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi64>
(%56) = "pd_op.data" () {dtype:int64,name:"v72",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%57) = "pd_op.data" () {dtype:int32,name:"v73",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi32>
(%154, %155, %156) = "pd_op.reindex_graph" (%55, %56, %57, <<NULL VALUE>>, <<NULL VALUE>>) {stop_gradient:[true,true,true]} : (tensor<4xi64>, tensor<-1xi64>, tensor<4xi32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<-1xi64>, tensor<-1xi64>, tensor<-1xi64>"#,
        &["tensor<-1xi64>", "tensor<-1xi64>", "tensor<-1xi64>"],
    );
    check(
        r#"(%58) = "pd_op.data" () {dtype:int32,name:"v74",place:Place(undefined:0),shape:[4,1],stop_gradient:[true]} : () -> tensor<4x1xi32>
(%59) = "pd_op.data" () {dtype:int32,name:"v75",place:Place(undefined:0),shape:[9],stop_gradient:[true]} : () -> tensor<9xi32>
(%60) = "pd_op.data" () {dtype:int32,name:"v76",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi32>
(%61) = "pd_op.data" () {dtype:int32,name:"v77",place:Place(undefined:0),shape:[10],stop_gradient:[true]} : () -> tensor<10xi32>
(%62) = "pd_op.data" () {dtype:int32,name:"v78",place:Place(undefined:0),shape:[10],stop_gradient:[true]} : () -> tensor<10xi32>
(%157, %158, %159) = "pd_op.reindex_graph" (%58, %59, %60, %61, %62) {stop_gradient:[true,true,true]} : (tensor<4x1xi32>, tensor<9xi32>, tensor<4xi32>, tensor<10xi32>, tensor<10xi32>) -> tensor<-1xi32>, tensor<-1xi32>, tensor<-1xi32>"#,
        &["tensor<-1xi32>", "tensor<-1xi32>", "tensor<-1xi32>"],
    );
}

/// `GraphSampleNeighborsInferMeta`.
#[test]
fn graph_sample_neighbors() {
    check(
        r#"(%63) = "pd_op.data" () {dtype:int64,name:"v79",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%64) = "pd_op.data" () {dtype:int64,name:"v80",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%65) = "pd_op.data" () {dtype:int64,name:"v81",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xi64>
(%160, %161, %162) = "pd_op.graph_sample_neighbors" (%63, %64, %65, <<NULL VALUE>>, <<NULL VALUE>>) {flag_perm_buffer:false,return_eids:false,sample_size:3,stop_gradient:[true,true,true]} : (tensor<-1xi64>, tensor<-1xi64>, tensor<5xi64>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<-1xi64>, tensor<-1xi32>, tensor<0xf32>"#,
        &["tensor<-1xi64>", "tensor<-1xi32>", "tensor<0xf32>"],
    );
    check(
        r#"(%66) = "pd_op.data" () {dtype:int32,name:"v82",place:Place(undefined:0),shape:[20],stop_gradient:[true]} : () -> tensor<20xi32>
(%67) = "pd_op.data" () {dtype:int32,name:"v83",place:Place(undefined:0),shape:[11],stop_gradient:[true]} : () -> tensor<11xi32>
(%68) = "pd_op.data" () {dtype:int32,name:"v84",place:Place(undefined:0),shape:[5,1],stop_gradient:[true]} : () -> tensor<5x1xi32>
(%69) = "pd_op.data" () {dtype:int32,name:"v85",place:Place(undefined:0),shape:[20],stop_gradient:[true]} : () -> tensor<20xi32>
(%70) = "pd_op.data" () {dtype:int32,name:"v86",place:Place(undefined:0),shape:[20],stop_gradient:[true]} : () -> tensor<20xi32>
(%163, %164, %165) = "pd_op.graph_sample_neighbors" (%66, %67, %68, %69, %70) {flag_perm_buffer:true,return_eids:true,sample_size:-1,stop_gradient:[true,true,true]} : (tensor<20xi32>, tensor<11xi32>, tensor<5x1xi32>, tensor<20xi32>, tensor<20xi32>) -> tensor<-1xi32>, tensor<-1xi32>, tensor<-1xi32>"#,
        &["tensor<-1xi32>", "tensor<-1xi32>", "tensor<-1xi32>"],
    );
}

/// Paddle's refusals: ids of another shape than `[n]` or `[n, 1]`; no
/// sample sizes.
#[test]
fn graph_khop_sampler_refusals() {
    let e = refusal(&program(
        "pd_op.graph_khop_sampler",
        &[
            Some(("int64", "i64", &[3, 2])),
            Some(("int64", "i64", &[-1])),
            Some(("int64", "i64", &[5])),
            None,
        ],
        "return_eids:false,sample_sizes:[2,3]",
        5,
    ));
    assert!(
        e.contains("The last dim of row should be 1 when it is 2D, but we get 2"),
        "{e}"
    );
    let e = refusal(&program(
        "pd_op.graph_khop_sampler",
        &[
            Some(("int64", "i64", &[3])),
            Some(("int64", "i64", &[-1])),
            Some(("int64", "i64", &[5])),
            None,
        ],
        "return_eids:false,sample_sizes:[]",
        5,
    ));
    assert!(
        e.contains("The parameter 'sample_sizes' in GraphSampleOp must be set."),
        "{e}"
    );
}

/// `WeightedSampleNeighborsInferMeta`.
#[test]
fn weighted_sample_neighbors() {
    check(
        r#"(%28) = "pd_op.data" () {dtype:int64,name:"v29",place:Place(undefined:0),shape:[20],stop_gradient:[true]} : () -> tensor<20xi64>
(%29) = "pd_op.data" () {dtype:int64,name:"v30",place:Place(undefined:0),shape:[11],stop_gradient:[true]} : () -> tensor<11xi64>
(%30) = "pd_op.data" () {dtype:float32,name:"v31",place:Place(undefined:0),shape:[20],stop_gradient:[true]} : () -> tensor<20xf32>
(%31) = "pd_op.data" () {dtype:int64,name:"v32",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xi64>
(%92, %93, %94) = "pd_op.weighted_sample_neighbors" (%28, %29, %30, %31, <<NULL VALUE>>) {return_eids:false,sample_size:3,stop_gradient:[true,true,true]} : (tensor<20xi64>, tensor<11xi64>, tensor<20xf32>, tensor<5xi64>, <<NULL TYPE>>) -> tensor<-1xi64>, tensor<-1xi32>, tensor<0xf32>"#,
        &["tensor<-1xi64>", "tensor<-1xi32>", "tensor<0xf32>"],
    );
    check(
        r#"(%32) = "pd_op.data" () {dtype:int32,name:"v33",place:Place(undefined:0),shape:[20,1],stop_gradient:[true]} : () -> tensor<20x1xi32>
(%33) = "pd_op.data" () {dtype:int32,name:"v34",place:Place(undefined:0),shape:[11],stop_gradient:[true]} : () -> tensor<11xi32>
(%34) = "pd_op.data" () {dtype:float32,name:"v35",place:Place(undefined:0),shape:[20,1],stop_gradient:[true]} : () -> tensor<20x1xf32>
(%35) = "pd_op.data" () {dtype:int32,name:"v36",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%36) = "pd_op.data" () {dtype:int32,name:"v37",place:Place(undefined:0),shape:[20],stop_gradient:[true]} : () -> tensor<20xi32>
(%95, %96, %97) = "pd_op.weighted_sample_neighbors" (%32, %33, %34, %35, %36) {return_eids:true,sample_size:-1,stop_gradient:[true,true,true]} : (tensor<20x1xi32>, tensor<11xi32>, tensor<20x1xf32>, tensor<-1xi32>, tensor<20xi32>) -> tensor<-1xi32>, tensor<-1xi32>, tensor<-1xi32>"#,
        &["tensor<-1xi32>", "tensor<-1xi32>", "tensor<-1xi32>"],
    );
}
