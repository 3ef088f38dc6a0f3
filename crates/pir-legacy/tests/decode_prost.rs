//! The in-place `ProgramDesc` reader against prost (the reference protobuf
//! decoder) on every corpus model and on thousands of damaged copies of
//! them: whatever prost rejects the reader rejects, and whatever the reader
//! accepts prost decodes to the same program (slots sorted and attributes
//! merged by name, as Paddle's `OpDesc` keeps them). The reader may reject
//! more: programs that decode but are inconsistent (no blocks, a block
//! index that does not exist, an unknown attribute or scalar type).

#[allow(missing_docs, clippy::all, dead_code)]
#[path = "support/proto.rs"]
mod proto;

use pir_legacy::desc::{AttrValue, DataKind, ScalarValue, VarKind};
use pir_legacy::{LegacyError, ProgramDesc};
use prost::Message;

fn corpus() -> Vec<(String, Vec<u8>)> {
    let shared = pir_corpus::repo_root().join("../shared");
    let mut out = Vec::new();
    for dir in ["legacy-corpus", "paddle-corpus"] {
        let Ok(entries) = std::fs::read_dir(shared.join(dir)) else {
            continue;
        };
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "pdmodel"))
            .collect();
        paths.sort();
        for p in paths {
            if let Ok(bytes) = std::fs::read(&p) {
                out.push((p.display().to_string(), bytes));
            }
        }
    }
    out
}

fn scalar(s: &proto::Scalar) -> Option<ScalarValue> {
    Some(match s.r#type {
        1 => ScalarValue::Bool(s.b.unwrap_or(false)),
        2 => ScalarValue::Long(s.i.unwrap_or(0)),
        3 => ScalarValue::Float64(s.r.unwrap_or(0.0)),
        4 => ScalarValue::Complex(
            s.c.as_ref().map_or(0.0, |c| c.r),
            s.c.as_ref().map_or(0.0, |c| c.i),
        ),
        _ => return None,
    })
}

/// An attribute as the reader should give it (`None`: the reader rejects it).
fn attr_value(a: &proto::op_desc::Attr) -> Option<AttrValue<'_>> {
    fn strs(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }
    Some(match a.r#type {
        0 => AttrValue::Int(a.i.unwrap_or(0)),
        1 => AttrValue::Float(a.f.unwrap_or(0.0)),
        2 => AttrValue::String(a.s.as_deref().unwrap_or("")),
        3 => AttrValue::Ints(a.ints.clone().into()),
        4 => AttrValue::Floats(a.floats.clone().into()),
        5 => AttrValue::Strings(strs(&a.strings).into()),
        6 => AttrValue::Bool(a.b.unwrap_or(false)),
        7 => AttrValue::Bools(a.bools.clone().into()),
        8 => AttrValue::Block(a.block_idx.unwrap_or(0)),
        9 => AttrValue::Long(a.l.unwrap_or(0)),
        10 => AttrValue::Blocks(a.blocks_idx.clone().into()),
        11 => AttrValue::Longs(a.longs.clone().into()),
        12 => AttrValue::Float64s(a.float64s.clone().into()),
        13 => AttrValue::Var(a.var_name.as_deref().unwrap_or("")),
        14 => AttrValue::Vars(strs(&a.vars_name).into()),
        15 => AttrValue::Float64(a.float64.unwrap_or(0.0)),
        16 => AttrValue::Scalar(match &a.scalar {
            Some(s) => scalar(s)?,
            None => ScalarValue::Float64(0.0),
        }),
        17 => AttrValue::Scalars(a.scalars.iter().map(scalar).collect::<Option<_>>()?),
        _ => return None,
    })
}

/// The program prost decoded, in the reader's terms, as text lines (`None`:
/// the reader must reject it).
fn expected(p: &proto::ProgramDesc) -> Option<Vec<String>> {
    let mut out = vec![format!(
        "version {:?} map {:?}",
        p.version.and_then(|v| v.version),
        p.op_version_map
            .as_ref()
            .map(|m| m
                .pair
                .iter()
                .map(|x| (x.op_name.as_str(), x.op_version.version))
                .collect::<Vec<_>>())
            .unwrap_or_default()
    )];
    for b in &p.blocks {
        out.push(format!(
            "block {} {} {}",
            b.idx,
            b.parent_idx,
            b.forward_block_idx.unwrap_or(-1)
        ));
        for v in &b.vars {
            let t = &v.r#type;
            let dense = |d: &proto::var_type::DenseTensorDesc| {
                (
                    d.tensor.data_type,
                    d.tensor.dims.clone(),
                    d.legacy_lod_level.unwrap_or(0),
                )
            };
            let plain = |d: &proto::var_type::TensorDesc| (d.data_type, d.dims.clone(), 0);
            let tensor = match VarKind::from_i32(t.r#type) {
                VarKind::DenseTensor => t.dense_tensor.as_ref().map(dense),
                VarKind::DenseTensorArray => t.tensor_array.as_ref().map(|d| {
                    (
                        d.tensor.data_type,
                        d.tensor.dims.clone(),
                        d.legacy_lod_level.unwrap_or(0),
                    )
                }),
                VarKind::SelectedRows => t.selected_rows.as_ref().map(plain),
                VarKind::String => t.string.as_ref().map(plain),
                VarKind::Strings => t.strings.as_ref().map(plain),
                VarKind::Vocab => t.vocab.as_ref().map(plain),
                VarKind::SparseCoo => t.sparse_coo.as_ref().map(plain),
                VarKind::SparseCsr => t.sparse_csr.as_ref().map(plain),
                _ => None,
            }
            .map(|(d, dims, lod)| (DataKind::from_i32(d), dims, lod));
            let tuple: Vec<DataKind> = t
                .tuple
                .as_ref()
                .map(|x| {
                    x.element_type
                        .iter()
                        .map(|&e| DataKind::from_i32(e))
                        .collect()
                })
                .unwrap_or_default();
            let reader: Vec<_> = t
                .reader
                .as_ref()
                .map(|r| {
                    r.dense_tensor
                        .iter()
                        .map(dense)
                        .map(|(d, dims, lod)| (DataKind::from_i32(d), dims, lod))
                        .collect()
                })
                .unwrap_or_default();
            out.push(format!(
                "var {} {:?} {:?} {:?} {:?} {} {} {} {}",
                v.name,
                VarKind::from_i32(t.r#type),
                tensor,
                tuple,
                reader,
                v.persistable.unwrap_or(false),
                v.need_check_feed.unwrap_or(false),
                v.is_parameter.unwrap_or(false),
                v.stop_gradient.unwrap_or(false)
            ));
        }
        for op in &b.ops {
            out.push(format!(
                "op {} {}",
                op.r#type,
                op.is_target.unwrap_or(false)
            ));
            for (kind, list) in [("in", &op.inputs), ("out", &op.outputs)] {
                let mut slots: Vec<(&str, Vec<&str>)> = Vec::new();
                for s in list {
                    let args = s.arguments.iter().map(String::as_str).collect();
                    match slots.binary_search_by(|x| x.0.cmp(&s.parameter)) {
                        Ok(i) => slots[i].1 = args,
                        Err(i) => slots.insert(i, (&s.parameter, args)),
                    }
                }
                for (name, args) in slots {
                    out.push(format!("{kind} {name} {args:?}"));
                }
            }
            let mut attrs: Vec<(&str, AttrValue<'_>)> = Vec::new();
            for a in &op.attrs {
                let v = attr_value(a)?;
                match attrs.iter_mut().find(|x| x.0 == a.name) {
                    Some(x) => x.1 = v,
                    None => attrs.push((&a.name, v)),
                }
            }
            for (name, v) in attrs {
                out.push(format!("attr {name} {v:?}"));
            }
        }
    }
    Some(out)
}

fn lines(d: &ProgramDesc<'_>) -> Vec<String> {
    let mut out = vec![format!(
        "version {:?} map {:?}",
        d.version, d.op_version_map
    )];
    for b in &d.blocks {
        out.push(format!(
            "block {} {} {}",
            b.idx, b.parent_idx, b.forward_block_idx
        ));
        for v in &b.vars {
            let tensor = v
                .tensor
                .as_ref()
                .map(|t| (t.dtype, t.dims.to_vec(), t.lod_level));
            let reader: Vec<_> = v
                .reader
                .iter()
                .map(|t| (t.dtype, t.dims.to_vec(), t.lod_level))
                .collect();
            out.push(format!(
                "var {} {:?} {:?} {:?} {:?} {} {} {} {}",
                v.name,
                v.kind,
                tensor,
                v.tuple,
                reader,
                v.persistable,
                v.need_check_feed,
                v.is_parameter,
                v.stop_gradient
            ));
        }
        for op in &b.ops {
            out.push(format!("op {} {}", op.op_type, op.is_target));
            for (kind, list) in [("in", op.inputs()), ("out", op.outputs())] {
                for s in list {
                    out.push(format!("{kind} {} {:?}", s.name, s.args.to_vec()));
                }
            }
            for a in op.attrs {
                out.push(format!("attr {} {:?}", a.name, a.value));
            }
        }
    }
    out
}

/// Checks one input; returns whether the reader accepted it.
fn check(label: &str, bytes: &[u8]) -> bool {
    let reference = proto::ProgramDesc::decode(bytes);
    let arena = pir_legacy::DescArena::default();
    let ours = ProgramDesc::decode(bytes, &arena);
    match (&reference, &ours) {
        (Err(_), Ok(_)) => panic!("{label}: prost rejects, the reader accepts"),
        (Err(_), Err(_)) => false,
        (Ok(p), Ok(d)) => {
            let want = expected(p)
                .unwrap_or_else(|| panic!("{label}: the reader accepts an unknown kind"));
            assert_eq!(lines(d), want, "{label}");
            true
        }
        (Ok(p), Err(e)) => {
            assert!(
                !matches!(e, LegacyError::Decode(_)),
                "{label}: prost decodes what the reader calls malformed: {e}"
            );
            let _ = p;
            false
        }
    }
}

#[test]
fn corpus_models_read_as_prost_reads_them() {
    let models = corpus();
    for (label, bytes) in &models {
        assert!(check(label, bytes), "{label}: a corpus model must read");
    }
}

#[test]
fn damaged_models_are_rejected_exactly_when_prost_rejects_them() {
    let mut rng = pir_corpus::Rng(11);
    let mut accepted = 0;
    let mut tried = 0;
    for (label, bytes) in corpus().iter().filter(|(_, b)| b.len() < 40_000) {
        for _ in 0..200 {
            let mut b = bytes.clone();
            match rng.below(4) {
                0 => b.truncate(rng.below(b.len() + 1)),
                1 => {
                    let i = rng.below(b.len());
                    b[i] ^= 1 << rng.below(8);
                }
                2 => {
                    let i = rng.below(b.len());
                    b[i] = rng.next_u64() as u8;
                }
                _ => {
                    // A varint byte made large: lengths that lie.
                    let i = rng.below(b.len());
                    b[i] |= 0x80;
                }
            }
            tried += 1;
            if check(label, &b) {
                accepted += 1;
            }
        }
    }
    // Both outcomes must occur, or the mutations test nothing.
    assert!(
        tried == 0 || (accepted > 0 && accepted < tried),
        "{accepted}/{tried}"
    );
}
