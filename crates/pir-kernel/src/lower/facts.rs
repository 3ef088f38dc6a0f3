//! What the lowering needs to know of an op kind, worked out once per op
//! name: how it is lowered, its definition's kernel facts with the key's
//! slots resolved to operand indices and attribute symbols, and the
//! interned attributes every op of the kind carries. A program names a few
//! dozen kinds over thousands of ops, so the per-op work is look-ups.

use std::rc::Rc;

use pir_core::builtin::StrAttr;
use pir_core::{Attribute, IrContext, Symbol};
use pir_dialects::op_def::OpDef;
use pir_dialects::pd_op::DataType;

use super::{special, LEGACY_OPS, UNCHANGED_OUTPUT_OPS};
use crate::dialect::{CUSTOM_KERNEL, LEGACY_KERNEL, PHI_KERNEL};
use crate::runtime::kernel_runtime;

/// How an op kind is lowered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Handling {
    /// `pd_op.if`: rebuilt around its lowered blocks.
    If,
    /// `pd_op.while`: rebuilt around its lowered body.
    While,
    /// `pd_op.pylayer`: rebuilt around its lowered block.
    PyLayer,
    /// Copied with kernel types ([`special`]).
    Special(special::SpecialKind),
    /// Lowered to a kernel op.
    Kernel,
}

/// The ops whose kernel key Paddle sets by rule, not from the definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum KeyRule {
    /// `feed`, `fetch`, `array_length`: the CPU, any layout, the result's dtype.
    ResultDtype,
    /// `data`: its place's backend, any layout, the result's dtype.
    Data,
    /// `seed`: the CPU, any layout, int32.
    Seed,
    /// `full_with_tensor`: the CPU, any layout, its `dtype`.
    DtypeAttribute,
    /// `create_array`: the CPU, any layout, the array's dtype.
    ArrayDtype,
    /// From the definition's slots and the operands.
    General,
}

/// Where a kernel key's dtype or backend may come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Slot {
    /// A fixed dtype (`DataType::FLOAT32`).
    Fixed(DataType),
    /// The operand at this index.
    Input(usize),
    /// The attribute of this name.
    Attribute(Symbol),
}

/// The facts of one op kind.
#[derive(Debug)]
pub(super) struct OpFacts {
    pub handling: Handling,
    pub rule: KeyRule,
    pub def: Option<&'static OpDef>,
    /// The definition's kernel function (empty without one).
    pub kernel_func: &'static str,
    /// `add_n` and `fetch`, whose kernel depends on their result type.
    pub kernel_by_result: bool,
    /// Dtype slots, each with whether it asks for the complex type.
    pub dtype_slots: Vec<(Slot, bool)>,
    pub backend_slots: Vec<Slot>,
    /// Whether the definition lists any backend slot.
    pub has_backend_slots: bool,
    /// Whether the op has an `OpYamlInfo` (kernel facts) at all.
    pub has_runtime: bool,
    /// Inputs that are not tensor attributes.
    pub tensor_inputs: usize,
    /// `pd_op.full_`, which runs on the executor's place like an op without inputs.
    pub is_full_: bool,
    /// `load_combine`, `sync_comm_stream`: a float32 key whatever the inputs.
    pub float32_key: bool,
    /// Results keep their place (`UnchangeOutputOps`).
    pub unchanged: bool,
    pub inplace: bool,
    /// The kernel op's name (`pd_kernel.phi_kernel`...).
    pub kind: Symbol,
    /// `op_name` and `kernel_name` as interned attributes.
    pub op_name_attr: Attribute,
    pub kernel_name_attr: Attribute,
}

impl OpFacts {
    /// The facts of the op kind `name` (symbol `symbol`).
    pub(super) fn of(ctx: &IrContext, symbol: Symbol) -> Rc<OpFacts> {
        let name = ctx.symbol_str(symbol);
        let handling = match name {
            "pd_op.if" => Handling::If,
            "pd_op.while" => Handling::While,
            "pd_op.pylayer" => Handling::PyLayer,
            n => special::kind_of(n).map_or(Handling::Kernel, Handling::Special),
        };
        let rule = match name {
            "pd_op.feed" | "pd_op.fetch" | "pd_op.array_length" => KeyRule::ResultDtype,
            "pd_op.data" => KeyRule::Data,
            "pd_op.seed" => KeyRule::Seed,
            "pd_op.full_with_tensor" => KeyRule::DtypeAttribute,
            "pd_op.create_array" => KeyRule::ArrayDtype,
            _ => KeyRule::General,
        };
        let def = pir_dialects::op_def(name);
        let runtime = kernel_runtime(name);
        let resolve = |slot: &str| -> Slot {
            if let Some(i) = def.and_then(|d| d.input_index(slot)) {
                Slot::Input(i)
            } else {
                Slot::Attribute(ctx.symbol(slot))
            }
        };
        let dtype_slots = runtime
            .map(|rt| {
                rt.dtype_slots
                    .strs()
                    .map(|slot| {
                        let (slot, complex) = match slot.strip_prefix("complex:") {
                            Some(rest) => (rest, true),
                            None => (slot, false),
                        };
                        let resolved = fixed_dtype(slot).map_or_else(|| resolve(slot), Slot::Fixed);
                        (resolved, complex)
                    })
                    .collect()
            })
            .unwrap_or_default();
        let backend_slots: Vec<Slot> = runtime
            .map(|rt| rt.backend_slots.strs().map(resolve).collect())
            .unwrap_or_default();
        let is_custom = ctx
            .op_info(symbol)
            .is_some_and(|info| info.dialect == "custom_op");
        let kernel_func = runtime.map_or("", |r| r.kernel_func);
        let kind = if is_custom {
            CUSTOM_KERNEL
        } else if LEGACY_OPS.contains(&name) {
            LEGACY_KERNEL
        } else {
            PHI_KERNEL
        };
        Rc::new(OpFacts {
            handling,
            rule,
            def,
            kernel_func,
            kernel_by_result: matches!(name, "pd_op.add_n" | "pd_op.add_n_" | "pd_op.fetch"),
            has_backend_slots: !backend_slots.is_empty(),
            dtype_slots,
            backend_slots,
            has_runtime: def.is_some() && runtime.is_some(),
            tensor_inputs: def.map_or(0, |d| {
                d.inputs.iter().filter(|i| !i.mutable_attribute).count()
            }),
            is_full_: name == "pd_op.full_",
            float32_key: name == "pd_op.load_combine" || name.starts_with("pd_op.sync_comm_stream"),
            unchanged: UNCHANGED_OUTPUT_OPS.contains(&name),
            inplace: def.is_some_and(|d| d.traits.contains("paddle::dialect::InplaceTrait")),
            kind: ctx.symbol(kind),
            op_name_attr: StrAttr::get(ctx, name),
            kernel_name_attr: StrAttr::get(ctx, if is_custom { name } else { kernel_func }),
        })
    }
}

/// `DataType::FLOAT32`-style fixed dtypes of the slots.
fn fixed_dtype(slot: &str) -> Option<DataType> {
    Some(match slot {
        "DataType::FLOAT16" => DataType::Float16,
        "DataType::BFLOAT16" => DataType::BFloat16,
        "DataType::FLOAT32" => DataType::Float32,
        "DataType::FLOAT64" => DataType::Float64,
        "DataType::INT16" => DataType::Int16,
        "DataType::INT32" => DataType::Int32,
        "DataType::INT64" => DataType::Int64,
        "DataType::INT8" => DataType::Int8,
        "DataType::BOOL" => DataType::Bool,
        _ => return None,
    })
}
