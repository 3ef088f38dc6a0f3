//! The reference interpreter: runs a program with Paddle's buffer
//! semantics (see the crate-level docs of the test).

use super::*;

// ---------------------------------------------------------------------------
// The reference interpreter
// ---------------------------------------------------------------------------

/// A tensor's storage, shared by every value bound to it.
pub(super) type Buf = Rc<RefCell<Vec<f64>>>;

/// What a program outputs: fetch and shadow-output names to their data.
pub(super) type Outputs = BTreeMap<String, Vec<f64>>;

/// A `while` running longer than this is a broken loop (generated loops run
/// at most a handful of iterations).
pub(super) const LOOP_LIMIT: usize = 1_000;
/// Ops executed before the interpreter gives up.
pub(super) const STEP_LIMIT: u64 = 1_000_000;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Elem {
    F32,
    F64,
    Int,
    Bool,
}

impl Elem {
    /// `x` stored in this element type.
    fn round(self, x: f64) -> f64 {
        match self {
            Elem::F32 => f64::from(x as f32),
            Elem::F64 => x,
            Elem::Int => x.trunc(),
            Elem::Bool => f64::from(u8::from(x != 0.0)),
        }
    }
}

/// Shape and element type of a dense tensor value.
pub(super) fn meta(p: &Program, v: ValueId) -> Result<(Vec<usize>, Elem), String> {
    let ctx = p.ctx();
    let t = ctx
        .type_as::<DenseTensorType>(p.value_type(v))
        .ok_or_else(|| format!("value {v:?} is not a dense tensor"))?;
    let dims = t
        .dims
        .iter()
        .map(|&d| usize::try_from(d).map_err(|_| format!("dynamic dimension in {v:?}")))
        .collect::<Result<Vec<_>, _>>()?;
    let elem = match ctx.type_as::<ScalarType>(t.dtype) {
        Some(ScalarType::F32) => Elem::F32,
        Some(ScalarType::F64) => Elem::F64,
        Some(ScalarType::I64 | ScalarType::I32 | ScalarType::I16 | ScalarType::I8) => Elem::Int,
        Some(ScalarType::Bool) => Elem::Bool,
        other => return Err(format!("unsupported element type {other:?}")),
    };
    Ok((dims, elem))
}

pub(super) fn numel(dims: &[usize]) -> usize {
    dims.iter().product()
}

/// A number held by a scalar attribute of any kind.
pub(super) fn attr_num(p: &Program, op: OpId, name: &str) -> Option<f64> {
    let ctx = p.ctx();
    let a = p.attr(op, name)?;
    ctx.attr_as::<F64Attr>(a)
        .map(|a| a.value())
        .or_else(|| ctx.attr_as::<F32Attr>(a).map(|a| f64::from(a.value())))
        .or_else(|| ctx.attr_as::<I64Attr>(a).map(|a| a.0 as f64))
        .or_else(|| ctx.attr_as::<I32Attr>(a).map(|a| f64::from(a.0)))
        .or_else(|| ctx.attr_as::<BoolAttr>(a).map(|a| f64::from(u8::from(a.0))))
}

/// The numbers of an array or int-array attribute.
pub(super) fn attr_nums(p: &Program, op: OpId, name: &str) -> Option<Vec<f64>> {
    let ctx = p.ctx();
    let a = p.attr(op, name)?;
    if let Some(ints) = ctx.attr_as::<IntArrayAttr>(a) {
        return Some(ints.0.iter().map(|&i| i as f64).collect());
    }
    ctx.attr_as::<ArrayAttr>(a)?
        .0
        .iter()
        .map(|&e| {
            ctx.attr_as::<I64Attr>(e)
                .map(|a| a.0 as f64)
                .or_else(|| ctx.attr_as::<I32Attr>(e).map(|a| f64::from(a.0)))
                .or_else(|| ctx.attr_as::<F64Attr>(e).map(|a| a.value()))
                .or_else(|| ctx.attr_as::<F32Attr>(e).map(|a| f64::from(a.value())))
        })
        .collect()
}

pub(super) fn attr_str(p: &Program, op: OpId, name: &str) -> Option<String> {
    p.ctx()
        .attr_as::<StrAttr>(p.attr(op, name)?)
        .map(|s| s.0.to_string())
}

/// The fixed contents of an input: a pattern of its name, in `[-2, 2]`.
pub(super) fn input_data(name: &str, n: usize, elem: Elem) -> Vec<f64> {
    let h = name
        .bytes()
        .fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    (0..n as u64)
        .map(|i| {
            let k = (h.wrapping_add(i.wrapping_mul(37))) % 17;
            elem.round(k as f64 / 4.0 - 2.0)
        })
        .collect()
}

/// Index into an operand of shape `inp` for element `flat` of a result of
/// shape `out` (numpy broadcasting: dimensions aligned to the right, size-1
/// dimensions repeated).
pub(super) fn broadcast_index(out: &[usize], inp: &[usize], flat: usize) -> usize {
    let off = out.len() - inp.len();
    let (mut rem, mut idx, mut stride) = (flat, 0, 1);
    for k in (0..out.len()).rev() {
        let c = rem % out[k];
        rem /= out[k];
        if k >= off {
            let d = inp[k - off];
            if d != 1 {
                idx += c * stride;
            }
            stride *= d;
        }
    }
    idx
}

pub(super) fn broadcastable(out: &[usize], inp: &[usize]) -> bool {
    inp.len() <= out.len()
        && inp
            .iter()
            .rev()
            .zip(out.iter().rev())
            .all(|(&i, &o)| i == o || i == 1)
}

pub(super) fn unary_fn(base: &str) -> Option<fn(f64) -> f64> {
    let f: fn(f64) -> f64 = match base {
        "pd_op.relu" => |x| if x > 0.0 { x } else { 0.0 },
        "pd_op.abs" => f64::abs,
        "pd_op.exp" => f64::exp,
        "pd_op.tanh" => f64::tanh,
        "pd_op.sin" => f64::sin,
        "pd_op.sigmoid" => |x| 1.0 / (1.0 + (-x).exp()),
        "pd_op.assign" | "pd_op.cast" => |x| x,
        "pd_op.logical_not" => |x| f64::from(u8::from(x == 0.0)),
        _ => return None,
    };
    Some(f)
}

pub(super) fn binary_fn(base: &str) -> Option<fn(f64, f64) -> f64> {
    let f: fn(f64, f64) -> f64 = match base {
        "pd_op.add" => |x, y| x + y,
        "pd_op.subtract" => |x, y| x - y,
        "pd_op.multiply" => |x, y| x * y,
        "pd_op.maximum" => f64::max,
        "pd_op.minimum" => f64::min,
        "pd_op.less_than" => |x, y| f64::from(u8::from(x < y)),
        "pd_op.less_equal" => |x, y| f64::from(u8::from(x <= y)),
        "pd_op.greater_than" => |x, y| f64::from(u8::from(x > y)),
        "pd_op.greater_equal" => |x, y| f64::from(u8::from(x >= y)),
        "pd_op.equal" => |x, y| f64::from(u8::from(x == y)),
        "pd_op.not_equal" => |x, y| f64::from(u8::from(x != y)),
        _ => return None,
    };
    Some(f)
}

/// Runs a program with Paddle's buffer semantics (see the module docs).
pub(super) struct Interp<'p> {
    p: &'p Program,
    env: HashMap<ValueId, Buf>,
    /// `builtin.combine` results: their elements. Paddle's
    /// `VariableRefArray` holds the variables, so a read sees what each
    /// element is bound to at that time.
    vectors: HashMap<ValueId, Vec<ValueId>>,
    out: Outputs,
    shadow: Vec<(String, ValueId)>,
    steps: u64,
    /// Largest magnitude computed (infinite once something is not finite).
    largest: f64,
}

/// The outputs of `p`, or why it cannot run.
pub(super) fn interpret(p: &Program) -> Result<Outputs, String> {
    interpret_measured(p).map(|(out, _)| out)
}

/// The outputs of `p` and the largest magnitude it computes.
pub(super) fn interpret_measured(p: &Program) -> Result<(Outputs, f64), String> {
    let mut it = Interp {
        p,
        env: HashMap::new(),
        vectors: HashMap::new(),
        out: Outputs::new(),
        shadow: Vec::new(),
        steps: 0,
        largest: 0.0,
    };
    it.block(p.top_block())?;
    for (name, v) in std::mem::take(&mut it.shadow) {
        let data = it.get(v)?.borrow().clone();
        it.record(name, data);
    }
    Ok((it.out, it.largest))
}

impl Interp<'_> {
    fn get(&self, v: ValueId) -> Result<Buf, String> {
        self.env
            .get(&v)
            .cloned()
            .ok_or_else(|| format!("{v:?} is read before it is defined"))
    }

    /// The buffers the elements of vector `v` are bound to now.
    fn vector(&self, v: ValueId) -> Result<Vec<Buf>, String> {
        let elems = self
            .vectors
            .get(&v)
            .ok_or_else(|| format!("{v:?} is not a vector defined before"))?;
        elems.iter().map(|&e| self.get(e)).collect()
    }

    fn operand(&self, op: OpId, i: usize) -> Result<Buf, String> {
        let v = self
            .p
            .operand(op, i)
            .ok_or_else(|| format!("{} has no operand {i}", self.p.op_name_str(op)))?;
        self.get(v)
    }

    fn operand_meta(&self, op: OpId, i: usize) -> Result<(Vec<usize>, Elem), String> {
        meta(self.p, self.p.operand(op, i).ok_or("missing operand")?)
    }

    fn fresh(&mut self, v: ValueId, data: Vec<f64>) {
        self.env.insert(v, Rc::new(RefCell::new(data)));
    }

    fn record(&mut self, name: String, data: Vec<f64>) {
        let mut key = name.clone();
        let mut k = 1;
        while self.out.contains_key(&key) {
            k += 1;
            key = format!("{name}#{k}");
        }
        self.out.insert(key, data);
    }

    /// Whether element 0 of `v`'s buffer is true.
    fn truth(&self, v: ValueId) -> Result<bool, String> {
        let b = self.get(v)?;
        let b = b.borrow();
        b.first()
            .map(|&x| x != 0.0)
            .ok_or_else(|| "empty condition".into())
    }

    /// Runs the ops of `block`; returns the buffers its `cf.yield` yields.
    fn block(&mut self, block: BlockId) -> Result<Vec<Buf>, String> {
        let ops: Vec<OpId> = self.p.block_ops(block).collect();
        for op in ops {
            if self.p.op_name_str(op) == "cf.yield" {
                return (0..self.p.num_operands(op))
                    .map(|i| self.operand(op, i))
                    .collect();
            }
            self.op(op)?;
        }
        Ok(Vec::new())
    }

    /// Binds the result of `op` to `data`: written into operand 0's buffer
    /// for an in-place op, a fresh buffer otherwise.
    fn set_result(&mut self, op: OpId, mut data: Vec<f64>, inplace: bool) -> Result<(), String> {
        let r = self.p.result(op, 0);
        let (dims, elem) = meta(self.p, r)?;
        if data.len() != numel(&dims) {
            return Err(format!(
                "{} computed {} elements for a result of shape {dims:?}",
                self.p.op_name_str(op),
                data.len()
            ));
        }
        for x in &mut data {
            *x = elem.round(*x);
            self.largest = if x.is_finite() {
                self.largest.max(x.abs())
            } else {
                f64::INFINITY
            };
        }
        if inplace {
            let x = self.operand(op, 0)?;
            if x.borrow().len() != data.len() {
                return Err(format!(
                    "{} writes {} elements into a buffer of {}",
                    self.p.op_name_str(op),
                    data.len(),
                    x.borrow().len()
                ));
            }
            *x.borrow_mut() = data;
            self.env.insert(r, x);
        } else {
            self.fresh(r, data);
        }
        Ok(())
    }

    fn op(&mut self, op: OpId) -> Result<(), String> {
        self.steps += 1;
        if self.steps > STEP_LIMIT {
            return Err("the step limit was reached".into());
        }
        let p = self.p;
        let name = p.op_name_str(op);
        let inplace = p.op_info(op).is_some_and(|i| i.has_trait(traits::INPLACE));
        match name {
            "pd_op.data" => {
                let r = p.result(op, 0);
                let (dims, elem) = meta(p, r)?;
                let label = attr_str(p, op, "name").unwrap_or_default();
                self.fresh(r, input_data(&label, numel(&dims), elem));
            }
            "pd_op.full" => {
                let value = attr_num(p, op, "value").ok_or("full without a value")?;
                let (dims, _) = meta(p, p.result(op, 0))?;
                self.set_result(op, vec![value; numel(&dims)], false)?;
            }
            "pd_op.full_int_array" => {
                let values = attr_nums(p, op, "value").ok_or("full_int_array without values")?;
                self.set_result(op, values, false)?;
            }
            "pd_op.fetch" => {
                let data = self.operand(op, 0)?.borrow().clone();
                let label = attr_str(p, op, "name").unwrap_or_default();
                self.record(label, data.clone());
                if p.num_results(op) > 0 {
                    self.set_result(op, data, false)?;
                }
            }
            "builtin.shadow_output" => {
                let label = attr_str(p, op, "output_name").unwrap_or_default();
                let v = p.operand(op, 0).ok_or("shadow_output without operand")?;
                self.get(v)?;
                self.shadow.push((label, v));
            }
            "vt.to_vtensor" | "vt.to_tensor" => {
                // Value-tensor copies (value-semantics passes).
                let data = self.operand(op, 0)?.borrow().clone();
                self.fresh(p.result(op, 0), data);
            }
            "builtin.combine" => {
                let elems: Vec<ValueId> = p.operands(op).flatten().collect();
                for &e in &elems {
                    self.get(e)?;
                }
                self.vectors.insert(p.result(op, 0), elems);
            }
            "builtin.slice" | "builtin.split" => {
                let v = p.operand(op, 0).ok_or("slice without operand")?;
                let bufs = self.vector(v)?;
                if name == "builtin.slice" {
                    let i = attr_num(p, op, "index").ok_or("slice without index")? as usize;
                    let buf = bufs.get(i).ok_or("slice index out of range")?.clone();
                    self.env.insert(p.result(op, 0), buf);
                } else {
                    if bufs.len() != p.num_results(op) {
                        return Err("split into a different number of tensors".into());
                    }
                    for (r, buf) in p.results(op).zip(bufs) {
                        self.env.insert(r, buf);
                    }
                }
            }
            "pd_op.add_n" => {
                let v = p.operand(op, 0).ok_or("add_n without operand")?;
                let bufs = self.vector(v)?;
                let (dims, _) = meta(p, p.result(op, 0))?;
                let mut data = vec![0.0; numel(&dims)];
                for buf in &bufs {
                    let buf = buf.borrow();
                    if buf.len() != data.len() {
                        return Err("add_n of tensors of different sizes".into());
                    }
                    data.iter_mut().zip(buf.iter()).for_each(|(d, x)| *d += x);
                }
                self.set_result(op, data, false)?;
            }
            "pd_op.if" => self.run_if(op)?,
            "pd_op.while" => self.run_while(op)?,
            "pd_op.reshape_" | "pd_op.reshape" => {
                let x = self.operand(op, 0)?;
                let r = p.result(op, 0);
                let (dims, _) = meta(p, r)?;
                if x.borrow().len() != numel(&dims) {
                    return Err("reshape changes the element count".into());
                }
                if name == "pd_op.reshape_" {
                    self.env.insert(r, x); // a view: the same buffer
                } else {
                    let data = x.borrow().clone();
                    self.fresh(r, data);
                }
            }
            "pd_op.assign_out_" => {
                let data = self.operand(op, 0)?.borrow().clone();
                let out = self.operand(op, 1)?;
                let (_, elem) = self.operand_meta(op, 1)?;
                if out.borrow().len() != data.len() {
                    return Err("assign_out_ between different sizes".into());
                }
                *out.borrow_mut() = data.into_iter().map(|x| elem.round(x)).collect();
                self.env.insert(p.result(op, 0), out);
            }
            "pd_op.scale" | "pd_op.scale_" => {
                let s = *self.operand(op, 1)?.borrow().first().ok_or("empty scale")?;
                let bias = attr_num(p, op, "bias").unwrap_or(0.0);
                let after = attr_num(p, op, "bias_after_scale").unwrap_or(1.0) != 0.0;
                let data = self
                    .operand(op, 0)?
                    .borrow()
                    .iter()
                    .map(|&x| if after { x * s + bias } else { (x + bias) * s })
                    .collect();
                self.set_result(op, data, inplace)?;
            }
            "pd_op.increment" | "pd_op.increment_" => {
                let value = attr_num(p, op, "value").unwrap_or(1.0);
                let data = self
                    .operand(op, 0)?
                    .borrow()
                    .iter()
                    .map(|&x| x + value)
                    .collect();
                self.set_result(op, data, inplace)?;
            }
            "pd_op.transpose" => {
                let perm = attr_nums(p, op, "perm").ok_or("transpose without perm")?;
                let (din, _) = self.operand_meta(op, 0)?;
                let (dout, _) = meta(p, p.result(op, 0))?;
                if perm.len() != din.len() || dout.len() != din.len() {
                    return Err("transpose rank mismatch".into());
                }
                let perm: Vec<usize> = perm.iter().map(|&k| k as usize).collect();
                let mut strides = vec![1; din.len()];
                for k in (0..din.len().saturating_sub(1)).rev() {
                    strides[k] = strides[k + 1] * din[k + 1];
                }
                let x = self.operand(op, 0)?;
                let x = x.borrow();
                let data = (0..numel(&dout))
                    .map(|flat| {
                        let (mut rem, mut idx) = (flat, 0);
                        for k in (0..dout.len()).rev() {
                            idx += (rem % dout[k]) * strides[perm[k]];
                            rem /= dout[k];
                        }
                        x[idx]
                    })
                    .collect();
                drop(x);
                self.set_result(op, data, false)?;
            }
            "pd_op.sum" => {
                let (din, _) = self.operand_meta(op, 0)?;
                let axes: Vec<usize> = self
                    .operand(op, 1)?
                    .borrow()
                    .iter()
                    .map(|&a| {
                        let a = a as i64;
                        (if a < 0 { a + din.len() as i64 } else { a }) as usize
                    })
                    .collect();
                let reduced = |k: usize| axes.is_empty() || axes.contains(&k);
                let (dout, _) = meta(p, p.result(op, 0))?;
                let mut data = vec![0.0; numel(&dout)];
                let x = self.operand(op, 0)?;
                for (flat, &v) in x.borrow().iter().enumerate() {
                    let mut coords = vec![0; din.len()];
                    let mut rem = flat;
                    for k in (0..din.len()).rev() {
                        coords[k] = rem % din[k];
                        rem /= din[k];
                    }
                    let o = (0..din.len())
                        .filter(|&k| !reduced(k))
                        .fold(0, |o, k| o * din[k] + coords[k]);
                    *data.get_mut(o).ok_or("sum result too small")? += v;
                }
                self.set_result(op, data, false)?;
            }
            _ => {
                let base = if inplace {
                    name.strip_suffix('_').unwrap_or(name)
                } else {
                    name
                };
                if let Some(f) = unary_fn(base) {
                    let data = self
                        .operand(op, 0)?
                        .borrow()
                        .iter()
                        .map(|&x| f(x))
                        .collect();
                    self.set_result(op, data, inplace)?;
                } else if let Some(f) = binary_fn(base) {
                    let (dx, _) = self.operand_meta(op, 0)?;
                    let (dy, _) = self.operand_meta(op, 1)?;
                    let (dout, _) = meta(p, p.result(op, 0))?;
                    if !broadcastable(&dout, &dx) || !broadcastable(&dout, &dy) {
                        return Err(format!("{name}: {dx:?} and {dy:?} do not give {dout:?}"));
                    }
                    let (x, y) = (self.operand(op, 0)?, self.operand(op, 1)?);
                    let data = {
                        let (x, y) = (x.borrow(), y.borrow());
                        (0..numel(&dout))
                            .map(|i| {
                                f(
                                    x[broadcast_index(&dout, &dx, i)],
                                    y[broadcast_index(&dout, &dy, i)],
                                )
                            })
                            .collect()
                    };
                    self.set_result(op, data, inplace)?;
                } else {
                    return Err(format!("the interpreter does not know `{name}`"));
                }
            }
        }
        Ok(())
    }

    /// `IfInstruction`: run one branch; the results share what it yields.
    fn run_if(&mut self, op: OpId) -> Result<(), String> {
        let p = self.p;
        let cond = self.truth(p.operand(op, 0).ok_or("if without condition")?)?;
        let region = p.op_region(op, if cond { 0 } else { 1 });
        let block = *p.region_blocks(region).first().ok_or("if without block")?;
        let yielded = self.block(block)?;
        if yielded.len() != p.num_results(op) {
            return Err("if: yield and results differ in number".into());
        }
        for (r, buf) in p.results(op).zip(yielded) {
            self.env.insert(r, buf);
        }
        Ok(())
    }

    /// `WhileInstruction`: see the module docs.
    fn run_while(&mut self, op: OpId) -> Result<(), String> {
        let p = self.p;
        let cond = p.operand(op, 0).ok_or("while without condition")?;
        // ShareInputsToOutputs.
        let mut carried: Vec<Buf> = (1..p.num_operands(op))
            .map(|i| self.operand(op, i))
            .collect::<Result<_, _>>()?;
        let body = *p
            .region_blocks(p.op_region(op, 0))
            .first()
            .ok_or("while without body")?;
        let args = p.block_args(body).to_vec();
        let mut iterations = 0;
        while self.truth(cond)? {
            iterations += 1;
            if iterations > LOOP_LIMIT {
                return Err(format!("a while ran more than {LOOP_LIMIT} iterations"));
            }
            // ShareOutputsToBlockArgs.
            for (&a, b) in args.iter().zip(&carried) {
                self.env.insert(a, b.clone());
            }
            let yielded = self.block(body)?;
            if yielded.len() != carried.len() + 1 {
                return Err("while: yield and carried values differ in number".into());
            }
            // YieldInstruction: the results share the yielded buffers;
            // ShareConditionData: the condition variable is rebound.
            carried = yielded[1..].to_vec();
            self.env.insert(cond, yielded[0].clone());
        }
        for (r, buf) in p.results(op).zip(carried) {
            self.env.insert(r, buf);
        }
        Ok(())
    }
}

/// Why two runs' outputs differ, if they do (equal: bitwise, or within 1e-12).
pub(super) fn compare(before: &Outputs, after: &Outputs) -> Result<(), String> {
    compare_within(before, after, 0.0)
}

/// [`compare`], also taking values within `relative` of each other (of the
/// larger magnitude) as equal.
pub(super) fn compare_within(
    before: &Outputs,
    after: &Outputs,
    relative: f64,
) -> Result<(), String> {
    let names = |o: &Outputs| o.keys().cloned().collect::<Vec<_>>();
    if names(before) != names(after) {
        return Err(format!(
            "the outputs are {:?} before and {:?} after",
            names(before),
            names(after)
        ));
    }
    for (name, a) in before {
        let b = &after[name];
        let same = a.len() == b.len()
            && a.iter().zip(b).all(|(&x, &y)| {
                x == y
                    || (x - y).abs() <= 1e-12
                    || x.to_bits() == y.to_bits()
                    || (x - y).abs() <= relative * x.abs().max(y.abs())
            });
        if !same {
            return Err(format!("output `{name}` is {a:?} before and {b:?} after"));
        }
    }
    Ok(())
}
