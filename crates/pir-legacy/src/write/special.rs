//! Ops whose legacy form is not the general one: parameters, feeds and
//! fetches, constants (`full` → `fill_constant`, `full_int_array` →
//! `assign_value`), and the `pd_op` ops whose legacy op differs in name
//! or attributes (`cast`'s two dtypes, `tril_triu`, the reductions'
//! `reduce_all`, `shape64` as `shape` then `cast`, `split_with_num`).

use pir_core::{OpId, ValueId};

use super::attrs::{plain, proto_dtype, to_kind, Plain};
use super::encode::{Op, Value};
use super::folds::Fold;
use super::ops::Made;
use super::vars::element_proto;
use super::{OpFailure, OpResult, Writer};
use crate::compat::LegacyAttrKind;
use crate::desc::List;

/// Ops that make a constant from their attributes alone; written where a
/// reader takes them as a tensor (a legacy op takes most as attributes).
pub fn is_constant(name: &str) -> bool {
    matches!(name, "pd_op.full" | "pd_op.full_int_array")
}

/// PIR attributes [`Writer::fixup`] writes itself, by legacy op type.
pub fn handled_by_fixup(legacy: &str, attr: &str) -> bool {
    matches!(
        (legacy, attr),
        ("cast", "dtype") | ("increment", "value") | ("range", "dtype")
    )
}

/// PIR inputs a legacy op has no slot for and does without (the
/// translation makes them: `rnn`'s dropout state from its output).
pub fn dropped_input(legacy: &str, input: &str) -> bool {
    matches!((legacy, input), ("rnn", "dropout_state_in"))
}

/// Why a `pd_op` op has no Paddle 2.6 form although 2.6 has an op of its
/// name: that op computes something else.
pub fn computes_otherwise(name: &str) -> Option<&'static str> {
    match name {
        "pd_op.round" | "pd_op.round_" => {
            Some("Paddle 2.6's `round` rounds halves away from zero, Paddle 3's to even")
        }
        _ => None,
    }
}

/// PIR inputs a legacy op takes under a slot op-compat does not name:
/// `set_value`'s tensor of values (Paddle's translation dispatches a
/// `set_value` with one to `set_value_with_tensor`).
pub fn input_slot(legacy: &str, input: &str) -> Option<&'static str> {
    match (legacy, input) {
        ("set_value", "values") => Some("ValueTensor"),
        _ => None,
    }
}

/// Legacy reductions (their `reduce_all` follows from `dim`).
const REDUCTIONS: &[&str] = &[
    "reduce_sum",
    "reduce_mean",
    "reduce_max",
    "reduce_min",
    "reduce_prod",
    "reduce_all",
    "reduce_any",
];

impl Writer<'_> {
    /// A parameter: a persistable variable of the top block.
    pub(super) fn parameter(&mut self, op: OpId) -> OpResult {
        let name = self
            .str_attr(op, "parameter_name")
            .ok_or_else(|| OpFailure::from("a parameter without `parameter_name`"))?;
        let r = self
            .result_at(op, 0)
            .ok_or_else(|| OpFailure::from("an op without its result"))?;
        let mut var = self
            .var_desc(&name, self.program.value_type(r))
            .ok_or_else(|| OpFailure::from("a parameter of a type with no legacy variable"))?;
        // A parameter not saved with the model (`persistable:[false]`, a
        // dropout state) is an ordinary variable: Paddle loads every
        // persistable variable from the parameter file.
        var.persistable = first_bool(self, op, "persistable").unwrap_or(true);
        // Paddle 2.6 makes every `is_parameter` variable a persistable
        // `Parameter` when it loads the program.
        var.is_parameter = var.persistable && first_bool(self, op, "is_parameter").unwrap_or(true);
        let trainable = first_bool(self, op, "trainable").unwrap_or(true);
        var.stop_gradient = !trainable;
        self.push_var(0, var);
        self.names.insert(r, name);
        Ok(())
    }

    /// `pd_op.data` / `pd_op.feed`: a `feed` op from the feed list.
    pub(super) fn feed(&mut self, op: OpId, dst: usize) -> OpResult {
        let name = self
            .str_attr(op, "name")
            .ok_or_else(|| OpFailure::from("a feed without `name`"))?;
        let r = self
            .result_at(op, 0)
            .ok_or_else(|| OpFailure::from("an op without its result"))?;
        let mut var = self
            .var_desc(&name, self.program.value_type(r))
            .ok_or_else(|| OpFailure::from("a feed of a type with no legacy variable"))?;
        var.need_check_feed = self.program.op_name_str(op) == "pd_op.data";
        let col = match self
            .program
            .attr(op, "col")
            .and_then(|a| plain(self.ctx, a))
        {
            Some(Plain::Int(c)) => i32::try_from(c).unwrap_or(self.feed_col),
            _ => self.feed_col,
        };
        self.feed_col = self.feed_col.max(col) + 1;
        self.push_var(dst, var);
        self.names.insert(r, name.clone());
        let mut f = Op::new("feed");
        f.set_input("X", vec!["feed".into()]);
        f.set_output("Out", vec![name]);
        f.set_attr("col", Value::Int(col));
        self.blocks[dst].ops.push(f);
        self.has_feed = true;
        Ok(())
    }

    /// `pd_op.fetch`: a `fetch` op into the fetch list.
    pub(super) fn fetch(&mut self, op: OpId, dst: usize) -> OpResult {
        let v = self
            .program
            .operand(op, 0)
            .ok_or_else(|| OpFailure::from("a fetch of nothing"))?;
        let name = self.name_of(v, dst)?;
        let col = match self
            .program
            .attr(op, "col")
            .and_then(|a| plain(self.ctx, a))
        {
            Some(Plain::Int(c)) => i32::try_from(c).unwrap_or(self.fetch_col),
            _ => self.fetch_col,
        };
        self.fetch_col = self.fetch_col.max(col) + 1;
        let mut f = Op::new("fetch");
        f.set_input("X", vec![name]);
        f.set_output("Out", vec!["fetch".into()]);
        f.set_attr("col", Value::Int(col));
        self.blocks[dst].ops.push(f);
        self.has_fetch = true;
        if let Some(r) = self.result_at(op, 0) {
            let n = self.names.get(&v).cloned();
            if let Some(n) = n {
                self.names.insert(r, n);
            }
        }
        Ok(())
    }

    /// Gives each fetched value the fetch's name (as Paddle's translation
    /// of a `fetch` names its `pd_op.fetch` after the variable).
    pub(super) fn name_fetched_values(&mut self) {
        let top = self.program.top_block();
        let fetches: Vec<OpId> = self
            .program
            .block_ops(top)
            .filter(|&op| self.program.op_name_str(op) == "pd_op.fetch")
            .collect();
        for op in fetches {
            let (Some(v), Some(name)) = (self.program.operand(op, 0), self.str_attr(op, "name"))
            else {
                continue;
            };
            let Some(def) = self.program.defining_op(v) else {
                continue;
            };
            let producer = self.program.op_name_str(def);
            let named_elsewhere = matches!(
                producer,
                "builtin.parameter" | "pd_op.data" | "pd_op.feed" | "builtin.split"
            ) || is_constant(producer)
                || producer.ends_with('_');
            if named_elsewhere || self.names.contains_key(&v) {
                continue;
            }
            self.names.insert(v, name);
        }
    }

    /// Writes constant op `op` (result `v`) into block `block` as a tensor
    /// and returns its variable.
    pub(super) fn write_constant(
        &mut self,
        op: OpId,
        v: ValueId,
        block: usize,
    ) -> OpResult<String> {
        let ty = self.program.value_type(v);
        let dtype = self
            .program
            .attr(op, "dtype")
            .and_then(|a| plain(self.ctx, a))
            .and_then(|p| match p {
                Plain::DType(d) => Some(proto_dtype(d)),
                _ => None,
            })
            .ok_or_else(|| OpFailure::from("a constant without `dtype`"))?;
        let value = self
            .program
            .attr(op, "value")
            .and_then(|a| plain(self.ctx, a))
            .ok_or_else(|| OpFailure::from("a constant without `value`"))?;
        let mut out = match self.program.op_name_str(op) {
            "pd_op.full" => {
                let shape = self
                    .program
                    .attr(op, "shape")
                    .and_then(|a| plain(self.ctx, a))
                    .and_then(|p| to_kind(&p, LegacyAttrKind::Longs))
                    .ok_or_else(|| OpFailure::from("`full` without a shape"))?;
                let mut f = Op::new("fill_constant");
                f.set_attr("shape", shape);
                let as_f32 = match value {
                    Plain::F32(x) => x,
                    ref other => to_kind(other, LegacyAttrKind::Float)
                        .and_then(|v| match v {
                            Value::Float(x) => Some(x),
                            _ => None,
                        })
                        .ok_or_else(|| OpFailure::from("`full` of a value that is not a number"))?,
                };
                f.set_attr("value", Value::Float(as_f32));
                let exact = match value {
                    Plain::F32(_) => true,
                    Plain::F64(x) => f64::from(as_f32) == x || x.is_nan(),
                    Plain::Int(i) => f64::from(as_f32) == i as f64,
                    _ => true,
                };
                let text = if exact {
                    String::new()
                } else {
                    value.number_text().unwrap_or_default()
                };
                f.set_attr("str_value", Value::String(text));
                f.set_attr("dtype", Value::Int(dtype));
                let place = self
                    .program
                    .attr(op, "place")
                    .and_then(|a| plain(self.ctx, a))
                    .and_then(|p| match p {
                        Plain::Place(t) => Some(t),
                        _ => None,
                    })
                    .unwrap_or(-1);
                f.set_attr("place_type", Value::Int(place));
                f.set_attr("force_cpu", Value::Bool(false));
                f
            }
            _ => {
                let items = match &value {
                    Plain::List(l) => l.len(),
                    _ => return Err("`full_int_array` of a value that is not a list".into()),
                };
                let mut f = Op::new("assign_value");
                f.set_attr(
                    "shape",
                    Value::Ints(
                        vec![i32::try_from(items).map_err(|_| OpFailure::from("list too long"))?]
                            .into(),
                    ),
                );
                f.set_attr("dtype", Value::Int(dtype));
                let kind = if dtype == 2 {
                    LegacyAttrKind::Ints
                } else {
                    LegacyAttrKind::Longs
                };
                let values =
                    to_kind(&value, kind).ok_or_else(|| OpFailure::from("list of non-integers"))?;
                let slot = if dtype == 2 {
                    "int32_values"
                } else {
                    "int64_values"
                };
                f.set_attr(slot, values);
                f
            }
        };
        let name = self.fresh_name(&out.op_type);
        self.declare(block, &name, ty)?;
        out.set_output("Out", vec![name.clone()]);
        if let Some(legacy) = self.compat.legacy_op(&out.op_type) {
            let mut made = Made {
                op: out,
                results: Vec::new(),
            };
            self.complete(&mut made, legacy, block, None)?;
            out = made.op;
        }
        self.blocks[block].ops.push(out);
        Ok(name)
    }

    /// Ops with a form of their own; `false` when `op` takes the general
    /// path.
    pub(super) fn special(&mut self, op: OpId, dst: usize) -> OpResult<bool> {
        match self.program.op_name_str(op) {
            "pd_op.shape64" => {
                self.shape64(op, dst)?;
                Ok(true)
            }
            "pd_op.tril" | "pd_op.triu" => {
                let lower = self.program.op_name_str(op) == "pd_op.tril";
                self.general_into(op, dst, "tril_triu", |m| {
                    m.op.set_attr("lower", Value::Bool(lower));
                })?;
                Ok(true)
            }
            "pd_op.select_input" => {
                let operands = self.operand_names(op, dst)?;
                let Some((mask, inputs)) = operands.split_first() else {
                    return Err("`select_input` without a mask".into());
                };
                let mut s = Op::new("select_input");
                s.set_input("Mask", vec![mask.clone()]);
                s.set_input("X", inputs.to_vec());
                self.finish_single(op, dst, s)?;
                Ok(true)
            }
            "pd_op.assign_out_" => {
                let operands = self.operand_names(op, dst)?;
                let [x, out] = &operands[..] else {
                    return Err("`assign_out_` needs two operands".into());
                };
                let mut a = Op::new("assign");
                a.set_input("X", vec![x.clone()]);
                a.set_output("Out", vec![out.clone()]);
                self.blocks[dst].ops.push(a);
                if let Some(r) = self.result_at(op, 0) {
                    self.names.insert(r, out.clone());
                }
                Ok(true)
            }
            "pd_op.create_array" => {
                let r = self
                    .result_at(op, 0)
                    .ok_or_else(|| OpFailure::from("an op without its result"))?;
                self.name_result(r, dst, "array")?;
                Ok(true)
            }
            "pd_op.array_write_" => {
                let operands = self.operand_names(op, dst)?;
                let [array, x, i] = &operands[..] else {
                    return Err("`array_write_` needs three operands".into());
                };
                let mut a = Op::new("write_to_array");
                a.set_input("X", vec![x.clone()]);
                a.set_input("I", vec![i.clone()]);
                a.set_output("Out", vec![array.clone()]);
                self.blocks[dst].ops.push(a);
                if let Some(r) = self.result_at(op, 0) {
                    self.names.insert(r, array.clone());
                }
                Ok(true)
            }
            "pd_op.array_read" => {
                let operands = self.operand_names(op, dst)?;
                let [array, i] = &operands[..] else {
                    return Err("`array_read` needs two operands".into());
                };
                let mut a = Op::new("read_from_array");
                a.set_input("X", vec![array.clone()]);
                a.set_input("I", vec![i.clone()]);
                self.finish_single(op, dst, a)?;
                Ok(true)
            }
            "pd_op.array_length" => {
                let operands = self.operand_names(op, dst)?;
                let mut a = Op::new("lod_array_length");
                a.set_input("X", operands);
                self.finish_single(op, dst, a)?;
                Ok(true)
            }
            "pd_op.full_with_tensor" => {
                let operands = self.operand_names(op, dst)?;
                let [value, shape] = &operands[..] else {
                    return Err("`full_with_tensor` needs two operands".into());
                };
                let dtype = self.dtype_attr(op, "dtype")?;
                let mut f = Op::new("fill_constant");
                f.set_input("ValueTensor", vec![value.clone()]);
                f.set_input("ShapeTensor", vec![shape.clone()]);
                f.set_attr("dtype", Value::Int(dtype));
                self.finish_single(op, dst, f)?;
                Ok(true)
            }
            "pd_op.assign_value" | "pd_op.assign_value_" => {
                let dtype = self.dtype_attr(op, "dtype")?;
                let mut a = Op::new("assign_value");
                let shape = self
                    .program
                    .attr(op, "shape")
                    .and_then(|a| plain(self.ctx, a))
                    .and_then(|p| to_kind(&p, LegacyAttrKind::Ints))
                    .ok_or_else(|| OpFailure::from("`assign_value` without a shape"))?;
                a.set_attr("shape", shape);
                a.set_attr("dtype", Value::Int(dtype));
                let values = self
                    .program
                    .attr(op, "values")
                    .and_then(|a| plain(self.ctx, a))
                    .ok_or_else(|| OpFailure::from("`assign_value` without values"))?;
                let (slot, kind) = match dtype {
                    0 => ("bool_values", LegacyAttrKind::Ints),
                    2 => ("int32_values", LegacyAttrKind::Ints),
                    3 => ("int64_values", LegacyAttrKind::Longs),
                    5 => ("fp32_values", LegacyAttrKind::Floats),
                    6 => ("fp64_values", LegacyAttrKind::Float64s),
                    _ => return Err("`assign_value` of a data type Paddle 2.6 cannot hold".into()),
                };
                let v = to_kind(&values, kind)
                    .ok_or_else(|| OpFailure::from("`assign_value` values of another type"))?;
                a.set_attr(slot, v);
                if self.program.op_name_str(op) == "pd_op.assign_value_" {
                    let operands = self.operand_names(op, dst)?;
                    let out = operands
                        .first()
                        .ok_or_else(|| OpFailure::from("`assign_value_` without its output"))?;
                    a.set_output("Out", vec![out.clone()]);
                    if let Some(r) = self.result_at(op, 0) {
                        self.names.insert(r, out.clone());
                    }
                    self.complete_named(&mut a, dst)?;
                    self.blocks[dst].ops.push(a);
                } else {
                    self.finish_single(op, dst, a)?;
                }
                Ok(true)
            }
            "pd_op.set_value_with_tensor" | "pd_op.set_value_with_tensor_" => {
                self.general_into(op, dst, "set_value", |_| {})?;
                Ok(true)
            }
            "pd_op.split_with_num" => {
                self.general_into(op, dst, "split", |m| {
                    m.op.set_attr("sections", Value::Ints(List::EMPTY));
                })?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// The variables of `op`'s operands, in order (a null operand is an
    /// error).
    fn operand_names(&mut self, op: OpId, dst: usize) -> OpResult<Vec<String>> {
        let operands: Vec<Option<ValueId>> = self.program.operands(op).collect();
        let mut names = Vec::with_capacity(operands.len());
        for v in operands {
            let v = v.ok_or_else(|| OpFailure::from("a null operand"))?;
            names.push(self.name_of(v, dst)?);
        }
        Ok(names)
    }

    /// Data type attribute `name` of `op` as a `VarType.Type` number.
    fn dtype_attr(&self, op: OpId, name: &str) -> OpResult<i32> {
        self.program
            .attr(op, name)
            .and_then(|a| plain(self.ctx, a))
            .and_then(|p| match p {
                Plain::DType(d) => Some(proto_dtype(d)),
                _ => None,
            })
            .ok_or_else(|| OpFailure::Unsupported(format!("no data type `{name}`")))
    }

    /// Fills the defaults of legacy op `op` from its registration.
    fn complete_named(&mut self, op: &mut Op, dst: usize) -> OpResult {
        if let Some(legacy) = self.compat.legacy_op(&op.op_type) {
            let mut made = Made {
                op: std::mem::take(op),
                results: Vec::new(),
            };
            let r = self.complete(&mut made, legacy, dst, None);
            *op = made.op;
            r?;
        }
        Ok(())
    }

    /// Adds legacy op `out` for `op`, whose one result is its `Out`.
    fn finish_single(&mut self, op: OpId, dst: usize, mut out: Op) -> OpResult {
        let r = self
            .result_at(op, 0)
            .ok_or_else(|| OpFailure::from("an op without its result"))?;
        let name = match self.names.get(&r) {
            Some(n) => n.clone(),
            None => self.fresh_name(&out.op_type),
        };
        out.set_output("Out", vec![name.clone()]);
        self.complete_named(&mut out, dst)?;
        self.add(
            dst,
            Made {
                op: out,
                results: vec![(r, name)],
            },
        )
    }

    /// `op` written by the general rules as legacy op `legacy` (whatever
    /// its name says), then adjusted by `adjust`.
    fn general_into(
        &mut self,
        op: OpId,
        dst: usize,
        legacy: &str,
        adjust: impl FnOnce(&mut Made),
    ) -> OpResult {
        let def = self
            .def_of(op)
            .ok_or_else(|| OpFailure::from("the op has no definition"))?;
        let l = self
            .compat
            .legacy_op(legacy)
            .ok_or_else(|| OpFailure::Unsupported(format!("Paddle 2.6 has no `{legacy}`")))?;
        let mut made = self.general_as(op, dst, def, l)?;
        adjust(&mut made);
        self.fixup(op, &mut made, dst)?;
        self.complete(&mut made, l, dst, self.program.operand(op, 0))?;
        self.add(dst, made)
    }

    /// Writes an op that a fold changed (see `folds.rs`).
    pub(super) fn write_folded(&mut self, op: OpId, dst: usize, fold: Fold) -> OpResult {
        match fold {
            Fold::Axis { .. } => self.general(op, dst),
            Fold::Mul { x, y, xn, yn, out } => {
                let mut m = Op::new("mul");
                let xname = self.name_of(x, dst)?;
                let yname = self.name_of(y, dst)?;
                m.set_input("X", vec![xname]);
                m.set_input("Y", vec![yname]);
                m.set_attr("x_num_col_dims", Value::Int(xn));
                m.set_attr("y_num_col_dims", Value::Int(yn));
                let name = match self.names.get(&out) {
                    Some(n) => n.clone(),
                    None => self.fresh_name("mul"),
                };
                m.set_output("Out", vec![name.clone()]);
                self.complete_named(&mut m, dst)?;
                self.add(
                    dst,
                    Made {
                        op: m,
                        results: vec![(out, name)],
                    },
                )
            }
            Fold::ShapeList { items } => {
                let mut names = Vec::with_capacity(items.len());
                for v in items {
                    names.push(self.name_of(v, dst)?);
                }
                let dtype = self.dtype_attr(op, "dtype")?;
                let mut f = Op::new("fill_constant");
                f.set_input("ShapeTensorList", names);
                let value = self
                    .program
                    .operand(op, 0)
                    .ok_or_else(|| OpFailure::from("no value"))?;
                match self
                    .constant_value(value)
                    .and_then(|p| to_kind(&p, LegacyAttrKind::Float))
                {
                    Some(v) => f.set_attr("value", v),
                    None => {
                        let name = self.name_of(value, dst)?;
                        f.set_input("ValueTensor", vec![name]);
                    }
                }
                f.set_attr("dtype", Value::Int(dtype));
                self.finish_single(op, dst, f)
            }
        }
    }

    /// Adjustments of the general path for legacy ops whose attributes
    /// say more than the PIR op's.
    pub(super) fn fixup(&mut self, op: OpId, made: &mut Made, dst: usize) -> OpResult {
        if let Some(Fold::Axis { axis, .. }) = self.folds.kept.get(&op) {
            made.op.set_attr("axis", Value::Int(*axis));
        }
        let ty = made.op.op_type.clone();
        match ty.as_str() {
            "cast" => {
                let x = self
                    .program
                    .operand(op, 0)
                    .ok_or_else(|| OpFailure::from("cast of nothing"))?;
                let xt = self.program.value_type(x);
                let in_dtype = self
                    .var_desc("x", xt)
                    .and_then(|v| v.dtype)
                    .ok_or_else(|| OpFailure::from("cast of a value with no legacy type"))?;
                made.op.set_attr("in_dtype", Value::Int(in_dtype));
                let out = self
                    .program
                    .attr(op, "dtype")
                    .and_then(|a| plain(self.ctx, a))
                    .and_then(|p| to_kind(&p, LegacyAttrKind::Int))
                    .ok_or_else(|| OpFailure::from("cast without `dtype`"))?;
                made.op.set_attr("out_dtype", out);
            }
            "increment" => {
                let step = self
                    .program
                    .attr(op, "value")
                    .and_then(|a| plain(self.ctx, a))
                    .and_then(|p| to_kind(&p, LegacyAttrKind::Float))
                    .ok_or_else(|| OpFailure::from("increment without `value`"))?;
                made.op.set_attr("step", step);
            }
            "set_value" => {
                // Paddle 2.6 casts `values` to `dtype` (float32 unless
                // said): the type of the tensor written into.
                let x = self
                    .program
                    .operand(op, 0)
                    .ok_or_else(|| OpFailure::from("set_value of nothing"))?;
                if let Some(dtype) = element_proto(self.ctx, self.element_of(x)) {
                    made.op.set_attr("dtype", Value::Int(dtype));
                }
            }
            "strided_slice" => {
                // Paddle 2.6 reads one `infer_flags` entry per axis (3.x
                // has no such attribute): 1, the dims known when saved.
                let axes = match made.op.attrs.iter().find(|(n, _)| n == "axes") {
                    Some((_, Value::Ints(a))) => a.len(),
                    _ => 0,
                };
                if !made.op.has_attr("infer_flags") {
                    made.op
                        .set_attr("infer_flags", Value::Ints(vec![1; axes].into()));
                }
            }
            "range" => {
                // Paddle 2.6's `range` makes its output of `Start`'s type.
                // Paddle 2.6's `range` makes its output of its inputs' type
                // (it has no `dtype`): inputs of another type are cast first.
                let want = self.dtype_attr(op, "dtype")?;
                for (i, slot) in ["Start", "End", "Step"].into_iter().enumerate() {
                    let v = self
                        .program
                        .operand(op, i)
                        .ok_or_else(|| OpFailure::from("range without its inputs"))?;
                    if element_proto(self.ctx, self.element_of(v)) == Some(want) {
                        continue;
                    }
                    let Some((_, args)) = made.op.inputs.iter_mut().find(|(n, _)| n == slot) else {
                        continue;
                    };
                    let Some(from) = args.first().cloned() else {
                        continue;
                    };
                    let mut var = self
                        .var_desc("x", self.program.value_type(v))
                        .ok_or_else(|| OpFailure::from("range input with no legacy variable"))?;
                    var.name = self.fresh_name("cast");
                    let (in_dtype, to) = (var.dtype.unwrap_or(5), var.name.clone());
                    var.dtype = Some(want);
                    self.push_var(dst, var);
                    let mut cast = Op::new("cast");
                    cast.set_input("X", vec![from]);
                    cast.set_output("Out", vec![to.clone()]);
                    cast.set_attr("in_dtype", Value::Int(in_dtype));
                    cast.set_attr("out_dtype", Value::Int(want));
                    self.blocks[dst].ops.push(cast);
                    if let Some((_, args)) = made.op.inputs.iter_mut().find(|(n, _)| n == slot) {
                        *args = vec![to];
                    }
                }
            }
            t if REDUCTIONS.contains(&t) => {
                let all = match made.op.attrs.iter().find(|(n, _)| n == "dim") {
                    Some((_, Value::Ints(d))) => d.is_empty(),
                    Some((_, Value::Longs(d))) => d.is_empty(),
                    _ => false,
                };
                made.op.set_attr("reduce_all", Value::Bool(all));
            }
            _ => {}
        }
        Ok(())
    }

    /// `shape64`: Paddle 2.6's `shape` gives int32, so a `cast` to int64
    /// follows.
    fn shape64(&mut self, op: OpId, dst: usize) -> OpResult {
        let x = self
            .program
            .operand(op, 0)
            .ok_or_else(|| OpFailure::from("shape of nothing"))?;
        let r = self
            .result_at(op, 0)
            .ok_or_else(|| OpFailure::from("an op without its result"))?;
        let input = self.name_of(x, dst)?;
        let int32 = self.push_int32_temp(dst, "shape", self.program.value_type(r));
        let mut shape = Op::new("shape");
        shape.set_input("Input", vec![input]);
        shape.set_output("Out", vec![int32.clone()]);
        self.blocks[dst].ops.push(shape);
        let name = match self.names.get(&r) {
            Some(n) => n.clone(),
            None => self.fresh_name("cast"),
        };
        self.declare(dst, &name, self.program.value_type(r))?;
        self.names.insert(r, name.clone());
        let out_dtype = element_proto(self.ctx, self.element_of(r)).unwrap_or(3);
        let mut cast = Op::new("cast");
        cast.set_input("X", vec![int32]);
        cast.set_output("Out", vec![name]);
        cast.set_attr("in_dtype", Value::Int(2));
        cast.set_attr("out_dtype", Value::Int(out_dtype));
        self.blocks[dst].ops.push(cast);
        Ok(())
    }

    /// The element type of a dense tensor value (the null type otherwise).
    pub fn element_of(&self, v: ValueId) -> pir_core::Type {
        self.ctx
            .type_as::<pir_core::builtin::DenseTensorType>(self.program.value_type(v))
            .map_or(pir_core::Type::NULL, |d| d.dtype)
    }
}

/// The first bool of a `[bool]` attribute.
fn first_bool(w: &Writer<'_>, op: OpId, name: &str) -> Option<bool> {
    pir_core::builtin::first_bool(w.ctx, w.program.attr(op, name)?)
}
