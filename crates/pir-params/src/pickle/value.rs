//! The values an allow-listed pickle can hold.

use std::borrow::Cow;

use crate::error::{Error, Result};
use crate::tensor::checked_numel;
use crate::{DType, Tensor};

/// A value read from (or to be written to) a pickle.
///
/// Strings and bytes borrow from the input where the pickle stores them
/// verbatim. `collections.OrderedDict` reads as [`PickleValue::Dict`];
/// `builtins.tuple((name, array))` (Paddle's encoding of a tensor inside
/// nested containers) reads as a [`PickleValue::Tuple`].
#[derive(Clone, Debug, PartialEq)]
pub enum PickleValue<'a> {
    /// `None`.
    None,
    /// `True` / `False`.
    Bool(bool),
    /// An integer that fits in 64 bits.
    Int(i64),
    /// A float.
    Float(f64),
    /// A `str`.
    Str(Cow<'a, str>),
    /// A `bytes` object.
    Bytes(Cow<'a, [u8]>),
    /// A tuple.
    Tuple(Vec<PickleValue<'a>>),
    /// A list.
    List(Vec<PickleValue<'a>>),
    /// A dict, in insertion order.
    Dict(Vec<(PickleValue<'a>, PickleValue<'a>)>),
    /// A numpy array.
    Array(NdArray<'a>),
}

/// A numpy array: little-endian, C-ordered element bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct NdArray<'a> {
    /// Element type (`<u2` arrays are [`DType::UInt16`], see
    /// [`DType::from_numpy_code`]).
    pub dtype: DType,
    /// Shape (empty for a 0-d array).
    pub shape: Vec<i64>,
    /// Element bytes in C order; `len == numel × dtype.size()`.
    pub data: Cow<'a, [u8]>,
}

impl<'a> NdArray<'a> {
    /// An array from parts, checking `data.len() == numel × size`.
    pub fn new(dtype: DType, shape: Vec<i64>, data: Cow<'a, [u8]>) -> Result<NdArray<'a>> {
        let need = checked_numel(&shape).and_then(|n| n.checked_mul(dtype.size() as u64));
        if need != Some(data.len() as u64) {
            return Err(Error::invalid(
                None,
                format!(
                    "array {dtype} {shape:?} needs {need:?} bytes, has {}",
                    data.len()
                ),
            ));
        }
        Ok(NdArray { dtype, shape, data })
    }

    /// A view of a tensor's bytes as an array. bfloat16 becomes `uint16` (as
    /// Paddle stores it); float8 types have no numpy dtype and are an error.
    pub fn from_tensor(t: &'a Tensor) -> Result<NdArray<'a>> {
        let dtype = match t.dtype() {
            DType::BFloat16 => DType::UInt16,
            DType::Float8E4M3FN | DType::Float8E5M2 => {
                return Err(Error::invalid(
                    None,
                    format!("{} has no numpy dtype", t.dtype()),
                ))
            }
            d => d,
        };
        Ok(NdArray {
            dtype,
            shape: t.dims().to_vec(),
            data: Cow::Borrowed(t.bytes()),
        })
    }

    /// The array as a tensor with owned bytes.
    pub fn to_tensor(&self) -> Result<Tensor> {
        Tensor::new(self.dtype, self.shape.clone(), self.data.to_vec())
    }

    /// The array with owned data.
    pub fn into_owned(self) -> NdArray<'static> {
        NdArray {
            dtype: self.dtype,
            shape: self.shape,
            data: Cow::Owned(self.data.into_owned()),
        }
    }
}

impl<'a> PickleValue<'a> {
    /// A short name of the value's kind, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            PickleValue::None => "None",
            PickleValue::Bool(_) => "bool",
            PickleValue::Int(_) => "int",
            PickleValue::Float(_) => "float",
            PickleValue::Str(_) => "str",
            PickleValue::Bytes(_) => "bytes",
            PickleValue::Tuple(_) => "tuple",
            PickleValue::List(_) => "list",
            PickleValue::Dict(_) => "dict",
            PickleValue::Array(_) => "ndarray",
        }
    }

    /// The string, for a [`PickleValue::Str`].
    pub fn as_str(&self) -> Option<&str> {
        match self {
            PickleValue::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The integer, for a [`PickleValue::Int`].
    pub fn as_int(&self) -> Option<i64> {
        match self {
            PickleValue::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The items of a tuple or a list.
    pub fn as_seq(&self) -> Option<&[PickleValue<'a>]> {
        match self {
            PickleValue::Tuple(v) | PickleValue::List(v) => Some(v),
            _ => None,
        }
    }

    /// The value of the first string key `key` of a dict.
    pub fn get(&self, key: &str) -> Option<&PickleValue<'a>> {
        match self {
            PickleValue::Dict(items) => items
                .iter()
                .find(|(k, _)| k.as_str() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value with every borrowed string and byte buffer copied.
    pub fn into_owned(self) -> PickleValue<'static> {
        let seq = |v: Vec<PickleValue<'a>>| v.into_iter().map(PickleValue::into_owned).collect();
        match self {
            PickleValue::None => PickleValue::None,
            PickleValue::Bool(b) => PickleValue::Bool(b),
            PickleValue::Int(i) => PickleValue::Int(i),
            PickleValue::Float(f) => PickleValue::Float(f),
            PickleValue::Str(s) => PickleValue::Str(Cow::Owned(s.into_owned())),
            PickleValue::Bytes(b) => PickleValue::Bytes(Cow::Owned(b.into_owned())),
            PickleValue::Tuple(v) => PickleValue::Tuple(seq(v)),
            PickleValue::List(v) => PickleValue::List(seq(v)),
            PickleValue::Dict(items) => PickleValue::Dict(
                items
                    .into_iter()
                    .map(|(k, v)| (k.into_owned(), v.into_owned()))
                    .collect(),
            ),
            PickleValue::Array(a) => PickleValue::Array(a.into_owned()),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn arrays_check_their_size() {
        assert!(NdArray::new(DType::Float32, vec![2], Cow::Borrowed(&[0u8; 8][..])).is_ok());
        assert!(NdArray::new(DType::Float32, vec![2], Cow::Borrowed(&[0u8; 7][..])).is_err());
        assert!(NdArray::new(DType::Float32, vec![-2], Cow::Borrowed(&[][..])).is_err());
        let t = Tensor::new(DType::BFloat16, vec![1], vec![0x80, 0x3f]).unwrap();
        let a = NdArray::from_tensor(&t).unwrap();
        assert_eq!(a.dtype, DType::UInt16);
        assert_eq!(a.to_tensor().unwrap().bytes(), t.bytes());
        let f8 = Tensor::new(DType::Float8E5M2, vec![1], vec![0x3c]).unwrap();
        assert!(NdArray::from_tensor(&f8).is_err());
    }

    #[test]
    fn accessors() {
        let d = PickleValue::Dict(vec![
            (PickleValue::Str("a".into()), PickleValue::Int(1)),
            (
                PickleValue::Int(2),
                PickleValue::List(vec![PickleValue::None]),
            ),
        ]);
        assert_eq!(d.get("a").and_then(PickleValue::as_int), Some(1));
        assert_eq!(d.get("b"), None);
        assert_eq!(d.kind(), "dict");
        let owned: PickleValue<'static> = d.clone().into_owned();
        assert_eq!(owned, d);
        assert_eq!(PickleValue::Tuple(vec![]).as_seq().map(<[_]>::len), Some(0));
    }
}
