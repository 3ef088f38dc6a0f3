//! `pd_op` types: selected rows, dense tensor arrays, sparse COO/CSR tensors.

use pir_core::builtin::{
    decode_dims, decode_layout, encode_dims, print_shape_and_dtype, DataLayout, DenseTensorType,
};
use pir_core::printer::Printer;
use pir_core::serial::{self, DecodeError, EncodeError, JsonPath, JsonValue, JsonWriter};
use pir_core::{IrContext, Type, TypeDef};

/// `paddle::dialect::SelectedRowsType` (`1.t_selected_rows`): the same data as a
/// dense tensor, printed `pd_op.selectedrows<10x4xf32>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SelectedRowsType(pub DenseTensorType);

impl TypeDef for SelectedRowsType {
    const NAME: &'static str = "pd_op.selected_rows";
    const JSON_IDS: &'static [&'static str] = &["1.t_selected_rows"];
    fn print(&self, p: &mut Printer<'_>) {
        p.write_str("pd_op.selectedrows<");
        print_shape_and_dtype(p, &self.0.dims, self.0.dtype);
        p.write_str(">");
    }
    fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        serial::begin_tagged(w, "1.t_selected_rows");
        self.0.encode_data(ctx, w)?;
        w.end_object();
        Ok(())
    }
    fn decode(
        ctx: &IrContext,
        _: &str,
        obj: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Type, DecodeError> {
        let data = serial::field(obj, "D", path)?;
        let dense = DenseTensorType::decode_data(ctx, data, &path.key("D"))?;
        Ok(ctx.intern_type(SelectedRowsType(dense)))
    }
}

/// `paddle::dialect::DenseTensorArrayType` (`1.t_dense_tensor_array`): element
/// type, dims and layout; printed `pd_op.tensor_array<f32>` (dims not shown).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DenseTensorArrayType {
    /// Element type.
    pub dtype: Type,
    /// Dims of the elements.
    pub dims: Box<[i64]>,
    /// Layout.
    pub layout: DataLayout,
}

impl TypeDef for DenseTensorArrayType {
    const NAME: &'static str = "pd_op.tensor_array";
    const JSON_IDS: &'static [&'static str] = &["1.t_dense_tensor_array"];
    fn print(&self, p: &mut Printer<'_>) {
        p.write_str("pd_op.tensor_array<");
        p.print_type(self.dtype);
        p.write_str(">");
    }
    fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        serial::begin_tagged(w, "1.t_dense_tensor_array");
        w.begin_array();
        serial::encode_type(ctx, self.dtype, w)?;
        encode_dims(w, &self.dims);
        w.string(self.layout.as_str());
        w.end_array();
        w.end_object();
        Ok(())
    }
    fn decode(
        ctx: &IrContext,
        _: &str,
        obj: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Type, DecodeError> {
        let dpath = path.key("D");
        let [dtype, dims, layout] = serial::array_n::<3>(serial::field(obj, "D", path)?, &dpath)?;
        Ok(ctx.intern_type(DenseTensorArrayType {
            dtype: serial::decode_type(ctx, dtype, &dpath.index(0))?,
            dims: decode_dims(dims, &dpath.index(1))?,
            layout: decode_layout(layout, &dpath.index(2))?,
        }))
    }
}

/// `paddle::dialect::SparseCooTensorType` (`1.t_sparse_coo_tensor`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SparseCooTensorType {
    /// Element type.
    pub dtype: Type,
    /// Dims.
    pub dims: Box<[i64]>,
    /// Dims of the non-zero part.
    pub non_zero_dims: Box<[i64]>,
    /// Layout.
    pub layout: DataLayout,
    /// Type of the indices tensor.
    pub indices: Type,
    /// Type of the values tensor.
    pub elements: Type,
}

impl TypeDef for SparseCooTensorType {
    const NAME: &'static str = "pd_op.sparse_coo_tensor";
    const JSON_IDS: &'static [&'static str] = &["1.t_sparse_coo_tensor"];
    fn print(&self, p: &mut Printer<'_>) {
        p.write_str("pd_op.sparsecootensor<");
        print_shape_and_dtype(p, &self.dims, self.dtype);
        p.write_str(">");
    }
    fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        serial::begin_tagged(w, "1.t_sparse_coo_tensor");
        w.begin_array();
        serial::encode_type(ctx, self.dtype, w)?;
        encode_dims(w, &self.dims);
        encode_dims(w, &self.non_zero_dims);
        w.string(self.layout.as_str());
        serial::encode_type(ctx, self.indices, w)?;
        serial::encode_type(ctx, self.elements, w)?;
        w.end_array();
        w.end_object();
        Ok(())
    }
    fn decode(
        ctx: &IrContext,
        _: &str,
        obj: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Type, DecodeError> {
        let dpath = path.key("D");
        let [dtype, dims, nz, layout, indices, elements] =
            serial::array_n::<6>(serial::field(obj, "D", path)?, &dpath)?;
        Ok(ctx.intern_type(SparseCooTensorType {
            dtype: serial::decode_type(ctx, dtype, &dpath.index(0))?,
            dims: decode_dims(dims, &dpath.index(1))?,
            non_zero_dims: decode_dims(nz, &dpath.index(2))?,
            layout: decode_layout(layout, &dpath.index(3))?,
            indices: serial::decode_type(ctx, indices, &dpath.index(4))?,
            elements: serial::decode_type(ctx, elements, &dpath.index(5))?,
        }))
    }
}

/// `paddle::dialect::SparseCsrTensorType` (`1.t_sparse_csr_tensor`). Paddle 3.3
/// prints it as just `pd_op.` (a gap in its printer, reproduced here).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SparseCsrTensorType {
    /// Element type.
    pub dtype: Type,
    /// Dims.
    pub dims: Box<[i64]>,
    /// Layout.
    pub layout: DataLayout,
    /// Type of the compressed-rows tensor.
    pub crows: Type,
    /// Type of the columns tensor.
    pub cols: Type,
    /// Type of the values tensor.
    pub elements: Type,
}

impl TypeDef for SparseCsrTensorType {
    const NAME: &'static str = "pd_op.sparse_csr_tensor";
    const JSON_IDS: &'static [&'static str] = &["1.t_sparse_csr_tensor"];
    fn print(&self, p: &mut Printer<'_>) {
        p.write_str("pd_op.");
    }
    fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        serial::begin_tagged(w, "1.t_sparse_csr_tensor");
        w.begin_array();
        serial::encode_type(ctx, self.dtype, w)?;
        encode_dims(w, &self.dims);
        w.string(self.layout.as_str());
        serial::encode_type(ctx, self.crows, w)?;
        serial::encode_type(ctx, self.cols, w)?;
        serial::encode_type(ctx, self.elements, w)?;
        w.end_array();
        w.end_object();
        Ok(())
    }
    fn decode(
        ctx: &IrContext,
        _: &str,
        obj: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Type, DecodeError> {
        let dpath = path.key("D");
        let [dtype, dims, layout, crows, cols, elements] =
            serial::array_n::<6>(serial::field(obj, "D", path)?, &dpath)?;
        Ok(ctx.intern_type(SparseCsrTensorType {
            dtype: serial::decode_type(ctx, dtype, &dpath.index(0))?,
            dims: decode_dims(dims, &dpath.index(1))?,
            layout: decode_layout(layout, &dpath.index(2))?,
            crows: serial::decode_type(ctx, crows, &dpath.index(3))?,
            cols: serial::decode_type(ctx, cols, &dpath.index(4))?,
            elements: serial::decode_type(ctx, elements, &dpath.index(5))?,
        }))
    }
}
