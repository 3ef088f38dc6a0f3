//! Writing an exported model: the protobuf bytes streamed straight to the
//! file, each parameter's elements from the bytes the parameter was loaded
//! into (never copied into a message first), and ONNX external data.
//!
//! A protobuf message is its fields in any order, so the model is written
//! as prost encodes everything but the initializers, followed by each
//! initializer: its header (name, type, dims) encoded by prost, then its
//! `raw_data` field written by hand from the borrowed bytes. The lengths
//! that prefix the graph and each tensor are computed first.
//!
//! With external data the elements of each initializer of at least
//! [`EXTERNAL_MIN_BYTES`] go to one side file (`Y.onnx.data`, named
//! relative to the model as ONNX's `location` requires) one after the
//! other, each at an offset aligned to [`EXTERNAL_ALIGN`]; the header then
//! says `data_location: EXTERNAL` with `location`, `offset` and `length`.

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use prost::encoding::{encode_key, encode_varint, encoded_len_varint, key_len, WireType};
use prost::Message;

use crate::proto::{GraphProto, ModelProto, StringStringEntryProto, TensorProto};
use crate::ExportError;

/// Protobuf's limit on one message: a model proto must stay below it.
pub const PROTOBUF_LIMIT: u64 = (1 << 31) - 1;

/// Initializers smaller than this stay in the model even with external
/// data (ONNX's own converter keeps tensors under 1 KB inline too).
pub const EXTERNAL_MIN_BYTES: usize = 1024;

/// The alignment of each tensor in the side file (a page: readers may map
/// the file).
pub const EXTERNAL_ALIGN: u64 = 4096;

/// `TensorProto.DataLocation.EXTERNAL`.
const DATA_LOCATION_EXTERNAL: i32 = 1;

/// Field numbers the writer encodes by hand.
const MODEL_GRAPH: u32 = 7;
const GRAPH_INITIALIZER: u32 = 5;
const TENSOR_RAW_DATA: u32 = 9;

/// An initializer: its header (name, element type, dims; `raw_data` empty)
/// and its elements, borrowed from a loaded parameter or owned (constants
/// the exporter made).
#[derive(Clone, Debug)]
pub struct Initializer<'p> {
    /// The tensor without its elements.
    pub header: TensorProto,
    /// The elements as little-endian bytes.
    pub data: Cow<'p, [u8]>,
}

impl<'p> Initializer<'p> {
    /// An initializer owning the elements `t` holds.
    pub fn owned(mut t: TensorProto) -> Self {
        let data = std::mem::take(&mut t.raw_data);
        Initializer {
            header: t,
            data: Cow::Owned(data),
        }
    }

    /// An initializer reading its elements from `data`.
    pub fn borrowed(header: TensorProto, data: &'p [u8]) -> Self {
        Initializer {
            header,
            data: Cow::Borrowed(data),
        }
    }
}

/// An exported model before it is written: the model proto without
/// initializers, and the initializers with their elements where they lie.
#[derive(Clone, Debug)]
pub struct OnnxModel<'p> {
    /// The model without its graph.
    pub model: ModelProto,
    /// The main graph without its initializers.
    pub graph: GraphProto,
    /// The main graph's initializers.
    pub initializers: Vec<Initializer<'p>>,
}

/// Where the elements of each initializer go: the side file's name and
/// each external tensor's offset, or everything inline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The side file's name (relative to the model), when any tensor is
    /// external.
    pub location: Option<String>,
    /// Per initializer: its offset in the side file, or `None` (inline).
    pub offsets: Vec<Option<u64>>,
    /// The size of the side file.
    pub data_len: u64,
    /// The size of the model file.
    pub model_len: u64,
}

impl Layout {
    /// Whether a side file is written.
    pub fn is_external(&self) -> bool {
        self.location.is_some()
    }
}

impl OnnxModel<'_> {
    /// The whole model as one message (the elements copied into it).
    pub fn into_proto(self) -> ModelProto {
        let initializer = self
            .initializers
            .into_iter()
            .map(|i| TensorProto {
                raw_data: i.data.into_owned(),
                ..i.header
            })
            .collect();
        ModelProto {
            graph: Some(GraphProto {
                initializer,
                ..self.graph
            }),
            ..self.model
        }
    }

    /// Plans the files: everything inline, unless `external` asks for
    /// external data or the inline model would reach `limit` bytes; then
    /// the elements of the initializers of at least [`EXTERNAL_MIN_BYTES`]
    /// go to the side file `location`. A model still too large (its
    /// headers and small tensors alone) is [`ExportError::TooLarge`].
    pub fn layout(
        &self,
        external: bool,
        location: &str,
        limit: u64,
    ) -> Result<Layout, ExportError> {
        let inline = Layout {
            location: None,
            offsets: vec![None; self.initializers.len()],
            data_len: 0,
            model_len: 0,
        };
        let inline_len = self.model_len(&inline);
        if !external && inline_len < limit {
            return Ok(Layout {
                model_len: inline_len,
                ..inline
            });
        }
        let mut offsets = Vec::with_capacity(self.initializers.len());
        let mut end = 0u64;
        for init in &self.initializers {
            if init.data.len() < EXTERNAL_MIN_BYTES {
                offsets.push(None);
                continue;
            }
            let start = end.div_ceil(EXTERNAL_ALIGN) * EXTERNAL_ALIGN;
            offsets.push(Some(start));
            end = start + init.data.len() as u64;
        }
        let mut layout = Layout {
            location: Some(location.to_string()),
            offsets,
            data_len: end,
            model_len: 0,
        };
        layout.model_len = self.model_len(&layout);
        if layout.model_len >= limit {
            return Err(ExportError::TooLarge(layout.model_len));
        }
        Ok(layout)
    }

    /// The header of initializer `i` as written under `layout`.
    fn header(&self, i: usize, layout: &Layout) -> Cow<'_, TensorProto> {
        let init = &self.initializers[i];
        match (layout.offsets.get(i).copied().flatten(), &layout.location) {
            (Some(offset), Some(location)) => {
                let entry = |key: &str, value: String| StringStringEntryProto {
                    key: key.into(),
                    value,
                };
                Cow::Owned(TensorProto {
                    data_location: DATA_LOCATION_EXTERNAL,
                    external_data: vec![
                        entry("location", location.clone()),
                        entry("offset", offset.to_string()),
                        entry("length", init.data.len().to_string()),
                    ],
                    ..init.header.clone()
                })
            }
            _ => Cow::Borrowed(&init.header),
        }
    }

    /// The encoded length of initializer `i` (without its field key and
    /// length prefix).
    fn tensor_len(&self, i: usize, layout: &Layout) -> u64 {
        let header = self.header(i, layout).encoded_len() as u64;
        let n = self.initializers[i].data.len();
        let inline = layout.offsets.get(i).copied().flatten().is_none();
        if inline && n > 0 {
            header + (key_len(TENSOR_RAW_DATA) + encoded_len_varint(n as u64) + n) as u64
        } else {
            header
        }
    }

    fn graph_len(&self, layout: &Layout) -> u64 {
        let fields = self.graph.encoded_len() as u64;
        (0..self.initializers.len()).fold(fields, |sum, i| {
            let n = self.tensor_len(i, layout);
            sum + key_len(GRAPH_INITIALIZER) as u64 + encoded_len_varint(n) as u64 + n
        })
    }

    fn model_len(&self, layout: &Layout) -> u64 {
        let graph = self.graph_len(layout);
        let rest = self.model.encoded_len() as u64;
        rest + key_len(MODEL_GRAPH) as u64 + encoded_len_varint(graph) as u64 + graph
    }

    /// Writes the model file under `layout`.
    pub fn write_model(&self, w: &mut dyn Write, layout: &Layout) -> io::Result<()> {
        let mut buf = Vec::new();
        self.model.encode(&mut buf).map_err(io::Error::other)?;
        encode_key(MODEL_GRAPH, WireType::LengthDelimited, &mut buf);
        encode_varint(self.graph_len(layout), &mut buf);
        self.graph.encode(&mut buf).map_err(io::Error::other)?;
        w.write_all(&buf)?;
        for i in 0..self.initializers.len() {
            buf.clear();
            encode_key(GRAPH_INITIALIZER, WireType::LengthDelimited, &mut buf);
            encode_varint(self.tensor_len(i, layout), &mut buf);
            self.header(i, layout)
                .encode(&mut buf)
                .map_err(io::Error::other)?;
            let data = &self.initializers[i].data;
            let inline = layout.offsets.get(i).copied().flatten().is_none();
            if inline && !data.is_empty() {
                encode_key(TENSOR_RAW_DATA, WireType::LengthDelimited, &mut buf);
                encode_varint(data.len() as u64, &mut buf);
                w.write_all(&buf)?;
                w.write_all(data)?;
            } else {
                w.write_all(&buf)?;
            }
        }
        Ok(())
    }

    /// Writes the side file under `layout`: the external tensors at their
    /// offsets, zeros between them.
    pub fn write_data(&self, w: &mut dyn Write, layout: &Layout) -> io::Result<()> {
        let mut at = 0u64;
        let zeros = [0u8; EXTERNAL_ALIGN as usize];
        for (init, offset) in self.initializers.iter().zip(&layout.offsets) {
            let Some(offset) = *offset else {
                continue;
            };
            while at < offset {
                let n = usize::try_from(offset - at)
                    .unwrap_or(zeros.len())
                    .min(zeros.len());
                w.write_all(&zeros[..n])?;
                at += n as u64;
            }
            w.write_all(&init.data)?;
            at += init.data.len() as u64;
        }
        Ok(())
    }

    /// The model file's bytes under `layout`.
    pub fn model_bytes(&self, layout: &Layout) -> Vec<u8> {
        let mut out = Vec::with_capacity(usize::try_from(layout.model_len).unwrap_or(0));
        // Writing to a vector cannot fail.
        let _ = self.write_model(&mut out, layout);
        out
    }
}

/// The side file holding the external data of the model at `path`:
/// `Y.onnx.data` beside `Y.onnx`.
pub fn external_data_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".data");
    path.with_file_name(name)
}

/// Writes an exported model to `path`, with its initializers' elements in
/// the side file [`external_data_path`] when `external` asks for it or
/// the model would reach protobuf's 2 GB limit. Each file is written under
/// a temporary name and synced, and both are put in place together (or
/// neither is). Returns the layout written.
pub fn write_model(
    model: &OnnxModel<'_>,
    path: &Path,
    overwrite: bool,
    external: bool,
) -> Result<Layout, ExportError> {
    write_model_within(model, path, overwrite, external, PROTOBUF_LIMIT)
}

/// [`write_model`] with the size past which external data is chosen.
fn write_model_within(
    model: &OnnxModel<'_>,
    path: &Path,
    overwrite: bool,
    external: bool,
    limit: u64,
) -> Result<Layout, ExportError> {
    let data_path = external_data_path(path);
    let location = data_path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| ExportError::DataFileName(data_path.clone()))?;
    let layout = model.layout(external, location, limit)?;
    let write_onnx =
        || pir_core::fs::prepare_atomic(path, overwrite, |w| model.write_model(w, &layout));
    if layout.is_external() {
        // The two files are written and synced at once: each sync waits for
        // the disk (milliseconds however small the file), so the second
        // need not wait for the first.
        let (onnx, data) = std::thread::scope(|s| {
            let data = s.spawn(|| {
                pir_core::fs::prepare_atomic(&data_path, overwrite, |w| {
                    model.write_data(w, &layout)
                })
            });
            let onnx = write_onnx();
            let data = data
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (onnx, data)
        });
        // Prepared files not committed are removed when dropped.
        pir_core::fs::commit_all(vec![onnx?, data?])?;
    } else {
        write_onnx()?.commit()?;
    }
    Ok(layout)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::{DataType, NodeProto, OperatorSetIdProto};

    /// A model with one small and two large float initializers, the
    /// large ones' elements `0, 1, 2, ...` mod 251.
    fn model(large: usize) -> OnnxModel<'static> {
        let tensor = |name: &str, n: usize| {
            Initializer::owned(TensorProto {
                dims: vec![n as i64 / 4],
                data_type: DataType::Float as i32,
                name: name.into(),
                raw_data: (0..n).map(|i| (i % 251) as u8).collect(),
                ..Default::default()
            })
        };
        OnnxModel {
            model: ModelProto {
                ir_version: 8,
                opset_import: vec![OperatorSetIdProto {
                    domain: String::new(),
                    version: 17,
                }],
                ..Default::default()
            },
            graph: GraphProto {
                node: vec![NodeProto {
                    input: vec!["a".into(), "b".into()],
                    output: vec!["y".into()],
                    op_type: "Add".into(),
                    ..Default::default()
                }],
                name: "g".into(),
                ..Default::default()
            },
            initializers: vec![tensor("a", large), tensor("small", 16), tensor("b", large)],
        }
    }

    /// The model read back: external tensors' elements taken from `data`.
    fn read_back(bytes: &[u8], data: &[u8]) -> ModelProto {
        let mut m = ModelProto::decode(bytes).expect("decodes");
        for t in &mut m.graph.as_mut().expect("graph").initializer {
            if t.data_location != DATA_LOCATION_EXTERNAL {
                continue;
            }
            let get = |k: &str| {
                t.external_data
                    .iter()
                    .find(|e| e.key == k)
                    .map(|e| e.value.clone())
                    .expect("entry")
            };
            assert_eq!(get("location"), "y.onnx.data");
            let offset: usize = get("offset").parse().expect("offset");
            let length: usize = get("length").parse().expect("length");
            assert_eq!(offset as u64 % EXTERNAL_ALIGN, 0);
            t.raw_data = data[offset..offset + length].to_vec();
            t.external_data.clear();
            t.data_location = 0;
        }
        m
    }

    #[test]
    fn streamed_bytes_decode_to_the_whole_message() {
        let m = model(4096);
        let layout = m
            .layout(false, "y.onnx.data", PROTOBUF_LIMIT)
            .expect("fits");
        assert!(!layout.is_external());
        let bytes = m.model_bytes(&layout);
        assert_eq!(bytes.len() as u64, layout.model_len);
        let whole = m.into_proto();
        assert_eq!(whole.encoded_len(), bytes.len());
        assert_eq!(
            ModelProto::decode(bytes.as_slice()).expect("decodes"),
            whole
        );
    }

    #[test]
    fn external_data_holds_the_large_tensors_at_aligned_offsets() {
        let m = model(5000);
        let layout = m.layout(true, "y.onnx.data", PROTOBUF_LIMIT).expect("fits");
        assert_eq!(layout.offsets, vec![Some(0), None, Some(8192)]);
        assert_eq!(layout.data_len, 8192 + 5000);
        let bytes = m.model_bytes(&layout);
        assert_eq!(bytes.len() as u64, layout.model_len);
        let mut data = Vec::new();
        m.write_data(&mut data, &layout).expect("writes");
        assert_eq!(data.len() as u64, layout.data_len);
        assert!(bytes.len() < 1000, "the elements are not in the model");
        assert_eq!(read_back(&bytes, &data), m.into_proto());
    }

    #[test]
    fn external_data_is_chosen_when_the_model_would_reach_the_limit() {
        let m = model(3000);
        let inline = m
            .layout(false, "y.onnx.data", PROTOBUF_LIMIT)
            .expect("fits");
        // Below the inline size: external; below even the headers: refused.
        let layout = m
            .layout(false, "y.onnx.data", inline.model_len)
            .expect("fits with external data");
        assert!(layout.is_external());
        assert!(matches!(
            m.layout(false, "y.onnx.data", 100),
            Err(ExportError::TooLarge(n)) if n >= 100
        ));

        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("y.onnx");
        let written =
            write_model_within(&m, &path, false, false, inline.model_len).expect("writes");
        assert_eq!(written, layout);
        let bytes = std::fs::read(&path).expect("model");
        let data = std::fs::read(external_data_path(&path)).expect("side file");
        assert_eq!(read_back(&bytes, &data), m.into_proto());
    }

    #[test]
    fn both_files_are_put_in_place_together_or_neither() {
        let m = model(3000);
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("y.onnx");
        std::fs::write(external_data_path(&path), b"old").expect("writes");
        let err = write_model(&m, &path, false, true).expect_err("the side file exists");
        assert!(matches!(
            err,
            ExportError::Write(pir_core::fs::WriteError::Exists(_))
        ));
        assert!(!path.exists());
        assert_eq!(
            std::fs::read(external_data_path(&path)).expect("kept"),
            b"old"
        );
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
        write_model(&m, &path, true, true).expect("overwrites");
        let data = std::fs::read(external_data_path(&path)).expect("side file");
        let bytes = std::fs::read(&path).expect("model");
        assert_eq!(read_back(&bytes, &data), m.into_proto());
    }
}
