//! One serialized DenseTensor (spec §7.1), its `TensorDesc` protobuf (§7.2),
//! and the SelectedRows stream (§7.4a); per-variable files (§7.4) are one stream.
//!
//! Every size read from the input is checked against the bytes that are left
//! before anything is allocated, with overflow-checked arithmetic.
//!
//! ```
//! use pir_params::{stream, DType, Tensor};
//! let t = Tensor::from_slice(DType::Float32, vec![2], &[1.0f32, 2.0]).unwrap();
//! let mut bytes = Vec::new();
//! stream::write_dense_tensor_to(&mut bytes, &t).unwrap();
//! assert_eq!(&bytes[16..26], &[4, 0, 0, 0, 0x08, 0x05, 0x10, 0x02, 0, 0]);
//! let (back, end) = stream::read_dense_tensor(&bytes, 0).unwrap();
//! assert_eq!((back, end), (t, bytes.len()));
//! ```

use std::io::{self, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::tensor::{checked_numel, MappedBytes, TensorData};
use crate::{open_file, DType, FileBytes, Tensor};

/// The `TensorDesc` protobuf message: element type and dims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorDesc {
    /// Field 1, `data_type`.
    pub dtype: DType,
    /// Field 2, `dims` (repeated int64).
    pub dims: Vec<i64>,
}

/// A SelectedRows value: a few rows of a `height`-row tensor.
#[derive(Clone, Debug, PartialEq)]
pub struct SelectedRows {
    /// Indices of the rows held in `value`.
    pub rows: Vec<i64>,
    /// Number of rows of the full tensor.
    pub height: i64,
    /// The rows' values (no LoD is stored).
    pub value: Tensor,
}

/// Where tensor bytes come from: a plain buffer (copied) or a shared map
/// (borrowed).
#[derive(Clone, Copy)]
pub(crate) enum Source<'a> {
    Copy(&'a [u8]),
    Map(&'a Arc<FileBytes>),
}

impl<'a> Source<'a> {
    pub(crate) fn bytes(self) -> &'a [u8] {
        match self {
            Source::Copy(b) => b,
            Source::Map(m) => m,
        }
    }

    fn data(self, range: Range<usize>) -> TensorData {
        match self {
            Source::Copy(b) => TensorData::Owned(b.get(range).unwrap_or(&[]).to_vec()),
            Source::Map(m) => match MappedBytes::new(m.clone(), range) {
                Some(mb) => TensorData::Mapped(mb),
                None => TensorData::Owned(Vec::new()),
            },
        }
    }
}

/// A bounds-checked little-endian reader.
pub(crate) struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(buf: &'a [u8], pos: usize) -> Cursor<'a> {
        Cursor { buf, pos }
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.pos)
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let left = self.remaining();
        if n > left {
            return Err(Error::stream(
                self.pos,
                format!(
                    "truncated {what} at offset {}: needs {n} bytes, {left} left",
                    self.pos
                ),
            ));
        }
        let out = self.buf.get(self.pos..self.pos + n).unwrap_or(&[]);
        self.pos += n;
        Ok(out)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        let s = self.take(N, what)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        self.array(what).map(u32::from_le_bytes)
    }

    fn u64(&mut self, what: &str) -> Result<u64> {
        self.array(what).map(u64::from_le_bytes)
    }

    fn i64(&mut self, what: &str) -> Result<i64> {
        self.array(what).map(i64::from_le_bytes)
    }

    fn i32(&mut self, what: &str) -> Result<i32> {
        self.array(what).map(i32::from_le_bytes)
    }
}

/// Reads a protobuf varint (at most 10 bytes) at `*pos` of `buf`.
fn varint(buf: &[u8], pos: &mut usize, base: usize) -> Result<u64> {
    let mut value = 0u64;
    for i in 0..10 {
        let at = *pos;
        let Some(&b) = buf.get(at) else {
            return Err(Error::stream(
                base + at,
                format!("truncated varint at offset {}", base + at),
            ));
        };
        *pos += 1;
        if i == 9 && b > 1 {
            return Err(Error::stream(
                base + at,
                format!("varint overflows 64 bits at offset {}", base + at),
            ));
        }
        value |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(Error::stream(
        base + *pos,
        format!("varint longer than 10 bytes at offset {}", base + *pos),
    ))
}

/// Parses a `TensorDesc` message. `base` is the offset of `bytes` in the file
/// (for error messages).
///
/// Field 1 (`data_type`) is required; field 2 (`dims`) is read both unpacked
/// (as Paddle writes it) and packed. As in any proto2 parser, a repeated
/// `data_type` keeps the last value and **unknown fields are skipped** (wire
/// types 0, 1, 2, 5); groups (wire types 3, 4) and invalid wire types are errors.
pub fn parse_tensor_desc(bytes: &[u8], base: usize) -> Result<TensorDesc> {
    let mut pos = 0usize;
    let mut dtype = None;
    let mut dims = Vec::new();
    while pos < bytes.len() {
        let at = base + pos;
        let key = varint(bytes, &mut pos, base)?;
        let (field, wire) = (key >> 3, key & 7);
        match (field, wire) {
            (1, 0) => {
                let code = varint(bytes, &mut pos, base)?;
                dtype = Some(DType::from_var_type(code).ok_or_else(|| {
                    Error::stream(
                        at,
                        format!("unknown element data_type {code} in TensorDesc at offset {at}"),
                    )
                })?);
            }
            (2, 0) => dims.push(varint(bytes, &mut pos, base)? as i64),
            (2, 2) => {
                let len = varint(bytes, &mut pos, base)?;
                let end = usize::try_from(len)
                    .ok()
                    .and_then(|l| pos.checked_add(l))
                    .filter(|&e| e <= bytes.len())
                    .ok_or_else(|| {
                        Error::stream(
                            at,
                            format!(
                                "packed dims of {len} bytes at offset {at} exceed the TensorDesc"
                            ),
                        )
                    })?;
                let packed = bytes.get(..end).unwrap_or(&[]);
                while pos < end {
                    dims.push(varint(packed, &mut pos, base)? as i64);
                }
            }
            (0, _) => {
                return Err(Error::stream(
                    at,
                    format!("field number 0 in TensorDesc at offset {at}"),
                ))
            }
            (_, 0) => {
                varint(bytes, &mut pos, base)?;
            }
            (_, 1 | 5) => {
                let n = if wire == 1 { 8 } else { 4 };
                if bytes.len() - pos < n {
                    return Err(Error::stream(
                        at,
                        format!("truncated field {field} in TensorDesc at offset {at}"),
                    ));
                }
                pos += n;
            }
            (_, 2) => {
                let len = varint(bytes, &mut pos, base)?;
                if len > (bytes.len() - pos) as u64 {
                    return Err(Error::stream(
                        at,
                        format!(
                            "field {field} of {len} bytes at offset {at} exceeds the TensorDesc"
                        ),
                    ));
                }
                pos += len as usize;
            }
            _ => {
                return Err(Error::stream(
                    at,
                    format!(
                        "unsupported wire type {wire} (field {field}) in TensorDesc at offset {at}"
                    ),
                ))
            }
        }
    }
    let dtype = dtype.ok_or_else(|| {
        Error::stream(
            base,
            format!("TensorDesc at offset {base} has no data_type"),
        )
    })?;
    Ok(TensorDesc { dtype, dims })
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Encodes a `TensorDesc` exactly as Paddle does: field 1, then one unpacked
/// field-2 entry per dim (negative dims as 10-byte two's complement).
pub fn encode_tensor_desc(dtype: DType, dims: &[i64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 + dims.len() * 3);
    out.push(0x08);
    put_varint(&mut out, u64::from(dtype.var_type()));
    for &d in dims {
        out.push(0x10);
        put_varint(&mut out, d as u64);
    }
    out
}

/// Reads the part shared by both streams: tensor version, desc size, desc, data.
fn read_tensor_part(cur: &mut Cursor<'_>) -> Result<(DType, Vec<i64>, Range<usize>)> {
    let at = cur.pos();
    let version = cur.u32("tensor version")?;
    if version != 0 {
        return Err(Error::stream(
            at,
            format!("tensor version {version} at offset {at} is not 0"),
        ));
    }
    let at = cur.pos();
    let size = cur.i32("desc size")?;
    let left = cur.remaining();
    let size = usize::try_from(size)
        .map_err(|_| Error::stream(at, format!("negative desc size {size} at offset {at}")))?;
    if size > left {
        return Err(Error::stream(
            at,
            format!("desc size {size} at offset {at} exceeds the {left} bytes left"),
        ));
    }
    let desc_at = cur.pos();
    let desc = parse_tensor_desc(cur.take(size, "desc")?, desc_at)?;
    if let Some(&d) = desc.dims.iter().find(|&&d| d < 0) {
        return Err(Error::stream(
            desc_at,
            format!("negative dim {d} in TensorDesc at offset {desc_at}"),
        ));
    }
    let at = cur.pos();
    let left = cur.remaining();
    let nbytes = checked_numel(&desc.dims)
        .and_then(|n| n.checked_mul(desc.dtype.size() as u64))
        .ok_or_else(|| {
            Error::stream(
                at,
                format!("dims {:?} overflow at offset {desc_at}", desc.dims),
            )
        })?;
    if nbytes > left as u64 {
        return Err(Error::stream(
            at,
            format!(
                "data of {} {:?} needs {nbytes} bytes at offset {at} but only {left} are left",
                desc.dtype, desc.dims
            ),
        ));
    }
    let start = cur.pos();
    cur.take(nbytes as usize, "data")?;
    Ok((desc.dtype, desc.dims, start..cur.pos()))
}

pub(crate) fn read_dense_from(src: Source<'_>, offset: usize) -> Result<(Tensor, usize)> {
    let buf = src.bytes();
    if offset > buf.len() {
        return Err(Error::stream(
            offset,
            format!("offset {offset} is past the end ({} bytes)", buf.len()),
        ));
    }
    let mut cur = Cursor::new(buf, offset);
    let at = cur.pos();
    let version = cur.u32("DenseTensor version")?;
    if version != 0 {
        return Err(Error::stream(
            at,
            format!("DenseTensor version {version} at offset {at} is not 0"),
        ));
    }
    let at = cur.pos();
    let levels = cur.u64("lod_level")?;
    let left = cur.remaining();
    if levels > (left / 8) as u64 {
        return Err(Error::stream(
            at,
            format!("lod_level {levels} at offset {at} is impossible with {left} bytes left"),
        ));
    }
    let mut lod = Vec::with_capacity(levels as usize);
    for level in 0..levels {
        let at = cur.pos();
        let size = cur.u64("LoD level size")?;
        let left = cur.remaining();
        if size & 7 != 0 || size > left as u64 {
            return Err(Error::stream(
                at,
                format!("LoD level {level} byte size {size} at offset {at} is invalid ({left} bytes left)"),
            ));
        }
        let raw = cur.take(size as usize, "LoD level")?;
        lod.push(
            raw.chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
                .collect(),
        );
    }
    let (dtype, dims, range) = read_tensor_part(&mut cur)?;
    let tensor = Tensor::new(dtype, dims, src.data(range))?.with_lod(lod);
    Ok((tensor, cur.pos()))
}

/// Reads one DenseTensor stream starting at `offset`; returns the tensor (its
/// bytes copied) and the offset just after it.
pub fn read_dense_tensor(buf: &[u8], offset: usize) -> Result<(Tensor, usize)> {
    read_dense_from(Source::Copy(buf), offset)
}

/// Like [`read_dense_tensor`], but the tensor borrows its bytes from `map`.
pub fn read_dense_tensor_mapped(map: &Arc<FileBytes>, offset: usize) -> Result<(Tensor, usize)> {
    read_dense_from(Source::Map(map), offset)
}

pub(crate) fn write_dense_io(w: &mut (impl Write + ?Sized), t: &Tensor) -> io::Result<()> {
    w.write_all(&0u32.to_le_bytes())?;
    w.write_all(&(t.lod().len() as u64).to_le_bytes())?;
    for level in t.lod() {
        w.write_all(&((level.len() as u64) * 8).to_le_bytes())?;
        for &x in level {
            w.write_all(&x.to_le_bytes())?;
        }
    }
    write_tensor_part_io(w, t)
}

fn write_tensor_part_io(w: &mut (impl Write + ?Sized), t: &Tensor) -> io::Result<()> {
    let desc = encode_tensor_desc(t.dtype(), t.dims());
    let size =
        i32::try_from(desc.len()).map_err(|_| io::Error::other("TensorDesc larger than 2 GiB"))?;
    w.write_all(&0u32.to_le_bytes())?;
    w.write_all(&size.to_le_bytes())?;
    w.write_all(&desc)?;
    w.write_all(t.bytes())
}

/// Writes one DenseTensor stream (LoD included), byte-identical to Paddle.
pub fn write_dense_tensor_to(w: &mut (impl Write + ?Sized), t: &Tensor) -> Result<()> {
    write_dense_io(w, t).map_err(Error::Output)
}

/// Saves one tensor as a per-variable file (one stream), atomically.
pub fn save_dense_tensor(path: &Path, t: &Tensor, overwrite: bool) -> Result<()> {
    pir_core::fs::write_atomic(path, overwrite, |w| write_dense_io(w, t))?;
    Ok(())
}

/// Loads a per-variable file: exactly one DenseTensor stream (trailing bytes
/// are an error). The tensor borrows from the file's bytes ([`open_file`]).
pub fn load_dense_tensor(path: &Path) -> Result<Tensor> {
    let map = open_file(path)?;
    let (t, end) = read_dense_tensor_mapped(&map, 0)?;
    if end != map.len() {
        return Err(Error::stream(
            end,
            format!("{} bytes after the tensor at offset {end}", map.len() - end),
        ));
    }
    Ok(t)
}

fn read_selected_rows_from(src: Source<'_>, offset: usize) -> Result<(SelectedRows, usize)> {
    let buf = src.bytes();
    let mut cur = Cursor::new(buf, offset.min(buf.len()));
    if offset > buf.len() {
        return Err(Error::stream(
            offset,
            format!("offset {offset} is past the end ({} bytes)", buf.len()),
        ));
    }
    let at = cur.pos();
    let version = cur.u32("SelectedRows version")?;
    if version != 0 {
        return Err(Error::stream(
            at,
            format!("SelectedRows version {version} at offset {at} is not 0"),
        ));
    }
    let at = cur.pos();
    let n = cur.u64("row count")?;
    let left = cur.remaining();
    if n > (left / 8) as u64 {
        return Err(Error::stream(
            at,
            format!("row count {n} at offset {at} exceeds the {left} bytes left"),
        ));
    }
    let raw = cur.take(n as usize * 8, "rows")?;
    let rows = raw
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        .collect();
    let height = cur.i64("height")?;
    let (dtype, dims, range) = read_tensor_part(&mut cur)?;
    let value = Tensor::new(dtype, dims, src.data(range))?;
    Ok((
        SelectedRows {
            rows,
            height,
            value,
        },
        cur.pos(),
    ))
}

/// Reads a SelectedRows stream at `offset` (bytes copied); returns it and the
/// offset after it.
pub fn read_selected_rows(buf: &[u8], offset: usize) -> Result<(SelectedRows, usize)> {
    read_selected_rows_from(Source::Copy(buf), offset)
}

/// Like [`read_selected_rows`], borrowing the value's bytes from `map`.
pub fn read_selected_rows_mapped(
    map: &Arc<FileBytes>,
    offset: usize,
) -> Result<(SelectedRows, usize)> {
    read_selected_rows_from(Source::Map(map), offset)
}

fn write_selected_rows_io(w: &mut (impl Write + ?Sized), s: &SelectedRows) -> io::Result<()> {
    w.write_all(&0u32.to_le_bytes())?;
    w.write_all(&(s.rows.len() as u64).to_le_bytes())?;
    for r in &s.rows {
        w.write_all(&r.to_le_bytes())?;
    }
    w.write_all(&s.height.to_le_bytes())?;
    write_tensor_part_io(w, &s.value)
}

/// Writes a SelectedRows stream (the value's LoD is not part of the format and
/// is dropped).
pub fn write_selected_rows_to(w: &mut (impl Write + ?Sized), s: &SelectedRows) -> Result<()> {
    write_selected_rows_io(w, s).map_err(Error::Output)
}

/// Saves a SelectedRows file atomically.
pub fn save_selected_rows(path: &Path, s: &SelectedRows, overwrite: bool) -> Result<()> {
    pir_core::fs::write_atomic(path, overwrite, |w| write_selected_rows_io(w, s))?;
    Ok(())
}

/// Loads a SelectedRows file (exactly one stream), borrowing from its bytes.
pub fn load_selected_rows(path: &Path) -> Result<SelectedRows> {
    let map = open_file(path)?;
    let (s, end) = read_selected_rows_mapped(&map, 0)?;
    if end != map.len() {
        return Err(Error::stream(
            end,
            format!(
                "{} bytes after the SelectedRows at offset {end}",
                map.len() - end
            ),
        ));
    }
    Ok(s)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        let s: String = s.split_whitespace().collect();
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn lod_tensor_vector_of_spec_8_3() {
        let bytes = hex(
            "0000 0000 0100 0000 0000 0000 1800 0000 0000 0000 0000 0000 0000 0000 0100 0000
             0000 0000 0300 0000 0000 0000 0000 0000 0600 0000 0802 1003 1002 0000 0000 0100
             0000 0200 0000 0300 0000 0400 0000 0500 0000",
        );
        assert_eq!(bytes.len(), 82);
        let (t, end) = read_dense_tensor(&bytes, 0).unwrap();
        assert_eq!(end, 82);
        assert_eq!(t.dtype(), DType::Int32);
        assert_eq!(t.dims(), &[3, 2]);
        assert_eq!(t.lod(), &[vec![0, 1, 3]]);
        assert_eq!(t.to_vec::<i32>().unwrap(), vec![0, 1, 2, 3, 4, 5]);
        let mut out = Vec::new();
        write_dense_tensor_to(&mut out, &t).unwrap();
        assert_eq!(out, bytes);
    }

    #[test]
    fn selected_rows_vector_of_spec_7_4a() {
        let bytes = hex(
            "0000 0000 0200 0000 0000 0000 0300 0000 0000 0000 0700 0000 0000 0000 0a00 0000
             0000 0000 0000 0000 0600 0000 0805 1002 1002 0000 803f 0000 0040 0000 4040 0000
             8040",
        );
        let (s, end) = read_selected_rows(&bytes, 0).unwrap();
        assert_eq!(end, bytes.len());
        assert_eq!(s.rows, vec![3, 7]);
        assert_eq!(s.height, 10);
        assert_eq!(s.value.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
        let mut out = Vec::new();
        write_selected_rows_to(&mut out, &s).unwrap();
        assert_eq!(out, bytes);
        for cut in 0..bytes.len() {
            assert!(read_selected_rows(&bytes[..cut], 0).is_err());
        }
        let mut huge = bytes.clone();
        huge[4..12].copy_from_slice(&u64::MAX.to_le_bytes());
        let e = read_selected_rows(&huge, 0).unwrap_err().to_string();
        assert!(
            e.contains("row count 18446744073709551615 at offset 4 exceeds"),
            "{e}"
        );
    }

    #[test]
    fn desc_encoding() {
        assert_eq!(encode_tensor_desc(DType::Float64, &[]), vec![0x08, 0x06]);
        assert_eq!(
            encode_tensor_desc(DType::Float32, &[2, 3]),
            vec![0x08, 0x05, 0x10, 0x02, 0x10, 0x03]
        );
        assert_eq!(
            encode_tensor_desc(DType::BFloat16, &[300]),
            vec![0x08, 0x16, 0x10, 0xac, 0x02]
        );
        let neg = encode_tensor_desc(DType::Int8, &[-1]);
        assert_eq!(neg.len(), 2 + 1 + 10);
        assert_eq!(parse_tensor_desc(&neg, 0).unwrap().dims, vec![-1]);
    }

    #[test]
    fn desc_parsing_is_robust() {
        // packed dims, an unknown varint field and an unknown length-delimited field
        let d = parse_tensor_desc(
            &[
                0x12, 0x02, 0x04, 0x05, 0x18, 0x07, 0x22, 0x01, 0xff, 0x08, 0x05,
            ],
            0,
        )
        .unwrap();
        assert_eq!(
            d,
            TensorDesc {
                dtype: DType::Float32,
                dims: vec![4, 5]
            }
        );
        let e = |b: &[u8]| parse_tensor_desc(b, 100).unwrap_err().to_string();
        assert_eq!(e(&[]), "TensorDesc at offset 100 has no data_type");
        assert_eq!(
            e(&[0x08, 0x07]),
            "unknown element data_type 7 in TensorDesc at offset 100"
        );
        assert_eq!(e(&[0x08]), "truncated varint at offset 101");
        assert_eq!(
            e(&[0x0b]),
            "unsupported wire type 3 (field 1) in TensorDesc at offset 100"
        );
        assert_eq!(
            e(&[0x08, 0x05, 0x12, 0x05, 0x01]),
            "packed dims of 5 bytes at offset 102 exceed the TensorDesc"
        );
        let mut long = vec![0x10];
        long.extend([0xff; 10]);
        assert_eq!(e(&long), "varint overflows 64 bits at offset 110");
        assert_eq!(
            e(&[0x05, 0, 0]),
            "field number 0 in TensorDesc at offset 100"
        );
    }

    fn f32_stream() -> Vec<u8> {
        let t = Tensor::from_slice(
            DType::Float32,
            vec![2, 3],
            &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0],
        )
        .unwrap();
        let mut b = Vec::new();
        write_dense_tensor_to(&mut b, &t).unwrap();
        b
    }

    #[test]
    fn every_size_field_is_checked() {
        let good = f32_stream();
        let err = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = good.clone();
            f(&mut b);
            read_dense_tensor(&b, 0).unwrap_err().to_string()
        };
        assert_eq!(
            err(&|b| b[0] = 1),
            "DenseTensor version 1 at offset 0 is not 0"
        );
        assert_eq!(
            err(&|b| b[4..12].copy_from_slice(&u64::MAX.to_le_bytes())),
            "lod_level 18446744073709551615 at offset 4 is impossible with 38 bytes left"
        );
        assert_eq!(
            err(&|b| b[12] = 9),
            "tensor version 9 at offset 12 is not 0"
        );
        assert_eq!(
            err(&|b| b[16..20].copy_from_slice(&i32::MAX.to_le_bytes())),
            "desc size 2147483647 at offset 16 exceeds the 30 bytes left"
        );
        assert_eq!(
            err(&|b| b[16..20].copy_from_slice(&(-5i32).to_le_bytes())),
            "negative desc size -5 at offset 16"
        );
        assert_eq!(
            err(&|b| b[23] = 0x09),
            "data of float32 [9, 3] needs 108 bytes at offset 26 but only 24 are left"
        );
        // lod level whose byte size is huge
        let mut lod = good.clone();
        lod[4] = 1;
        lod.splice(12..12, u64::MAX.to_le_bytes());
        let e = read_dense_tensor(&lod, 0).unwrap_err().to_string();
        assert!(
            e.starts_with("LoD level 0 byte size 18446744073709551615 at offset 12 is invalid"),
            "{e}"
        );
        for cut in 0..good.len() {
            assert!(read_dense_tensor(&good[..cut], 0).is_err(), "cut {cut}");
        }
        assert!(read_dense_tensor(&good, good.len() + 1).is_err());
    }

    #[test]
    fn negative_and_overflowing_dims_are_rejected() {
        let mut b = vec![0u8; 16];
        let desc = encode_tensor_desc(DType::Float32, &[-1]);
        b.extend((desc.len() as i32).to_le_bytes());
        b.extend(&desc);
        let e = read_dense_tensor(&b, 0).unwrap_err().to_string();
        assert_eq!(e, "negative dim -1 in TensorDesc at offset 20");
        let mut b = vec![0u8; 16];
        let desc = encode_tensor_desc(DType::Float32, &[i64::MAX, 4]);
        b.extend((desc.len() as i32).to_le_bytes());
        b.extend(&desc);
        let e = read_dense_tensor(&b, 0).unwrap_err().to_string();
        assert!(e.contains("overflow"), "{e}");
    }

    #[test]
    fn file_round_trip_is_mapped() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("w");
        let t = Tensor::from_slice(DType::Float64, vec![], &[3.25f64]).unwrap();
        save_dense_tensor(&p, &t, false).unwrap();
        assert!(save_dense_tensor(&p, &t, false).is_err());
        let back = load_dense_tensor(&p).unwrap();
        assert!(back.is_mapped());
        assert_eq!(back, t);
        std::fs::write(&p, [f32_stream(), vec![0]].concat()).unwrap();
        assert_eq!(
            load_dense_tensor(&p).unwrap_err().to_string(),
            "1 bytes after the tensor at offset 50"
        );
        let s = SelectedRows {
            rows: vec![1],
            height: 4,
            value: t,
        };
        save_selected_rows(&p, &s, true).unwrap();
        assert_eq!(load_selected_rows(&p).unwrap(), s);
    }
}
