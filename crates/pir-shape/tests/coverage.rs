//! Every op Paddle 3.3.1 gives the symbolic shape interface has a rule here
//! (its own or its InferMeta family's), so no such op falls back to fresh
//! symbols in `pir shapes` or in the passes.

#![forbid(unsafe_code)]

#[test]
fn every_op_declaring_the_interface_has_a_rule() {
    let with_rules = pir_shape::ops_with_rules();
    let declaring: Vec<&str> = pir_shape::ops_declaring_interface().collect();
    assert!(
        declaring.len() >= 659,
        "Paddle 3.3.1 declares the interface on 659 ops; the table lists {}",
        declaring.len()
    );
    let missing: Vec<&str> = declaring
        .iter()
        .copied()
        .filter(|name| with_rules.binary_search(name).is_err())
        .collect();
    assert!(missing.is_empty(), "ops without a rule: {missing:?}");
}
