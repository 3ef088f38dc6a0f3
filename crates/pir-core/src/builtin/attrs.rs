//! Builtin attributes: bool, integers, floats, strings, arrays, types, complex
//! numbers and the null attribute.

use crate::attributes::{AttrDef, Attribute};
use crate::context::IrContext;
use crate::parser::{Expect, ParseError, Parser};
use crate::printer::Printer;
use crate::serial::{
    self, DecodeError, DecodeInput, EncodeError, ExactJson, JsonPath, JsonValue, JsonWriter,
};
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
    super::null_kind_codec!(Attribute);
}

crate::declare_kinds! {
    /// Registers the builtin attributes declared here.
    pub(super) fn register_declared_attrs;

    /// `pir::BoolAttribute` (`0.a_bool`).
    #[derive(Copy)]
    attr BoolAttr(bool) {
        name: "builtin.bool", json: "0.a_bool", tag: "Bool", self_describing: true
    }
    /// `pir::Int32Attribute` (`0.a_i32`).
    #[derive(Copy)]
    attr I32Attr(i32) { name: "builtin.i32", json: "0.a_i32", tag: "Int32" }
    /// `pir::Int64Attribute` (`0.a_i64`).
    #[derive(Copy)]
    attr I64Attr(i64) { name: "builtin.i64", json: "0.a_i64", tag: "Int64" }
    /// `pir::IndexAttribute` (`0.a_index`).
    #[derive(Copy)]
    attr IndexAttr(i64) { name: "builtin.index", json: "0.a_index", tag: "Index" }
    /// `pir::StrAttribute` (`0.a_str`).
    attr StrAttr(Box<str>) {
        name: "builtin.str", json: "0.a_str", tag: "Str", self_describing: true
    }
    /// `pir::TensorNameAttribute` (`0.a_tensorname`).
    attr TensorNameAttr(Box<str>) {
        name: "builtin.tensor_name", json: "0.a_tensorname", tag: "TensorName"
    }
    /// `pir::TypeAttribute` (`0.a_type`): a type used as an attribute.
    #[derive(Copy)]
    attr TypeAttr(Type) { name: "builtin.type", json: "0.a_type", tag: "Type" }
}

impl StrAttr {
    /// Interns the attribute (allocating only when it is new).
    pub fn get(ctx: &IrContext, s: &str) -> Attribute {
        Self::intern_key(ctx, s)
    }
}

impl TensorNameAttr {
    /// Interns the attribute (allocating only when it is new).
    pub fn get(ctx: &IrContext, s: &str) -> Attribute {
        Self::intern_key(ctx, s)
    }
}

/// Declares a float attribute kind, stored by the bits of its `$float`
/// (so NaN payloads and −0.0 round-trip and uniquing is exact), printed
/// with the given writers.
macro_rules! float_attr {
    (
        $(#[$doc:meta])* $name:ident($bits:ty as $float:ty), $kind:literal, $json:literal,
        $tag:literal, $typed:ident, $paddle:ident, $parse:ident
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $name(pub $bits);

        impl $name {
            /// Interns the attribute.
            pub fn get(ctx: &IrContext, v: $float) -> Attribute {
                ctx.intern_attr($name(v.to_bits()))
            }
            /// The value.
            pub fn value(self) -> $float {
                <$float>::from_bits(self.0)
            }
        }

        impl AttrDef for $name {
            const NAME: &'static str = $kind;
            const JSON_IDS: &'static [&'static str] = &[$json];
            const TAG: &'static str = $tag;
            fn print(&self, p: &mut Printer<'_>) {
                if p.is_typed() {
                    p.$typed(self.value());
                } else {
                    p.$paddle(self.value());
                }
            }
            fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
                let v = p.$parse()?;
                Ok($name::get(p.ctx(), v))
            }
            fn encode(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
                encode_float(w, $json, f64::from(self.value()));
                Ok(())
            }
            fn decode(input: DecodeInput<'_>) -> Result<Attribute, DecodeError> {
                let v = decode_float(input.obj, input.path)?;
                Ok($name::get(input.ctx, v as $float))
            }
            fn decode_exact(ctx: &IrContext, _: &str, text: &mut ExactJson<'_>) -> Option<Attribute> {
                // The `"VD"` spelling of NaN and infinities is left to `decode`.
                let v = serial::decode_data_exact(text, ExactJson::float)?;
                Some($name::get(ctx, v as $float))
            }
        }
    };
}

float_attr!(
    /// `pir::FloatAttribute` (`0.a_f32`).
    F32Attr(u32 as f32), "builtin.f32", "0.a_f32", "Float", write_f32_exact, write_f32_g, parse_f32
);
float_attr!(
    /// `pir::DoubleAttribute` (`0.a_f64`).
    F64Attr(u64 as f64), "builtin.f64", "0.a_f64", "Double", write_f64_exact, write_f64_g, parse_f64
);

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
    fn decode(input: DecodeInput<'_>) -> Result<Attribute, DecodeError> {
        let DecodeInput { ctx, obj, path, .. } = input;
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

/// Declares a complex attribute kind: real and imaginary parts stored as
/// the bits of their `$float`s, read with the parser's `$parse`.
macro_rules! complex_attr {
    (
        $(#[$doc:meta])* $name:ident($bits:ty as $float:ty), $kind:literal, $json:literal,
        $tag:literal, $parse:ident $(, keywords: $keywords:expr)?
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $name(pub $bits, pub $bits);

        impl $name {
            /// The real and imaginary parts.
            fn parts(&self) -> (f64, f64) {
                (f64::from(<$float>::from_bits(self.0)), f64::from(<$float>::from_bits(self.1)))
            }
        }

        impl AttrDef for $name {
            const NAME: &'static str = $kind;
            const JSON_IDS: &'static [&'static str] = &[$json];
            const TAG: &'static str = $tag;
            $(const KEYWORDS: &'static [&'static str] = $keywords;)?
            fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
                let (re, im) = parse_complex(p, |p| p.$parse())?;
                Ok(p.ctx().intern_attr($name(re.to_bits(), im.to_bits())))
            }
            fn print(&self, p: &mut Printer<'_>) {
                let (re, im) = self.parts();
                print_complex(p, re, im, <$float>::MANTISSA_DIGITS == f32::MANTISSA_DIGITS);
            }
            fn encode(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
                let (re, im) = self.parts();
                encode_complex(w, $json, re, im)
            }
            fn decode(input: DecodeInput<'_>) -> Result<Attribute, DecodeError> {
                let (re, im) = decode_complex(input.obj, input.path)?;
                Ok(input.ctx.intern_attr($name((re as $float).to_bits(), (im as $float).to_bits())))
            }
        }
    };
}

complex_attr!(
    /// `pir::Complex64Attribute` (`0.a_c64`): real and imaginary parts as f32 bits.
    Complex64Attr(u32 as f32), "builtin.c64", "0.a_c64", "Complex64", parse_f32
);
complex_attr!(
    /// `pir::Complex128Attribute` (`0.a_c128`): real and imaginary parts as f64 bits.
    // An untagged `real:… imag:…` reads as complex128, which holds either width.
    Complex128Attr(u64 as f64), "builtin.c128", "0.a_c128", "Complex128", parse_f64,
    keywords: &["real"]
);

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

/// Convenience: a `[bool]` array attribute as Paddle uses for `stop_gradient`.
pub fn bool_array(ctx: &IrContext, values: &[bool]) -> Attribute {
    // Each of the two values interned once, not once per element.
    let (mut t, mut f) = (None, None);
    let items: Vec<Attribute> = values
        .iter()
        .map(|&b| {
            let slot = if b { &mut t } else { &mut f };
            *slot.get_or_insert_with(|| ctx.intern_attr(BoolAttr(b)))
        })
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
