//! Builtin attributes: bool, integers, floats, strings, arrays, types, complex
//! numbers and the null attribute.

use crate::attributes::{AttrDef, Attribute};
use crate::context::IrContext;
use crate::parser::{Expect, ParseError, Parser};
use crate::printer::Printer;
use crate::serial::{self, DecodeError, EncodeError, ExactJson, JsonPath, JsonValue, JsonWriter};
use crate::types::Type;

/// The null attribute: `{"#":"NULL"}`, printed `<#AttrNull>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NullAttr;

impl AttrDef for NullAttr {
    const NAME: &'static str = "builtin.null";
    const JSON_IDS: &'static [&'static str] = &["NULL"];
    const TAG: &'static str = "Null";
    const SELF_DESCRIBING: bool = true;
    fn print(&self, p: &mut Printer<'_>) {
        p.write_str("<#AttrNull>");
    }
    fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
        p.cur.expect("<#AttrNull>", "")?;
        Ok(Attribute::NULL)
    }
    fn encode(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        serial::write_tag_only(w, "NULL");
        Ok(())
    }
    fn decode(
        _: &IrContext,
        _: &str,
        _: JsonValue<'_>,
        _: &JsonPath<'_>,
    ) -> Result<Attribute, DecodeError> {
        Ok(Attribute::NULL)
    }
    fn decode_exact(_: &IrContext, _: &str, text: &mut ExactJson<'_>) -> Option<Attribute> {
        text.eat_byte(b'}')?;
        Some(Attribute::NULL)
    }
}

/// Declares an attribute kind wrapping one integer-like value.
macro_rules! int_attr {
    ($(#[$doc:meta])* $name:ident($ty:ty), $kind:literal, $json:literal, $tag:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $name(pub $ty);

        impl AttrDef for $name {
            const NAME: &'static str = $kind;
            const JSON_IDS: &'static [&'static str] = &[$json];
            const TAG: &'static str = $tag;
            fn print(&self, p: &mut Printer<'_>) {
                p.write_i64(self.0 as i64);
            }
            fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
                p.cur.skip_ws();
                let start = p.cur.pos();
                let v = p.cur.int("an integer")?;
                let v = <$ty>::try_from(v).map_err(|_| {
                    p.error_at(start, p.cur.pos() - start, format!("{v} does not fit in {}", stringify!($ty)))
                })?;
                Ok(p.ctx().intern_attr($name(v)))
            }
            fn encode(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
                serial::begin_tagged(w, $json);
                w.i64(self.0 as i64);
                w.end_object();
                Ok(())
            }
            fn decode(ctx: &IrContext, _: &str, obj: JsonValue<'_>, path: &JsonPath<'_>) -> Result<Attribute, DecodeError> {
                let dpath = JsonPath::Key(path, "D");
                let v = serial::int(serial::field(obj, "D", path)?, &dpath)?;
                let v = <$ty>::try_from(v)
                    .map_err(|_| DecodeError::at(&dpath, format!("{v} does not fit in {}", stringify!($ty))))?;
                Ok(ctx.intern_attr($name(v)))
            }
            fn decode_exact(ctx: &IrContext, _: &str, text: &mut ExactJson<'_>) -> Option<Attribute> {
                let v = serial::decode_data_exact(text, ExactJson::int)?;
                Some(ctx.intern_attr($name(<$ty>::try_from(v).ok()?)))
            }
        }
    };
}

int_attr!(
    /// `pir::Int32Attribute` (`0.a_i32`).
    I32Attr(i32), "builtin.i32", "0.a_i32", "Int32"
);
int_attr!(
    /// `pir::Int64Attribute` (`0.a_i64`).
    I64Attr(i64), "builtin.i64", "0.a_i64", "Int64"
);
int_attr!(
    /// `pir::IndexAttribute` (`0.a_index`).
    IndexAttr(i64), "builtin.index", "0.a_index", "Index"
);

/// `pir::BoolAttribute` (`0.a_bool`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoolAttr(pub bool);

impl AttrDef for BoolAttr {
    const NAME: &'static str = "builtin.bool";
    const JSON_IDS: &'static [&'static str] = &["0.a_bool"];
    const TAG: &'static str = "Bool";
    const SELF_DESCRIBING: bool = true;
    fn print(&self, p: &mut Printer<'_>) {
        p.write_str(if self.0 { "true" } else { "false" });
    }
    fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
        let v = if p.cur.eat_keyword("true") {
            true
        } else if p.cur.eat_keyword("false") {
            false
        } else {
            return Err(p.expected("`true` or `false`"));
        };
        Ok(p.ctx().intern_attr(BoolAttr(v)))
    }
    fn encode(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        serial::begin_tagged(w, "0.a_bool");
        w.bool(self.0);
        w.end_object();
        Ok(())
    }
    fn decode(
        ctx: &IrContext,
        _: &str,
        obj: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Attribute, DecodeError> {
        let v = serial::boolean(serial::field(obj, "D", path)?, &JsonPath::Key(path, "D"))?;
        Ok(ctx.intern_attr(BoolAttr(v)))
    }
    fn decode_exact(ctx: &IrContext, _: &str, text: &mut ExactJson<'_>) -> Option<Attribute> {
        let v = serial::decode_data_exact(text, ExactJson::boolean)?;
        Some(ctx.intern_attr(BoolAttr(v)))
    }
}

/// `pir::FloatAttribute` (`0.a_f32`). Stored by bits so NaN payloads and −0.0
/// round-trip and uniquing is exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct F32Attr(pub u32);

impl F32Attr {
    /// Interns a float attribute.
    pub fn get(ctx: &IrContext, v: f32) -> Attribute {
        ctx.intern_attr(F32Attr(v.to_bits()))
    }
    /// The value.
    pub fn value(self) -> f32 {
        f32::from_bits(self.0)
    }
}

/// `pir::DoubleAttribute` (`0.a_f64`), stored by bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct F64Attr(pub u64);

impl F64Attr {
    /// Interns a double attribute.
    pub fn get(ctx: &IrContext, v: f64) -> Attribute {
        ctx.intern_attr(F64Attr(v.to_bits()))
    }
    /// The value.
    pub fn value(self) -> f64 {
        f64::from_bits(self.0)
    }
}

/// Writes a float attribute object: `{"#":id,"D":number}`, or `{"#":id,"VD":"NaN"|"INF"|"-INF"}`.
fn encode_float(w: &mut JsonWriter<'_>, id: &str, v: f64) {
    w.begin_object();
    w.key("#");
    w.string(id);
    if v.is_finite() {
        w.key("D");
        w.f64(v);
    } else {
        w.key("VD");
        w.string(if v.is_nan() {
            "NaN"
        } else if v > 0.0 {
            "INF"
        } else {
            "-INF"
        });
    }
    w.end_object();
}

/// Reads the value of a float attribute object (`"D"` number or `"VD"` special).
fn decode_float(obj: JsonValue<'_>, path: &JsonPath<'_>) -> Result<f64, DecodeError> {
    if let Some(d) = obj.get("D") {
        return serial::float(d, &JsonPath::Key(path, "D"));
    }
    let vpath = JsonPath::Key(path, "VD");
    let special = serial::string(serial::field(obj, "VD", path)?, &vpath)?;
    // Paddle writes `NaN` but reads only `NAN`; accept both spellings.
    match special.to_ascii_uppercase().as_str() {
        "NAN" | "-NAN" => Ok(f64::NAN),
        "INF" | "+INF" => Ok(f64::INFINITY),
        "-INF" => Ok(f64::NEG_INFINITY),
        _ => Err(DecodeError::at(
            &vpath,
            format!("unknown special float `{special}`"),
        )),
    }
}

impl AttrDef for F32Attr {
    const NAME: &'static str = "builtin.f32";
    const JSON_IDS: &'static [&'static str] = &["0.a_f32"];
    const TAG: &'static str = "Float";
    fn print(&self, p: &mut Printer<'_>) {
        if p.is_typed() {
            p.write_f32_exact(self.value());
        } else {
            p.write_f32_g(self.value());
        }
    }
    fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
        let v = p.parse_f32()?;
        Ok(F32Attr::get(p.ctx(), v))
    }
    fn encode(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        encode_float(w, "0.a_f32", self.value() as f64);
        Ok(())
    }
    fn decode(
        ctx: &IrContext,
        _: &str,
        obj: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Attribute, DecodeError> {
        let v = decode_float(obj, path)?;
        Ok(F32Attr::get(ctx, v as f32))
    }
    fn decode_exact(ctx: &IrContext, _: &str, text: &mut ExactJson<'_>) -> Option<Attribute> {
        // The `"VD"` spelling of NaN and infinities is left to `decode`.
        let v = serial::decode_data_exact(text, ExactJson::float)?;
        Some(F32Attr::get(ctx, v as f32))
    }
}

impl AttrDef for F64Attr {
    const NAME: &'static str = "builtin.f64";
    const JSON_IDS: &'static [&'static str] = &["0.a_f64"];
    const TAG: &'static str = "Double";
    fn print(&self, p: &mut Printer<'_>) {
        if p.is_typed() {
            p.write_f64_exact(self.value());
        } else {
            p.write_f64_g(self.value());
        }
    }
    fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
        let v = p.parse_f64()?;
        Ok(F64Attr::get(p.ctx(), v))
    }
    fn encode(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        encode_float(w, "0.a_f64", self.value());
        Ok(())
    }
    fn decode(
        ctx: &IrContext,
        _: &str,
        obj: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Attribute, DecodeError> {
        let v = decode_float(obj, path)?;
        Ok(F64Attr::get(ctx, v))
    }
    fn decode_exact(ctx: &IrContext, _: &str, text: &mut ExactJson<'_>) -> Option<Attribute> {
        let v = serial::decode_data_exact(text, ExactJson::float)?;
        Some(F64Attr::get(ctx, v))
    }
}

/// Declares a string attribute kind.
macro_rules! str_attr {
    ($(#[$doc:meta])* $name:ident, $kind:literal, $json:literal, $tag:literal, $self_describing:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(pub Box<str>);

        impl $name {
            /// Interns the attribute (allocating only when it is new).
            pub fn get(ctx: &IrContext, s: &str) -> Attribute {
                // `$name` hashes as its one `Box<str>` field, that is as `str`.
                ctx.intern_attr_by(s, |a: &$name| &*a.0 == s, || $name(s.into()))
            }
        }

        impl AttrDef for $name {
            const NAME: &'static str = $kind;
            const JSON_IDS: &'static [&'static str] = &[$json];
            const TAG: &'static str = $tag;
            const SELF_DESCRIBING: bool = $self_describing;
            fn print(&self, p: &mut Printer<'_>) {
                p.write_quoted(&self.0);
            }
            fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
                let s = p.parse_string()?;
                Ok($name::get(p.ctx(), &s))
            }
            fn encode(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
                serial::begin_tagged(w, $json);
                w.string(&self.0);
                w.end_object();
                Ok(())
            }
            fn decode(ctx: &IrContext, _: &str, obj: JsonValue<'_>, path: &JsonPath<'_>) -> Result<Attribute, DecodeError> {
                let s = serial::string(serial::field(obj, "D", path)?, &JsonPath::Key(path, "D"))?;
                Ok($name::get(ctx, &s))
            }
            fn decode_exact(ctx: &IrContext, _: &str, text: &mut ExactJson<'_>) -> Option<Attribute> {
                let s = serial::decode_data_exact(text, ExactJson::string)?;
                Some($name::get(ctx, s))
            }
        }
    };
}

str_attr!(
    /// `pir::StrAttribute` (`0.a_str`).
    StrAttr, "builtin.str", "0.a_str", "Str", true
);
str_attr!(
    /// `pir::TensorNameAttribute` (`0.a_tensorname`).
    TensorNameAttr, "builtin.tensor_name", "0.a_tensorname", "TensorName", false
);

/// `pir::ArrayAttribute` (`0.a_array`): attributes of any kinds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ArrayAttr(pub Box<[Attribute]>);

impl ArrayAttr {
    /// Interns an array attribute.
    pub fn get(ctx: &IrContext, items: &[Attribute]) -> Attribute {
        // `ArrayAttr` hashes as its one field, that is as `[Attribute]`.
        ctx.intern_attr_by(
            items,
            |a: &ArrayAttr| *a.0 == *items,
            || ArrayAttr(items.into()),
        )
    }
}

impl AttrDef for ArrayAttr {
    const NAME: &'static str = "builtin.array";
    const JSON_IDS: &'static [&'static str] = &["0.a_array"];
    const TAG: &'static str = "Array";
    const SELF_DESCRIBING: bool = true;
    fn parse(p: &mut Parser<'_>, expect: Expect) -> Result<Attribute, ParseError> {
        let element = match expect {
            Expect::ArrayOf(Some(tag)) => Expect::Kind(tag),
            _ => Expect::Any,
        };
        p.parse_array(element)
    }
    fn print(&self, p: &mut Printer<'_>) {
        p.write_list(&self.0, |p, a| p.print_attr(a));
    }
    fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        serial::encode_data_list(w, "0.a_array", &self.0, |a, w| {
            serial::encode_attr(ctx, a, w)
        })
    }
    fn decode(
        ctx: &IrContext,
        _: &str,
        obj: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Attribute, DecodeError> {
        let items =
            serial::decode_data_list(obj, path, |item, p| serial::decode_attr(ctx, item, p))?;
        Ok(ArrayAttr::get(ctx, &items))
    }
    fn decode_exact(ctx: &IrContext, _: &str, text: &mut ExactJson<'_>) -> Option<Attribute> {
        // Short arrays (strides, a layer's flags) are read onto the stack,
        // longer ones go on in a vector.
        const ON_STACK: usize = 8;
        let mut items = [Attribute::NULL; ON_STACK];
        let mut len = 0;
        let mut more = Vec::new();
        serial::decode_data_exact(text, |text| {
            text.array(|t| {
                let item = serial::decode_attr_exact(ctx, t)?;
                match items.get_mut(len) {
                    Some(slot) => *slot = item,
                    None => {
                        if more.is_empty() {
                            more.extend_from_slice(&items);
                        }
                        more.push(item);
                    }
                }
                len += 1;
                Some(())
            })
        })?;
        let items = if more.is_empty() {
            items.get(..len)?
        } else {
            &more
        };
        Some(ArrayAttr::get(ctx, items))
    }
}

/// `pir::TypeAttribute` (`0.a_type`): a type used as an attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TypeAttr(pub Type);

impl AttrDef for TypeAttr {
    const NAME: &'static str = "builtin.type";
    const JSON_IDS: &'static [&'static str] = &["0.a_type"];
    const TAG: &'static str = "Type";
    fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
        let ty = p.parse_type()?;
        Ok(p.ctx().intern_attr(TypeAttr(ty)))
    }
    fn print(&self, p: &mut Printer<'_>) {
        p.print_type(self.0);
    }
    fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        serial::begin_tagged(w, "0.a_type");
        serial::encode_type(ctx, self.0, w)?;
        w.end_object();
        Ok(())
    }
    fn decode(
        ctx: &IrContext,
        _: &str,
        obj: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Attribute, DecodeError> {
        let ty = serial::decode_type(
            ctx,
            serial::field(obj, "D", path)?,
            &JsonPath::Key(path, "D"),
        )?;
        Ok(ctx.intern_attr(TypeAttr(ty)))
    }
    fn decode_exact(ctx: &IrContext, _: &str, text: &mut ExactJson<'_>) -> Option<Attribute> {
        let ty = serial::decode_data_exact(text, |t| serial::decode_type_exact(ctx, t))?;
        Some(ctx.intern_attr(TypeAttr(ty)))
    }
}

/// `pir::Complex64Attribute` (`0.a_c64`): real and imaginary parts as f32 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Complex64Attr(pub u32, pub u32);

/// `pir::Complex128Attribute` (`0.a_c128`): real and imaginary parts as f64 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Complex128Attr(pub u64, pub u64);

fn encode_complex(w: &mut JsonWriter<'_>, id: &str, re: f64, im: f64) -> Result<(), EncodeError> {
    if !re.is_finite() || !im.is_finite() {
        return Err(EncodeError::NonFinite(format!("{id} ({re}, {im})")));
    }
    serial::begin_tagged(w, id);
    w.begin_array();
    w.f64(re);
    w.f64(im);
    w.end_array();
    w.end_object();
    Ok(())
}

fn decode_complex(obj: JsonValue<'_>, path: &JsonPath<'_>) -> Result<(f64, f64), DecodeError> {
    let dpath = JsonPath::Key(path, "D");
    let [re, im] = serial::array_n::<2>(serial::field(obj, "D", path)?, &dpath)?;
    Ok((
        serial::float(re, &JsonPath::Index(&dpath, 0))?,
        serial::float(im, &JsonPath::Index(&dpath, 1))?,
    ))
}

fn print_complex(p: &mut Printer<'_>, re: f64, im: f64, single: bool) {
    for (label, v) in [("real:", re), (" imag:", im)] {
        p.write_str(label);
        match (single, p.is_typed()) {
            (true, true) => p.write_f32_exact(v as f32),
            (true, false) => p.write_f32_g(v as f32),
            (false, true) => p.write_f64_exact(v),
            (false, false) => p.write_f64_g(v),
        }
    }
}

/// Reads `real:<number> imag:<number>` (with `read` for each part).
fn parse_complex<T>(
    p: &mut Parser<'_>,
    read: fn(&mut Parser<'_>) -> Result<T, ParseError>,
) -> Result<(T, T), ParseError> {
    p.cur.expect("real:", "to start a complex number")?;
    let re = read(p)?;
    p.cur.expect("imag:", "after the real part")?;
    Ok((re, read(p)?))
}

impl AttrDef for Complex64Attr {
    const NAME: &'static str = "builtin.c64";
    const JSON_IDS: &'static [&'static str] = &["0.a_c64"];
    const TAG: &'static str = "Complex64";
    fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
        let (re, im) = parse_complex(p, |p| p.parse_f32())?;
        Ok(p.ctx()
            .intern_attr(Complex64Attr(re.to_bits(), im.to_bits())))
    }
    fn print(&self, p: &mut Printer<'_>) {
        print_complex(
            p,
            f32::from_bits(self.0) as f64,
            f32::from_bits(self.1) as f64,
            true,
        );
    }
    fn encode(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        encode_complex(
            w,
            "0.a_c64",
            f32::from_bits(self.0) as f64,
            f32::from_bits(self.1) as f64,
        )
    }
    fn decode(
        ctx: &IrContext,
        _: &str,
        obj: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Attribute, DecodeError> {
        let (re, im) = decode_complex(obj, path)?;
        Ok(ctx.intern_attr(Complex64Attr((re as f32).to_bits(), (im as f32).to_bits())))
    }
}

impl AttrDef for Complex128Attr {
    const NAME: &'static str = "builtin.c128";
    const JSON_IDS: &'static [&'static str] = &["0.a_c128"];
    const TAG: &'static str = "Complex128";
    // An untagged `real:… imag:…` reads as complex128, which holds either width.
    const KEYWORDS: &'static [&'static str] = &["real"];
    fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
        let (re, im) = parse_complex(p, |p| p.parse_f64())?;
        Ok(p.ctx()
            .intern_attr(Complex128Attr(re.to_bits(), im.to_bits())))
    }
    fn print(&self, p: &mut Printer<'_>) {
        print_complex(p, f64::from_bits(self.0), f64::from_bits(self.1), false);
    }
    fn encode(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        encode_complex(
            w,
            "0.a_c128",
            f64::from_bits(self.0),
            f64::from_bits(self.1),
        )
    }
    fn decode(
        ctx: &IrContext,
        _: &str,
        obj: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Attribute, DecodeError> {
        let (re, im) = decode_complex(obj, path)?;
        Ok(ctx.intern_attr(Complex128Attr(re.to_bits(), im.to_bits())))
    }
}

/// Convenience: a `[bool]` array attribute as Paddle uses for `stop_gradient`.
pub fn bool_array(ctx: &IrContext, values: &[bool]) -> Attribute {
    let items: Vec<Attribute> = values
        .iter()
        .map(|&b| ctx.intern_attr(BoolAttr(b)))
        .collect();
    ArrayAttr::get(ctx, &items)
}

/// The first element of a `[bool]` array attribute (how Paddle stores one
/// flag such as `persistable`), or a plain bool's value.
pub fn first_bool(ctx: &IrContext, attr: Attribute) -> Option<bool> {
    if let Some(b) = ctx.attr_as::<BoolAttr>(attr) {
        return Some(b.0);
    }
    let first = *ctx.attr_as::<ArrayAttr>(attr)?.0.first()?;
    ctx.attr_as::<BoolAttr>(first).map(|b| b.0)
}
