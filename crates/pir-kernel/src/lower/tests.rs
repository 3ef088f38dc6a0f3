#![allow(clippy::unwrap_used)] // a test fails loudly by design

use super::*;
use pir_core::AttrDict;

fn parse(text: &str) -> Program {
    let ctx = crate::kernel_context();
    Program::parse(&ctx, text).unwrap()
}

const WITH_IF: &str = r#"{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%2) = "pd_op.feed" () {col:0,name:"x",stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%3) = "pd_op.add" (%1, %0) {stop_gradient:[false]} : (tensor<-1x4xf32>, tensor<4xf32>) -> tensor<-1x4xf32>
    (%4) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[],stop_gradient:[false],value:0} : () -> tensor<f32>
    (%5) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[],stop_gradient:[false],value:1} : () -> tensor<f32>
    (%6) = "pd_op.greater_than" (%4, %5) {stop_gradient:[false]} : (tensor<f32>, tensor<f32>) -> tensor<b>
    (%7) = "pd_op.if" (%6) {stop_gradient:[false]} -> tensor<-1x4xf32> {
        (%8) = "pd_op.relu" (%3) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        () = "cf.yield" (%8) {} : (tensor<-1x4xf32>) -> 
    } else {
        (%9) = "pd_op.relu_" (%3) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        () = "cf.yield" (%9) {} : (tensor<-1x4xf32>) -> 
    }
    (%10) = "pd_op.fetch" (%7) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
}
"#;

#[test]
fn kernel_ops_are_numbered_after_the_clone_and_copies_point_back() {
    let lowered = lower(&parse(WITH_IF)).unwrap();
    let text = lowered.to_paddle_string();
    // 13 ops (the feed included): the module takes 13, the parameter 14 and
    // keeps 0 as its origin; the feed of a data op's name is dropped.
    assert!(text.contains(r#""builtin.parameter" [id:14] ()"#), "{text}");
    assert!(text.contains("origin_id:0,parameter_name"), "{text}");
    assert!(!text.contains("feed"), "{text}");
    assert!(
        text.contains(r#"kernel_name:"data",name:"x",op_name:"pd_op.data",origin_id:15,"#),
        "{text}"
    );
    // The if's yields keep the numbers of the ops they copy: the true block's
    // ops are numbered before the false block's (the clone's order).
    assert!(
        text.contains(r#""pd_op.if" [id:20] (%5) {} -> cpu_tensor<-1x4xf32> {"#),
        "{text}"
    );
    assert!(
        text.contains(r#""cf.yield" [id:22] (%7) {origin_id:9}"#),
        "{text}"
    );
    assert!(
        text.contains(r#""cf.yield" [id:24] (%8) {origin_id:11}"#),
        "{text}"
    );
}

#[test]
fn an_in_place_op_names_its_kernel_with_an_underscore() {
    let text = lower(&parse(WITH_IF)).unwrap().to_paddle_string();
    assert!(
        text.contains(r#""relu_(phi_kernel)" (%2) {is_inplace:true,kernel_key:<backend:CPU|layout:NCHW|dtype:float32>,kernel_name:"relu",op_name:"pd_op.relu_""#),
        "{text}"
    );
}

#[test]
fn a_branch_condition_is_marked_stop_gradient_as_paddles_builder_marks_it() {
    let text = lower(&parse(WITH_IF)).unwrap().to_paddle_string();
    assert!(
        text.contains(r#"op_name:"pd_op.greater_than",origin_id:19,stop_gradient:[true]}"#),
        "{text}"
    );
}

#[test]
fn data_results_have_no_place_and_other_results_are_on_the_cpu() {
    let text = lower(&parse(WITH_IF)).unwrap().to_paddle_string();
    assert!(text.contains("-> undefined_tensor<-1x4xf32>"), "{text}");
    assert!(
        text.contains(r#"(%1, %0) {kernel_key:<backend:CPU|layout:NCHW|dtype:float32>,kernel_name:"add",op_name:"pd_op.add",origin_id:16,stop_gradient:[false]} : (undefined_tensor<-1x4xf32>, cpu_tensor<4xf32>) -> cpu_tensor<-1x4xf32>"#),
        "{text}"
    );
    assert!(text.contains(r#""fetch(phi_kernel)" (%6) {col:0,kernel_key:<backend:CPU|layout:Undefined(AnyLayout)|dtype:float32>"#), "{text}");
}

#[test]
fn keys_without_tensor_inputs_take_the_cpu_and_any_layout() {
    let text = lower(&parse(WITH_IF)).unwrap().to_paddle_string();
    assert!(
        text.contains(r#""full(phi_kernel)" () {dtype:float32,kernel_key:<backend:CPU|layout:Undefined(AnyLayout)|dtype:float32>"#),
        "{text}"
    );
}

#[test]
fn a_key_no_kernel_is_registered_for_is_reported() {
    let program = parse(
        r#"{
    (%0) = "pd_op.data" () {dtype:bool,name:"x",place:Place(undefined:0),shape:[2,2],stop_gradient:[true]} : () -> tensor<2x2xb>
    (%1) = "pd_op.matmul" (%0, %0) {stop_gradient:[true],transpose_x:false,transpose_y:false} : (tensor<2x2xb>, tensor<2x2xb>) -> tensor<2x2xb>
}
"#,
    );
    let lowered = lower(&program).unwrap();
    assert_eq!(lowered.missing_kernels.len(), 1);
    let missing = &lowered.missing_kernels[0];
    assert_eq!(missing.kernel, "matmul");
    assert_eq!(missing.key.dtype, pir_dialects::pd_op::DataType::Bool);
}

#[test]
fn the_typed_form_reads_back_to_the_same_program() {
    let lowered = lower(&parse(WITH_IF)).unwrap();
    let typed = lowered.to_typed_string();
    let ctx = lowered.program.ctx_arc().clone();
    let again = Program::parse(&ctx, &typed).unwrap();
    assert_eq!(again.to_typed_string(), typed);
}

#[test]
fn a_lowered_program_has_no_json_form() {
    let lowered = lower(&parse(WITH_IF)).unwrap();
    let written = pir_serde::write_to_vec(&lowered.program, &pir_serde::WriteOptions::default());
    assert!(written.is_err());
    // Nor has any of its kernel types or keys.
    let ty = lowered.program.value_type(
        lowered.program.result(
            lowered
                .program
                .block_ops(lowered.program.top_block())
                .nth(1)
                .unwrap(),
            0,
        ),
    );
    let only_the_type = {
        let mut p = Program::new(lowered.program.ctx_arc().clone());
        let op = p.create_op(p.ctx().symbol("pd_op.relu"), &[], &[ty], AttrDict::EMPTY, 0);
        let top = p.top_block();
        p.append_op(top, op);
        p
    };
    let message = pir_serde::write_to_vec(&only_the_type, &pir_serde::WriteOptions::default())
        .unwrap_err()
        .to_string();
    assert!(message.contains("not saved"), "{message}");
}

#[test]
fn regions_nested_too_deep_are_an_error_not_a_stack_overflow() {
    let ctx = crate::kernel_context();
    let mut p = Program::new(ctx.clone());
    let mut block = p.top_block();
    for _ in 0..MAX_NESTING + 2 {
        let op = p.create_op(ctx.symbol("pd_op.pylayer"), &[], &[], AttrDict::EMPTY, 1);
        p.append_op(block, op);
        let region = p.op_region(op, 0);
        block = p.add_block(region);
    }
    assert_eq!(lower(&p).unwrap_err(), LowerError::TooDeep);
}
