//! State dicts (`{name: ndarray}`) as `paddle.save` / `paddle.static.save`
//! write them, as tensors.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

use super::budget::CopyBudget;
use super::reader::{read_pickle_budgeted, ReadLimits};
use super::value::{NdArray, PickleValue};
use super::writer::{validate, write_pickle_io, WriteOptions};
use crate::error::{Error, Result};
use crate::tensor::{checked_numel, MappedBytes, TensorData};
use crate::{open_file, FileBytes, Tensor};

/// Key of the dygraph `paddle.save` table from structured names (`0.weight`)
/// to parameter names (`linear_0.w_0`).
pub const STRUCTURED_KEY: &str = "StructuredToParameterName@@";
/// Key of the table describing arrays split into pieces by protocol 2/3 saves.
pub const UNPACK_KEY: &str = "UnpackBigParamInfor@@";

/// The content of a `.pdparams` / `.pdopt` state dict.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StateDict {
    /// The arrays, in the file's key order (split arrays reassembled and
    /// appended at the end, as `paddle.load` does). A `<u2` array is
    /// [`crate::DType::UInt16`] even when it was a bfloat16 parameter (the
    /// pickle does not say): reinterpret it given the program
    /// ([`crate::convert::state_dict_to_combined`] does that).
    pub tensors: Vec<(String, Tensor)>,
    /// The `StructuredToParameterName@@` table, when present.
    pub structured_names: Vec<(String, String)>,
    /// Entries whose value is not an array (e.g. `LR_Scheduler` state).
    pub other: Vec<(String, PickleValue<'static>)>,
}

impl StateDict {
    /// The tensor stored under `name`.
    pub fn get(&self, name: &str) -> Option<&Tensor> {
        self.tensors.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }

    /// The parameter name of a structured name (`0.weight` → `linear_0.w_0`).
    pub fn parameter_name(&self, structured: &str) -> Option<&str> {
        self.structured_names
            .iter()
            .find(|(s, _)| s == structured)
            .map(|(_, p)| p.as_str())
    }

    /// The tensors only.
    pub fn into_tensors(self) -> Vec<(String, Tensor)> {
        self.tensors
    }

    /// The dict as a pickle value: the arrays, then the other entries, then
    /// the `StructuredToParameterName@@` table if there is one.
    pub fn to_value(&self) -> Result<PickleValue<'_>> {
        let mut items = Vec::with_capacity(self.tensors.len() + self.other.len() + 1);
        for (name, t) in &self.tensors {
            let a = NdArray::from_tensor(t).map_err(|e| e.in_tensor(items.len(), Some(name)))?;
            items.push((
                PickleValue::Str(Cow::Borrowed(name.as_str())),
                PickleValue::Array(a),
            ));
        }
        for (name, v) in &self.other {
            items.push((PickleValue::Str(Cow::Borrowed(name.as_str())), v.clone()));
        }
        if !self.structured_names.is_empty() {
            let table = self
                .structured_names
                .iter()
                .map(|(s, p)| {
                    (
                        PickleValue::Str(Cow::Borrowed(s.as_str())),
                        PickleValue::Str(Cow::Borrowed(p.as_str())),
                    )
                })
                .collect();
            items.push((
                PickleValue::Str(Cow::Borrowed(STRUCTURED_KEY)),
                PickleValue::Dict(table),
            ));
        }
        Ok(PickleValue::Dict(items))
    }

    /// Writes the dict as a protocol-4 pickle (see [`StateDict::to_value`]).
    pub fn write_to(&self, w: &mut (impl Write + ?Sized), opts: &WriteOptions) -> Result<()> {
        write_pickle_to(w, &self.to_value()?, opts)
    }

    /// Saves the dict atomically as a protocol-4 pickle.
    pub fn save(&self, path: &Path, opts: &WriteOptions, overwrite: bool) -> Result<()> {
        save_pickle(path, &self.to_value()?, opts, overwrite)
    }
}

/// Parses a state-dict pickle; tensor bytes are copied. Reads with the
/// default [`ReadLimits`] (see [`load_state_dict_with`]).
pub fn load_state_dict(bytes: &[u8]) -> Result<StateDict> {
    load_state_dict_with(bytes, &ReadLimits::default())
}

/// Parses a state-dict pickle under `limits`; tensor bytes are copied, and
/// the copies count against the limits' copy budget (a pickle naming one
/// array under many keys is an error, not a copy per key).
pub fn load_state_dict_with(bytes: &[u8], limits: &ReadLimits) -> Result<StateDict> {
    let mut budget = CopyBudget::new(bytes.len(), limits);
    let value = read_pickle_budgeted(bytes, limits, &mut budget)?;
    state_dict_from_value(value, &mut budget, &mut |a, budget| match a.data {
        Cow::Borrowed(s) => {
            charge(budget, s.len(), "copying an array")?;
            Ok(TensorData::Owned(s.to_vec()))
        }
        Cow::Owned(v) => Ok(TensorData::Owned(v)),
    })
}

/// Parses a state-dict pickle from a file's shared bytes ([`FileBytes`]);
/// arrays stored as raw bytes (protocols 3–4) borrow from them. Reads with the default
/// [`ReadLimits`].
pub fn load_state_dict_mapped(map: &Arc<FileBytes>) -> Result<StateDict> {
    load_state_dict_mapped_with(map, &ReadLimits::default())
}

/// [`load_state_dict_mapped`] under `limits`.
pub fn load_state_dict_mapped_with(map: &Arc<FileBytes>, limits: &ReadLimits) -> Result<StateDict> {
    let mut budget = CopyBudget::new(map.len(), limits);
    let value = read_pickle_budgeted(map, limits, &mut budget)?;
    let base = map.as_ptr() as usize;
    state_dict_from_value(value, &mut budget, &mut |a, budget| match a.data {
        Cow::Borrowed(s) => {
            let start = (s.as_ptr() as usize).wrapping_sub(base);
            match MappedBytes::new(map.clone(), start..start.saturating_add(s.len())) {
                Some(m) => Ok(TensorData::Mapped(m)),
                None => {
                    charge(budget, s.len(), "copying an array")?;
                    Ok(TensorData::Owned(s.to_vec()))
                }
            }
        }
        Cow::Owned(v) => Ok(TensorData::Owned(v)),
    })
}

/// Opens `path` ([`open_file`]: read whole when small, else memory-mapped)
/// and reads it with [`load_state_dict_mapped`].
pub fn load_state_dict_file(path: &Path) -> Result<StateDict> {
    load_state_dict_mapped(&open_file(path)?)
}

fn bad(key: &str, message: impl Into<String>) -> Error {
    Error::invalid(Some(key), message)
}

fn charge(budget: &mut CopyBudget, n: usize, what: &str) -> Result<()> {
    budget
        .charge(n as u64, what)
        .map_err(|m| Error::invalid(None, m))
}

/// Bytes that [`PickleValue::into_owned`] copies: every borrowed string,
/// byte buffer and array, once per reference. Computed without allocating,
/// so that a list of thousands of references to one buffer is refused before
/// it is copied thousands of times.
fn borrowed_len(v: &PickleValue<'_>) -> u64 {
    match v {
        PickleValue::Str(Cow::Borrowed(s)) => s.len() as u64,
        PickleValue::Bytes(Cow::Borrowed(b)) => b.len() as u64,
        PickleValue::Array(a) if matches!(a.data, Cow::Borrowed(_)) => a.data.len() as u64,
        PickleValue::Tuple(items) | PickleValue::List(items) => items
            .iter()
            .fold(0u64, |n, x| n.saturating_add(borrowed_len(x))),
        PickleValue::Dict(items) => items.iter().fold(0u64, |n, (k, x)| {
            n.saturating_add(borrowed_len(k))
                .saturating_add(borrowed_len(x))
        }),
        _ => 0,
    }
}

/// `v` with owned bytes, the copy charged to `budget` first.
fn owned(key: &str, v: PickleValue<'_>, budget: &mut CopyBudget) -> Result<PickleValue<'static>> {
    charge(
        budget,
        borrowed_len(&v) as usize,
        "copying the entry's strings and bytes",
    )
    .map_err(|e| e.in_tensor(0, Some(key)))?;
    Ok(v.into_owned())
}

type ArrayData<'a, 'f> = &'f mut dyn FnMut(NdArray<'a>, &mut CopyBudget) -> Result<TensorData>;

fn state_dict_from_value<'a>(
    value: PickleValue<'a>,
    budget: &mut CopyBudget,
    data: ArrayData<'a, '_>,
) -> Result<StateDict> {
    let PickleValue::Dict(items) = value else {
        return Err(Error::invalid(
            None,
            format!("a state dict pickle holds a dict, not a {}", value.kind()),
        ));
    };
    let mut out = StateDict::default();
    let mut unpack = None;
    for (k, v) in items {
        let PickleValue::Str(key) = k else {
            return Err(Error::invalid(
                None,
                format!("state dict key of type {} (expected str)", k.kind()),
            ));
        };
        let key = key.into_owned();
        let array = match v {
            PickleValue::Array(a) => a,
            // `builtins.tuple((name, ndarray))`: a Paddle tensor inside `paddle.save`
            PickleValue::Tuple(mut t)
                if matches!(t.as_slice(), [PickleValue::Str(_), PickleValue::Array(_)]) =>
            {
                match t.pop() {
                    Some(PickleValue::Array(a)) => a,
                    _ => return Err(bad(&key, "malformed (name, ndarray) tuple")),
                }
            }
            other if key == STRUCTURED_KEY => {
                out.structured_names = string_table(&key, other)?;
                continue;
            }
            other if key == UNPACK_KEY => {
                unpack = Some(owned(&key, other, budget)?);
                continue;
            }
            other => {
                let v = owned(&key, other, budget)?;
                out.other.push((key, v));
                continue;
            }
        };
        let (dtype, shape) = (array.dtype, array.shape.clone());
        let t = data(array, budget)
            .and_then(|d| Tensor::new(dtype, shape, d))
            .map_err(|e| e.in_tensor(out.tensors.len(), Some(&key)))?;
        out.tensors.push((key, t));
    }
    if let Some(info) = unpack {
        reassemble(&mut out, &info, budget)?;
    }
    Ok(out)
}

fn string_table(key: &str, v: PickleValue<'_>) -> Result<Vec<(String, String)>> {
    let PickleValue::Dict(items) = v else {
        return Err(bad(key, format!("expected a dict, got {}", v.kind())));
    };
    items
        .into_iter()
        .map(|(k, v)| match (k, v) {
            (PickleValue::Str(a), PickleValue::Str(b)) => Ok((a.into_owned(), b.into_owned())),
            _ => Err(bad(key, "expected a dict of str to str")),
        })
        .collect()
}

/// Joins the `"<key>@@.<i>"` pieces listed in `UnpackBigParamInfor@@`, as
/// `paddle.load` does (`np.concatenate(slices).reshape(OriginShape)`, the
/// slices then removed). Each entry is checked before anything is copied: its
/// slices exist, share one dtype and are named once in the whole table, and
/// their bytes add up to `OriginShape × item size`; the joined bytes are then
/// charged to the copy budget.
fn reassemble(out: &mut StateDict, info: &PickleValue<'_>, budget: &mut CopyBudget) -> Result<()> {
    let PickleValue::Dict(entries) = info else {
        return Err(bad(
            UNPACK_KEY,
            format!("expected a dict, got {}", info.kind()),
        ));
    };
    // by name, the first entry of a name as `StateDict::get` finds it; a map
    // since a table may list thousands of slices
    let mut by_name: HashMap<&str, usize> = HashMap::with_capacity(out.tensors.len());
    for (i, (n, _)) in out.tensors.iter().enumerate() {
        by_name.entry(n.as_str()).or_insert(i);
    }
    let mut used: HashSet<&str> = HashSet::new();
    let mut joined = Vec::new();
    for (k, v) in entries {
        let key = k
            .as_str()
            .ok_or_else(|| bad(UNPACK_KEY, "keys must be str"))?;
        let shape: Vec<i64> = v
            .get("OriginShape")
            .and_then(PickleValue::as_seq)
            .and_then(|s| s.iter().map(PickleValue::as_int).collect())
            .ok_or_else(|| {
                bad(
                    key,
                    "UnpackBigParamInfor@@ entry needs an integer OriginShape",
                )
            })?;
        let slices: Vec<&str> = v
            .get("slices")
            .and_then(PickleValue::as_seq)
            .and_then(|s| s.iter().map(PickleValue::as_str).collect())
            .ok_or_else(|| {
                bad(
                    key,
                    "UnpackBigParamInfor@@ entry needs a list of slice names",
                )
            })?;
        let mut parts = Vec::with_capacity(slices.len());
        let mut dtype = None;
        let mut held = 0u64;
        for &part in &slices {
            let t = by_name
                .get(part)
                .and_then(|&i| out.tensors.get(i))
                .map(|(_, t)| t)
                .ok_or_else(|| bad(key, format!("slice `{part}` is missing")))?;
            if !used.insert(part) {
                return Err(bad(
                    key,
                    format!("slice `{part}` is listed more than once in {UNPACK_KEY}"),
                ));
            }
            if dtype.is_some_and(|d| d != t.dtype()) {
                return Err(bad(key, "slices have different dtypes"));
            }
            dtype = Some(t.dtype());
            held = held.saturating_add(t.bytes().len() as u64);
            parts.push(t);
        }
        let dtype = dtype.ok_or_else(|| bad(key, "no slices"))?;
        let need = checked_numel(&shape).and_then(|n| n.checked_mul(dtype.size() as u64));
        if need != Some(held) {
            let need = need.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string());
            return Err(bad(
                key,
                format!("slices hold {held} bytes, OriginShape {shape:?} of {dtype} needs {need}"),
            ));
        }
        budget
            .charge(held, "reassembling an array from its slices")
            .map_err(|m| bad(key, m))?;
        let mut bytes = Vec::with_capacity(usize::try_from(held).unwrap_or(usize::MAX));
        for t in parts {
            bytes.extend_from_slice(t.bytes());
        }
        joined.push((key.to_owned(), Tensor::new(dtype, shape, bytes)?));
    }
    out.tensors.retain(|(n, _)| !used.contains(n.as_str()));
    out.tensors.extend(joined);
    Ok(())
}

fn io_to_error(e: io::Error) -> Error {
    if e.get_ref().is_some_and(|inner| inner.is::<Error>()) {
        if let Some(inner) = e.into_inner() {
            if let Ok(err) = inner.downcast::<Error>() {
                return *err;
            }
        }
        return Error::invalid(None, "invalid value");
    }
    Error::Output(e)
}

/// Writes any value as a protocol-4 pickle.
pub fn write_pickle_to(
    w: &mut (impl Write + ?Sized),
    value: &PickleValue<'_>,
    opts: &WriteOptions,
) -> Result<()> {
    write_pickle_io(w, value, opts).map_err(io_to_error)
}

/// Saves any value as a protocol-4 pickle, atomically.
pub fn save_pickle(
    path: &Path,
    value: &PickleValue<'_>,
    opts: &WriteOptions,
    overwrite: bool,
) -> Result<()> {
    validate(value)?;
    pir_core::fs::write_atomic(path, overwrite, |w| write_pickle_io(w, value, opts))?;
    Ok(())
}

fn plain_dict<S: AsRef<str>>(params: &[(S, Tensor)]) -> Result<PickleValue<'_>> {
    let mut items = Vec::with_capacity(params.len());
    for (i, (name, t)) in params.iter().enumerate() {
        let a = NdArray::from_tensor(t).map_err(|e| e.in_tensor(i, Some(name.as_ref())))?;
        items.push((
            PickleValue::Str(Cow::Borrowed(name.as_ref())),
            PickleValue::Array(a),
        ));
    }
    Ok(PickleValue::Dict(items))
}

/// Writes `{name: ndarray}` exactly as `paddle.static.save` writes a
/// `.pdparams`/`.pdopt` (protocol 4, keys in the given order; bfloat16 as
/// `<u2`; the LoD is not stored).
pub fn write_state_dict_to<S: AsRef<str>>(
    w: &mut (impl Write + ?Sized),
    params: &[(S, Tensor)],
    opts: &WriteOptions,
) -> Result<()> {
    write_pickle_to(w, &plain_dict(params)?, opts)
}

/// Saves `{name: ndarray}` atomically (see [`write_state_dict_to`]).
pub fn save_state_dict<S: AsRef<str>>(
    path: &Path,
    params: &[(S, Tensor)],
    opts: &WriteOptions,
    overwrite: bool,
) -> Result<()> {
    save_pickle(path, &plain_dict(params)?, opts, overwrite)
}
