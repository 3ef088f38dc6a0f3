//! Control flow and tensor arrays: `if` → `If`, `while` → `Loop`,
//! `select_input` → `If`, tensor arrays → ONNX sequences, and the in-place
//! helpers loops use (`increment_`, `assign_out_`).

use pir_core::{BlockId, OpId, ValueDef, ValueId};
use pir_params::DType;

use crate::export::{a_graph, a_int, Exporter};
use crate::proto::{type_proto, TypeProto, ValueInfoProto};
use crate::ExportError;

type R = Result<(), ExportError>;

/// The values `cf.yield` ends `block` with.
fn yielded(
    x: &Exporter<'_>,
    block: BlockId,
) -> Result<Vec<Option<pir_core::ValueId>>, ExportError> {
    let last: Option<OpId> = x.p.block_last_op(block);
    match last {
        Some(op) if x.p.op_name_str(op) == "cf.yield" => Ok(x.p.operands(op).collect()),
        _ => Err(x.unsupported("a block that does not end with cf.yield")),
    }
}

/// Whether value `v` is defined inside op `holder` (by one of its nested
/// ops, or as an argument of one of its blocks).
fn defined_inside(x: &Exporter<'_>, v: ValueId, holder: OpId) -> bool {
    let owner = match x.p.value_def(v) {
        ValueDef::Result { op, .. } => Some(op),
        _ => {
            x.p.value_parent_block(v)
                .and_then(|b| x.p.block_parent_op(b))
        }
    };
    owner.is_some_and(|o| o == holder || x.p.is_proper_ancestor(holder, o))
}

/// The values defined outside `holder` that in-place ops inside it write
/// (in first-write order): ONNX values are immutable, so each becomes an
/// extra output of the `If`/`Loop` (and a carried value of a `Loop`).
fn written_outer_values(x: &Exporter<'_>, holder: OpId) -> Vec<ValueId> {
    let mut found = Vec::new();
    let mut stack: Vec<BlockId> =
        x.p.regions(holder)
            .flat_map(|r| x.p.region_blocks(r).to_vec())
            .collect();
    let mut guard = 0usize;
    while let Some(block) = stack.pop() {
        for op in x.p.block_ops(block) {
            guard += 1;
            if guard > 1_000_000 {
                return found;
            }
            let name = x.p.op_name_str(op);
            let written = if name == "pd_op.assign_out_" {
                x.p.operand(op, 1)
            } else if name.ends_with('_') && x.p.num_operands(op) > 0 {
                x.p.operand(op, 0)
            } else {
                None
            };
            if let Some(v) = written {
                if !defined_inside(x, v, holder) && !found.contains(&v) {
                    found.push(v);
                }
            }
            for r in x.p.regions(op) {
                stack.extend(x.p.region_blocks(r).iter().copied());
            }
        }
    }
    found
}

/// A graph output named `name` with the ONNX type of program type `ty`.
fn output_info(x: &Exporter<'_>, name: String, ty: pir_core::Type) -> ValueInfoProto {
    ValueInfoProto {
        name,
        r#type: x.result_type_proto(ty),
        doc_string: String::new(),
    }
}

/// Exports `block` into the current subgraph and makes each yielded value
/// (from `skip` on) a subgraph output, through an `Identity` (ONNX wants
/// outputs made inside the subgraph).
fn block_body(x: &mut Exporter<'_>, block: BlockId, skip: usize, extra: &[ValueId]) -> R {
    crate::export_block(x, block)?;
    let mut values = yielded(x, block)?;
    values.extend(extra.iter().map(|&v| Some(v)));
    for (k, v) in values.into_iter().enumerate().skip(skip) {
        let v = v.ok_or_else(|| x.unsupported("a null yielded value"))?;
        let src = x.name_of(v)?;
        let out = x.tmp();
        x.node("Identity", &[&src], &[&out], vec![]);
        let info = output_info(x, out, x.p.value_type(v));
        let _ = k;
        x.graph_output(info);
    }
    Ok(())
}

/// `if(cond) { then } else { else }`.
pub(crate) fn if_(x: &mut Exporter<'_>) -> R {
    let op = x.op;
    let cond = x.input(0)?;
    let cond = if x.in_dtype(0)? == DType::Bool {
        cond
    } else {
        x.cast(&cond, DType::Bool)?
    };
    let extra = written_outer_values(x, op);
    let regions: Vec<_> = x.p.regions(op).collect();
    if regions.len() != 2 {
        return Err(x.unsupported("an if without two regions"));
    }
    let mut branches = Vec::new();
    for (k, region) in regions.into_iter().enumerate() {
        let block =
            *x.p.region_blocks(region)
                .first()
                .ok_or_else(|| x.unsupported("an empty region"))?;
        let name = if k == 0 { "then" } else { "else" };
        branches.push(x.subgraph(name, |x| block_body(x, block, 0, &extra))?);
    }
    let mut outs: Vec<String> = (0..x.p.num_results(op)).map(|i| x.out(i)).collect();
    for &v in &extra {
        let name = x.tmp();
        outs.push(name.clone());
        x.bind(v, name);
    }
    let refs: Vec<&str> = outs.iter().map(String::as_str).collect();
    let else_branch = branches.pop().unwrap_or_default();
    let then_branch = branches.pop().unwrap_or_default();
    x.node(
        "If",
        &[&cond],
        &refs,
        vec![
            a_graph("then_branch", then_branch),
            a_graph("else_branch", else_branch),
        ],
    );
    Ok(())
}

/// `while(cond, carried...) { body; yield(next_cond, next...) }`.
pub(crate) fn while_(x: &mut Exporter<'_>) -> R {
    let op = x.op;
    let cond = x.input(0)?;
    let n = x.num_operands();
    let mut inits = Vec::new();
    for i in 1..n {
        inits.push(x.input(i)?);
    }
    let region =
        x.p.regions(op)
            .next()
            .ok_or_else(|| x.unsupported("a while without a body"))?;
    let body =
        *x.p.region_blocks(region)
            .first()
            .ok_or_else(|| x.unsupported("an empty body"))?;
    let args: Vec<_> = x.p.block_args(body).to_vec();
    if args.len() != inits.len() {
        return Err(x.unsupported("body arguments do not match the carried values"));
    }
    let extra = written_outer_values(x, op);
    for &v in &extra {
        inits.push(x.name_of(v)?);
    }
    let mut graph = x.subgraph("body", |x| {
        let iter = x.tmp();
        let cond_in = x.tmp();
        x.graph_input(ValueInfoProto {
            name: iter,
            r#type: Some(scalar_type(crate::proto::DataType::Int64)),
            doc_string: String::new(),
        });
        x.graph_input(ValueInfoProto {
            name: cond_in,
            r#type: Some(bool_type()),
            doc_string: String::new(),
        });
        for &arg in args.iter().chain(&extra) {
            let name = x.tmp();
            let info = ValueInfoProto {
                name: name.clone(),
                r#type: x.result_type_proto(x.p.value_type(arg)),
                doc_string: String::new(),
            };
            x.graph_input(info);
            x.bind(arg, name);
        }
        crate::export_block(x, body)?;
        let mut values = yielded(x, body)?;
        values.extend(extra.iter().map(|&v| Some(v)));
        for (k, v) in values.into_iter().enumerate() {
            let v = v.ok_or_else(|| x.unsupported("a null yielded value"))?;
            let mut src = x.name_of(v)?;
            if k == 0 {
                let d = x.dtype_of_type(x.p.value_type(v));
                if d != Some(DType::Bool) {
                    src = x.cast(&src, DType::Bool)?;
                }
            }
            let out = x.tmp();
            x.node("Identity", &[&src], &[&out], vec![]);
            let info = if k == 0 {
                ValueInfoProto {
                    name: out,
                    r#type: Some(bool_type()),
                    doc_string: String::new(),
                }
            } else {
                output_info(x, out, x.p.value_type(v))
            };
            x.graph_output(info);
        }
        Ok(())
    })?;
    let cond = if x.in_dtype(0)? == DType::Bool {
        cond
    } else {
        x.cast(&cond, DType::Bool)?
    };
    // One output per carried value (a while whose results go unread may
    // declare fewer; ONNX wants them all).
    let carried = args.len();
    let mut outs: Vec<String> = (0..carried.max(x.p.num_results(op)))
        .map(|i| x.out(i))
        .collect();
    for &v in &extra {
        let name = x.tmp();
        outs.push(name.clone());
        x.bind(v, name);
    }
    let mut inputs = vec![String::new(), cond];
    inputs.extend(inits);
    let in_refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let out_refs: Vec<&str> = outs.iter().map(String::as_str).collect();
    // Work that is the same at every step runs once, before the loop.
    x.hoist_loop_invariants(&mut graph);
    x.node("Loop", &in_refs, &out_refs, vec![a_graph("body", graph)]);
    Ok(())
}

/// A tensor type of element `d` and unknown shape.
fn scalar_type(d: crate::proto::DataType) -> TypeProto {
    TypeProto {
        value: Some(type_proto::Value::TensorType(type_proto::Tensor {
            elem_type: d as i32,
            shape: Some(crate::proto::TensorShapeProto { dim: vec![] }),
        })),
    }
}

/// A bool tensor of unknown shape (a loop condition: `[]` or `[1]`).
fn bool_type() -> TypeProto {
    TypeProto {
        value: Some(type_proto::Value::TensorType(type_proto::Tensor {
            elem_type: crate::proto::DataType::Bool as i32,
            shape: None,
        })),
    }
}

/// `select_input(mask, in0, in1, ...)`: the input the mask picks.
pub(crate) fn select_input(x: &mut Exporter<'_>) -> R {
    let mask = x.input(0)?;
    let n = x.num_operands() - 1;
    if n != 2 {
        return Err(x.unsupported("select_input of other than two inputs"));
    }
    let a = x.input(1)?;
    let b = x.input(2)?;
    let md = x.in_dtype(0)?;
    let one = x.const_values(md, &[], &[1.0])?;
    let m = x.reshape(&mask, &[]);
    let pick_b = x.node1("Equal", &[&m, &one], vec![]);
    let ty =
        x.p.value_type(x.result(0).ok_or_else(|| x.unsupported("no result"))?);
    let mut branches = Vec::new();
    for src in [b, a] {
        branches.push(x.subgraph("branch", |x| {
            let out = x.tmp();
            x.node("Identity", &[&src], &[&out], vec![]);
            let info = output_info(x, out, ty);
            x.graph_output(info);
            Ok(())
        })?);
    }
    let out = x.out(0);
    let else_branch = branches.pop().unwrap_or_default();
    let then_branch = branches.pop().unwrap_or_default();
    x.node(
        "If",
        &[&pick_b],
        &[&out],
        vec![
            a_graph("then_branch", then_branch),
            a_graph("else_branch", else_branch),
        ],
    );
    Ok(())
}

/// `create_array(dtype)`: an empty sequence.
pub(crate) fn create_array(x: &mut Exporter<'_>) -> R {
    let d = crate::attrs::dtype(&x.attrs(), "dtype")?.unwrap_or(DType::Float32);
    let t = x.onnx_type(d)?;
    let out = x.out(0);
    x.node(
        "SequenceEmpty",
        &[],
        &[&out],
        vec![a_int("dtype", t as i64)],
    );
    Ok(())
}

/// An index operand as an int64 0-d tensor.
/// A subgraph (an `If` branch) of one `op_type` node on `inputs` whose
/// output, of type `ty`, is the graph's output.
fn one_node_graph(
    x: &mut Exporter<'_>,
    name: &str,
    op_type: &str,
    inputs: &[&str],
    ty: &Option<TypeProto>,
) -> Result<crate::proto::GraphProto, ExportError> {
    x.subgraph(name, |x| {
        let out = x.tmp();
        x.node(op_type, inputs, &[&out], vec![]);
        x.graph_output(ValueInfoProto {
            name: out,
            r#type: ty.clone(),
            doc_string: String::new(),
        });
        Ok(())
    })
}

fn index_scalar(x: &mut Exporter<'_>, i: usize) -> Result<String, ExportError> {
    let idx = x.input(i)?;
    let idx = if x.in_dtype(i)? == DType::Int64 {
        idx
    } else {
        x.cast(&idx, DType::Int64)?
    };
    Ok(x.reshape(&idx, &[]))
}

/// `array_write_(array, x, i)`: overwrite position `i` when it exists,
/// else append.
pub(crate) fn array_write(x: &mut Exporter<'_>) -> R {
    // Its `If` passes the sequence through an Identity (opset 14).
    x.need_opset(14, "a tensor array write")?;
    let arr = x.input(0)?;
    let value = x.input(1)?;
    let i = index_scalar(x, 2)?;
    let len = x.node1("SequenceLength", &[&arr], vec![]);
    let inside = x.node1("Less", &[&i, &len], vec![]);
    let arr_ty =
        x.p.value_type(x.result(0).ok_or_else(|| x.unsupported("no result"))?);
    let seq_type = x.type_proto(arr_ty, &|_| None);
    let erased = one_node_graph(x, "erase", "SequenceErase", &[&arr, &i], &seq_type)?;
    let kept = one_node_graph(x, "keep", "Identity", &[&arr], &seq_type)?;
    let base = x.node1(
        "If",
        &[&inside],
        vec![a_graph("then_branch", erased), a_graph("else_branch", kept)],
    );
    let out = x.out(0);
    x.node("SequenceInsert", &[&base, &value, &i], &[&out], vec![]);
    x.rename_operand(0, out);
    x.no_value_info();
    Ok(())
}

/// `array_read(array, i)`.
pub(crate) fn array_read(x: &mut Exporter<'_>) -> R {
    let arr = x.input(0)?;
    let i = index_scalar(x, 1)?;
    let out = x.out(0);
    x.node("SequenceAt", &[&arr, &i], &[&out], vec![]);
    x.no_value_info();
    Ok(())
}

/// `array_length(array)`.
pub(crate) fn array_length(x: &mut Exporter<'_>) -> R {
    let arr = x.input(0)?;
    let n = x.node1("SequenceLength", &[&arr], vec![]);
    let rank = x.out_dims(0)?.len();
    let n = if rank == 1 { x.reshape(&n, &[1]) } else { n };
    x.finish_with(&n)
}

/// `array_to_tensor(array, axis, use_stack)`.
pub(crate) fn array_to_tensor(x: &mut Exporter<'_>) -> R {
    let arr = x.input(0)?;
    let attrs = x.attrs();
    let axis = attrs.i64_or("axis", 0)?;
    let stack = attrs.bool_or("use_stack", false)?;
    let out = x.out(0);
    x.node(
        "ConcatFromSequence",
        &[&arr],
        &[&out],
        vec![a_int("axis", axis), a_int("new_axis", i64::from(stack))],
    );
    x.no_value_info();
    Ok(())
}

/// `increment_(x, value)`.
pub(crate) fn increment(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let v = x.attrs().f64_or("value", 1.0)?;
    let k = x.const_scalar(d, v)?;
    let out = x.out(0);
    x.node("Add", &[&a, &k], &[&out], vec![]);
    if x.op_name().ends_with('_') {
        x.rename_operand(0, out);
    }
    Ok(())
}

/// `assign_out_(x, output)`: `output` takes x's value.
pub(crate) fn assign_out(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let out = x.out(0);
    x.node("Identity", &[&a], &[&out], vec![]);
    x.rename_operand(1, out);
    Ok(())
}
