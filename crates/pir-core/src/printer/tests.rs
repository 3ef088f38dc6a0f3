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
