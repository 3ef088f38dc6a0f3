//! The test interpreter: buffers shared and written as Paddle's executor
//! shares and writes them.

use std::collections::{BTreeMap, HashMap};

use pir_core::builtin::{DenseTensorType, F32Attr, F64Attr, I32Attr, I64Attr, StrAttr};
use pir_core::{Attribute, BlockId, OpId, Program, ValueId};
use pir_dialects::op_def::OpDefinition;

/// Buffers and the buffer each value names.
#[derive(Default)]
struct Machine {
    bufs: Vec<Vec<f64>>,
    env: HashMap<ValueId, usize>,
    /// The buffers of each vector's elements.
    vectors: HashMap<ValueId, Vec<usize>>,
    fetched: BTreeMap<String, Vec<f64>>,
    shadow: Vec<(String, usize)>,
}

fn number(p: &Program, a: Attribute) -> f64 {
    let ctx = p.ctx();
    ctx.attr_as::<F64Attr>(a)
        .map(|a| a.value())
        .or_else(|| ctx.attr_as::<F32Attr>(a).map(|a| f64::from(a.value())))
        .or_else(|| ctx.attr_as::<I64Attr>(a).map(|a| a.0 as f64))
        .or_else(|| ctx.attr_as::<I32Attr>(a).map(|a| f64::from(a.0)))
        .unwrap()
}

fn string(p: &Program, op: OpId, name: &str) -> String {
    let a = p.attr(op, name).unwrap();
    p.ctx().attr_as::<StrAttr>(a).unwrap().0.to_string()
}

/// Number of elements of a static tensor type (dynamic dims count 1).
fn elements(p: &Program, v: ValueId) -> usize {
    let t = p.ctx().type_as::<DenseTensorType>(p.value_type(v)).unwrap();
    t.dims.iter().map(|&d| d.max(1) as usize).product()
}

fn binary(x: &[f64], y: &[f64], f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    let n = x.len().max(y.len());
    (0..n).map(|i| f(x[i % x.len()], y[i % y.len()])).collect()
}

impl Machine {
    fn read(&self, p: &Program, op: OpId, i: usize) -> Vec<f64> {
        self.bufs[self.env[&p.operand(op, i).unwrap()]].clone()
    }

    fn fresh(&mut self, v: ValueId, data: Vec<f64>) {
        self.bufs.push(data);
        self.env.insert(v, self.bufs.len() - 1);
    }

    /// Runs a block; returns the buffers its `cf.yield` names.
    fn block(&mut self, p: &Program, block: BlockId) -> Vec<usize> {
        for op in p.block_ops(block) {
            if let Some(yielded) = self.op(p, op) {
                return yielded;
            }
        }
        Vec::new()
    }

    fn op(&mut self, p: &Program, op: OpId) -> Option<Vec<usize>> {
        let name = p.op_name_str(op).to_owned();
        let base = name.strip_suffix('_').unwrap_or(&name);
        let data = match base {
            "cf.yield" => {
                let bufs = p.operands(op).map(|v| self.env[&v.unwrap()]).collect();
                return Some(bufs);
            }
            "pd_op.if" => {
                let cond = self.read(p, op, 0)[0] != 0.0;
                let region = p.op_region(op, if cond { 0 } else { 1 });
                let yielded = self.block(p, p.region_blocks(region)[0]);
                for (r, b) in p.results(op).zip(yielded) {
                    self.env.insert(r, b);
                }
                return None;
            }
            "pd_op.while" => {
                let body = p.region_blocks(p.op_region(op, 0))[0];
                let mut cond = self.env[&p.operand(op, 0).unwrap()];
                let mut carried: Vec<usize> = (1..p.num_operands(op))
                    .map(|i| self.env[&p.operand(op, i).unwrap()])
                    .collect();
                while self.bufs[cond][0] != 0.0 {
                    for (&arg, &b) in p.block_args(body).iter().zip(&carried) {
                        self.env.insert(arg, b);
                    }
                    let yielded = self.block(p, body);
                    cond = yielded[0];
                    carried = yielded[1..].to_vec();
                }
                for (r, b) in p.results(op).zip(carried) {
                    self.env.insert(r, b);
                }
                return None;
            }
            "pd_op.split_with_num" => {
                // Along axis 0: contiguous chunks, each a fresh buffer.
                assert_eq!(self.read(p, op, 1), [0.0], "axis 0 only");
                let x = self.read(p, op, 0);
                let num = number(p, p.attr(op, "num").unwrap()) as usize;
                let chunks = x
                    .chunks(x.len() / num)
                    .map(|chunk| {
                        self.bufs.push(chunk.to_vec());
                        self.bufs.len() - 1
                    })
                    .collect();
                self.vectors.insert(p.result(op, 0), chunks);
                return None;
            }
            "builtin.split" => {
                let elements = self.vectors[&p.operand(op, 0).unwrap()].clone();
                for (r, b) in p.results(op).zip(elements) {
                    self.env.insert(r, b);
                }
                return None;
            }
            "pd_op.fetch" => {
                let x = self.read(p, op, 0);
                self.fetched.insert(string(p, op, "name"), x.clone());
                x
            }
            "builtin.shadow_output" => {
                let b = self.env[&p.operand(op, 0).unwrap()];
                self.shadow.push((string(p, op, "output_name"), b));
                return None;
            }
            "pd_op.data" | "builtin.parameter" => {
                let r = p.result(op, 0);
                (0..elements(p, r)).map(|i| i as f64 * 0.75 - 2.0).collect()
            }
            "pd_op.full" => {
                let r = p.result(op, 0);
                vec![number(p, p.attr(op, "value").unwrap()); elements(p, r)]
            }
            "pd_op.full_int_array" => vec![0.0],
            "pd_op.full_with_tensor" => {
                let r = p.result(op, 0);
                vec![self.read(p, op, 0)[0]; elements(p, r)]
            }
            // In test mode, `upscale_in_train` passes its input through.
            "pd_op.dropout" => self.read(p, op, 0),
            "pd_op.abs" => self.read(p, op, 0).iter().map(|x| x.abs()).collect(),
            "pd_op.exp" => self.read(p, op, 0).iter().map(|x| x.exp()).collect(),
            "pd_op.relu" => self.read(p, op, 0).iter().map(|x| x.max(0.0)).collect(),
            "pd_op.tanh" => self.read(p, op, 0).iter().map(|x| x.tanh()).collect(),
            "pd_op.reshape" | "pd_op.assign" | "pd_op.cast" => self.read(p, op, 0),
            "pd_op.sum" => vec![self.read(p, op, 0).iter().sum()],
            "pd_op.scale" => {
                let s = self.read(p, op, 1)[0];
                let bias = number(p, p.attr(op, "bias").unwrap());
                self.read(p, op, 0).iter().map(|x| x * s + bias).collect()
            }
            "pd_op.add" => binary(&self.read(p, op, 0), &self.read(p, op, 1), |a, b| a + b),
            "pd_op.subtract" => binary(&self.read(p, op, 0), &self.read(p, op, 1), |a, b| a - b),
            "pd_op.multiply" => binary(&self.read(p, op, 0), &self.read(p, op, 1), |a, b| a * b),
            "pd_op.less_than" => binary(&self.read(p, op, 0), &self.read(p, op, 1), |a, b| {
                f64::from(u8::from(a < b))
            }),
            other => panic!("the test interpreter does not know {other}"),
        };
        // Buffers as the definition says: an in-place pair writes the
        // input's buffer, a view shares it.
        let r = p.result(op, 0);
        let def = p.op_info(op).and_then(|i| i.interface::<OpDefinition>());
        let (inplace, view) = def.map_or((&[][..], &[][..]), |d| {
            (d.0.inplace.as_slice(), d.0.view.as_slice())
        });
        let writes = inplace.iter().map(|pair| (pair, true));
        for (&(o, i), write) in writes.chain(view.iter().map(|pair| (pair, false))) {
            let def = def.unwrap().0;
            if def.output_index(&o) == Some(0) {
                let b = self.env[&p.operand(op, def.input_index(&i).unwrap()).unwrap()];
                if write {
                    self.bufs[b] = data;
                }
                self.env.insert(r, b);
                return None;
            }
        }
        self.fresh(r, data);
        None
    }
}

/// What a program outputs: fetched copies, and shadow outputs read at the end.
pub(super) fn outputs(p: &Program) -> BTreeMap<String, Vec<f64>> {
    let mut m = Machine::default();
    m.block(p, p.top_block());
    let mut out = std::mem::take(&mut m.fetched);
    for (name, b) in &m.shadow {
        out.insert(name.clone(), m.bufs[*b].clone());
    }
    assert!(!out.is_empty(), "the program outputs nothing");
    out
}
