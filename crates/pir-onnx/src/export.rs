//! The exporter's state: the ONNX graphs being built, the ONNX name of each
//! program value, constants whose values are known, and the helpers mappers
//! build nodes with (how it reads Paddle types is `crate::onnx_types`).
//!
//! Values are named `pir_v<N>` (their index in the program), helper values a
//! mapper adds `pir_t<N>`; feeds keep their feed names, parameters their
//! parameter names and outputs their fetch names. An in-place op renames the
//! value it writes to its result's name, so later readers of the written
//! value read the new one (ONNX values are immutable).

use pir_core::builtin::DenseTensorType;
use pir_core::entity::EntityId;
use pir_core::{OpId, Program, Type, ValueId};
use pir_params::DType;
use rustc_hash::FxHashMap;

use crate::attrs::{attrs, Attrs};
use crate::encode::Initializer;
use crate::proto::{AttributeProto, DataType, GraphProto, NodeProto, TensorProto, ValueInfoProto};
use crate::ExportError;

pub(crate) use crate::proto_values::{
    a_float, a_graph, a_int, a_ints, a_str, a_tensor, encode_values, onnx_dtype,
};

/// A constant whose elements the exporter knows (from `full`,
/// `full_int_array`, `assign_value` or an integer parameter).
#[derive(Clone, Debug)]
pub(crate) struct Known {
    pub values: Vec<f64>,
}

/// The state of one export.
pub(crate) struct Exporter<'p> {
    /// The program being exported.
    pub p: &'p Program,
    /// The opset written.
    pub opset: i64,
    names: FxHashMap<ValueId, String>,
    vectors: FxHashMap<ValueId, Vec<String>>,
    known: FxHashMap<ValueId, Known>,
    missing: FxHashMap<ValueId, String>,
    /// Graphs under construction: the main graph first, then nested
    /// subgraphs (`If` branches, `Loop` bodies).
    graphs: Vec<GraphProto>,
    pub(crate) initializers: Vec<Initializer<'p>>,
    /// Constants and parameters not read yet, by name: stored when first
    /// read, so unread ones (a dropout state, a folded scale) are left out.
    pending: FxHashMap<String, Initializer<'p>>,
    int_constants: FxHashMap<Vec<i64>, String>,
    temps: usize,
    /// The op being mapped.
    pub op: OpId,
    value_info: bool,
    /// See `ExportOptions::trust_shapes`.
    pub trust_shapes: bool,
    /// The values whose Paddle type may be wrong: results of ops whose
    /// Paddle type is known to be wrong (`Exporter::shape_unknown`) and
    /// every value computed from one. They get no `value_info`.
    rank_unsure: rustc_hash::FxHashSet<ValueId>,
    skip_value_info: bool,
    written_results: Vec<ValueId>,
    /// The types of values whose Paddle type states another dtype or rank
    /// than the kernel computes (see `Exporter::retype_result`).
    retyped: FxHashMap<ValueId, Type>,
}

impl<'p> Exporter<'p> {
    pub fn new(p: &'p Program, opset: i64, value_info: bool) -> Self {
        Exporter {
            p,
            opset,
            names: FxHashMap::default(),
            vectors: FxHashMap::default(),
            known: FxHashMap::default(),
            missing: FxHashMap::default(),
            graphs: vec![GraphProto::default()],
            initializers: Vec::new(),
            pending: FxHashMap::default(),
            int_constants: FxHashMap::default(),
            temps: 0,
            op: p.module_op(),
            value_info,
            trust_shapes: true,
            rank_unsure: Default::default(),
            skip_value_info: false,
            written_results: Vec::new(),
            retyped: FxHashMap::default(),
        }
    }

    /// The name of the op being mapped.
    pub fn op_name(&self) -> &'p str {
        self.p.op_name_str(self.op)
    }

    /// Where op `op` is, for messages: its index in its block, and the op
    /// holding that block, up to the top block.
    pub fn location_of(p: &Program, op: OpId) -> String {
        let mut parts = Vec::new();
        let mut cur = op;
        for _ in 0..64 {
            let Some(block) = p.op_parent_block(cur) else {
                break;
            };
            let index = p.block_ops(block).position(|o| o == cur).unwrap_or(0);
            match p.block_parent_op(block) {
                Some(parent) if parent != p.module_op() => {
                    let region = p
                        .block_parent_region(block)
                        .and_then(|r| p.regions(parent).position(|x| x == r))
                        .unwrap_or(0);
                    parts.push(format!(
                        "op {index} of region {region} of `{}`",
                        p.op_name_str(parent)
                    ));
                    cur = parent;
                }
                _ => {
                    parts.push(format!("op {index} of the top block"));
                    break;
                }
            }
        }
        parts.join(", in ")
    }

    /// An error about the op being mapped.
    pub fn unsupported(&self, message: impl Into<String>) -> ExportError {
        ExportError::Unsupported {
            op: self.op_name().to_string(),
            location: Self::location_of(self.p, self.op),
            message: message.into(),
        }
    }

    /// An error unless the opset is at least `min` (`what` needs it).
    pub fn need_opset(&self, min: i64, what: &str) -> Result<(), ExportError> {
        if self.opset >= min {
            Ok(())
        } else {
            Err(self.unsupported(format!("{what} needs opset {min} or later")))
        }
    }

    /// The op's attributes.
    pub fn attrs(&self) -> Attrs<'p> {
        attrs(self.p, self.op)
    }

    // ---- values ----------------------------------------------------------

    /// The value of operand `i`, `None` when absent (a null optional operand).
    pub fn operand(&self, i: usize) -> Option<ValueId> {
        if i >= self.p.num_operands(self.op) {
            return None;
        }
        self.p.operand(self.op, i)
    }

    /// The number of operands.
    pub fn num_operands(&self) -> usize {
        self.p.num_operands(self.op)
    }

    /// Whether operand `i` is present.
    pub fn has_input(&self, i: usize) -> bool {
        self.operand(i).is_some()
    }

    /// The ONNX name of value `v`.
    pub fn name_of(&self, v: ValueId) -> Result<String, ExportError> {
        if let Some(param) = self.missing.get(&v) {
            return Err(ExportError::MissingParameter(param.clone()));
        }
        self.names
            .get(&v)
            .cloned()
            .ok_or_else(|| ExportError::UndefinedValue {
                op: self.op_name().to_string(),
                location: Self::location_of(self.p, self.op),
            })
    }

    /// The ONNX name of operand `i` (which must be present).
    pub fn input(&self, i: usize) -> Result<String, ExportError> {
        let v = self
            .operand(i)
            .ok_or_else(|| self.unsupported(format!("operand {i} is absent")))?;
        self.name_of(v)
    }

    /// The ONNX name of operand `i`, or `""` (ONNX's absent input) when
    /// the operand is absent.
    pub fn input_or_empty(&self, i: usize) -> Result<String, ExportError> {
        match self.operand(i) {
            None => Ok(String::new()),
            Some(v) => self.name_of(v),
        }
    }

    /// The ONNX names of the tensors of vector operand `i`.
    pub fn input_vec(&self, i: usize) -> Result<Vec<String>, ExportError> {
        let v = self
            .operand(i)
            .ok_or_else(|| self.unsupported(format!("operand {i} is absent")))?;
        self.vec_of(v)
    }

    /// The ONNX names of the tensors of vector value `v`.
    pub fn vec_of(&self, v: ValueId) -> Result<Vec<String>, ExportError> {
        self.vectors
            .get(&v)
            .cloned()
            .ok_or_else(|| self.unsupported("a vector operand not made by builtin.combine"))
    }

    /// Records the names of the tensors of vector value `v`.
    pub fn set_vec(&mut self, v: ValueId, names: Vec<String>) {
        self.vectors.insert(v, names);
    }

    /// The types of the elements of vector operand `i`.
    pub fn vec_types(&self, i: usize) -> Vec<Type> {
        let Some(v) = self.operand(i) else {
            return Vec::new();
        };
        let ty = self.p.value_type(v);
        self.p
            .ctx()
            .type_as::<pir_core::builtin::VectorType>(ty)
            .map(|t| t.0.to_vec())
            .unwrap_or_default()
    }

    /// Names result `i` of the op (`pir_v<N>`) and returns the name.
    pub fn out(&mut self, i: usize) -> String {
        let Some(v) = self.result(i) else {
            // No such result: the node's output goes unread.
            return self.tmp();
        };
        let name = format!("pir_v{}", v.index());
        self.names.insert(v, name.clone());
        self.written_results.push(v);
        name
    }

    /// Result `i` of the op is the ONNX value `name`, copied by an
    /// `Identity` node so that the result keeps its own name (and its
    /// `value_info`) even when `name` is a graph input or another result.
    pub fn identity_out(&mut self, i: usize, name: &str) {
        let out = self.out(i);
        self.node("Identity", &[name], &[&out], vec![]);
    }

    /// The last step of most mappers: result 0 of the op is the ONNX value
    /// `name` (see [`Exporter::identity_out`]).
    pub fn finish_with(&mut self, name: &str) -> Result<(), ExportError> {
        self.identity_out(0, name);
        Ok(())
    }

    /// Makes result `i` of the op another name for an existing ONNX value
    /// (no node).
    pub fn alias_out(&mut self, i: usize, name: String) {
        if let Some(v) = self.result(i) {
            self.names.insert(v, name);
        }
    }

    /// Result `i` of the op, if it has one.
    pub fn result(&self, i: usize) -> Option<ValueId> {
        (i < self.p.num_results(self.op)).then(|| self.p.result(self.op, i))
    }

    /// Gives value `v` the ONNX name `name`.
    pub fn bind(&mut self, v: ValueId, name: String) {
        self.names.insert(v, name);
    }

    /// After an in-place op: readers of operand `i` from now on read `name`.
    pub fn rename_operand(&mut self, i: usize, name: String) {
        if let Some(v) = self.operand(i) {
            self.names.insert(v, name);
        }
    }

    /// Leaves the results of this op out of `value_info` (their Paddle type
    /// is not what the ONNX node computes, e.g. a placeholder).
    pub fn no_value_info(&mut self) {
        self.skip_value_info = true;
    }

    /// The Paddle types of this op's results are wrong even in a program
    /// Paddle wrote (its InferMeta states another shape, e.g. `slogdet`'s
    /// `UnchangedInferMeta`): neither they nor the values computed from
    /// them get `value_info`.
    pub fn shape_unknown(&mut self) {
        self.skip_value_info = true;
        let results: Vec<ValueId> = self.p.results(self.op).collect();
        self.rank_unsure.extend(results);
    }

    /// Result `i` of the op is a `dtype` tensor of `dims` although its Paddle
    /// type says otherwise (Paddle's InferMeta states another dtype than its
    /// kernel computes, e.g. `viterbi_decode`'s scores typed as the
    /// lengths): a graph output of it states this type, and neither it nor
    /// the values computed from it get `value_info`.
    pub fn retype_result(
        &mut self,
        i: usize,
        dtype: DType,
        dims: &[i64],
    ) -> Result<(), ExportError> {
        let v = self
            .result(i)
            .ok_or_else(|| self.unsupported(format!("no result {i}")))?;
        let ty = pir_params::bound::tensor_type(self.p.ctx(), dtype, dims)
            .map_err(|e| self.unsupported(e.to_string()))?;
        self.retyped.insert(v, ty);
        self.skip_value_info = true;
        self.rank_unsure.insert(v);
        Ok(())
    }

    /// The type of value `v`: the one [`Exporter::retype_result`] gave it,
    /// else its Paddle type.
    pub fn value_type(&self, v: ValueId) -> Type {
        self.retyped
            .get(&v)
            .copied()
            .unwrap_or_else(|| self.p.value_type(v))
    }

    /// Called by the walker before each op: an op reading a value of
    /// unsure rank has results of unsure rank.
    pub fn before_op(&mut self) {
        if self.rank_unsure.is_empty() {
            return;
        }
        let op = self.op;
        if self
            .p
            .operands(op)
            .any(|v| v.is_some_and(|v| self.rank_unsure.contains(&v)))
        {
            self.skip_value_info = true;
            self.rank_unsure.extend(self.p.results(op));
        }
    }

    /// Records a value whose elements are known.
    pub fn set_known(&mut self, v: ValueId, k: Known) {
        self.known.insert(v, k);
    }

    /// Records a parameter without data: an error only when something reads it.
    pub fn set_missing(&mut self, v: ValueId, name: String) {
        self.missing.insert(v, name);
    }

    /// The elements of operand `i` when they are known constants.
    pub fn known(&self, i: usize) -> Option<&Known> {
        self.known.get(&self.operand(i)?)
    }

    /// The integers of operand `i` when they are known constants.
    pub fn known_ints(&self, i: usize) -> Option<Vec<i64>> {
        Some(self.known(i)?.values.iter().map(|&v| v as i64).collect())
    }

    /// The integer list of an `IntArray` argument: operand `i` when given
    /// and constant, else attribute `attr`.
    pub fn int_array(&self, i: usize, attr: &str) -> Result<Option<Vec<i64>>, ExportError> {
        if self.has_input(i) {
            if let Some(v) = self.operand(i).and_then(|v| self.vectors.get(&v)) {
                // A combine of scalars: known only when each one is.
                let _ = v;
                let vals: Option<Vec<i64>> = self
                    .operand(i)
                    .and_then(|v| self.p.defining_op(v))
                    .filter(|&d| self.p.op_name_str(d) == "builtin.combine")
                    .and_then(|d| {
                        self.p
                            .operands(d)
                            .map(|o| {
                                let k = self.known.get(&o?)?;
                                (k.values.len() == 1).then(|| k.values[0] as i64)
                            })
                            .collect()
                    });
                return Ok(vals);
            }
            return Ok(self.known_ints(i));
        }
        self.attrs().ints_opt(attr)
    }

    /// The ONNX name of an `IntArray` argument as an int64 1-D tensor:
    /// operand `i` (a tensor cast to int64, or a combine of scalars
    /// concatenated), or attribute `attr` as a constant.
    pub fn int_array_input(&mut self, i: usize, attr: &str) -> Result<String, ExportError> {
        if let Some(v) = self.operand(i) {
            if self.vectors.contains_key(&v) {
                let parts = self.vec_of(v)?;
                let types = self.vec_types(i);
                if types.len() != parts.len() || parts.is_empty() {
                    return Err(self.unsupported(format!("operand {i}: an empty or mistyped list")));
                }
                let mut pieces = Vec::new();
                for (name, ty) in parts.iter().zip(&types) {
                    let n = self.cast_to(name, *ty, DType::Int64)?;
                    // Scalars and 1-D pieces alike become 1-D.
                    let shape = self.const_i64s(&[-1]);
                    pieces.push(self.node1("Reshape", &[&n, &shape], vec![]));
                }
                let refs: Vec<&str> = pieces.iter().map(String::as_str).collect();
                return Ok(self.node1("Concat", &refs, vec![a_int("axis", 0)]));
            }
            let name = self.name_of(v)?;
            let ty = self.p.value_type(v);
            return self.cast_to(&name, ty, DType::Int64);
        }
        let ints = self.attrs().ints(attr)?;
        Ok(self.const_i64s(&ints))
    }

    /// `name` (of type `ty`) cast to `to` when its dtype differs.
    pub fn cast_to(&mut self, name: &str, ty: Type, to: DType) -> Result<String, ExportError> {
        match self.dtype_of_type(ty) {
            Some(d) if d == to => Ok(name.to_string()),
            _ => {
                let to = self.onnx_type(to)?;
                Ok(self.node1("Cast", &[name], vec![a_int("to", to as i64)]))
            }
        }
    }

    // ---- graphs and nodes -------------------------------------------------

    pub(crate) fn graph(&mut self) -> &mut GraphProto {
        // There is always the main graph.
        let last = self.graphs.len() - 1;
        &mut self.graphs[last]
    }

    /// A fresh helper value name.
    pub fn tmp(&mut self) -> String {
        self.temps += 1;
        format!("pir_t{}", self.temps)
    }

    /// Adds a node.
    pub fn node(
        &mut self,
        op_type: &str,
        inputs: &[&str],
        outputs: &[&str],
        attribute: Vec<AttributeProto>,
    ) {
        self.node_in(op_type, "", inputs, outputs, attribute);
    }

    /// Adds a node of another domain.
    pub fn node_in(
        &mut self,
        op_type: &str,
        domain: &str,
        inputs: &[&str],
        outputs: &[&str],
        attribute: Vec<AttributeProto>,
    ) {
        for input in inputs {
            if let Some(t) = self.pending.remove(*input) {
                self.initializers.push(t);
            }
        }
        let name = format!("{}_{}", op_type, self.graph().node.len());
        let node = NodeProto {
            input: inputs.iter().map(|s| s.to_string()).collect(),
            output: outputs.iter().map(|s| s.to_string()).collect(),
            name,
            op_type: op_type.into(),
            domain: domain.into(),
            attribute,
            doc_string: String::new(),
        };
        self.graph().node.push(node);
    }

    /// Adds a node with one fresh output and returns the output's name.
    pub fn node1(
        &mut self,
        op_type: &str,
        inputs: &[&str],
        attribute: Vec<AttributeProto>,
    ) -> String {
        let out = self.tmp();
        self.node(op_type, inputs, &[&out], attribute);
        out
    }

    /// Adds a graph input.
    pub fn graph_input(&mut self, info: ValueInfoProto) {
        self.graph().input.push(info);
    }

    /// Adds a graph output.
    pub fn graph_output(&mut self, info: ValueInfoProto) {
        self.graph().output.push(info);
    }

    /// Runs `build` with a new graph on top and returns that graph.
    pub fn subgraph(
        &mut self,
        name: &str,
        build: impl FnOnce(&mut Self) -> Result<(), ExportError>,
    ) -> Result<GraphProto, ExportError> {
        self.graphs.push(GraphProto {
            name: name.to_string(),
            ..Default::default()
        });
        let saved_op = self.op;
        // Renames by in-place ops inside the subgraph stay inside it.
        let saved_names = self.names.clone();
        let result = build(self);
        self.op = saved_op;
        self.names = saved_names;
        let g = self.graphs.pop().unwrap_or_default();
        result.map(|()| g)
    }

    /// Takes the main graph and the initializers read (a small constant
    /// read in one subgraph only put there: `crate::hoist::place_constants`).
    pub fn finish(mut self) -> (GraphProto, Vec<Initializer<'p>>) {
        let mut g = std::mem::take(&mut self.graphs[0]);
        crate::hoist::place_constants(&mut g, &mut self.initializers);
        (g, self.initializers)
    }

    /// Called by the walker after each op: `value_info` for its results.
    pub fn after_op(&mut self) {
        let results = std::mem::take(&mut self.written_results);
        if self.value_info && self.trust_shapes && !self.skip_value_info {
            for v in results {
                if self.rank_unsure.contains(&v) {
                    continue;
                }
                let Some(name) = self.names.get(&v).cloned() else {
                    continue;
                };
                let ty = self.p.value_type(v);
                if self.p.ctx().type_as::<DenseTensorType>(ty).is_none() {
                    continue;
                }
                if let Some(tp) = self.result_type_proto(ty) {
                    self.graph().value_info.push(ValueInfoProto {
                        name,
                        r#type: Some(tp),
                        doc_string: String::new(),
                    });
                }
            }
        }
        self.skip_value_info = false;
    }

    // ---- constants -------------------------------------------------------

    /// Adds an initializer.
    pub fn initializer(&mut self, t: TensorProto) {
        self.initializers.push(Initializer::owned(t));
    }

    /// Adds an initializer that is stored only if a node reads it.
    pub fn lazy_initializer(&mut self, t: TensorProto) {
        self.pending.insert(t.name.clone(), Initializer::owned(t));
    }

    /// Adds a parameter's initializer, stored only if a node reads it: its
    /// elements stay the parameter's loaded bytes until they are written.
    pub fn lazy_parameter(&mut self, header: TensorProto, data: &'p [u8]) {
        self.pending
            .insert(header.name.clone(), Initializer::borrowed(header, data));
    }

    /// A constant of `dtype` with `dims` and `values`, returned by name.
    pub fn const_values(
        &mut self,
        dtype: DType,
        dims: &[i64],
        values: &[f64],
    ) -> Result<String, ExportError> {
        let raw = encode_values(dtype, values)
            .ok_or_else(|| self.unsupported(format!("a {dtype} constant")))?;
        let name = self.tmp();
        let data_type = self.onnx_type(dtype)? as i32;
        self.initializer(TensorProto {
            dims: dims.to_vec(),
            data_type,
            name: name.clone(),
            raw_data: raw,
            ..Default::default()
        });
        Ok(name)
    }

    /// A 1-D int64 constant (shared by equal ones).
    pub fn const_i64s(&mut self, values: &[i64]) -> String {
        if let Some(n) = self.int_constants.get(values) {
            return n.clone();
        }
        let name = self.tmp();
        self.initializer(TensorProto {
            dims: vec![values.len() as i64],
            data_type: DataType::Int64 as i32,
            name: name.clone(),
            raw_data: values.iter().flat_map(|v| v.to_le_bytes()).collect(),
            ..Default::default()
        });
        self.int_constants.insert(values.to_vec(), name.clone());
        name
    }

    /// A 0-d constant of `dtype`.
    pub fn const_scalar(&mut self, dtype: DType, value: f64) -> Result<String, ExportError> {
        self.const_values(dtype, &[], &[value])
    }

    // ---- shape helpers ----------------------------------------------------

    /// `x` with the axes `axes` removed (they must have size 1).
    pub fn squeeze(&mut self, x: &str, axes: &[i64]) -> String {
        let a = self.const_i64s(axes);
        self.node1("Squeeze", &[x, &a], vec![])
    }

    /// `x` with size-1 axes inserted at `axes`.
    pub fn unsqueeze(&mut self, x: &str, axes: &[i64]) -> String {
        let a = self.const_i64s(axes);
        self.node1("Unsqueeze", &[x, &a], vec![])
    }

    /// `x` reshaped to `shape` (ONNX semantics: 0 copies, -1 infers).
    pub fn reshape(&mut self, x: &str, shape: &[i64]) -> String {
        let s = self.const_i64s(shape);
        self.node1("Reshape", &[x, &s], vec![])
    }

    /// `x` cast to `to`.
    pub fn cast(&mut self, x: &str, to: DType) -> Result<String, ExportError> {
        let to = self.onnx_type(to)?;
        Ok(self.node1("Cast", &[x], vec![a_int("to", to as i64)]))
    }

    /// Result `i` of the op from `x`, cast to the result's dtype.
    pub fn cast_out(&mut self, i: usize, x: &str) -> Result<(), ExportError> {
        let to = self.onnx_type(self.out_dtype(i)?)?;
        let out = self.out(i);
        self.node("Cast", &[x], &[&out], vec![a_int("to", to as i64)]);
        Ok(())
    }
}
