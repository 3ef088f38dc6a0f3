//! `pd_op` types: selected rows, dense tensor arrays, sparse COO/CSR tensors.

use pir_core::builtin::{parse_layout, DataLayout, DenseTensorType};
use pir_core::parser::{ParseError, Parser};
use pir_core::printer::Printer;
use pir_core::{Type, TypeDef};

pir_core::declare_kinds! {
    /// Registers the `pd_op` types declared here.
    pub(crate) fn register_declared_types;

    /// `paddle::dialect::SelectedRowsType` (`1.t_selected_rows`): the same data as a
    /// dense tensor, printed `pd_op.selectedrows<10x4xf32>`.
    type SelectedRowsType(DenseTensorType) {
        name: "pd_op.selected_rows",
        json: "1.t_selected_rows",
        keyword: "pd_op.selectedrows",
    }

    /// `paddle::dialect::SparseCooTensorType` (`1.t_sparse_coo_tensor`).
    type SparseCooTensorType {
        /// Element type.
        dtype: Type,
        /// Dims.
        dims: Box<[i64]>,
        /// Dims of the non-zero part.
        non_zero_dims: Box<[i64]>,
        /// Layout.
        layout: DataLayout,
        /// Type of the indices tensor.
        indices: Type,
        /// Type of the values tensor.
        elements: Type,
    } {
        name: "pd_op.sparse_coo_tensor",
        json: "1.t_sparse_coo_tensor",
        keyword: "pd_op.sparsecootensor",
    }

    /// `paddle::dialect::SparseCsrTensorType` (`1.t_sparse_csr_tensor`). Paddle 3.3
    /// prints it as just `pd_op.` (a gap in its printer, reproduced here).
    type SparseCsrTensorType {
        /// Element type.
        dtype: Type,
        /// Dims.
        dims: Box<[i64]>,
        /// Layout.
        layout: DataLayout,
        /// Type of the compressed-rows tensor.
        crows: Type,
        /// Type of the columns tensor.
        cols: Type,
        /// Type of the values tensor.
        elements: Type,
    } {
        name: "pd_op.sparse_csr_tensor",
        json: "1.t_sparse_csr_tensor",
        keyword: "pd_op.sparsecsrtensor",
        untyped: "pd_op.",
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

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a test fails loudly by design
mod tests {
    use super::*;
    use pir_core::builtin::ScalarType;
    use pir_core::serial::{self, DecodeError, JsonPath};

    fn decode(text: &str) -> Result<Type, DecodeError> {
        let ctx = crate::pd_op_context();
        let doc = pir_json::parse(text.as_bytes()).unwrap();
        serial::decode_type(&ctx, doc.root(), &JsonPath::Root("t"))
    }

    fn print(ctx: &pir_core::IrContext, ty: Type, typed: bool) -> String {
        let mut out = Vec::new();
        let options = pir_core::printer::PrintOptions {
            typed,
            ..Default::default()
        };
        Printer::with_options(ctx, &mut out, options).print_type(ty);
        String::from_utf8(out).unwrap()
    }

    /// Each declared kind reads back from the JSON it writes, the same
    /// handle by the document's decoder and by the reader of exact text.
    #[test]
    fn declared_kinds_read_back_from_their_json_both_ways() {
        use crate::pd_op::{DataType, DataTypeAttr, IntArrayAttr, Place, PlaceAttr};
        use crate::value_tensor::ValueTensorType;
        use pir_core::builtin::{BoolAttr, I32Attr, StrAttr, TensorNameAttr, TypeAttr, VectorType};
        let ctx = crate::pd_op_context();
        let f32_ty = ctx.intern_type(ScalarType::F32);
        let dense = DenseTensorType::get(&ctx, f32_ty, &[-1, 4]);
        let dense_data = ctx.type_as::<DenseTensorType>(dense).unwrap().clone();
        let types = [
            VectorType::get(&ctx, &[f32_ty, dense]),
            ctx.intern_type(SelectedRowsType(dense_data.clone())),
            ctx.intern_type(ValueTensorType(dense_data)),
            sparse_coo(&ctx, dense),
            sparse_csr(&ctx, dense),
        ];
        for ty in types {
            let mut out = Vec::new();
            serial::encode_type(&ctx, ty, &mut serial::JsonWriter::compact(&mut out)).unwrap();
            let text = String::from_utf8(out).unwrap();
            let doc = pir_json::parse(text.as_bytes()).unwrap();
            let by_doc = serial::decode_type(&ctx, doc.root(), &JsonPath::Root("t")).unwrap();
            let by_text = serial::decode_type_exact(&ctx, &mut serial::ExactJson::new(&text));
            assert_eq!((by_doc, by_text), (ty, Some(ty)), "{text}");
        }
        let attrs = [
            ctx.intern_attr(BoolAttr(true)),
            ctx.intern_attr(I32Attr(-7)),
            StrAttr::get(&ctx, "relu"),
            TensorNameAttr::get(&ctx, "x"),
            ctx.intern_attr(TypeAttr(dense)),
            IntArrayAttr::get(&ctx, &[1, -1]),
            DataTypeAttr::get(&ctx, DataType::Float16),
            PlaceAttr::get(&ctx, Place::cpu()),
            ctx.intern_attr(crate::pd_op::DataLayoutAttr(DataLayout::NHWC)),
        ];
        for attr in attrs {
            let mut out = Vec::new();
            serial::encode_attr(&ctx, attr, &mut serial::JsonWriter::compact(&mut out)).unwrap();
            let text = String::from_utf8(out).unwrap();
            let doc = pir_json::parse(text.as_bytes()).unwrap();
            let by_doc = serial::decode_attr(&ctx, doc.root(), &JsonPath::Root("a")).unwrap();
            let by_text = serial::decode_attr_exact(&ctx, &mut serial::ExactJson::new(&text));
            assert_eq!((by_doc, by_text), (attr, Some(attr)), "{text}");
        }
    }

    fn sparse_coo(ctx: &pir_core::IrContext, part: Type) -> Type {
        ctx.intern_type(SparseCooTensorType {
            dtype: ctx.intern_type(ScalarType::F32),
            dims: Box::new([4, 4]),
            non_zero_dims: Box::new([3]),
            layout: DataLayout::SparseCoo,
            indices: part,
            elements: part,
        })
    }

    fn sparse_csr(ctx: &pir_core::IrContext, part: Type) -> Type {
        ctx.intern_type(SparseCsrTensorType {
            dtype: ctx.intern_type(ScalarType::F32),
            dims: Box::new([4, 4]),
            layout: DataLayout::SparseCsr,
            crows: part,
            cols: part,
            elements: part,
        })
    }

    /// Sparse tensor types print their parts by name in the typed form only,
    /// and only that form reads back.
    #[test]
    fn sparse_types_print_their_parts_when_typed() {
        let ctx = crate::pd_op_context();
        let f32_ty = ctx.intern_type(ScalarType::F32);
        let part = DenseTensorType::get(&ctx, f32_ty, &[3]);
        let coo = sparse_coo(&ctx, part);
        let csr = sparse_csr(&ctx, part);
        assert_eq!(print(&ctx, coo, false), "pd_op.sparsecootensor<4x4xf32>");
        assert_eq!(
            print(&ctx, coo, true),
            "pd_op.sparsecootensor<4x4xf32, non_zero_dims:[3], layout:SPARSE_COO, \
             indices:tensor<3xf32>, elements:tensor<3xf32>>"
        );
        assert_eq!(print(&ctx, csr, false), "pd_op.");
        for ty in [coo, csr] {
            let typed = print(&ctx, ty, true);
            assert_eq!(pir_core::parser::parse_type_text(&ctx, &typed).unwrap(), ty);
            let paddle = print(&ctx, ty, false);
            let err = pir_core::parser::parse_type_text(&ctx, &paddle).unwrap_err();
            assert!(err.to_string().contains("--typed"), "{err}");
        }
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
