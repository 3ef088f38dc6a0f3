//! Which values share their leading (batch) dim at run time.
//!
//! A type says `-1` for a batch size it does not know, so two `[-1,16,8,8]`
//! tensors may have different batch sizes, and `add` of them may broadcast a
//! batch of 1 to the other's. Most models have one batch size, set by their
//! data input: this analysis follows it. The *origin* of a value with a
//! dynamic leading dim is the `pd_op.data` result whose leading dim it has,
//! when the ops between provably keep it:
//! - an op that keeps its first operand's leading dim in its first result
//!   ([`KEEPS_LEADING_DIM`], ops with Paddle's `UnaryElementWiseTrait`, and
//!   `matmul` of a weight of rank ≤ 2 without `transpose_x`);
//! - an op with `BinaryElementWiseTrait` (or [`BROADCASTS_LIKE_BINARY`])
//!   whose operands of the result's rank all have the same origin, or a
//!   static leading dim of 1 (broadcast).
//!
//! - a `pd_op.while` body argument, and the matching result, when its initial
//!   value has the origin and the body yields a value of that origin back
//!   (see [`LeadingDims::new`]);
//! - a `pd_op.if` result, when every branch yields a value of that origin.
//!
//! Values whose leading dim comes from anything else (a `reshape`, a
//! `gather`) have no origin: nothing is claimed about them.

use pir_core::op_info::TraitId;
use pir_core::walk::Order;
use pir_core::{OpId, Program, ValueId};
use pir_dialects::op_def::OpDefinition;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::alias::{while_body, yield_of};
use crate::transforms::dense_dims;

/// Ops whose first result has the leading dim of their first operand
/// (batch-first layers: convolutions, pools, norms, interpolations, and
/// shape-keeping ops without Paddle's element-wise trait).
pub const KEEPS_LEADING_DIM: [&str; 39] = [
    "pd_op.conv2d",
    "pd_op.depthwise_conv2d",
    "pd_op.conv2d_transpose",
    "pd_op.depthwise_conv2d_transpose",
    "pd_op.conv3d",
    "pd_op.conv3d_transpose",
    "pd_op.pool2d",
    "pd_op.pool3d",
    "pd_op.batch_norm",
    "pd_op.batch_norm_",
    "pd_op.layer_norm",
    "pd_op.group_norm",
    "pd_op.instance_norm",
    "pd_op.softmax",
    "pd_op.softmax_",
    "pd_op.log_softmax",
    "pd_op.fc",
    "pd_op.scale",
    "pd_op.scale_",
    "pd_op.cast",
    "pd_op.cast_",
    "pd_op.hardswish",
    "pd_op.hardsigmoid",
    "pd_op.dropout",
    "pd_op.bilinear_interp",
    "pd_op.nearest_interp",
    "pd_op.bicubic_interp",
    "pd_op.linear_interp",
    "pd_op.full_like",
    // Element-wise without Paddle's trait.
    "pd_op.gelu",
    "pd_op.selu",
    "pd_op.clip",
    "pd_op.clip_",
    "pd_op.round",
    "pd_op.round_",
    "pd_op.pow",
    "pd_op.pow_",
    "pd_op.trunc",
    "pd_op.assign",
];

/// Ops that broadcast their tensor operands like those with Paddle's
/// `BinaryElementWiseTrait` but lack the trait.
pub const BROADCASTS_LIKE_BINARY: [&str; 12] = [
    "pd_op.minimum",
    "pd_op.where",
    "pd_op.where_",
    "pd_op.equal",
    "pd_op.not_equal",
    "pd_op.less_than",
    "pd_op.less_equal",
    "pd_op.greater_than",
    "pd_op.greater_equal",
    "pd_op.logical_and",
    "pd_op.logical_or",
    "pd_op.logical_xor",
];

/// Whether `op` broadcasts its tensor operands element-wise: it has
/// Paddle's `BinaryElementWiseTrait` (`binary`), or it or its out-of-place
/// twin is one of [`BROADCASTS_LIKE_BINARY`].
pub fn broadcasts(p: &Program, op: OpId, binary: TraitId) -> bool {
    let name = p.op_name_str(op);
    p.op_info(op).is_some_and(|i| i.has_trait(binary))
        || BROADCASTS_LIKE_BINARY.contains(&name)
        || name
            .strip_suffix('_')
            .is_some_and(|base| BROADCASTS_LIKE_BINARY.contains(&base))
}

/// The origin of every value with a dynamic leading dim that has one
/// (module docs), computed in one walk in program order.
#[derive(Debug, Default)]
pub struct LeadingDims(FxHashMap<ValueId, ValueId>);

impl LeadingDims {
    /// The origins of the values under `root`.
    ///
    /// A loop-carried value keeps its initial origin only if every iteration
    /// yields a value of that origin, which depends on the origins of the
    /// body's own arguments. The walk first assumes every body argument has
    /// its initial value's origin, then drops the assumptions whose yields
    /// disagree and walks again, until none is dropped. What is left holds
    /// by induction over the iterations: each argument starts with its
    /// origin, and an iteration whose arguments have theirs yields them back.
    /// Each round drops at least one assumption, so there are at most as many
    /// rounds as loop-carried values, plus one.
    pub fn new(p: &Program, root: OpId) -> Self {
        let mut dropped = FxHashSet::default();
        loop {
            let map = walk(p, root, &dropped);
            let before = dropped.len();
            for (arg, yielded) in carried_pairs(p, root) {
                if map.contains_key(&arg) && map.get(&yielded) != map.get(&arg) {
                    dropped.insert(arg);
                }
            }
            if dropped.len() == before {
                return LeadingDims(map);
            }
        }
    }

    /// The origin of `v`'s leading dim, if known.
    pub fn origin(&self, v: ValueId) -> Option<ValueId> {
        self.0.get(&v).copied()
    }

    /// Records that `copy` (a value made after the analysis, computed like
    /// `v`) has `v`'s origin.
    pub fn copy_origin(&mut self, v: ValueId, copy: ValueId) {
        if let Some(origin) = self.origin(v) {
            self.0.insert(copy, origin);
        }
    }
}

/// One walk in program order, with the body arguments of `dropped` given no
/// origin and every other body argument its initial value's.
fn walk(p: &Program, root: OpId, dropped: &FxHashSet<ValueId>) -> FxHashMap<ValueId, ValueId> {
    let mut walk = Walk {
        p,
        dropped,
        unary: p.ctx().trait_id("pir::UnaryElementWiseTrait"),
        binary: p.ctx().trait_id("pir::BinaryElementWiseTrait"),
        map: FxHashMap::default(),
    };
    walk.regions_of(root);
    walk.map
}

/// The state of one walk.
struct Walk<'a> {
    p: &'a Program,
    dropped: &'a FxHashSet<ValueId>,
    unary: TraitId,
    binary: TraitId,
    map: FxHashMap<ValueId, ValueId>,
}

impl Walk<'_> {
    fn regions_of(&mut self, op: OpId) {
        let p = self.p;
        for region in p.regions(op) {
            for &block in p.region_blocks(region) {
                for op in p.block_ops(block) {
                    self.op(op);
                }
            }
        }
    }

    fn op(&mut self, op: OpId) {
        let p = self.p;
        match p.op_name_str(op) {
            "pd_op.while" => {
                // Before the body: the arguments' origins are assumed here.
                for (i, arg, result) in while_carried(p, op) {
                    let init = p.operand(op, i + 1).and_then(|x| self.origin(x));
                    if let Some(origin) = init.filter(|_| !self.dropped.contains(&arg)) {
                        for v in [arg, result] {
                            if leading_dim(p, v) == Some(-1) {
                                self.map.insert(v, origin);
                            }
                        }
                    }
                }
                self.regions_of(op);
            }
            "pd_op.if" => {
                // After the branches: a result has the origin every branch
                // yields for it.
                self.regions_of(op);
                for (i, result) in p.results(op).enumerate() {
                    if leading_dim(p, result) != Some(-1) {
                        continue;
                    }
                    let mut origins = p.regions(op).map(|region| {
                        let block = p.region_blocks(region).first().copied()?;
                        let yielded = p.operand(yield_of(p, block)?, i)?;
                        self.origin(yielded)
                    });
                    let first = origins.next().flatten();
                    if let Some(origin) = first.filter(|&o| origins.all(|x| x == Some(o))) {
                        self.map.insert(result, origin);
                    }
                }
            }
            _ if p.num_regions(op) > 0 => self.regions_of(op),
            name => {
                let Some(result) = p.results(op).next() else {
                    return;
                };
                if leading_dim(p, result) != Some(-1) {
                    return;
                }
                let info = p.op_info(op);
                let origin = if name == "pd_op.data" {
                    Some(result)
                } else if KEEPS_LEADING_DIM.contains(&name)
                    || info.is_some_and(|i| i.has_trait(self.unary))
                    || keeps_leading_matmul(p, op)
                {
                    p.operand(op, 0).and_then(|x| self.origin(x))
                } else if broadcasts(p, op, self.binary) {
                    binary_origin(p, &self.map, op, result)
                } else {
                    None
                };
                if let Some(origin) = origin {
                    self.map.insert(result, origin);
                }
            }
        }
    }

    fn origin(&self, v: ValueId) -> Option<ValueId> {
        self.map.get(&v).copied()
    }
}

/// `(index, body argument, result)` of each loop-carried value of a
/// `pd_op.while` (operand `index + 1`, yielded as operand `index + 1`).
fn while_carried(p: &Program, op: OpId) -> Vec<(usize, ValueId, ValueId)> {
    let Some(body) = while_body(p, op) else {
        return Vec::new();
    };
    p.block_args(body)
        .iter()
        .enumerate()
        .filter(|&(i, _)| i < p.num_results(op))
        .map(|(i, &arg)| (i, arg, p.result(op, i)))
        .collect()
}

/// `(body argument, value yielded for it)` of every `pd_op.while` under `root`.
fn carried_pairs(p: &Program, root: OpId) -> Vec<(ValueId, ValueId)> {
    let mut pairs = Vec::new();
    p.walk(root, Order::Pre, &mut |op| {
        if p.op_name_str(op) != "pd_op.while" {
            return;
        }
        let Some(terminator) = while_body(p, op).and_then(|b| yield_of(p, b)) else {
            return;
        };
        for (i, arg, _) in while_carried(p, op) {
            if let Some(yielded) = p.operand(terminator, i + 1) {
                pairs.push((arg, yielded));
            }
        }
    });
    pairs
}

/// The leading dim of `v`'s dense tensor type, if it has one.
fn leading_dim(p: &Program, v: ValueId) -> Option<i64> {
    dense_dims(p, v)?.first().copied()
}

/// The rank of `v`'s dense tensor type, if it is one.
fn rank(p: &Program, v: ValueId) -> Option<usize> {
    dense_dims(p, v).map(<[i64]>::len)
}

/// `matmul(x, y)` without `transpose_x`, `y` of rank ≤ 2 and `x` of rank
/// ≥ 2: the result's leading dim is `x`'s (no batch broadcasting).
pub(crate) fn keeps_leading_matmul(p: &Program, op: OpId) -> bool {
    if p.op_name_str(op) != "pd_op.matmul" {
        return false;
    }
    p.attr_bool(op, "transpose_x") == Some(false)
        && p.operand(op, 0)
            .and_then(|x| rank(p, x))
            .is_some_and(|r| r >= 2)
        && p.operand(op, 1)
            .and_then(|y| rank(p, y))
            .is_some_and(|r| r <= 2)
}

/// The origin of an element-wise binary op's result: every operand of the
/// result's rank has that origin or a static leading dim of 1; operands of
/// lower rank do not reach the leading dim.
fn binary_origin(
    p: &Program,
    map: &FxHashMap<ValueId, ValueId>,
    op: OpId,
    result: ValueId,
) -> Option<ValueId> {
    let r = rank(p, result)?;
    let definition = p.op_info(op)?.interface::<OpDefinition>()?.0;
    let mut origin = None;
    for (v, input) in p.operands(op).zip(definition.inputs) {
        let Some(v) = v else { continue };
        if input.mutable_attribute || rank(p, v)? < r {
            continue;
        }
        match leading_dim(p, v)? {
            1 => {}
            -1 => {
                let o = map.get(&v).copied()?;
                if origin.is_some_and(|known| known != o) {
                    return None;
                }
                origin = Some(o);
            }
            _ => return None,
        }
    }
    origin
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a test fails loudly by design
mod tests {
    use super::*;

    /// conv, norm and activation keep the data input's batch; a binary op
    /// of two such values keeps it; a reshape loses it.
    #[test]
    fn origins_follow_batch_keeping_ops_only() {
        let ctx = pir_dialects::pd_op_context();
        let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,2,4,4],stop_gradient:[false]} : () -> tensor<-1x2x4x4xf32>
    (%1) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<2x2x1x1xf32>
    (%2) = "pd_op.conv2d" (%0, %1) {data_format:"NCHW",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[0,0],stop_gradient:[false],strides:[1,1]} : (tensor<-1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<-1x2x4x4xf32>
    (%3) = "pd_op.relu" (%2) {stop_gradient:[false]} : (tensor<-1x2x4x4xf32>) -> tensor<-1x2x4x4xf32>
    (%4) = "pd_op.add" (%3, %0) {stop_gradient:[false]} : (tensor<-1x2x4x4xf32>, tensor<-1x2x4x4xf32>) -> tensor<-1x2x4x4xf32>
    (%5) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[-1,2,4,4]} : () -> tensor<4xi64>
    (%6, %7) = "pd_op.reshape" (%4, %5) {stop_gradient:[false]} : (tensor<-1x2x4x4xf32>, tensor<4xi64>) -> tensor<-1x2x4x4xf32>, tensor<0x-1x2x4x4xf32>
}"#;
        let p = Program::parse(&ctx, text).unwrap();
        let dims = LeadingDims::new(&p, p.module_op());
        let ops: Vec<OpId> = p.block_ops(p.top_block()).collect();
        let value = |n: usize| p.results(ops[n]).next().unwrap();
        let data = value(0);
        assert_eq!(dims.origin(data), Some(data));
        for op in [2, 3, 4] {
            assert_eq!(dims.origin(value(op)), Some(data), "op {op}");
        }
        assert_eq!(
            dims.origin(value(6)),
            None,
            "a reshape's leading dim is its own"
        );
    }

    /// Element-wise ops without Paddle's traits (`gelu`, `pow`, `minimum`,
    /// `where`) keep the batch too; `where` broadcasting another data
    /// input's batch does not.
    #[test]
    fn element_wise_ops_without_traits_keep_the_batch() {
        let ctx = pir_dialects::pd_op_context();
        let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,8],stop_gradient:[false]} : () -> tensor<-1x8xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[-1,8],stop_gradient:[false]} : () -> tensor<-1x8xf32>
    (%2) = "pd_op.gelu" (%0) {approximate:false,stop_gradient:[false]} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>
    (%3) = "pd_op.pow" (%2) {stop_gradient:[false],y:2} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>
    (%4) = "pd_op.minimum" (%3, %0) {stop_gradient:[false]} : (tensor<-1x8xf32>, tensor<-1x8xf32>) -> tensor<-1x8xf32>
    (%5) = "pd_op.greater_than" (%4, %0) {stop_gradient:[false]} : (tensor<-1x8xf32>, tensor<-1x8xf32>) -> tensor<-1x8xb>
    (%6) = "pd_op.where" (%5, %4, %0) {stop_gradient:[false]} : (tensor<-1x8xb>, tensor<-1x8xf32>, tensor<-1x8xf32>) -> tensor<-1x8xf32>
    (%7) = "pd_op.where" (%5, %4, %1) {stop_gradient:[false]} : (tensor<-1x8xb>, tensor<-1x8xf32>, tensor<-1x8xf32>) -> tensor<-1x8xf32>
}"#;
        let p = Program::parse(&ctx, text).unwrap();
        let dims = LeadingDims::new(&p, p.module_op());
        let ops: Vec<OpId> = p.block_ops(p.top_block()).collect();
        let value = |n: usize| p.results(ops[n]).next().unwrap();
        for op in [2, 3, 4, 5, 6] {
            assert_eq!(dims.origin(value(op)), Some(value(0)), "op {op}");
        }
        assert_eq!(
            dims.origin(value(7)),
            None,
            "x's and y's batches may differ"
        );
    }

    /// A loop-carried value keeps its origin when the body yields a value of
    /// that origin back, and loses it when the body yields one of another
    /// origin (here the second data input), even through a chain of
    /// arguments that first looks consistent.
    #[test]
    fn loop_carried_values_keep_an_origin_the_body_yields_back() {
        let ctx = pir_dialects::pd_op_context();
        let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%2) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xb>
    (%3, %4, %5) = "pd_op.while" (cond=%2, inputs=%0, %0, %0) {
    ^%arg_0 {}, %arg_1 {}, %arg_2 {}
        (%6) = "pd_op.relu" (%arg_0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%7) = "pd_op.add" (%6, %0) {stop_gradient:[false]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%8) = "pd_op.exp" (%1) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%9) = "pd_op.tanh" (%arg_2) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        () = "cf.yield" (%2, %7, %9, %8) {} : (tensor<1xb>, tensor<-1x4xf32>, tensor<-1x4xf32>, tensor<-1x4xf32>) -> 
    }
}"#;
        let p = Program::parse(&ctx, text).unwrap();
        let dims = LeadingDims::new(&p, p.module_op());
        let ops: Vec<OpId> = p.block_ops(p.top_block()).collect();
        let x = p.result(ops[0], 0);
        let body = crate::alias::while_body(&p, ops[3]).unwrap();
        let args = p.block_args(body).to_vec();
        let body_ops: Vec<OpId> = p.block_ops(body).collect();
        assert_eq!(
            dims.origin(args[0]),
            Some(x),
            "relu and add of x keep x's batch"
        );
        assert_eq!(dims.origin(p.result(ops[3], 0)), Some(x));
        assert_eq!(dims.origin(p.result(body_ops[1], 0)), Some(x));
        // %arg_2 gets y's batch after one iteration, so %arg_1 = tanh(%arg_2)
        // does after two: neither keeps x's.
        for i in [1, 2] {
            assert_eq!(dims.origin(args[i]), None, "argument {i}");
            assert_eq!(dims.origin(p.result(ops[3], i)), None, "result {i}");
        }
        assert_eq!(dims.origin(p.result(body_ops[3], 0)), None);
    }

    /// An `if` result has the origin both branches yield, and none when they
    /// yield different ones.
    #[test]
    fn if_results_have_the_origin_every_branch_yields() {
        let ctx = pir_dialects::pd_op_context();
        let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%2) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xb>
    (%3, %4) = "pd_op.if" (%2) {stop_gradient:[false,false]} -> tensor<-1x4xf32>, tensor<-1x4xf32> {
        (%5) = "pd_op.relu" (%0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        () = "cf.yield" (%5, %0) {} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> 
    } else {
        (%6) = "pd_op.exp" (%0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        () = "cf.yield" (%6, %1) {} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> 
    }
}"#;
        let p = Program::parse(&ctx, text).unwrap();
        let dims = LeadingDims::new(&p, p.module_op());
        let ops: Vec<OpId> = p.block_ops(p.top_block()).collect();
        let x = p.result(ops[0], 0);
        assert_eq!(dims.origin(p.result(ops[3], 0)), Some(x));
        assert_eq!(dims.origin(p.result(ops[3], 1)), None);
    }
}
