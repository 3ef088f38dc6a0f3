//! Legacy ops with a translation of their own (Paddle's special
//! transcribers): feed/fetch, constants, assignment, selection, splitting,
//! the old `mul`/`matmul`, elementwise broadcasting by `axis`, embeddings,
//! tensor arrays and ops whose target depends on their inputs.

use pir_core::builtin::{F32Attr, I32Attr, StrAttr};
use pir_core::{BlockId, InsertPoint};
use pir_dialects::op_def::{AttrKind, OpDef};
use pir_dialects::pd_op::attrs::{DataTypeAttr, Place, PlaceAttr};

use super::attrs::{self, AttrMap};
use super::general::{def, has_attr, target_name, Hooks, Landing};
use super::values::{self, ScopeId, VarInfo};
use super::{OpSite, Translator};
use crate::desc::{OpDesc, VarKind};
use crate::error::Result;

impl<'d> Translator<'d> {
    /// The op's own translation, if it has one.
    pub fn translate_special(&mut self, site: OpSite<'_, 'd>) -> Option<Result<()>> {
        let OpSite { b, op, scope, dst } = site;
        let r = match op.op_type {
            "feed" => self.feed(site),
            "data" => self.data_op(site),
            "fetch" | "fetch_v2" => self.fetch(op, scope, dst),
            "shadow_output" => self.shadow_output(op, scope, dst),
            "fill_constant" => self.fill_constant(site),
            "assign" => self.assign(site),
            "assign_value" => self.assign_value(site),
            "select_input" => self.select_input(site),
            "select_output" => self.select_output(op, scope, dst),
            "split" => self.split(site),
            "mul" => self.mul(site),
            "matmul" => self.legacy_matmul(site),
            "elementwise_add"
            | "elementwise_sub"
            | "elementwise_mul"
            | "elementwise_div"
            | "elementwise_max"
            | "elementwise_min"
            | "elementwise_mod"
            | "elementwise_floordiv"
            | "grad_add" => self.elementwise(site),
            "lookup_table_v2" | "lookup_table" => self.embedding(site),
            "cast" => self.with_attrs(site, Some("pd_op.cast"), |t, op| {
                let mut m = AttrMap::new();
                m.set(
                    "dtype",
                    attrs::translate(&t.ctx, AttrKind::DataType, op.attr("out_dtype")),
                );
                m
            }),
            "increment" => self.with_attrs(site, None, |t, op| {
                let mut m = AttrMap::new();
                let v = match op.attr("step") {
                    Some(v) => attrs::general(&t.ctx, v),
                    None => F32Attr::get(&t.ctx, 1.0),
                };
                m.set("value", v);
                m
            }),
            "range" => self.hooked(
                site,
                None,
                Hooks::attr("dtype", |t, op| {
                    let start = op.input_args("Start");
                    let var = start
                        .first()
                        .and_then(|s| t.var(t.at.block.unwrap_or(0), s))
                        .ok_or_else(|| t.err("`range` needs one `Start` variable"))?;
                    Ok(Some(DataTypeAttr::get(
                        &t.ctx,
                        values::phi_dtype(var.dtype()),
                    )))
                }),
            ),
            "reduce_all" | "reduce_any" => self.hooked(
                site,
                None,
                Hooks::attr("axis", |t, op| {
                    if t.bool_attr(op, "reduce_all")? == Some(true) {
                        return Ok(Some(pir_core::builtin::ArrayAttr::get(&t.ctx, &[])));
                    }
                    let legacy = crate::compat::compat().legacy_attr_name(op.op_type, "axis");
                    let spec = def(&target_name(op)).and_then(|d| d.attribute("axis"));
                    let kind = spec.map_or(AttrKind::Any, |s| s.kind);
                    Ok(Some(attrs::translate(&t.ctx, kind, op.attr(legacy))))
                }),
            ),
            "one_hot_v2" => self.hooked(
                site,
                None,
                Hooks::input("num_classes", |t, site| {
                    let OpSite { op, scope, dst, .. } = site;
                    if let Some(v) = op.input("depth_tensor").and_then(|v| v.first()) {
                        return Ok(Some(Some(t.lookup(scope, v)?.value)));
                    }
                    let depth = op
                        .attr("depth")
                        .ok_or_else(|| t.err("`one_hot_v2` needs attribute `depth`"))?;
                    let a = attrs::general(&t.ctx, depth);
                    Ok(Some(Some(t.full_from_attr(dst, a)?)))
                }),
            ),
            "rnn" => self.hooked(
                site,
                None,
                Hooks::input("dropout_state_in", |t, site| {
                    let OpSite { b, op, dst, .. } = site;
                    let Some(state) = op.output("DropoutState").and_then(|v| v.first()) else {
                        return Ok(Some(None));
                    };
                    let var = t
                        .var(b, state)
                        .ok_or_else(|| t.var_err(state, "variable is not declared"))?;
                    let dtype = values::phi_dtype(var.dtype());
                    let shape = var.shape().to_vec();
                    Ok(Some(Some(t.build_full(
                        dst,
                        false,
                        &shape,
                        0.0,
                        dtype,
                        Place::cpu(),
                    )?)))
                }),
            ),
            "gather" => self.hooked(
                site,
                None,
                Hooks::input("axis", |t, site| {
                    let OpSite { op, dst, .. } = site;
                    if op.input("Axis").is_some_and(|a| !a.is_empty()) {
                        return Ok(None);
                    }
                    let a = match op.attr("axis").filter(|_| has_attr(op, "axis")) {
                        Some(v) => attrs::general(&t.ctx, v),
                        None => t.ctx.intern_attr(pir_core::builtin::I64Attr(0)),
                    };
                    Ok(Some(Some(t.full_from_attr(dst, a)?)))
                }),
            ),
            "tril_triu" => match self.bool_attr(op, "lower") {
                Ok(lower) => {
                    let name = if lower.unwrap_or(false) {
                        "pd_op.tril"
                    } else {
                        "pd_op.triu"
                    };
                    self.hooked(site, Some(name), Hooks::default())
                }
                Err(e) => Err(e),
            },
            "share_buffer" => self.hooked(site, Some("pd_op.share_data_"), Hooks::default()),
            "c_sync_comm_stream" => {
                self.hooked(site, Some("pd_op.sync_comm_stream_"), Hooks::default())
            }
            "matrix_rank" => {
                let name = if op.input("TolTensor").is_some_and(|v| !v.is_empty()) {
                    "pd_op.matrix_rank_tol"
                } else {
                    "pd_op.matrix_rank"
                };
                self.hooked(site, Some(name), Hooks::default())
            }
            "read_from_array" => self.hooked(site, Some("pd_op.array_read"), Hooks::default()),
            // `LegacySetValueDispatcher`: a value given as a tensor makes
            // `set_value_with_tensor`, its `values` operand that tensor.
            "set_value" if op.input("ValueTensor").is_some_and(|v| !v.is_empty()) => self.hooked(
                site,
                Some("pd_op.set_value_with_tensor"),
                Hooks::input("values", |t, site| {
                    let OpSite { op, scope, .. } = site;
                    let [v] = op.input_args("ValueTensor") else {
                        return Err(t.err("`ValueTensor` of `set_value` needs one variable"));
                    };
                    Ok(Some(Some(t.lookup(scope, v)?.value)))
                }),
            ),
            "write_to_array" | "lod_array_length" => self.array_op(site),
            "slice" => {
                let input = op.input_args("Input").first();
                let is_array = input
                    .and_then(|n| self.var(b, n))
                    .is_some_and(|v| v.kind == VarKind::DenseTensorArray);
                let name = if !is_array {
                    "pd_op.slice"
                } else if op
                    .output_args("Out")
                    .first()
                    .and_then(|n| self.var(b, n))
                    .is_some_and(|v| v.kind == VarKind::DenseTensor)
                {
                    "pd_op.slice_array_dense"
                } else {
                    "pd_op.slice_array"
                };
                self.hooked(site, Some(name), Hooks::default())
            }
            _ => return None,
        };
        Some(r)
    }

    /// The op `name` names (`None`: the op's default target).
    fn def_or_target(&self, op: &OpDesc<'d>, name: Option<&str>) -> Result<&'static OpDef> {
        let d = match name {
            Some(n) => def(n),
            // By the translator's numbered look-ups, without a lock.
            None => self
                .target_plan(op.op_type, super::general::is_inplace(op))
                .map(|(d, _)| d),
        };
        d.ok_or_else(|| {
            let name = name.map_or_else(|| target_name(op), str::to_owned);
            self.unsupported(op.op_type, format!("no op `{name}`"))
        })
    }

    /// The general path into a named op (`None`: the default target) with
    /// hooks.
    fn hooked(&mut self, site: OpSite<'_, 'd>, name: Option<&str>, hooks: Hooks) -> Result<()> {
        let op = site.op;
        let d = self.def_or_target(op, name)?;
        self.general_with(site, &self.plan(op, d), &hooks)
            .map(|_| ())
    }

    /// General inputs and outputs with an attribute map of the op's own.
    fn with_attrs(
        &mut self,
        site: OpSite<'_, 'd>,
        name: Option<&str>,
        make: impl Fn(&Translator<'d>, &OpDesc<'d>) -> AttrMap<'d>,
    ) -> Result<()> {
        let op = site.op;
        let d = self.def_or_target(op, name)?;
        let operands = self.inputs_only(site, d)?;
        let results = self.general_outputs(site, &self.plan(op, d))?;
        let attrs = make(self, op);
        self.create_with_outputs(site, d.name.as_str(), &operands, &results, attrs);
        Ok(())
    }

    /// The general inputs of `d` (slicing vector-bound inputs first).
    fn inputs_only(
        &mut self,
        site: OpSite<'_, 'd>,
        d: &'static pir_dialects::op_def::OpDef,
    ) -> Result<super::general::Operands> {
        let OpSite { op, scope, dst, .. } = site;
        self.slice_vector_inputs(op, scope, dst)?;
        self.general_inputs(site, &self.plan(op, d), &Hooks::default())
    }

    fn feed(&mut self, site: OpSite<'_, 'd>) -> Result<()> {
        let op = site.op;
        let d = def("pd_op.feed").ok_or_else(|| self.err("no pd_op.feed"))?;
        let results = self.general_outputs(site, &self.plan(op, d))?;
        let name = op.output_arg_names().next().unwrap_or_default();
        let m = self.feed_fetch_attrs(op, name)?;
        self.create_with_outputs(site, d.name.as_str(), &[], &results, m);
        Ok(())
    }

    /// The attributes of `feed` and `fetch`: the variable's name and the
    /// legacy op's column ([`Translator::feed_fetch_attrs_of`]).
    fn feed_fetch_attrs(&self, op: &OpDesc<'d>, name: &str) -> Result<AttrMap<'d>> {
        let col = self.int_attr(op, "col")?.unwrap_or(0);
        let [name, col] = self.feed_fetch_attrs_of(name, col);
        let mut m = AttrMap::new();
        m.push_new("name", name);
        m.push_new("col", col);
        Ok(m)
    }

    fn data_op(&mut self, site: OpSite<'_, 'd>) -> Result<()> {
        let op = site.op;
        let d = def("pd_op.data").ok_or_else(|| self.err("no pd_op.data"))?;
        let results = self.general_outputs(site, &self.plan(op, d))?;
        let mut m = AttrMap::new();
        let name = self.str_attr(op, "name")?.unwrap_or_default();
        m.set("name", StrAttr::get(&self.ctx, name));
        m.set(
            "shape",
            attrs::translate(&self.ctx, AttrKind::IntArray, op.attr("shape")),
        );
        let dtype = attrs::dtype_of_proto(self.int_attr(op, "dtype")?.unwrap_or(-1));
        m.set("dtype", DataTypeAttr::get(&self.ctx, dtype));
        let place = i64::from(self.int_attr(op, "place")?.unwrap_or(0));
        m.set(
            "place",
            PlaceAttr::get(
                &self.ctx,
                Place {
                    allocation_type: place,
                    device_id: 0,
                    device_type: "".into(),
                },
            ),
        );
        self.create_with_outputs(site, d.name.as_str(), &[], &results, m);
        Ok(())
    }

    fn fetch(&mut self, op: &OpDesc<'d>, scope: ScopeId, dst: BlockId) -> Result<()> {
        self.slice_vector_inputs(op, scope, dst)?;
        let x = op
            .input_args("X")
            .first()
            .ok_or_else(|| self.err("`fetch` needs input `X`"))?;
        let v = self.lookup(scope, x)?.value;
        let name = op.input_arg_names().next().unwrap_or_default();
        let m = self.feed_fetch_attrs(op, name)?;
        let ty = self.ty(v);
        self.create_op(
            InsertPoint::BlockEnd(dst),
            "pd_op.fetch",
            &[Some(v)],
            &[ty],
            m,
            0,
        );
        Ok(())
    }

    fn shadow_output(&mut self, op: &OpDesc<'d>, scope: ScopeId, dst: BlockId) -> Result<()> {
        let x = *op
            .input_args("x")
            .first()
            .ok_or_else(|| self.err("`shadow_output` needs input `x`"))?;
        let mut info = self.lookup(scope, x)?;
        if info.by_vector {
            let v = self.build_slice(dst, InsertPoint::BlockEnd(dst), info)?;
            info = VarInfo::plain(v);
            self.scopes.push(scope, x, info);
        }
        let name = self.str_attr(op, "name")?.unwrap_or_default();
        let mut m = AttrMap::new();
        m.set("output_name", StrAttr::get(&self.ctx, name));
        self.create_op(
            InsertPoint::BlockEnd(dst),
            "builtin.shadow_output",
            &[Some(info.value)],
            &[],
            m,
            0,
        );
        Ok(())
    }

    fn fill_constant(&mut self, site: OpSite<'_, 'd>) -> Result<()> {
        let OpSite { op, scope, dst, .. } = site;
        let has = |n: &str| op.input(n).is_some_and(|v| !v.is_empty());
        let dtype = attrs::dtype_of_proto(
            self.int_attr(op, "dtype")?
                .ok_or_else(|| self.err("`fill_constant` needs `dtype`"))?,
        );
        if !(has("ShapeTensor") || has("ShapeTensorList") || has("ValueTensor")) {
            let d = def("pd_op.full").ok_or_else(|| self.err("no pd_op.full"))?;
            let results = self.general_outputs(site, &self.plan(op, d))?;
            let value = op.attr("value");
            if self.float_attr(op, "value")?.is_none() {
                return Err(self.err("`fill_constant` needs `value`"));
            }
            // The memo's, as the model's other attributes: a model's
            // constants repeat their shapes, values and places.
            let mut m = AttrMap::new();
            m.set(
                "shape",
                self.declared_attr(AttrKind::IntArray, op.attr("shape")),
            );
            m.set("value", self.declared_attr(AttrKind::Float, value));
            m.set("dtype", self.data_type_attr(dtype));
            let mut place_type = self.int_attr(op, "place_type")?.unwrap_or(-1);
            if self.bool_attr(op, "force_cpu")? == Some(true) {
                place_type = 0;
            }
            // The CPU and undefined places are made once per context.
            let device = |allocation_type| {
                let p = Place {
                    allocation_type,
                    device_id: 0,
                    device_type: "".into(),
                };
                Some(PlaceAttr::get(&self.ctx, p))
            };
            let place = match place_type {
                -1 => Some(self.k.undefined_place),
                0 => Some(self.k.cpu),
                1 => device(2),
                2 => device(3),
                3 => device(4),
                _ => None,
            };
            if let Some(attr) = place {
                m.set("place", attr);
            }
            self.create_with_outputs(site, d.name.as_str(), &[], &results, m);
            return Ok(());
        }
        let d =
            def("pd_op.full_with_tensor").ok_or_else(|| self.err("no pd_op.full_with_tensor"))?;
        let value = match op.input("ValueTensor").and_then(|v| v.first()) {
            Some(v) => self.lookup(scope, v)?.value,
            None => {
                let f = self.float_attr(op, "value")?.unwrap_or(0.0);
                self.full_from_attr(dst, F32Attr::get(&self.ctx, f))?
            }
        };
        let shape = if let Some(v) = op.input("ShapeTensor").and_then(|v| v.first()) {
            self.lookup(scope, v)?.value
        } else if has("ShapeTensorList") {
            let list = op.input_args("ShapeTensorList").to_vec();
            let c = self.build_combine_vars(dst, scope, &list)?;
            self.build_stack(dst, c, 0)?
        } else if let Some(shape) = op.attr("shape") {
            self.value_as_input(dst, "shape", shape, true)?
        } else {
            let a = attrs::translate(&self.ctx, AttrKind::IntArray, None);
            self.full_int_array_from_attr(dst, a)?
        };
        let results = self.general_outputs(site, &self.plan(op, d))?;
        let mut m = AttrMap::new();
        m.set("dtype", DataTypeAttr::get(&self.ctx, dtype));
        self.create_with_outputs(
            site,
            d.name.as_str(),
            &[Some(value), Some(shape)],
            &results,
            m,
        );
        Ok(())
    }

    fn assign(&mut self, site: OpSite<'_, 'd>) -> Result<()> {
        let OpSite { b, op, scope, .. } = site;
        let out = op.output_args("Out").first().copied().unwrap_or_default();
        if self.binding(scope, out).is_some() {
            // Writing an existing variable: `assign_out_(x, out)`.
            let d = def("pd_op.assign_out_").ok_or_else(|| self.err("no pd_op.assign_out_"))?;
            let x = op
                .input_args("X")
                .first()
                .ok_or_else(|| self.err("`assign` needs input `X`"))?;
            let xv = self.lookup(scope, x)?.value;
            let ov = self.lookup(scope, out)?.value;
            let results = self.general_outputs(site, &self.plan(op, d))?;
            self.create_with_outputs(
                site,
                d.name.as_str(),
                &[Some(xv), Some(ov)],
                &results,
                AttrMap::new(),
            );
            return Ok(());
        }
        let x = op.input_args("X").first();
        let is_array = x
            .and_then(|n| self.var(b, n))
            .is_some_and(|v| v.kind == VarKind::DenseTensorArray);
        let name = is_array.then_some("pd_op.assign_array_");
        self.hooked(site, name, Hooks::default())
    }

    fn assign_value(&mut self, site: OpSite<'_, 'd>) -> Result<()> {
        let op = site.op;
        let d = def("pd_op.assign_value").ok_or_else(|| self.err("no pd_op.assign_value"))?;
        let kind = |n: &str| d.attribute(n).map_or(AttrKind::Any, |s| s.kind);
        let mut m = AttrMap::new();
        let shape = op
            .attr("shape")
            .ok_or_else(|| self.err("`assign_value` needs `shape`"))?;
        m.set("shape", self.declared_attr(kind("shape"), Some(shape)));
        let dtype = op
            .attr("dtype")
            .ok_or_else(|| self.err("`assign_value` needs `dtype`"))?;
        m.set("dtype", self.declared_attr(kind("dtype"), Some(dtype)));
        m.set("place", self.k.undefined_place);
        let mut found = false;
        for n in [
            "bool_values",
            "fp32_values",
            "int32_values",
            "int64_values",
            "values",
        ] {
            let Some(v) = op.attr(n) else { continue };
            let a = self.declared_attr(kind("values"), Some(v));
            let non_empty = self
                .ctx
                .attr_as::<pir_core::builtin::ArrayAttr>(a)
                .is_some_and(|arr| !arr.0.is_empty());
            if non_empty {
                m.set("values", a);
                found = true;
                break;
            }
        }
        if !found {
            return Err(self.err("`assign_value` has no non-empty `*_values` attribute"));
        }
        let results = self.general_outputs(site, &self.plan(op, d))?;
        let new = self.create_with_outputs(site, d.name.as_str(), &[], &results, m);
        // Its keys are out of declared order: known by their addresses, its
        // final dictionary is the memo's when made before.
        self.mark_static_keys(new);
        Ok(())
    }

    fn select_input(&mut self, site: OpSite<'_, 'd>) -> Result<()> {
        let OpSite { b, op, scope, dst } = site;
        let mask = op
            .input_args("Mask")
            .first()
            .ok_or_else(|| self.err("`select_input` needs `Mask`"))?;
        let mut operands = vec![Some(self.lookup(scope, mask)?.value)];
        let xs = op.input_args("X");
        for x in xs {
            operands.push(Some(self.lookup(scope, x)?.value));
        }
        if operands.len() < 3 {
            return Err(self.err("`select_input` needs two inputs `X`"));
        }
        let (t1, t2) = match (operands[1], operands[2]) {
            (Some(a), Some(c)) => (self.ty(a), self.ty(c)),
            _ => return Err(self.err("`select_input` needs two inputs `X`")),
        };
        let out_ty = if t1 == t2 {
            t1
        } else {
            let (d1, d2) = match (
                values::as_dense(&self.ctx, t1),
                values::as_dense(&self.ctx, t2),
            ) {
                (Some(a), Some(b)) => (a, b),
                _ => return Err(self.err("`select_input` of different non-tensor types")),
            };
            if d1.dtype != d2.dtype
                || d1.layout != d2.layout
                || d1.lod != d2.lod
                || d1.offset != d2.offset
            {
                return Err(self.err("`select_input` inputs differ in more than their dims"));
            }
            let dims: Vec<i64> = d1
                .dims
                .iter()
                .zip(d2.dims.iter())
                .map(|(a, c)| if a == c { *a } else { -1 })
                .collect();
            pir_core::builtin::DenseTensorType::get(&self.ctx, d1.dtype, &dims)
        };
        let out = *op
            .output_args("Out")
            .first()
            .ok_or_else(|| self.err("`select_input` needs `Out`"))?;
        let _ = b;
        let new = self.create_op(
            InsertPoint::BlockEnd(dst),
            "pd_op.select_input",
            &operands,
            &[out_ty],
            AttrMap::new(),
            0,
        );
        self.mark_static_keys(new);
        self.record_outputs(scope, new, &[Landing::result(out, 0)]);
        Ok(())
    }

    fn select_output(&mut self, op: &OpDesc<'d>, scope: ScopeId, dst: BlockId) -> Result<()> {
        let mask = op
            .input_args("Mask")
            .first()
            .ok_or_else(|| self.err("`select_output` needs `Mask`"))?;
        let x = op
            .input_args("X")
            .first()
            .ok_or_else(|| self.err("`select_output` needs `X`"))?;
        let m = self.lookup(scope, mask)?.value;
        let xv = self.lookup(scope, x)?.value;
        let outs = op.output_args("Out").to_vec();
        if outs.len() != 2 {
            return Err(self.err("`select_output` needs two outputs"));
        }
        let ty = self.ty(xv);
        let new = self.create_op(
            InsertPoint::BlockEnd(dst),
            "pd_op.select_output",
            &[Some(m), Some(xv)],
            &[ty, ty],
            AttrMap::new(),
            0,
        );
        let map = [Landing::result(outs[0], 0), Landing::result(outs[1], 1)];
        self.record_outputs(scope, new, &map);
        Ok(())
    }

    fn split(&mut self, site: OpSite<'_, 'd>) -> Result<()> {
        let OpSite { op, scope, dst, .. } = site;
        let num = self
            .int_attr(op, "num")?
            .ok_or_else(|| self.err("`split` needs `num`"))?;
        let name = if num > 0 {
            "pd_op.split_with_num"
        } else {
            "pd_op.split"
        };
        let d = def(name).ok_or_else(|| self.err(format!("no {name}")))?;
        self.slice_vector_inputs(op, scope, dst)?;
        let x = op
            .input_args("X")
            .first()
            .ok_or_else(|| self.err("`split` needs `X`"))?;
        let mut operands = vec![Some(self.lookup(scope, x)?.value)];
        if num <= 0 {
            let list = op.input_args("SectionsTensorList").to_vec();
            let s = if !list.is_empty() {
                self.build_combine_vars(dst, scope, &list)?
            } else if let Some(sections) = op.attr("sections") {
                self.value_as_input(dst, "sections", sections, true)?
            } else {
                let a = attrs::translate(&self.ctx, AttrKind::IntArray, None);
                self.full_int_array_from_attr(dst, a)?
            };
            operands.push(Some(s));
        }
        let axis = match op.input("AxisTensor").and_then(|v| v.first()) {
            Some(v) => self.lookup(scope, v)?.value,
            None => {
                let a = attrs::translate(&self.ctx, AttrKind::Int32, op.attr("axis"));
                self.full_from_attr(dst, a)?
            }
        };
        operands.push(Some(axis));
        let results = self.general_outputs(site, &self.plan(op, d))?;
        let mut m = AttrMap::new();
        if num > 0 {
            m.set("num", self.ctx.intern_attr(I32Attr(num)));
        }
        self.create_with_outputs(site, d.name.as_str(), &operands, &results, m);
        Ok(())
    }

    /// `write_to_array` / `lod_array_length`: the array input is the bound
    /// variable or a new `create_array`.
    fn array_op(&mut self, site: OpSite<'_, 'd>) -> Result<()> {
        let OpSite { b, op, scope, dst } = site;
        let (name, input, slot, from_output) = if op.op_type == "write_to_array" {
            ("pd_op.array_write_", "array", "Out", true)
        } else {
            ("pd_op.array_length", "x", "X", false)
        };
        let d = def(name).ok_or_else(|| self.err(format!("no {name}")))?;
        let var = if from_output {
            op.output_args(slot).first()
        } else {
            op.input_args(slot).first()
        }
        .copied()
        .ok_or_else(|| self.err(format!("needs `{slot}`")))?;
        let array = match self.scopes.get(scope, var) {
            Some(v) => v.value,
            None => {
                let desc = self
                    .var(b, var)
                    .ok_or_else(|| self.var_err(var, "not declared"))?;
                let dtype = values::phi_dtype(desc.dtype());
                self.build_create_array(dst, false, dtype)?
            }
        };
        self.slice_vector_inputs(op, scope, dst)?;
        let mut operands = Vec::new();
        for info in d.inputs {
            if info.name == input {
                operands.push(Some(array));
            } else {
                let legacy =
                    crate::compat::compat().legacy_arg_name(op.op_type, info.name.as_str());
                match op.input_args(&legacy).first() {
                    Some(v) => operands.push(Some(self.lookup(scope, v)?.value)),
                    None if info.optional => operands.push(None),
                    None => return Err(self.err(format!("needs input `{legacy}`"))),
                }
            }
        }
        let results = self.general_outputs(site, &self.plan(op, d))?;
        let attrs = self.general_attrs(op, &self.plan(op, d), &Hooks::default())?;
        self.create_with_outputs(site, d.name.as_str(), &operands, &results, attrs);
        Ok(())
    }
}
