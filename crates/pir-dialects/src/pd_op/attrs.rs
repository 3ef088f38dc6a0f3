//! `pd_op` attributes: IntArray, DataType, Place, DataLayout, Scalar.

use pir_core::builtin::{parse_layout, DataLayout, ScalarType};
use pir_core::field::{ExactField, JsonField, TextField};
use pir_core::parser::{Expect, ParseError, Parser};
use pir_core::printer::Printer;
use pir_core::serial::{
    self, DecodeError, DecodeInput, EncodeError, ExactJson, FieldInput, JsonValue, JsonWriter,
};
use pir_core::{AttrDef, Attribute, IrContext};

pir_core::declare_kinds! {
    /// Registers the `pd_op` attributes declared here.
    pub(crate) fn register_declared_attrs;

    /// `paddle::dialect::IntArrayAttribute` (`1.a_intarray`): a list of int64.
    attr IntArrayAttr(Box<[i64]>) {
        name: "pd_op.int_array", json: "1.a_intarray", tag: "pd_op.IntArray"
    }
    /// `paddle::dialect::DataTypeAttribute` (`1.a_dtype`).
    #[derive(Copy)]
    attr DataTypeAttr(DataType) {
        name: "pd_op.data_type",
        json: "1.a_dtype",
        tag: "pd_op.DataType",
        keywords: DataType::ALL_TEXTS,
        parse: parse_data_type_attr,
    }
    /// `paddle::dialect::PlaceAttribute` (`1.a_place`).
    attr PlaceAttr(Place) {
        name: "pd_op.place", json: "1.a_place", tag: "pd_op.Place", keywords: &["Place"]
    }
    /// `paddle::dialect::DataLayoutAttribute` (`1.a_layout`).
    #[derive(Copy)]
    attr DataLayoutAttr(DataLayout) {
        name: "pd_op.data_layout",
        json: "1.a_layout",
        tag: "pd_op.DataLayout",
        keywords: &[
            "NHWC",
            "NCHW",
            "NCDHW",
            "NDHWC",
            "ONEDNN",
            "SPARSE_COO",
            "SPARSE_CSR",
            "PSTRING_UNION",
            "STRIDED",
        ],
    }
}

impl IntArrayAttr {
    /// Interns the attribute.
    pub fn get(ctx: &IrContext, values: &[i64]) -> Attribute {
        Self::intern_key(ctx, values)
    }
}

pir_core::named_enum! {
    /// Paddle's `phi::DataType`.
    pub enum DataType;
    /// The string Paddle's JSON uses (`float32`, `Undefined(ALL_DTYPE)`).
    fn json_str, from_json_str, ALL_JSON_STRS;
    /// The printed name (`float32`, `Undefined`), by which the text parser
    /// recognises a data type.
    fn text, from_text, ALL_TEXTS;
    Undefined => "Undefined(ALL_DTYPE)", "Undefined";
    Bool => "bool", "bool";
    Int8 => "int8", "int8";
    UInt8 => "uint8", "uint8";
    Int16 => "int16", "int16";
    UInt16 => "uint16", "uint16";
    Int32 => "int32", "int32";
    UInt32 => "uint32", "uint32";
    Int64 => "int64", "int64";
    UInt64 => "uint64", "uint64";
    Float8E4M3FN => "float8_e4m3fn", "float8_e4m3fn";
    Float8E5M2 => "float8_e5m2", "float8_e5m2";
    BFloat16 => "bfloat16", "bfloat16";
    Float16 => "float16", "float16";
    Float32 => "float32", "float32";
    Float64 => "float64", "float64";
    Complex64 => "complex64", "complex64";
    Complex128 => "complex128", "complex128";
    PString => "pstring", "pstring";
}

impl DataType {
    /// Parses the JSON spelling (also accepts the printed one).
    pub fn parse(s: &str) -> Option<DataType> {
        DataType::from_json_str(s).or_else(|| DataType::from_text(s))
    }

    /// The data type of a builtin element type (Paddle's
    /// `TransToPhiDataType`); `index` and undefined give `Undefined`.
    pub fn of_scalar(t: ScalarType) -> DataType {
        match t {
            ScalarType::BF16 => DataType::BFloat16,
            ScalarType::F16 => DataType::Float16,
            ScalarType::F32 => DataType::Float32,
            ScalarType::F64 => DataType::Float64,
            ScalarType::I8 => DataType::Int8,
            ScalarType::U8 => DataType::UInt8,
            ScalarType::I16 => DataType::Int16,
            ScalarType::I32 => DataType::Int32,
            ScalarType::I64 => DataType::Int64,
            ScalarType::Bool => DataType::Bool,
            ScalarType::C64 => DataType::Complex64,
            ScalarType::C128 => DataType::Complex128,
            ScalarType::F8E4M3FN => DataType::Float8E4M3FN,
            ScalarType::F8E5M2 => DataType::Float8E5M2,
            ScalarType::Index | ScalarType::Undefined => DataType::Undefined,
        }
    }

    /// The builtin element type of a data type (`TransToIrDataType`), if it has one.
    pub fn scalar(self) -> Option<ScalarType> {
        if self == DataType::Undefined {
            return None;
        }
        ScalarType::ALL
            .iter()
            .copied()
            .find(|&s| DataType::of_scalar(s) == self)
    }
}

impl DataTypeAttr {
    /// Interns the attribute.
    pub fn get(ctx: &IrContext, dtype: DataType) -> Attribute {
        ctx.intern_attr(DataTypeAttr(dtype))
    }
}

/// Parses a data type, or the layout `Undefined(AnyLayout)`: `Undefined`
/// starts both.
fn parse_data_type_attr(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
    p.cur.skip_ws();
    if p.cur.rest().starts_with("Undefined(AnyLayout)") {
        let layout = parse_layout(p)?;
        return Ok(p.ctx().intern_attr(DataLayoutAttr(layout)));
    }
    let dtype = DataType::parse_field(p)?;
    Ok(DataTypeAttr::get(p.ctx(), dtype))
}

pir_core::named_field!(DataType, "data type", json_str, DataType::parse);

impl TextField for DataType {
    fn print_field(&self, p: &mut Printer<'_>) {
        p.write_str(self.text());
    }
    fn parse_field(p: &mut Parser<'_>) -> Result<Self, ParseError> {
        p.cur.skip_ws();
        let start = p.cur.pos();
        let word = p.cur.expect_ident("a data type")?;
        DataType::parse(word)
            .ok_or_else(|| p.error_at(start, word.len(), format!("unknown data type `{word}`")))
    }
}

/// A device place: allocation type, device id and (for custom devices) device type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Place {
    /// 0 undefined, 1 CPU, 2 GPU, 3 GPU pinned, 4 XPU, 5 XPU pinned, 7 IPU, 9 custom.
    pub allocation_type: i64,
    /// Device id.
    pub device_id: i64,
    /// Custom device type (`npu`), empty otherwise.
    pub device_type: Box<str>,
}

impl Place {
    /// The undefined place `Place(undefined:0)`.
    pub fn undefined() -> Place {
        Place {
            allocation_type: 0,
            device_id: 0,
            device_type: "".into(),
        }
    }
    /// The CPU place.
    pub fn cpu() -> Place {
        Place {
            allocation_type: 1,
            device_id: 0,
            device_type: "".into(),
        }
    }
}

impl PlaceAttr {
    /// Interns the attribute.
    pub fn get(ctx: &IrContext, place: Place) -> Attribute {
        ctx.intern_attr(PlaceAttr(place))
    }
}

/// Paddle's JSON of a place: `[allocation type, device id, device type]`.
impl JsonField for Place {
    fn encode_field(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        w.begin_array();
        w.i64(self.allocation_type);
        w.i64(self.device_id);
        w.string(&self.device_type);
        w.end_array();
        Ok(())
    }
    fn decode_field(input: FieldInput<'_>) -> Result<Self, DecodeError> {
        let path = input.path;
        let [alloc, id, kind] = serial::array_n::<3>(input.value, path)?;
        Ok(Place {
            allocation_type: serial::int(alloc, &path.index(0))?,
            device_id: serial::int(id, &path.index(1))?,
            device_type: serial::string(kind, &path.index(2))?.into(),
        })
    }
}

impl ExactField for Place {
    pir_core::field_is_its_key!();
    fn read_exact(_: &IrContext, text: &mut ExactJson<'_>) -> Option<Self> {
        text.nest(|t| {
            t.eat_byte(b'[')?;
            let allocation_type = t.int()?;
            t.eat_byte(b',')?;
            let device_id = t.int()?;
            t.eat_byte(b',')?;
            let device_type = t.string()?.into();
            t.eat_byte(b']')?;
            Some(Place {
                allocation_type,
                device_id,
                device_type,
            })
        })
    }
}

/// The device kinds Paddle names in a place's print: allocation type, name,
/// and whether the device id follows (`gpu:0`, but `cpu`). Any other
/// allocation type is a custom device, printed by its device type.
const DEVICE_KINDS: [(i64, &str, bool); 7] = [
    (0, "undefined", true),
    (1, "cpu", false),
    (2, "gpu", true),
    (3, "gpu_pinned", false),
    (4, "xpu", true),
    (5, "xpu_pinned", false),
    (7, "ipu", true),
];

/// The allocation type of a custom device.
const CUSTOM_DEVICE: i64 = 9;

impl TextField for Place {
    /// `Place(cpu)`, `Place(gpu:0)`, `Place(undefined:0)`, `Place(npu:1)`...
    fn parse_field(p: &mut Parser<'_>) -> Result<Self, ParseError> {
        p.cur.expect("Place(", "to start a place")?;
        let start = p.cur.pos();
        let kind = p.cur.expect_ident("a device kind")?;
        let (allocation_type, has_id) = DEVICE_KINDS
            .iter()
            .find(|&&(_, name, _)| name == kind)
            .map_or((CUSTOM_DEVICE, true), |&(ty, _, has_id)| (ty, has_id));
        let device_id = if has_id {
            p.cur.expect(":", "before the device id")?;
            p.cur.int("a device id")?
        } else {
            0
        };
        p.cur.expect(")", "to close the place")?;
        let device_type = if allocation_type == CUSTOM_DEVICE {
            kind
        } else {
            ""
        };
        if device_type.is_empty() && kind.is_empty() {
            return Err(p.error_at(start, 1, "expected a device kind"));
        }
        Ok(Place {
            allocation_type,
            device_id,
            device_type: device_type.into(),
        })
    }
    fn print_field(&self, p: &mut Printer<'_>) {
        p.write_str("Place(");
        let known = DEVICE_KINDS
            .iter()
            .find(|&&(ty, _, _)| ty == self.allocation_type);
        let (name, has_id) = known.map_or((&*self.device_type, true), |&(_, name, has_id)| {
            (name, has_id)
        });
        p.write_str(name);
        if has_id {
            p.write_str(":");
            p.write_i64(self.device_id);
        }
        p.write_str(")");
    }
}

/// `paddle::dialect::ScalarAttribute` in its own encoding (`1.a_scalar`,
/// `[dtype, value]` or `[dtype, re, im]`). Paddle normally stores scalars as the
/// builtin attribute of their type and never writes this form; it is read for
/// completeness and written back unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ScalarAttr {
    /// The scalar's data type.
    pub dtype: DataType,
    /// The value (bits of an f64, or an i64, or a bool as 0/1, by dtype).
    pub bits: u64,
    /// Imaginary part bits for complex scalars.
    pub imag_bits: Option<u64>,
}

impl ScalarAttr {
    fn is_float(&self) -> bool {
        matches!(
            self.dtype,
            DataType::Float16
                | DataType::BFloat16
                | DataType::Float32
                | DataType::Float64
                | DataType::Complex64
                | DataType::Complex128
        )
    }
}

impl AttrDef for ScalarAttr {
    const NAME: &'static str = "pd_op.scalar";
    const JSON_IDS: &'static [&'static str] = &["1.a_scalar"];
    const TAG: &'static str = "pd_op.Scalar";
    fn print(&self, p: &mut Printer<'_>) {
        if p.is_typed() {
            // `float32 1.5`, `complex64 1 -2`, `int64 3`, `bool true`.
            p.write_str(self.dtype.text());
            p.write_str(" ");
            if self.dtype == DataType::Bool {
                p.write_str(if self.bits != 0 { "true" } else { "false" });
            } else if self.is_float() {
                p.write_f64_exact(f64::from_bits(self.bits));
                if let Some(im) = self.imag_bits {
                    p.write_str(" ");
                    p.write_f64_exact(f64::from_bits(im));
                }
            } else {
                p.write_i64(self.bits as i64);
            }
            return;
        }
        if self.dtype == DataType::Bool {
            p.write_str(if self.bits != 0 { "true" } else { "false" });
        } else if self.is_float() {
            p.write_f64_g(f64::from_bits(self.bits));
        } else {
            p.write_i64(self.bits as i64);
        }
    }
    fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
        p.cur.skip_ws();
        let start = p.cur.pos();
        let word = p.cur.expect_ident("the scalar's data type")?;
        let dtype = DataType::parse(word)
            .ok_or_else(|| p.error_at(start, word.len(), format!("unknown data type `{word}`")))?;
        let mut attr = ScalarAttr {
            dtype,
            bits: 0,
            imag_bits: None,
        };
        if dtype == DataType::Bool {
            attr.bits = u64::from(p.cur.eat_keyword("true"));
            if attr.bits == 0 && !p.cur.eat_keyword("false") {
                return Err(p.expected("`true` or `false`"));
            }
        } else if attr.is_float() {
            attr.bits = p.parse_f64()?.to_bits();
            if matches!(dtype, DataType::Complex64 | DataType::Complex128)
                && matches!(p.cur.peek(), Some(b'-' | b'0'..=b'9' | b'n' | b'i'))
            {
                attr.imag_bits = Some(p.parse_f64()?.to_bits());
            }
        } else {
            attr.bits = p.cur.int("an integer")? as u64;
        }
        Ok(p.ctx().intern_attr(attr))
    }
    fn encode(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        serial::begin_tagged(w, "1.a_scalar");
        w.begin_array();
        w.string(self.dtype.json_str());
        if self.dtype == DataType::Bool {
            w.bool(self.bits != 0);
        } else if self.is_float() {
            let v = f64::from_bits(self.bits);
            if !v.is_finite() {
                return Err(EncodeError::NonFinite("1.a_scalar".into()));
            }
            w.f64(v);
            if let Some(im) = self.imag_bits {
                w.f64(f64::from_bits(im));
            }
        } else {
            w.i64(self.bits as i64);
        }
        w.end_array();
        w.end_object();
        Ok(())
    }
    fn decode(input: DecodeInput<'_>) -> Result<Attribute, DecodeError> {
        let (data, dpath) = input.data()?;
        let items: Vec<JsonValue<'_>> = serial::array(data, &dpath)?.collect();
        if items.len() < 2 || items.len() > 3 {
            return Err(DecodeError::at(
                &dpath,
                "expected [dtype, value] or [dtype, re, im]",
            ));
        }
        let dt_path = dpath.index(0);
        let dt = serial::string(items[0], &dt_path)?;
        let dtype = DataType::parse(&dt)
            .ok_or_else(|| DecodeError::at(&dt_path, format!("unknown data type `{dt}`")))?;
        let mut attr = ScalarAttr {
            dtype,
            bits: 0,
            imag_bits: None,
        };
        let vpath = dpath.index(1);
        if dtype == DataType::Bool {
            attr.bits = u64::from(serial::boolean(items[1], &vpath)?);
        } else if attr.is_float() {
            attr.bits = serial::float(items[1], &vpath)?.to_bits();
            if let Some(&im) = items.get(2) {
                attr.imag_bits = Some(serial::float(im, &dpath.index(2))?.to_bits());
            }
        } else {
            attr.bits = serial::int(items[1], &vpath)? as u64;
        }
        Ok(input.ctx.intern_attr(attr))
    }
}
