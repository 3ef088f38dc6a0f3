//! `StftInferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::check;
use crate::testing::{program, refusal};

/// `StftInferMeta`: `[N, bins, frames]`, complex.
#[test]
fn stft() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[2,1000],stop_gradient:[true]} : () -> tensor<2x1000xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[64],stop_gradient:[true]} : () -> tensor<64xf32>
(%44) = "pd_op.stft" (%0, %1) {hop_length:16,n_fft:64,normalized:false,onesided:true,stop_gradient:[true]} : (tensor<2x1000xf32>, tensor<64xf32>) -> tensor<2x33x59xc64>"#,
        &["tensor<2x33x59xc64>"],
    );
    check(
        r#"(%2) = "pd_op.data" () {dtype:float64,name:"v3",place:Place(undefined:0),shape:[-1,512],stop_gradient:[true]} : () -> tensor<-1x512xf64>
(%3) = "pd_op.data" () {dtype:float64,name:"v4",place:Place(undefined:0),shape:[128],stop_gradient:[true]} : () -> tensor<128xf64>
(%45) = "pd_op.stft" (%2, %3) {hop_length:32,n_fft:128,normalized:true,onesided:false,stop_gradient:[true]} : (tensor<-1x512xf64>, tensor<128xf64>) -> tensor<-1x128x13xc128>"#,
        &["tensor<-1x128x13xc128>"],
    );
}

/// Paddle's refusals of `stft`.
#[test]
fn stft_refusals() {
    let attrs = |hop: i64| format!("hop_length:{hop},n_fft:64,normalized:false,onesided:true");
    let e = refusal(&program(
        "pd_op.stft",
        &[
            Some(("float32", "f32", &[2, 3, 100])),
            Some(("float32", "f32", &[64])),
        ],
        &attrs(16),
        1,
    ));
    assert!(
        e.contains("Input(X) of StftOp should be a tensor with shape [N, T], but got rank 3."),
        "{e}"
    );
    let e = refusal(&program(
        "pd_op.stft",
        &[
            Some(("float32", "f32", &[2, 100])),
            Some(("float32", "f32", &[64])),
        ],
        &attrs(0),
        1,
    ));
    assert!(
        e.contains("Attribute(hop_length) should be greater than 0, but got 0."),
        "{e}"
    );
    let e = refusal(&program(
        "pd_op.stft",
        &[
            Some(("float32", "f32", &[2, 100])),
            Some(("float32", "f32", &[32])),
        ],
        &attrs(16),
        1,
    ));
    assert!(
        e.contains("Input(Window) of StftOp should be equal with n_fft 64, but got 32."),
        "{e}"
    );
    let e = refusal(&program(
        "pd_op.stft",
        &[
            Some(("float32", "f32", &[2, 50])),
            Some(("float32", "f32", &[64])),
        ],
        &attrs(16),
        1,
    ));
    assert!(e.contains("Attribute(frame_length) should be less equal than sequence length, but got (64) > (50)."), "{e}");
}
