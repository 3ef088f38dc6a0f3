//! `pd_op.if`, `pd_op.while` and `pd_op.pylayer`: their printed forms (Paddle's,
//! and the typed form, which adds what Paddle leaves out), their parsers and
//! their checks.
//!
//! ```text
//! (%8) = "pd_op.if" (%7) {stop_gradient:[false]} -> tensor<-1x4xf32> {
//!     ...
//! } else {
//!     ...
//! }
//! (%15, %16) = "pd_op.while" (cond=%14, inputs=%13, %8) {
//! ^%arg_0 {}, %arg_1 {}
//!     ...
//! }
//! ```
//!
//! Paddle prints no attributes and no result types for `while`, and no block
//! argument types: reading its text, the results and body arguments take the
//! loop-carried inputs' types until a later use says otherwise. The typed
//! form prints `{attrs} -> types` and `%arg_0 : type` so nothing is guessed.
//! An op whose regions do not have the usual shape (one block each, no
//! arguments where none belong) is printed in the generic form when typed.

use pir_core::builtin::{bool_array, ArrayAttr, BoolAttr};
use pir_core::parser::{OpHead, ParseError, Parser};
use pir_core::printer::Printer;
use pir_core::{AttrDict, OpId, Program, Type, ValueDef, ValueId};

/// Whether every region has exactly one block, without arguments unless
/// `args_allowed` (the custom forms cannot show anything else).
fn has_usual_regions(program: &Program, op: OpId, regions: usize, args_allowed: bool) -> bool {
    program.num_regions(op) == regions
        && program.regions(op).all(|r| {
            let blocks = program.region_blocks(r);
            blocks.len() == 1
                && program.block_kwargs(blocks[0]).is_empty()
                && (args_allowed || program.block_args(blocks[0]).is_empty())
        })
}

/// `(%r) = "name" (%c) {attrs} -> types {` — the head shared by `if` and `pylayer`.
fn print_region_op_head(p: &mut Printer<'_>, program: &Program, op: OpId) {
    p.print_op_prefix(program, op);
    p.write_str(" -> ");
    p.print_result_types(program, op);
    p.write_str(" {\n");
}

fn print_region_blocks(p: &mut Printer<'_>, program: &Program, op: OpId, index: usize) {
    if index < program.num_regions(op) {
        for &block in program.region_blocks(program.op_region(op, index)) {
            p.print_block_ops(program, block);
        }
    }
}

pub(super) fn print_if(p: &mut Printer<'_>, program: &Program, op: OpId) {
    if p.is_typed() && !has_usual_regions(program, op, 2, false) {
        return p.print_generic_op(program, op);
    }
    print_region_op_head(p, program, op);
    print_region_blocks(p, program, op, 0);
    p.write_indent();
    p.write_str("} else {\n");
    print_region_blocks(p, program, op, 1);
    p.write_indent();
    p.write_str("}");
}

pub(super) fn print_pylayer(p: &mut Printer<'_>, program: &Program, op: OpId) {
    if p.is_typed() && !has_usual_regions(program, op, 1, false) {
        return p.print_generic_op(program, op);
    }
    print_region_op_head(p, program, op);
    print_region_blocks(p, program, op, 0);
    p.write_indent();
    p.write_str("}");
}

pub(super) fn print_while(p: &mut Printer<'_>, program: &Program, op: OpId) {
    let typed = p.is_typed();
    if typed && (!has_usual_regions(program, op, 1, true) || program.num_operands(op) == 0) {
        return p.print_generic_op(program, op);
    }
    p.print_op_head(program, op);
    print_while_operands(p, program, op);
    if typed {
        p.write_str(") ");
        p.print_attr_dict(program, op);
        p.write_str(" -> ");
        p.print_result_types(program, op);
        p.write_str(" {\n");
    } else {
        p.write_str(") { \n");
    }
    if program.num_regions(op) > 0 {
        for &block in program.region_blocks(program.op_region(op, 0)) {
            // The `^` line is printed even for a body without arguments.
            p.write_indent();
            p.write_str("^");
            p.print_block_arg_list(program, program.block_args(block));
            p.write_str("\n");
            p.print_block_ops(program, block);
        }
    }
    p.write_indent();
    p.write_str("}");
}

/// ` (cond=%c, inputs=%a, %b`: the operands of a `while` as Paddle prints
/// them, without the closing parenthesis (what follows depends on the form;
/// the print of a lowered program uses this too).
pub fn print_while_operands(p: &mut Printer<'_>, program: &Program, op: OpId) {
    p.write_str(" (cond=");
    let mut operands = program.operands(op);
    if let Some(cond) = operands.next() {
        p.print_operand(program, cond);
    }
    p.write_str(", inputs=");
    for (i, v) in operands.enumerate() {
        if i > 0 {
            p.write_str(", ");
        }
        p.print_operand(program, v);
    }
}

/// Parses `(%c) {attrs} -> types {` … `}` (and, for `if`, `else {` … `}`);
/// falls back to the generic form when the text is in it.
fn parse_region_op<'t>(
    p: &mut Parser<'t>,
    head: &OpHead<'t>,
    regions: usize,
) -> Result<OpId, ParseError> {
    let at = p.cur.pos();
    p.cur.expect("(", "to open the operand list")?;
    let operands = p.parse_operands_until(")")?;
    let attrs = p.parse_attr_dict(head.name)?;
    if p.cur.looking_at(":") {
        p.cur.set_pos(at);
        return p.parse_generic_op(head);
    }
    p.cur.expect("->", "before the result types")?;
    let result_types = p.parse_type_list()?;
    let values: Vec<Option<ValueId>> = operands.iter().map(|o| o.value).collect();
    let op = p.create_op(head, &values, &result_types, attrs, regions)?;
    for r in 0..regions {
        if r == 1 && !p.cur.eat_keyword("else") {
            return Err(p.expected("`else` before the second region"));
        }
        let region = p.program().op_region(op, r);
        let block = p.program().add_block(region);
        p.parse_block(block, None)?;
    }
    Ok(op)
}

pub(super) fn parse_if<'t>(p: &mut Parser<'t>, head: &OpHead<'t>) -> Result<OpId, ParseError> {
    parse_region_op(p, head, 2)
}

pub(super) fn parse_pylayer<'t>(p: &mut Parser<'t>, head: &OpHead<'t>) -> Result<OpId, ParseError> {
    parse_region_op(p, head, 1)
}

/// `(cond=%c, inputs=%a, %b) { ^args … }` (Paddle) or
/// `(cond=%c, inputs=%a, %b) {attrs} -> types { ^args … }` (typed).
/// Paddle prints no attributes for `while`; its files give each result the
/// `stop_gradient` of its loop-carried input. Recover that when every input's
/// flag is known: from its defining op's `stop_gradient` list, or for an
/// argument of an enclosing `while` body, that loop's flag for it.
fn inherited_stop_gradient(program: &Program, inputs: &[Option<ValueId>]) -> AttrDict {
    let ctx = program.ctx();
    let flag = |v: Option<ValueId>| -> Option<bool> {
        let (op, index) = match program.value_def(v?) {
            ValueDef::Result { op, index } => (op, index),
            ValueDef::BlockArg { block, index } => {
                let parent = program.block_parent_op(block)?;
                if program.op_name_str(parent) != "pd_op.while" {
                    return None;
                }
                (parent, index)
            }
            _ => return None,
        };
        let list = ctx.attr_as::<ArrayAttr>(program.attr(op, "stop_gradient")?)?;
        ctx.attr_as::<BoolAttr>(*list.0.get(index as usize)?)
            .map(|b| b.0)
    };
    let flags: Option<Vec<bool>> = inputs.iter().map(|&v| flag(v)).collect();
    match flags {
        Some(flags) => ctx.dict(&[(ctx.symbol("stop_gradient"), bool_array(ctx, &flags))]),
        None => AttrDict::EMPTY,
    }
}

pub(super) fn parse_while<'t>(p: &mut Parser<'t>, head: &OpHead<'t>) -> Result<OpId, ParseError> {
    let at = p.cur.pos();
    p.cur.expect("(", "to open the operand list")?;
    if !p.cur.eat("cond=") {
        p.cur.set_pos(at);
        return p.parse_generic_op(head);
    }
    let cond = p.parse_operand()?;
    p.cur.expect(",", "after the condition")?;
    p.cur.expect("inputs=", "before the loop-carried values")?;
    let inputs = p.parse_operands_until(")")?;
    let mut operands = vec![cond.value];
    operands.extend(inputs.iter().map(|o| o.value));
    let input_types: Vec<Type> = inputs
        .iter()
        .map(|o| o.value.map_or(Type::NULL, |v| p.program().value_type(v)))
        .collect();
    // Paddle's form opens the body at once (`{` then `^`); the typed form
    // first gives the attributes and result types.
    let attrs_follow = p.cur.peek() == Some(b'{') && {
        let after = p.cur.rest()[1..].trim_start_matches([' ', '\n', '\t', '\r']);
        !after.starts_with('^')
    };
    let (attrs, result_types, guessed) = if attrs_follow {
        let attrs = p.parse_attr_dict(head.name)?;
        p.cur.expect("->", "before the result types")?;
        (attrs, p.parse_type_list()?, false)
    } else {
        let values: Vec<Option<ValueId>> = inputs.iter().map(|o| o.value).collect();
        let attrs = inherited_stop_gradient(p.program(), &values);
        (attrs, input_types.clone(), true)
    };
    let op = p.create_op(head, &operands, &result_types, attrs, 1)?;
    if guessed {
        for i in 0..result_types.len() {
            let r = p.program().result(op, i);
            p.mark_tentative(r);
        }
    }
    let region = p.program().op_region(op, 0);
    let block = p.program().add_block(region);
    p.parse_block(block, Some(&input_types))?;
    Ok(op)
}

/// Checks that each region of an op has one block ending in `cf.yield` with
/// the op's result count (plus `extra` leading values, e.g. the next condition).
fn check_yields(program: &Program, op: OpId, extra: usize) -> Result<(), String> {
    for (i, region) in program.regions(op).enumerate() {
        let blocks = program.region_blocks(region);
        if blocks.len() != 1 {
            return Err(format!(
                "region {i} must have exactly 1 block, has {}",
                blocks.len()
            ));
        }
        let Some(last) = program.block_last_op(blocks[0]) else {
            return Err(format!("region {i} is empty; it must end with cf.yield"));
        };
        if program.op_name_str(last) != "cf.yield" {
            return Err(format!(
                "region {i} ends with {} instead of cf.yield",
                program.op_name_str(last)
            ));
        }
        let want = program.num_results(op) + extra;
        if program.num_operands(last) != want {
            return Err(format!(
                "the cf.yield of region {i} yields {} values, expected {want}",
                program.num_operands(last)
            ));
        }
    }
    Ok(())
}

pub(super) fn verify_if(program: &Program, op: OpId) -> Result<(), String> {
    if program.num_operands(op) != 1 {
        return Err(format!(
            "expects 1 operand (the condition), has {}",
            program.num_operands(op)
        ));
    }
    check_yields(program, op, 0)
}

pub(super) fn verify_while(program: &Program, op: OpId) -> Result<(), String> {
    let n = program.num_operands(op);
    if n == 0 {
        return Err("expects a condition operand".into());
    }
    if program.num_results(op) != n - 1 {
        return Err(format!(
            "has {} results for {} loop-carried values",
            program.num_results(op),
            n - 1
        ));
    }
    let body = program.op_region(op, 0);
    if let Some(&block) = program.region_blocks(body).first() {
        if program.block_args(block).len() != n - 1 {
            return Err(format!(
                "the body has {} arguments for {} loop-carried values",
                program.block_args(block).len(),
                n - 1
            ));
        }
    }
    check_yields(program, op, 1)
}
