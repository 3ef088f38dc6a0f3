//! Ops Paddle's translator makes through its op builders (`Op::Build`):
//! their attributes in build order, `stop_gradient: [true…]` as the builders
//! set it, and result types from Paddle's shape inference for the few ops
//! involved (full, full_int_array, reshape, squeeze, scale, stack, shape64,
//! concat, data, create_array).

use pir_core::builtin::{ArrayAttr, F32Attr, F64Attr, I32Attr, I64Attr, StrAttr};
use pir_core::{Attribute, BlockId, InsertPoint, Type, ValueId};
use pir_dialects::op_def::AttrKind;
use pir_dialects::pd_op::attrs::{DataType, DataTypeAttr, IntArrayAttr, Place, PlaceAttr};
use pir_dialects::pd_op::types::DenseTensorArrayType;

use super::attrs::AttrMap;
use super::values::{self, ScopeId, VarInfo};
use super::{memo, Translator};
use crate::desc::AttrValue;
use crate::error::Result;
use crate::inline::InlineVec;
use std::sync::OnceLock;

/// The attribute names an op builder sets, in the order it sets them, with
/// the order its map lists them in: a pure function of the names, worked
/// out once per process, so an op made by a builder finds it without a
/// look-up.
pub(super) struct BuilderKeys {
    names: &'static [&'static str],
    order: OnceLock<Box<[usize]>>,
}

impl BuilderKeys {
    /// The names `names`, distinct and without `stop_gradient` (which
    /// [`Translator::built_op`] appends).
    const fn new(names: &'static [&'static str]) -> Self {
        BuilderKeys {
            names,
            order: OnceLock::new(),
        }
    }

    /// The indices of the names in the order the builder's map lists them.
    fn order(&self) -> &[usize] {
        self.order
            .get_or_init(|| memo::map_order(self.names.iter().copied()).to_vec().into())
    }
}

/// A builder that sets no attribute of its own.
static NO_KEYS: BuilderKeys = BuilderKeys::new(&[]);
/// `FullOp::Build`.
static FULL_KEYS: BuilderKeys = BuilderKeys::new(&["shape", "value", "dtype", "place"]);
/// `FullIntArrayOp::Build`.
static FULL_INT_ARRAY_KEYS: BuilderKeys = BuilderKeys::new(&["value", "dtype", "place"]);
/// `ScaleOp::Build`.
static SCALE_KEYS: BuilderKeys = BuilderKeys::new(&["bias", "bias_after_scale"]);
/// `StackOp::Build`.
static STACK_KEYS: BuilderKeys = BuilderKeys::new(&["axis"]);
/// `DataOp::Build`.
static DATA_KEYS: BuilderKeys = BuilderKeys::new(&["name", "shape", "dtype", "place"]);
/// `CreateArrayOp::Build`.
static CREATE_ARRAY_KEYS: BuilderKeys = BuilderKeys::new(&["dtype"]);

impl<'d> Translator<'d> {
    fn tensor(&self, dtype: DataType, dims: &[i64]) -> Result<Type> {
        self.memo
            .borrow_mut()
            .tensor_type(memo::Elem::Phi(dtype), dims, || {
                let s = dtype
                    .scalar()
                    .ok_or_else(|| self.err(format!("data type {dtype:?} has no tensor type")))?;
                Ok(pir_core::builtin::DenseTensorType::get(
                    &self.ctx,
                    self.ctx.intern_type(s),
                    dims,
                ))
            })
    }

    /// The data type attribute of `dtype` (remembered in the context memo).
    pub(super) fn data_type_attr(&self, dtype: DataType) -> Attribute {
        self.memo
            .borrow_mut()
            .data_type(dtype, || DataTypeAttr::get(&self.ctx, dtype))
    }

    /// A builder-made op: attributes in build order, then `stop_gradient`.
    #[allow(clippy::too_many_arguments)]
    fn built_op(
        &mut self,
        block: BlockId,
        at_front: bool,
        name: &'static str,
        operands: &[Option<ValueId>],
        results: &[Type],
        (keys, values): (&'static BuilderKeys, &[Attribute]),
    ) -> pir_core::OpId {
        // `Op::Build` fills a map of its own, then copies it entry by entry
        // (in that map's order) into the operation's map. (Builders name
        // each attribute once.)
        let names = keys.names;
        debug_assert!(names
            .iter()
            .enumerate()
            .all(|(i, k)| names[..i].iter().all(|j| j != k)));
        debug_assert_eq!(names.len(), values.len());
        // Room for `stop_gradient` too, which no builder names itself: a
        // map past the inline room is made on the heap at once rather than
        // moved there when the flag comes.
        debug_assert!(!names.contains(&"stop_gradient"));
        let mut map = AttrMap::with_capacity(names.len() + 1);
        if !names.is_empty() {
            for &i in keys.order() {
                if let (Some(&k), Some(&v)) = (names.get(i), values.get(i)) {
                    map.push_new(k, v);
                }
            }
        }
        let stop = if results.len() == 1 {
            self.k.true1
        } else {
            self.memo
                .get_mut()
                .bool_lists
                .get(&self.ctx, &vec![true; results.len()])
        };
        map.push_new("stop_gradient", stop);
        let at = if at_front {
            InsertPoint::BlockStart(block)
        } else {
            InsertPoint::BlockEnd(block)
        };
        let op = self.create_op(at, name, operands, results, map, 0);
        self.mark_static_keys(op);
        op
    }

    /// `pd_op.full` from its builder (value stored as a double).
    pub fn build_full(
        &mut self,
        block: BlockId,
        at_front: bool,
        shape: &[i64],
        value: f64,
        dtype: DataType,
        place: Place,
    ) -> Result<ValueId> {
        let (ty, attrs) = self.full_parts(shape, value, dtype, place)?;
        Ok(self.built_full(block, at_front, ty, attrs))
    }

    /// The type and attributes (shape, value, data type, place) of the
    /// `pd_op.full` of [`Translator::build_full`].
    pub(super) fn full_parts(
        &self,
        shape: &[i64],
        value: f64,
        dtype: DataType,
        place: Place,
    ) -> Result<(Type, [Attribute; 4])> {
        let ty = self.tensor(dtype, shape)?;
        let ctx = &self.ctx;
        let shape = match shape {
            [1] => self.k.shape1,
            _ => IntArrayAttr::get(ctx, shape),
        };
        let place = if place == Place::cpu() {
            self.k.cpu
        } else {
            PlaceAttr::get(ctx, place)
        };
        let value_attr = self
            .memo
            .borrow_mut()
            .double(value, || F64Attr::get(ctx, value));
        let dtype_attr = self.data_type_attr(dtype);
        Ok((ty, [shape, value_attr, dtype_attr, place]))
    }

    /// The `pd_op.full` of type `ty` and attributes shape, value, data type
    /// and place.
    pub(super) fn built_full(
        &mut self,
        block: BlockId,
        at_front: bool,
        ty: Type,
        [shape, value, dtype, place]: [Attribute; 4],
    ) -> ValueId {
        let op = self.built_op(
            block,
            at_front,
            "pd_op.full",
            &[],
            &[ty],
            (&FULL_KEYS, &[shape, value, dtype, place]),
        );
        self.program.result(op, 0)
    }

    /// A one-element `full` on the CPU holding a translated attribute
    /// (`InsertFullOperationForAttributeInput`): the value goes through a
    /// C++ `float`, the data type follows the attribute's kind. Its type and
    /// attributes are remembered by the attribute in the context memo (ops
    /// of a type repeat their scalar attributes).
    pub fn full_from_attr(&mut self, block: BlockId, attr: Attribute) -> Result<ValueId> {
        let (ty, attrs) = self.full_parts_of_attr(attr)?;
        Ok(self.built_full(block, false, ty, attrs))
    }

    /// The type and attributes of [`Translator::full_from_attr`]'s `full`.
    pub(super) fn full_parts_of_attr(&mut self, attr: Attribute) -> Result<(Type, [Attribute; 4])> {
        if let Some(parts) = self.memo.get_mut().full_of_attr(attr) {
            return Ok(parts);
        }
        let (value, dtype) = if let Some(f) = self.ctx.attr_as::<F32Attr>(attr) {
            (f.value(), DataType::Float32)
        } else if let Some(d) = self.ctx.attr_as::<F64Attr>(attr) {
            (d.value() as f32, DataType::Float64)
        } else if let Some(i) = self.ctx.attr_as::<I32Attr>(attr) {
            (i.0 as f32, DataType::Int32)
        } else if let Some(i) = self.ctx.attr_as::<I64Attr>(attr) {
            (i.0 as f32, DataType::Int64)
        } else if let Some(b) = self.ctx.attr_as::<pir_core::builtin::BoolAttr>(attr) {
            (if b.0 { 1.0 } else { 0.0 }, DataType::Bool)
        } else {
            (0.0, DataType::Undefined)
        };
        let value = f64::from(value);
        let ty = self.tensor(dtype, &[1])?;
        let value_attr = self
            .memo
            .borrow_mut()
            .double(value, || F64Attr::get(&self.ctx, value));
        let attrs = [
            self.k.shape1,
            value_attr,
            self.data_type_attr(dtype),
            self.k.cpu,
        ];
        self.memo.get_mut().keep_full_of_attr(attr, ty, attrs);
        Ok((ty, attrs))
    }

    /// `pd_op.full_int_array` of int64 on the CPU.
    pub fn build_full_int_array(&mut self, block: BlockId, values: &[i64]) -> Result<ValueId> {
        let (ty, attrs) = self.full_int_array_parts(values)?;
        Ok(self.built_full_int_array(block, ty, attrs))
    }

    /// The type and attributes (value, data type) of a `full_int_array` of
    /// `values`.
    fn full_int_array_parts(&self, values: &[i64]) -> Result<(Type, [Attribute; 2])> {
        let ty = self.tensor(DataType::Int64, &[values.len() as i64])?;
        let ctx = &self.ctx;
        let value = self.memo.borrow_mut().int64_array(values, || {
            let items: InlineVec<Attribute, 8> = values
                .iter()
                .map(|&v| ctx.intern_attr(I64Attr(v)))
                .collect();
            ArrayAttr::get(ctx, &items)
        });
        Ok((ty, [value, self.data_type_attr(DataType::Int64)]))
    }

    /// The `pd_op.full_int_array` of type `ty` and attributes value and
    /// data type, on the CPU.
    fn built_full_int_array(
        &mut self,
        block: BlockId,
        ty: Type,
        [value, dtype]: [Attribute; 2],
    ) -> ValueId {
        let op = self.built_op(
            block,
            false,
            "pd_op.full_int_array",
            &[],
            &[ty],
            (&FULL_INT_ARRAY_KEYS, &[value, dtype, self.k.cpu]),
        );
        self.program.result(op, 0)
    }

    /// `full_int_array` from an IntArray attribute. Its type and attributes
    /// are remembered by the attribute in the context memo (ops of a type
    /// repeat their shapes and axes).
    pub fn full_int_array_from_attr(&mut self, block: BlockId, attr: Attribute) -> Result<ValueId> {
        let (ty, attrs) = self.int_array_parts_of_attr(attr)?;
        Ok(self.built_full_int_array(block, ty, attrs))
    }

    /// The type and attributes of [`Translator::full_int_array_from_attr`]'s
    /// `full_int_array`.
    pub(super) fn int_array_parts_of_attr(
        &mut self,
        attr: Attribute,
    ) -> Result<(Type, [Attribute; 2])> {
        if let Some(parts) = self.memo.get_mut().int_array_of_attr(attr) {
            return Ok(parts);
        }
        let values = self
            .ctx
            .attr_as::<IntArrayAttr>(attr)
            .ok_or_else(|| self.err("expected an integer list for a mutable IntArray attribute"))?;
        let (ty, attrs) = self.full_int_array_parts(&values.0)?;
        self.memo.get_mut().keep_int_array_of_attr(attr, ty, attrs);
        Ok((ty, attrs))
    }

    /// Legacy attribute `legacy` of value `value` as an input: a
    /// `full_int_array` (IntArray) or a `full` (Scalar) of it
    /// (`GetAttributeAsInput`).
    // Inlined: the general path's inputs compile better with their
    // attribute inputs' work in one function.
    #[inline(always)]
    pub(super) fn value_as_input(
        &mut self,
        dst: BlockId,
        legacy: &str,
        value: &AttrValue<'_>,
        int_array: bool,
    ) -> Result<ValueId> {
        // A model translated again gives its ops the same values here.
        let seq = self.lookups.next_as_input();
        if let Some(made) = self.memo.get_mut().as_input(seq, int_array, value) {
            return Ok(self.built_as_input(dst, made));
        }
        let made = if int_array {
            let attr = self.declared_attr(AttrKind::IntArray, Some(value));
            let (ty, attrs) = self.int_array_parts_of_attr(attr)?;
            memo::AsInputOp::IntArray(ty, attrs)
        } else {
            // `translate` of kind `Any` is the general visitor.
            let mut attr = self.declared_attr(AttrKind::Any, Some(value));
            // Scalars that 2.x ops keep as text (`allclose`'s `rtol: "1e-05"`)
            // become a float64 `full`, as Paddle 3.3.1 makes them.
            if let Some(text) = self.ctx.attr_as::<StrAttr>(attr) {
                let number: f64 = text.0.trim().parse().map_err(|_| {
                    self.err(format!(
                        "attribute `{legacy}` is not a number: {:?}",
                        text.0
                    ))
                })?;
                attr = F64Attr::get(&self.ctx, number);
            }
            let (ty, attrs) = self.full_parts_of_attr(attr)?;
            memo::AsInputOp::Full(ty, attrs)
        };
        self.memo
            .get_mut()
            .keep_as_input(seq, int_array, value, made);
        Ok(self.built_as_input(dst, made))
    }

    /// The `full` or `full_int_array` of `made`.
    pub(super) fn built_as_input(&mut self, block: BlockId, made: memo::AsInputOp) -> ValueId {
        match made {
            memo::AsInputOp::Full(ty, attrs) => self.built_full(block, false, ty, attrs),
            memo::AsInputOp::IntArray(ty, attrs) => self.built_full_int_array(block, ty, attrs),
        }
    }

    fn dense_of(&self, v: ValueId) -> Result<(Type, crate::desc::Dims)> {
        values::dense_parts(&self.ctx, self.ty(v))
            .ok_or_else(|| self.err("expected a dense tensor"))
    }

    /// `pd_op.reshape` to a constant shape (Paddle's shape inference).
    pub fn build_reshape(&mut self, block: BlockId, x: ValueId, shape: &[i64]) -> Result<ValueId> {
        self.build_with_int_array(block, "pd_op.reshape", x, shape, reshape_dims)
    }

    /// `pd_op.squeeze` of constant axes.
    pub fn build_squeeze(&mut self, block: BlockId, x: ValueId, axes: &[i64]) -> Result<ValueId> {
        self.build_with_int_array(block, "pd_op.squeeze", x, axes, |dims, axes| {
            squeeze_dims(dims, axes).as_slice().into()
        })
    }

    /// Op `name` of dense tensor `x` and a `full_int_array` of `ints`, its
    /// result of `x`'s element type and the dims `dims_of` gives from
    /// `x`'s dims and `ints` (the op's shape inference).
    fn build_with_int_array(
        &mut self,
        block: BlockId,
        name: &'static str,
        x: ValueId,
        ints: &[i64],
        dims_of: fn(&[i64], &[i64]) -> crate::desc::Dims,
    ) -> Result<ValueId> {
        let array = self.build_full_int_array(block, ints)?;
        let (dtype, dims) = self.dense_of(x)?;
        let out = dims_of(&dims, ints);
        let ty = pir_core::builtin::DenseTensorType::get(&self.ctx, dtype, &out);
        let op = self.built_op(
            block,
            false,
            name,
            &[Some(x), Some(array)],
            &[ty],
            (&NO_KEYS, &[]),
        );
        Ok(self.program.result(op, 0))
    }

    /// `pd_op.scale` by a constant (`ScaleOp::Build(x, scale)`).
    pub fn build_scale(&mut self, block: BlockId, x: ValueId, scale: f32) -> Result<ValueId> {
        let s = self.build_full(
            block,
            false,
            &[1],
            f64::from(scale),
            DataType::Float32,
            Place::cpu(),
        )?;
        let ty = self.ty(x);
        let op = self.built_op(
            block,
            false,
            "pd_op.scale",
            &[Some(x), Some(s)],
            &[ty],
            (
                &SCALE_KEYS,
                &[F32Attr::get(&self.ctx, 0.0), self.k.bool_true],
            ),
        );
        Ok(self.program.result(op, 0))
    }

    /// `builtin.combine` of bound variables (created without attributes).
    pub fn build_combine_vars(
        &mut self,
        block: BlockId,
        scope: ScopeId,
        vars: &[&str],
    ) -> Result<ValueId> {
        let mut operands = Vec::with_capacity(vars.len());
        for v in vars {
            operands.push(self.lookup(scope, v)?.value);
        }
        Ok(self.build_combine(block, &operands))
    }

    /// `builtin.combine` of values.
    pub fn build_combine(&mut self, block: BlockId, operands: &[ValueId]) -> ValueId {
        let types: Vec<Type> = operands.iter().map(|&v| self.ty(v)).collect();
        let ty = values::vector_type(&self.ctx, &types);
        let ops: Vec<Option<ValueId>> = operands.iter().map(|&v| Some(v)).collect();
        let op = self.create_op(
            InsertPoint::BlockEnd(block),
            "builtin.combine",
            &ops,
            &[ty],
            AttrMap::new(),
            0,
        );
        self.program.result(op, 0)
    }

    /// `builtin.slice` taking a variable out of the vector it is bound to.
    pub fn build_slice(
        &mut self,
        block: BlockId,
        at: InsertPoint,
        info: VarInfo,
    ) -> Result<ValueId> {
        let elems = values::vector_elems(&self.ctx, self.ty(info.value))
            .ok_or_else(|| self.err("expected a vector value"))?;
        let ty = usize::try_from(info.index)
            .ok()
            .and_then(|i| elems.get(i).copied())
            .ok_or_else(|| self.err("vector index out of range"))?;
        let mut map = AttrMap::new();
        map.set("index", self.ctx.intern_attr(I32Attr(info.index)));
        let at = match at {
            InsertPoint::BlockEnd(_) => InsertPoint::BlockEnd(block),
            other => other,
        };
        let op = self.create_op(at, "builtin.slice", &[Some(info.value)], &[ty], map, 0);
        self.mark_static_keys(op);
        Ok(self.program.result(op, 0))
    }

    /// `pd_op.stack` of a combined vector.
    pub fn build_stack(&mut self, block: BlockId, vec: ValueId, axis: i32) -> Result<ValueId> {
        let elems = values::vector_elems(&self.ctx, self.ty(vec))
            .ok_or_else(|| self.err("expected a vector value"))?;
        let first = elems
            .first()
            .and_then(|&t| values::as_dense(&self.ctx, t))
            .ok_or_else(|| self.err("stack of no tensors"))?;
        let mut dims = first.dims.to_vec();
        let rank = dims.len() as i32 + 1;
        let a = if axis < 0 { axis + rank } else { axis };
        let pos = usize::try_from(a).unwrap_or(0).min(dims.len());
        dims.insert(pos, elems.len() as i64);
        let ty = pir_core::builtin::DenseTensorType::get(&self.ctx, first.dtype, &dims);
        let op = self.built_op(
            block,
            false,
            "pd_op.stack",
            &[Some(vec)],
            &[ty],
            (&STACK_KEYS, &[self.ctx.intern_attr(I32Attr(axis))]),
        );
        Ok(self.program.result(op, 0))
    }

    /// `pd_op.shape64` of a tensor.
    pub fn build_shape64(&mut self, block: BlockId, x: ValueId) -> Result<ValueId> {
        let rank = self.dense_of(x)?.1.len() as i64;
        let ty = self.tensor(DataType::Int64, &[rank])?;
        let op = self.built_op(
            block,
            false,
            "pd_op.shape64",
            &[Some(x)],
            &[ty],
            (&NO_KEYS, &[]),
        );
        Ok(self.program.result(op, 0))
    }

    /// `pd_op.concat` of 1-D tensors along axis 0 (a constant axis).
    pub fn build_concat0(&mut self, block: BlockId, vec: ValueId) -> Result<ValueId> {
        let elems = values::vector_elems(&self.ctx, self.ty(vec))
            .ok_or_else(|| self.err("expected a vector value"))?;
        let mut total = 0i64;
        let mut dtype = None;
        for t in &elems {
            let d =
                values::as_dense(&self.ctx, *t).ok_or_else(|| self.err("concat of non-tensors"))?;
            let n = d.dims.first().copied().unwrap_or(1);
            total = if total < 0 || n < 0 { -1 } else { total + n };
            dtype = Some(d.dtype);
        }
        let axis = self.build_full(block, false, &[1], 0.0, DataType::Int32, Place::cpu())?;
        let dtype = dtype.ok_or_else(|| self.err("concat of no tensors"))?;
        let ty = pir_core::builtin::DenseTensorType::get(&self.ctx, dtype, &[total]);
        let op = self.built_op(
            block,
            false,
            "pd_op.concat",
            &[Some(vec), Some(axis)],
            &[ty],
            (&NO_KEYS, &[]),
        );
        Ok(self.program.result(op, 0))
    }

    /// `pd_op.data` from its builder.
    pub fn build_data(
        &mut self,
        block: BlockId,
        at_front: bool,
        name: &str,
        shape: &[i64],
        dtype: DataType,
    ) -> Result<ValueId> {
        let ty = self.tensor(dtype, shape)?;
        let op = self.built_op(
            block,
            at_front,
            "pd_op.data",
            &[],
            &[ty],
            (
                &DATA_KEYS,
                &[
                    StrAttr::get(&self.ctx, name),
                    IntArrayAttr::get(&self.ctx, shape),
                    DataTypeAttr::get(&self.ctx, dtype),
                    self.k.undefined_place,
                ],
            ),
        );
        Ok(self.program.result(op, 0))
    }

    /// `pd_op.create_array` from its builder.
    pub fn build_create_array(
        &mut self,
        block: BlockId,
        at_front: bool,
        dtype: DataType,
    ) -> Result<ValueId> {
        let s = dtype
            .scalar()
            .ok_or_else(|| self.err(format!("data type {dtype:?} has no array type")))?;
        let ty = self.ctx.intern_type(DenseTensorArrayType {
            dtype: self.ctx.intern_type(s),
            // `CreateArrayInferMeta` leaves the dims of a new array at
            // `[0]` (what Paddle 3.3.1 writes for a fresh `create_array`).
            dims: Box::new([0]),
            layout: pir_core::builtin::DataLayout::NCHW,
        });
        let op = self.built_op(
            block,
            at_front,
            "pd_op.create_array",
            &[],
            &[ty],
            (&CREATE_ARRAY_KEYS, &[DataTypeAttr::get(&self.ctx, dtype)]),
        );
        Ok(self.program.result(op, 0))
    }
}

/// Paddle's `ValidateShape` at compile time: `0` copies the input dim, one
/// `-1` is inferred when every input dim is known.
pub fn reshape_dims(x: &[i64], shape: &[i64]) -> crate::desc::Dims {
    let mut out = crate::desc::Dims::with_capacity(shape.len());
    let mut capacity: i64 = 1;
    let mut unknown = None;
    for (i, &s) in shape.iter().enumerate() {
        let d = if s == -1 {
            unknown = Some(i);
            -1
        } else if s == 0 {
            x.get(i).copied().unwrap_or(0)
        } else {
            s
        };
        capacity = capacity.wrapping_mul(d);
        out.push(d);
    }
    if let Some(u) = unknown {
        let all_known = x.iter().all(|&d| d > 0);
        if all_known && capacity != 0 {
            // Dims from the file may be of any size: wrapping arithmetic,
            // like the C++ it follows, never a panic.
            let size = x.iter().fold(1i64, |acc, &d| acc.wrapping_mul(d));
            out.as_mut_slice()[u] = size.wrapping_neg().wrapping_div(capacity);
        } else {
            out.as_mut_slice()[u] = -1;
        }
    }
    out
}

/// Paddle's squeeze shape at compile time (unknown dims named by an axis
/// are squeezed too).
pub fn squeeze_dims(x: &[i64], axes: &[i64]) -> Vec<i64> {
    let rank = x.len() as i64;
    let mut squeeze = vec![false; x.len()];
    if axes.is_empty() {
        for (i, &d) in x.iter().enumerate() {
            squeeze[i] = d == 1;
        }
    } else {
        for &a in axes {
            let cur = if a < 0 { a + rank } else { a };
            if let Some(i) = usize::try_from(cur).ok().filter(|&i| i < x.len()) {
                squeeze[i] = x[i] == 1 || x[i] == -1;
            }
        }
    }
    x.iter()
        .zip(squeeze)
        .filter(|(_, s)| !s)
        .map(|(&d, _)| d)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reshape_infers_one_unknown_dim_like_paddle() {
        assert_eq!(reshape_dims(&[8], &[1, 8, 1, 1])[..], [1, 8, 1, 1]);
        assert_eq!(reshape_dims(&[-1, 8, 1, 1], &[-1, 8])[..], [-1, 8]);
        assert_eq!(reshape_dims(&[2, 3, 4], &[0, -1])[..], [2, 12]);
        assert_eq!(reshape_dims(&[-1, 5], &[-1, 5])[..], [-1, 5]);
        // Dims whose product overflows give some shape, not a panic.
        let huge = [i64::MAX, i64::MAX, 3];
        assert_eq!(reshape_dims(&huge, &[-1, 1]).len(), 2);
        assert_eq!(reshape_dims(&[1 << 62, 2], &[-1]).len(), 1);
        assert_eq!(reshape_dims(&[1 << 62, 2, 2], &[-1]).len(), 1);
    }

    #[test]
    fn a_builders_order_is_the_map_order_of_its_names() {
        for keys in [&FULL_KEYS, &DATA_KEYS, &SCALE_KEYS, &NO_KEYS] {
            assert_eq!(*keys.order(), *memo::map_order(keys.names.iter().copied()));
        }
        // Listed out of the order they were set in.
        assert_ne!(FULL_KEYS.order(), [0, 1, 2, 3]);
    }

    #[test]
    fn squeeze_drops_named_unit_dims() {
        assert_eq!(squeeze_dims(&[-1, 7, 1, 16], &[-2]), [-1, 7, 16]);
        assert_eq!(squeeze_dims(&[1, 3, 1], &[]), [3]);
    }
}
