//! Typed reading of an op's attributes: numbers, integers, bools, strings,
//! lists and data types, with an error naming the attribute and what is
//! wrong with it. The evaluator and the ONNX exporter read attributes
//! through this one reader; each turns an [`AttrError`] into its own error
//! (with the op's location, say) by the function it gives
//! [`OpAttrs::with_errors`].
//!
//! ```
//! use pir_dialects::op_attrs::{AttrProblem, OpAttrs};
//! let ctx = pir_dialects::pd_op_context();
//! let text = r#"{
//!     (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2,3],stop_gradient:[true],value:1.5} : () -> tensor<2x3xf32>
//! }"#;
//! let program = pir_core::Program::parse(&ctx, text).unwrap();
//! let op = program.block_ops(program.top_block()).next().unwrap();
//! let attrs = OpAttrs::new(&program, op);
//! assert_eq!(attrs.f64("value").unwrap(), 1.5);
//! assert_eq!(attrs.ints("shape").unwrap(), vec![2, 3]);
//! assert_eq!(attrs.i64_or("axis", -1).unwrap(), -1);
//! assert_eq!(attrs.str_or("value", "").unwrap_err().problem, AttrProblem::NotString);
//! ```

use pir_core::builtin::{
    first_bool, ArrayAttr, BoolAttr, F32Attr, F64Attr, I32Attr, I64Attr, IndexAttr, StrAttr,
};
use pir_core::{Attribute, OpId, Program};

use crate::pd_op::{DataType, DataTypeAttr, IntArrayAttr, ScalarAttr};

/// What is wrong with an attribute.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AttrProblem {
    /// The op has no attribute of that name.
    #[error("missing")]
    Missing,
    /// Not a float, integer or bool.
    #[error("not a number")]
    NotNumber,
    /// Not an integer.
    #[error("not an integer")]
    NotInteger,
    /// Not a bool.
    #[error("not a bool")]
    NotBool,
    /// Not a string.
    #[error("not a string")]
    NotString,
    /// Not an array (nor a `pd_op.IntArray`).
    #[error("not an array")]
    NotArray,
    /// Not a `pd_op.DataType`.
    #[error("not a data type")]
    NotDataType,
    /// A data type the reader has no counterpart for.
    #[error("unsupported data type {0}")]
    UnsupportedDataType(String),
}

/// An attribute that cannot be read as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("attribute `{name}`: {problem}")]
pub struct AttrError {
    /// The attribute's name.
    pub name: String,
    /// What is wrong with it.
    pub problem: AttrProblem,
}

/// Turns an attribute error of op `op` into the caller's error.
pub type ErrorMap<E> = fn(&Program, OpId, AttrError) -> E;

/// The attributes of one op, read with typed errors of kind `E`.
#[derive(Clone, Copy)]
pub struct OpAttrs<'p, E = AttrError> {
    program: &'p Program,
    op: OpId,
    coerce: bool,
    on_error: ErrorMap<E>,
}

impl<'p> OpAttrs<'p, AttrError> {
    /// The attributes of `op`, errors as [`AttrError`].
    pub fn new(program: &'p Program, op: OpId) -> Self {
        OpAttrs::with_errors(program, op, |_, _, e| e)
    }
}

impl<'p, E> OpAttrs<'p, E> {
    /// The attributes of `op`, each error turned into an `E` by `on_error`.
    pub fn with_errors(program: &'p Program, op: OpId, on_error: ErrorMap<E>) -> Self {
        OpAttrs {
            program,
            op,
            coerce: false,
            on_error,
        }
    }

    /// Reads values of a neighbouring kind too: a float, bool or scalar
    /// where an integer is asked for (truncated), the first element of a
    /// bool list where a bool is (an exporter taking what a kernel would
    /// convert). Without it an integer must be an integer attribute and a
    /// bool a bool attribute.
    pub fn coercing(self) -> Self {
        OpAttrs {
            coerce: true,
            ..self
        }
    }

    fn error(&self, name: &str, problem: AttrProblem) -> E {
        (self.on_error)(
            self.program,
            self.op,
            AttrError {
                name: name.to_string(),
                problem,
            },
        )
    }

    fn get(&self, name: &str) -> Option<Attribute> {
        self.program.attr(self.op, name)
    }

    fn required(&self, name: &str) -> Result<Attribute, E> {
        self.get(name)
            .ok_or_else(|| self.error(name, AttrProblem::Missing))
    }

    /// `read` applied to attribute `name`, `default` when absent.
    fn or<T>(
        &self,
        name: &str,
        default: impl FnOnce() -> T,
        read: impl FnOnce(Attribute) -> Result<T, E>,
    ) -> Result<T, E> {
        self.get(name).map_or_else(|| Ok(default()), read)
    }

    fn num(&self, name: &str, a: Attribute) -> Result<f64, E> {
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
            .ok_or_else(|| self.error(name, AttrProblem::NotNumber))
    }

    fn int(&self, name: &str, a: Attribute) -> Result<i64, E> {
        let ctx = self.program.ctx();
        let exact = ctx
            .attr_as::<I64Attr>(a)
            .map(|a| a.0)
            .or_else(|| ctx.attr_as::<I32Attr>(a).map(|a| i64::from(a.0)))
            .or_else(|| ctx.attr_as::<IndexAttr>(a).map(|a| a.0));
        match exact {
            Some(i) => Ok(i),
            None if self.coerce => ctx
                .attr_as::<BoolAttr>(a)
                .map(|a| i64::from(a.0))
                .map_or_else(|| self.num(name, a).map(|f| f as i64), Ok),
            None => Err(self.error(name, AttrProblem::NotInteger)),
        }
    }

    fn boolean(&self, name: &str, a: Attribute) -> Result<bool, E> {
        let ctx = self.program.ctx();
        let b = if self.coerce {
            first_bool(ctx, a)
        } else {
            ctx.attr_as::<BoolAttr>(a).map(|b| b.0)
        };
        b.ok_or_else(|| self.error(name, AttrProblem::NotBool))
    }

    fn string(&self, name: &str, a: Attribute) -> Result<String, E> {
        self.program
            .ctx()
            .attr_as::<StrAttr>(a)
            .map(|s| s.0.to_string())
            .ok_or_else(|| self.error(name, AttrProblem::NotString))
    }

    /// The elements of an array attribute (a `pd_op.IntArray` as integer
    /// attributes), `None` when absent.
    fn elements(&self, name: &str) -> Result<Option<Vec<Attribute>>, E> {
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
            .ok_or_else(|| self.error(name, AttrProblem::NotArray))
    }

    /// Each element of array attribute `name` read by `read`, `None` when
    /// absent.
    fn list<T>(
        &self,
        name: &str,
        read: impl Fn(&Self, &str, Attribute) -> Result<T, E>,
    ) -> Result<Option<Vec<T>>, E> {
        self.elements(name)?
            .map(|v| v.into_iter().map(|e| read(self, name, e)).collect())
            .transpose()
    }

    /// Whether the op has attribute `name`.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// A number (a float, integer, bool or scalar attribute).
    pub fn f64(&self, name: &str) -> Result<f64, E> {
        self.num(name, self.required(name)?)
    }

    /// A number, `default` when absent.
    pub fn f64_or(&self, name: &str, default: f64) -> Result<f64, E> {
        self.or(name, || default, |a| self.num(name, a))
    }

    /// An integer.
    pub fn i64(&self, name: &str) -> Result<i64, E> {
        self.int(name, self.required(name)?)
    }

    /// An integer, `default` when absent.
    pub fn i64_or(&self, name: &str, default: i64) -> Result<i64, E> {
        self.or(name, || default, |a| self.int(name, a))
    }

    /// A bool, `default` when absent.
    pub fn bool_or(&self, name: &str, default: bool) -> Result<bool, E> {
        self.or(name, || default, |a| self.boolean(name, a))
    }

    /// A string, `default` when absent.
    pub fn str_or(&self, name: &str, default: &str) -> Result<String, E> {
        self.or(name, || default.to_string(), |a| self.string(name, a))
    }

    /// An integer list (a `pd_op.IntArray` or an array of integers), `None`
    /// when absent.
    pub fn ints_opt(&self, name: &str) -> Result<Option<Vec<i64>>, E> {
        self.list(name, Self::int)
    }

    /// An integer list that must be there.
    pub fn ints(&self, name: &str) -> Result<Vec<i64>, E> {
        self.ints_opt(name)?
            .ok_or_else(|| self.error(name, AttrProblem::Missing))
    }

    /// An integer list, `default` when absent.
    pub fn ints_or(&self, name: &str, default: &[i64]) -> Result<Vec<i64>, E> {
        Ok(self.ints_opt(name)?.unwrap_or_else(|| default.to_vec()))
    }

    /// A list of numbers, `None` when absent.
    pub fn f64s_opt(&self, name: &str) -> Result<Option<Vec<f64>>, E> {
        self.list(name, Self::num)
    }

    /// A list of numbers that must be there.
    pub fn f64s(&self, name: &str) -> Result<Vec<f64>, E> {
        self.f64s_opt(name)?
            .ok_or_else(|| self.error(name, AttrProblem::Missing))
    }

    /// A `pd_op.DataType` attribute converted by `convert` (which returns
    /// `None` for a type it has no counterpart for): `None` when absent
    /// or `Undefined`.
    pub fn dtype<T>(
        &self,
        name: &str,
        convert: impl Fn(DataType) -> Option<T>,
    ) -> Result<Option<T>, E> {
        let Some(a) = self.get(name) else {
            return Ok(None);
        };
        let d = self
            .program
            .ctx()
            .attr_as::<DataTypeAttr>(a)
            .ok_or_else(|| self.error(name, AttrProblem::NotDataType))?;
        if d.0 == DataType::Undefined {
            return Ok(None);
        }
        convert(d.0).map(Some).ok_or_else(|| {
            self.error(
                name,
                AttrProblem::UnsupportedDataType(d.0.text().to_string()),
            )
        })
    }
}
