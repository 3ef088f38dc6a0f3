//! A CPU evaluator for `pd_op` ops whose results equal Paddle 3.3.1's CPU
//! kernels, for constant folding and batch-norm folding.
//!
//! [`evaluate`] runs one op of a [`Program`] on [`EvalTensor`] inputs (one per
//! operand, in operand order; the tensors of a vector operand in its place),
//! reading its attributes from the op. Values convert from and to parameter
//! tensors ([`EvalTensor::from_tensor`], [`EvalTensor::to_tensor`]).
//!
//! Each kernel accepts the dtypes Paddle registers a CPU kernel for (checked
//! against vectors recorded from Paddle by `scripts/make_vectors.py`); other
//! dtypes, unknown ops and bad shapes are [`EvalError`]s, never panics.
//! Results larger than [`MAX_ELEMENTS`] are refused before allocating.
//!
//! How close results are to Paddle's:
//! - bit for bit: integer and bool results, shape and indexing ops, casts,
//!   elementwise arithmetic (single IEEE operations, or Paddle's formula
//!   evaluated step by step in the dtype: float16/bfloat16 compute in
//!   float32 and round once, as most of Paddle's half kernels do), max/min
//!   reductions, cumsum, pooling;
//! - within an ulp or so: transcendental functions (Paddle uses glibc or
//!   Eigen's vectorised approximations in the dtype; here the exact value
//!   is rounded);
//! - within a small relative error: sums (matmul, convolutions, sum/mean,
//!   softmax, normalisations), which BLAS and Eigen add in their own order.
//!
//! A few of Paddle's results depend on whether an element goes through
//! Eigen's vectorised path or its scalar tail (`exp(-inf)`, `pow` of signed
//! zeros and infinities, float32 `sqrt(inf)`); the evaluator follows
//! Paddle's AVX2 builds (packets of 8 float32 / 4 float64).
//!
//! Some inputs are refused although Paddle has a kernel, because Paddle's
//! result cannot be checked or is wrong: integer inputs of the float math
//! functions and of `divide` (dygraph casts them to float32, and a PIR
//! program's executor returns float32 values for them too), `split` with a
//! negative axis (Paddle 3.3.1 cuts the wrong elements), `batch_norm` in
//! training mode.
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
mod binary;
mod conv;
mod create;
mod index;
mod matmul;
mod norm;
mod pool;
mod reduce;
mod shape;
mod unary;
mod value;

use pir_core::builtin::VectorType;
use pir_core::{OpId, Program};
use pir_params::DType;

pub use value::{Elem, EvalTensor};

/// The largest number of elements a result may have; larger results are
/// refused with [`EvalError::TooLarge`] before anything is allocated.
pub const MAX_ELEMENTS: usize = 1 << 28;

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
    /// A value Paddle's kernel rejects (an index out of range, `min > max` in
    /// clip, a negative integer exponent...).
    #[error("`{op}`: {msg}")]
    InvalidValue {
        /// The op name.
        op: String,
        /// What is wrong.
        msg: String,
    },
    /// The result would have more than [`MAX_ELEMENTS`] elements.
    #[error("`{op}`: the result would have more than {max} elements", max = MAX_ELEMENTS)]
    TooLarge {
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

    pub(crate) fn value(op: &str, msg: impl Into<String>) -> EvalError {
        EvalError::InvalidValue {
            op: op.to_string(),
            msg: msg.into(),
        }
    }
}

/// The element count of `dims`, or [`EvalError::TooLarge`] above
/// [`MAX_ELEMENTS`].
pub(crate) fn numel(op: &str, dims: &[usize]) -> Result<usize, EvalError> {
    dims.iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .filter(|&n| n <= MAX_ELEMENTS)
        .ok_or_else(|| EvalError::TooLarge { op: op.to_string() })
}

const fn concat<const N: usize>(parts: &[&[&'static str]]) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut k) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[k] = parts[i][j];
            k += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

const PARTS: &[&[&str]] = &[
    create::OPS,
    unary::OPS,
    unary::INT_OPS,
    binary::OPS,
    reduce::OPS,
    shape::OPS,
    index::OPS,
    matmul::OPS,
    conv::OPS,
    pool::OPS,
    norm::OPS,
];

const fn total(parts: &[&[&str]]) -> usize {
    let (mut i, mut n) = (0, 0);
    while i < parts.len() {
        n += parts[i].len();
        i += 1;
    }
    n
}

const ALL_OPS: [&str; total(PARTS)] = concat(PARTS);

/// The op names [`evaluate`] has a kernel for.
pub const SUPPORTED_OPS: &[&str] = &ALL_OPS;

/// Whether [`evaluate`] has a kernel for the op named `name`.
pub fn is_supported(name: &str) -> bool {
    SUPPORTED_OPS.contains(&name)
}

/// Evaluates `op` of `program` on `inputs` and returns its results, as
/// Paddle's CPU kernel would compute them.
///
/// `inputs` holds one tensor per operand, in order; a vector operand (a
/// `builtin.combine` result, as `concat` and `stack` take) contributes all its
/// tensors in its place, and an absent optional operand (`batch_norm`'s
/// scale) none. Likewise a vector result (`split`'s) is returned as its
/// elements. Attributes are read from the op; operands that Paddle's kernels
/// take as `IntArray`/`Scalar` (reshape's shape, sum's axis, scale's scale)
/// are input tensors here, as they are in the program.
pub fn evaluate(
    program: &Program,
    op: OpId,
    inputs: &[EvalTensor],
) -> Result<Vec<EvalTensor>, EvalError> {
    let name = program.op_name_str(op);
    let ctx = program.ctx();
    let mut groups = Vec::new();
    let mut at = 0;
    for v in program.operands(op) {
        let n = match v {
            None => 0,
            Some(v) => ctx
                .type_as::<VectorType>(program.value_type(v))
                .map_or(1, |vt| vt.0.len()),
        };
        let group = inputs.get(at..at + n).ok_or(EvalError::Arity {
            op: name.to_string(),
            expected: at + n,
            got: inputs.len(),
        })?;
        groups.push(group);
        at += n;
    }
    if at != inputs.len() {
        return Err(EvalError::Arity {
            op: name.to_string(),
            expected: at,
            got: inputs.len(),
        });
    }
    let c = attrs::Ctx {
        program,
        op,
        name,
        groups,
    };
    create::eval(&c)
        .or_else(|| unary::eval(&c))
        .or_else(|| binary::eval(&c))
        .or_else(|| reduce::eval(&c))
        .or_else(|| shape::eval(&c))
        .or_else(|| index::eval(&c))
        .or_else(|| matmul::eval(&c))
        .or_else(|| conv::eval(&c))
        .or_else(|| pool::eval(&c))
        .or_else(|| norm::eval(&c))
        .unwrap_or_else(|| Err(EvalError::UnsupportedOp(name.to_string())))
}

#[cfg(test)]
mod tests;
