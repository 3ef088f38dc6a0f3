//! Combined parameter files (`.pdiparams`, spec §7.3): one DenseTensor stream
//! per variable, sorted by name, nothing else — no count, no names.
//!
//! The reader is given the names (Python-`sorted` order, see [`paddle_sorted`])
//! and requires the file to hold exactly that many streams, as Paddle's loader
//! does; [`read_combined_blind`] reads every stream until the end for inspection.
//!
//! ```
//! use pir_params::{combined, DType, Tensor};
//! let w = Tensor::from_slice(DType::Float32, vec![2], &[1.0f32, 2.0]).unwrap();
//! let b = Tensor::from_slice(DType::Int64, vec![1], &[7i64]).unwrap();
//! let names = combined::paddle_sorted(["w", "b"]);
//! assert_eq!(names, ["b", "w"]);
//! let mut file = Vec::new();
//! combined::write_combined_to(&mut file, &[("b", b.clone()), ("w", w.clone())]).unwrap();
//! let params = combined::read_combined(&file, &names).unwrap();
//! assert_eq!(params, vec![("b".to_string(), b), ("w".to_string(), w)]);
//! assert!(combined::read_combined(&file, &["b"]).is_err()); // more streams than names
//! ```

use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::stream::{read_dense_from, write_dense_io, Source};
use crate::{open_file, FileBytes, Tensor};

/// `names` in Python `sorted()` order for `str`: Unicode code-point order,
/// which is the byte order of UTF-8 (so upper case sorts before lower case).
pub fn paddle_sorted<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Vec<String> {
    let mut v: Vec<String> = names.into_iter().map(|s| s.as_ref().to_owned()).collect();
    v.sort_unstable();
    v
}

/// Sorts `(name, tensor)` pairs by name like [`paddle_sorted`] (the order of a
/// `.pdiparams` file). The sort is stable: pairs of one name keep their order.
pub fn sort_params<S: AsRef<str>, T>(params: &mut [(S, T)]) {
    // Names already in order (a file read back as it was written) are
    // only checked.
    if !params.is_sorted_by(|a, b| a.0.as_ref() <= b.0.as_ref()) {
        params.sort_by(|a, b| a.0.as_ref().cmp(b.0.as_ref()));
    }
}

fn read_named(src: Source<'_>, names: &[impl AsRef<str>]) -> Result<Vec<Tensor>> {
    let buf = src.bytes();
    let mut out = Vec::with_capacity(names.len().min(buf.len() / 20 + 1));
    let mut pos = 0usize;
    for (i, name) in names.iter().enumerate() {
        let name = name.as_ref();
        if pos == buf.len() {
            return Err(Error::stream(
                pos,
                format!(
                    "the file ends at offset {pos} after {i} tensors but {} names were given",
                    names.len()
                ),
            )
            .in_tensor(i, Some(name)));
        }
        let (t, next) = read_dense_from(src, pos).map_err(|e| e.in_tensor(i, Some(name)))?;
        out.push(t);
        pos = next;
    }
    if pos != buf.len() {
        return Err(Error::stream(
            pos,
            format!(
                "{} bytes left at offset {pos} after the {} named tensors (the file holds more tensors than names)",
                buf.len() - pos,
                names.len()
            ),
        ));
    }
    Ok(out)
}

fn read_blind(src: Source<'_>) -> Result<Vec<Tensor>> {
    let buf = src.bytes();
    let mut out = Vec::new();
    let mut pos = 0usize;
    while pos < buf.len() {
        let (t, next) = read_dense_from(src, pos).map_err(|e| e.in_tensor(out.len(), None))?;
        out.push(t);
        pos = next;
    }
    Ok(out)
}

/// Reads a combined file held in memory, naming the tensors with `names` (in
/// file order). Errors when the file holds fewer or more streams than names.
/// The tensor bytes are copied; see [`read_combined_mapped`] for zero-copy.
pub fn read_combined(buf: &[u8], names: &[impl AsRef<str>]) -> Result<Vec<(String, Tensor)>> {
    read_named(Source::Copy(buf), names).map(|tensors| with_names(names, tensors))
}

/// `tensors` paired with `names` (as many: [`read_named`] checked it).
fn with_names(names: &[impl AsRef<str>], tensors: Vec<Tensor>) -> Vec<(String, Tensor)> {
    let names = names.iter().map(|n| n.as_ref().to_owned());
    names.zip(tensors).collect()
}

/// Like [`read_combined`], with the tensors borrowing their bytes from `map`.
pub fn read_combined_mapped(
    map: &Arc<FileBytes>,
    names: &[impl AsRef<str>],
) -> Result<Vec<(String, Tensor)>> {
    read_named(Source::Map(map), names).map(|tensors| with_names(names, tensors))
}

/// Like [`read_combined_mapped`], giving the tensors alone (in the order of
/// `names`, which only count them and name them in errors): for a caller
/// that holds the names already.
pub fn read_combined_tensors_mapped(
    map: &Arc<FileBytes>,
    names: &[impl AsRef<str>],
) -> Result<Vec<Tensor>> {
    read_named(Source::Map(map), names)
}

/// Reads every stream of a combined file until its end, without names.
pub fn read_combined_blind(buf: &[u8]) -> Result<Vec<Tensor>> {
    read_blind(Source::Copy(buf))
}

/// Like [`read_combined_blind`], borrowing the bytes from `map`.
pub fn read_combined_blind_mapped(map: &Arc<FileBytes>) -> Result<Vec<Tensor>> {
    read_blind(Source::Map(map))
}

/// Opens `path` ([`open_file`]: read whole when small, else memory-mapped)
/// and reads it with [`read_combined_mapped`].
pub fn load_combined(path: &Path, names: &[impl AsRef<str>]) -> Result<Vec<(String, Tensor)>> {
    read_combined_mapped(&open_file(path)?, names)
}

/// Opens `path` ([`open_file`]) and reads it with [`read_combined_blind_mapped`].
pub fn load_combined_blind(path: &Path) -> Result<Vec<Tensor>> {
    read_combined_blind_mapped(&open_file(path)?)
}

fn write_io<S: AsRef<str>>(
    w: &mut (impl Write + ?Sized),
    params: &[(S, Tensor)],
) -> io::Result<()> {
    for (_, t) in params {
        write_dense_io(w, t)?;
    }
    Ok(())
}

/// Writes a combined file: the streams of `params` in the given order (Paddle
/// writes and expects [`paddle_sorted`] name order; the names themselves are not
/// stored). Byte-identical to Paddle's `save_combine`.
pub fn write_combined_to<S: AsRef<str>>(
    w: &mut (impl Write + ?Sized),
    params: &[(S, Tensor)],
) -> Result<()> {
    write_io(w, params).map_err(Error::Output)
}

/// Saves a combined file atomically (see [`write_combined_to`]).
pub fn save_combined<S: AsRef<str>>(
    path: &Path,
    params: &[(S, Tensor)],
    overwrite: bool,
) -> Result<()> {
    Ok(prepare_combined(path, params, overwrite)?.commit()?)
}

/// [`save_combined`] up to the rename: the file written and synced under a
/// temporary name, put in place by [`Prepared::commit`](pir_core::fs::Prepared::commit)
/// (see [`pir_core::fs::prepare_atomic`]).
pub fn prepare_combined<S: AsRef<str>>(
    path: &Path,
    params: &[(S, Tensor)],
    overwrite: bool,
) -> Result<pir_core::fs::Prepared> {
    Ok(pir_core::fs::prepare_atomic(path, overwrite, |w| {
        write_io(w, params)
    })?)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::DType;

    fn spec_8_3() -> Vec<u8> {
        let s: String = "
            0000 0000 0000 0000 0000 0000 0000 0000
            0200 0000 0806 0000 0000 0000 0a40 0000
            0000 0000 0000 0000 0000 0000 0000 0400
            0000 0803 1003 ffff ffff ffff ffff ffff
            ffff ffff ffff ffff ffff ffff ffff 0000
            0000 0000 0000 0000 0000 0000 0000 0400
            0000 0804 1002 0038 00c0 0000 0000 0000
            0000 0000 0000 0000 0000 0600 0000 0805
            1002 1003 0000 803f 0000 0040 0000 4040
            0000 8040 0000 a040 0000 c040"
            .split_whitespace()
            .collect();
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn mixed_dtypes_vector_of_spec_8_3() {
        let file = spec_8_3();
        assert_eq!(file.len(), 156);
        let names = paddle_sorted(["w", "b", "a_idx", "S"]);
        assert_eq!(names, ["S", "a_idx", "b", "w"]);
        let params = read_combined(&file, &names).unwrap();
        let by = |n: &str| &params.iter().find(|p| p.0 == n).unwrap().1;
        assert_eq!(by("S").dtype(), DType::Float64);
        assert_eq!(by("S").dims(), &[] as &[i64]);
        assert_eq!(by("S").sum_f64(), 3.25);
        assert_eq!(by("a_idx").to_vec::<i64>().unwrap(), vec![-1, -1, -1]);
        assert_eq!(by("b").dtype(), DType::Float16);
        assert_eq!(by("b").sum_f64(), -1.5);
        assert_eq!(
            by("w").to_vec::<f32>().unwrap(),
            vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
        );
        let mut out = Vec::new();
        write_combined_to(&mut out, &params).unwrap();
        assert_eq!(out, file);
        assert_eq!(read_combined_blind(&file).unwrap().len(), 4);
    }

    #[test]
    fn name_count_must_match() {
        let file = spec_8_3();
        let e = read_combined(&file, &["S", "a_idx", "b", "w", "x"])
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "tensor #4 `x`: the file ends at offset 156 after 4 tensors but 5 names were given"
        );
        let e = read_combined(&file, &["S", "a_idx"])
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "78 bytes left at offset 78 after the 2 named tensors (the file holds more tensors than names)"
        );
        let e = read_combined(&file[..150], &["S", "a_idx", "b", "w"])
            .unwrap_err()
            .to_string();
        assert_eq!(e, "tensor #3 `w`: data of float32 [2, 3] needs 24 bytes at offset 132 but only 18 are left");
        let e = read_combined_blind(&file[..150]).unwrap_err().to_string();
        assert!(e.starts_with("tensor #3: data of float32"), "{e}");
        assert!(read_combined(&[], &[] as &[&str]).unwrap().is_empty());
    }

    #[test]
    fn python_sorted_order() {
        let names = paddle_sorted(["b", "B", "a_idx", "a.b", "a_", "é", "z", "Z9", "_x"]);
        assert_eq!(
            names,
            ["B", "Z9", "_x", "a.b", "a_", "a_idx", "b", "z", "é"]
        );
        let mut p = vec![("w".to_string(), 1), ("S".to_string(), 2)];
        sort_params(&mut p);
        assert_eq!(p[0].0, "S");
    }

    #[test]
    fn file_level_mapped_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("m.pdiparams");
        std::fs::write(&src, spec_8_3()).unwrap();
        let names = ["S", "a_idx", "b", "w"];
        let params = load_combined(&src, &names).unwrap();
        assert!(params.iter().all(|(_, t)| t.is_mapped()));
        // A small file is read whole: every tensor views that one buffer,
        // no copy per tensor, and no memory map.
        let shared = |t: &Tensor| match t.data() {
            crate::TensorData::Mapped(m) => Some(Arc::as_ptr(m.map())),
            crate::TensorData::Owned(_) => None,
        };
        assert!(params
            .iter()
            .all(|(_, t)| shared(t) == shared(&params[0].1) && !memory_mapped(t)));
        // the f64 scalar starts at offset 22: not 8-aligned in the file's bytes
        assert!(params[0].1.as_slice::<f64>().is_err());
        assert_eq!(params[0].1.to_vec::<f64>().unwrap(), vec![3.25]);
        let dst = dir.path().join("out.pdiparams");
        save_combined(&dst, &params, false).unwrap();
        assert_eq!(std::fs::read(&dst).unwrap(), spec_8_3());
        assert!(save_combined(&dst, &params, false).is_err());
        // re-saving over the mapped source is safe (atomic rename)
        save_combined(&src, &params, true).unwrap();
        assert_eq!(params[3].1.sum_f64(), 21.0);
        assert_eq!(load_combined_blind(&src).unwrap().len(), 4);
    }

    /// Whether a tensor views bytes that are a memory map of its file.
    fn memory_mapped(t: &Tensor) -> bool {
        matches!(t.data(), crate::TensorData::Mapped(m) if m.map().is_memory_mapped())
    }

    #[test]
    fn large_files_are_viewed_in_a_memory_map() {
        let dir = tempfile::tempdir().unwrap();
        let n = crate::READ_BELOW_BYTES as usize / 4;
        let values: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let big = Tensor::from_slice(crate::DType::Float32, vec![n as i64], &values).unwrap();
        let large = dir.path().join("large.pdiparams");
        save_combined(&large, &[("x", big.clone())], false).unwrap();
        let params = load_combined(&large, &["x"]).unwrap();
        assert!(params[0].1.is_mapped() && memory_mapped(&params[0].1));
        assert_eq!(params[0].1, big);
    }
}
