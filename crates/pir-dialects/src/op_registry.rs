//! Registration of the ops of the definition table, and the generic
//! verification every registered op gets from its definition.

use pir_core::builtin::{
    ArrayAttr, BoolAttr, Complex128Attr, Complex64Attr, F32Attr, F64Attr, I32Attr, I64Attr,
    IndexAttr, StrAttr,
};
use pir_core::op_info::traits;
use pir_core::parser::{AttrHintInterface, Expect, PrintedAttrsInterface};
use pir_core::{AttrDef, Attribute, IrContext, OpId, OpInfo, OpSource, Program};

use crate::op_def::{AttrKind, ElementKind, OpDef, OpDefinition, ScalarDataType, OP_DEFS};
use crate::pd_op::{DataLayoutAttr, DataTypeAttr, IntArrayAttr, PlaceAttr, ScalarAttr};
use crate::value_kinds;

/// The definition of the op named `name`.
pub fn op_def(name: &str) -> Option<&'static OpDef> {
    OP_DEFS.get(crate::op_def::op_index(name)?)
}

/// Registers every `pd_op.*` and `cf.*` op of the table (the core registers
/// `builtin.*`), letting `customize` adjust each registration. Each op's
/// registration is built when a program first names it: a context is made
/// by every command, and a model names a few dozen of the table's ops.
pub(crate) fn register_table_ops(ctx: &IrContext, customize: Customize) {
    ctx.defer_ops(Box::new(TableOps { customize }));
}

/// Whether `name` is one of the names [`register_table_ops`] registers.
fn is_registered_name(name: &str) -> bool {
    name.starts_with("pd_op.") || name.starts_with("cf.")
}

/// A dialect's adjustment of the registrations built from the table.
pub(crate) type Customize = fn(&'static OpDef, OpInfo) -> OpInfo;

/// The table's ops, built on first use (see [`register_table_ops`]).
struct TableOps {
    customize: Customize,
}

impl OpSource for TableOps {
    fn op_info(&self, ctx: &IrContext, index: u16) -> OpInfo {
        // `find` and `ops` gave only indices of the table.
        let def = &OP_DEFS[usize::from(index)];
        (self.customize)(def, info_from_definition(ctx, def))
    }

    fn find(&self, name: &str) -> Option<(u16, &'static str)> {
        if !is_registered_name(name) {
            return None;
        }
        let index = crate::op_def::op_index(name)?;
        let def = OP_DEFS.get(index)?;
        // The table is far below 65,536 ops (a test checks it).
        Some((u16::try_from(index).ok()?, def.name.as_str()))
    }

    fn op_count(&self) -> usize {
        OP_DEFS.len()
    }

    fn ops(&self) -> Vec<(u16, &'static str)> {
        (0..)
            .zip(OP_DEFS)
            .map(|(index, def)| (index, def.name.as_str()))
            .filter(|&(_, name)| is_registered_name(name))
            .collect()
    }

    /// Dialects give printers to ops with regions only (a test checks).
    fn prints_generic(&self, index: u16) -> bool {
        OP_DEFS
            .get(usize::from(index))
            .is_some_and(|def| def.num_regions == 0)
    }
}

/// The registration of `def`: its attributes, definition, traits and checks.
fn info_from_definition(ctx: &IrContext, def: &'static OpDef) -> OpInfo {
    let dialect = if def.dialect == "cf" { "cf" } else { "pd_op" };
    let names: Vec<&'static str> = def.attributes.iter().map(|a| a.name.as_str()).collect();
    let mut info = OpInfo::new(def.name.as_str(), dialect)
        .with_attributes(&names)
        .with_interface(OpDefinition(def))
        .with_interface(AttrHintInterface(attr_hint_from_definition))
        .with_interface(PrintedAttrsInterface(
            crate::printed_floats::restore_printed_floats,
        ));
    let mut side_effect = false;
    for t in def.traits {
        let id = ctx.trait_id(t);
        side_effect |= id == traits::SIDE_EFFECT || id == traits::INPLACE;
        info = info.with_trait(id);
    }
    for fact in crate::op_facts::facts_of(&def.name) {
        info = info.with_trait(fact.id(ctx));
        if fact.is_side_effect() {
            side_effect = true;
            info = info.with_trait(traits::SIDE_EFFECT);
        }
    }
    if def.name == "cf.yield" {
        info = info.with_trait(traits::IS_TERMINATOR);
    }
    if !side_effect && def.num_regions == 0 {
        info = info.with_trait(traits::NO_SIDE_EFFECT);
    }
    if def.num_regions > 0 {
        info = info.with_regions(def.num_regions);
    }
    info.with_verify(verify_by_definition)
}

/// Checks an op against its definition: operand and result counts, required
/// operands present, operand and result types of the declared kinds (see
/// [`value_kinds`]), and the kinds of the declared attributes it carries.
/// Missing attributes are not errors: real files omit some.
pub fn verify_by_definition(p: &Program, op: OpId) -> Result<(), String> {
    let Some(def) = p
        .op_info(op)
        .and_then(|i| i.interface::<OpDefinition>())
        .map(|d| d.0)
    else {
        return Ok(());
    };
    let variadic_in = def.inputs.iter().any(|i| i.variadic);
    let fixed_in = def.inputs.iter().filter(|i| !i.variadic).count();
    let n = p.num_operands(op);
    if (!variadic_in && n != def.inputs.len()) || (variadic_in && n < fixed_in) {
        return Err(format!(
            "expects {} operand(s) ({}), has {n}",
            def.inputs.len(),
            names(def.inputs.iter().map(|i| i.name.as_str()))
        ));
    }
    for (i, input) in def.inputs.iter().enumerate().take(n) {
        if !input.optional && !input.variadic && p.operand(op, i).is_none() {
            return Err(format!(
                "operand {i} (`{}`) is required but absent",
                input.name
            ));
        }
    }
    let variadic_out = def.outputs.iter().any(|o| o.variadic);
    let r = p.num_results(op);
    if !variadic_out && r != def.outputs.len() {
        return Err(format!(
            "expects {} result(s) ({}), has {r}",
            def.outputs.len(),
            names(def.outputs.iter().map(|o| o.name.as_str()))
        ));
    }
    let ctx = p.ctx();
    if !variadic_in {
        for (i, input) in def.inputs.iter().enumerate() {
            let Some(v) = p.operand(op, i) else { continue };
            let ty = p.value_type(v);
            if !value_kinds::fits(ctx, ty, input.kind, input.mutable_attribute) {
                return Err(format!(
                    "operand {i} (`{}`) must be {}, found {}",
                    input.name,
                    value_kinds::describe(input.kind),
                    ctx.type_data(ty).kind_name()
                ));
            }
        }
    }
    if !variadic_out {
        for (i, output) in def.outputs.iter().enumerate() {
            let ty = p.value_type(p.result(op, i));
            if !value_kinds::fits(ctx, ty, output.kind, false) {
                return Err(format!(
                    "result {i} (`{}`) must be {}, found {}",
                    output.name,
                    value_kinds::describe(output.kind),
                    ctx.type_data(ty).kind_name()
                ));
            }
        }
    }
    for spec in def.attributes {
        let Some(attr) = p.attr(op, &spec.name) else {
            continue;
        };
        if !kind_matches(ctx, attr, spec.kind) {
            return Err(format!(
                "attribute `{}` must be {}, found {}",
                spec.name,
                describe(spec.kind),
                ctx.attr_data(attr).kind_name()
            ));
        }
    }
    Ok(())
}

/// The text parser's hint for an attribute of an op with a definition: the
/// kind the definition declares (Scalars are written as the builtin
/// attribute of their data type, as Paddle's files have them).
pub fn attr_hint_from_definition(info: &OpInfo, name: &str) -> Option<Expect> {
    let def = info.interface::<OpDefinition>()?.0;
    def.attribute(name).map(|spec| expect_of(spec.kind))
}

fn expect_of(kind: AttrKind) -> Expect {
    match kind {
        AttrKind::Bool => Expect::Kind(BoolAttr::TAG),
        AttrKind::Int32 | AttrKind::Scalar(ScalarDataType::Int32) => Expect::Kind(I32Attr::TAG),
        AttrKind::Int64 | AttrKind::Scalar(ScalarDataType::Int64) => Expect::Kind(I64Attr::TAG),
        AttrKind::Index => Expect::Kind(IndexAttr::TAG),
        AttrKind::Float | AttrKind::Scalar(ScalarDataType::Float) => Expect::Kind(F32Attr::TAG),
        AttrKind::Double | AttrKind::Scalar(ScalarDataType::Double) => Expect::Kind(F64Attr::TAG),
        AttrKind::Scalar(ScalarDataType::Bool) => Expect::Kind(BoolAttr::TAG),
        AttrKind::Str => Expect::Kind(StrAttr::TAG),
        AttrKind::Array(element) => Expect::ArrayOf(element.and_then(element_tag)),
        AttrKind::IntArray => Expect::Kind(IntArrayAttr::TAG),
        AttrKind::DataType => Expect::Kind(DataTypeAttr::TAG),
        AttrKind::Place => Expect::Kind(PlaceAttr::TAG),
        AttrKind::DataLayout => Expect::Kind(DataLayoutAttr::TAG),
        AttrKind::Scalar(ScalarDataType::Other) | AttrKind::Pointer | AttrKind::Any => Expect::Any,
    }
}

fn element_tag(kind: ElementKind) -> Option<&'static str> {
    Some(match kind {
        ElementKind::Bool => BoolAttr::TAG,
        ElementKind::Int32 => I32Attr::TAG,
        ElementKind::Int64 => I64Attr::TAG,
        ElementKind::Float => F32Attr::TAG,
        ElementKind::Double => F64Attr::TAG,
        ElementKind::Str => StrAttr::TAG,
        // Paddle's builders fill Scalar arrays (`assign_value_`, `set_value_`
        // values) from Python floats: every such array in real files holds doubles.
        ElementKind::Scalar => F64Attr::TAG,
    })
}

fn names<'a>(it: impl Iterator<Item = &'a str>) -> String {
    it.collect::<Vec<_>>().join(", ")
}

fn is_scalar(ctx: &IrContext, a: Attribute) -> bool {
    ctx.attr_as::<BoolAttr>(a).is_some()
        || ctx.attr_as::<I32Attr>(a).is_some()
        || ctx.attr_as::<I64Attr>(a).is_some()
        || ctx.attr_as::<IndexAttr>(a).is_some()
        || ctx.attr_as::<F32Attr>(a).is_some()
        || ctx.attr_as::<F64Attr>(a).is_some()
        || ctx.attr_as::<StrAttr>(a).is_some()
        || ctx.attr_as::<Complex64Attr>(a).is_some()
        || ctx.attr_as::<Complex128Attr>(a).is_some()
        || ctx.attr_as::<ScalarAttr>(a).is_some()
}

fn element_matches(ctx: &IrContext, a: Attribute, kind: ElementKind) -> bool {
    match kind {
        ElementKind::Bool => ctx.attr_as::<BoolAttr>(a).is_some(),
        ElementKind::Int32 => ctx.attr_as::<I32Attr>(a).is_some(),
        ElementKind::Int64 => ctx.attr_as::<I64Attr>(a).is_some(),
        ElementKind::Float => ctx.attr_as::<F32Attr>(a).is_some(),
        ElementKind::Double => ctx.attr_as::<F64Attr>(a).is_some(),
        ElementKind::Str => ctx.attr_as::<StrAttr>(a).is_some(),
        ElementKind::Scalar => is_scalar(ctx, a),
    }
}

/// Whether `attr` has the declared kind (a Scalar accepts every kind Paddle accepts).
pub fn kind_matches(ctx: &IrContext, attr: Attribute, kind: AttrKind) -> bool {
    match kind {
        AttrKind::Bool => ctx.attr_as::<BoolAttr>(attr).is_some(),
        AttrKind::Int32 => ctx.attr_as::<I32Attr>(attr).is_some(),
        AttrKind::Int64 => ctx.attr_as::<I64Attr>(attr).is_some(),
        AttrKind::Index => ctx.attr_as::<IndexAttr>(attr).is_some(),
        AttrKind::Float => ctx.attr_as::<F32Attr>(attr).is_some(),
        AttrKind::Double => ctx.attr_as::<F64Attr>(attr).is_some(),
        AttrKind::Str => ctx.attr_as::<StrAttr>(attr).is_some(),
        AttrKind::Array(element) => match ctx.attr_as::<ArrayAttr>(attr) {
            Some(items) => {
                element.is_none_or(|k| items.0.iter().all(|&a| element_matches(ctx, a, k)))
            }
            None => false,
        },
        AttrKind::IntArray => ctx.attr_as::<IntArrayAttr>(attr).is_some(),
        AttrKind::Scalar(_) => is_scalar(ctx, attr),
        AttrKind::DataType => ctx.attr_as::<DataTypeAttr>(attr).is_some(),
        AttrKind::Place => ctx.attr_as::<PlaceAttr>(attr).is_some(),
        AttrKind::DataLayout => ctx.attr_as::<DataLayoutAttr>(attr).is_some(),
        AttrKind::Pointer | AttrKind::Any => true,
    }
}

fn describe(kind: AttrKind) -> String {
    match kind {
        AttrKind::Bool => "a bool (pir::BoolAttribute)".into(),
        AttrKind::Int32 => "an int32 (pir::Int32Attribute)".into(),
        AttrKind::Int64 => "an int64 (pir::Int64Attribute)".into(),
        AttrKind::Index => "an index (pir::IndexAttribute)".into(),
        AttrKind::Float => "a float (pir::FloatAttribute)".into(),
        AttrKind::Double => "a double (pir::DoubleAttribute)".into(),
        AttrKind::Str => "a string (pir::StrAttribute)".into(),
        AttrKind::Array(Some(k)) => format!("an array of {k:?} (pir::ArrayAttribute)"),
        AttrKind::Array(None) => "an array (pir::ArrayAttribute)".into(),
        AttrKind::IntArray => "an int array (paddle::dialect::IntArrayAttribute)".into(),
        AttrKind::Scalar(_) => "a scalar (paddle::dialect::ScalarAttribute)".into(),
        AttrKind::DataType => "a data type (paddle::dialect::DataTypeAttribute)".into(),
        AttrKind::Place => "a place (paddle::dialect::PlaceAttribute)".into(),
        AttrKind::DataLayout => "a layout (paddle::dialect::DataLayoutAttribute)".into(),
        AttrKind::Pointer => "a pointer".into(),
        AttrKind::Any => "any attribute".into(),
    }
}
