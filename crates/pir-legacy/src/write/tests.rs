//! Unit tests of the writer: small programs written, decoded by prost and
//! by this crate's reader, and translated back.

use super::*;

fn program_of(text: &str) -> Program {
    let ctx = pir_dialects::pd_op_context();
    Program::parse(&ctx, text).expect("program text")
}

#[test]
fn a_relu_program_round_trips() {
    let p = program_of(
        r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
    (%1) = "pd_op.relu" (%0) {stop_gradient:[true]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%2) = "pd_op.fetch" (%1) {col:0,name:"out",persistable:[true],stop_gradient:[true]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
}"#,
    );
    let bytes = to_bytes(&p).expect("written");
    let arena = crate::DescArena::default();
    let desc = crate::ProgramDesc::decode(&bytes, &arena).expect("decoded");
    let types: Vec<&str> = desc.blocks[0].ops.iter().map(|o| o.op_type).collect();
    assert_eq!(types, ["feed", "relu", "fetch"]);
    assert_eq!(desc.version, Some(2_006_002));
}

#[test]
fn ops_with_no_legacy_form_are_all_named_and_nothing_is_made() {
    let p = program_of(
        r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>
    (%1) = "test.first" (%0) {} : (tensor<2xf32>) -> tensor<2xf32>
    (%2) = "pd_op.relu" (%1) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
    (%3) = "test.second" (%2) {} : (tensor<2xf32>) -> tensor<2xf32>
    (%4) = "pd_op.fetch" (%3) {col:0,name:"out",persistable:[true],stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
}"#,
    );
    match to_bytes(&p) {
        Err(WriteError::NoLegacyForm { ops }) => {
            let found: Vec<(&str, usize, usize)> = ops
                .iter()
                .map(|o| (o.op_name.as_str(), o.block, o.index))
                .collect();
            assert_eq!(found, [("test.first", 0, 1), ("test.second", 0, 3)]);
            let message = WriteError::NoLegacyForm { ops }.to_string();
            assert!(
                message.contains("`test.first` (block 0, op 1)"),
                "{message}"
            );
        }
        other => panic!("expected the two ops named, got {other:?}"),
    }
}

#[test]
fn prost_decodes_what_the_writer_encodes() {
    use prost::Message;
    let program = encode::Program {
        blocks: vec![encode::Block {
            idx: 0,
            parent_idx: -1,
            vars: vec![encode::Var {
                dtype: Some(5),
                dims: vec![-1, 3],
                lod_level: 1,
                persistable: true,
                need_check_feed: true,
                stop_gradient: true,
                ..encode::Var::new("x", crate::desc::VarKind::DenseTensor)
            }],
            ops: vec![{
                let mut op = encode::Op::new("scale");
                op.set_input("X", vec!["x".into()]);
                op.set_output("Out", vec!["x".into()]);
                op.set_attr("scale", encode::Value::Float(0.5));
                op.set_attr("axes", encode::Value::Longs(vec![-1, 1 << 40].into()));
                op.set_attr("ints", encode::Value::Ints(vec![-7].into()));
                op.set_attr(
                    "values",
                    encode::Value::Scalars(
                        vec![
                            crate::desc::ScalarValue::Float64(1.5),
                            crate::desc::ScalarValue::Long(-2),
                            crate::desc::ScalarValue::Bool(true),
                            crate::desc::ScalarValue::Complex(1.0, -1.0),
                        ]
                        .into(),
                    ),
                );
                op.set_attr(
                    "names",
                    encode::Value::Strings(vec!["a".into(), String::new()].into()),
                );
                op.set_attr("sub_block", encode::Value::Block(0));
                op
            }],
        }],
        version: 2_006_002,
        op_versions: vec![("fill_constant".into(), 2)],
    };
    let bytes = encode::encode(&program);
    let p = crate::proto::ProgramDesc::decode(&bytes[..]).expect("prost decodes it");
    let var = &p.blocks[0].vars[0];
    assert_eq!(var.name, "x");
    let tensor = var.r#type.dense_tensor.as_ref().expect("a dense tensor");
    assert_eq!(tensor.tensor.dims, [-1, 3]);
    assert_eq!(tensor.legacy_lod_level, Some(1));
    assert_eq!(var.need_check_feed, Some(true));
    let op = &p.blocks[0].ops[0];
    assert_eq!(op.r#type, "scale");
    let attr = |n: &str| op.attrs.iter().find(|a| a.name == n).expect(n);
    assert_eq!(attr("axes").longs, [-1, 1 << 40]);
    assert_eq!(attr("ints").ints, [-7]);
    assert_eq!(attr("scale").f, Some(0.5));
    assert_eq!(attr("values").scalars.len(), 4);
    assert_eq!(attr("names").strings, ["a", ""]);
    assert_eq!(p.version.and_then(|v| v.version), Some(2_006_002));
    // This crate's reader agrees.
    let arena = crate::DescArena::default();
    let desc = crate::ProgramDesc::decode(&bytes, &arena).expect("the reader decodes it");
    assert_eq!(
        desc.blocks[0].ops[0].attr("axes"),
        Some(&crate::desc::AttrValue::Longs(vec![-1, 1 << 40].into()))
    );
}

#[test]
fn a_while_loop_rebinds_its_variables_and_translates_back() {
    let p = program_of(
        r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>
    (%1) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi64>
    (%2) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:3} : () -> tensor<1xi64>
    (%3) = "pd_op.less_than" (%1, %2) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
    (%4, %5) = "pd_op.while" (cond=%3, inputs=%1, %0) {
    ^%arg_0 {}, %arg_1 {}
        (%6) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
        (%7) = "pd_op.scale" (%arg_0, %6) {bias:1,bias_after_scale:true,stop_gradient:[true]} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>
        (%8) = "pd_op.relu" (%arg_1) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
        (%9) = "pd_op.less_than" (%7, %2) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%9, %7, %8) {} : (tensor<1xb>, tensor<1xi64>, tensor<2xf32>) -> 
    }
    (%10) = "pd_op.fetch" (%5) {col:0,name:"out",persistable:[true],stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
}"#,
    );
    let bytes = to_bytes(&p).expect("written");
    let arena = crate::DescArena::default();
    let desc = crate::ProgramDesc::decode(&bytes, &arena).expect("decoded");
    assert_eq!(desc.blocks.len(), 2);
    let w = desc.blocks[0]
        .ops
        .iter()
        .find(|o| o.op_type == "while")
        .expect("a while op");
    let cond = w.input_args("Condition")[0];
    // The body assigns the next condition to the loop's condition variable.
    assert!(desc.blocks[1]
        .ops
        .iter()
        .any(|o| o.op_type == "assign" && o.output_args("Out") == [cond]));
    let back = crate::translate(&desc, pir_dialects::pd_op_context(), Default::default())
        .expect("translates back");
    assert!(back.to_string().contains("pd_op.while"));
}

#[test]
fn a_loop_operand_the_body_also_reads_is_copied_before_the_loop() {
    let p = program_of(
        r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>
    (%1) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xb>
    (%2) = "pd_op.while" (cond=%1, inputs=%0) {
    ^%arg_0 {}
        (%3) = "pd_op.add" (%arg_0, %0) {stop_gradient:[true]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
        (%4) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xb>
        () = "cf.yield" (%4, %3) {} : (tensor<1xb>, tensor<2xf32>) -> 
    }
    (%5) = "pd_op.fetch" (%2) {col:0,name:"out",persistable:[true],stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
}"#,
    );
    let bytes = to_bytes(&p).expect("written");
    let arena = crate::DescArena::default();
    let desc = crate::ProgramDesc::decode(&bytes, &arena).expect("decoded");
    let w = desc.blocks[0]
        .ops
        .iter()
        .find(|o| o.op_type == "while")
        .expect("a while op");
    // `x` stays what the body reads; the loop rebinds a copy of it.
    let loop_vars = w.output_args("Out");
    assert!(!loop_vars.contains(&"x"), "{loop_vars:?}");
    assert!(desc.blocks[0]
        .ops
        .iter()
        .any(|o| o.op_type == "assign" && o.input_args("X") == ["x"]));
}
