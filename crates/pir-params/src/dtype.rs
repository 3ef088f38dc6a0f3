//! Element types of Paddle tensors and their codes in each file format.
//!
//! A [`DType`] knows its `VarType.Type` enum value (the `data_type` field of a
//! `TensorDesc` in `.pdiparams` files), its element size, the name Paddle prints
//! (`float32`, `bfloat16`, ...) and the numpy type string used in pickles
//! (`<f4`, `|b1`, ...).
//!
//! ```
//! use pir_params::DType;
//! assert_eq!(DType::from_var_type(5), Some(DType::Float32));
//! assert_eq!(DType::BFloat16.var_type(), 22);
//! assert_eq!(DType::Float16.size(), 2);
//! assert_eq!(DType::from_paddle_name("bfloat16"), Some(DType::BFloat16));
//! assert_eq!(DType::Bool.numpy_code(), Some("|b1"));
//! assert_eq!(DType::from_numpy_code("<u2"), Some(DType::UInt16));
//! ```

use std::fmt;

/// The element type of a tensor.
///
/// Every element type Paddle 3.3 can store in a parameter file. Paddle's Python
/// `uint16` dtype is bfloat16 (it is written with the `BF16` code 22); the
/// separate [`DType::UInt16`] is the plain unsigned 16-bit integer, which is what
/// a `<u2` numpy array in a pickle is (see [`DType::from_numpy_code`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// `bool`, one byte per element (0 or 1).
    Bool,
    /// `int8`.
    Int8,
    /// `uint8`.
    UInt8,
    /// `int16`.
    Int16,
    /// `uint16` as a plain integer type (`VarType.UINT16`, code 36).
    UInt16,
    /// `int32`.
    Int32,
    /// `uint32`.
    UInt32,
    /// `int64`.
    Int64,
    /// `uint64`.
    UInt64,
    /// IEEE binary16.
    Float16,
    /// bfloat16 (the upper half of a float32).
    BFloat16,
    /// IEEE binary32.
    Float32,
    /// IEEE binary64.
    Float64,
    /// Two float32: real part then imaginary part.
    Complex64,
    /// Two float64: real part then imaginary part.
    Complex128,
    /// 8-bit float, 4 exponent bits, 3 mantissa bits, no infinities.
    Float8E4M3FN,
    /// 8-bit float, 5 exponent bits, 2 mantissa bits (IEEE-like).
    Float8E5M2,
}

impl DType {
    /// Every element type, in declaration order.
    pub const ALL: [DType; 17] = [
        DType::Bool,
        DType::Int8,
        DType::UInt8,
        DType::Int16,
        DType::UInt16,
        DType::Int32,
        DType::UInt32,
        DType::Int64,
        DType::UInt64,
        DType::Float16,
        DType::BFloat16,
        DType::Float32,
        DType::Float64,
        DType::Complex64,
        DType::Complex128,
        DType::Float8E4M3FN,
        DType::Float8E5M2,
    ];

    /// The `paddle.framework.proto.VarType.Type` enum value written in a
    /// `TensorDesc` (spec §7.2).
    pub const fn var_type(self) -> u32 {
        match self {
            DType::Bool => 0,
            DType::Int16 => 1,
            DType::Int32 => 2,
            DType::Int64 => 3,
            DType::Float16 => 4,
            DType::Float32 => 5,
            DType::Float64 => 6,
            DType::UInt8 => 20,
            DType::Int8 => 21,
            DType::BFloat16 => 22,
            DType::Complex64 => 23,
            DType::Complex128 => 24,
            DType::Float8E4M3FN => 32,
            DType::Float8E5M2 => 33,
            DType::UInt16 => 36,
            DType::UInt32 => 37,
            DType::UInt64 => 38,
        }
    }

    /// The element type of a `VarType.Type` enum value, or `None` when the value
    /// is not an element type (e.g. 7 `DENSE_TENSOR`, 19 `SIZE_T`) or unknown.
    pub const fn from_var_type(code: u64) -> Option<DType> {
        Some(match code {
            0 => DType::Bool,
            1 => DType::Int16,
            2 => DType::Int32,
            3 => DType::Int64,
            4 => DType::Float16,
            5 => DType::Float32,
            6 => DType::Float64,
            20 => DType::UInt8,
            21 => DType::Int8,
            22 => DType::BFloat16,
            23 => DType::Complex64,
            24 => DType::Complex128,
            32 => DType::Float8E4M3FN,
            33 => DType::Float8E5M2,
            36 => DType::UInt16,
            37 => DType::UInt32,
            38 => DType::UInt64,
            _ => return None,
        })
    }

    /// Size of one element in bytes.
    pub const fn size(self) -> usize {
        match self {
            DType::Bool | DType::Int8 | DType::UInt8 => 1,
            DType::Float8E4M3FN | DType::Float8E5M2 => 1,
            DType::Int16 | DType::UInt16 | DType::Float16 | DType::BFloat16 => 2,
            DType::Int32 | DType::UInt32 | DType::Float32 => 4,
            DType::Int64 | DType::UInt64 | DType::Float64 | DType::Complex64 => 8,
            DType::Complex128 => 16,
        }
    }

    /// The name Paddle prints for the dtype (`paddle.float32` prints
    /// `float32`); also the spelling of `dtype` in the corpus `meta.json` files.
    pub const fn paddle_name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::Int8 => "int8",
            DType::UInt8 => "uint8",
            DType::Int16 => "int16",
            DType::UInt16 => "uint16",
            DType::Int32 => "int32",
            DType::UInt32 => "uint32",
            DType::Int64 => "int64",
            DType::UInt64 => "uint64",
            DType::Float16 => "float16",
            DType::BFloat16 => "bfloat16",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
            DType::Complex64 => "complex64",
            DType::Complex128 => "complex128",
            DType::Float8E4M3FN => "float8_e4m3fn",
            DType::Float8E5M2 => "float8_e5m2",
        }
    }

    /// The dtype with the given [`paddle_name`](DType::paddle_name).
    pub fn from_paddle_name(name: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.paddle_name() == name)
    }

    /// The numpy type string (`dtype.str`) of arrays of this type in a pickle:
    /// `|` byte order for one-byte types, `<` otherwise.
    ///
    /// bfloat16 has no numpy type: Paddle stores it as `<u2` (uint16 bits), so
    /// that is what is returned for [`DType::BFloat16`]. The float8 types have
    /// no numpy type (`None`).
    pub const fn numpy_code(self) -> Option<&'static str> {
        Some(match self {
            DType::Bool => "|b1",
            DType::Int8 => "|i1",
            DType::UInt8 => "|u1",
            DType::Int16 => "<i2",
            DType::UInt16 | DType::BFloat16 => "<u2",
            DType::Int32 => "<i4",
            DType::UInt32 => "<u4",
            DType::Int64 => "<i8",
            DType::UInt64 => "<u8",
            DType::Float16 => "<f2",
            DType::Float32 => "<f4",
            DType::Float64 => "<f8",
            DType::Complex64 => "<c8",
            DType::Complex128 => "<c16",
            DType::Float8E4M3FN | DType::Float8E5M2 => return None,
        })
    }

    /// The dtype of a numpy type string, with or without its byte-order
    /// character (`<f4`, `f4`, `|b1`, `=i8`). Big-endian (`>`) codes and types
    /// Paddle does not use give `None`. `<u2` gives [`DType::UInt16`]: a pickle
    /// does not say whether it held bfloat16 (spec §9 #17), so the caller
    /// reinterprets with [`crate::Tensor::reinterpret`] when its program says so.
    pub fn from_numpy_code(code: &str) -> Option<DType> {
        let body = match code.as_bytes().first() {
            Some(b'<' | b'|' | b'=') => &code[1..],
            Some(b'>') => return None,
            _ => code,
        };
        Some(match body {
            "b1" | "?" => DType::Bool,
            "i1" => DType::Int8,
            "u1" => DType::UInt8,
            "i2" => DType::Int16,
            "u2" => DType::UInt16,
            "i4" => DType::Int32,
            "u4" => DType::UInt32,
            "i8" => DType::Int64,
            "u8" => DType::UInt64,
            "f2" => DType::Float16,
            "f4" => DType::Float32,
            "f8" => DType::Float64,
            "c8" => DType::Complex64,
            "c16" => DType::Complex128,
            _ => return None,
        })
    }

    /// Whether the type is a floating-point or complex type.
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            DType::Float16
                | DType::BFloat16
                | DType::Float32
                | DType::Float64
                | DType::Complex64
                | DType::Complex128
                | DType::Float8E4M3FN
                | DType::Float8E5M2
        )
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.paddle_name())
    }
}

/// Decodes a float8 e4m3fn value (bias 7, no infinities, `S.1111.111` is NaN).
pub(crate) fn f8_e4m3fn_to_f32(bits: u8) -> f32 {
    let sign = if bits & 0x80 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((bits >> 3) & 0x0f);
    let mant = f32::from(bits & 0x07);
    if exp == 0x0f && bits & 0x07 == 0x07 {
        return f32::NAN;
    }
    if exp == 0 {
        sign * mant / 8.0 * 2f32.powi(-6)
    } else {
        sign * (1.0 + mant / 8.0) * 2f32.powi(exp - 7)
    }
}

/// Decodes a float8 e5m2 value: the upper byte of an IEEE binary16.
pub(crate) fn f8_e5m2_to_f32(bits: u8) -> f32 {
    half::f16::from_bits(u16::from(bits) << 8).to_f32()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn var_type_round_trips_for_every_dtype() {
        for d in DType::ALL {
            assert_eq!(
                DType::from_var_type(u64::from(d.var_type())),
                Some(d),
                "{d}"
            );
            assert_eq!(DType::from_paddle_name(d.paddle_name()), Some(d));
        }
        for not_elem in [7u64, 8, 19, 25, 29, 99, u64::MAX] {
            assert_eq!(DType::from_var_type(not_elem), None);
        }
    }

    #[test]
    fn var_type_table_matches_spec() {
        let table = [
            (DType::Bool, 0, 1),
            (DType::Int16, 1, 2),
            (DType::Int32, 2, 4),
            (DType::Int64, 3, 8),
            (DType::Float16, 4, 2),
            (DType::Float32, 5, 4),
            (DType::Float64, 6, 8),
            (DType::UInt8, 20, 1),
            (DType::Int8, 21, 1),
            (DType::BFloat16, 22, 2),
            (DType::Complex64, 23, 8),
            (DType::Complex128, 24, 16),
            (DType::Float8E4M3FN, 32, 1),
            (DType::Float8E5M2, 33, 1),
            (DType::UInt32, 37, 4),
            (DType::UInt64, 38, 8),
        ];
        for (d, code, size) in table {
            assert_eq!(d.var_type(), code);
            assert_eq!(d.size(), size);
        }
    }

    #[test]
    fn numpy_codes() {
        for d in DType::ALL {
            if let Some(code) = d.numpy_code() {
                let back = DType::from_numpy_code(code);
                if d == DType::BFloat16 {
                    assert_eq!(back, Some(DType::UInt16));
                } else {
                    assert_eq!(back, Some(d), "{code}");
                }
                let one_byte = d.size() == 1;
                assert_eq!(code.starts_with('|'), one_byte, "{code}");
            }
        }
        assert_eq!(DType::from_numpy_code("f4"), Some(DType::Float32));
        assert_eq!(DType::from_numpy_code(">f4"), None);
        assert_eq!(DType::from_numpy_code("<U3"), None);
        assert_eq!(DType::from_numpy_code(""), None);
    }

    #[test]
    fn float8_decoding() {
        assert_eq!(f8_e4m3fn_to_f32(0x38), 1.0);
        assert_eq!(f8_e4m3fn_to_f32(0x40), 2.0);
        assert_eq!(f8_e4m3fn_to_f32(0xc0), -2.0);
        assert_eq!(f8_e4m3fn_to_f32(0x7e), 448.0);
        assert_eq!(f8_e4m3fn_to_f32(0x01), 2f32.powi(-9));
        assert!(f8_e4m3fn_to_f32(0x7f).is_nan());
        assert_eq!(f8_e5m2_to_f32(0x3c), 1.0);
        assert_eq!(f8_e5m2_to_f32(0x40), 2.0);
        assert_eq!(f8_e5m2_to_f32(0x7c), f32::INFINITY);
    }
}
