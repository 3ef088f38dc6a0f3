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
//! - an op with `BinaryElementWiseTrait` whose operands of the result's rank
//!   all have the same origin, or a static leading dim of 1 (broadcast).
//!
//! Values whose leading dim comes from anything else (a `reshape`, a
//! `gather`, a loop) have no origin: nothing is claimed about them.

use pir_core::walk::Order;
use pir_core::{OpId, Program, ValueId};
use pir_dialects::op_def::OpDefinition;
use rustc_hash::FxHashMap;

use crate::transforms::dense_dims;

/// Ops whose first result has the leading dim of their first operand
/// (batch-first layers: convolutions, pools, norms, interpolations, and
/// shape-keeping ops without Paddle's element-wise trait).
pub const KEEPS_LEADING_DIM: [&str; 28] = [
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
];

/// The origin of every value with a dynamic leading dim that has one
/// (module docs), computed in one walk in program order.
#[derive(Debug, Default)]
pub struct LeadingDims(FxHashMap<ValueId, ValueId>);

impl LeadingDims {
    /// The origins of the values under `root`.
    pub fn new(p: &Program, root: OpId) -> Self {
        let mut map = FxHashMap::default();
        let unary = p.ctx().trait_id("pir::UnaryElementWiseTrait");
        let binary = p.ctx().trait_id("pir::BinaryElementWiseTrait");
        p.walk(root, Order::Pre, &mut |op| {
            let Some(result) = p.results(op).next() else {
                return;
            };
            if leading_dim(p, result) != Some(-1) {
                return;
            }
            let name = p.op_name_str(op);
            let info = p.op_info(op);
            let origin = if name == "pd_op.data" {
                Some(result)
            } else if KEEPS_LEADING_DIM.contains(&name)
                || info.is_some_and(|i| i.has_trait(unary))
                || keeps_leading_matmul(p, op)
            {
                p.operand(op, 0).and_then(|x| map.get(&x).copied())
            } else if info.is_some_and(|i| i.has_trait(binary)) {
                binary_origin(p, &map, op, result)
            } else {
                None
            };
            if let Some(origin) = origin {
                map.insert(result, origin);
            }
        });
        LeadingDims(map)
    }

    /// The origin of `v`'s leading dim, if known.
    pub fn origin(&self, v: ValueId) -> Option<ValueId> {
        self.0.get(&v).copied()
    }
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
fn keeps_leading_matmul(p: &Program, op: OpId) -> bool {
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
}
