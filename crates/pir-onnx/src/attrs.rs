//! Reading a Paddle op's attributes as the numbers, lists and strings an ONNX
//! node needs: `pir_dialects::op_attrs` (the one attribute reader), its
//! errors made [`ExportError::Unsupported`] with the op's location, values
//! of a neighbouring kind read too (a float where an integer is asked for).

use pir_core::{OpId, Program};
use pir_dialects::op_attrs::{AttrError, OpAttrs};
use pir_params::DType;

use crate::ExportError;

/// An op's attributes.
pub(crate) type Attrs<'p> = OpAttrs<'p, ExportError>;

/// The attributes of `op`.
pub(crate) fn attrs(program: &Program, op: OpId) -> Attrs<'_> {
    OpAttrs::with_errors(program, op, unsupported).coercing()
}

fn unsupported(program: &Program, op: OpId, error: AttrError) -> ExportError {
    ExportError::Unsupported {
        op: program.op_name_str(op).to_string(),
        location: crate::export::Exporter::location_of(program, op),
        message: error.to_string(),
    }
}

/// A `pd_op.DataType` attribute as a dtype: `None` when absent or
/// `Undefined`.
pub(crate) fn dtype(attrs: &Attrs<'_>, name: &str) -> Result<Option<DType>, ExportError> {
    attrs.dtype(name, |d| DType::from_paddle_name(d.text()))
}
