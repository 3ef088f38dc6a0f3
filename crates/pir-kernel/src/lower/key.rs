//! The kernel key of an op, chosen as Paddle's `GetKernelKey` does on the CPU.
//!
//! - `feed`, `fetch`, `array_length`: CPU, any layout, the result's dtype.
//! - `data`: its `place` attribute's backend (`Undefined` when the place is;
//!   pinned memory counts as CPU), any layout, the result's dtype.
//! - `seed`, `full_with_tensor`, `create_array`: CPU, any layout, their
//!   fixed dtype, `dtype` attribute or array dtype.
//! - Otherwise the definition's `kernel_key_dtype` slots give the dtype and
//!   its `kernel_key_backend` slots the backend (the first slot that gives
//!   one: an input's type, a `DataType`/`Place` attribute, or a fixed
//!   `DataType::X`). An op without tensor inputs runs on the CPU. When the
//!   backend or the dtype is still open, the op's tensor inputs (not its
//!   tensor attributes) decide as Paddle's `KernelKeyParser` does: the
//!   highest backend named, the highest layout, the last dtype (complex
//!   when a complex and a real input meet). Only then is the layout set,
//!   so an op whose slots give both backend and dtype has any layout.
//! - A backend still open is the CPU's.

use pir_core::builtin::{DataLayout, DenseTensorType, VectorType};
use pir_core::{OpId, Symbol, Type};
use pir_dialects::op_def::OpDef;
use pir_dialects::pd_op::{
    DataType, DataTypeAttr, DenseTensorArrayType, Place, PlaceAttr, SelectedRowsType,
    SparseCooTensorType, SparseCsrTensorType,
};

use super::facts::{KeyRule, OpFacts, Slot};
use super::{LowerError, Lowering};
use crate::key::{Backend, KernelKey};
use crate::types::AllocatedType;

/// The kernel key of `op`, whose kind's facts are `facts`.
pub(super) fn choose(
    cx: &Lowering<'_>,
    op: OpId,
    facts: &OpFacts,
) -> Result<KernelKey, LowerError> {
    let ctx = cx.ctx;
    let cpu = Backend::of_place(&cx.place);
    let result_type =
        || (cx.src.num_results(op) > 0).then(|| cx.src.value_type(cx.src.result(op, 0)));
    let unsupported = |what: &str| LowerError::Unsupported {
        op: cx.src.op_name_str(op).to_owned(),
        what: what.to_owned(),
    };
    match facts.rule {
        KeyRule::ResultDtype => {
            let dtype = result_type()
                .and_then(|t| tensor_dtype(cx, t))
                .ok_or_else(|| unsupported("gives a dense tensor or a tensor array"))?;
            return Ok(KernelKey::new(cpu, DataLayout::Undefined, dtype));
        }
        KeyRule::Data => {
            let place = place_attr(cx, op, cx.names.place).unwrap_or_else(Place::undefined);
            // Pinned host memory is read by CPU kernels.
            let backend = if place.allocation_type == 3 {
                Backend::Cpu
            } else {
                Backend::of_place(&place)
            };
            let dtype = result_type()
                .and_then(|t| ctx.type_as::<DenseTensorType>(t))
                .map(|d| scalar_dtype(ctx, d.dtype))
                .ok_or_else(|| unsupported("gives a dense tensor"))?;
            return Ok(KernelKey::new(backend, DataLayout::Undefined, dtype));
        }
        KeyRule::Seed => return Ok(KernelKey::new(cpu, DataLayout::Undefined, DataType::Int32)),
        KeyRule::DtypeAttribute => {
            let dtype = dtype_attr(cx, op, cx.names.dtype).unwrap_or(DataType::Undefined);
            return Ok(KernelKey::new(cpu, DataLayout::Undefined, dtype));
        }
        KeyRule::ArrayDtype => {
            let dtype = result_type()
                .and_then(|t| ctx.type_as::<DenseTensorArrayType>(t))
                .map(|a| scalar_dtype(ctx, a.dtype))
                .ok_or_else(|| unsupported("gives a tensor array"))?;
            return Ok(KernelKey::new(cpu, DataLayout::Undefined, dtype));
        }
        KeyRule::General => {}
    }
    let mut backend = Backend::Undefined;
    let mut layout = DataLayout::Undefined;
    let mut dtype = DataType::Undefined;
    if facts.has_runtime {
        dtype = dtype_from_slots(cx, op, facts);
        backend = backend_from_slots(cx, op, facts);
        if (facts.tensor_inputs == 0 || facts.is_full_) && backend == Backend::Undefined {
            backend = cpu;
        }
    }
    if (backend == Backend::Undefined || dtype == DataType::Undefined)
        && cx.src.num_operands(op) > 0
    {
        let parsed = parse_operands(cx, op, facts.def);
        if backend == Backend::Undefined {
            backend = parsed.backend;
        }
        if layout == DataLayout::Undefined {
            layout = parsed.layout;
        }
        if dtype == DataType::Undefined {
            dtype = parsed.dtype;
        }
    }
    if backend == Backend::Undefined {
        backend = cpu;
    }
    if facts.float32_key {
        dtype = DataType::Float32;
    }
    Ok(KernelKey::new(backend, layout, dtype))
}

fn place_attr(cx: &Lowering<'_>, op: OpId, name: Symbol) -> Option<Place> {
    let attr = cx.ctx.dict_get(cx.src.attrs(op), name)?;
    cx.ctx.attr_as::<PlaceAttr>(attr).map(|p| p.0.clone())
}

/// The dtype of a dense tensor or tensor array type.
fn tensor_dtype(cx: &Lowering<'_>, ty: Type) -> Option<DataType> {
    let ctx = cx.ctx;
    if let Some(d) = ctx.type_as::<DenseTensorType>(ty) {
        return Some(scalar_dtype(ctx, d.dtype));
    }
    ctx.type_as::<DenseTensorArrayType>(ty)
        .map(|a| scalar_dtype(ctx, a.dtype))
}

fn dtype_attr(cx: &Lowering<'_>, op: OpId, name: Symbol) -> Option<DataType> {
    let attr = cx.ctx.dict_get(cx.src.attrs(op), name)?;
    cx.ctx.attr_as::<DataTypeAttr>(attr).map(|a| a.0)
}

/// The type of the lowered operand `i` (`None` when absent).
fn operand_type(cx: &Lowering<'_>, op: OpId, i: usize) -> Option<Type> {
    let v = cx.src.operand(op, i)?;
    let new = (*cx.values.get(v))?;
    Some(cx.dst.value_type(new))
}

/// `GetKernelDtypeByYaml`: the first slot that gives a dtype.
fn dtype_from_slots(cx: &Lowering<'_>, op: OpId, facts: &OpFacts) -> DataType {
    for &(slot, complex) in &facts.dtype_slots {
        let mut dtype = match slot {
            Slot::Fixed(fixed) => fixed,
            Slot::Input(i) => {
                operand_type(cx, op, i).map_or(DataType::Undefined, |t| kernel_type_dtype(cx, t))
            }
            Slot::Attribute(name) => dtype_attr(cx, op, name).unwrap_or(DataType::Undefined),
        };
        if complex {
            dtype = to_complex(dtype);
        }
        if dtype != DataType::Undefined {
            return dtype;
        }
    }
    DataType::Undefined
}

/// `GetKernelBackendByYaml`: an input's place or a `Place` attribute; the
/// executor's place when slots are named but none gives a backend.
fn backend_from_slots(cx: &Lowering<'_>, op: OpId, facts: &OpFacts) -> Backend {
    for &slot in &facts.backend_slots {
        let backend = match slot {
            Slot::Input(i) => operand_type(cx, op, i)
                .and_then(|t| kernel_type_place(cx, t))
                .map_or(Backend::Undefined, |p| Backend::of_place(&p)),
            Slot::Attribute(name) => {
                place_attr(cx, op, name).map_or(Backend::Undefined, |p| Backend::of_place(&p))
            }
            Slot::Fixed(_) => Backend::Undefined,
        };
        if backend != Backend::Undefined {
            return backend;
        }
    }
    if facts.has_backend_slots {
        Backend::of_place(&cx.place)
    } else {
        Backend::Undefined
    }
}

fn to_complex(dtype: DataType) -> DataType {
    match dtype {
        DataType::Float32 => DataType::Complex64,
        DataType::Float64 => DataType::Complex128,
        other => other,
    }
}

/// The dtype of a lowered value's type (a vector's first element's).
fn kernel_type_dtype(cx: &Lowering<'_>, ty: Type) -> DataType {
    let ctx = cx.ctx;
    if let Some(vec) = ctx.type_as::<VectorType>(ty) {
        return vec
            .0
            .first()
            .map_or(DataType::Undefined, |&t| kernel_type_dtype(cx, t));
    }
    let inner = AllocatedType::operator_type(ctx, ty);
    operator_dtype(cx, inner).unwrap_or(DataType::Undefined)
}

/// The dtype of an operator-dialect tensor type.
fn operator_dtype(cx: &Lowering<'_>, ty: Type) -> Option<DataType> {
    let ctx = cx.ctx;
    let scalar = if let Some(d) = ctx.type_as::<DenseTensorType>(ty) {
        d.dtype
    } else if let Some(s) = ctx.type_as::<SelectedRowsType>(ty) {
        s.0.dtype
    } else if let Some(a) = ctx.type_as::<DenseTensorArrayType>(ty) {
        a.dtype
    } else if let Some(s) = ctx.type_as::<SparseCooTensorType>(ty) {
        s.dtype
    } else if let Some(s) = ctx.type_as::<SparseCsrTensorType>(ty) {
        s.dtype
    } else {
        return None;
    };
    Some(scalar_dtype(ctx, scalar))
}

/// The layout of an operator-dialect tensor type.
fn operator_layout(cx: &Lowering<'_>, ty: Type) -> DataLayout {
    let ctx = cx.ctx;
    if let Some(d) = ctx.type_as::<DenseTensorType>(ty) {
        d.layout
    } else if let Some(s) = ctx.type_as::<SelectedRowsType>(ty) {
        s.0.layout
    } else if let Some(a) = ctx.type_as::<DenseTensorArrayType>(ty) {
        a.layout
    } else if let Some(s) = ctx.type_as::<SparseCooTensorType>(ty) {
        s.layout
    } else if let Some(s) = ctx.type_as::<SparseCsrTensorType>(ty) {
        s.layout
    } else {
        DataLayout::Undefined
    }
}

/// The place of a lowered value's type (a vector's first element's).
fn kernel_type_place(cx: &Lowering<'_>, ty: Type) -> Option<Place> {
    let ctx = cx.ctx;
    if let Some(vec) = ctx.type_as::<VectorType>(ty) {
        return vec.0.first().and_then(|&t| kernel_type_place(cx, t));
    }
    ctx.type_as::<AllocatedType>(ty).map(|a| a.place.clone())
}

/// What the operands say of the key (`KernelKeyParser`).
struct Parsed {
    backend: Backend,
    layout: DataLayout,
    dtype: DataType,
}

fn parse_operands(cx: &Lowering<'_>, op: OpId, def: Option<&OpDef>) -> Parsed {
    let ctx = cx.ctx;
    let mut backends: Vec<Backend> = Vec::new();
    let mut layout = DataLayout::Undefined;
    let mut dtype = DataType::Undefined;
    let mut seen: Vec<DataType> = Vec::new();
    let data_backend = |place: Option<Place>| {
        let b = place.map_or(Backend::Undefined, |p| Backend::of_place(&p));
        if b == Backend::Undefined {
            Backend::of_place(&cx.place)
        } else {
            b
        }
    };
    let data_place = |src_op: OpId| place_attr(cx, src_op, cx.names.place);
    for i in 0..cx.src.num_operands(op) {
        if is_tensor_attribute(def, i) {
            continue;
        }
        let Some(src_value) = cx.src.operand(op, i) else {
            continue;
        };
        let Some(new) = *cx.values.get(src_value) else {
            continue;
        };
        let ty = cx.dst.value_type(new);
        let items: Vec<Type> = match ctx.type_as::<VectorType>(ty) {
            Some(vec) => vec.0.to_vec(),
            None => vec![ty],
        };
        for item in items {
            let Some(alloc) = ctx.type_as::<AllocatedType>(item) else {
                continue;
            };
            let b = Backend::of_place(&alloc.place);
            if b != Backend::Undefined {
                backends.push(b);
            }
            let l = operator_layout(cx, alloc.inner);
            if layout_rank(l) > layout_rank(layout) {
                layout = l;
            }
            dtype = operator_dtype(cx, alloc.inner).unwrap_or(DataType::Undefined);
            seen.push(dtype);
            if let Some(promoted) = promote(&seen) {
                dtype = promoted;
            }
        }
        // A data op's tensors have no place yet: its `place` (or the
        // executor's) stands for them.
        if let Some(def_op) = cx.src.defining_op(src_value) {
            if cx.src.op_name(def_op) == cx.names.data {
                backends.push(data_backend(data_place(def_op)));
            } else if cx.src.op_name(def_op) == cx.names.combine {
                let first_data = cx
                    .src
                    .operands(def_op)
                    .flatten()
                    .filter_map(|v| cx.src.defining_op(v))
                    .find(|&d| cx.src.op_name(d) == cx.names.data);
                if let Some(d) = first_data {
                    backends.push(data_backend(data_place(d)));
                }
            }
        }
    }
    Parsed {
        backend: backends.into_iter().max().unwrap_or(Backend::Undefined),
        layout,
        dtype,
    }
}

/// A layout's place in Paddle's enum (`common::DataLayout`), which the key
/// parser compares.
fn layout_rank(layout: DataLayout) -> usize {
    DataLayout::ALL
        .iter()
        .position(|&l| l == layout)
        .unwrap_or_default()
}

/// Paddle's `PromoteTypes` over the dtypes seen: complex when complex meets
/// real (128-bit when either is double precision); otherwise none.
fn promote(seen: &[DataType]) -> Option<DataType> {
    let has = |d: DataType| seen.contains(&d);
    if has(DataType::Complex128) || (has(DataType::Complex64) && has(DataType::Float64)) {
        Some(DataType::Complex128)
    } else if has(DataType::Complex64) {
        Some(DataType::Complex64)
    } else {
        None
    }
}

/// The data type of a builtin element type (`TransToPhiDataType`).
fn scalar_dtype(ctx: &pir_core::IrContext, ty: Type) -> DataType {
    ctx.type_as::<pir_core::builtin::ScalarType>(ty)
        .map_or(DataType::Undefined, |&s| DataType::of_scalar(s))
}

/// Whether the definition `def` marks input `i` as a tensor attribute (the
/// value of a mutable attribute), which the key parser skips.
fn is_tensor_attribute(def: Option<&OpDef>, i: usize) -> bool {
    def.and_then(|d| d.inputs.get(i))
        .is_some_and(|input| input.mutable_attribute)
}
