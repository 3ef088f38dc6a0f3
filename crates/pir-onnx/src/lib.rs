//! Export of PIR programs (Paddle models) to ONNX, without Paddle.
//!
//! [`export`] turns a [`Program`] whose parameters are bound (see
//! `pir_params::bound`) into an ONNX [`proto::ModelProto`]: feeds
//! (`pd_op.data`) become graph inputs named by their feed names, with the
//! unknown dims named (`batch` for a leading one, else `<feed>_<axis>`);
//! fetches (`pd_op.fetch`) graph outputs named by their fetch names;
//! parameters initializers named by their parameter names; every other op
//! goes through the mapper its name has in `mappers::TABLE` (one mapper per
//! op family), `pd_op.if` to `If`, `pd_op.while` to `Loop`, tensor arrays to
//! ONNX sequences, `pd_op.rnn` to `LSTM`/`GRU`/`RNN`. Intermediate values
//! with a tensor type get `value_info`.
//!
//! Before any node is built, every op of the program (nested blocks
//! included) is checked for a mapping: ops without one make an
//! [`ExportError::UnmappedOps`] listing each kind with its count and first
//! location, and nothing is exported. [`write_onnx`] writes the file
//! atomically (a temporary file renamed into place), so a failed export
//! never leaves a partial file.
//!
//! [`prepare`] runs the passes an export starts with by default: input
//! shapes fixed (`set_input_shapes`), constant folding and cleanups.
//!
//! ```
//! use pir_onnx::{export, ExportOptions};
//! let ctx = pir_dialects::pd_op_context();
//! let text = r#"{
//!     (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
//!     (%1) = "pd_op.relu" (%0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
//!     (%2) = "pd_op.fetch" (%1) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
//! }"#;
//! let program = pir_core::Program::parse(&ctx, text).unwrap();
//! let model = export(&program, &ExportOptions::default()).unwrap();
//! let graph = model.graph.unwrap();
//! assert_eq!(graph.input[0].name, "x");
//! assert_eq!(graph.output[0].name, "y");
//! assert!(graph.node.iter().any(|n| n.op_type == "Relu"));
//! ```
#![forbid(unsafe_code)]

mod attrs;
mod encode;
mod error;
mod export;
mod hoist;
pub mod mappers;
mod onnx_types;
pub mod proto;
mod proto_values;

use std::path::Path;

use pir_core::{BlockId, OpId, Program};
use rustc_hash::FxHashMap;

pub use encode::{
    external_data_path, write_model, Initializer, Layout, OnnxModel, EXTERNAL_ALIGN,
    EXTERNAL_MIN_BYTES, PROTOBUF_LIMIT,
};
pub use error::{ExportError, Unmapped};
use export::Exporter;
use proto::{ModelProto, OperatorSetIdProto, ValueInfoProto};

/// The opset written unless another is asked for.
pub const DEFAULT_OPSET: i64 = 17;
/// The lowest opset written.
pub const MIN_OPSET: i64 = 13;
/// The highest opset written.
pub const MAX_OPSET: i64 = 21;

/// How to export.
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// The ONNX opset (13 to 21).
    pub opset: i64,
    /// Whether intermediate values get `value_info` (their Paddle types).
    pub value_info: bool,
    /// Whether the program's declared shapes are right, so outputs and
    /// `value_info` may state them. Translations of legacy programs carry
    /// the shapes their variables declared, which are sometimes stale: then
    /// outputs state element types and ranks only, and there is no
    /// `value_info`.
    pub trust_shapes: bool,
    /// Whether the elements of the initializers go to a side file
    /// (`Y.onnx.data`, ONNX external data) even when the model would fit
    /// in one file; they do anyway when it would reach 2 GB.
    pub external_data: bool,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            opset: DEFAULT_OPSET,
            value_info: true,
            trust_shapes: true,
            external_data: false,
        }
    }
}

/// The IR version that goes with an opset (the lowest IR version whose
/// readers know that opset).
pub fn ir_version_for(opset: i64) -> i64 {
    match opset {
        ..=14 => 7,
        15..=18 => 8,
        19..=20 => 9,
        _ => 10,
    }
}

/// Ops the walker handles itself (no mapper).
const STRUCTURAL: [&str; 8] = [
    "builtin.parameter",
    "builtin.slice",
    "pd_op.feed",
    "builtin.combine",
    "builtin.split",
    "pd_op.data",
    "pd_op.fetch",
    "cf.yield",
];

/// Every op kind of `program` (nested blocks included) without a mapping:
/// each with its count and first location, in order of first appearance.
/// An op that has a mapping but meets a complex tensor where the exporter
/// carries none (see `mappers::complex`) counts as `NAME on complex
/// tensors`.
pub fn unmapped_ops(program: &Program) -> Vec<Unmapped> {
    let table = mappers::table();
    let mut found: Vec<Unmapped> = Vec::new();
    let mut index: FxHashMap<String, usize> = FxHashMap::default();
    let mut stack = vec![program.top_block()];
    let mut order = Vec::new();
    while let Some(block) = stack.pop() {
        for op in program.block_ops(block) {
            order.push(op);
            for region in program.regions(op) {
                stack.extend(program.region_blocks(region).iter().copied());
            }
        }
    }
    for op in order {
        let name = program.op_name_str(op);
        let name = if !table.contains_key(name) && !STRUCTURAL.contains(&name) {
            name.to_string()
        } else if mappers::complex::misplaced(program, op) {
            format!("{name} on complex tensors")
        } else {
            continue;
        };
        match index.get(&name) {
            Some(&i) => found[i].count += 1,
            None => {
                index.insert(name.clone(), found.len());
                found.push(Unmapped {
                    op: name,
                    count: 1,
                    first: Exporter::location_of(program, op),
                });
            }
        }
    }
    found
}

/// Exports `program` (its parameters bound) to an ONNX model whose
/// initializers read the parameters' loaded bytes (see [`OnnxModel`]).
pub fn export_model<'p>(
    program: &'p Program,
    options: &ExportOptions,
) -> Result<OnnxModel<'p>, ExportError> {
    if !(MIN_OPSET..=MAX_OPSET).contains(&options.opset) {
        return Err(ExportError::Opset(options.opset));
    }
    let unmapped = unmapped_ops(program);
    if !unmapped.is_empty() {
        return Err(ExportError::UnmappedOps(unmapped));
    }
    let mut x = Exporter::new(program, options.opset, options.value_info);
    x.trust_shapes = options.trust_shapes;
    export_block(&mut x, program.top_block())?;
    let (mut graph, initializers) = x.finish();
    if graph.output.is_empty() {
        return Err(ExportError::NoOutputs);
    }
    graph.name = "pir".into();
    Ok(OnnxModel {
        model: ModelProto {
            ir_version: ir_version_for(options.opset),
            opset_import: vec![OperatorSetIdProto {
                domain: String::new(),
                version: options.opset,
            }],
            producer_name: "pir".into(),
            producer_version: env!("CARGO_PKG_VERSION").into(),
            graph: None,
            ..Default::default()
        },
        graph,
        initializers,
    })
}

/// Exports `program` (its parameters bound) to one ONNX message, the
/// parameters' elements copied into it. Past 2 GB it would not encode:
/// [`ExportError::TooLarge`] (write such models with [`write_onnx`]).
pub fn export(program: &Program, options: &ExportOptions) -> Result<ModelProto, ExportError> {
    let model = export_model(program, options)?;
    inline_layout(&model)?;
    Ok(model.into_proto())
}

/// The layout of `model` as one file, or [`ExportError::TooLarge`].
fn inline_layout(model: &OnnxModel<'_>) -> Result<Layout, ExportError> {
    let layout = model.layout(false, "", u64::MAX)?;
    if layout.model_len >= PROTOBUF_LIMIT {
        return Err(ExportError::TooLarge(layout.model_len));
    }
    Ok(layout)
}

/// The ONNX bytes of `program` (one file, no external data).
pub fn export_bytes(program: &Program, options: &ExportOptions) -> Result<Vec<u8>, ExportError> {
    let model = export_model(program, options)?;
    let layout = inline_layout(&model)?;
    Ok(model.model_bytes(&layout))
}

/// Exports `program` and writes it to `path` atomically (see
/// [`write_model`]); nothing is written when the export fails.
pub fn write_onnx(
    program: &Program,
    options: &ExportOptions,
    path: &Path,
    overwrite: bool,
) -> Result<(), ExportError> {
    let model = export_model(program, options)?;
    write_model(&model, path, overwrite, options.external_data)?;
    Ok(())
}

/// The passes an export runs first (unless asked not to): constant
/// folding and the cleanups around it.
pub const PREPARE_PIPELINE: &str = "identity_op_clean,constant_folding,canonicalize,cse,dce";

/// Prepares `program` for export: fixed dims for the inputs named in
/// `input_shapes` (followed through the program by type inference), then,
/// when `optimize`, [`PREPARE_PIPELINE`].
pub fn prepare(
    program: &mut Program,
    input_shapes: &[(String, Vec<i64>)],
    optimize: bool,
) -> Result<(), ExportError> {
    let mut parts = Vec::new();
    if !input_shapes.is_empty() {
        parts.push(format!(
            "{}{{shapes={}}}",
            pir_pass::transforms::set_input_shapes::INFO.argument,
            pir_pass::transforms::set_input_shapes::option_text(input_shapes)
        ));
    }
    if optimize {
        parts.push(PREPARE_PIPELINE.to_string());
    }
    if parts.is_empty() {
        return Ok(());
    }
    let mut pm = pir_pass::PassManager::parse(&parts.join(","))
        .map_err(|e| ExportError::Prepare(e.to_string()))?;
    pm.run(program)
        .map_err(|e| ExportError::Prepare(e.to_string()))?;
    Ok(())
}

/// Re-infers the result types of every op (nested blocks included, in
/// program order) with `pir_infer`, keeping the declared type of results
/// whose op has no inference or fails it. For translated legacy programs,
/// whose declared shapes come from the legacy variables and are sometimes
/// stale. Returns how many result types changed.
pub fn reinfer_types(program: &mut Program) -> usize {
    let inferer = pir_infer::Inferer::shared(program.ctx_arc());
    let mut changed = 0;
    let mut stack = vec![program.top_block()];
    let mut visited = 0usize;
    while let Some(block) = stack.pop() {
        let ops: Vec<OpId> = program.block_ops(block).collect();
        for op in ops {
            visited += 1;
            if visited > 10_000_000 {
                return changed;
            }
            let inferred = match kernel_type(program, op) {
                Some(ty) => Ok(vec![ty]),
                None => inferer.infer(program, op),
            };
            if let Ok(types) = inferred {
                for (i, ty) in types.into_iter().enumerate() {
                    if i >= program.num_results(op) || ty.is_null() {
                        continue;
                    }
                    let v = program.result(op, i);
                    if !informative(program, ty, program.value_type(v)) {
                        continue;
                    }
                    let ty = with_declared_dtype(program, ty, program.value_type(v));
                    if program.value_type(v) != ty {
                        program.set_value_type(v, ty);
                        changed += 1;
                    }
                }
            }
            let blocks: Vec<BlockId> = program
                .regions(op)
                .flat_map(|r| program.region_blocks(r).to_vec())
                .collect();
            // Nested blocks before the ops after their holder: pushed in
            // reverse so the first is visited first.
            stack.extend(blocks.into_iter().rev());
        }
    }
    changed
}

/// The result type of `op` where Paddle's InferMeta states another than
/// its kernel computes: `slogdet` (typed as its input by
/// `UnchangedInferMeta`) gives `[2, batch...]` (sign and log-magnitude).
fn kernel_type(program: &Program, op: OpId) -> Option<pir_core::Type> {
    use pir_core::builtin::DenseTensorType;
    if program.op_name_str(op) != "pd_op.slogdet" || program.num_results(op) != 1 {
        return None;
    }
    let ctx = program.ctx();
    let input = program.operand(op, 0)?;
    let t = ctx.type_as::<DenseTensorType>(program.value_type(input))?;
    let batch = t.dims.len().checked_sub(2)?;
    let mut dims = vec![2];
    dims.extend_from_slice(&t.dims[..batch]);
    Some(ctx.intern_type(DenseTensorType {
        dims: dims.into(),
        ..t.clone()
    }))
}

/// `inferred` with the element type of `declared` when both are dense
/// tensors: the variables of a legacy program state their dtypes rightly,
/// while inference reports float32 where Paddle's InferMeta leaves the
/// dtype unset (`unique`, `equal_all`, ...); only dims go stale.
fn with_declared_dtype(
    program: &Program,
    inferred: pir_core::Type,
    declared: pir_core::Type,
) -> pir_core::Type {
    use pir_core::builtin::DenseTensorType;
    let ctx = program.ctx();
    match (
        ctx.type_as::<DenseTensorType>(inferred),
        ctx.type_as::<DenseTensorType>(declared),
    ) {
        (Some(i), Some(d)) if i.dtype != d.dtype => ctx.intern_type(DenseTensorType {
            dtype: d.dtype,
            ..i.clone()
        }),
        _ => inferred,
    }
}

/// Whether an inferred type says more than the declared one: not when
/// every inferred dim is unknown and the declared rank differs (inference
/// that could not tell the rank, e.g. a shape given as a list of tensors),
/// unless the inferred type is 0-d.
fn informative(program: &Program, inferred: pir_core::Type, declared: pir_core::Type) -> bool {
    use pir_core::builtin::DenseTensorType;
    let ctx = program.ctx();
    match (
        ctx.type_as::<DenseTensorType>(inferred),
        ctx.type_as::<DenseTensorType>(declared),
    ) {
        // A 0-d result is a known rank (`det`, `dist`), not an unknown one.
        (Some(i), Some(d)) => {
            i.dims.is_empty() || !(i.dims.iter().all(|&x| x < 0) && i.dims.len() != d.dims.len())
        }
        _ => true,
    }
}

/// Maps the ops of `block` into the graph on top of the exporter's stack.
pub(crate) fn export_block(x: &mut Exporter<'_>, block: BlockId) -> Result<(), ExportError> {
    let table = mappers::table();
    let ops: Vec<OpId> = x.p.block_ops(block).collect();
    for op in ops {
        x.op = op;
        x.before_op();
        let name = x.p.op_name_str(op);
        match name {
            "builtin.parameter" => parameter(x)?,
            "pd_op.data" | "pd_op.feed" => data(x)?,
            "pd_op.fetch" => fetch(x)?,
            "builtin.combine" => {
                let names = (0..x.num_operands())
                    .map(|i| x.input_or_empty(i))
                    .collect::<Result<Vec<_>, _>>()?;
                let v = x.result(0).ok_or_else(|| x.unsupported("no result"))?;
                x.set_vec(v, names);
            }
            "builtin.split" => {
                let names = x.input_vec(0)?;
                for (i, n) in names.into_iter().enumerate().take(x.p.num_results(op)) {
                    x.alias_out(i, n);
                }
            }
            "builtin.slice" => {
                let index = x.attrs().i64_or("index", 0)?;
                let names = x.input_vec(0)?;
                let name = usize::try_from(index)
                    .ok()
                    .and_then(|i| names.get(i).cloned())
                    .ok_or_else(|| x.unsupported(format!("index {index} out of range")))?;
                x.alias_out(0, name);
            }
            "cf.yield" => {}
            _ => {
                let mapper = table.get(name).ok_or_else(|| {
                    ExportError::UnmappedOps(vec![Unmapped {
                        op: name.to_string(),
                        count: 1,
                        first: Exporter::location_of(x.p, op),
                    }])
                })?;
                mapper(x)?;
            }
        }
        x.after_op();
    }
    Ok(())
}

fn parameter(x: &mut Exporter<'_>) -> Result<(), ExportError> {
    let name = x.attrs().str_or("parameter_name", "")?;
    let v = x.result(0).ok_or_else(|| x.unsupported("no result"))?;
    match pir_params::bound::tensor(x.p, &name) {
        Some(t) => {
            let data_type = x.onnx_type(t.dtype())? as i32;
            if matches!(
                t.dtype(),
                pir_params::DType::Int32 | pir_params::DType::Int64
            ) && t.numel() <= 64
            {
                let values: Vec<f64> = match t.dtype() {
                    pir_params::DType::Int32 => t
                        .to_vec::<i32>()
                        .unwrap_or_default()
                        .into_iter()
                        .map(f64::from)
                        .collect(),
                    _ => t
                        .to_vec::<i64>()
                        .unwrap_or_default()
                        .into_iter()
                        .map(|v| v as f64)
                        .collect(),
                };
                x.set_known(v, export::Known { values });
            }
            x.lazy_parameter(
                proto::TensorProto {
                    dims: t.dims().to_vec(),
                    data_type,
                    name: name.clone(),
                    ..Default::default()
                },
                t.bytes(),
            );
            x.bind(v, name);
        }
        None => x.set_missing(v, name),
    }
    Ok(())
}

fn data(x: &mut Exporter<'_>) -> Result<(), ExportError> {
    let name = x.attrs().str_or("name", "")?;
    let v = x.result(0).ok_or_else(|| x.unsupported("no result"))?;
    let ty = x.p.value_type(v);
    let feed = name.clone();
    let tp = x
        .type_proto(ty, &|axis| {
            Some(if axis == 0 {
                "batch".to_string()
            } else {
                format!("{feed}_{axis}")
            })
        })
        .ok_or_else(|| x.unsupported("a feed that is not a tensor of an ONNX dtype"))?;
    x.graph_input(ValueInfoProto {
        name: name.clone(),
        r#type: Some(tp),
        doc_string: String::new(),
    });
    x.bind(v, name);
    Ok(())
}

fn fetch(x: &mut Exporter<'_>) -> Result<(), ExportError> {
    let name = x.attrs().str_or("name", "")?;
    let input = x.input(0)?;
    let ty = x
        .operand(0)
        .map(|v| x.value_type(v))
        .ok_or_else(|| x.unsupported("no operand"))?;
    x.node("Identity", &[&input], &[&name], vec![]);
    let tp = x
        .result_type_proto(ty)
        .ok_or_else(|| x.unsupported("an output that is not a tensor of an ONNX dtype"))?;
    x.graph_output(ValueInfoProto {
        name,
        r#type: Some(tp),
        doc_string: String::new(),
    });
    Ok(())
}
