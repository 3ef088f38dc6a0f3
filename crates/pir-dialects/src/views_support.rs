//! Generic helpers the generated typed op views ([`crate::ops`]) call: reading
//! an attribute as a Rust value, making an attribute from one, creating an op.

#![allow(dead_code)] // helpers cover every kind the generator emits; the table uses a subset

use pir_core::builtin::{
    ArrayAttr, BoolAttr, DataLayout, F32Attr, F64Attr, I32Attr, I64Attr, IndexAttr, StrAttr,
};
use pir_core::{Attribute, Builder, IrContext, OpId, Program, Symbol, Type, ValueId};

use crate::pd_op::{DataLayoutAttr, DataType, DataTypeAttr, IntArrayAttr, Place, PlaceAttr};

pub(crate) fn operand(p: &Program, op: OpId, index: usize) -> Option<ValueId> {
    (index < p.num_operands(op))
        .then(|| p.operand(op, index))
        .flatten()
}

pub(crate) fn attr_raw(p: &Program, op: OpId, name: &str) -> Option<Attribute> {
    p.attr(op, name)
}

pub(crate) fn attr_bool(p: &Program, op: OpId, name: &str) -> Option<bool> {
    p.attr_bool(op, name)
}

pub(crate) fn attr_i32(p: &Program, op: OpId, name: &str) -> Option<i32> {
    p.ctx().attr_as::<I32Attr>(p.attr(op, name)?).map(|a| a.0)
}

pub(crate) fn attr_i64(p: &Program, op: OpId, name: &str) -> Option<i64> {
    let a = p.attr(op, name)?;
    let ctx = p.ctx();
    ctx.attr_as::<I64Attr>(a)
        .map(|a| a.0)
        .or_else(|| ctx.attr_as::<IndexAttr>(a).map(|a| a.0))
}

pub(crate) fn attr_f32(p: &Program, op: OpId, name: &str) -> Option<f32> {
    p.ctx()
        .attr_as::<F32Attr>(p.attr(op, name)?)
        .map(|a| a.value())
}

pub(crate) fn attr_f64(p: &Program, op: OpId, name: &str) -> Option<f64> {
    p.ctx()
        .attr_as::<F64Attr>(p.attr(op, name)?)
        .map(|a| a.value())
}

pub(crate) fn attr_string(p: &Program, op: OpId, name: &str) -> Option<String> {
    p.ctx()
        .attr_as::<StrAttr>(p.attr(op, name)?)
        .map(|a| a.0.to_string())
}

/// The elements of an array attribute, each converted by `f` (`None` if one does not convert).
fn array<T>(
    p: &Program,
    op: OpId,
    name: &str,
    f: impl Fn(&IrContext, Attribute) -> Option<T>,
) -> Option<Vec<T>> {
    let ctx = p.ctx();
    ctx.attr_as::<ArrayAttr>(p.attr(op, name)?)?
        .0
        .iter()
        .map(|&a| f(ctx, a))
        .collect()
}

pub(crate) fn attr_i32_vec(p: &Program, op: OpId, name: &str) -> Option<Vec<i32>> {
    array(p, op, name, |c, a| c.attr_as::<I32Attr>(a).map(|a| a.0))
}

pub(crate) fn attr_i64_vec(p: &Program, op: OpId, name: &str) -> Option<Vec<i64>> {
    array(p, op, name, |c, a| c.attr_as::<I64Attr>(a).map(|a| a.0))
}

pub(crate) fn attr_f32_vec(p: &Program, op: OpId, name: &str) -> Option<Vec<f32>> {
    array(p, op, name, |c, a| {
        c.attr_as::<F32Attr>(a).map(|a| a.value())
    })
}

pub(crate) fn attr_f64_vec(p: &Program, op: OpId, name: &str) -> Option<Vec<f64>> {
    array(p, op, name, |c, a| {
        c.attr_as::<F64Attr>(a).map(|a| a.value())
    })
}

pub(crate) fn attr_bool_vec(p: &Program, op: OpId, name: &str) -> Option<Vec<bool>> {
    array(p, op, name, |c, a| c.attr_as::<BoolAttr>(a).map(|a| a.0))
}

pub(crate) fn attr_string_vec(p: &Program, op: OpId, name: &str) -> Option<Vec<String>> {
    array(p, op, name, |c, a| {
        c.attr_as::<StrAttr>(a).map(|a| a.0.to_string())
    })
}

pub(crate) fn attr_int_array(p: &Program, op: OpId, name: &str) -> Option<Vec<i64>> {
    p.ctx()
        .attr_as::<IntArrayAttr>(p.attr(op, name)?)
        .map(|a| a.0.to_vec())
}

pub(crate) fn attr_data_type(p: &Program, op: OpId, name: &str) -> Option<DataType> {
    p.ctx()
        .attr_as::<DataTypeAttr>(p.attr(op, name)?)
        .map(|a| a.0)
}

pub(crate) fn attr_place(p: &Program, op: OpId, name: &str) -> Option<Place> {
    p.ctx()
        .attr_as::<PlaceAttr>(p.attr(op, name)?)
        .map(|a| a.0.clone())
}

pub(crate) fn attr_layout(p: &Program, op: OpId, name: &str) -> Option<DataLayout> {
    p.ctx()
        .attr_as::<DataLayoutAttr>(p.attr(op, name)?)
        .map(|a| a.0)
}

pub(crate) fn make_raw(_: &IrContext, a: Attribute) -> Attribute {
    a
}

pub(crate) fn make_bool(ctx: &IrContext, v: bool) -> Attribute {
    ctx.intern_attr(BoolAttr(v))
}

pub(crate) fn make_i32(ctx: &IrContext, v: i32) -> Attribute {
    ctx.intern_attr(I32Attr(v))
}

pub(crate) fn make_i64(ctx: &IrContext, v: i64) -> Attribute {
    ctx.intern_attr(I64Attr(v))
}

pub(crate) fn make_index(ctx: &IrContext, v: i64) -> Attribute {
    ctx.intern_attr(IndexAttr(v))
}

pub(crate) fn make_f32(ctx: &IrContext, v: f32) -> Attribute {
    F32Attr::get(ctx, v)
}

pub(crate) fn make_f64(ctx: &IrContext, v: f64) -> Attribute {
    F64Attr::get(ctx, v)
}

pub(crate) fn make_str(ctx: &IrContext, v: &str) -> Attribute {
    StrAttr::get(ctx, v)
}

fn make_array<T: Copy>(
    ctx: &IrContext,
    v: &[T],
    f: impl Fn(&IrContext, T) -> Attribute,
) -> Attribute {
    let items: Vec<Attribute> = v.iter().map(|&x| f(ctx, x)).collect();
    ArrayAttr::get(ctx, &items)
}

pub(crate) fn make_i32_vec(ctx: &IrContext, v: &[i32]) -> Attribute {
    make_array(ctx, v, make_i32)
}

pub(crate) fn make_i64_vec(ctx: &IrContext, v: &[i64]) -> Attribute {
    make_array(ctx, v, make_i64)
}

pub(crate) fn make_f32_vec(ctx: &IrContext, v: &[f32]) -> Attribute {
    make_array(ctx, v, make_f32)
}

pub(crate) fn make_f64_vec(ctx: &IrContext, v: &[f64]) -> Attribute {
    make_array(ctx, v, make_f64)
}

pub(crate) fn make_bool_vec(ctx: &IrContext, v: &[bool]) -> Attribute {
    make_array(ctx, v, make_bool)
}

pub(crate) fn make_str_vec(ctx: &IrContext, v: &[&str]) -> Attribute {
    make_array(ctx, v, make_str)
}

pub(crate) fn make_int_array(ctx: &IrContext, v: &[i64]) -> Attribute {
    IntArrayAttr::get(ctx, v)
}

pub(crate) fn make_data_type(ctx: &IrContext, v: DataType) -> Attribute {
    DataTypeAttr::get(ctx, v)
}

pub(crate) fn make_place(ctx: &IrContext, v: Place) -> Attribute {
    PlaceAttr::get(ctx, v)
}

pub(crate) fn make_layout(ctx: &IrContext, v: DataLayout) -> Attribute {
    ctx.intern_attr(DataLayoutAttr(v))
}

pub(crate) fn create(
    b: &mut Builder<'_>,
    name: &str,
    operands: &[Option<ValueId>],
    result_types: &[Type],
    attrs: &[(Symbol, Attribute)],
) -> OpId {
    let name = b.program().ctx().symbol(name);
    b.create(name, operands, result_types, attrs, 0)
}
