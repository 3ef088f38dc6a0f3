//! Op definitions as Python sees them: the dict of `Op.definition` and
//! `pir.op_definition`, with kinds spelled for people (`int64[]`, `float32`,
//! `DataType`, `DenseTensor`), and the check of the attribute names an
//! edit gives against the names an op's registration declares.

use pir_core::OpInfo;
use pir_dialects::op_def::{AttrKind, ElementKind, ScalarDataType, ValueKind};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors;

/// The name of an element type as NumPy and Paddle's Python API spell it.
fn element_name(e: ElementKind) -> &'static str {
    match e {
        ElementKind::Bool => "bool",
        ElementKind::Int32 => "int32",
        ElementKind::Int64 => "int64",
        ElementKind::Float => "float32",
        ElementKind::Double => "float64",
        ElementKind::Str => "str",
        ElementKind::Scalar => "Scalar",
    }
}

/// The readable name of an attribute kind: builtin scalars by their element
/// type (`bool`, `int32`, `float32`, `str`), arrays with `[]` (`int64[]`,
/// `array` when the elements are not fixed), Paddle's own kinds by their
/// class name without the namespace (`IntArray`, `Scalar(float32)`,
/// `DataType`, `Place`, `DataLayout`), `any` when unconstrained.
pub(crate) fn attr_kind_name(kind: AttrKind) -> String {
    match kind {
        AttrKind::Bool => "bool".into(),
        AttrKind::Int32 => "int32".into(),
        AttrKind::Int64 => "int64".into(),
        AttrKind::Index => "index".into(),
        AttrKind::Float => "float32".into(),
        AttrKind::Double => "float64".into(),
        AttrKind::Str => "str".into(),
        AttrKind::Array(Some(e)) => format!("{}[]", element_name(e)),
        AttrKind::Array(None) => "array".into(),
        AttrKind::IntArray => "IntArray".into(),
        AttrKind::Scalar(d) => match d {
            ScalarDataType::Float => "Scalar(float32)".into(),
            ScalarDataType::Double => "Scalar(float64)".into(),
            ScalarDataType::Int32 => "Scalar(int32)".into(),
            ScalarDataType::Int64 => "Scalar(int64)".into(),
            ScalarDataType::Bool => "Scalar(bool)".into(),
            ScalarDataType::Other => "Scalar".into(),
        },
        AttrKind::DataType => "DataType".into(),
        AttrKind::Place => "Place".into(),
        AttrKind::DataLayout => "DataLayout".into(),
        AttrKind::Pointer => "Pointer".into(),
        AttrKind::Any => "any".into(),
    }
}

/// The readable name of what an input or output carries: Paddle's type
/// name without the namespace and `Type` suffix, `[]` for a vector of them
/// (a `builtin.combine`), `any` when unconstrained.
pub(crate) fn value_kind_name(kind: ValueKind) -> &'static str {
    match kind {
        ValueKind::DenseTensor => "DenseTensor",
        ValueKind::SelectedRows => "SelectedRows",
        ValueKind::DenseTensorArray => "DenseTensorArray",
        ValueKind::SparseCoo => "SparseCooTensor",
        ValueKind::SparseCsr => "SparseCsrTensor",
        ValueKind::VectorDenseTensor => "DenseTensor[]",
        ValueKind::VectorSelectedRows => "SelectedRows[]",
        ValueKind::VectorDenseTensorArray => "DenseTensorArray[]",
        ValueKind::Any => "any",
    }
}

/// The definition of op `name` as a dict, or `None`.
pub(crate) fn op_definition<'py>(
    py: Python<'py>,
    name: &str,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(d) = pir_dialects::op_def(name) else {
        return Ok(None);
    };
    let dict = PyDict::new(py);
    dict.set_item("name", d.name.as_str())?;
    // An input or output: name, what it carries, whether it may be absent.
    let slot = |name: &str, kind: ValueKind, optional: bool| -> PyResult<Bound<'py, PyDict>> {
        let item = PyDict::new(py);
        item.set_item("name", name)?;
        item.set_item("kind", value_kind_name(kind))?;
        item.set_item("optional", optional)?;
        Ok(item)
    };
    let inputs = PyList::empty(py);
    for i in d.inputs {
        let item = slot(i.name.as_str(), i.kind, i.optional)?;
        // An attribute Paddle passes as a tensor (a `full_int_array` or
        // `full` built from a Python value, or any tensor computed).
        item.set_item("mutable_attribute", i.mutable_attribute)?;
        if i.mutable_attribute {
            item.set_item("mutable_type", i.mutable_type.as_str())?;
        }
        inputs.append(item)?;
    }
    dict.set_item("inputs", inputs)?;
    let attributes = PyList::empty(py);
    for a in d.attributes {
        let item = PyDict::new(py);
        item.set_item("name", a.name.as_str())?;
        item.set_item("kind", attr_kind_name(a.kind))?;
        let default = match a.default {
            Some(dv) => Some(crate::attrs::default_to_py(py, dv, a.kind)?),
            None => None,
        };
        item.set_item("default", default)?;
        attributes.append(item)?;
    }
    dict.set_item("attributes", attributes)?;
    let outputs = PyList::empty(py);
    for o in d.outputs {
        let item = slot(o.name.as_str(), o.kind, o.optional)?;
        // Paddle's Python op API does not return an intermediate output.
        item.set_item("intermediate", o.intermediate)?;
        outputs.append(item)?;
    }
    dict.set_item("outputs", outputs)?;
    dict.set_item("inplace", d.inplace.strs().collect::<Vec<_>>())?;
    dict.set_item("view", d.view.strs().collect::<Vec<_>>())?;
    dict.set_item("traits", d.traits.strs().collect::<Vec<_>>())?;
    dict.set_item("num_regions", d.num_regions)?;
    dict.set_item("build_args", d.build_args.strs().collect::<Vec<_>>())?;
    dict.set_item(
        "infers_types",
        crate::inferer().has_inference(crate::context().symbol(d.name.as_str())),
    )?;
    Ok(Some(dict))
}

/// Attributes Paddle's framework puts on ops of every dialect besides those
/// their definitions declare: the marks of an op's results
/// (`stop_gradient`, `persistable` and a parameter's marks), the name scope
/// of the layer that made the op (`struct_name`), auto-parallel's marks, the
/// Python call stack, and the id of the op a lowered op came from.
fn common_attributes() -> impl Iterator<Item = &'static str> + Clone {
    let others = [
        "struct_name",
        "op_role",
        "chunk_id",
        "op_dist_attr",
        "op_callstack",
        "origin_id",
    ];
    pir_core::builtin::RESULT_MARK_ATTRS
        .into_iter()
        .chain(others)
}

/// Refuses attribute `attr` for a registered op that neither declares it
/// nor carries it on every op ([`common_attributes`]): a misspelt name
/// would otherwise be stored, verify and be saved, and Paddle would ignore
/// it. Ops without a registration take any name.
pub(crate) fn check_attribute_name(info: Option<&OpInfo>, attr: &str) -> PyResult<()> {
    let Some(info) = info else {
        return Ok(());
    };
    if info.attribute_names.contains(&attr) || common_attributes().any(|c| c == attr) {
        return Ok(());
    }
    let declared = &info.attribute_names;
    // The declared kinds, when the op has a definition to tell them.
    let def = pir_dialects::op_def(&info.name);
    let listed: Vec<String> = declared
        .iter()
        .map(|n| match def.and_then(|d| d.attribute(n)) {
            Some(spec) => format!("{n} ({})", attr_kind_name(spec.kind)),
            None => (*n).to_owned(),
        })
        .collect();
    let mut message = format!("`{}` has no attribute `{attr}`", info.name);
    let candidates = declared.iter().copied().chain(common_attributes());
    if let Some(close) = pir_core::suggest::closest(attr, candidates) {
        message.push_str(&format!(" (did you mean `{close}`?)"));
    }
    if listed.is_empty() {
        message.push_str(": its definition declares no attributes");
    } else {
        message.push_str(&format!(": its definition declares {}", listed.join(", ")));
    }
    message.push_str(&format!(
        "; every op may also carry {}",
        common_attributes().collect::<Vec<_>>().join(", ")
    ));
    Err(errors::edit(message))
}
