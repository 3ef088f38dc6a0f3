//! Parsing the patch language (seed `version-compat-patch-yaml.md`, format
//! spec §5.4) into a [`PatchSet`]. Every error names the file, the line and
//! the action being read.

use std::sync::Arc;

use marked_yaml::types::{MarkedMappingNode, MarkedScalarNode};
use marked_yaml::Node;

use super::model::{AttrAction, AttrEdit, OpPatch, Origin, PairPatch, PatchSet};
use super::tree::Json;

/// A patch file that cannot be understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {}{message}", action.map(|a| format!("{a}: ")).unwrap_or_default())]
pub struct PatchError {
    /// The patch file.
    pub file: String,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// 1-based column (0 when unknown).
    pub column: usize,
    /// The action being read, when known.
    pub action: Option<&'static str>,
    /// What is wrong.
    pub message: String,
}

/// Attribute class names of the patch language and their JSON ids.
const ATTR_CLASSES: [(&str, &str); 17] = [
    ("pir::BoolAttribute", "0.a_bool"),
    ("pir::FloatAttribute", "0.a_f32"),
    ("pir::DoubleAttribute", "0.a_f64"),
    ("pir::Int32Attribute", "0.a_i32"),
    ("pir::Int64Attribute", "0.a_i64"),
    ("pir::IndexAttribute", "0.a_index"),
    ("pir::StrAttribute", "0.a_str"),
    ("pir::TensorNameAttribute", "0.a_tensorname"),
    ("pir::TypeAttribute", "0.a_type"),
    ("pir::Complex64Attribute", "0.a_c64"),
    ("pir::Complex128Attribute", "0.a_c128"),
    ("pir::ArrayAttribute", "0.a_array"),
    ("paddle::dialect::IntArrayAttribute", "1.a_intarray"),
    ("paddle::dialect::ScalarAttribute", "1.a_scalar"),
    ("paddle::dialect::DataTypeAttribute", "1.a_dtype"),
    ("paddle::dialect::PlaceAttribute", "1.a_place"),
    ("paddle::dialect::DataLayoutAttribute", "1.a_layout"),
];

/// Type class names of the patch language and their JSON ids.
const TYPE_CLASSES: [(&str, &str); 18] = [
    ("pir::BoolType", "0.t_bool"),
    ("pir::BFloat16Type", "0.t_bf16"),
    ("pir::Float16Type", "0.t_f16"),
    ("pir::Float32Type", "0.t_f32"),
    ("pir::Float64Type", "0.t_f64"),
    ("pir::Int8Type", "0.t_i8"),
    ("pir::UInt8Type", "0.t_ui8"),
    ("pir::Int16Type", "0.t_i16"),
    ("pir::Int32Type", "0.t_i32"),
    ("pir::Int64Type", "0.t_i64"),
    ("pir::IndexType", "0.t_index"),
    ("pir::Complex64Type", "0.t_c64"),
    ("pir::Complex128Type", "0.t_c128"),
    ("pir::VectorType", "0.t_vec"),
    ("pir::DenseTensorType", "0.t_dtensor"),
    ("pir::StackType", "2.t_stack"),
    ("pir::InletType", "2.t_inlet"),
    ("pir::OutletType", "2.t_outlet"),
];

/// The JSON id of an attribute class name (the id itself is accepted too).
pub fn attr_class_id(class: &str) -> Option<&'static str> {
    ATTR_CLASSES
        .iter()
        .find(|(c, id)| *c == class || *id == class)
        .map(|(_, id)| *id)
}

/// The JSON id of a type class name (the id itself is accepted too).
pub fn type_class_id(class: &str) -> Option<&'static str> {
    TYPE_CLASSES
        .iter()
        .find(|(c, id)| *c == class || *id == class)
        .map(|(_, id)| *id)
}

struct Ctx<'a> {
    file: &'a Arc<str>,
    action: Option<&'static str>,
}

/// An action being read (see [`Ctx::action`]).
struct Action<'n, 'a> {
    map: &'n MarkedMappingNode,
    node: &'n MarkedScalarNode,
    name: &'static str,
    ctx: Ctx<'a>,
}

impl<'a> Ctx<'a> {
    fn err(&self, node_span: &marked_yaml::Span, message: impl Into<String>) -> PatchError {
        let (line, column) = node_span.start().map_or((0, 0), |m| (m.line(), m.column()));
        PatchError {
            file: self.file.to_string(),
            line,
            column,
            action: self.action,
            message: message.into(),
        }
    }

    fn origin(&self, span: &marked_yaml::Span) -> Origin {
        Origin {
            file: self.file.clone(),
            line: span.start().map_or(0, |m| m.line()),
            action: self.action.unwrap_or("patch"),
        }
    }

    fn mapping<'n>(&self, node: &'n Node, what: &str) -> Result<&'n MarkedMappingNode, PatchError> {
        node.as_mapping()
            .ok_or_else(|| self.err(node.span(), format!("{what} must be a mapping")))
    }

    fn scalar<'n>(
        &self,
        map: &'n MarkedMappingNode,
        key: &str,
    ) -> Result<&'n MarkedScalarNode, PatchError> {
        match map.get_node(key) {
            Some(Node::Scalar(s)) => Ok(s),
            Some(other) => Err(self.err(other.span(), format!("`{key}` must be a scalar"))),
            None => Err(self.err(map.span(), format!("missing `{key}`"))),
        }
    }

    /// The `actions` list of a patch entry.
    fn actions<'n>(&self, map: &'n MarkedMappingNode) -> Result<&'n [Node], PatchError> {
        let actions = map
            .get_node("actions")
            .ok_or_else(|| self.err(map.span(), "missing `actions`"))?;
        sequence(self, actions, "actions")
    }

    /// One action of an `actions` list: its mapping, its `action` node, the
    /// action's name if `accept` takes it (else the error `refused` says of
    /// the text) and a context naming it in errors.
    fn action<'n>(
        &self,
        node: &'n Node,
        accept: impl Fn(&str) -> bool,
        refused: impl Fn(&str) -> String,
    ) -> Result<Action<'n, 'a>, PatchError> {
        let map = self.mapping(node, "an action")?;
        let node = self.scalar(map, "action")?;
        let name = action_name(node.as_str().trim()).filter(|a| accept(a));
        let name = name.ok_or_else(|| self.err(node.span(), refused(node.as_str())))?;
        let ctx = Ctx {
            file: self.file,
            action: Some(name),
        };
        Ok(Action {
            map,
            node,
            name,
            ctx,
        })
    }

    fn index(&self, node: &Node, what: &str) -> Result<usize, PatchError> {
        node.as_scalar()
            .and_then(|s| s.as_str().trim().parse::<usize>().ok())
            .ok_or_else(|| {
                self.err(
                    node.span(),
                    format!("{what} must be a non-negative integer"),
                )
            })
    }
}

/// Parses a patch file. `file` names it in errors.
pub fn parse_patch_yaml(file: &str, text: &str) -> Result<PatchSet, PatchError> {
    let file: Arc<str> = file.into();
    let ctx = Ctx {
        file: &file,
        action: None,
    };
    let root = marked_yaml::parse_yaml(0, text).map_err(|e| {
        let message = e.to_string();
        let (line, column) = load_error_position(&e);
        PatchError {
            file: file.to_string(),
            line,
            column,
            action: None,
            message,
        }
    })?;
    let root = ctx.mapping(&root, "a patch file")?;
    let mut set = PatchSet::default();
    for (key, value) in root.iter() {
        match key.as_str() {
            "op_patches" => parse_op_patches(&ctx, value, &mut set)?,
            "op_pair_patches" => parse_pair_patches(&ctx, value, &mut set)?,
            "type_patches" => parse_id_patches(&ctx, value, "type_name", true, &mut set)?,
            "attr_patches" => parse_id_patches(&ctx, value, "attr_name", false, &mut set)?,
            other => return Err(ctx.err(key.span(), format!("unknown section `{other}`"))),
        }
    }
    Ok(set)
}

fn load_error_position(e: &marked_yaml::LoadError) -> (usize, usize) {
    use marked_yaml::LoadError::*;
    let m = match e {
        TopLevelMustBeMapping(m)
        | TopLevelMustBeSequence(m)
        | UnexpectedAnchor(m)
        | MappingKeyMustBeScalar(m)
        | UnexpectedTag(m)
        | ScanError(m, _) => Some(*m),
        _ => None,
    };
    m.map_or((0, 0), |m| (m.line(), m.column()))
}

fn sequence<'n>(ctx: &Ctx<'_>, node: &'n Node, what: &str) -> Result<&'n [Node], PatchError> {
    match node {
        Node::Sequence(s) => Ok(s),
        // An empty section (`op_patches:`) is a null scalar.
        Node::Scalar(s)
            if s.as_str().trim().is_empty() || s.as_str() == "~" || s.as_str() == "null" =>
        {
            Ok(&[])
        }
        other => Err(ctx.err(other.span(), format!("{what} must be a list"))),
    }
}

fn parse_op_patches(ctx: &Ctx<'_>, node: &Node, set: &mut PatchSet) -> Result<(), PatchError> {
    for entry in sequence(ctx, node, "op_patches")? {
        let map = ctx.mapping(entry, "an op patch")?;
        let op_name = ctx.scalar(map, "op_name")?.as_str().trim().to_owned();
        let mut patch = OpPatch::default();
        for action in ctx.actions(map)? {
            parse_op_action(&file_ctx(ctx), action, &op_name, &mut patch)?;
        }
        let mut single = PatchSet::default();
        single.ops.insert(op_name, patch);
        set.merge(single);
    }
    Ok(())
}

fn file_ctx<'a>(ctx: &Ctx<'a>) -> Ctx<'a> {
    Ctx {
        file: ctx.file,
        action: None,
    }
}

fn unknown_action(text: &str) -> String {
    format!("unknown action `{text}`")
}

/// The static name of an action keyword, for error messages and origins.
fn action_name(s: &str) -> Option<&'static str> {
    const ACTIONS: [&str; 16] = [
        "add_attr",
        "modify_attr",
        "delete_attr",
        "modify_attr_name",
        "add_output_attr",
        "modify_output_attr",
        "delete_output_attr",
        "modify_output_attr_name",
        "delete_input",
        "add_output",
        "modify_output_type",
        "modify_name",
        "add_value",
        "delete_value",
        "delete_type",
        "add_type_attr",
    ];
    ACTIONS.iter().find(|a| **a == s).copied()
}

fn parse_op_action(
    ctx: &Ctx<'_>,
    node: &Node,
    op_name: &str,
    patch: &mut OpPatch,
) -> Result<(), PatchError> {
    let Action {
        map,
        node: action_node,
        name: action,
        ctx,
    } = ctx.action(node, |_| true, unknown_action)?;
    let origin = ctx.origin(map.span());
    let object = map.get_node("object");
    let object_name = || -> Result<String, PatchError> {
        match object {
            Some(Node::Scalar(s)) => Ok(s.as_str().trim().to_owned()),
            Some(other) => Err(ctx.err(other.span(), "`object` must be a name")),
            None => Err(ctx.err(map.span(), "missing `object`")),
        }
    };
    let data = map.get_node("data").or_else(|| map.get_node("default"));
    let class = || {
        map.get_scalar("type")
            .map(|s| s.as_str().trim())
            .ok_or_else(|| ctx.err(map.span(), "missing `type`"))
    };
    let object_index = || {
        let object = object.ok_or_else(|| ctx.err(map.span(), "missing `object`"))?;
        ctx.index(object, "`object`")
    };
    match action {
        "add_attr" | "add_output_attr" => {
            let name = object_name()?;
            let class = class()?;
            let data = data
                .ok_or_else(|| ctx.err(map.span(), "missing `data` (the new attribute's value)"))?;
            let attr = attribute_json(&ctx, class, Some(data), map.span())?;
            let entry = Json::Obj(vec![
                ("AT".into(), attr),
                ("N".into(), Json::Str(name.clone())),
            ]);
            push_attr_edit(patch, action, name, AttrEdit::Add(entry), origin);
        }
        "modify_attr" | "modify_output_attr" => {
            let name = object_name()?;
            let class = class()?;
            let id = attr_class_id(class)
                .ok_or_else(|| ctx.err(map.span(), format!("unknown attribute class `{class}`")))?;
            let mut element_id = None;
            let mut new_data = None;
            if let Some(d) = data {
                if id == "0.a_array" && array_of_bare_kinds(d) {
                    // `data: [{type: X}, ...]` without values: retag the elements the file has.
                    let first = d
                        .as_sequence()
                        .and_then(|s| s.first())
                        .and_then(|n| n.as_mapping());
                    let elem_class = first
                        .and_then(|m| m.get_scalar("type"))
                        .map(|s| s.as_str().trim());
                    let elem_class = elem_class
                        .ok_or_else(|| ctx.err(d.span(), "array elements need a `type`"))?;
                    let elem = attr_class_id(elem_class).ok_or_else(|| {
                        ctx.err(d.span(), format!("unknown attribute class `{elem_class}`"))
                    })?;
                    element_id = Some(elem.to_owned());
                } else {
                    let attr = attribute_json(&ctx, class, Some(d), map.span())?;
                    new_data = attr.get("D").cloned();
                }
            }
            let edit = AttrEdit::Modify {
                id: id.to_owned(),
                data: new_data,
                element_id,
            };
            push_attr_edit(patch, action, name, edit, origin);
        }
        "delete_attr" | "delete_output_attr" => {
            let name = object_name()?;
            push_attr_edit(patch, action, name, AttrEdit::Delete, origin);
        }
        "modify_attr_name" | "modify_output_attr_name" => {
            let name = object_name()?;
            let new = data
                .and_then(|d| d.as_scalar())
                .map(|s| s.as_str().trim().to_owned())
                .ok_or_else(|| ctx.err(map.span(), "missing `data` (the new name)"))?;
            push_attr_edit(patch, action, name, AttrEdit::Rename(new), origin);
        }
        "delete_input" => {
            let index = object_index()?;
            patch.delete_inputs.push((index, origin));
        }
        "add_output" | "modify_output_type" => {
            let index = object_index()?;
            let class = class()?;
            let ty = type_json(&ctx, class, data, map.span())?;
            if action == "add_output" {
                patch.add_outputs.push((index, ty, origin));
            } else {
                patch.modify_output_types.push((index, ty, origin));
            }
        }
        "modify_name" => {
            let new = data
                .or(object)
                .and_then(|d| d.as_scalar())
                .map(|s| s.as_str().trim().to_owned())
                .ok_or_else(|| ctx.err(map.span(), "missing `data` (the new op name)"))?;
            patch.rename = Some((new, origin));
        }
        other => {
            return Err(ctx.err(
                action_node.span(),
                format!("`{other}` is not an op action (op `{op_name}`)"),
            ));
        }
    }
    Ok(())
}

/// Adds an edit of attribute `name` to the op's attributes, or to its
/// output attributes for the `*_output_attr*` actions.
fn push_attr_edit(patch: &mut OpPatch, action: &str, name: String, edit: AttrEdit, origin: Origin) {
    let list = if action.contains("output_attr") {
        &mut patch.output_attrs
    } else {
        &mut patch.attrs
    };
    list.push(AttrAction { name, edit, origin });
}

/// The trimmed text of a scalar node (empty for any other node).
fn scalar_text(node: &Node) -> String {
    node.as_scalar()
        .map(|s| s.as_str().trim().to_owned())
        .unwrap_or_default()
}

fn array_of_bare_kinds(data: &Node) -> bool {
    match data.as_sequence() {
        Some(items) => items.iter().all(|n| {
            n.as_mapping()
                .is_some_and(|m| m.get_node("data").is_none() && m.get_node("default").is_none())
        }),
        None => false,
    }
}

/// Builds an attribute object `{"#": id, "D": data}` from a class name and YAML data.
fn attribute_json(
    ctx: &Ctx<'_>,
    class: &str,
    data: Option<&Node>,
    span: &marked_yaml::Span,
) -> Result<Json, PatchError> {
    let id = attr_class_id(class)
        .ok_or_else(|| ctx.err(span, format!("unknown attribute class `{class}`")))?;
    let Some(data) = data else {
        return Ok(Json::tagged(id));
    };
    let scalar = || {
        data.as_scalar()
            .map(|s| s.as_str().trim())
            .ok_or_else(|| ctx.err(data.span(), format!("{class} data must be a scalar")))
    };
    let value = match id {
        "0.a_bool" => {
            let s = scalar()?;
            match s.to_ascii_lowercase().as_str() {
                "true" | "1" => Json::Bool(true),
                "false" | "0" => Json::Bool(false),
                _ => return Err(ctx.err(data.span(), format!("`{s}` is not a bool"))),
            }
        }
        "0.a_i32" | "0.a_i64" | "0.a_index" => Json::Int(parse_int(ctx, data, scalar()?)?),
        "0.a_f32" | "0.a_f64" => Json::Float(parse_float(ctx, data, scalar()?)?),
        "0.a_c64" | "0.a_c128" => Json::Arr(vec![
            Json::Float(parse_float(ctx, data, scalar()?)?),
            Json::Float(0.0),
        ]),
        "0.a_str" | "0.a_tensorname" | "0.a_type" | "1.a_dtype" | "1.a_layout" => {
            Json::Str(scalar()?.to_owned())
        }
        "0.a_array" => {
            let items = data
                .as_sequence()
                .ok_or_else(|| ctx.err(data.span(), "array data must be a list"))?;
            let mut out = Vec::with_capacity(items.len());
            for item in items.iter() {
                let m = ctx.mapping(item, "an array element")?;
                let elem_class = ctx.scalar(m, "type")?.as_str().trim();
                out.push(attribute_json(
                    ctx,
                    elem_class,
                    m.get_node("data").or_else(|| m.get_node("default")),
                    m.span(),
                )?);
            }
            Json::Arr(out)
        }
        "1.a_intarray" => {
            let items = data
                .as_sequence()
                .ok_or_else(|| ctx.err(data.span(), "IntArray data must be a list of integers"))?;
            let mut out = Vec::with_capacity(items.len());
            for item in items.iter() {
                let s = item
                    .as_scalar()
                    .map(|s| s.as_str().trim())
                    .unwrap_or_default();
                out.push(Json::Int(parse_int(ctx, item, s)?));
            }
            Json::Arr(out)
        }
        "1.a_place" => {
            let items = data.as_sequence().ok_or_else(|| {
                ctx.err(
                    data.span(),
                    "Place data must be [allocation_type, device_id, device_type]",
                )
            })?;
            if items.len() != 3 {
                return Err(ctx.err(
                    data.span(),
                    "Place data must be [allocation_type, device_id, device_type]",
                ));
            }
            Json::Arr(vec![
                Json::Int(parse_int(ctx, &items[0], &scalar_text(&items[0]))?),
                Json::Int(parse_int(ctx, &items[1], &scalar_text(&items[1]))?),
                Json::Str(scalar_text(&items[2])),
            ])
        }
        "1.a_scalar" => {
            let items = data
                .as_sequence()
                .ok_or_else(|| ctx.err(data.span(), "Scalar data must be [dtype, value]"))?;
            if items.len() != 2 {
                return Err(ctx.err(data.span(), "Scalar data must be [dtype, value]"));
            }
            let dtype = scalar_text(&items[0]);
            let v = scalar_text(&items[1]);
            let value = match dtype.as_str() {
                "bool" => Json::Bool(v == "true"),
                "float16" | "bfloat16" | "float32" | "float64" => {
                    Json::Float(parse_float(ctx, &items[1], &v)?)
                }
                _ => Json::Int(parse_int(ctx, &items[1], &v)?),
            };
            Json::Arr(vec![Json::Str(dtype), value])
        }
        _ => return Err(ctx.err(span, format!("cannot build data for `{class}`"))),
    };
    Ok(Json::tagged_with(id, value))
}

fn parse_int(ctx: &Ctx<'_>, node: &Node, s: &str) -> Result<i64, PatchError> {
    s.parse::<i64>()
        .map_err(|_| ctx.err(node.span(), format!("`{s}` is not an integer")))
}

fn parse_float(ctx: &Ctx<'_>, node: &Node, s: &str) -> Result<f64, PatchError> {
    s.parse::<f64>()
        .map_err(|_| ctx.err(node.span(), format!("`{s}` is not a number")))
}

/// Builds a type object from a class name and YAML data.
fn type_json(
    ctx: &Ctx<'_>,
    class: &str,
    data: Option<&Node>,
    span: &marked_yaml::Span,
) -> Result<Json, PatchError> {
    let id = type_class_id(class)
        .ok_or_else(|| ctx.err(span, format!("unknown type class `{class}`")))?;
    match id {
        "0.t_dtensor" => {
            let data = data.ok_or_else(|| {
                ctx.err(
                    span,
                    "DenseTensorType needs `data: [dtype, dims, layout, lod, offset]`",
                )
            })?;
            let items = data.as_sequence().filter(|s| s.len() == 5);
            let items = items.ok_or_else(|| {
                ctx.err(
                    data.span(),
                    "DenseTensorType data must be [dtype, dims, layout, lod, offset]",
                )
            })?;
            let dtype = type_json(ctx, &scalar_text(&items[0]), None, items[0].span())?;
            let ints = |n: &Node| -> Result<Vec<Json>, PatchError> {
                let seq = n
                    .as_sequence()
                    .ok_or_else(|| ctx.err(n.span(), "expected a list of integers"))?;
                seq.iter()
                    .map(|i| parse_int(ctx, i, &scalar_text(i)).map(Json::Int))
                    .collect()
            };
            let lod_seq = items[3]
                .as_sequence()
                .ok_or_else(|| ctx.err(items[3].span(), "lod must be a list of lists"))?;
            let lod: Result<Vec<Json>, PatchError> =
                lod_seq.iter().map(|l| ints(l).map(Json::Arr)).collect();
            Ok(Json::tagged_with(
                id,
                Json::Arr(vec![
                    dtype,
                    Json::Arr(ints(&items[1])?),
                    Json::Str(scalar_text(&items[2])),
                    Json::Arr(lod?),
                    Json::Int(parse_int(ctx, &items[4], &scalar_text(&items[4]))?),
                ]),
            ))
        }
        "0.t_vec" => {
            let items = match data {
                Some(d) => d
                    .as_sequence()
                    .ok_or_else(|| ctx.err(d.span(), "VectorType data must be a list of types"))?
                    .to_vec(),
                None => Vec::new(),
            };
            let mut out = Vec::new();
            for item in &items {
                out.push(type_json(ctx, &scalar_text(item), None, item.span())?);
            }
            Ok(Json::tagged_with(id, Json::Arr(out)))
        }
        _ => Ok(Json::tagged(id)),
    }
}

fn parse_pair_patches(ctx: &Ctx<'_>, node: &Node, set: &mut PatchSet) -> Result<(), PatchError> {
    for entry in sequence(ctx, node, "op_pair_patches")? {
        let map = ctx.mapping(entry, "an op pair patch")?;
        let pair = map.get_sequence("op_pair").filter(|s| s.len() == 2);
        let pair =
            pair.ok_or_else(|| ctx.err(map.span(), "`op_pair` must be [producer, consumer]"))?;
        let (producer, consumer) = (scalar_text(&pair[0]), scalar_text(&pair[1]));
        for action in ctx.actions(map)? {
            let Action {
                map: amap,
                name: kind,
                ctx: actx,
                ..
            } = ctx.action(
                action,
                |a| a == "add_value" || a == "delete_value",
                |a| format!("`{a}` is not an op-pair action"),
            )?;
            let object = amap.get_sequence("object").filter(|s| s.len() == 2);
            let object = object.ok_or_else(|| {
                actx.err(amap.span(), "`object` must be [output index, input index]")
            })?;
            let output = actx.index(&object[0], "the output index")?;
            let input = actx.index(&object[1], "the input index")?;
            let add = if kind == "add_value" {
                let class = amap
                    .get_scalar("type")
                    .map(|s| s.as_str().trim())
                    .unwrap_or("pir::DenseTensorType");
                Some(type_json(
                    &actx,
                    class,
                    amap.get_node("data").or_else(|| amap.get_node("default")),
                    amap.span(),
                )?)
            } else {
                None
            };
            set.pairs.push(PairPatch {
                producer: producer.clone(),
                consumer: consumer.clone(),
                output,
                input,
                add,
                origin: actx.origin(amap.span()),
            });
        }
    }
    Ok(())
}

fn parse_id_patches(
    ctx: &Ctx<'_>,
    node: &Node,
    key: &str,
    types: bool,
    set: &mut PatchSet,
) -> Result<(), PatchError> {
    for entry in sequence(ctx, node, key)? {
        let map = ctx.mapping(entry, "an id patch")?;
        let class_node = ctx.scalar(map, key)?;
        let class = class_node.as_str().trim();
        let lookup = |c: &str| {
            if types {
                type_class_id(c)
            } else {
                attr_class_id(c)
            }
        };
        let id = lookup(class)
            .ok_or_else(|| ctx.err(class_node.span(), format!("unknown class `{class}`")))?;
        for action in ctx.actions(map)? {
            let Action {
                map: amap,
                node: action_node,
                name: kind,
                ctx: actx,
            } = ctx.action(action, |_| true, unknown_action)?;
            let new_id = match kind {
                "modify_name" => {
                    let target = amap
                        .get_scalar("type")
                        .or_else(|| amap.get_scalar("data"))
                        .map(|s| s.as_str().trim());
                    let target = target
                        .ok_or_else(|| actx.err(amap.span(), "missing `type` (the new class)"))?;
                    lookup(target)
                        .ok_or_else(|| actx.err(amap.span(), format!("unknown class `{target}`")))?
                        .to_owned()
                }
                "delete_type" | "delete_attr" => String::new(),
                "add_type_attr" => {
                    return Err(actx.err(
                        action_node.span(),
                        "`add_type_attr` is documented but not implemented by Paddle either",
                    ))
                }
                other => {
                    return Err(actx.err(
                        action_node.span(),
                        format!("`{other}` is not a {key} action"),
                    ))
                }
            };
            let origin = actx.origin(amap.span());
            let map = if types {
                &mut set.type_renames
            } else {
                &mut set.attr_renames
            };
            map.insert(id.to_owned(), (new_id, origin));
        }
    }
    Ok(())
}
