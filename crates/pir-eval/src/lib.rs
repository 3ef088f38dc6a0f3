//! A CPU evaluator for `pd_op` ops whose results equal Paddle 3.3.1's CPU
//! kernels, for constant folding and batch-norm folding.
//!
//! [`evaluate`] runs one op of a [`Program`] on [`EvalTensor`] inputs (one per
//! operand, in operand order), reading its attributes from the op. Values
//! convert from and to parameter tensors ([`EvalTensor::from_tensor`],
//! [`EvalTensor::to_tensor`]).
//!
//! Each kernel accepts the dtypes Paddle registers a CPU kernel for (checked
//! against vectors recorded from Paddle by `scripts/make_vectors.py`); other
//! dtypes, unknown ops and bad shapes are [`EvalError`]s, never panics.
//!
//! ```
//! use pir_core::{Builder, Program};
//! use pir_core::builtin::{DenseTensorType, ScalarType};
//! use pir_eval::{evaluate, EvalTensor};
//! let ctx = pir_dialects::pd_op_context();
//! let mut p = Program::new(ctx.clone());
//! let f32t = ctx.intern_type(ScalarType::F32);
//! let t = DenseTensorType::get(&ctx, f32t, &[2]);
//! let block = p.top_block();
//! let mut b = Builder::at_end(&mut p, block);
//! let x = b.op("pd_op.data", &[], &[t], &[]);
//! let xv = b.program().result(x, 0);
//! let add = b.op("pd_op.add", &[xv, xv], &[t], &[]);
//! let x = EvalTensor::from_f64s(pir_params::DType::Float32, &[2], &[1.5, -2.0]).unwrap();
//! let out = evaluate(&p, add, &[x.clone(), x]).unwrap();
//! assert_eq!(out[0].to_f64_vec(), vec![3.0, -4.0]);
//! ```
#![forbid(unsafe_code)]

mod attrs;
mod elementwise;
mod matmul;
mod reduce;
mod shape;
mod unary;
mod value;

use pir_core::{OpId, Program};
use pir_params::DType;

pub use value::{Elem, EvalTensor};

/// Why an op cannot be evaluated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EvalError {
    /// The evaluator has no kernel for the op.
    #[error("no CPU evaluator for `{0}`")]
    UnsupportedOp(String),
    /// Paddle has no CPU kernel of the op for this dtype (or the evaluator
    /// does not implement it).
    #[error("`{op}` has no CPU kernel for {dtype}")]
    UnsupportedDType {
        /// The op name.
        op: String,
        /// The input dtype.
        dtype: DType,
    },
    /// A parameter tensor of a dtype [`EvalTensor`] cannot hold.
    #[error("{0} tensors are not supported by the evaluator")]
    UnsupportedTensorDType(DType),
    /// Wrong number of inputs.
    #[error("`{op}` takes {expected} inputs, got {got}")]
    Arity {
        /// The op name.
        op: String,
        /// Inputs the kernel needs.
        expected: usize,
        /// Inputs given.
        got: usize,
    },
    /// Shapes that do not fit together (broadcasting, reshape, matmul...).
    #[error("`{op}`: {msg}")]
    Shape {
        /// The op name.
        op: String,
        /// What is wrong.
        msg: String,
    },
    /// A missing or malformed attribute.
    #[error("`{op}`: attribute `{name}`: {msg}")]
    Attribute {
        /// The op name.
        op: String,
        /// The attribute name.
        name: String,
        /// What is wrong.
        msg: String,
    },
    /// Inputs of different dtypes where the kernel needs one.
    #[error("`{op}`: inputs have different dtypes {x} and {y}")]
    DTypeMismatch {
        /// The op name.
        op: String,
        /// First dtype.
        x: DType,
        /// Second dtype.
        y: DType,
    },
    /// An integer division by zero (Paddle raises the same).
    #[error("`{op}`: integer division by zero")]
    DivisionByZero {
        /// The op name.
        op: String,
    },
    /// Building or converting a tensor failed.
    #[error("tensor conversion: {0}")]
    Tensor(String),
}

impl EvalError {
    pub(crate) fn shape(op: &str, msg: impl Into<String>) -> EvalError {
        EvalError::Shape {
            op: op.to_string(),
            msg: msg.into(),
        }
    }

    pub(crate) fn dtype(op: &str, dtype: DType) -> EvalError {
        EvalError::UnsupportedDType {
            op: op.to_string(),
            dtype,
        }
    }
}

/// The op names [`evaluate`] has a kernel for.
pub const SUPPORTED_OPS: &[&str] = &[
    "pd_op.full",
    "pd_op.full_int_array",
    "pd_op.assign",
    "pd_op.cast",
    "pd_op.scale",
    "pd_op.add",
    "pd_op.subtract",
    "pd_op.multiply",
    "pd_op.divide",
    "pd_op.maximum",
    "pd_op.minimum",
    "pd_op.relu",
    "pd_op.exp",
    "pd_op.tanh",
    "pd_op.sqrt",
    "pd_op.abs",
    "pd_op.sigmoid",
    "pd_op.equal",
    "pd_op.not_equal",
    "pd_op.less_than",
    "pd_op.less_equal",
    "pd_op.greater_than",
    "pd_op.greater_equal",
    "pd_op.reshape",
    "pd_op.transpose",
    "pd_op.matmul",
    "pd_op.sum",
    "pd_op.mean",
];

/// Whether [`evaluate`] has a kernel for the op named `name`.
pub fn is_supported(name: &str) -> bool {
    SUPPORTED_OPS.contains(&name)
}

/// Evaluates `op` of `program` on `inputs` (one per operand, in order) and
/// returns its results, as Paddle's CPU kernel would compute them.
///
/// Attributes are read from the op; operands that Paddle's kernels take as
/// `IntArray`/`Scalar` (reshape's shape, sum/mean's axis, scale's scale) are
/// input tensors here, as they are in the program.
pub fn evaluate(
    program: &Program,
    op: OpId,
    inputs: &[EvalTensor],
) -> Result<Vec<EvalTensor>, EvalError> {
    let name = program.op_name_str(op);
    let a = attrs::Attrs { program, op, name };
    let arity = |n: usize| {
        if inputs.len() == n {
            Ok(())
        } else {
            Err(EvalError::Arity {
                op: name.to_string(),
                expected: n,
                got: inputs.len(),
            })
        }
    };
    let out = match name {
        "pd_op.full" => {
            arity(0)?;
            shape::full(&a)?
        }
        "pd_op.full_int_array" => {
            arity(0)?;
            shape::full_int_array(&a)?
        }
        "pd_op.assign" => {
            arity(1)?;
            inputs[0].clone()
        }
        "pd_op.cast" => {
            arity(1)?;
            unary::cast(
                &inputs[0],
                a.dtype("dtype")?
                    .ok_or_else(|| a.bad("dtype", "undefined"))?,
            )?
        }
        "pd_op.scale" => {
            arity(2)?;
            elementwise::scale(&a, &inputs[0], &inputs[1])?
        }
        "pd_op.add" | "pd_op.subtract" | "pd_op.multiply" | "pd_op.divide" | "pd_op.maximum"
        | "pd_op.minimum" => {
            arity(2)?;
            elementwise::arith(name, &inputs[0], &inputs[1])?
        }
        "pd_op.equal"
        | "pd_op.not_equal"
        | "pd_op.less_than"
        | "pd_op.less_equal"
        | "pd_op.greater_than"
        | "pd_op.greater_equal" => {
            arity(2)?;
            elementwise::compare(name, &inputs[0], &inputs[1])?
        }
        "pd_op.relu" | "pd_op.exp" | "pd_op.tanh" | "pd_op.sqrt" | "pd_op.abs"
        | "pd_op.sigmoid" => {
            arity(1)?;
            unary::unary(name, &inputs[0])?
        }
        "pd_op.reshape" => {
            arity(2)?;
            shape::reshape(name, &inputs[0], &inputs[1])?
        }
        "pd_op.transpose" => {
            arity(1)?;
            shape::transpose(&a, &inputs[0])?
        }
        "pd_op.matmul" => {
            arity(2)?;
            matmul::matmul(&a, &inputs[0], &inputs[1])?
        }
        "pd_op.sum" | "pd_op.mean" => {
            arity(2)?;
            reduce::reduce(&a, &inputs[0], &inputs[1])?
        }
        other => return Err(EvalError::UnsupportedOp(other.to_string())),
    };
    Ok(vec![out])
}

#[cfg(test)]
mod tests;
