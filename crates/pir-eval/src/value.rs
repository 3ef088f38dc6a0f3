//! [`EvalTensor`]: a dtype-tagged `ndarray` array, and the element trait the
//! kernels are generic over.

use half::{bf16, f16};
use ndarray::{ArrayD, IxDyn};
use pir_params::{DType, Tensor};

use crate::EvalError;

/// A tensor value for evaluation: one `ndarray` array per supported dtype.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalTensor {
    /// `float32`.
    F32(ArrayD<f32>),
    /// `float64`.
    F64(ArrayD<f64>),
    /// `float16`.
    F16(ArrayD<f16>),
    /// `bfloat16`.
    BF16(ArrayD<bf16>),
    /// `int32`.
    I32(ArrayD<i32>),
    /// `int64`.
    I64(ArrayD<i64>),
    /// `bool`.
    Bool(ArrayD<bool>),
}

/// Runs `$body` with `$a` bound to the array of `$t`, whatever its dtype.
macro_rules! with_array {
    ($t:expr, $a:ident => $body:expr) => {
        match $t {
            $crate::EvalTensor::F32($a) => $body,
            $crate::EvalTensor::F64($a) => $body,
            $crate::EvalTensor::F16($a) => $body,
            $crate::EvalTensor::BF16($a) => $body,
            $crate::EvalTensor::I32($a) => $body,
            $crate::EvalTensor::I64($a) => $body,
            $crate::EvalTensor::Bool($a) => $body,
        }
    };
}
pub(crate) use with_array;

impl EvalTensor {
    /// The element type.
    pub fn dtype(&self) -> DType {
        match self {
            EvalTensor::F32(_) => DType::Float32,
            EvalTensor::F64(_) => DType::Float64,
            EvalTensor::F16(_) => DType::Float16,
            EvalTensor::BF16(_) => DType::BFloat16,
            EvalTensor::I32(_) => DType::Int32,
            EvalTensor::I64(_) => DType::Int64,
            EvalTensor::Bool(_) => DType::Bool,
        }
    }

    /// The dimensions (empty for 0-d).
    pub fn dims(&self) -> Vec<i64> {
        with_array!(self, a => a.shape().iter().map(|&d| d as i64).collect())
    }

    /// The dimensions as `usize`.
    pub fn shape(&self) -> &[usize] {
        with_array!(self, a => a.shape())
    }

    /// Number of elements.
    pub fn numel(&self) -> usize {
        with_array!(self, a => a.len())
    }

    /// The elements as `f64` in row-major order (integers above 2^53 lose
    /// precision; use [`EvalTensor::to_i64_vec`] for them).
    pub fn to_f64_vec(&self) -> Vec<f64> {
        with_array!(self, a => a.iter().map(|v| v.to_f64()).collect())
    }

    /// The elements as `i64` in row-major order (floats truncated toward zero).
    pub fn to_i64_vec(&self) -> Vec<i64> {
        with_array!(self, a => a.iter().map(|v| v.to_i64()).collect())
    }

    /// A tensor of `dtype` and `dims` from row-major `f64` values, each
    /// converted as Paddle's `static_cast` from double would (half types
    /// through float32).
    pub fn from_f64s(
        dtype: DType,
        dims: &[usize],
        values: &[f64],
    ) -> Result<EvalTensor, EvalError> {
        fn build<T: Elem>(dims: &[usize], v: &[f64]) -> Result<EvalTensor, EvalError> {
            let data = v.iter().map(|&x| T::from_f64(x)).collect();
            Ok(T::wrap(array(dims, data)?))
        }
        dispatch_dtype!(dtype, T => build::<T>(dims, values))
    }

    /// A tensor of `dtype` and `dims` from row-major `i64` values (integers
    /// wrap like C++ conversions; floats are rounded from the integer).
    pub fn from_i64s(
        dtype: DType,
        dims: &[usize],
        values: &[i64],
    ) -> Result<EvalTensor, EvalError> {
        fn build<T: Elem>(dims: &[usize], v: &[i64]) -> Result<EvalTensor, EvalError> {
            let data = v.iter().map(|&x| T::from_i64(x)).collect();
            Ok(T::wrap(array(dims, data)?))
        }
        dispatch_dtype!(dtype, T => build::<T>(dims, values))
    }

    /// Converts a parameter tensor (owned or memory-mapped; the LoD is dropped).
    pub fn from_tensor(t: &Tensor) -> Result<EvalTensor, EvalError> {
        let dims = t
            .dims()
            .iter()
            .map(|&d| usize::try_from(d))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| EvalError::Tensor(format!("negative dims {:?}", t.dims())))?;
        let conv = |e: pir_params::ViewError| EvalError::Tensor(e.to_string());
        Ok(match t.dtype() {
            DType::Float32 => EvalTensor::F32(array(&dims, t.to_vec::<f32>().map_err(conv)?)?),
            DType::Float64 => EvalTensor::F64(array(&dims, t.to_vec::<f64>().map_err(conv)?)?),
            DType::Float16 => EvalTensor::F16(array(&dims, t.to_vec::<f16>().map_err(conv)?)?),
            DType::BFloat16 => EvalTensor::BF16(array(&dims, t.to_vec::<bf16>().map_err(conv)?)?),
            DType::Int32 => EvalTensor::I32(array(&dims, t.to_vec::<i32>().map_err(conv)?)?),
            DType::Int64 => EvalTensor::I64(array(&dims, t.to_vec::<i64>().map_err(conv)?)?),
            DType::Bool => {
                EvalTensor::Bool(array(&dims, t.bytes().iter().map(|&b| b != 0).collect())?)
            }
            other => return Err(EvalError::UnsupportedTensorDType(other)),
        })
    }

    /// Converts to a parameter tensor (owned, row-major).
    pub fn to_tensor(&self) -> Result<Tensor, EvalError> {
        let dims = self.dims();
        let r = match self {
            EvalTensor::F32(a) => Tensor::from_slice(DType::Float32, dims, &row_major(a)),
            EvalTensor::F64(a) => Tensor::from_slice(DType::Float64, dims, &row_major(a)),
            EvalTensor::F16(a) => Tensor::from_slice(DType::Float16, dims, &row_major(a)),
            EvalTensor::BF16(a) => Tensor::from_slice(DType::BFloat16, dims, &row_major(a)),
            EvalTensor::I32(a) => Tensor::from_slice(DType::Int32, dims, &row_major(a)),
            EvalTensor::I64(a) => Tensor::from_slice(DType::Int64, dims, &row_major(a)),
            EvalTensor::Bool(a) => Tensor::new(
                DType::Bool,
                dims,
                a.iter().map(|&b| u8::from(b)).collect::<Vec<u8>>(),
            ),
        };
        r.map_err(|e| EvalError::Tensor(e.to_string()))
    }
}

fn row_major<T: Clone>(a: &ArrayD<T>) -> Vec<T> {
    a.iter().cloned().collect()
}

/// An array of `dims` from row-major data.
pub(crate) fn array<T>(dims: &[usize], data: Vec<T>) -> Result<ArrayD<T>, EvalError> {
    let n = data.len();
    ArrayD::from_shape_vec(IxDyn(dims), data)
        .map_err(|_| EvalError::Tensor(format!("{n} elements do not make dims {dims:?}")))
}

/// Runs `$body` with the type alias `$T` set to the element type of `$dtype`,
/// or returns [`EvalError::UnsupportedTensorDType`].
macro_rules! dispatch_dtype {
    ($dtype:expr, $T:ident => $body:expr) => {
        match $dtype {
            pir_params::DType::Float32 => {
                type $T = f32;
                $body
            }
            pir_params::DType::Float64 => {
                type $T = f64;
                $body
            }
            pir_params::DType::Float16 => {
                type $T = half::f16;
                $body
            }
            pir_params::DType::BFloat16 => {
                type $T = half::bf16;
                $body
            }
            pir_params::DType::Int32 => {
                type $T = i32;
                $body
            }
            pir_params::DType::Int64 => {
                type $T = i64;
                $body
            }
            pir_params::DType::Bool => {
                type $T = bool;
                $body
            }
            other => Err($crate::EvalError::UnsupportedTensorDType(other)),
        }
    };
}
pub(crate) use dispatch_dtype;

/// An element type of [`EvalTensor`], with the arithmetic of Paddle's CPU
/// functors for it.
///
/// float16/bfloat16 follow `phi::dtype::float16`/`bfloat16`: every operator
/// converts to float32, computes, and rounds back to nearest-even, so each
/// arithmetic step rounds once to the half type. Integers wrap on overflow
/// (C++ overflow is undefined; x86 wraps). `bool` arithmetic is C++'s: `a + b`
/// is `a || b`, `a * b` is `a && b` once converted back to `bool`.
pub trait Elem: Copy + Default + PartialOrd + std::fmt::Debug + Send + Sync + 'static {
    /// The dtype.
    const DTYPE: DType;
    /// Whether the type is a floating-point type.
    const FLOAT: bool;
    /// The value as `f64` (exact for every type but `i64` above 2^53).
    fn to_f64(self) -> f64;
    /// The value as `i64` (floats truncated toward zero, saturating).
    fn to_i64(self) -> i64;
    /// `static_cast<Self>(double)`; half types go through float32 as Paddle's
    /// constructors do; float → int truncates (NaN and out-of-range values
    /// give the type's minimum, as x86's conversion does).
    fn from_f64(v: f64) -> Self;
    /// `static_cast<Self>(int64_t)`: integers wrap; floats round to nearest.
    fn from_i64(v: i64) -> Self;
    /// Whether the value is NaN.
    fn is_nan(self) -> bool {
        false
    }
    /// `a + b`.
    fn add(self, b: Self) -> Self;
    /// `a - b`.
    fn sub(self, b: Self) -> Self;
    /// `a * b`.
    fn mul(self, b: Self) -> Self;
    /// `a / b`; `None` for an integer division by zero (Paddle raises).
    fn div(self, b: Self) -> Option<Self>;
    /// Wraps an array in its [`EvalTensor`] variant.
    fn wrap(a: ArrayD<Self>) -> EvalTensor;
    /// The array of a tensor of this dtype.
    fn view(t: &EvalTensor) -> Option<&ArrayD<Self>>;
}

macro_rules! elem_common {
    ($t:ty, $variant:ident, $dtype:ident) => {
        const DTYPE: DType = DType::$dtype;
        fn wrap(a: ArrayD<Self>) -> EvalTensor {
            EvalTensor::$variant(a)
        }
        fn view(t: &EvalTensor) -> Option<&ArrayD<Self>> {
            match t {
                EvalTensor::$variant(a) => Some(a),
                _ => None,
            }
        }
    };
}

macro_rules! elem_float {
    ($t:ty, $variant:ident, $dtype:ident) => {
        impl Elem for $t {
            elem_common!($t, $variant, $dtype);
            const FLOAT: bool = true;
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn to_i64(self) -> i64 {
                self as i64
            }
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            fn from_i64(v: i64) -> Self {
                v as $t
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn add(self, b: Self) -> Self {
                self + b
            }
            fn sub(self, b: Self) -> Self {
                self - b
            }
            fn mul(self, b: Self) -> Self {
                self * b
            }
            fn div(self, b: Self) -> Option<Self> {
                Some(self / b)
            }
        }
    };
}
elem_float!(f32, F32, Float32);
elem_float!(f64, F64, Float64);

macro_rules! elem_half {
    ($t:ty, $variant:ident, $dtype:ident) => {
        impl Elem for $t {
            elem_common!($t, $variant, $dtype);
            const FLOAT: bool = true;
            fn to_f64(self) -> f64 {
                f64::from(self.to_f32())
            }
            fn to_i64(self) -> i64 {
                self.to_f32() as i64
            }
            fn from_f64(v: f64) -> Self {
                <$t>::from_f32(v as f32)
            }
            fn from_i64(v: i64) -> Self {
                <$t>::from_f32(v as f32)
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn add(self, b: Self) -> Self {
                <$t>::from_f32(self.to_f32() + b.to_f32())
            }
            fn sub(self, b: Self) -> Self {
                <$t>::from_f32(self.to_f32() - b.to_f32())
            }
            fn mul(self, b: Self) -> Self {
                <$t>::from_f32(self.to_f32() * b.to_f32())
            }
            fn div(self, b: Self) -> Option<Self> {
                Some(<$t>::from_f32(self.to_f32() / b.to_f32()))
            }
        }
    };
}
elem_half!(f16, F16, Float16);
elem_half!(bf16, BF16, BFloat16);

macro_rules! elem_int {
    ($t:ty, $variant:ident, $dtype:ident) => {
        impl Elem for $t {
            elem_common!($t, $variant, $dtype);
            const FLOAT: bool = false;
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn to_i64(self) -> i64 {
                i64::from(self)
            }
            // x86's cvttsd2si: NaN and out-of-range values give the
            // "integer indefinite" value, the type's minimum.
            fn from_f64(v: f64) -> Self {
                let t = v.trunc();
                if t >= <$t>::MIN as f64 && t < -(<$t>::MIN as f64) {
                    t as $t
                } else {
                    <$t>::MIN
                }
            }
            fn from_i64(v: i64) -> Self {
                v as $t
            }
            fn add(self, b: Self) -> Self {
                self.wrapping_add(b)
            }
            fn sub(self, b: Self) -> Self {
                self.wrapping_sub(b)
            }
            fn mul(self, b: Self) -> Self {
                self.wrapping_mul(b)
            }
            // phi's integer DivideFunctor: C++ `/` (truncating) after
            // checking the divisor ("Integer division by zero encountered").
            fn div(self, b: Self) -> Option<Self> {
                (b != 0).then(|| self.wrapping_div(b))
            }
        }
    };
}
elem_int!(i32, I32, Int32);
elem_int!(i64, I64, Int64);

impl Elem for bool {
    elem_common!(bool, Bool, Bool);
    const FLOAT: bool = false;
    fn to_f64(self) -> f64 {
        f64::from(u8::from(self))
    }
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    fn from_f64(v: f64) -> Self {
        v != 0.0
    }
    fn from_i64(v: i64) -> Self {
        v != 0
    }
    fn add(self, b: Self) -> Self {
        self || b
    }
    fn sub(self, b: Self) -> Self {
        self != b
    }
    fn mul(self, b: Self) -> Self {
        self && b
    }
    fn div(self, b: Self) -> Option<Self> {
        b.then_some(self)
    }
}
