//! The allow-listed globals and what `REDUCE`/`BUILD` make of them: numpy
//! arrays and dtypes, `OrderedDict()`, `_codecs.encode(str, 'latin1')` and
//! `builtins.tuple(seq)`. Nothing is imported or called.

use std::borrow::Cow;
use std::collections::HashMap;

use super::budget::CopyBudget;
use super::reader::{kind, Id, Machine, Obj, NONE};
use super::value::{NdArray, PickleValue};
use crate::error::Result;
use crate::tensor::checked_numel;
use crate::DType;

/// The allow-listed globals, by what they become.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Callable {
    Reconstruct,
    NdArrayType,
    DtypeType,
    OrderedDict,
    CodecsEncode,
    TupleType,
}

pub(super) fn lookup_global(module: &str, name: &str) -> Option<Callable> {
    Some(match (module, name) {
        ("numpy._core.multiarray" | "numpy.core.multiarray", "_reconstruct") => {
            Callable::Reconstruct
        }
        ("numpy", "ndarray") => Callable::NdArrayType,
        ("numpy", "dtype") => Callable::DtypeType,
        ("collections", "OrderedDict") => Callable::OrderedDict,
        ("_codecs", "encode") => Callable::CodecsEncode,
        ("builtins" | "__builtin__", "tuple") => Callable::TupleType,
        _ => return None,
    })
}

pub(super) const ALLOWED: &str =
    "numpy.(_)core.multiarray._reconstruct, numpy.ndarray, numpy.dtype, \
                       collections.OrderedDict, _codecs.encode, builtins.tuple";

impl<'a> Machine<'a, '_> {
    pub(super) fn reduce(&mut self) -> Result<()> {
        let args = self.pop()?;
        let func = self.pop()?;
        let callable = match self.obj(func) {
            Obj::Global(c) => *c,
            other => {
                return self.err(format!(
                    "REDUCE with a {} as callable is not allowed",
                    kind(other)
                ))
            }
        };
        // the arguments are read in place: a memoized tuple may be passed to
        // thousands of REDUCEs, and copying it each time would be quadratic
        let max_slots = self.max_copied_slots();
        let args: &[Id] = match self.arena.get(args).unwrap_or(&NONE) {
            Obj::Tuple(v) => v,
            other => {
                return self.err(format!(
                    "REDUCE arguments must be a tuple, got {}",
                    kind(other)
                ))
            }
        };
        let arena = &self.arena;
        let arg = |i: usize| args.get(i).and_then(|&id| arena.get(id)).unwrap_or(&NONE);
        let result = match callable {
            Callable::Reconstruct => {
                if args.len() != 3 || !matches!(arg(0), Obj::Global(Callable::NdArrayType)) {
                    return self.err("_reconstruct is only allowed as _reconstruct(numpy.ndarray, shape, typecode)");
                }
                Obj::PendingArray
            }
            Callable::DtypeType => {
                let Obj::Leaf(PickleValue::Str(code)) = arg(0) else {
                    return self.err("numpy.dtype needs a type string argument");
                };
                match DType::from_numpy_code(code) {
                    Some(dtype) if args.len() <= 3 => Obj::Dtype {
                        dtype,
                        built: false,
                    },
                    _ => return self.err(format!("numpy dtype '{code}' is not supported")),
                }
            }
            Callable::OrderedDict => {
                if !args.is_empty() {
                    return self.err("collections.OrderedDict is only allowed with no arguments");
                }
                Obj::Dict {
                    items: Vec::new(),
                    index: HashMap::new(),
                    by_id: HashMap::new(),
                }
            }
            Callable::CodecsEncode => {
                let (Obj::Leaf(PickleValue::Str(s)), Obj::Leaf(PickleValue::Str(enc))) =
                    (arg(0), arg(1))
                else {
                    return self.err("_codecs.encode needs (str, encoding)");
                };
                if args.len() != 2 || !matches!(enc.as_ref(), "latin1" | "latin-1") {
                    return self.err(format!(
                        "_codecs.encode with encoding '{enc}' is not allowed (only latin1)"
                    ));
                }
                match latin1_charged(&mut self.budget, s) {
                    Ok(Some(b)) => Obj::Leaf(PickleValue::Bytes(Cow::Owned(b))),
                    Ok(None) => return self.err("_codecs.encode: string is not latin-1"),
                    Err(e) => return self.err(e),
                }
            }
            Callable::TupleType => match (args.len(), arg(0)) {
                (0, _) => Obj::Tuple(Vec::new()),
                (1, Obj::Tuple(v) | Obj::List(v)) => {
                    let slots = self.copied_slots.saturating_add(v.len() as u64);
                    if slots > max_slots {
                        return self.err(format!(
                            "builtins.tuple copies {slots} items in all, more than the limit \
                             of {max_slots} (one shared list copied again and again)"
                        ));
                    }
                    let t = Obj::Tuple(v.clone());
                    self.copied_slots = slots;
                    t
                }
                _ => return self.err("builtins.tuple is only allowed on one tuple or list"),
            },
            Callable::NdArrayType => {
                return self.err("numpy.ndarray cannot be called (only through _reconstruct)");
            }
        };
        self.push_obj(result)
    }

    pub(super) fn build(&mut self) -> Result<()> {
        let state = self.pop()?;
        let target = self.top()?;
        // read in place, not copied: the state may be a large memoized tuple
        let st: &[Id] = match self.arena.get(state).unwrap_or(&NONE) {
            Obj::Tuple(v) => v,
            other => return self.err(format!("BUILD state must be a tuple, got {}", kind(other))),
        };
        let arena = &self.arena;
        let item = |i: usize| st.get(i).and_then(|&id| arena.get(id)).unwrap_or(&NONE);
        let new = match arena.get(target).unwrap_or(&NONE) {
            Obj::Dtype {
                dtype,
                built: false,
            } => {
                let dtype = *dtype;
                let Obj::Leaf(PickleValue::Str(order)) = item(1) else {
                    return self.err("numpy.dtype state needs a byte-order string");
                };
                match order.as_ref() {
                    "<" | "|" | "=" => {}
                    ">" => return self.err("big-endian numpy dtypes are not supported"),
                    o => return self.err(format!("numpy.dtype byte order '{o}' is not valid")),
                }
                if st.len() < 2 || !(2..5).all(|i| matches!(item(i), Obj::Leaf(PickleValue::None)))
                {
                    return self.err("structured or sub-array numpy dtypes are not supported");
                }
                Obj::Dtype { dtype, built: true }
            }
            Obj::PendingArray => {
                let base = if st.len() == 5 { 1 } else { 0 };
                if st.len() != 4 && st.len() != 5 {
                    return self.err(format!(
                        "ndarray state has {} items, expected 4 or 5",
                        st.len()
                    ));
                }
                let Obj::Tuple(shape_ids) = item(base) else {
                    return self.err("ndarray shape must be a tuple");
                };
                let mut shape = Vec::with_capacity(shape_ids.len());
                for &d in shape_ids {
                    match arena.get(d).unwrap_or(&NONE) {
                        Obj::Leaf(PickleValue::Int(v)) if *v >= 0 => shape.push(*v),
                        _ => return self.err("ndarray shape must hold non-negative integers"),
                    }
                }
                let Obj::Dtype { dtype, .. } = item(base + 1) else {
                    return self.err(format!(
                        "ndarray dtype must be a numpy.dtype, got {}",
                        kind(item(base + 1))
                    ));
                };
                let dtype = *dtype;
                let fortran = match item(base + 2) {
                    Obj::Leaf(PickleValue::Bool(b)) => *b,
                    Obj::Leaf(PickleValue::Int(i)) => *i != 0,
                    _ => return self.err("ndarray fortran flag must be a bool"),
                };
                let data: Cow<'a, [u8]> = match item(base + 3) {
                    Obj::Leaf(PickleValue::Bytes(b)) => b.clone(),
                    Obj::Leaf(PickleValue::Str(s)) => match latin1_charged(&mut self.budget, s) {
                        Ok(Some(b)) => Cow::Owned(b),
                        Ok(None) => return self.err("ndarray data string is not latin-1"),
                        Err(e) => return self.err(e),
                    },
                    other => {
                        return self.err(format!(
                            "ndarray data must be bytes, got {} (object arrays are not allowed)",
                            kind(other)
                        ))
                    }
                };
                let need = checked_numel(&shape).and_then(|n| n.checked_mul(dtype.size() as u64));
                if need != Some(data.len() as u64) {
                    let need = need.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string());
                    return self.err(format!(
                        "array of shape {shape:?} {} needs {need} bytes but the pickle holds {}",
                        dtype.numpy_code().unwrap_or("?"),
                        data.len()
                    ));
                }
                let data = if fortran && shape.len() > 1 {
                    // one array's data may be built again and again from
                    // one memoized buffer: each reordered copy is charged
                    if let Err(e) = self
                        .budget
                        .charge(data.len() as u64, "reordering a Fortran-ordered array")
                    {
                        return self.err(e);
                    }
                    Cow::Owned(fortran_to_c(&data, &shape, dtype.size()))
                } else {
                    data
                };
                Obj::Array(NdArray { dtype, shape, data })
            }
            other => return self.err(format!("BUILD on a {} is not allowed", kind(other))),
        };
        if let Some(slot) = self.arena.get_mut(target) {
            *slot = new;
        }
        Ok(())
    }
}

/// [`latin1`], its bytes charged to `budget` first (a memoized string can be
/// decoded by any number of REDUCEs or BUILDs). `Ok(None)` when the string
/// is not latin-1.
fn latin1_charged(
    budget: &mut CopyBudget,
    s: &str,
) -> std::result::Result<Option<Vec<u8>>, String> {
    budget.charge(s.chars().count() as u64, "decoding a latin-1 string")?;
    Ok(latin1(s))
}

pub(super) fn latin1(s: &str) -> Option<Vec<u8>> {
    s.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect()
}

/// Reorders Fortran-ordered element bytes into C order.
pub(super) fn fortran_to_c(data: &[u8], shape: &[i64], size: usize) -> Vec<u8> {
    if data.is_empty() {
        // an empty array may declare dims whose product without the zero
        // overflows (`[2^40, 2^40, 0]`): there is nothing to reorder
        return Vec::new();
    }
    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let mut strides = vec![1usize; dims.len()]; // Fortran strides in elements
    for k in 1..dims.len() {
        // no overflow: the product of all dims is the element count of `data`
        strides[k] = strides[k - 1].saturating_mul(dims[k - 1]);
    }
    let mut out = Vec::with_capacity(data.len());
    let mut idx = vec![0usize; dims.len()];
    let numel = data.len() / size.max(1);
    for _ in 0..numel {
        let f: usize = idx.iter().zip(&strides).map(|(i, s)| i * s).sum();
        out.extend_from_slice(data.get(f * size..(f + 1) * size).unwrap_or(&[]));
        for k in (0..dims.len()).rev() {
            idx[k] += 1;
            if idx[k] < dims[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fortran_order_is_converted() {
        // a 2x3 array stored column-major: [[0,1,2],[3,4,5]] -> 0,3,1,4,2,5
        let f = [0u8, 3, 1, 4, 2, 5];
        assert_eq!(fortran_to_c(&f, &[2, 3], 1), vec![0, 1, 2, 3, 4, 5]);
        let f16: Vec<u8> = [0u16, 3, 1, 4, 2, 5]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let c: Vec<u8> = (0u16..6).flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(fortran_to_c(&f16, &[2, 3], 2), c);
        assert_eq!(fortran_to_c(&[], &[0, 3], 4), Vec::<u8>::new());
    }

    #[test]
    fn latin1_encoding() {
        assert_eq!(latin1("aé\u{ff}"), Some(vec![b'a', 0xe9, 0xff]));
        assert_eq!(latin1("€"), None);
    }
}
