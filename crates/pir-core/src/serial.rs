//! Shared pieces of the JSON encoding of types and attributes.
//!
//! Each type and attribute kind reads and writes its own JSON (see
//! [`crate::types::TypeDef`]); this module holds what they share: the dispatch
//! on the `"#"` id through the context's registry, typed accessors that turn a
//! wrong shape into a [`DecodeError`] naming the JSON path, and the
//! `{"#": id, "D": data}` framing. The program-level format lives in `pir-serde`.
//!
//! Text spelled exactly as the writer spells it can also be read without a
//! document ([`decode_type_exact`], [`decode_attr_exact`]): each kind that
//! can reads its own text ([`crate::TypeDef::decode_exact`]), found by its id
//! like its decoder; any other spelling gives `None` and the document is
//! decoded instead.

use std::borrow::Cow;

pub use pir_json::{
    Exact as ExactJson, Path as JsonPath, Value as JsonValue, Writer as JsonWriter,
};

pub use crate::field::JsonField;

use crate::attributes::Attribute;
use crate::context::IrContext;
use crate::kind::{HandleKind, StoredData};
use crate::types::Type;

/// A JSON value that does not describe a valid type or attribute.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct DecodeError {
    /// Where, e.g. `program.regions[0].blocks[0].ops[17].O[0].TT.D[0]`.
    pub path: String,
    /// What was wrong.
    pub message: String,
}

impl DecodeError {
    /// An error at `path`.
    pub fn at(path: &JsonPath<'_>, message: impl Into<String>) -> Self {
        DecodeError {
            path: path.to_string(),
            message: message.into(),
        }
    }
}

/// What a kind's `decode` ([`crate::TypeDef::decode`],
/// [`crate::AttrDef::decode`]) reads: the JSON object of one value
/// (`{"#": id, "D": ...}`), its id, and where it stands in the document.
#[derive(Clone, Copy)]
pub struct DecodeInput<'a> {
    /// The context the value is interned in.
    pub ctx: &'a IrContext,
    /// The object's `"#"`, one of the kind's `JSON_IDS`.
    pub id: &'a str,
    /// The whole object.
    pub obj: JsonValue<'a>,
    /// Where the object stands, for the messages of a wrong one.
    pub path: &'a JsonPath<'a>,
}

impl<'a> DecodeInput<'a> {
    /// The object's data (its `"D"` member) and the data's path.
    pub fn data(&self) -> Result<(JsonValue<'a>, JsonPath<'a>), DecodeError> {
        Ok((field(self.obj, "D", self.path)?, self.path.key("D")))
    }
}

/// What a field's [`JsonField::decode_field`] reads: one element of a
/// kind's data and where it stands.
#[derive(Clone, Copy)]
pub struct FieldInput<'a> {
    /// The context types and attributes in the field are interned in.
    pub ctx: &'a IrContext,
    /// The element.
    pub value: JsonValue<'a>,
    /// Where the element stands, for the messages of a wrong one.
    pub path: &'a JsonPath<'a>,
}

/// A type or attribute that cannot be written in Paddle's JSON format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// Paddle has no encoding for this kind (its writer throws too).
    #[error("{0} cannot be saved: the format has no encoding for it")]
    Unserializable(String),
    /// A NaN or infinity where the format only allows finite numbers.
    #[error("non-finite number in {0} cannot be saved")]
    NonFinite(String),
}

/// The JSON entry points of the two handles, [`Type`] and [`Attribute`]:
/// each forwards to the reader or writer below that serves both, so the
/// pair is written once.
macro_rules! handle_entry_points {
    ($(
        $handle:ident, $value:ident:
        $(#[$decode_doc:meta])* fn $decode:ident;
        $(#[$exact_doc:meta])* fn $exact:ident;
        $(#[$encode_doc:meta])* fn $encode:ident;
    )*) => {$(
        $(#[$decode_doc])*
        pub fn $decode(
            ctx: &IrContext,
            v: JsonValue<'_>,
            path: &JsonPath<'_>,
        ) -> Result<$handle, DecodeError> {
            decode_kind(ctx, v, path)
        }

        $(#[$exact_doc])*
        pub fn $exact(ctx: &IrContext, text: &mut ExactJson<'_>) -> Option<$handle> {
            decode_kind_exact(ctx, text)
        }

        $(#[$encode_doc])*
        pub fn $encode(
            ctx: &IrContext,
            $value: $handle,
            w: &mut JsonWriter<'_>,
        ) -> Result<(), EncodeError> {
            encode_kind(ctx, $value, w)
        }
    )*};
}

handle_entry_points! {
    Type, ty:
    /// Reads a type object (`{"#": id, ...}`) through the context's registry.
    fn decode_type;
    /// Reads a type object spelled exactly as the writer spells it
    /// (`{"#":"0.t_f32"}`) without a document, through its kind's
    /// [`TypeDef::decode_exact`](crate::TypeDef::decode_exact). `None` for any
    /// other spelling, an id no kind registered, or a kind without such a reader:
    /// then [`decode_type`] on the text's document gives the type or the error.
    fn decode_type_exact;
    /// Writes a type object.
    fn encode_type;

    Attribute, attr:
    /// Reads an attribute object through the context's registry.
    fn decode_attr;
    /// Reads an attribute object spelled exactly as the writer spells it
    /// (`{"#":"0.a_i32","D":3}`) without a document, as [`decode_type_exact`] does types.
    fn decode_attr_exact;
    /// Writes an attribute object.
    fn encode_attr;
}

/// Reads an object by the decoder its `"#"` names among `H`'s kinds.
pub(crate) fn decode_kind<H: HandleKind>(
    ctx: &IrContext,
    v: JsonValue<'_>,
    path: &JsonPath<'_>,
) -> Result<H, DecodeError> {
    let id = tag(v, path)?;
    match H::store(ctx).decoders(&id) {
        Some((decode, _)) => decode(DecodeInput {
            ctx,
            id: &id,
            obj: v,
            path,
        }),
        None => Err(DecodeError::at(
            &JsonPath::Key(path, "#"),
            format!("unknown {} id `{id}`", H::WHAT),
        )),
    }
}

/// Reads an object spelled exactly by the reader of exact text its `"#"`
/// names among `H`'s kinds.
#[inline]
pub(crate) fn decode_kind_exact<H: HandleKind>(
    ctx: &IrContext,
    text: &mut ExactJson<'_>,
) -> Option<H> {
    text.nest(|text| {
        let id = exact_tag(text)?;
        H::store(ctx).decoders(id)?.1(ctx, id, text)
    })
}

/// Reads `{"#":"id"` (an id without escapes), giving the id.
fn exact_tag<'t>(text: &mut ExactJson<'t>) -> Option<&'t str> {
    text.eat(r##"{"#":"##)?;
    text.string()
}

/// Reads the `,"D":data}` that ends an object spelled exactly, the data with `read`.
pub fn decode_data_exact<'t, T>(
    text: &mut ExactJson<'t>,
    read: impl FnOnce(&mut ExactJson<'t>) -> Option<T>,
) -> Option<T> {
    text.eat(r#","D":"#)?;
    let data = read(text)?;
    text.eat_byte(b'}')?;
    Some(data)
}

/// Writes the object of a type or an attribute by its kind.
pub(crate) fn encode_kind<H: HandleKind>(
    ctx: &IrContext,
    handle: H,
    w: &mut JsonWriter<'_>,
) -> Result<(), EncodeError> {
    H::store(ctx).get(handle).stored_encode(ctx, w)
}

/// The `"#"` of an object.
pub fn tag<'d>(v: JsonValue<'d>, path: &JsonPath<'_>) -> Result<Cow<'d, str>, DecodeError> {
    let t = field(v, "#", path)?;
    string(t, &JsonPath::Key(path, "#"))
}

/// Writes `{"#":id}`.
pub fn write_tag_only(w: &mut JsonWriter<'_>, id: &str) {
    w.begin_object();
    w.key("#");
    w.string(id);
    w.end_object();
}

/// Writes `{"#":id,"D":` — the caller writes the data and closes the object.
pub fn begin_tagged(w: &mut JsonWriter<'_>, id: &str) {
    w.begin_object();
    w.key("#");
    w.string(id);
    w.key("D");
}

/// The member `key` of an object.
pub fn field<'d>(
    v: JsonValue<'d>,
    key: &str,
    path: &JsonPath<'_>,
) -> Result<JsonValue<'d>, DecodeError> {
    if v.kind() != pir_json::Kind::Object {
        return Err(DecodeError::at(
            path,
            format!("expected an object, found {}", describe(v)),
        ));
    }
    v.get(key)
        .ok_or_else(|| DecodeError::at(path, format!("missing key `{key}`")))
}

/// The elements of an array.
pub fn array<'d>(
    v: JsonValue<'d>,
    path: &JsonPath<'_>,
) -> Result<impl ExactSizeIterator<Item = JsonValue<'d>>, DecodeError> {
    v.array()
        .ok_or_else(|| DecodeError::at(path, format!("expected an array, found {}", describe(v))))
}

/// The elements of an array of exactly `N` elements.
pub fn array_n<'d, const N: usize>(
    v: JsonValue<'d>,
    path: &JsonPath<'_>,
) -> Result<[JsonValue<'d>; N], DecodeError> {
    let items = array(v, path)?;
    if items.len() != N {
        return Err(DecodeError::at(
            path,
            format!("expected an array of {N} elements, found {}", items.len()),
        ));
    }
    let mut out = [v; N];
    for (slot, item) in out.iter_mut().zip(items) {
        *slot = item;
    }
    Ok(out)
}

/// A string.
pub fn string<'d>(v: JsonValue<'d>, path: &JsonPath<'_>) -> Result<Cow<'d, str>, DecodeError> {
    v.as_str()
        .ok_or_else(|| DecodeError::at(path, format!("expected a string, found {}", describe(v))))
}

/// A signed 64-bit integer.
pub fn int(v: JsonValue<'_>, path: &JsonPath<'_>) -> Result<i64, DecodeError> {
    v.as_i64()
        .ok_or_else(|| DecodeError::at(path, format!("expected an integer, found {}", describe(v))))
}

/// An unsigned 64-bit integer.
pub fn uint(v: JsonValue<'_>, path: &JsonPath<'_>) -> Result<u64, DecodeError> {
    v.as_u64().ok_or_else(|| {
        DecodeError::at(
            path,
            format!("expected an unsigned integer, found {}", describe(v)),
        )
    })
}

/// A number (integers are accepted, as Paddle's reader does).
pub fn float(v: JsonValue<'_>, path: &JsonPath<'_>) -> Result<f64, DecodeError> {
    v.as_f64()
        .ok_or_else(|| DecodeError::at(path, format!("expected a number, found {}", describe(v))))
}

/// A boolean.
pub fn boolean(v: JsonValue<'_>, path: &JsonPath<'_>) -> Result<bool, DecodeError> {
    v.as_bool()
        .ok_or_else(|| DecodeError::at(path, format!("expected a boolean, found {}", describe(v))))
}

/// A short description of a JSON value for error messages.
pub fn describe(v: JsonValue<'_>) -> String {
    use pir_json::Kind;
    match v.kind() {
        Kind::Null => "null".into(),
        Kind::Bool => format!("{}", v.as_bool().unwrap_or_default()),
        Kind::Number => format!("the number {}", v.number_text().unwrap_or("?")),
        Kind::String => {
            let s = v.as_str().unwrap_or_default();
            if s.len() > 40 {
                format!("a string \"{}…\"", s.chars().take(40).collect::<String>())
            } else {
                format!("the string \"{s}\"")
            }
        }
        Kind::Array => format!("an array of {} elements", v.len()),
        Kind::Object => "an object".into(),
    }
}

/// Reads the `"D"` array of an object, each element with `item` (given the
/// element and its path) — the shape of every list-valued type or attribute.
pub fn decode_data_list<'d, T, E>(
    obj: JsonValue<'d>,
    path: &JsonPath<'_>,
    mut item: impl FnMut(JsonValue<'d>, &JsonPath<'_>) -> Result<T, E>,
) -> Result<Vec<T>, E>
where
    E: From<DecodeError>,
{
    let dpath = JsonPath::Key(path, "D");
    let data = field(obj, "D", path)?;
    let mut items = Vec::with_capacity(data.len());
    for (i, element) in array(data, &dpath)?.enumerate() {
        items.push(item(element, &JsonPath::Index(&dpath, i))?);
    }
    Ok(items)
}

/// Writes `{"#":id,"D":[...]}` with `item` writing each element.
pub fn encode_data_list<T: Copy>(
    w: &mut JsonWriter<'_>,
    id: &str,
    items: &[T],
    mut item: impl FnMut(T, &mut JsonWriter<'_>) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    begin_tagged(w, id);
    w.begin_array();
    for &x in items {
        item(x, w)?;
    }
    w.end_array();
    w.end_object();
    Ok(())
}
