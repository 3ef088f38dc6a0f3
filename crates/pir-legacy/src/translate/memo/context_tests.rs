//! Tests of the context memo (`context.rs`).

use std::convert::Infallible;

use pir_core::builtin::{DenseTensorType, ScalarType};

use super::*;

#[test]
fn empty_lists_of_ints_and_of_longs_are_kept_apart() {
    let ctx = IrContext::new();
    let (a, b) = (
        ctx.intern_attr(pir_core::builtin::I32Attr(1)),
        ctx.intern_attr(pir_core::builtin::I32Attr(2)),
    );
    let mut memo = ContextMemo::default();
    let (ints, longs) = (
        AttrValue::Ints(vec![].into()),
        AttrValue::Longs(vec![].into()),
    );
    assert_eq!(memo.attr(AttrKind::IntArray, Some(&ints), || a), a);
    assert_eq!(memo.attr(AttrKind::IntArray, Some(&longs), || b), b);
    let again =
        |memo: &mut ContextMemo, v| memo.attr(AttrKind::IntArray, Some(v), || panic!("made again"));
    assert_eq!(again(&mut memo, &ints), a);
    assert_eq!(again(&mut memo, &longs), b);
}

#[test]
fn a_finished_dict_is_found_by_its_look_up_number_or_hash_and_checked() {
    let ctx = IrContext::new();
    let (a, b) = (
        ctx.intern_attr(pir_core::builtin::I32Attr(1)),
        ctx.intern_attr(pir_core::builtin::I32Attr(2)),
    );
    let dict = ctx.dict(&[(ctx.symbol("k"), a)]);
    let mut memo = ContextMemo::default();
    assert_eq!(memo.finished_dict(0, 3, &[], &[a]), None);
    memo.keep_finished_dict(0, 3, &[], &[a], dict);
    // By number, then under another number by hash.
    assert_eq!(memo.finished_dict(0, 3, &[], &[a]), Some(dict));
    assert_eq!(memo.finished_dict(1, 3, &[], &[a]), Some(dict));
    // The answer of a number is checked against the question.
    assert_eq!(memo.finished_dict(0, 3, &[], &[b]), None);
    assert_eq!(memo.finished_dict(0, 4, &[], &[a]), None);
    assert_eq!(memo.finished_dict(0, 3, &[(1, 1)], &[a]), None);
    assert_eq!(memo.finished_dict(0, 3, &[], &[a]), Some(dict));
    // A generic dictionary is kept for its entries.
    let entries = [(1, 5, a)];
    assert_eq!(memo.generic_dict(&entries), None);
    memo.keep_generic_dict(&entries, dict);
    assert_eq!(memo.generic_dict(&entries), Some(dict));
    assert_eq!(memo.generic_dict(&[(1, 5, b)]), None);
}

#[test]
fn a_variable_type_is_kept_for_its_element_type_and_dims() {
    let ctx = IrContext::new();
    let f32_type = ctx.intern_type(ScalarType::F32);
    let made = |dims: &[i64]| DenseTensorType::get(&ctx, f32_type, dims);
    let mut memo = ContextMemo::default();
    let elem = Elem::Legacy(DataKind::Fp32);
    let first = memo.tensor_type_at::<Infallible>((1, 3), elem, &[2, 3], || Ok(made(&[2, 3])));
    let again = memo.tensor_type_at::<Infallible>((1, 3), elem, &[2, 3], || panic!("made again"));
    assert_eq!(first, Ok(made(&[2, 3])));
    assert_eq!(again, first);
    // The same place with other dims is another type.
    let other = memo.tensor_type_at::<Infallible>((1, 3), elem, &[4], || Ok(made(&[4])));
    assert_eq!(other, Ok(made(&[4])));
    let other_elem = Elem::Legacy(DataKind::Fp64);
    let fp64 = memo.tensor_type_at((1, 3), other_elem, &[4], || Err("made"));
    assert_eq!(fp64, Err("made"));
}

#[test]
fn an_int_array_full_is_kept_by_its_attribute_apart_from_scalar_fulls() {
    let ctx = IrContext::new();
    let (a, b, c) = (
        ctx.intern_attr(pir_core::builtin::I32Attr(1)),
        ctx.intern_attr(pir_core::builtin::I32Attr(2)),
        ctx.intern_attr(pir_core::builtin::I32Attr(3)),
    );
    let ty = DenseTensorType::get(&ctx, ctx.intern_type(ScalarType::I64), &[2]);
    let mut memo = ContextMemo::default();
    assert_eq!(memo.int_array_of_attr(a), None);
    memo.keep_int_array_of_attr(a, ty, [b, c]);
    assert_eq!(memo.int_array_of_attr(a), Some((ty, [b, c])));
    assert_eq!(memo.int_array_of_attr(b), None);
    // The same attribute asked for a scalar's `full` is not an int array's.
    assert_eq!(memo.full_of_attr(a), None);
}

#[test]
fn a_fake_branch_full_is_kept_by_the_branch_value_type() {
    let ctx = IrContext::new();
    let f32_type = ctx.intern_type(ScalarType::F32);
    let (with_unknown, known) = (
        DenseTensorType::get(&ctx, f32_type, &[-1, 3]),
        DenseTensorType::get(&ctx, f32_type, &[1, 3]),
    );
    let a = ctx.intern_attr(pir_core::builtin::I32Attr(1));
    let mut memo = ContextMemo::default();
    assert_eq!(memo.zero_full_of_type(with_unknown), None);
    memo.keep_zero_full_of_type(with_unknown, known, [a; 4]);
    assert_eq!(memo.zero_full_of_type(with_unknown), Some((known, [a; 4])));
    assert_eq!(memo.zero_full_of_type(known), None);
}

#[test]
fn an_attribute_as_input_is_found_by_its_look_up_number_for_the_same_value_only() {
    let ctx = IrContext::new();
    let a = ctx.intern_attr(pir_core::builtin::I32Attr(1));
    let made = AsInputOp::IntArray(Type::NULL, [a, a]);
    let shape = AttrValue::Longs(vec![1, -1, 8].into());
    let mut memo = ContextMemo::default();
    assert_eq!(memo.as_input(0, true, &shape), None);
    memo.keep_as_input(0, true, &shape, made);
    assert_eq!(memo.as_input(0, true, &shape), Some(made));
    // Another number, value or kind of input asks again.
    assert_eq!(memo.as_input(1, true, &shape), None);
    assert_eq!(
        memo.as_input(0, true, &AttrValue::Longs(vec![1, -1, 4].into())),
        None
    );
    assert_eq!(
        memo.as_input(0, true, &AttrValue::Ints(vec![1, -1, 8].into())),
        None
    );
    assert_eq!(memo.as_input(0, false, &shape), None);
    // A value too long to keep leaves nothing for its number.
    let long = AttrValue::Longs(vec![0; MAX_KEPT_LEN + 1].into());
    memo.keep_as_input(0, true, &long, made);
    assert_eq!(memo.as_input(0, true, &long), None);
    assert_eq!(memo.as_input(0, true, &shape), None);
}
