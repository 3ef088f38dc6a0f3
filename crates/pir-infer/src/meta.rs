//! Paddle's `MetaTensor` as inference sees it: data type, dims, layout and
//! LoD of one value, with the conversions from and to IR types.

use pir_core::builtin::{DataLayout, DenseTensorType, ScalarType, VectorType};
use pir_core::{IrContext, Type};
use pir_dialects::op_def::ValueKind;
use pir_dialects::pd_op::{DataType, DenseTensorArrayType, SelectedRowsType};

use crate::Bad;

/// Most dims a tensor has (Paddle's `DDim::kMaxRank`).
pub const MAX_RANK: usize = 9;

/// Dims of a tensor (Paddle's `DDim`): inline, `-1` for an unknown extent.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct DDim {
    d: [i64; MAX_RANK],
    n: u8,
}

impl std::fmt::Debug for DDim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.as_slice())
    }
}

impl DDim {
    /// Dims from a slice; an error past [`MAX_RANK`].
    pub fn new(dims: &[i64]) -> Result<DDim, Bad> {
        let mut d = DDim::default();
        if dims.len() > MAX_RANK {
            return Err(Bad(format!("rank {} exceeds {MAX_RANK}", dims.len())));
        }
        d.d[..dims.len()].copy_from_slice(dims);
        d.n = dims.len() as u8;
        Ok(d)
    }
    /// The dims.
    pub fn as_slice(&self) -> &[i64] {
        &self.d[..self.n as usize]
    }
    /// The rank.
    pub fn rank(&self) -> usize {
        self.n as usize
    }
    /// Appends a dim (an error past [`MAX_RANK`]).
    pub fn push(&mut self, v: i64) -> Result<(), Bad> {
        let slot = self
            .d
            .get_mut(self.n as usize)
            .ok_or_else(|| Bad(format!("rank exceeds {MAX_RANK}")))?;
        *slot = v;
        self.n += 1;
        Ok(())
    }
    /// Dim `i` (an error when out of range).
    pub fn at(&self, i: usize) -> Result<i64, Bad> {
        self.as_slice()
            .get(i)
            .copied()
            .ok_or_else(|| Bad(format!("dim {i} of a rank-{} tensor", self.n)))
    }
    /// Sets dim `i` (an error when out of range).
    pub fn set(&mut self, i: usize, v: i64) -> Result<(), Bad> {
        let n = self.n;
        *self.d[..n as usize]
            .get_mut(i)
            .ok_or_else(|| Bad(format!("dim {i} of a rank-{n} tensor")))? = v;
        Ok(())
    }
    /// Paddle's `product`: the element count (negative when a dim is unknown).
    pub fn product(&self) -> i64 {
        self.as_slice().iter().product()
    }
    /// Whether some dim is unknown (`contain_unknown_dim`).
    pub fn has_unknown(&self) -> bool {
        self.as_slice().iter().any(|&d| d < 0)
    }
    /// Dims `from..to`.
    pub fn slice(&self, from: usize, to: usize) -> Result<DDim, Bad> {
        DDim::new(
            self.as_slice()
                .get(from..to)
                .ok_or_else(|| Bad(format!("dims {from}..{to} of rank {}", self.n)))?,
        )
    }
    /// Removes the trailing dim.
    pub fn pop(&mut self) -> Option<i64> {
        if self.n == 0 {
            return None;
        }
        self.n -= 1;
        Some(self.d[self.n as usize])
    }
}

/// Normalises an axis against a rank (`axis < 0` counts from the end).
pub fn norm_axis(axis: i64, rank: usize) -> Result<usize, Bad> {
    let r = rank as i64;
    let a = if axis < 0 { axis + r } else { axis };
    if a < 0 || a >= r.max(1) {
        return Err(Bad(format!("axis {axis} out of range for rank {rank}")));
    }
    Ok(a as usize)
}

/// LoD offsets (`lod` of a dense tensor type).
pub type Lod = Box<[Box<[u64]>]>;

/// The meta data of one tensor value (Paddle's `IrTensor` behind a `MetaTensor`).
#[derive(Clone, Debug, PartialEq)]
pub struct Meta {
    /// Element data type.
    pub dtype: DataType,
    /// Dims.
    pub dims: DDim,
    /// Layout (NCHW unless an InferMeta sets another).
    pub layout: DataLayout,
    /// LoD (empty unless shared from an input).
    pub lod: Lod,
}

impl Meta {
    /// A result the InferMeta function leaves alone or gives only a data
    /// type: the builder's fresh `IrTensor` with unset dims, which Paddle's
    /// live print shows as `0x…` and its files (and this IR) hold as 0-d.
    pub fn unset_dims(dtype: DataType) -> Meta {
        Meta::new(dtype, DDim::default())
    }

    /// A tensor of `dtype` and `dims`, NCHW, no LoD.
    pub fn new(dtype: DataType, dims: DDim) -> Meta {
        Meta {
            dtype,
            dims,
            layout: DataLayout::NCHW,
            lod: Box::new([]),
        }
    }
    /// A tensor of `dtype` and `dims` in `layout`, no LoD (what an InferMeta
    /// function that sets dims, dtype and layout but not LoD makes).
    pub fn laid_out(dtype: DataType, dims: DDim, layout: DataLayout) -> Meta {
        Meta {
            dtype,
            dims,
            layout,
            lod: Box::new([]),
        }
    }
    /// Paddle's `share_meta` on a fresh output keeps dims, dtype, layout and LoD.
    pub fn with_dims(&self, dims: DDim) -> Meta {
        Meta {
            dims,
            ..self.clone()
        }
    }
    /// Same dims and layout, another data type, no LoD.
    pub fn dims_dtype(dims: DDim, dtype: DataType) -> Meta {
        Meta::new(dtype, dims)
    }
}

/// A fresh output given `dims` and `dtype` and the LoD of `lod_of`
/// (`set_dims`, `set_dtype`, `share_lod`): NCHW.
pub fn with_lod(lod_of: &Meta, dtype: DataType, dims: DDim) -> Meta {
    Meta {
        lod: lod_of.lod.clone(),
        ..Meta::new(dtype, dims)
    }
}

/// An output given dims only (`set_dims` or `share_dims`): the data type
/// stays the fresh `IrTensor`'s float32.
pub fn dims_only(dims: DDim) -> Meta {
    Meta::new(DataType::Float32, dims)
}

/// An output the InferMeta function leaves alone (see [`Meta::unset_dims`]).
pub fn untouched() -> Meta {
    Meta::unset_dims(DataType::Float32)
}

/// The data type of an IR element type.
pub fn dtype_of(ctx: &IrContext, elem: Type) -> DataType {
    ctx.type_as::<ScalarType>(elem)
        .map_or(DataType::Undefined, |s| DataType::of_scalar(*s))
}

fn dense_meta(ctx: &IrContext, t: &DenseTensorType) -> Result<Meta, Bad> {
    Ok(Meta {
        dtype: dtype_of(ctx, t.dtype),
        dims: DDim::new(&t.dims)?,
        layout: t.layout,
        lod: t.lod.clone(),
    })
}

/// The meta of a tensor-like type: a dense tensor, selected rows or a tensor
/// array (whose element dims and layout Paddle's `IrTensor` reads alike).
pub fn meta_of(ctx: &IrContext, ty: Type) -> Result<Option<Meta>, Bad> {
    if ty.is_null() {
        return Ok(None);
    }
    if let Some(t) = ctx.type_as::<DenseTensorType>(ty) {
        return dense_meta(ctx, t).map(Some);
    }
    if let Some(t) = ctx.type_as::<SelectedRowsType>(ty) {
        return dense_meta(ctx, &t.0).map(Some);
    }
    if let Some(t) = ctx.type_as::<DenseTensorArrayType>(ty) {
        return Ok(Some(Meta {
            dtype: dtype_of(ctx, t.dtype),
            dims: DDim::new(&t.dims)?,
            layout: t.layout,
            lod: Box::new([]),
        }));
    }
    Err(Bad(format!("not a tensor type: {}", ctx.display_type(ty))))
}

/// The IR element type of a data type.
fn elem_type(ctx: &IrContext, dtype: DataType) -> Result<Type, Bad> {
    let s = dtype
        .scalar()
        .ok_or_else(|| Bad(format!("data type {} has no IR type", dtype.text())))?;
    Ok(ctx.intern_type(s))
}

/// One inferred result.
#[derive(Clone, Debug, PartialEq)]
pub enum Out {
    /// Not set by the InferMeta function.
    Unset,
    /// A tensor, typed by the op definition's output kind.
    Tensor(Meta),
    /// A list of tensors (a `VectorType` result).
    List(Vec<Meta>),
    /// A ready type (builtin and control-flow ops).
    Type(Type),
}

/// The IR type of a result of `kind` holding `meta`.
pub fn tensor_type(ctx: &IrContext, kind: ValueKind, meta: &Meta) -> Result<Type, Bad> {
    let dtype = elem_type(ctx, meta.dtype)?;
    let dense = DenseTensorType {
        dtype,
        dims: meta.dims.as_slice().into(),
        layout: meta.layout,
        lod: meta.lod.clone(),
        offset: 0,
    };
    Ok(match kind {
        ValueKind::SelectedRows => ctx.intern_type(SelectedRowsType(dense)),
        ValueKind::DenseTensorArray => ctx.intern_type(DenseTensorArrayType {
            dtype,
            dims: dense.dims,
            layout: dense.layout,
        }),
        _ => ctx.intern_type(dense),
    })
}

/// The IR type of an inferred result (`Type::NULL` when unset).
pub fn out_type(ctx: &IrContext, kind: ValueKind, out: &Out) -> Result<Type, Bad> {
    Ok(match out {
        Out::Unset => Type::NULL,
        Out::Type(t) => *t,
        Out::Tensor(m) => tensor_type(ctx, kind, m)?,
        Out::List(ms) => {
            let types = ms
                .iter()
                .map(|m| tensor_type(ctx, ValueKind::DenseTensor, m))
                .collect::<Result<Vec<_>, _>>()?;
            VectorType::get(ctx, &types)
        }
    })
}

fn dense_eq(ctx: &IrContext, t: &DenseTensorType, m: &Meta) -> bool {
    dtype_of(ctx, t.dtype) == m.dtype
        && t.dtype.as_u32() != 0
        && *t.dims == *m.dims.as_slice()
        && t.layout == m.layout
        && t.lod == m.lod
        && t.offset == 0
}

fn tensor_eq(ctx: &IrContext, kind: ValueKind, m: &Meta, stored: Type) -> bool {
    match kind {
        ValueKind::SelectedRows => ctx
            .type_as::<SelectedRowsType>(stored)
            .is_some_and(|t| dense_eq(ctx, &t.0, m)),
        ValueKind::DenseTensorArray => {
            ctx.type_as::<DenseTensorArrayType>(stored)
                .is_some_and(|t| {
                    dtype_of(ctx, t.dtype) == m.dtype
                        && *t.dims == *m.dims.as_slice()
                        && t.layout == m.layout
                })
        }
        _ => ctx
            .type_as::<DenseTensorType>(stored)
            .is_some_and(|t| dense_eq(ctx, t, m)),
    }
}

/// Whether an inferred result equals a stored type, without interning.
pub fn out_eq(ctx: &IrContext, kind: ValueKind, out: &Out, stored: Type) -> bool {
    match out {
        Out::Unset => stored.is_null(),
        Out::Type(t) => *t == stored,
        Out::Tensor(m) => tensor_eq(ctx, kind, m, stored),
        Out::List(ms) => ctx.type_as::<VectorType>(stored).is_some_and(|v| {
            v.0.len() == ms.len()
                && v.0
                    .iter()
                    .zip(ms)
                    .all(|(&t, m)| tensor_eq(ctx, ValueKind::DenseTensor, m, t))
        }),
    }
}
