//! The builtin dialect: element, vector and dense tensor types; bool, integer,
//! float, string, array, type and complex attributes; and the structural ops
//! (`builtin.module`, `parameter`, `set_parameter`, `shadow_output`, `combine`,
//! `slice`, `split`, `constant`, `group`).
//!
//! Every context registers it (see [`crate::IrContext::new`]).

/// The JSON of the null type and the null attribute: `{"#":"NULL"}`, read
/// as the handle's `NULL` (`$handle` is `Type` or `Attribute`).
macro_rules! null_kind_codec {
    ($handle:ident) => {
        fn encode(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
            serial::write_tag_only(w, "NULL");
            Ok(())
        }
        fn decode(_: DecodeInput<'_>) -> Result<$handle, DecodeError> {
            Ok($handle::NULL)
        }
        fn decode_exact(_: &IrContext, _: &str, text: &mut ExactJson<'_>) -> Option<$handle> {
            text.eat_byte(b'}')?;
            Some($handle::NULL)
        }
    };
}
use null_kind_codec;

mod attrs;
mod types;

pub use attrs::*;
pub use types::*;

use crate::attributes::AttrDef;
use crate::context::{Dialect, IrContext};
use crate::op_info::{traits, OpInfo};
use crate::program::{OpId, Program};

/// `stop_gradient`: per result, whether no gradient flows back through it.
pub const STOP_GRADIENT: &str = "stop_gradient";
/// `persistable`: per result, whether the value outlives a run (a weight).
pub const PERSISTABLE: &str = "persistable";
/// The attributes Paddle keeps per result, one array element for each
/// (its JSON's output attributes, `"OA"`); a pass that drops a result drops
/// its element of each.
pub const PER_RESULT_ATTRS: [&str; 2] = [STOP_GRADIENT, PERSISTABLE];
/// The marks Paddle's framework puts on an op's results, one bool per
/// result in an array: [`PER_RESULT_ATTRS`] and a parameter's marks.
pub const RESULT_MARK_ATTRS: [&str; 6] = [
    STOP_GRADIENT,
    PERSISTABLE,
    "is_distributed",
    "is_parameter",
    "need_clip",
    "trainable",
];

/// The builtin dialect.
pub struct BuiltinDialect;

impl Dialect for BuiltinDialect {
    fn name(&self) -> &'static str {
        "builtin"
    }

    fn register(&self, ctx: &IrContext) {
        ctx.register_type::<NullType>();
        ctx.register_type::<ScalarType>();
        types::register_declared_types(ctx);
        ctx.register_type::<DenseTensorType>();
        ctx.register_attr::<NullAttr>();
        attrs::register_declared_attrs(ctx);
        ctx.register_attr::<F32Attr>();
        ctx.register_attr::<F64Attr>();
        ctx.register_attr::<ArrayAttr>();
        ctx.register_attr::<Complex64Attr>();
        ctx.register_attr::<Complex128Attr>();
        register_attr_name_hints(ctx);

        let op = |name: &str| OpInfo::new(name, "builtin");
        ctx.register_op(
            op(op_names::MODULE)
                .with_regions(1)
                .with_verify(verify_module),
        );
        ctx.register_op(
            op(op_names::PARAMETER)
                .with_attributes(&[
                    "parameter_name",
                    "is_distributed",
                    "is_parameter",
                    "need_clip",
                    "persistable",
                    "stop_gradient",
                    "trainable",
                ])
                .with_regions(0)
                .with_verify(verify_parameter),
        );
        ctx.register_op(
            op(op_names::SET_PARAMETER)
                .with_attributes(&["parameter_name"])
                .with_trait(traits::SIDE_EFFECT)
                .with_regions(0)
                .with_verify(|p, o| {
                    counts(p, o, Some(1), Some(0))?;
                    str_attr(p, o, "parameter_name")
                }),
        );
        ctx.register_op(
            op(op_names::SHADOW_OUTPUT)
                .with_attributes(&["output_name"])
                .with_trait(traits::SIDE_EFFECT)
                .with_trait(ctx.trait_id("pir::ImmutableLayoutTrait"))
                .with_regions(0)
                .with_verify(|p, o| {
                    counts(p, o, Some(1), Some(0))?;
                    str_attr(p, o, "output_name")
                }),
        );
        ctx.register_op(
            op(op_names::COMBINE)
                .with_trait(traits::NO_SIDE_EFFECT)
                .with_regions(0)
                .with_verify(verify_combine),
        );
        ctx.register_op(
            op(op_names::SLICE)
                .with_interface(crate::op_info::FoldInterface(fold_slice))
                .with_attributes(&["index"])
                .with_trait(traits::NO_SIDE_EFFECT)
                .with_regions(0)
                .with_verify(verify_slice),
        );
        ctx.register_op(
            op(op_names::SPLIT)
                .with_interface(crate::op_info::FoldInterface(fold_split))
                .with_trait(traits::NO_SIDE_EFFECT)
                .with_regions(0)
                .with_verify(verify_split),
        );
        ctx.register_op(
            op(op_names::CONSTANT)
                .with_attributes(&["value"])
                .with_trait(traits::CONSTANT_LIKE)
                .with_trait(traits::NO_SIDE_EFFECT)
                .with_regions(0)
                .with_verify(|p, o| {
                    counts(p, o, Some(0), Some(1))?;
                    p.attr(o, "value")
                        .map(|_| ())
                        .ok_or_else(|| "missing attribute `value`".to_owned())
                }),
        );
        ctx.register_op(
            op(op_names::GROUP)
                .with_attributes(&["group_info"])
                .with_regions(1),
        );
    }
}

/// The names of the builtin ops, written once: passes and readers compare
/// an op's name with these.
pub mod op_names {
    /// `builtin.module`: the program's top-level op.
    pub const MODULE: &str = "builtin.module";
    /// `builtin.parameter`: reads a parameter (a weight) by name.
    pub const PARAMETER: &str = "builtin.parameter";
    /// `builtin.set_parameter`: stores a value as a parameter.
    pub const SET_PARAMETER: &str = "builtin.set_parameter";
    /// `builtin.shadow_output`: makes a value an output of the program by name.
    pub const SHADOW_OUTPUT: &str = "builtin.shadow_output";
    /// `builtin.combine`: packs values into a vector.
    pub const COMBINE: &str = "builtin.combine";
    /// `builtin.slice`: takes one element of a vector.
    pub const SLICE: &str = "builtin.slice";
    /// `builtin.split`: unpacks a vector into its elements.
    pub const SPLIT: &str = "builtin.split";
    /// `builtin.constant`: a constant given by its `value` attribute.
    pub const CONSTANT: &str = "builtin.constant";
    /// `builtin.group`: a group of ops in one region.
    pub const GROUP: &str = "builtin.group";
}

/// Kinds of the attributes Paddle puts on ops of every dialect, and of the
/// builtin ops' own, for reading Paddle's untagged text.
fn register_attr_name_hints(ctx: &IrContext) {
    use crate::parser::Expect;
    let bools = Expect::ArrayOf(Some(BoolAttr::TAG));
    for name in RESULT_MARK_ATTRS {
        ctx.register_attr_name_hint(name, bools);
    }
    for name in ["struct_name", "parameter_name", "output_name"] {
        ctx.register_attr_name_hint(name, Expect::Kind(StrAttr::TAG));
    }
    // `builtin.slice`'s index, pylayer's backward function, the op role.
    for name in ["index", "backward_function_id", "op_role"] {
        ctx.register_attr_name_hint(name, Expect::Kind(I32Attr::TAG));
    }
}

/// Checks operand and result counts (`None` = any).
pub fn counts(
    p: &Program,
    op: OpId,
    operands: Option<usize>,
    results: Option<usize>,
) -> Result<(), String> {
    if let Some(n) = operands {
        if p.num_operands(op) != n {
            return Err(format!(
                "expects {n} operand(s), has {}",
                p.num_operands(op)
            ));
        }
    }
    if let Some(n) = results {
        if p.num_results(op) != n {
            return Err(format!("expects {n} result(s), has {}", p.num_results(op)));
        }
    }
    Ok(())
}

fn str_attr(p: &Program, op: OpId, name: &str) -> Result<(), String> {
    match p.attr(op, name) {
        Some(a) if p.ctx().attr_as::<StrAttr>(a).is_some() => Ok(()),
        Some(_) => Err(format!("attribute `{name}` must be a string")),
        None => Err(format!("missing attribute `{name}`")),
    }
}

fn verify_module(p: &Program, op: OpId) -> Result<(), String> {
    counts(p, op, Some(0), Some(0))?;
    let region = p.op_region(op, 0);
    if p.region_blocks(region).len() != 1 {
        return Err(format!(
            "the module region must have exactly 1 block, has {}",
            p.region_blocks(region).len()
        ));
    }
    Ok(())
}

fn verify_parameter(p: &Program, op: OpId) -> Result<(), String> {
    counts(p, op, Some(0), Some(1))?;
    str_attr(p, op, "parameter_name")
}

fn vector_elements(p: &Program, ty: crate::Type) -> Option<&[crate::Type]> {
    p.ctx().type_as::<VectorType>(ty).map(|v| &*v.0)
}

/// Paddle's `IsDynamicShapeTypeEqual`, which its `CombineOp::VerifySig`
/// accepts besides equal types: dense tensor types of one dtype, layout, LoD,
/// offset and rank, with some dim unknown on either side or equal. (Paddle
/// asks this of any dim, not of every dim; so does this, to accept what
/// Paddle accepts: its own `paddle.jit.save` writes a loop-carried tensor that
/// grows, `tensor<-1x-1xi64>`, into a combine of `tensor<-1x1xi64>`.)
fn dynamic_shape_equal(p: &Program, a: crate::Type, b: crate::Type) -> bool {
    let (Some(a), Some(b)) = (
        p.ctx().type_as::<DenseTensorType>(a),
        p.ctx().type_as::<DenseTensorType>(b),
    ) else {
        return false;
    };
    a.dtype == b.dtype
        && a.layout == b.layout
        && a.lod == b.lod
        && a.offset == b.offset
        && a.dims.len() == b.dims.len()
        && a.dims
            .iter()
            .zip(b.dims.iter())
            .any(|(&x, &y)| x == -1 || y == -1 || x == y)
}

fn verify_combine(p: &Program, op: OpId) -> Result<(), String> {
    counts(p, op, None, Some(1))?;
    let out = p.value_type(p.result(op, 0));
    let elements = vector_elements(p, out).ok_or("the result must be a vector type")?;
    if elements.len() != p.num_operands(op) {
        return Err(format!(
            "the result vector has {} elements for {} operands",
            elements.len(),
            p.num_operands(op)
        ));
    }
    for (i, (v, &t)) in p.operands(op).zip(elements).enumerate() {
        if let Some(v) = v {
            if p.value_type(v) != t && !dynamic_shape_equal(p, p.value_type(v), t) {
                return Err(format!(
                    "element {i} of the result type differs from operand {i}'s type"
                ));
            }
        }
    }
    Ok(())
}

fn verify_slice(p: &Program, op: OpId) -> Result<(), String> {
    counts(p, op, Some(1), Some(1))?;
    let index = p
        .attr(op, "index")
        .and_then(|a| p.ctx().attr_as::<I32Attr>(a))
        .ok_or("missing i32 attribute `index`")?;
    let Some(input) = p.operand(op, 0) else {
        return Ok(());
    };
    let elements =
        vector_elements(p, p.value_type(input)).ok_or("the operand must be a vector type")?;
    let i = usize::try_from(index.0)
        .ok()
        .filter(|&i| i < elements.len());
    let i = i.ok_or_else(|| {
        format!(
            "index {} out of range for {} elements",
            index.0,
            elements.len()
        )
    })?;
    if elements[i] != p.value_type(p.result(op, 0)) {
        return Err(format!(
            "the result type differs from element {i} of the vector"
        ));
    }
    Ok(())
}

fn verify_split(p: &Program, op: OpId) -> Result<(), String> {
    counts(p, op, Some(1), None)?;
    let Some(input) = p.operand(op, 0) else {
        return Ok(());
    };
    let elements =
        vector_elements(p, p.value_type(input)).ok_or("the operand must be a vector type")?;
    if elements.len() != p.num_results(op) {
        return Err(format!(
            "{} results for a vector of {} elements",
            p.num_results(op),
            elements.len()
        ));
    }
    for (i, (r, &t)) in p.results(op).zip(elements).enumerate() {
        if p.value_type(r) != t {
            return Err(format!(
                "result {i}'s type differs from element {i} of the vector"
            ));
        }
    }
    Ok(())
}

/// The operands of the `builtin.combine` defining `v`, if it is one.
fn combined_values(p: &Program, v: crate::ValueId) -> Option<Vec<crate::ValueId>> {
    let def = p.defining_op(v)?;
    if p.op_name_str(def) != op_names::COMBINE {
        return None;
    }
    p.operands(def).collect()
}

/// `slice(combine(a, b, ...), i)` is the i-th combined value.
fn fold_slice(p: &Program, op: OpId) -> Option<Vec<crate::ValueId>> {
    let index = p
        .attr(op, "index")
        .and_then(|a| p.ctx().attr_as::<I32Attr>(a))?
        .0;
    let values = combined_values(p, p.operand(op, 0)?)?;
    let v = *values.get(usize::try_from(index).ok()?)?;
    (p.value_type(v) == p.value_type(p.result(op, 0))).then(|| vec![v])
}

/// `split(combine(a, b, ...))` is the combined values.
fn fold_split(p: &Program, op: OpId) -> Option<Vec<crate::ValueId>> {
    let values = combined_values(p, p.operand(op, 0)?)?;
    let fits = values.len() == p.num_results(op)
        && values
            .iter()
            .zip(p.results(op))
            .all(|(&v, r)| p.value_type(v) == p.value_type(r));
    fits.then_some(values)
}
