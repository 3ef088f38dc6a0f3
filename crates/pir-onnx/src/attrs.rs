//! Reading a Paddle op's attributes as the numbers, lists and strings an ONNX
//! node needs.

use pir_core::builtin::{
    ArrayAttr, BoolAttr, F32Attr, F64Attr, I32Attr, I64Attr, IndexAttr, StrAttr,
};
use pir_core::{Attribute, OpId, Program};
use pir_dialects::pd_op::{DataType, DataTypeAttr, IntArrayAttr, ScalarAttr};
use pir_params::DType;

/// An op's attributes.
pub(crate) struct Attrs<'p> {
    program: &'p Program,
    op: OpId,
}

/// A missing or malformed attribute.
pub(crate) type AttrError = crate::ExportError;

impl<'p> Attrs<'p> {
    pub fn new(program: &'p Program, op: OpId) -> Self {
        Attrs { program, op }
    }

    fn error(&self, name: &str, message: impl std::fmt::Display) -> AttrError {
        crate::ExportError::Unsupported {
            op: self.program.op_name_str(self.op).to_string(),
            location: crate::export::Exporter::location_of(self.program, self.op),
            message: format!("attribute `{name}`: {message}"),
        }
    }

    fn get(&self, name: &str) -> Option<Attribute> {
        self.program.attr(self.op, name)
    }

    fn num(&self, name: &str, a: Attribute) -> Result<f64, AttrError> {
        let ctx = self.program.ctx();
        if let Some(s) = ctx.attr_as::<ScalarAttr>(a) {
            let is_int = matches!(
                s.dtype,
                DataType::Int8
                    | DataType::Int16
                    | DataType::Int32
                    | DataType::Int64
                    | DataType::UInt8
                    | DataType::Bool
            );
            return Ok(if is_int {
                s.bits as i64 as f64
            } else {
                f64::from_bits(s.bits)
            });
        }
        ctx.attr_as::<F64Attr>(a)
            .map(|a| a.value())
            .or_else(|| ctx.attr_as::<F32Attr>(a).map(|a| f64::from(a.value())))
            .or_else(|| ctx.attr_as::<I64Attr>(a).map(|a| a.0 as f64))
            .or_else(|| ctx.attr_as::<I32Attr>(a).map(|a| f64::from(a.0)))
            .or_else(|| ctx.attr_as::<IndexAttr>(a).map(|a| a.0 as f64))
            .or_else(|| ctx.attr_as::<BoolAttr>(a).map(|a| f64::from(u8::from(a.0))))
            .ok_or_else(|| self.error(name, "not a number"))
    }

    fn int(&self, name: &str, a: Attribute) -> Result<i64, AttrError> {
        let ctx = self.program.ctx();
        ctx.attr_as::<I64Attr>(a)
            .map(|a| a.0)
            .or_else(|| ctx.attr_as::<I32Attr>(a).map(|a| i64::from(a.0)))
            .or_else(|| ctx.attr_as::<IndexAttr>(a).map(|a| a.0))
            .or_else(|| ctx.attr_as::<BoolAttr>(a).map(|a| i64::from(a.0)))
            .map_or_else(|| self.num(name, a).map(|f| f as i64), Ok)
    }

    /// Whether the op has attribute `name`.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// A number (float, integer or bool attribute).
    pub fn f64(&self, name: &str) -> Result<f64, AttrError> {
        let a = self.get(name).ok_or_else(|| self.error(name, "missing"))?;
        self.num(name, a)
    }

    /// A number, `default` when absent.
    pub fn f64_or(&self, name: &str, default: f64) -> Result<f64, AttrError> {
        match self.get(name) {
            None => Ok(default),
            Some(a) => self.num(name, a),
        }
    }

    /// An integer, `default` when absent.
    pub fn i64_or(&self, name: &str, default: i64) -> Result<i64, AttrError> {
        match self.get(name) {
            None => Ok(default),
            Some(a) => self.int(name, a),
        }
    }

    /// A bool, `default` when absent.
    pub fn bool_or(&self, name: &str, default: bool) -> Result<bool, AttrError> {
        match self.get(name) {
            None => Ok(default),
            Some(a) => pir_core::builtin::first_bool(self.program.ctx(), a)
                .ok_or_else(|| self.error(name, "not a bool")),
        }
    }

    /// A string, `default` when absent.
    pub fn str_or(&self, name: &str, default: &str) -> Result<String, AttrError> {
        match self.get(name) {
            None => Ok(default.to_string()),
            Some(a) => self
                .program
                .ctx()
                .attr_as::<StrAttr>(a)
                .map(|s| s.0.to_string())
                .ok_or_else(|| self.error(name, "not a string")),
        }
    }

    fn elements(&self, name: &str) -> Result<Option<Vec<Attribute>>, AttrError> {
        let Some(a) = self.get(name) else {
            return Ok(None);
        };
        let ctx = self.program.ctx();
        if let Some(v) = ctx.attr_as::<IntArrayAttr>(a) {
            return Ok(Some(
                v.0.iter().map(|&i| ctx.intern_attr(I64Attr(i))).collect(),
            ));
        }
        ctx.attr_as::<ArrayAttr>(a)
            .map(|arr| Some(arr.0.to_vec()))
            .ok_or_else(|| self.error(name, "not an array"))
    }

    /// An int list (`pd_op.IntArray` or an array of integers), `None` when
    /// absent.
    pub fn ints_opt(&self, name: &str) -> Result<Option<Vec<i64>>, AttrError> {
        match self.elements(name)? {
            None => Ok(None),
            Some(v) => v
                .into_iter()
                .map(|e| self.int(name, e))
                .collect::<Result<_, _>>()
                .map(Some),
        }
    }

    /// An int list, `default` when absent.
    pub fn ints_or(&self, name: &str, default: &[i64]) -> Result<Vec<i64>, AttrError> {
        Ok(self.ints_opt(name)?.unwrap_or_else(|| default.to_vec()))
    }

    /// An int list that must be there.
    pub fn ints(&self, name: &str) -> Result<Vec<i64>, AttrError> {
        self.ints_opt(name)?
            .ok_or_else(|| self.error(name, "missing"))
    }

    /// A list of numbers, `None` when absent.
    pub fn f64s_opt(&self, name: &str) -> Result<Option<Vec<f64>>, AttrError> {
        match self.elements(name)? {
            None => Ok(None),
            Some(v) => v
                .into_iter()
                .map(|e| self.num(name, e))
                .collect::<Result<_, _>>()
                .map(Some),
        }
    }

    /// A `pd_op.DataType` attribute: `None` when absent or `Undefined`.
    pub fn dtype(&self, name: &str) -> Result<Option<DType>, AttrError> {
        let Some(a) = self.get(name) else {
            return Ok(None);
        };
        let d = self
            .program
            .ctx()
            .attr_as::<DataTypeAttr>(a)
            .ok_or_else(|| self.error(name, "not a data type"))?;
        if d.0 == DataType::Undefined {
            return Ok(None);
        }
        DType::from_paddle_name(d.0.text())
            .map(Some)
            .ok_or_else(|| self.error(name, format!("data type {}", d.0.text())))
    }
}
