//! `DecodeJpegInferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::check;

/// `DecodeJpegInferMeta`: channels by mode; an unknown mode leaves the dims empty.
#[test]
fn decode_jpeg() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:uint8,name:"v1",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xu8>
(%59) = "pd_op.decode_jpeg" (%0) {mode:"unchanged",place:Place(cpu),stop_gradient:[true]} : (tensor<-1xu8>) -> tensor<-1x-1x-1xu8>"#,
        &["tensor<-1x-1x-1xu8>"],
    );
    check(
        r#"(%1) = "pd_op.data" () {dtype:uint8,name:"v2",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xu8>
(%60) = "pd_op.decode_jpeg" (%1) {mode:"gray",place:Place(cpu),stop_gradient:[true]} : (tensor<-1xu8>) -> tensor<1x-1x-1xu8>"#,
        &["tensor<1x-1x-1xu8>"],
    );
    check(
        r#"(%2) = "pd_op.data" () {dtype:uint8,name:"v3",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xu8>
(%61) = "pd_op.decode_jpeg" (%2) {mode:"rgb",place:Place(cpu),stop_gradient:[true]} : (tensor<-1xu8>) -> tensor<3x-1x-1xu8>"#,
        &["tensor<3x-1x-1xu8>"],
    );
    check(
        r#"(%3) = "pd_op.data" () {dtype:uint8,name:"v4",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xu8>
(%62) = "pd_op.decode_jpeg" (%3) {mode:"bogus",place:Place(cpu),stop_gradient:[true]} : (tensor<-1xu8>) -> tensor<u8>"#,
        &["tensor<u8>"],
    );
}
