//! `.pdparams` ↔ `.pdiparams` at the tensor-list level.
//!
//! A pickle stores bfloat16 parameters as `uint16` arrays and keeps the
//! program's parameter order; a combined file stores Paddle dtypes and sorts by
//! name. The caller supplies what the program says ([`ParamSpec`]).
//!
//! ```
//! use pir_params::{convert::{self, ParamSpec}, pickle::StateDict, DType, Tensor};
//! let bits = Tensor::new(DType::UInt16, vec![1], vec![0x80, 0x3f]).unwrap(); // bf16 1.0 as uint16
//! let state = StateDict { tensors: vec![("w".into(), bits)], ..Default::default() };
//! let specs = [ParamSpec::new("w").with_dtype(DType::BFloat16)];
//! let params = convert::state_dict_to_combined(&state, &specs).unwrap();
//! assert_eq!(params[0].1.dtype(), DType::BFloat16);
//! assert_eq!(params[0].1.sum_f64(), 1.0);
//! ```

use std::collections::HashMap;

use crate::combined::sort_params;
use crate::error::{Error, Result};
use crate::pickle::StateDict;
use crate::{DType, Tensor};

/// What the program says about one parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// Parameter name.
    pub name: String,
    /// Its dtype, when known (`bfloat16` turns a stored `uint16` array back).
    pub dtype: Option<DType>,
    /// Its dims, when known (checked).
    pub dims: Option<Vec<i64>>,
}

impl ParamSpec {
    /// A spec with only a name.
    pub fn new(name: impl Into<String>) -> ParamSpec {
        ParamSpec {
            name: name.into(),
            dtype: None,
            dims: None,
        }
    }

    /// The same spec with a dtype.
    pub fn with_dtype(mut self, dtype: DType) -> ParamSpec {
        self.dtype = Some(dtype);
        self
    }

    /// The same spec with dims.
    pub fn with_dims(mut self, dims: Vec<i64>) -> ParamSpec {
        self.dims = Some(dims);
        self
    }
}

/// A pickled tensor as the program declares it: numpy has no bfloat16, so
/// Paddle pickles bfloat16 parameters as their uint16 bits; such a tensor
/// takes the declared bfloat16 dtype. Any other tensor is returned as it is.
pub fn as_declared(t: Tensor, declared: Option<DType>) -> Result<Tensor> {
    match declared {
        Some(DType::BFloat16) if t.dtype() == DType::UInt16 => t.reinterpret(DType::BFloat16),
        _ => Ok(t),
    }
}

/// The tensors of `specs` taken from a state dict, in `.pdiparams` order
/// (Python-sorted names). A `uint16` array becomes `bfloat16` when its spec
/// says so ([`as_declared`]); any other dtype or dims difference, or a missing name, is an error.
/// Entries of the state dict that no spec names are ignored.
pub fn state_dict_to_combined(
    state: &StateDict,
    specs: &[ParamSpec],
) -> Result<Vec<(String, Tensor)>> {
    let index: HashMap<&str, &Tensor> =
        state.tensors.iter().map(|(n, t)| (n.as_str(), t)).collect();
    let mut out = Vec::with_capacity(specs.len());
    for spec in specs {
        let name = spec.name.as_str();
        let t = index
            .get(name)
            .map(|t| (*t).clone())
            .ok_or_else(|| Error::invalid(Some(name), "not in the state dict"))?;
        let t = as_declared(t, spec.dtype)?;
        let t = match spec.dtype {
            Some(d) if d != t.dtype() => {
                return Err(Error::invalid(
                    Some(name),
                    format!("the state dict holds {}, the program says {d}", t.dtype()),
                ))
            }
            _ => t,
        };
        if let Some(dims) = &spec.dims {
            if dims.as_slice() != t.dims() {
                return Err(Error::invalid(
                    Some(name),
                    format!(
                        "the state dict holds dims {:?}, the program says {dims:?}",
                        t.dims()
                    ),
                ));
            }
        }
        out.push((spec.name.clone(), t));
    }
    sort_params(&mut out);
    Ok(out)
}

/// A state dict of combined-file tensors, in `order` (the program's parameter
/// order, as `paddle.static.save` writes it) or, with `None`, as given.
/// bfloat16 tensors are written as `uint16` arrays by the pickle writer; float8
/// tensors cannot be pickled (an error when writing).
pub fn combined_to_state_dict(
    params: Vec<(String, Tensor)>,
    order: Option<&[String]>,
) -> Result<StateDict> {
    let tensors = match order {
        None => params,
        Some(order) => {
            let mut by_name: HashMap<String, Tensor> = params.into_iter().collect();
            let mut out = Vec::with_capacity(order.len());
            for name in order {
                let t = by_name
                    .remove(name)
                    .ok_or_else(|| Error::invalid(Some(name), "not in the parameter file"))?;
                out.push((name.clone(), t));
            }
            if let Some(extra) = by_name.keys().min() {
                return Err(Error::invalid(
                    Some(extra),
                    "in the parameter file but not in the order list",
                ));
            }
            out
        }
    };
    Ok(StateDict {
        tensors,
        ..StateDict::default()
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn t(d: DType, dims: Vec<i64>) -> Tensor {
        Tensor::zeros(d, dims).unwrap()
    }

    #[test]
    fn to_combined_checks_and_sorts() {
        let state = StateDict {
            tensors: vec![
                ("w".into(), t(DType::Float32, vec![2])),
                ("B".into(), t(DType::UInt16, vec![3])),
                ("unused".into(), t(DType::Int8, vec![1])),
            ],
            ..Default::default()
        };
        let specs = [
            ParamSpec::new("w").with_dims(vec![2]),
            ParamSpec::new("B").with_dtype(DType::BFloat16),
        ];
        let out = state_dict_to_combined(&state, &specs).unwrap();
        assert_eq!(
            out.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(),
            ["B", "w"]
        );
        assert_eq!(out[0].1.dtype(), DType::BFloat16);
        let e = state_dict_to_combined(&state, &[ParamSpec::new("x")]).unwrap_err();
        assert_eq!(e.to_string(), "`x`: not in the state dict");
        let e = state_dict_to_combined(&state, &[ParamSpec::new("w").with_dtype(DType::Float64)])
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "`w`: the state dict holds float32, the program says float64"
        );
        let e = state_dict_to_combined(&state, &[ParamSpec::new("w").with_dims(vec![1, 2])])
            .unwrap_err();
        assert!(e.to_string().contains("dims [2]"));
    }

    #[test]
    fn to_state_dict_orders() {
        let params = vec![
            ("a".into(), t(DType::Float32, vec![1])),
            ("b".into(), t(DType::Float32, vec![2])),
        ];
        let sd = combined_to_state_dict(params.clone(), Some(&["b".into(), "a".into()])).unwrap();
        assert_eq!(sd.tensors[0].0, "b");
        assert!(combined_to_state_dict(params.clone(), Some(&["b".into()])).is_err());
        assert!(combined_to_state_dict(
            params.clone(),
            Some(&["b".into(), "a".into(), "c".into()])
        )
        .is_err());
        assert_eq!(
            combined_to_state_dict(params.clone(), None)
                .unwrap()
                .tensors,
            params
        );
    }
}
