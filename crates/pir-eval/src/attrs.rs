//! The op being evaluated: its name, attributes and inputs grouped by
//! operand.

use pir_core::{OpId, Program};
use pir_dialects::op_attrs::OpAttrs;
use pir_params::DType;

use crate::{EvalError, EvalTensor};

/// One op to evaluate: attributes are read from the program, inputs are
/// grouped per operand (one tensor, the tensors of a vector operand, or none
/// for an absent optional operand).
pub(crate) struct Ctx<'a> {
    pub program: &'a Program,
    pub op: OpId,
    pub name: &'a str,
    pub groups: Vec<&'a [EvalTensor]>,
}

impl Ctx<'_> {
    /// An attribute error.
    pub fn bad(&self, attr: &str, msg: impl Into<String>) -> EvalError {
        EvalError::Attribute {
            op: self.name.to_string(),
            name: attr.to_string(),
            msg: msg.into(),
        }
    }

    /// A shape error.
    pub fn shape_err(&self, msg: impl Into<String>) -> EvalError {
        EvalError::shape(self.name, msg)
    }

    /// An unsupported-dtype error.
    pub fn dtype_err(&self, dtype: DType) -> EvalError {
        EvalError::dtype(self.name, dtype)
    }

    fn arity(&self, expected: usize) -> EvalError {
        EvalError::Arity {
            op: self.name.to_string(),
            expected,
            got: self.groups.len(),
        }
    }

    /// The single tensor of operand `i`.
    pub fn x(&self, i: usize) -> Result<&EvalTensor, EvalError> {
        match self.groups.get(i) {
            Some([t]) => Ok(t),
            Some(g) => Err(EvalError::Shape {
                op: self.name.to_string(),
                msg: format!("operand {i} holds {} tensors, not one", g.len()),
            }),
            None => Err(self.arity(i + 1)),
        }
    }

    /// The tensor of optional operand `i`, if present.
    pub fn opt(&self, i: usize) -> Result<Option<&EvalTensor>, EvalError> {
        match self.groups.get(i) {
            None | Some([]) => Ok(None),
            Some(_) => self.x(i).map(Some),
        }
    }

    /// The tensors of vector operand `i`.
    pub fn list(&self, i: usize) -> Result<&[EvalTensor], EvalError> {
        self.groups.get(i).copied().ok_or_else(|| self.arity(i + 1))
    }

    /// Checks that the op has exactly `n` operands.
    pub fn arity_is(&self, n: usize) -> Result<(), EvalError> {
        if self.groups.len() == n {
            Ok(())
        } else {
            Err(self.arity(n))
        }
    }

    /// The op's attributes (`pir_dialects::op_attrs`), errors as
    /// [`EvalError::Attribute`]; integers and bools must be of their own
    /// kind, as Paddle's kernels take them.
    fn attrs(&self) -> OpAttrs<'_, EvalError> {
        OpAttrs::with_errors(self.program, self.op, |program, op, e| {
            EvalError::Attribute {
                op: program.op_name_str(op).to_string(),
                name: e.name,
                msg: e.problem.to_string(),
            }
        })
    }

    /// A number held by a float, integer or bool attribute.
    pub fn f64(&self, attr: &str) -> Result<f64, EvalError> {
        self.attrs().f64(attr)
    }

    /// A number attribute, `default` when absent.
    pub fn f64_or(&self, attr: &str, default: f64) -> Result<f64, EvalError> {
        self.attrs().f64_or(attr, default)
    }

    /// A `float` attribute as the kernel sees it (`F32Attr`; a double is
    /// rounded to float as Paddle's attribute conversion would).
    pub fn f32_or(&self, attr: &str, default: f32) -> Result<f32, EvalError> {
        Ok(self.f64_or(attr, f64::from(default))? as f32)
    }

    /// An integer attribute.
    pub fn i64(&self, attr: &str) -> Result<i64, EvalError> {
        self.attrs().i64(attr)
    }

    /// An integer attribute, `default` when absent.
    pub fn i64_or(&self, attr: &str, default: i64) -> Result<i64, EvalError> {
        self.attrs().i64_or(attr, default)
    }

    /// A bool attribute (`default` when absent).
    pub fn bool_or(&self, attr: &str, default: bool) -> Result<bool, EvalError> {
        self.attrs().bool_or(attr, default)
    }

    /// A string attribute (`default` when absent).
    pub fn str_or(&self, attr: &str, default: &str) -> Result<String, EvalError> {
        self.attrs().str_or(attr, default)
    }

    /// An int array: `pd_op.IntArray` or a builtin array of integers.
    pub fn ints(&self, attr: &str) -> Result<Vec<i64>, EvalError> {
        self.attrs().ints(attr)
    }

    /// An int array, `default` when absent.
    pub fn ints_or(&self, attr: &str, default: &[i64]) -> Result<Vec<i64>, EvalError> {
        self.attrs().ints_or(attr, default)
    }

    /// An array of numbers (assign_value's `values`).
    pub fn f64s(&self, attr: &str) -> Result<Vec<f64>, EvalError> {
        self.attrs().f64s(attr)
    }

    /// A `pd_op.DataType` attribute: `None` for `Undefined` or absent.
    pub fn dtype(&self, attr: &str) -> Result<Option<DType>, EvalError> {
        self.attrs()
            .dtype(attr, |d| DType::from_paddle_name(d.text()))
    }

    /// A data type attribute that must be set.
    pub fn dtype_req(&self, attr: &str) -> Result<DType, EvalError> {
        self.dtype(attr)?.ok_or_else(|| self.bad(attr, "undefined"))
    }
}

/// The integer values of an int32/int64 operand (axis, shape, sections...).
pub(crate) fn int_values(c: &Ctx<'_>, t: &EvalTensor) -> Result<Vec<i64>, EvalError> {
    match t {
        EvalTensor::I32(_) | EvalTensor::I64(_) => Ok(t.to_i64_vec()),
        _ => Err(c.dtype_err(t.dtype())),
    }
}

/// The single value of a scalar operand (a `[1]` or 0-d tensor).
pub(crate) fn scalar_value(c: &Ctx<'_>, t: &EvalTensor) -> Result<f64, EvalError> {
    if t.numel() != 1 {
        return Err(c.shape_err(format!(
            "a scalar operand has {} elements, not 1",
            t.numel()
        )));
    }
    Ok(t.to_f64_vec()[0])
}

/// The single integer of a scalar int operand (int32/int64; floats truncate).
pub(crate) fn scalar_int(c: &Ctx<'_>, t: &EvalTensor) -> Result<i64, EvalError> {
    if t.numel() != 1 {
        return Err(c.shape_err(format!(
            "a scalar operand has {} elements, not 1",
            t.numel()
        )));
    }
    Ok(t.to_i64_vec()[0])
}
