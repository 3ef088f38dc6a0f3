//! Attributes as Python values and back.
//!
//! Reading gives plain Python values where the kind has one (`bool`, `int`,
//! `float`, `str`, `complex`, `list`, `None`, a [`PyType`] for type
//! attributes; `pd_op` data types and layouts as their names, int arrays as
//! lists) and an opaque [`PyAttribute`] otherwise (places, scalars,
//! distributed attributes), which can be passed back as it is.
//!
//! Writing needs the kind, since Python's `int` may be an int32, an int64 or
//! an index: it is taken from the attribute being replaced, else from the
//! op's definition, else from the context's table of common attribute names,
//! and only then guessed from the Python value (`int` → int64, `float` →
//! double).

use pir_core::builtin::{
    ArrayAttr, BoolAttr, Complex128Attr, Complex64Attr, DataLayout, F32Attr, F64Attr, I32Attr,
    I64Attr, IndexAttr, StrAttr, TensorNameAttr, TypeAttr,
};
use pir_core::parser::{AttrHintInterface, Expect};
use pir_core::{AttrDef, Attribute, IrContext, OpInfo};
use pir_dialects::op_def::{AttrKind, DefaultValue};
use pir_dialects::pd_op::{DataLayoutAttr, DataType, DataTypeAttr, IntArrayAttr, Place, PlaceAttr};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyComplex, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::context;
use crate::ir::PyType;

/// How deeply nested arrays are turned into Python lists (deeper ones stay
/// opaque), so a hostile file cannot exhaust the stack.
const MAX_DEPTH: usize = 64;

/// An attribute of a kind without a natural Python value (a place, a
/// scalar, a distributed attribute): printed as Paddle prints it, compared by
/// value, and accepted wherever an attribute value is.
#[pyclass(name = "Attribute", module = "pir", frozen, eq, hash)]
#[derive(PartialEq, Eq, Hash)]
pub struct PyAttribute {
    pub(crate) attr: Attribute,
}

#[pymethods]
impl PyAttribute {
    /// The attribute kind (`pd_op.place`, `pd_dist.op_dist`...).
    #[getter]
    fn kind(&self) -> &'static str {
        context().attr_data(self.attr).kind_name()
    }

    fn __str__(&self) -> String {
        context().display_attr(self.attr)
    }

    fn __repr__(&self) -> String {
        format!(
            "pir.Attribute({}: {})",
            self.kind(),
            context().display_attr(self.attr)
        )
    }
}

/// The Python value of an attribute.
pub(crate) fn to_py(py: Python<'_>, ctx: &IrContext, a: Attribute) -> PyResult<Py<PyAny>> {
    to_py_depth(py, ctx, a, 0)
}

fn to_py_depth(py: Python<'_>, ctx: &IrContext, a: Attribute, depth: usize) -> PyResult<Py<PyAny>> {
    if a.is_null() {
        return Ok(py.None());
    }
    let any = |v: Bound<'_, PyAny>| Ok(v.unbind());
    if let Some(b) = ctx.attr_as::<BoolAttr>(a) {
        return any(PyBool::new(py, b.0).to_owned().into_any());
    }
    if let Some(i) = ctx.attr_as::<I32Attr>(a) {
        return any(i.0.into_pyobject(py)?.into_any());
    }
    if let Some(i) = ctx.attr_as::<I64Attr>(a) {
        return any(i.0.into_pyobject(py)?.into_any());
    }
    if let Some(i) = ctx.attr_as::<IndexAttr>(a) {
        return any(i.0.into_pyobject(py)?.into_any());
    }
    if let Some(f) = ctx.attr_as::<F32Attr>(a) {
        return any(PyFloat::new(py, f64::from(f.value())).into_any());
    }
    if let Some(f) = ctx.attr_as::<F64Attr>(a) {
        return any(PyFloat::new(py, f.value()).into_any());
    }
    if let Some(s) = ctx.attr_as::<StrAttr>(a) {
        return any(PyString::new(py, &s.0).into_any());
    }
    if let Some(s) = ctx.attr_as::<TensorNameAttr>(a) {
        return any(PyString::new(py, &s.0).into_any());
    }
    if let Some(c) = ctx.attr_as::<Complex64Attr>(a) {
        let (re, im) = (f32::from_bits(c.0), f32::from_bits(c.1));
        return any(PyComplex::from_doubles(py, re.into(), im.into()).into_any());
    }
    if let Some(c) = ctx.attr_as::<Complex128Attr>(a) {
        let (re, im) = (f64::from_bits(c.0), f64::from_bits(c.1));
        return any(PyComplex::from_doubles(py, re, im).into_any());
    }
    if let Some(t) = ctx.attr_as::<TypeAttr>(a) {
        return Ok(Py::new(py, PyType { ty: t.0 })?.into_any());
    }
    if let Some(v) = ctx.attr_as::<IntArrayAttr>(a) {
        return any(PyList::new(py, v.0.iter())?.into_any());
    }
    if let Some(d) = ctx.attr_as::<DataTypeAttr>(a) {
        return any(PyString::new(py, d.0.text()).into_any());
    }
    if let Some(l) = ctx.attr_as::<DataLayoutAttr>(a) {
        return any(PyString::new(py, l.0.as_str()).into_any());
    }
    if depth < MAX_DEPTH {
        if let Some(items) = ctx.attr_as::<ArrayAttr>(a) {
            let list = PyList::empty(py);
            for &item in items.0.iter() {
                list.append(to_py_depth(py, ctx, item, depth + 1)?)?;
            }
            return any(list.into_any());
        }
    }
    Ok(Py::new(py, PyAttribute { attr: a })?.into_any())
}

/// The kind a value for attribute `name` of an op with registration `info`
/// must have when nothing else tells: the op's definition, then the
/// context's table of common names, then unknown.
pub(crate) fn hint(ctx: &IrContext, info: Option<&OpInfo>, name: &str) -> Expect {
    info.and_then(|info| {
        let hint = info.interface::<AttrHintInterface>()?;
        (hint.0)(info, name)
    })
    .or_else(|| ctx.attr_name_hint(name))
    .unwrap_or(Expect::Any)
}

/// The kind of an existing attribute, to convert its replacement into.
pub(crate) fn expect_of_existing(ctx: &IrContext, a: Attribute) -> Expect {
    if a.is_null() {
        return Expect::Any;
    }
    if let Some(items) = ctx.attr_as::<ArrayAttr>(a) {
        let first = items.0.first().map(|&e| ctx.attr_data(e).tag());
        return Expect::ArrayOf(first.filter(|t| !t.is_empty()));
    }
    match ctx.attr_data(a).tag() {
        "" => Expect::Any,
        tag => Expect::Kind(tag),
    }
}

fn kind_error(expect: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    let got = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    PyTypeError::new_err(format!("expected {expect}, got {got}"))
}

fn int(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        // numpy integers are not `int` but convert losslessly.
        if obj.hasattr("__index__")? && !obj.is_instance_of::<PyBool>() {
            return obj.call_method0("__index__")?.extract::<i64>();
        }
        return Err(kind_error(what, obj));
    }
    obj.extract::<i64>()
        .map_err(|_| PyValueError::new_err(format!("{obj} does not fit in {what}")))
}

fn float(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(kind_error(what, obj));
    }
    obj.extract::<f64>().map_err(|_| kind_error(what, obj))
}

fn string(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    obj.extract::<String>().map_err(|_| kind_error(what, obj))
}

/// A place from its text: `cpu`, `gpu:0`, `gpu_pinned`, `xpu:1`,
/// `undefined`, or Paddle's printed `Place(cpu)`.
fn place(text: &str) -> PyResult<Place> {
    let body = text
        .strip_prefix("Place(")
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(text);
    let (kind, id) = match body.split_once(':') {
        Some((k, id)) => (k, Some(id)),
        None => (body, None),
    };
    let allocation_type = match kind {
        "undefined" => 0,
        "cpu" => 1,
        "gpu" => 2,
        "gpu_pinned" => 3,
        "xpu" => 4,
        "xpu_pinned" => 5,
        "ipu" => 7,
        _ => {
            return Err(PyValueError::new_err(format!(
            "`{text}` is not a place (cpu, gpu:N, gpu_pinned, xpu:N, xpu_pinned, ipu:N, undefined)"
        )))
        }
    };
    let device_id = match id {
        Some(id) => id
            .parse::<i64>()
            .map_err(|_| PyValueError::new_err(format!("`{id}` is not a device id")))?,
        None => 0,
    };
    Ok(Place {
        allocation_type,
        device_id,
        device_type: "".into(),
    })
}

/// Converts a Python value into an attribute of the kind `expect`.
pub(crate) fn from_py(
    ctx: &IrContext,
    obj: &Bound<'_, PyAny>,
    expect: Expect,
) -> PyResult<Attribute> {
    from_py_depth(ctx, obj, expect, 0)
}

fn from_py_depth(
    ctx: &IrContext,
    obj: &Bound<'_, PyAny>,
    expect: Expect,
    depth: usize,
) -> PyResult<Attribute> {
    if let Ok(a) = obj.cast::<PyAttribute>() {
        return Ok(a.get().attr);
    }
    if depth > MAX_DEPTH {
        return Err(PyValueError::new_err(format!(
            "attribute values nest more than {MAX_DEPTH} deep"
        )));
    }
    let tag = match expect {
        Expect::Any => return guess(ctx, obj, depth),
        Expect::ArrayOf(element) => {
            let element = element.map_or(Expect::Any, Expect::Kind);
            return array(ctx, obj, element, depth);
        }
        Expect::Kind(tag) => tag,
    };
    Ok(match tag {
        t if t == BoolAttr::TAG => {
            if !obj.is_instance_of::<PyBool>() {
                return Err(kind_error("a bool", obj));
            }
            ctx.intern_attr(BoolAttr(obj.extract::<bool>()?))
        }
        t if t == I32Attr::TAG => {
            let v = int(obj, "an int32")?;
            let v = i32::try_from(v)
                .map_err(|_| PyValueError::new_err(format!("{v} does not fit in an int32")))?;
            ctx.intern_attr(I32Attr(v))
        }
        t if t == I64Attr::TAG => ctx.intern_attr(I64Attr(int(obj, "an int64")?)),
        t if t == IndexAttr::TAG => ctx.intern_attr(IndexAttr(int(obj, "an index")?)),
        t if t == F32Attr::TAG => F32Attr::get(ctx, float(obj, "a float")? as f32),
        t if t == F64Attr::TAG => F64Attr::get(ctx, float(obj, "a double")?),
        t if t == StrAttr::TAG => StrAttr::get(ctx, &string(obj, "a str")?),
        t if t == TensorNameAttr::TAG => TensorNameAttr::get(ctx, &string(obj, "a str")?),
        t if t == ArrayAttr::TAG => array(ctx, obj, Expect::Any, depth)?,
        t if t == TypeAttr::TAG => {
            let ty = obj
                .cast::<PyType>()
                .map_err(|_| kind_error("a pir.Type", obj))?;
            ctx.intern_attr(TypeAttr(ty.get().ty))
        }
        t if t == Complex64Attr::TAG || t == Complex128Attr::TAG => {
            let c = obj
                .cast::<PyComplex>()
                .map(|c| (c.real(), c.imag()))
                .or_else(|_| float(obj, "a complex").map(|re| (re, 0.0)))?;
            if t == Complex64Attr::TAG {
                let (re, im) = (c.0 as f32, c.1 as f32);
                ctx.intern_attr(Complex64Attr(re.to_bits(), im.to_bits()))
            } else {
                ctx.intern_attr(Complex128Attr(c.0.to_bits(), c.1.to_bits()))
            }
        }
        t if t == IntArrayAttr::TAG => {
            let values = ints(obj)?;
            IntArrayAttr::get(ctx, &values)
        }
        t if t == DataTypeAttr::TAG => {
            let name = data_type_name(obj)?;
            let dtype = DataType::parse(&name)
                .ok_or_else(|| PyValueError::new_err(format!("`{name}` is not a data type")))?;
            DataTypeAttr::get(ctx, dtype)
        }
        t if t == DataLayoutAttr::TAG => {
            let name = string(obj, "a layout name")?;
            let layout = DataLayout::parse(&name)
                .ok_or_else(|| PyValueError::new_err(format!("`{name}` is not a layout")))?;
            ctx.intern_attr(DataLayoutAttr(layout))
        }
        t if t == PlaceAttr::TAG => PlaceAttr::get(ctx, place(&string(obj, "a place")?)?),
        "Null" => {
            if !obj.is_none() {
                return Err(kind_error("None", obj));
            }
            Attribute::NULL
        }
        other => {
            return Err(kind_error(
                &format!("a pir.Attribute (the attribute is of kind `{other}`)"),
                obj,
            ))
        }
    })
}

/// A data type's name from a `str` or anything with a `name` (a numpy dtype).
fn data_type_name(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = obj.extract::<String>() {
        return Ok(s);
    }
    if let Ok(name) = obj.getattr("name") {
        if let Ok(s) = name.extract::<String>() {
            return Ok(s);
        }
    }
    Err(kind_error("a data type name", obj))
}

fn ints(obj: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    if obj.is_instance_of::<PyString>() {
        return Err(kind_error("a list of ints", obj));
    }
    let mut out = Vec::new();
    for item in obj
        .try_iter()
        .map_err(|_| kind_error("a list of ints", obj))?
    {
        out.push(int(&item?, "an int")?);
    }
    Ok(out)
}

fn array(
    ctx: &IrContext,
    obj: &Bound<'_, PyAny>,
    element: Expect,
    depth: usize,
) -> PyResult<Attribute> {
    if !(obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) {
        return Err(kind_error("a list", obj));
    }
    let mut items = Vec::new();
    for item in obj.try_iter()? {
        items.push(from_py_depth(ctx, &item?, element, depth + 1)?);
    }
    Ok(ArrayAttr::get(ctx, &items))
}

/// The attribute of a Python value whose kind nothing tells.
fn guess(ctx: &IrContext, obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Attribute> {
    if obj.is_none() {
        return Ok(Attribute::NULL);
    }
    let kind = if obj.is_instance_of::<PyBool>() {
        BoolAttr::TAG
    } else if obj.is_instance_of::<PyInt>() {
        I64Attr::TAG
    } else if obj.is_instance_of::<PyFloat>() {
        F64Attr::TAG
    } else if obj.is_instance_of::<PyString>() {
        StrAttr::TAG
    } else if obj.is_instance_of::<PyComplex>() {
        Complex128Attr::TAG
    } else if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        return array(ctx, obj, Expect::Any, depth);
    } else if obj.cast::<PyType>().is_ok() {
        TypeAttr::TAG
    } else {
        return Err(kind_error(
            "None, bool, int, float, str, complex, list, pir.Type or pir.Attribute",
            obj,
        ));
    };
    from_py_depth(ctx, obj, Expect::Kind(kind), depth)
}

/// The Python value of a definition's default (converted by the attribute's
/// kind afterwards).
pub(crate) fn default_to_py(
    py: Python<'_>,
    d: DefaultValue,
    kind: AttrKind,
) -> PyResult<Py<PyAny>> {
    let obj = match d {
        DefaultValue::Bool(b) => PyBool::new(py, b).to_owned().into_any(),
        DefaultValue::Int(i) => match kind {
            AttrKind::Float | AttrKind::Double => PyFloat::new(py, i as f64).into_any(),
            _ => i.into_pyobject(py)?.into_any(),
        },
        DefaultValue::Float(f) => PyFloat::new(py, f).into_any(),
        DefaultValue::Str(s) => PyString::new(py, s.as_str()).into_any(),
        DefaultValue::IntList(v) => PyList::new(py, v.iter())?.into_any(),
        DefaultValue::FloatList(v) => PyList::new(py, v.iter())?.into_any(),
        DefaultValue::BoolList(v) => PyList::new(py, v.iter())?.into_any(),
        DefaultValue::StrList(v) => PyList::new(py, v.strs())?.into_any(),
        DefaultValue::Place(a, id, ty) => {
            let place = Place {
                allocation_type: a,
                device_id: id,
                device_type: ty.as_str().into(),
            };
            let attr = PlaceAttr::get(context(), place);
            Py::new(py, PyAttribute { attr })?.into_any().into_bound(py)
        }
    };
    Ok(obj.unbind())
}
