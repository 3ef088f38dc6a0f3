//! The general reader of a `VarDesc`: every field of its `VarType` merged
//! as protobuf merges repeated messages, then the desc the kind selects
//! (the layout Paddle writes for dense tensors takes
//! `crate::canonical::dense_var` instead).

use bumpalo::Bump;

use super::super::{DataKind, TensorDesc, VarDesc, VarKind};
use crate::wire::{Reader, WireResult, WireType};

/// `VarType.TensorDesc` as read (merged when repeated).
#[derive(Default)]
struct RawTensor {
    data_type: i32,
    dims: Vec<i64>,
}

/// `DenseTensorDesc` / `DenseTensorArrayDesc` as read.
#[derive(Default)]
struct RawDense {
    tensor: RawTensor,
    lod_level: Option<i32>,
}

fn merge_tensor(r: &mut Reader<'_>, t: &mut RawTensor) -> WireResult<()> {
    while r.has_more() {
        match r.key()? {
            (1, w) => t.data_type = r.i32(w)?,
            (2, w) => r.repeated_varint(w, &mut t.dims, |v| v as i64)?,
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok(())
}

fn merge_dense(r: &mut Reader<'_>, d: &mut RawDense) -> WireResult<()> {
    while r.has_more() {
        match r.key()? {
            (1, w) => merge_tensor(&mut r.message(w, "VarType.TensorDesc")?, &mut d.tensor)?,
            (2, w) => d.lod_level = Some(r.i32(w)?),
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok(())
}

fn tensor_desc(t: RawTensor, lod_level: i32, arena: &Bump) -> TensorDesc<'_> {
    TensorDesc {
        dtype: DataKind::from_i32(t.data_type),
        dims: arena.alloc_slice_copy(&t.dims),
        lod_level,
    }
}

/// `VarType` as read: every kind's desc, of which the kind picks one.
#[derive(Default)]
pub(super) struct RawVarType {
    ty: i32,
    selected_rows: Option<RawTensor>,
    dense: Option<RawDense>,
    array: Option<RawDense>,
    reader: Option<Vec<RawDense>>,
    tuple: Option<Vec<i32>>,
    string: Option<RawTensor>,
    strings: Option<RawTensor>,
    vocab: Option<RawTensor>,
    sparse_coo: Option<RawTensor>,
    sparse_csr: Option<RawTensor>,
}

impl RawVarType {
    fn reset(&mut self) {
        *self = RawVarType::default();
    }
}

fn merge_var_type(r: &mut Reader<'_>, t: &mut RawVarType) -> WireResult<()> {
    const TENSOR: &str = "VarType.TensorDesc";
    fn tensor(r: &mut Reader<'_>, w: WireType, slot: &mut Option<RawTensor>) -> WireResult<()> {
        merge_tensor(
            &mut r.message(w, TENSOR)?,
            slot.get_or_insert_with(Default::default),
        )
    }
    while r.has_more() {
        match r.key()? {
            (1, w) => t.ty = r.i32(w)?,
            (2, w) => tensor(r, w, &mut t.selected_rows)?,
            (3, w) => merge_dense(
                &mut r.message(w, "VarType.DenseTensorDesc")?,
                t.dense.get_or_insert_with(Default::default),
            )?,
            (4, w) => merge_dense(
                &mut r.message(w, "VarType.DenseTensorArrayDesc")?,
                t.array.get_or_insert_with(Default::default),
            )?,
            (5, w) => {
                let mut m = r.message(w, "VarType.ReaderDesc")?;
                let list = t.reader.get_or_insert_with(Vec::new);
                while m.has_more() {
                    match m.key()? {
                        (1, w) => {
                            let mut d = RawDense::default();
                            merge_dense(&mut m.message(w, "VarType.DenseTensorDesc")?, &mut d)?;
                            list.push(d);
                        }
                        (f, w) => m.skip(f, w)?,
                    }
                }
            }
            (7, w) => {
                let mut m = r.message(w, "VarType.Tuple")?;
                let list = t.tuple.get_or_insert_with(Vec::new);
                while m.has_more() {
                    match m.key()? {
                        (1, w) => m.repeated_varint(w, list, |v| v as i32)?,
                        (f, w) => m.skip(f, w)?,
                    }
                }
            }
            (8, w) => tensor(r, w, &mut t.string)?,
            (9, w) => tensor(r, w, &mut t.strings)?,
            (10, w) => tensor(r, w, &mut t.vocab)?,
            (11, w) => tensor(r, w, &mut t.sparse_coo)?,
            (12, w) => tensor(r, w, &mut t.sparse_csr)?,
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok(())
}

/// Reads a `VarDesc.Attr` only to check it (the translator has no use for
/// variable attributes).
fn check_var_attr(r: &mut Reader<'_>) -> WireResult<()> {
    while r.has_more() {
        match r.key()? {
            (1 | 4, w) => {
                r.str(w)?;
            }
            (2 | 3, w) => {
                r.u64(w)?;
            }
            (5, w) => r.repeated_varint(w, &mut Vec::new(), |_| ())?,
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok(())
}

pub(super) fn decode_var<'a>(
    r: &mut Reader<'a>,
    ty: &mut RawVarType,
    arena: &'a Bump,
) -> WireResult<VarDesc<'a>> {
    let mut name = "";
    ty.reset();
    let mut flags = [false; 4];
    while r.has_more() {
        match r.key()? {
            (1, w) => name = r.str(w)?,
            (2, w) => merge_var_type(&mut r.message(w, "VarType")?, ty)?,
            (f @ 3..=6, w) => flags[f as usize - 3] = r.bool(w)?,
            (7, w) => check_var_attr(&mut r.message(w, "VarDesc.Attr")?)?,
            (f, w) => r.skip(f, w)?,
        }
    }
    let kind = VarKind::from_i32(ty.ty);
    let dense = |d: RawDense| tensor_desc(d.tensor, d.lod_level.unwrap_or(0), arena);
    let plain = |t: RawTensor| tensor_desc(t, 0, arena);
    // Paddle reads the desc that belongs to the kind and ignores the others.
    let tensor = match kind {
        VarKind::DenseTensor => ty.dense.take().map(dense),
        VarKind::DenseTensorArray => ty.array.take().map(dense),
        VarKind::SelectedRows => ty.selected_rows.take().map(plain),
        VarKind::String => ty.string.take().map(plain),
        VarKind::Strings => ty.strings.take().map(plain),
        VarKind::Vocab => ty.vocab.take().map(plain),
        VarKind::SparseCoo => ty.sparse_coo.take().map(plain),
        VarKind::SparseCsr => ty.sparse_csr.take().map(plain),
        _ => None,
    };
    Ok(VarDesc {
        name,
        kind,
        tensor,
        tuple: match ty.tuple.take() {
            Some(t) => arena.alloc_slice_fill_iter(t.into_iter().map(DataKind::from_i32)),
            None => &[],
        },
        reader: match ty.reader.take() {
            Some(r) => arena.alloc_slice_fill_iter(r.into_iter().map(dense)),
            None => &[],
        },
        persistable: flags[0],
        need_check_feed: flags[1],
        is_parameter: flags[2],
        stop_gradient: flags[3],
    })
}
