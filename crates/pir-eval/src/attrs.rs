//! Reading an op's attributes for the kernels.

use pir_core::builtin::{ArrayAttr, BoolAttr, F32Attr, F64Attr, I32Attr, I64Attr};
use pir_core::{Attribute, OpId, Program};
use pir_dialects::pd_op::{DataType, DataTypeAttr, IntArrayAttr};
use pir_params::DType;

use crate::EvalError;

/// The op being evaluated, for reading its attributes.
pub(crate) struct Attrs<'p> {
    pub program: &'p Program,
    pub op: OpId,
    pub name: &'p str,
}

impl Attrs<'_> {
    pub fn bad(&self, attr: &str, msg: impl Into<String>) -> EvalError {
        EvalError::Attribute {
            op: self.name.to_string(),
            name: attr.to_string(),
            msg: msg.into(),
        }
    }

    fn get(&self, attr: &str) -> Result<Attribute, EvalError> {
        self.program
            .attr(self.op, attr)
            .ok_or_else(|| self.bad(attr, "missing"))
    }

    /// A number held by a float, integer or bool attribute.
    pub fn f64(&self, attr: &str) -> Result<f64, EvalError> {
        let a = self.get(attr)?;
        let ctx = self.program.ctx();
        ctx.attr_as::<F64Attr>(a)
            .map(|a| a.value())
            .or_else(|| ctx.attr_as::<F32Attr>(a).map(|a| f64::from(a.value())))
            .or_else(|| ctx.attr_as::<I64Attr>(a).map(|a| a.0 as f64))
            .or_else(|| ctx.attr_as::<I32Attr>(a).map(|a| f64::from(a.0)))
            .or_else(|| ctx.attr_as::<BoolAttr>(a).map(|a| f64::from(u8::from(a.0))))
            .ok_or_else(|| self.bad(attr, "not a number"))
    }

    /// A bool attribute (`default` when absent).
    pub fn bool_or(&self, attr: &str, default: bool) -> Result<bool, EvalError> {
        match self.program.attr(self.op, attr) {
            None => Ok(default),
            Some(a) => self
                .program
                .ctx()
                .attr_as::<BoolAttr>(a)
                .map(|b| b.0)
                .ok_or_else(|| self.bad(attr, "not a bool")),
        }
    }

    /// An int array: `pd_op.IntArray` or a builtin array of integers.
    pub fn ints(&self, attr: &str) -> Result<Vec<i64>, EvalError> {
        let a = self.get(attr)?;
        let ctx = self.program.ctx();
        if let Some(v) = ctx.attr_as::<IntArrayAttr>(a) {
            return Ok(v.0.to_vec());
        }
        let arr = ctx
            .attr_as::<ArrayAttr>(a)
            .ok_or_else(|| self.bad(attr, "not an int array"))?;
        arr.0
            .iter()
            .map(|&e| {
                ctx.attr_as::<I64Attr>(e)
                    .map(|a| a.0)
                    .or_else(|| ctx.attr_as::<I32Attr>(e).map(|a| i64::from(a.0)))
                    .ok_or_else(|| self.bad(attr, "an element is not an integer"))
            })
            .collect()
    }

    /// A `pd_op.DataType` attribute: `None` for `Undefined`.
    pub fn dtype(&self, attr: &str) -> Result<Option<DType>, EvalError> {
        let a = self.get(attr)?;
        let d = self
            .program
            .ctx()
            .attr_as::<DataTypeAttr>(a)
            .ok_or_else(|| self.bad(attr, "not a data type"))?;
        if d.0 == DataType::Undefined {
            return Ok(None);
        }
        DType::from_paddle_name(d.0.text())
            .map(Some)
            .ok_or_else(|| self.bad(attr, format!("unsupported data type {}", d.0.text())))
    }
}
