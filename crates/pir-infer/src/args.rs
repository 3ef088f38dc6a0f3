//! The arguments of an InferMeta call: the op's operands, attributes and
//! constant operands, addressed by the function's parameter index (the
//! definition's `infer_meta_param` order).

use pir_core::builtin::{
    ArrayAttr, BoolAttr, DataLayout, F32Attr, F64Attr, I32Attr, I64Attr, IndexAttr, StrAttr,
    VectorType,
};
use pir_core::{Attribute, IrContext, OpId, Program, Symbol, ValueId};
use pir_dialects::op_def::{DefaultValue, OpDef};
use pir_dialects::pd_op::{DataType, DataTypeAttr, IntArrayAttr, ScalarAttr};

use crate::meta::{meta_of, Meta};
use crate::Bad;

/// Where a parameter's value comes from.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Param {
    /// Operand `index` (a tensor, a list of tensors, or a mutable attribute).
    Input(usize),
    /// Attribute `index` of the definition, looked up by `name`.
    Attr(Symbol, usize),
    /// A literal the definition spells in place of a name (`False`).
    Lit(bool),
}

/// Names the ops whose results give constant operands their values.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Syms {
    pub full_int_array: Symbol,
    pub full: Symbol,
    pub stack: Symbol,
    pub concat: Symbol,
    pub shape: Symbol,
    pub shape64: Symbol,
    pub value: Symbol,
}

impl Syms {
    pub(crate) fn new(ctx: &IrContext) -> Syms {
        Syms {
            full_int_array: ctx.symbol("pd_op.full_int_array"),
            full: ctx.symbol("pd_op.full"),
            stack: ctx.symbol("pd_op.stack"),
            concat: ctx.symbol("pd_op.concat"),
            shape: ctx.symbol("pd_op.shape"),
            shape64: ctx.symbol("pd_op.shape64"),
            value: ctx.symbol("value"),
        }
    }
}

/// Paddle's `IntArray`: values and whether they come from a tensor (then
/// unknown entries are `-1`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IntArray {
    /// The values.
    pub values: Vec<i64>,
    /// `FromTensor()`.
    pub from_tensor: bool,
}

/// Paddle's `Scalar`: a value and whether it comes from a tensor.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Scalar {
    /// The value.
    pub value: f64,
    /// `FromTensor()`.
    pub from_tensor: bool,
}

/// The arguments of one InferMeta call.
pub struct Args<'a> {
    pub(crate) p: &'a Program,
    pub(crate) op: OpId,
    pub(crate) def: &'static OpDef,
    pub(crate) params: &'a [Param],
    pub(crate) syms: &'a Syms,
}

fn attr_f64(ctx: &IrContext, a: Attribute) -> Option<f64> {
    if let Some(v) = ctx.attr_as::<F32Attr>(a) {
        return Some(f64::from(v.value()));
    }
    if let Some(v) = ctx.attr_as::<F64Attr>(a) {
        return Some(v.value());
    }
    attr_i64(ctx, a).map(|v| v as f64)
}

fn attr_i64(ctx: &IrContext, a: Attribute) -> Option<i64> {
    if let Some(v) = ctx.attr_as::<I32Attr>(a) {
        return Some(i64::from(v.0));
    }
    if let Some(v) = ctx.attr_as::<I64Attr>(a) {
        return Some(v.0);
    }
    if let Some(v) = ctx.attr_as::<IndexAttr>(a) {
        return Some(v.0);
    }
    if let Some(v) = ctx.attr_as::<BoolAttr>(a) {
        return Some(i64::from(v.0));
    }
    if let Some(s) = ctx.attr_as::<ScalarAttr>(a) {
        return Some(s.bits as i64);
    }
    None
}

impl<'a> Args<'a> {
    fn ctx(&self) -> &'a IrContext {
        self.p.ctx()
    }

    fn param(&self, i: usize) -> Result<Param, Bad> {
        self.params
            .get(i)
            .copied()
            .ok_or_else(|| Bad(format!("no parameter {i}")))
    }

    /// The number of parameters.
    pub fn len(&self) -> usize {
        self.params.len()
    }

    fn operand(&self, i: usize) -> Result<Option<ValueId>, Bad> {
        match self.param(i)? {
            Param::Input(k) => Ok(self.p.operand(self.op, k)),
            _ => Err(Bad(format!("parameter {i} is not an operand"))),
        }
    }

    /// Whether parameter `i` is an operand that is present.
    pub fn has(&self, i: usize) -> bool {
        matches!(self.operand(i), Ok(Some(v)) if !self.p.value_type(v).is_null())
    }

    /// The tensor operand of parameter `i`.
    pub fn tensor(&self, i: usize) -> Result<Meta, Bad> {
        self.opt_tensor(i)?
            .ok_or_else(|| Bad(format!("operand of parameter {i} is missing")))
    }

    /// The tensor operand of parameter `i`, `None` when absent.
    pub fn opt_tensor(&self, i: usize) -> Result<Option<Meta>, Bad> {
        let Some(v) = self.operand(i)? else {
            return Ok(None);
        };
        meta_of(self.ctx(), self.p.value_type(v))
    }

    /// The tensors of a list operand (a `builtin.vec`) of parameter `i`.
    pub fn tensors(&self, i: usize) -> Result<Vec<Meta>, Bad> {
        let Some(v) = self.operand(i)? else {
            return Ok(Vec::new());
        };
        let ty = self.p.value_type(v);
        if ty.is_null() {
            return Ok(Vec::new());
        }
        match self.ctx().type_as::<VectorType>(ty) {
            Some(vec) => vec
                .0
                .iter()
                .map(|&t| meta_of(self.ctx(), t)?.ok_or_else(|| Bad("null list element".into())))
                .collect(),
            None => Ok(vec![self.tensor(i)?]),
        }
    }

    /// The attribute of parameter `i` (`None`: absent, no default).
    fn attr(
        &self,
        i: usize,
    ) -> Result<(Option<Attribute>, &'static pir_dialects::op_def::AttrSpec), Bad> {
        match self.param(i)? {
            Param::Attr(sym, k) => {
                let spec = self
                    .def
                    .attributes
                    .get(k)
                    .ok_or_else(|| Bad(format!("no attribute {k}")))?;
                let a = self.ctx().dict_get(self.p.attrs(self.op), sym);
                Ok((a.filter(|a| !a.is_null()), spec))
            }
            _ => Err(Bad(format!("parameter {i} is not an attribute"))),
        }
    }

    fn missing(&self, i: usize) -> Bad {
        Bad(format!("attribute of parameter {i} is missing"))
    }

    /// A bool parameter.
    pub fn bool(&self, i: usize) -> Result<bool, Bad> {
        if let Param::Lit(b) = self.param(i)? {
            return Ok(b);
        }
        let (a, spec) = self.attr(i)?;
        if let Some(a) = a {
            return self
                .ctx()
                .attr_as::<BoolAttr>(a)
                .map(|b| b.0)
                .ok_or_else(|| Bad(format!("attribute `{}` is not a bool", spec.name)));
        }
        match spec.default {
            Some(DefaultValue::Bool(b)) => Ok(b),
            Some(DefaultValue::Int(v)) => Ok(v != 0),
            _ => Err(self.missing(i)),
        }
    }

    /// An integer parameter (int32/int64/index attributes, or an integer scalar).
    pub fn int(&self, i: usize) -> Result<i64, Bad> {
        let (a, spec) = self.attr(i)?;
        if let Some(a) = a {
            if let Some(v) = attr_i64(self.ctx(), a) {
                return Ok(v);
            }
            return attr_f64(self.ctx(), a)
                .map(|f| f as i64)
                .ok_or_else(|| Bad(format!("attribute `{}` is not an integer", spec.name)));
        }
        match spec.default {
            Some(DefaultValue::Int(v)) => Ok(v),
            Some(DefaultValue::Float(v)) => Ok(v as i64),
            Some(DefaultValue::Bool(b)) => Ok(i64::from(b)),
            _ => Err(self.missing(i)),
        }
    }

    /// A string parameter.
    pub fn str(&self, i: usize) -> Result<&'a str, Bad> {
        let (a, spec) = self.attr(i)?;
        if let Some(a) = a {
            return self
                .ctx()
                .attr_as::<StrAttr>(a)
                .map(|s| &*s.0)
                .ok_or_else(|| Bad(format!("attribute `{}` is not a string", spec.name)));
        }
        match spec.default {
            Some(DefaultValue::Str(s)) => Ok(s.as_str()),
            _ => Err(self.missing(i)),
        }
    }

    /// A data type parameter.
    pub fn dtype(&self, i: usize) -> Result<DataType, Bad> {
        let (a, spec) = self.attr(i)?;
        if let Some(a) = a {
            if let Some(d) = self.ctx().attr_as::<DataTypeAttr>(a) {
                return Ok(d.0);
            }
            // Legacy `int` data types (proto VarType codes).
            if let Some(v) = attr_i64(self.ctx(), a) {
                return proto_dtype(v);
            }
            return Err(Bad(format!("attribute `{}` is not a data type", spec.name)));
        }
        match spec.default {
            Some(DefaultValue::Str(s)) => {
                DataType::parse(&s).ok_or_else(|| Bad(format!("unknown data type {s}")))
            }
            Some(DefaultValue::Int(v)) => proto_dtype(v),
            _ => Err(self.missing(i)),
        }
    }

    fn list(&self, i: usize) -> Result<Option<&'a [Attribute]>, Bad> {
        let (a, spec) = self.attr(i)?;
        match a {
            Some(a) => self
                .ctx()
                .attr_as::<ArrayAttr>(a)
                .map(|arr| Some(&*arr.0))
                .ok_or_else(|| Bad(format!("attribute `{}` is not an array", spec.name))),
            None => Ok(None),
        }
    }

    /// An integer list parameter (array attribute or IntArray attribute).
    pub fn ints(&self, i: usize) -> Result<Vec<i64>, Bad> {
        if let Param::Input(_) = self.param(i)? {
            return Ok(self.int_array(i)?.values);
        }
        let (a, spec) = self.attr(i)?;
        if let Some(a) = a {
            if let Some(arr) = self.ctx().attr_as::<IntArrayAttr>(a) {
                return Ok(arr.0.to_vec());
            }
        }
        match self.list(i)? {
            Some(items) => items
                .iter()
                .map(|&a| {
                    attr_i64(self.ctx(), a)
                        .ok_or_else(|| Bad(format!("attribute `{}`: not an integer", spec.name)))
                })
                .collect(),
            None => match spec.default {
                Some(DefaultValue::IntList(v)) => Ok(v.to_vec()),
                Some(DefaultValue::FloatList(v)) if v.is_empty() => Ok(Vec::new()),
                _ => Err(self.missing(i)),
            },
        }
    }

    /// A float list parameter.
    pub fn floats(&self, i: usize) -> Result<Vec<f64>, Bad> {
        let (_, spec) = self.attr(i)?;
        match self.list(i)? {
            Some(items) => items
                .iter()
                .map(|&a| {
                    attr_f64(self.ctx(), a)
                        .ok_or_else(|| Bad(format!("attribute `{}`: not a number", spec.name)))
                })
                .collect(),
            None => match spec.default {
                Some(DefaultValue::FloatList(v)) => Ok(v.to_vec()),
                Some(DefaultValue::IntList(v)) => Ok(v.iter().map(|&x| x as f64).collect()),
                _ => Err(self.missing(i)),
            },
        }
    }

    /// An `IntArray` parameter: an attribute, or an operand whose value the
    /// builder knows (Paddle's `ParseValueShape`).
    pub fn int_array(&self, i: usize) -> Result<IntArray, Bad> {
        match self.param(i)? {
            Param::Input(_) => {
                let v = self
                    .operand(i)?
                    .ok_or_else(|| Bad(format!("operand of parameter {i} is missing")))?;
                let mut from_tensor = false;
                let values = self.parse_value_shape(v, &mut from_tensor, 0)?;
                Ok(IntArray {
                    values,
                    from_tensor,
                })
            }
            _ => Ok(IntArray {
                values: self.ints(i)?,
                from_tensor: false,
            }),
        }
    }

    /// The shape operand of `expand` (parameter `i`) as `ExpandOp`'s builder
    /// reads it: an attribute's or a `full_int_array`'s values; a `stack`'s
    /// items one by one, a `full` item's value, `-2` (unknown) for any other;
    /// a `shape` of a tensor its dims, unknown ones `-2`; for any other
    /// operand every entry `-2`. (Checked against Paddle 3.3.1: a `-1` item
    /// keeps the input's dim, `-2` gives an unknown one.)
    pub fn expand_shape(&self, i: usize) -> Result<Vec<i64>, Bad> {
        let Param::Input(_) = self.param(i)? else {
            return self.ints(i);
        };
        let v = self
            .operand(i)?
            .ok_or_else(|| Bad(format!("operand of parameter {i} is missing")))?;
        let p = self.p;
        let unknown = |v: ValueId| -> Result<Vec<i64>, Bad> {
            let mut from_tensor = false;
            let n = self.parse_value_shape(v, &mut from_tensor, 0)?.len();
            Ok(vec![-2; n])
        };
        let Some(def) = p.defining_op(v) else {
            return unknown(v);
        };
        let name = p.op_name(def);
        if name == self.syms.full_int_array {
            let mut from_tensor = false;
            return self.parse_value_shape(v, &mut from_tensor, 0);
        }
        if name == self.syms.shape || name == self.syms.shape64 {
            let mut from_tensor = false;
            let dims = self.parse_value_shape(v, &mut from_tensor, 0)?;
            return Ok(dims
                .into_iter()
                .map(|d| if d < 0 { -2 } else { d })
                .collect());
        }
        if name == self.syms.stack {
            let list = p
                .operand(def, 0)
                .and_then(|l| p.defining_op(l))
                .ok_or_else(|| Bad("stack of no list".into()))?;
            let mut out = Vec::new();
            for item in p.operands(list).flatten() {
                let is_full = p
                    .defining_op(item)
                    .is_some_and(|d| p.op_name(d) == self.syms.full);
                if is_full {
                    let mut from_tensor = false;
                    out.extend(self.parse_value_shape(item, &mut from_tensor, 0)?);
                } else {
                    out.extend(unknown(item)?);
                }
            }
            return Ok(out);
        }
        unknown(v)
    }

    /// The values of a constant int-array operand, as Paddle's
    /// `ParseValueShape` reads them while building the op.
    fn parse_value_shape(
        &self,
        v: ValueId,
        from_tensor: &mut bool,
        depth: usize,
    ) -> Result<Vec<i64>, Bad> {
        let p = self.p;
        let ctx = p.ctx();
        if depth > 64 {
            return Err(Bad("constant operands nest too deep".into()));
        }
        if let Some(def) = p.defining_op(v) {
            let name = p.op_name(def);
            if name == self.syms.full_int_array {
                let a = ctx
                    .dict_get(p.attrs(def), self.syms.value)
                    .ok_or_else(|| Bad("full_int_array without `value`".into()))?;
                let arr = ctx
                    .attr_as::<ArrayAttr>(a)
                    .ok_or_else(|| Bad("full_int_array `value` is not an array".into()))?;
                return arr
                    .0
                    .iter()
                    .map(|&e| {
                        attr_i64(ctx, e).ok_or_else(|| Bad("full_int_array: not an integer".into()))
                    })
                    .collect();
            }
            if name == self.syms.full {
                let a = ctx
                    .dict_get(p.attrs(def), self.syms.value)
                    .ok_or_else(|| Bad("full without `value`".into()))?;
                let f =
                    attr_f64(ctx, a).ok_or_else(|| Bad("full `value` is not a number".into()))?;
                return Ok(vec![f as i64]);
            }
            if name == self.syms.stack || name == self.syms.concat {
                let list = p
                    .operand(def, 0)
                    .and_then(|l| p.defining_op(l))
                    .ok_or_else(|| Bad("stack/concat of no list".into()))?;
                let mut out = Vec::new();
                for item in p.operands(list).flatten() {
                    out.extend(self.parse_value_shape(item, from_tensor, depth + 1)?);
                }
                return Ok(out);
            }
            if (name == self.syms.shape || name == self.syms.shape64)
                && meta_of(ctx, p.value_type(v)).is_ok()
            {
                let x = p
                    .operand(def, 0)
                    .ok_or_else(|| Bad("shape of nothing".into()))?;
                let m =
                    meta_of(ctx, p.value_type(x))?.ok_or_else(|| Bad("shape of null".into()))?;
                *from_tensor = true;
                return Ok(m.dims.as_slice().to_vec());
            }
        }
        let ty = p.value_type(v);
        if let Some(vec) = ctx.type_as::<VectorType>(ty) {
            *from_tensor = true;
            return Ok(vec![-1; vec.0.len()]);
        }
        let m = meta_of(ctx, ty)?.ok_or_else(|| Bad("int array operand has no type".into()))?;
        let n = if m.dims.has_unknown() {
            1
        } else {
            m.dims.product()
        };
        *from_tensor = true;
        Ok(vec![-1; n.max(0) as usize])
    }

    /// A `Scalar` parameter: an attribute, or an operand made by `full`.
    pub fn scalar(&self, i: usize) -> Result<Scalar, Bad> {
        match self.param(i)? {
            Param::Input(_) => {
                let v = self
                    .operand(i)?
                    .ok_or_else(|| Bad(format!("operand of parameter {i} is missing")))?;
                let p = self.p;
                if let Some(def) = p.defining_op(v) {
                    if p.op_name(def) == self.syms.full {
                        if let Some(a) = p.ctx().dict_get(p.attrs(def), self.syms.value) {
                            if let Some(f) = attr_f64(p.ctx(), a) {
                                return Ok(Scalar {
                                    value: f,
                                    from_tensor: false,
                                });
                            }
                        }
                    }
                }
                Ok(Scalar {
                    value: -1.0,
                    from_tensor: true,
                })
            }
            Param::Lit(b) => Ok(Scalar {
                value: f64::from(u8::from(b)),
                from_tensor: false,
            }),
            Param::Attr(..) => {
                let (a, spec) = self.attr(i)?;
                let value = match a {
                    Some(a) => attr_f64(self.ctx(), a)
                        .ok_or_else(|| Bad(format!("attribute `{}` is not a scalar", spec.name)))?,
                    None => match spec.default {
                        Some(DefaultValue::Int(v)) => v as f64,
                        Some(DefaultValue::Float(v)) => v,
                        Some(DefaultValue::Bool(b)) => f64::from(u8::from(b)),
                        _ => return Err(self.missing(i)),
                    },
                };
                Ok(Scalar {
                    value,
                    from_tensor: false,
                })
            }
        }
    }
}

/// A layout from its name (Paddle's `StringToDataLayout`).
pub fn layout_of_str(s: &str) -> Option<DataLayout> {
    Some(match s {
        "NHWC" => DataLayout::NHWC,
        "NCHW" => DataLayout::NCHW,
        "NCDHW" => DataLayout::NCDHW,
        "NDHWC" => DataLayout::NDHWC,
        "AnyLayout" | "ANY" | "Undefined" | "Undefined(AnyLayout)" => DataLayout::Undefined,
        "ONEDNN" | "MKLDNN" => DataLayout::OneDnn,
        other => DataLayout::parse(other)?,
    })
}

/// Whether a `data_format` string names NCHW, as InferMeta functions test
/// `StringToDataLayout(s) == DataLayout::kNCHW`: the name is upper-cased,
/// every other layout Paddle knows (even `NCDHW`) is not NCHW, and an
/// unknown name is refused with Paddle's message.
pub fn is_nchw_name(s: &str) -> Result<bool, Bad> {
    let up = s.to_ascii_uppercase();
    match up.as_str() {
        "NCHW" => Ok(true),
        "NHWC"
        | "NDHWC"
        | "NCDHW"
        | "ANYLAYOUT"
        | "UNDEFINED(ANYLAYOUT)"
        | "MKLDNNLAYOUT"
        | "SPARSE_COO"
        | "SPARSE_CSR"
        | "PSTRING_UNION"
        | "STRIDED" => Ok(false),
        _ => Err(Bad(format!("Unknown data layout type string: {up}."))),
    }
}

/// A data type from its proto `VarType` code (legacy `int` dtype attributes).
pub fn proto_dtype(v: i64) -> Result<DataType, Bad> {
    Ok(match v {
        -1 => DataType::Undefined,
        0 => DataType::Bool,
        1 => DataType::Int16,
        2 => DataType::Int32,
        3 => DataType::Int64,
        4 => DataType::Float16,
        5 => DataType::Float32,
        6 => DataType::Float64,
        20 => DataType::UInt8,
        21 => DataType::Int8,
        22 => DataType::BFloat16,
        23 => DataType::Complex64,
        24 => DataType::Complex128,
        _ => return Err(Bad(format!("unknown data type code {v}"))),
    })
}
