//! Tests of the printer.
use super::*;

/// Dictionaries printed after others of the same op name (equal, changed,
/// grown, shrunk, with hidden entries) print as they are, whatever the
/// runs copied from the previous one.
#[test]
fn dictionaries_after_the_previous_of_their_op_name() {
    use crate::builtin::{I32Attr, StrAttr};
    let ctx = std::sync::Arc::new(IrContext::new());
    let mut p = Program::new(ctx.clone());
    let int = |v: i32| ctx.intern_attr(I32Attr(v));
    let hidden = StrAttr::get(&ctx, "stack");
    let dicts: Vec<Vec<(&str, Attribute)>> = vec![
        vec![("a", int(1)), ("b", int(2)), ("c", int(3))],
        vec![("a", int(1)), ("b", int(2)), ("c", int(3))],
        vec![("a", int(1)), ("b", int(5)), ("c", int(3))],
        vec![("a", int(1)), ("op_callstack", hidden), ("c", int(3))],
        vec![],
        vec![("a", int(1)), ("b", int(5)), ("c", int(3)), ("d", int(4))],
        vec![("b", int(5)), ("c", int(3))],
        vec![("c", int(3)), ("a", int(7)), ("b", int(5))],
    ];
    let top = p.top_block();
    let mut b = crate::Builder::at_end(&mut p, top);
    for (i, d) in dicts.iter().enumerate() {
        let name = if i == 5 { "test.other" } else { "test.op" };
        b.op(name, &[], &[], d);
    }
    let want = [
        "{a:1,b:2,c:3}",
        "{a:1,b:2,c:3}",
        "{a:1,b:5,c:3}",
        "{a:1,c:3}",
        "{}",
        "{a:1,b:5,c:3,d:4}",
        "{b:5,c:3}",
        "{a:7,b:5,c:3}",
    ];
    let mut text = String::from("{\n");
    for (i, d) in want.iter().enumerate() {
        let name = if i == 5 { "test.other" } else { "test.op" };
        text += &format!("    () = \"{name}\" () {d} : () -> \n");
    }
    text += "}\n";
    assert_eq!(p.to_string(), text);
}

#[test]
fn quoting_escapes_only_double_quotes() {
    let ctx = IrContext::new();
    let mut out = Vec::new();
    Printer::new(&ctx, &mut out).write_quoted("a\"b\\c\nd");
    assert_eq!(out, b"\"a\\\"b\\c\nd\"");
}

/// A program of `n` ops whose dictionaries and types repeat (as a model's
/// do) and also differ (names, one float each), to print again and again.
fn repeating_program(ctx: &std::sync::Arc<IrContext>, n: i32) -> Program {
    use crate::builtin::{BoolAttr, DenseTensorType, F32Attr, ScalarType, StrAttr};
    let mut p = Program::new(ctx.clone());
    let f32_ty = ctx.intern_type(ScalarType::F32);
    let top = p.top_block();
    let mut b = crate::Builder::at_end(&mut p, top);
    let mut last = None;
    for i in 0..n {
        let ty = DenseTensorType::get(ctx, f32_ty, &[-1, i64::from(i % 3) + 1]);
        let attrs = [
            ("stop_gradient", ctx.intern_attr(BoolAttr(i % 2 == 0))),
            ("name", StrAttr::get(ctx, &format!("v{}", i % 4))),
            ("scale", F32Attr::get(ctx, i as f32 * 0.37)),
            ("op_callstack", StrAttr::get(ctx, "hidden")),
        ];
        let operands: Vec<ValueId> = last.into_iter().collect();
        let op = b.op(
            if i % 2 == 0 { "test.a" } else { "test.b" },
            &operands,
            &[ty],
            &attrs,
        );
        last = Some(b.program().result(op, 0));
    }
    p
}

/// The texts and tables a context keeps between prints change nothing:
/// every print of a program is its first print, whatever was printed in
/// between (another program, the typed form, a print into a writer).
#[test]
fn prints_after_the_first_in_a_context_are_the_same_text() {
    let ctx = std::sync::Arc::new(IrContext::new());
    let p = repeating_program(&ctx, 40);
    let first = p.print_to_vec();
    assert_eq!(p.print_to_vec(), first);
    let other = repeating_program(&ctx, 7);
    let other_first = other.print_to_vec();
    let typed = p.to_typed_string();
    let mut streamed = Vec::new();
    p.print(&mut streamed).unwrap();
    assert_eq!(streamed, first);
    assert_eq!(p.print_to_vec(), first);
    assert_eq!(other.print_to_vec(), other_first);
    assert_eq!(p.to_typed_string(), typed);
    assert!(!typed.starts_with('{'), "the typed form has its own texts");
}

/// A printer made while another prints (a custom print showing a type)
/// starts afresh, and both print what they would alone.
#[test]
fn a_printer_inside_a_print_starts_afresh() {
    let ctx = std::sync::Arc::new(IrContext::new());
    let p = repeating_program(&ctx, 12);
    let want = p.print_to_vec();
    let ty = p.value_type(p.result(p.block_ops(p.top_block()).next().unwrap(), 0));
    let mut out = Vec::new();
    let mut outer = Printer::new(&ctx, &mut out);
    assert_eq!(ctx.display_type(ty), "tensor<-1x1xf32>");
    outer.print_program(&p);
    drop(outer);
    assert_eq!(out, want);
    assert_eq!(p.print_to_vec(), want);
}

/// Printers on several threads share one context's kept texts without
/// changing what any of them prints.
#[test]
fn printers_on_several_threads_print_the_same_text() {
    let ctx = std::sync::Arc::new(IrContext::new());
    let p = repeating_program(&ctx, 30);
    let want = p.print_to_vec();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|_| s.spawn(|| (0..20).all(|_| p.print_to_vec() == want)))
            .collect();
        for w in workers {
            assert!(w.join().unwrap());
        }
    });
}

/// Ops whose dictionaries repeat with other operands and types: two
/// dictionaries over results of three shapes and zero to two operands,
/// the types shifted by `shift`.
fn sharing_program(ctx: &std::sync::Arc<IrContext>, shift: i64) -> Program {
    use crate::builtin::{DenseTensorType, I32Attr, ScalarType};
    let mut p = Program::new(ctx.clone());
    let f32_ty = ctx.intern_type(ScalarType::F32);
    let top = p.top_block();
    let mut b = crate::Builder::at_end(&mut p, top);
    let mut values: Vec<ValueId> = Vec::new();
    for i in 0..30i64 {
        let ty = DenseTensorType::get(ctx, f32_ty, &[(i + shift) % 3 + 1]);
        let attrs = [("axis", ctx.intern_attr(I32Attr((i % 2) as i32)))];
        let operands = &values[values.len().saturating_sub((i % 3) as usize)..];
        let op = b.op("test.shared", operands, &[ty], &attrs);
        values.push(b.program().result(op, 0));
    }
    p
}

/// The ends of generic ops' lines kept by dictionary are copied only for
/// ops of the same types: every print, in a context that printed them
/// before or not, is the text of a fresh context's first print.
#[test]
fn ops_sharing_a_dictionary_print_their_own_types() {
    let fresh = |shift| {
        let ctx = std::sync::Arc::new(IrContext::new());
        String::from_utf8(sharing_program(&ctx, shift).print_to_vec()).unwrap()
    };
    let (want, want_shifted) = (fresh(0), fresh(1));
    assert_ne!(want, want_shifted);
    let ctx = std::sync::Arc::new(IrContext::new());
    let p = sharing_program(&ctx, 0);
    for _ in 0..4 {
        assert_eq!(String::from_utf8(p.print_to_vec()).unwrap(), want);
    }
    let shifted = sharing_program(&ctx, 1);
    for _ in 0..3 {
        assert_eq!(
            String::from_utf8(shifted.print_to_vec()).unwrap(),
            want_shifted
        );
        assert_eq!(String::from_utf8(p.print_to_vec()).unwrap(), want);
    }
}
