//! Builtin types: scalar element types, vector, dense tensor, and the null type.

use crate::context::IrContext;
use crate::field::TextField;
use crate::parser::{ParseError, Parser};
use crate::printer::Printer;
use crate::serial::{
    self, DecodeError, DecodeInput, EncodeError, ExactJson, JsonPath, JsonValue, JsonWriter,
};
use crate::types::{Type, TypeDef};

/// The null type (an absent optional result): `{"#":"NULL"}`, `<<NULL TYPE>>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NullType;

impl TypeDef for NullType {
    const NAME: &'static str = "builtin.null";
    const JSON_IDS: &'static [&'static str] = &["NULL"];
    fn print(&self, p: &mut Printer<'_>) {
        p.write_str("<<NULL TYPE>>");
    }
    super::null_kind_codec!(Type);
}

crate::named_enum! {
    /// Builtin element types without parameters (`f32`, `i64`, `b`, ...).
    pub enum ScalarType;
    /// The JSON id (`0.t_f32`).
    fn json_id, from_json_id, ALL_JSON_IDS;
    /// The printed form (`f32`).
    fn text, from_text, ALL_TEXTS;
    /// bfloat16
    BF16 => "0.t_bf16", "bf16";
    /// float16
    F16 => "0.t_f16", "f16";
    /// float32
    F32 => "0.t_f32", "f32";
    /// float64
    F64 => "0.t_f64", "f64";
    /// int8
    I8 => "0.t_i8", "i8";
    /// uint8
    U8 => "0.t_ui8", "u8";
    /// int16
    I16 => "0.t_i16", "i16";
    /// int32
    I32 => "0.t_i32", "i32";
    /// int64
    I64 => "0.t_i64", "i64";
    /// index
    Index => "0.t_index", "index";
    /// bool
    Bool => "0.t_bool", "b";
    /// complex64
    C64 => "0.t_c64", "c64";
    /// complex128
    C128 => "0.t_c128", "c128";
    /// float8_e4m3fn
    F8E4M3FN => "0.t_f8e4m3fn", "f8e4m3fn";
    /// float8_e5m2
    F8E5M2 => "0.t_f8e5m2", "f8e5m2";
    /// undefined (never saved)
    Undefined => "0.t_undefined", "undefined";
}

impl TypeDef for ScalarType {
    const NAME: &'static str = "builtin.scalar";
    const JSON_IDS: &'static [&'static str] = ScalarType::ALL_JSON_IDS;
    const KEYWORDS: &'static [&'static str] = ScalarType::ALL_TEXTS;
    fn print(&self, p: &mut Printer<'_>) {
        p.write_str(self.text());
    }
    fn parse(p: &mut Parser<'_>, keyword: &str, start: usize) -> Result<Type, ParseError> {
        match ScalarType::from_text(keyword) {
            Some(s) => Ok(p.ctx().intern_type(s)),
            None => Err(p.error_at(start, keyword.len(), format!("unknown type `{keyword}`"))),
        }
    }
    fn encode(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        if *self == ScalarType::Undefined {
            return Err(EncodeError::Unserializable(
                "type pir::UndefinedType".into(),
            ));
        }
        serial::write_tag_only(w, self.json_id());
        Ok(())
    }
    fn decode(input: DecodeInput<'_>) -> Result<Type, DecodeError> {
        match ScalarType::from_json_id(input.id) {
            Some(s) => Ok(input.ctx.intern_type(s)),
            None => Err(DecodeError::at(
                input.path,
                format!("unknown type id `{}`", input.id),
            )),
        }
    }
    fn decode_exact(ctx: &IrContext, id: &str, text: &mut ExactJson<'_>) -> Option<Type> {
        text.eat_byte(b'}')?;
        Some(ctx.intern_type(ScalarType::from_json_id(id)?))
    }
}

crate::declare_kinds! {
    /// Registers the builtin types declared here.
    pub(super) fn register_declared_types;

    /// A vector of types (`vec[T1,T2]`): the result of `builtin.combine`.
    type VectorType(Box<[Type]>) { name: "builtin.vec", json: "0.t_vec", keyword: "vec" }
}

impl VectorType {
    /// Interns `vec[types...]`.
    pub fn get(ctx: &IrContext, types: &[Type]) -> Type {
        Self::intern_key(ctx, types)
    }
}

/// Memory layout of a tensor (`common::DataLayout`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataLayout {
    /// `Undefined(AnyLayout)`.
    Undefined,
    /// `NHWC`.
    NHWC,
    /// `NCHW` (the default).
    NCHW,
    /// `NCDHW`.
    NCDHW,
    /// `NDHWC`.
    NDHWC,
    /// `ONEDNN` (written by Paddle but not readable by it).
    OneDnn,
    /// `SPARSE_COO`.
    SparseCoo,
    /// `SPARSE_CSR`.
    SparseCsr,
    /// `PSTRING_UNION`.
    PstringUnion,
    /// `STRIDED`.
    Strided,
}

impl DataLayout {
    /// Every layout.
    pub const ALL: &'static [DataLayout] = &[
        DataLayout::Undefined,
        DataLayout::NHWC,
        DataLayout::NCHW,
        DataLayout::NCDHW,
        DataLayout::NDHWC,
        DataLayout::OneDnn,
        DataLayout::SparseCoo,
        DataLayout::SparseCsr,
        DataLayout::PstringUnion,
        DataLayout::Strided,
    ];

    /// The string Paddle writes.
    pub fn as_str(self) -> &'static str {
        match self {
            DataLayout::Undefined => "Undefined(AnyLayout)",
            DataLayout::NHWC => "NHWC",
            DataLayout::NCHW => "NCHW",
            DataLayout::NCDHW => "NCDHW",
            DataLayout::NDHWC => "NDHWC",
            DataLayout::OneDnn => "ONEDNN",
            DataLayout::SparseCoo => "SPARSE_COO",
            DataLayout::SparseCsr => "SPARSE_CSR",
            DataLayout::PstringUnion => "PSTRING_UNION",
            DataLayout::Strided => "STRIDED",
        }
    }

    /// Parses a layout string the way Paddle's reader does (case-insensitive,
    /// with its aliases), also accepting the `ONEDNN` that Paddle writes.
    pub fn parse(s: &str) -> Option<DataLayout> {
        // The spellings Paddle writes, without the upper-cased copy.
        if let Some(&layout) = DataLayout::ALL.iter().find(|l| l.as_str() == s) {
            return Some(layout);
        }
        let up = s.to_ascii_uppercase();
        Some(match up.as_str() {
            "UNDEFINED(ANYLAYOUT)" | "ANYLAYOUT" | "UNDEFINED" => DataLayout::Undefined,
            "NHWC" => DataLayout::NHWC,
            "NCHW" => DataLayout::NCHW,
            "NCDHW" => DataLayout::NCDHW,
            "NDHWC" => DataLayout::NDHWC,
            "ONEDNN" | "ONEDNNLAYOUT" | "MKLDNNLAYOUT" | "MKLDNN" => DataLayout::OneDnn,
            "SPARSE_COO" => DataLayout::SparseCoo,
            "SPARSE_CSR" => DataLayout::SparseCsr,
            "PSTRING_UNION" => DataLayout::PstringUnion,
            "STRIDED" => DataLayout::Strided,
            _ => return None,
        })
    }
}

/// Reads a layout string at `path`.
pub fn decode_layout(v: JsonValue<'_>, path: &JsonPath<'_>) -> Result<DataLayout, DecodeError> {
    let s = serial::string(v, path)?;
    DataLayout::parse(&s).ok_or_else(|| DecodeError::at(path, format!("unknown data layout `{s}`")))
}

/// Reads a dims array (`[2,-1]`).
pub fn decode_dims(v: JsonValue<'_>, path: &JsonPath<'_>) -> Result<Box<[i64]>, DecodeError> {
    let items = serial::array(v, path)?;
    let mut dims = Vec::with_capacity(v.len());
    for (i, d) in items.enumerate() {
        dims.push(serial::int(d, &JsonPath::Index(path, i))?);
    }
    Ok(dims.into())
}

/// Reads a LoD (`[[0,1,3]]`).
pub fn decode_lod(v: JsonValue<'_>, path: &JsonPath<'_>) -> Result<Box<[Box<[u64]>]>, DecodeError> {
    let levels = serial::array(v, path)?;
    let mut lod = Vec::with_capacity(v.len());
    for (i, level) in levels.enumerate() {
        let lpath = JsonPath::Index(path, i);
        let items = serial::array(level, &lpath)?;
        let mut offsets = Vec::with_capacity(level.len());
        for (j, o) in items.enumerate() {
            offsets.push(serial::uint(o, &JsonPath::Index(&lpath, j))?);
        }
        lod.push(offsets.into_boxed_slice());
    }
    Ok(lod.into())
}

/// Reads a dims array spelled exactly as [`encode_dims`] writes it
/// (`[2,-1]`), without a document; `None` for any other spelling.
pub fn decode_dims_exact(text: &mut ExactJson<'_>) -> Option<Box<[i64]>> {
    let mut dims = Vec::new();
    text.array(|t| {
        dims.push(t.int()?);
        Some(())
    })?;
    Some(dims.into())
}

/// Reads a LoD spelled exactly as [`encode_lod`] writes it, without a
/// document; `None` for any other spelling.
fn decode_lod_exact(text: &mut ExactJson<'_>) -> Option<Box<[Box<[u64]>]>> {
    let mut lod = Vec::new();
    text.array(|t| {
        let mut offsets = Vec::new();
        t.array(|t| {
            offsets.push(t.uint()?);
            Some(())
        })?;
        lod.push(offsets.into_boxed_slice());
        Some(())
    })?;
    Some(lod.into())
}

/// Writes dims as a JSON array.
pub fn encode_dims(w: &mut JsonWriter<'_>, dims: &[i64]) {
    w.begin_array();
    for &d in dims {
        w.i64(d);
    }
    w.end_array();
}

/// Writes a LoD as a JSON array of arrays.
pub fn encode_lod(w: &mut JsonWriter<'_>, lod: &[Box<[u64]>]) {
    w.begin_array();
    for level in lod {
        w.begin_array();
        for &o in level.iter() {
            w.u64(o);
        }
        w.end_array();
    }
    w.end_array();
}

/// Reads a layout word (`NCHW`, `Undefined(AnyLayout)`).
pub fn parse_layout(p: &mut Parser<'_>) -> Result<DataLayout, ParseError> {
    p.cur.skip_ws();
    let start = p.cur.pos();
    p.cur.expect_ident("a data layout")?;
    if p.cur.rest().starts_with('(') {
        let end = p.cur.balanced_end(p.cur.pos());
        if let Some(end) = end {
            p.cur.set_pos(end);
        }
    }
    let text = &p.cur.src()[start..p.cur.pos()];
    DataLayout::parse(text)
        .ok_or_else(|| p.error_at(start, text.len(), format!("unknown data layout `{text}`")))
}

/// Reads a LoD `[[0,2,3],[0,1]]`.
pub fn parse_lod(p: &mut Parser<'_>) -> Result<Box<[Box<[u64]>]>, ParseError> {
    let levels = p.parse_list("[", "]", "LoD levels", |p| {
        let level = p.parse_list("[", "]", "LoD offsets", |p| p.cur.uint("a LoD offset"))?;
        Ok(level.into_boxed_slice())
    })?;
    Ok(levels.into())
}

/// The parts of a tensor type Paddle's print leaves out; the typed form
/// writes those that differ from the defaults (`, layout:NHWC, lod:[[0,1]], offset:3`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorExtras {
    /// Layout (default NCHW).
    pub layout: DataLayout,
    /// LoD (default empty).
    pub lod: Box<[Box<[u64]>]>,
    /// Offset (default 0).
    pub offset: u64,
}

impl Default for TensorExtras {
    fn default() -> Self {
        TensorExtras {
            layout: DataLayout::NCHW,
            lod: Box::new([]),
            offset: 0,
        }
    }
}

impl TensorExtras {
    /// Prints the non-default parts (typed form only).
    pub fn print(p: &mut Printer<'_>, layout: DataLayout, lod: &[Box<[u64]>], offset: u64) {
        if !p.is_typed() {
            return;
        }
        if layout != DataLayout::NCHW {
            p.write_str(", layout:");
            p.write_str(layout.as_str());
        }
        if !lod.is_empty() {
            p.write_str(", lod:");
            let levels: Vec<&[u64]> = lod.iter().map(|l| &l[..]).collect();
            p.write_list(&levels, |p, level| {
                p.write_list(level, |p, o| p.write_u64(o))
            });
        }
        if offset != 0 {
            p.write_str(", offset:");
            p.write_u64(offset);
        }
    }

    /// Reads the `, layout:…`, `, lod:…`, `, offset:…` parts that follow;
    /// stops (consuming nothing) at a `,` followed by anything else.
    pub fn parse(p: &mut Parser<'_>) -> Result<TensorExtras, ParseError> {
        let mut extras = TensorExtras::default();
        loop {
            let before = p.cur.pos();
            if !p.cur.eat(",") {
                return Ok(extras);
            }
            let key = p.cur.ident();
            if !matches!(key, Some("layout" | "lod" | "offset")) || !p.cur.eat(":") {
                p.cur.set_pos(before);
                return Ok(extras);
            }
            match key {
                Some("layout") => extras.layout = parse_layout(p)?,
                Some("lod") => extras.lod = parse_lod(p)?,
                _ => extras.offset = p.cur.uint("an offset")?,
            }
        }
    }
}

/// Prints `2x3xf32` (dims each followed by `x`, then the element type).
pub fn print_shape_and_dtype(p: &mut Printer<'_>, dims: &[i64], dtype: Type) {
    for &d in dims {
        p.write_i64(d);
        p.write_str("x");
    }
    p.print_type(dtype);
}

/// A dense tensor type (`tensor<2x3xf32>`): element type, dims (−1 unknown),
/// layout, LoD and offset.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DenseTensorType {
    /// Element type.
    pub dtype: Type,
    /// Dimensions (`-1` = unknown, empty = 0-d).
    pub dims: Box<[i64]>,
    /// Layout (normally NCHW).
    pub layout: DataLayout,
    /// Level of detail offsets (normally empty).
    pub lod: Box<[Box<[u64]>]>,
    /// Offset (normally 0).
    pub offset: u64,
}

impl DenseTensorType {
    /// Interns a tensor type with default layout (NCHW), no LoD and offset 0.
    pub fn get(ctx: &IrContext, dtype: Type, dims: &[i64]) -> Type {
        ctx.intern_type(DenseTensorType {
            dtype,
            dims: dims.into(),
            layout: DataLayout::NCHW,
            lod: Box::new([]),
            offset: 0,
        })
    }

    /// Reads `<2x3xf32[, layout:…, lod:…, offset:…]>`, the text after `tensor`
    /// (shared by selected rows).
    pub fn parse_body(p: &mut Parser<'_>) -> Result<Self, ParseError> {
        p.cur.expect("<", "to open the tensor type")?;
        let (dims, dtype) = p.parse_dims_and_dtype()?;
        let extras = TensorExtras::parse(p)?;
        p.cur.expect(">", "to close the tensor type")?;
        Ok(DenseTensorType {
            dtype,
            dims: dims.into(),
            layout: extras.layout,
            lod: extras.lod,
            offset: extras.offset,
        })
    }

    /// Reads the `[dtype, dims, layout, lod, offset]` data array shared by
    /// dense tensors and selected rows.
    pub fn decode_data(
        ctx: &IrContext,
        data: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Self, DecodeError> {
        let [dtype, dims, layout, lod, offset] = serial::array_n::<5>(data, path)?;
        Ok(DenseTensorType {
            dtype: serial::decode_type(ctx, dtype, &JsonPath::Index(path, 0))?,
            dims: decode_dims(dims, &JsonPath::Index(path, 1))?,
            layout: decode_layout(layout, &JsonPath::Index(path, 2))?,
            lod: decode_lod(lod, &JsonPath::Index(path, 3))?,
            offset: serial::uint(offset, &JsonPath::Index(path, 4))?,
        })
    }

    /// Reads the data array of [`DenseTensorType::decode_data`] spelled
    /// exactly as [`DenseTensorType::encode_data`] writes it, without a
    /// document; `None` for any other spelling (see [`TypeDef::decode_exact`]).
    pub fn decode_data_exact(ctx: &IrContext, text: &mut ExactJson<'_>) -> Option<Self> {
        text.nest(|text| {
            text.eat_byte(b'[')?;
            let dtype = serial::decode_type_exact(ctx, text)?;
            text.eat_byte(b',')?;
            let dims = decode_dims_exact(text)?;
            text.eat_byte(b',')?;
            let layout = DataLayout::parse(text.string()?)?;
            text.eat_byte(b',')?;
            let lod = decode_lod_exact(text)?;
            text.eat_byte(b',')?;
            let offset = text.uint()?;
            text.eat_byte(b']')?;
            Some(DenseTensorType {
                dtype,
                dims,
                layout,
                lod,
                offset,
            })
        })
    }

    /// Writes the `[dtype, dims, layout, lod, offset]` data array.
    pub fn encode_data(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        w.begin_array();
        serial::encode_type(ctx, self.dtype, w)?;
        encode_dims(w, &self.dims);
        w.string(self.layout.as_str());
        encode_lod(w, &self.lod);
        w.u64(self.offset);
        w.end_array();
        Ok(())
    }
}

impl TypeDef for DenseTensorType {
    const NAME: &'static str = "builtin.dense_tensor";
    const JSON_IDS: &'static [&'static str] = &["0.t_dtensor"];
    const KEYWORDS: &'static [&'static str] = &["tensor"];
    fn print(&self, p: &mut Printer<'_>) {
        p.write_str("tensor");
        self.print_field(p);
    }
    fn parse(p: &mut Parser<'_>, _: &str, _: usize) -> Result<Type, ParseError> {
        let t = Self::parse_body(p)?;
        Ok(p.ctx().intern_type(t))
    }
    fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        serial::begin_tagged(w, Self::JSON_IDS[0]);
        self.encode_data(ctx, w)?;
        w.end_object();
        Ok(())
    }
    fn decode(input: DecodeInput<'_>) -> Result<Type, DecodeError> {
        let (data, path) = input.data()?;
        let tensor = Self::decode_data(input.ctx, data, &path)?;
        Ok(input.ctx.intern_type(tensor))
    }
    fn decode_exact(ctx: &IrContext, _: &str, text: &mut ExactJson<'_>) -> Option<Type> {
        let at = text.clone();
        if let Some(ty) = serial::decode_data_exact(text, |t| Self::intern_data_exact(ctx, t)) {
            return Some(ty);
        }
        *text = at;
        let t = serial::decode_data_exact(text, |t| Self::decode_data_exact(ctx, t))?;
        Some(ctx.intern_type(t))
    }
}

impl DenseTensorType {
    /// How many dims [`DenseTensorType::intern_data_exact`] reads onto the stack.
    const STACK_DIMS: usize = 8;

    /// [`DenseTensorType::decode_data_exact`] interned: for the usual type (up to
    /// [`Self::STACK_DIMS`] dims, no LoD) the dims are read onto the stack and the
    /// type is looked up by them, so a type the context holds costs no allocation.
    /// `None` for any other text, which the caller then reads the general way.
    fn intern_data_exact(ctx: &IrContext, text: &mut ExactJson<'_>) -> Option<Type> {
        text.nest(|text| {
            text.eat_byte(b'[')?;
            let dtype = serial::decode_type_exact(ctx, text)?;
            text.eat_byte(b',')?;
            let mut dims = [0i64; Self::STACK_DIMS];
            let mut len = 0;
            text.array(|t| {
                *dims.get_mut(len)? = t.int()?;
                len += 1;
                Some(())
            })?;
            let dims = dims.get(..len)?;
            text.eat_byte(b',')?;
            let layout = DataLayout::parse(text.string()?)?;
            text.eat(",[],")?;
            let offset = text.uint()?;
            text.eat_byte(b']')?;
            // Hashes as the derived `Hash` of the fields in order.
            let no_lod: &[Box<[u64]>] = &[];
            let key = (dtype, dims, layout, no_lod, offset);
            Some(ctx.intern_type_by(
                &key,
                |t: &DenseTensorType| {
                    t.dtype == dtype
                        && *t.dims == *dims
                        && t.layout == layout
                        && t.lod.is_empty()
                        && t.offset == offset
                },
                || DenseTensorType {
                    dtype,
                    dims: dims.into(),
                    layout,
                    lod: Box::new([]),
                    offset,
                },
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ALL` lists every layout once, and each reads back from what Paddle
    /// writes for it, in any case.
    #[test]
    fn every_layout_reads_back() {
        for &layout in DataLayout::ALL {
            let exhaustive = match layout {
                DataLayout::Undefined
                | DataLayout::NHWC
                | DataLayout::NCHW
                | DataLayout::NCDHW
                | DataLayout::NDHWC
                | DataLayout::OneDnn
                | DataLayout::SparseCoo
                | DataLayout::SparseCsr
                | DataLayout::PstringUnion
                | DataLayout::Strided => layout,
            };
            assert_eq!(DataLayout::parse(exhaustive.as_str()), Some(layout));
            let lower = layout.as_str().to_ascii_lowercase();
            assert_eq!(DataLayout::parse(&lower), Some(layout));
        }
        // A new variant fails the match above until it is listed in `ALL` too.
        let mut names: Vec<_> = DataLayout::ALL.iter().map(|l| l.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 10);
    }
}
