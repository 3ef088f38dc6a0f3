//! `pd_op` types: selected rows, dense tensor arrays, sparse COO/CSR tensors.

use pir_core::builtin::{
    parse_layout, print_shape_and_dtype, DataLayout, DenseTensorType, TensorExtras,
};
use pir_core::parser::{ParseError, Parser};
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
    const KEYWORDS: &'static [&'static str] = &["pd_op.selectedrows"];
    fn print(&self, p: &mut Printer<'_>) {
        p.write_str("pd_op.selectedrows<");
        print_shape_and_dtype(p, &self.0.dims, self.0.dtype);
        TensorExtras::print(p, self.0.layout, &self.0.lod, self.0.offset);
        p.write_str(">");
    }
    fn parse(p: &mut Parser<'_>, _: &str, _: usize) -> Result<Type, ParseError> {
        let dense = DenseTensorType::parse_body(p)?;
        Ok(p.ctx().intern_type(SelectedRowsType(dense)))
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
    const KEYWORDS: &'static [&'static str] = &["pd_op.tensor_array"];
    fn print(&self, p: &mut Printer<'_>) {
        p.write_str("pd_op.tensor_array<");
        p.print_type(self.dtype);
        if p.is_typed() {
            p.write_str(", dims:");
            p.write_int_list(&self.dims);
            if self.layout != DataLayout::NCHW {
                p.write_str(", layout:");
                p.write_str(self.layout.as_str());
            }
        }
        p.write_str(">");
    }
    /// Paddle's print shows only the element type; dims then default to
    /// `[-1]` (unknown rank) and the layout to NCHW.
    fn parse(p: &mut Parser<'_>, _: &str, _: usize) -> Result<Type, ParseError> {
        p.cur.expect("<", "to open the tensor array type")?;
        let dtype = p.parse_type()?;
        let mut array = DenseTensorArrayType {
            dtype,
            dims: Box::new([-1]),
            layout: DataLayout::NCHW,
        };
        while p.cur.eat(",") {
            match p.cur.expect_ident("`dims` or `layout`")? {
                "dims" => {
                    p.cur.expect(":", "after `dims`")?;
                    array.dims = p.parse_int_list()?.into();
                }
                "layout" => {
                    p.cur.expect(":", "after `layout`")?;
                    array.layout = parse_layout(p)?;
                }
                other => {
                    return Err(p.expected(&format!("`dims` or `layout` instead of `{other}`")))
                }
            }
        }
        p.cur.expect(">", "to close the tensor array type")?;
        Ok(p.ctx().intern_type(array))
    }
    pir_core::json_fields!(type: dtype, dims, layout);
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
    const KEYWORDS: &'static [&'static str] = &["pd_op.sparsecootensor"];
    fn print(&self, p: &mut Printer<'_>) {
        p.write_str("pd_op.sparsecootensor<");
        print_shape_and_dtype(p, &self.dims, self.dtype);
        if p.is_typed() {
            p.write_str(", non_zero_dims:");
            p.write_int_list(&self.non_zero_dims);
            print_sparse_parts(
                p,
                self.layout,
                &[("indices", self.indices), ("elements", self.elements)],
            );
        }
        p.write_str(">");
    }
    fn parse(p: &mut Parser<'_>, keyword: &str, start: usize) -> Result<Type, ParseError> {
        p.cur.expect("<", "to open the sparse tensor type")?;
        let (dims, dtype) = p.parse_dims_and_dtype()?;
        if !p.cur.looking_at(",") {
            return Err(sparse_needs_typed_form(p, keyword, start));
        }
        p.cur.expect(",", "")?;
        p.cur.expect("non_zero_dims:", "")?;
        let non_zero_dims = p.parse_int_list()?.into();
        let (layout, parts) = parse_sparse_parts(p, &["indices", "elements"])?;
        Ok(p.ctx().intern_type(SparseCooTensorType {
            dtype,
            dims: dims.into(),
            non_zero_dims,
            layout,
            indices: parts[0],
            elements: parts[1],
        }))
    }
    pir_core::json_fields!(type: dtype, dims, non_zero_dims, layout, indices, elements);
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
    const KEYWORDS: &'static [&'static str] = &["pd_op.", "pd_op.sparsecsrtensor"];
    fn print(&self, p: &mut Printer<'_>) {
        if !p.is_typed() {
            p.write_str("pd_op.");
            return;
        }
        p.write_str("pd_op.sparsecsrtensor<");
        print_shape_and_dtype(p, &self.dims, self.dtype);
        print_sparse_parts(
            p,
            self.layout,
            &[
                ("crows", self.crows),
                ("cols", self.cols),
                ("elements", self.elements),
            ],
        );
        p.write_str(">");
    }
    fn parse(p: &mut Parser<'_>, keyword: &str, start: usize) -> Result<Type, ParseError> {
        if keyword == "pd_op." {
            return Err(sparse_needs_typed_form(
                p,
                "a sparse CSR tensor type",
                start,
            ));
        }
        p.cur.expect("<", "to open the sparse tensor type")?;
        let (dims, dtype) = p.parse_dims_and_dtype()?;
        let (layout, parts) = parse_sparse_parts(p, &["crows", "cols", "elements"])?;
        Ok(p.ctx().intern_type(SparseCsrTensorType {
            dtype,
            dims: dims.into(),
            layout,
            crows: parts[0],
            cols: parts[1],
            elements: parts[2],
        }))
    }
    pir_core::json_fields!(type: dtype, dims, layout, crows, cols, elements);
}

/// `, layout:NCHW, indices:tensor<…>, elements:tensor<…>` (typed form).
fn print_sparse_parts(p: &mut Printer<'_>, layout: DataLayout, parts: &[(&str, Type)]) {
    p.write_str(", layout:");
    p.write_str(layout.as_str());
    for &(name, ty) in parts {
        p.write_str(", ");
        p.write_str(name);
        p.write_str(":");
        p.print_type(ty);
    }
}

/// Reads `, layout:X, name:type, ...>` for the named component types.
fn parse_sparse_parts(
    p: &mut Parser<'_>,
    names: &[&str],
) -> Result<(DataLayout, Vec<Type>), ParseError> {
    p.cur.expect(",", "before the layout")?;
    p.cur.expect("layout:", "")?;
    let layout = parse_layout(p)?;
    let mut parts = Vec::with_capacity(names.len());
    for name in names {
        p.cur.expect(",", &format!("before `{name}`"))?;
        p.cur.skip_ws();
        p.cur.expect(name, "")?;
        p.cur.expect(":", &format!("after `{name}`"))?;
        parts.push(p.parse_type()?);
    }
    p.cur.expect(">", "to close the sparse tensor type")?;
    Ok((layout, parts))
}

/// Paddle's print of sparse tensor types leaves out their component types.
fn sparse_needs_typed_form(p: &Parser<'_>, what: &str, start: usize) -> ParseError {
    p.error_at(
        start,
        what.len().min(14),
        format!(
            "{what}: Paddle's print leaves out the sparse tensor's component types, so it cannot be read back; \
             print the program with `--typed`"
        ),
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a test fails loudly by design
mod tests {
    use super::*;
    use pir_core::builtin::ScalarType;

    fn decode(text: &str) -> Result<Type, DecodeError> {
        let ctx = crate::pd_op_context();
        let doc = pir_json::parse(text.as_bytes()).unwrap();
        serial::decode_type(&ctx, doc.root(), &JsonPath::Root("t"))
    }

    /// A kind declared by its fields writes Paddle's `D` array in field
    /// order and reads it back to the same type.
    #[test]
    fn declared_fields_round_trip() {
        let ctx = crate::pd_op_context();
        let f32_ty = ctx.intern_type(ScalarType::F32);
        let ty = ctx.intern_type(DenseTensorArrayType {
            dtype: f32_ty,
            dims: Box::new([-1, 4]),
            layout: DataLayout::NHWC,
        });
        let mut out = Vec::new();
        serial::encode_type(&ctx, ty, &mut serial::JsonWriter::compact(&mut out)).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            r##"{"#":"1.t_dense_tensor_array","D":[{"#":"0.t_f32"},[-1,4],"NHWC"]}"##
        );
        let doc = pir_json::parse(text.as_bytes()).unwrap();
        let back = serial::decode_type(&ctx, doc.root(), &JsonPath::Root("t")).unwrap();
        assert_eq!(back, ty);
    }

    /// A wrong element is reported at its path; a short array by its length.
    #[test]
    fn declared_fields_report_where_they_are_wrong() {
        let err =
            decode(r##"{"#":"1.t_dense_tensor_array","D":[{"#":"0.t_f32"},[-1,"x"],"NHWC"]}"##)
                .unwrap_err();
        assert_eq!(err.path, "t.D[1][1]", "{err:?}");
        let err =
            decode(r##"{"#":"1.t_dense_tensor_array","D":[{"#":"0.t_f32"},[-1]]}"##).unwrap_err();
        assert!(err.message.contains("3 elements"), "{err:?}");
        let err = decode(r##"{"#":"1.t_dense_tensor_array","D":[{"#":"0.t_f32"},[-1],"NOPE"]}"##)
            .unwrap_err();
        assert_eq!(err.path, "t.D[2]", "{err:?}");
    }
}
