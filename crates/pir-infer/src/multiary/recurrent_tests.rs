//! `GruInferMeta` and `GruUnitInferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::check;
use crate::testing::{program, refusal};

/// `GruInferMeta`: `hidden` `[T, frame]`; batch outputs only when training.
#[test]
fn gru() {
    check(
        r#"(%32) = "pd_op.data" () {dtype:float32,name:"v48",place:Place(undefined:0),shape:[-1,24],stop_gradient:[true]} : () -> tensor<-1x24xf32>
(%33) = "pd_op.data" () {dtype:float32,name:"v49",place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>
(%34) = "pd_op.data" () {dtype:float32,name:"v50",place:Place(undefined:0),shape:[8,24],stop_gradient:[true]} : () -> tensor<8x24xf32>
(%35) = "pd_op.data" () {dtype:float32,name:"v51",place:Place(undefined:0),shape:[1,24],stop_gradient:[true]} : () -> tensor<1x24xf32>
(%126, %127, %128, %129) = "pd_op.gru" (%32, %33, %34, %35) {activation:"tanh",gate_activation:"sigmoid",is_reverse:false,is_test:false,origin_mode:false,stop_gradient:[true,true,true,true]} : (tensor<-1x24xf32>, tensor<2x8xf32>, tensor<8x24xf32>, tensor<1x24xf32>) -> tensor<-1x24xf32>, tensor<-1x8xf32>, tensor<-1x8xf32>, tensor<-1x8xf32>"#,
        &[
            "tensor<-1x24xf32>",
            "tensor<-1x8xf32>",
            "tensor<-1x8xf32>",
            "tensor<-1x8xf32>",
        ],
    );
    check(
        r#"(%36) = "pd_op.data" () {dtype:float64,name:"v52",place:Place(undefined:0),shape:[10,12],stop_gradient:[true]} : () -> tensor<10x12xf64>
(%37) = "pd_op.data" () {dtype:float64,name:"v53",place:Place(undefined:0),shape:[4,12],stop_gradient:[true]} : () -> tensor<4x12xf64>
(%130, %131, %132, %133) = "pd_op.gru" (%36, <<NULL VALUE>>, %37, <<NULL VALUE>>) {activation:"tanh",gate_activation:"sigmoid",is_reverse:false,is_test:true,origin_mode:false,stop_gradient:[true,true,true,true]} : (tensor<10x12xf64>, <<NULL TYPE>>, tensor<4x12xf64>, <<NULL TYPE>>) -> tensor<0xf32>, tensor<0xf32>, tensor<0xf32>, tensor<10x4xf64>"#,
        &[
            "tensor<0xf32>",
            "tensor<0xf32>",
            "tensor<0xf32>",
            "tensor<10x4xf64>",
        ],
    );
    check(
        r#"(%38) = "pd_op.data" () {dtype:float32,name:"v54",place:Place(undefined:0),shape:[6,15],stop_gradient:[true]} : () -> tensor<6x15xf32>
(%39) = "pd_op.data" () {dtype:float32,name:"v55",place:Place(undefined:0),shape:[5,15],stop_gradient:[true]} : () -> tensor<5x15xf32>
(%40) = "pd_op.data" () {dtype:float32,name:"v56",place:Place(undefined:0),shape:[1,15],stop_gradient:[true]} : () -> tensor<1x15xf32>
(%134, %135, %136, %137) = "pd_op.gru" (%38, <<NULL VALUE>>, %39, %40) {activation:"tanh",gate_activation:"sigmoid",is_reverse:false,is_test:false,origin_mode:false,stop_gradient:[true,true,true,true]} : (tensor<6x15xf32>, <<NULL TYPE>>, tensor<5x15xf32>, tensor<1x15xf32>) -> tensor<6x15xf32>, tensor<6x5xf32>, tensor<6x5xf32>, tensor<6x5xf32>"#,
        &[
            "tensor<6x15xf32>",
            "tensor<6x5xf32>",
            "tensor<6x5xf32>",
            "tensor<6x5xf32>",
        ],
    );
}

/// `GruUnitInferMeta`: `[B, 3 * frame]` and `[B, frame]`.
#[test]
fn gru_unit() {
    check(
        r#"(%41) = "pd_op.data" () {dtype:float32,name:"v57",place:Place(undefined:0),shape:[-1,24],stop_gradient:[true]} : () -> tensor<-1x24xf32>
(%42) = "pd_op.data" () {dtype:float32,name:"v58",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>
(%43) = "pd_op.data" () {dtype:float32,name:"v59",place:Place(undefined:0),shape:[8,24],stop_gradient:[true]} : () -> tensor<8x24xf32>
(%44) = "pd_op.data" () {dtype:float32,name:"v60",place:Place(undefined:0),shape:[1,24],stop_gradient:[true]} : () -> tensor<1x24xf32>
(%138, %139, %140) = "pd_op.gru_unit" (%41, %42, %43, %44) {activation:2,gate_activation:1,origin_mode:false,stop_gradient:[true,true,true]} : (tensor<-1x24xf32>, tensor<-1x8xf32>, tensor<8x24xf32>, tensor<1x24xf32>) -> tensor<-1x24xf32>, tensor<-1x8xf32>, tensor<-1x8xf32>"#,
        &["tensor<-1x24xf32>", "tensor<-1x8xf32>", "tensor<-1x8xf32>"],
    );
    check(
        r#"(%45) = "pd_op.data" () {dtype:float32,name:"v61",place:Place(undefined:0),shape:[4,9],stop_gradient:[true]} : () -> tensor<4x9xf32>
(%46) = "pd_op.data" () {dtype:float32,name:"v62",place:Place(undefined:0),shape:[4,3],stop_gradient:[true]} : () -> tensor<4x3xf32>
(%47) = "pd_op.data" () {dtype:float32,name:"v63",place:Place(undefined:0),shape:[3,9],stop_gradient:[true]} : () -> tensor<3x9xf32>
(%141, %142, %143) = "pd_op.gru_unit" (%45, %46, %47, <<NULL VALUE>>) {activation:2,gate_activation:1,origin_mode:false,stop_gradient:[true,true,true]} : (tensor<4x9xf32>, tensor<4x3xf32>, tensor<3x9xf32>, <<NULL TYPE>>) -> tensor<4x9xf32>, tensor<4x3xf32>, tensor<4x3xf32>"#,
        &["tensor<4x9xf32>", "tensor<4x3xf32>", "tensor<4x3xf32>"],
    );
}

/// Paddle's refusals of the recurrent units.
#[test]
fn recurrent_refusals() {
    let attrs = "activation:\"tanh\",gate_activation:\"sigmoid\",is_reverse:false,origin_mode:false,is_test:true";
    let e = refusal(&program(
        "pd_op.gru",
        &[
            Some(("float32", "f32", &[10, 12])),
            None,
            Some(("float32", "f32", &[4, 10])),
            None,
        ],
        attrs,
        4,
    ));
    assert!(e.contains("The shape of Input(Weight) matrix must be [frame_size, frame_size * 3], but received [4, 10] (Weight) vs [4, 12] (frame_size)."), "{e}");
    let e = refusal(&program(
        "pd_op.gru",
        &[
            Some(("float32", "f32", &[10, 12])),
            None,
            Some(("float32", "f32", &[4, 12])),
            Some(("float32", "f32", &[2, 12])),
        ],
        attrs,
        4,
    ));
    assert!(e.contains("The shape of Bias must be [1, frame_size * 3], but received [2, 12] (Bias) vs [1, 12] (frame_size * 3)."), "{e}");
    let attrs = "activation:2,gate_activation:1,origin_mode:false";
    let e = refusal(&program(
        "pd_op.gru_unit",
        &[
            Some(("float32", "f32", &[3, 10])),
            Some(("float32", "f32", &[3, 4])),
            Some(("float32", "f32", &[4, 12])),
            None,
        ],
        attrs,
        3,
    ));
    assert!(e.contains("The second dimension of Input(Input) must be 3 times of frame_size in GRUUnitOp, but received 10 (Input) vs 4 (frame_size)."), "{e}");
}

/// `LSTMInferMeta`: `[T, D]` hidden and cell; batch outputs only when training.
#[test]
fn lstm() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[8,32],stop_gradient:[true]} : () -> tensor<8x32xf32>
(%2) = "pd_op.data" () {dtype:float32,name:"v3",place:Place(undefined:0),shape:[1,56],stop_gradient:[true]} : () -> tensor<1x56xf32>
(%44, %45, %46, %47) = "pd_op.lstm" (%0, <<NULL VALUE>>, <<NULL VALUE>>, %1, %2) {candidate_activation:"tanh",cell_activation:"tanh",gate_activation:"sigmoid",is_reverse:false,is_test:false,stop_gradient:[true,true,true,true],use_peepholes:true} : (tensor<-1x32xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<8x32xf32>, tensor<1x56xf32>) -> tensor<-1x8xf32>, tensor<-1x8xf32>, tensor<-1x32xf32>, tensor<-1x8xf32>"#,
        &[
            "tensor<-1x8xf32>",
            "tensor<-1x8xf32>",
            "tensor<-1x32xf32>",
            "tensor<-1x8xf32>",
        ],
    );
    check(
        r#"(%3) = "pd_op.data" () {dtype:float64,name:"v4",place:Place(undefined:0),shape:[10,16],stop_gradient:[true]} : () -> tensor<10x16xf64>
(%4) = "pd_op.data" () {dtype:float64,name:"v5",place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf64>
(%5) = "pd_op.data" () {dtype:float64,name:"v6",place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf64>
(%6) = "pd_op.data" () {dtype:float64,name:"v7",place:Place(undefined:0),shape:[4,16],stop_gradient:[true]} : () -> tensor<4x16xf64>
(%7) = "pd_op.data" () {dtype:float64,name:"v8",place:Place(undefined:0),shape:[1,16],stop_gradient:[true]} : () -> tensor<1x16xf64>
(%48, %49, %50, %51) = "pd_op.lstm" (%3, %4, %5, %6, %7) {candidate_activation:"tanh",cell_activation:"tanh",gate_activation:"sigmoid",is_reverse:true,is_test:true,stop_gradient:[true,true,true,true],use_peepholes:false} : (tensor<10x16xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<4x16xf64>, tensor<1x16xf64>) -> tensor<10x4xf64>, tensor<10x4xf64>, tensor<0xf32>, tensor<0xf32>"#,
        &[
            "tensor<10x4xf64>",
            "tensor<10x4xf64>",
            "tensor<0xf32>",
            "tensor<0xf32>",
        ],
    );
}

/// Paddle's refusals of `lstm`.
#[test]
fn lstm_refusals() {
    let attrs = |peep: bool| {
        format!("candidate_activation:\"tanh\",cell_activation:\"tanh\",gate_activation:\"sigmoid\",is_reverse:false,is_test:false,use_peepholes:{peep}")
    };
    let e = refusal(&program(
        "pd_op.lstm",
        &[
            Some(("float32", "f32", &[4, 8, 32])),
            None,
            None,
            Some(("float32", "f32", &[8, 32])),
            Some(("float32", "f32", &[1, 32])),
        ],
        &attrs(false),
        4,
    ));
    assert!(
        e.contains("Input(X)'s rank must be 2, but received 3."),
        "{e}"
    );
    let e = refusal(&program(
        "pd_op.lstm",
        &[
            Some(("float32", "f32", &[4, 32])),
            Some(("float32", "f32", &[2, 8])),
            None,
            Some(("float32", "f32", &[8, 32])),
            Some(("float32", "f32", &[1, 32])),
        ],
        &attrs(false),
        4,
    ));
    assert!(
        e.contains("Input(Cell) and Input(Hidden) of LSTM should not be null at the same time."),
        "{e}"
    );
    let e = refusal(&program(
        "pd_op.lstm",
        &[
            Some(("float32", "f32", &[4, 32])),
            None,
            None,
            Some(("float32", "f32", &[8, 32])),
            Some(("float32", "f32", &[1, 32])),
        ],
        &attrs(true),
        4,
    ));
    assert!(e.contains("The second dimension of Input(Bias) should be 7 * 8 if enable peepholes connection, but received 32."), "{e}");
    let e = refusal(&program(
        "pd_op.lstm",
        &[
            Some(("float32", "f32", &[4, 32])),
            None,
            None,
            Some(("float32", "f32", &[7, 32])),
            Some(("float32", "f32", &[1, 32])),
        ],
        &attrs(false),
        4,
    ));
    assert!(
        e.contains("The first dimension of Input(Weight) should be 8, but received 7."),
        "{e}"
    );
}
/// `CudnnLSTMInferMeta` (from Paddle's prints): `reserve` and `state_out` get only a data type.
#[test]
fn cudnn_lstm() {
    // x:float32[3,3,5]; init_h:float32[3,3,5]; init_c:float32[3,3,5]; w:float32[3,3,5]; weight_list[0]:float32[3,3,5]; sequence_length:float32[3,3,5]; dropout_prob=0.0; is_bidirec=False; hidden_size=1; num_layers=1; is_test=False; seed=0
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3,3,5],stop_gradient:[true]} : () -> tensor<3x3x5xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"init_h",place:Place(undefined:0),shape:[3,3,5],stop_gradient:[true]} : () -> tensor<3x3x5xf32>
(%2) = "pd_op.data" () {dtype:float32,name:"init_c",place:Place(undefined:0),shape:[3,3,5],stop_gradient:[true]} : () -> tensor<3x3x5xf32>
(%3) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[3,3,5],stop_gradient:[true]} : () -> tensor<3x3x5xf32>
(%4) = "pd_op.data" () {dtype:float32,name:"weight_list_0",place:Place(undefined:0),shape:[3,3,5],stop_gradient:[true]} : () -> tensor<3x3x5xf32>
(%5) = "pd_op.data" () {dtype:float32,name:"sequence_length",place:Place(undefined:0),shape:[3,3,5],stop_gradient:[true]} : () -> tensor<3x3x5xf32>
(%6) = "builtin.combine" (%4) {stop_gradient:[true]} : (tensor<3x3x5xf32>) -> vec[tensor<3x3x5xf32>]
(%7, %8, %9, %10, %11) = "pd_op.cudnn_lstm" (%0, %1, %2, %3, %6, %5) {dropout_prob:0,hidden_size:1,is_bidirec:false,is_test:false,num_layers:1,seed:0,stop_gradient:[true,true,true,true,true]} : (tensor<3x3x5xf32>, tensor<3x3x5xf32>, tensor<3x3x5xf32>, tensor<3x3x5xf32>, vec[tensor<3x3x5xf32>], tensor<3x3x5xf32>) -> tensor<3x3x1xf32>, tensor<3x3x5xf32>, tensor<3x3x5xf32>, tensor<0xu8>, tensor<0xu8>"#,
        &[
            "tensor<3x3x1xf32>",
            "tensor<3x3x5xf32>",
            "tensor<3x3x5xf32>",
            "tensor<u8>",
            "tensor<u8>",
        ],
    );
    // x:float32[6,2,-1]; init_h:float32[6,2,-1]; init_c:float32[6,2,-1]; w:float32[6,2,-1]; weight_list=None; sequence_length=None; dropout_prob=2.0; is_bidirec=False; hidden_size=1; num_layers=1; is_test=True; seed=1
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[6,2,-1],stop_gradient:[true]} : () -> tensor<6x2x-1xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"init_h",place:Place(undefined:0),shape:[6,2,-1],stop_gradient:[true]} : () -> tensor<6x2x-1xf32>
(%2) = "pd_op.data" () {dtype:float32,name:"init_c",place:Place(undefined:0),shape:[6,2,-1],stop_gradient:[true]} : () -> tensor<6x2x-1xf32>
(%3) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[6,2,-1],stop_gradient:[true]} : () -> tensor<6x2x-1xf32>
(%4, %5, %6, %7, %8) = "pd_op.cudnn_lstm" (%0, %1, %2, %3, <<NULL VALUE>>, <<NULL VALUE>>) {dropout_prob:2,hidden_size:1,is_bidirec:false,is_test:true,num_layers:1,seed:1,stop_gradient:[true,true,true,true,true]} : (tensor<6x2x-1xf32>, tensor<6x2x-1xf32>, tensor<6x2x-1xf32>, tensor<6x2x-1xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<6x2x1xf32>, tensor<6x2x-1xf32>, tensor<6x2x-1xf32>, tensor<0xu8>, tensor<0xu8>"#,
        &[
            "tensor<6x2x1xf32>",
            "tensor<6x2x-1xf32>",
            "tensor<6x2x-1xf32>",
            "tensor<u8>",
            "tensor<u8>",
        ],
    );
    // x:float32[2,2,2]; init_h:float32[2,2,2]; init_c:float32[2,2,2]; w:float32[2,2,2]; weight_list=None; sequence_length=None; dropout_prob=0.5; is_bidirec=False; hidden_size=100; num_layers=1; is_test=True; seed=0
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,2,2],stop_gradient:[true]} : () -> tensor<2x2x2xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"init_h",place:Place(undefined:0),shape:[2,2,2],stop_gradient:[true]} : () -> tensor<2x2x2xf32>
(%2) = "pd_op.data" () {dtype:float32,name:"init_c",place:Place(undefined:0),shape:[2,2,2],stop_gradient:[true]} : () -> tensor<2x2x2xf32>
(%3) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[2,2,2],stop_gradient:[true]} : () -> tensor<2x2x2xf32>
(%4, %5, %6, %7, %8) = "pd_op.cudnn_lstm" (%0, %1, %2, %3, <<NULL VALUE>>, <<NULL VALUE>>) {dropout_prob:0.5,hidden_size:100,is_bidirec:false,is_test:true,num_layers:1,seed:0,stop_gradient:[true,true,true,true,true]} : (tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<2x2x100xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<0xu8>, tensor<0xu8>"#,
        &[
            "tensor<2x2x100xf32>",
            "tensor<2x2x2xf32>",
            "tensor<2x2x2xf32>",
            "tensor<u8>",
            "tensor<u8>",
        ],
    );
}
