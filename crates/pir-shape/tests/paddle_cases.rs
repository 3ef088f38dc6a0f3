//! Small programs written for one behaviour each (`paddle_cases/NAME.txt`,
//! Paddle's text) with Paddle 3.3.1's annotated output beside them
//! (`NAME.symshape.txt`, made by scripts/paddle_check_shapes.py --save from
//! the program converted to JSON): `pir shapes` must print the same bytes.

mod common;

#[test]
fn frozen_paddle_cases() {
    let ctx = pir_dialects::pd_op_context();
    let mut checked = 0;
    let entries = common::paddle_case_programs();
    for path in entries {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        let expected = std::fs::read_to_string(path.with_extension("symshape.txt"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let program = pir_core::Program::parse(&ctx, &text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let shapes = pir_shape::ShapeAnalysis::run(&program);
        assert_eq!(
            pir_shape::annotated_text(&program, &shapes),
            expected,
            "{}",
            path.display()
        );
        checked += 1;
    }
    assert!(checked > 0, "no Paddle cases");
}
