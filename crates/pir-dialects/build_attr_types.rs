//! The one table of how an attribute type of Paddle's op definitions
//! compiles: to the `AttrKind` of the op table (`build.rs`) and to the typed
//! view's getter and builder (`build_views.rs`).

/// A typed view's getter return type, getter helper, build parameter type
/// and build maker (helpers of `views_support.rs`).
pub type View = (&'static str, &'static str, &'static str, &'static str);

/// How one attribute type compiles.
pub struct AttrType {
    /// The `AttrKind` expression of the op table.
    pub kind: String,
    /// The typed view's accessors.
    pub view: View,
}

/// The view of an attribute without a typed accessor.
const RAW: View = ("Attribute", "attr_raw", "Attribute", "make_raw");

/// Plain attribute types: C++ name, `AttrKind` variant, view.
const PLAIN: &[(&str, &str, View)] = &[
    (
        "pir::BoolAttribute",
        "Bool",
        ("bool", "attr_bool", "bool", "make_bool"),
    ),
    (
        "pir::Int32Attribute",
        "Int32",
        ("i32", "attr_i32", "i32", "make_i32"),
    ),
    (
        "pir::Int64Attribute",
        "Int64",
        ("i64", "attr_i64", "i64", "make_i64"),
    ),
    (
        "pir::IndexAttribute",
        "Index",
        ("i64", "attr_i64", "i64", "make_index"),
    ),
    (
        "pir::FloatAttribute",
        "Float",
        ("f32", "attr_f32", "f32", "make_f32"),
    ),
    (
        "pir::DoubleAttribute",
        "Double",
        ("f64", "attr_f64", "f64", "make_f64"),
    ),
    (
        "pir::StrAttribute",
        "Str",
        ("String", "attr_string", "&str", "make_str"),
    ),
    (
        "paddle::dialect::IntArrayAttribute",
        "IntArray",
        ("Vec<i64>", "attr_int_array", "&[i64]", "make_int_array"),
    ),
    (
        "paddle::dialect::DataTypeAttribute",
        "DataType",
        ("DataType", "attr_data_type", "DataType", "make_data_type"),
    ),
    (
        "paddle::dialect::PlaceAttribute",
        "Place",
        ("Place", "attr_place", "Place", "make_place"),
    ),
    (
        "paddle::dialect::DataLayoutAttribute",
        "DataLayout",
        (
            "pir_core::builtin::DataLayout",
            "attr_layout",
            "pir_core::builtin::DataLayout",
            "make_layout",
        ),
    ),
    ("pir::PointerAttribute", "Pointer", RAW),
];

/// Elements of `pir::ArrayAttribute<…>`: C++ name, `ElementKind` variant,
/// the array's view.
const ELEMENTS: &[(&str, &str, View)] = &[
    (
        "pir::BoolAttribute",
        "Bool",
        ("Vec<bool>", "attr_bool_vec", "&[bool]", "make_bool_vec"),
    ),
    (
        "pir::Int32Attribute",
        "Int32",
        ("Vec<i32>", "attr_i32_vec", "&[i32]", "make_i32_vec"),
    ),
    (
        "pir::Int64Attribute",
        "Int64",
        ("Vec<i64>", "attr_i64_vec", "&[i64]", "make_i64_vec"),
    ),
    (
        "pir::FloatAttribute",
        "Float",
        ("Vec<f32>", "attr_f32_vec", "&[f32]", "make_f32_vec"),
    ),
    (
        "pir::DoubleAttribute",
        "Double",
        ("Vec<f64>", "attr_f64_vec", "&[f64]", "make_f64_vec"),
    ),
    (
        "pir::StrAttribute",
        "Str",
        ("Vec<String>", "attr_string_vec", "&[&str]", "make_str_vec"),
    ),
    ("paddle::dialect::ScalarAttribute", "Scalar", RAW),
];

/// `paddle::dialect::ScalarAttribute` by its `data_type`: `ScalarDataType`
/// variant, build parameter type and maker (the getter gives the raw
/// attribute: Paddle's files store a Scalar as the builtin attribute of its
/// data type).
const SCALARS: &[(&str, &str, &str, &str)] = &[
    ("float", "Float", "f32", "make_f32"),
    ("double", "Double", "f64", "make_f64"),
    ("int", "Int32", "i32", "make_i32"),
    ("int64_t", "Int64", "i64", "make_i64"),
    ("bool", "Bool", "bool", "make_bool"),
];

/// How the attribute type `ty` (with the Scalar `data_type`) compiles; an
/// unknown type is `AttrKind::Any` with a raw view.
pub fn attr_type(ty: &str, data_type: &str) -> AttrType {
    if let Some(inner) = ty
        .strip_prefix("pir::ArrayAttribute<")
        .and_then(|s| s.strip_suffix('>'))
    {
        return match ELEMENTS.iter().find(|e| e.0 == inner) {
            Some(&(_, element, view)) => AttrType {
                kind: format!("AttrKind::Array(Some(ElementKind::{element}))"),
                view,
            },
            None => AttrType {
                kind: "AttrKind::Array(None)".into(),
                view: RAW,
            },
        };
    }
    if ty == "pir::ArrayAttribute" {
        return AttrType {
            kind: "AttrKind::Array(None)".into(),
            view: RAW,
        };
    }
    if ty == "paddle::dialect::ScalarAttribute" {
        let (variant, build, maker) = SCALARS
            .iter()
            .find(|s| s.0 == data_type)
            .map_or(("Other", "Attribute", "make_raw"), |&(_, v, b, m)| {
                (v, b, m)
            });
        return AttrType {
            kind: format!("AttrKind::Scalar(ScalarDataType::{variant})"),
            view: ("Attribute", "attr_raw", build, maker),
        };
    }
    match PLAIN.iter().find(|p| p.0 == ty) {
        Some(&(_, variant, view)) => AttrType {
            kind: format!("AttrKind::{variant}"),
            view,
        },
        None => AttrType {
            kind: "AttrKind::Any".into(),
            view: RAW,
        },
    }
}
