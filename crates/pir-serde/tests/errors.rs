//! Bad input gives a typed error that says what and where.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

fn read(text: &str) -> Result<pir_serde::LoadedProgram, pir_serde::ReadError> {
    pir_serde::read_slice(
        pir_dialects::pd_op_context(),
        text.as_bytes(),
        &Default::default(),
    )
}

const HEAD: &str = r##"{"base_code":{"magic":"pir","trainable":true,"version":4},"program":{"regions":[{"#":"region_0","blocks":[{"#":"block_0","args":[],"ops":["##;
const TAIL: &str = "]}]}]}}";
const F32: &str = r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2],"NCHW",[],0]}"##;

fn program(ops: &[String]) -> String {
    format!("{HEAD}{}{TAIL}", ops.join(","))
}

fn full_op(id: i64) -> String {
    format!(r##"{{"#":"1.full","A":[],"I":[],"O":[{{"%":{id},"TT":{F32}}}],"OA":[]}}"##)
}

#[test]
fn a_minimal_program_loads() {
    let loaded = read(&program(&[full_op(1)])).unwrap();
    assert_eq!(loaded.program.num_ops(), 1);
    assert!(loaded.trainable);
    assert_eq!(loaded.version, 4);
}

#[test]
fn wrong_magic_is_reported() {
    let err = read(&program(&[]).replace("\"pir\"", "\"xyz\"")).unwrap_err();
    assert!(
        matches!(err, pir_serde::ReadError::BadMagic { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("base_code.magic"), "{err}");
}

#[test]
fn malformed_json_names_the_byte_offset() {
    let err = read(r##"{"base_code":{"magic":"pir",}"##).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, pir_serde::ReadError::Json(_)), "{msg}");
    assert!(msg.contains("28") || msg.contains("column"), "{msg}");
}

#[test]
fn unknown_type_id_names_the_json_path() {
    let op = full_op(1).replace("0.t_f32", "0.t_f99");
    let err = read(&program(&[op])).unwrap_err().to_string();
    assert!(
        err.contains("program.regions[0].blocks[0].ops[0].O[0].TT.D[0]"),
        "{err}"
    );
    assert!(err.contains("unknown type id `0.t_f99`"), "{err}");
}

#[test]
fn unknown_attribute_id_names_the_json_path() {
    let op = full_op(1).replace(
        r##""A":[]"##,
        r##""A":[{"AT":{"#":"0.a_nope","D":1},"N":"x"}]"##,
    );
    let err = read(&program(&[op])).unwrap_err().to_string();
    assert!(err.contains("ops[0].A[0].AT"), "{err}");
    assert!(err.contains("unknown attribute id `0.a_nope`"), "{err}");
}

#[test]
fn dangling_value_id_is_an_error_unless_lenient() {
    let user = r##"{"#":"1.relu","A":[],"I":[{"%":7}],"O":[],"OA":[]}"##.to_string();
    let text = program(&[full_op(1), user]);
    let err = read(&text).unwrap_err().to_string();
    assert!(err.contains("ops[1].I[0].%"), "{err}");
    assert!(err.contains("value id 7 is not defined"), "{err}");
    let lenient = pir_serde::ReadOptions {
        lenient_operands: true,
        ..Default::default()
    };
    let loaded =
        pir_serde::read_slice(pir_dialects::pd_op_context(), text.as_bytes(), &lenient).unwrap();
    assert_eq!(loaded.program.num_ops(), 2);
}

#[test]
fn truncated_file_is_a_json_error() {
    let text = program(&[full_op(1)]);
    let err = read(&text[..text.len() - 3]).unwrap_err();
    assert!(matches!(err, pir_serde::ReadError::Json(_)), "{err}");
}

#[test]
fn unknown_dialect_digit_is_an_error() {
    let op = full_op(1).replace("1.full", "9.full");
    let err = read(&program(&[op])).unwrap_err().to_string();
    assert!(err.contains("unknown dialect id `9`"), "{err}");
}

#[test]
fn unknown_ops_load_as_unregistered() {
    let op = full_op(1).replace("1.full", "1.not_an_op");
    let loaded = read(&program(&[op])).unwrap();
    let p = &loaded.program;
    let op = p.block_first_op(p.top_block()).unwrap();
    assert_eq!(p.op_name_str(op), "pd_op.not_an_op");
    assert!(p.op_info(op).is_none());
}
