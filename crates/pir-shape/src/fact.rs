//! Shape-or-data facts (Paddle's `ShapeOrDataDimExprs`): what the analysis
//! knows of one value.

use std::fmt;

use crate::expr::{write_dims, DimExpr};

/// The shape of a tensor and, for small integer tensors whose contents are
/// known (shapes, loop counters), the data.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct TensorFact {
    /// One expression per dim.
    pub shape: Vec<DimExpr>,
    /// The elements, flattened, when known.
    pub data: Option<Vec<DimExpr>>,
}

impl TensorFact {
    /// A shape without data.
    pub fn shape(shape: Vec<DimExpr>) -> TensorFact {
        TensorFact { shape, data: None }
    }

    /// A shape with data.
    pub fn with_data(shape: Vec<DimExpr>, data: Vec<DimExpr>) -> TensorFact {
        TensorFact {
            shape,
            data: Some(data),
        }
    }

    /// The rank.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }
}

/// What is known of a value.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum ShapeOrData {
    /// A dense tensor.
    Tensor(TensorFact),
    /// A vector of tensors (`builtin.combine`'s result).
    List(Vec<TensorFact>),
    /// A tensor array, with the shape its elements are expected to have.
    Array(Vec<DimExpr>),
    /// Nothing: a null value a rule set (Paddle prints it
    /// `shape[NULL], data[NULL]`).
    Null,
}

impl ShapeOrData {
    /// A tensor shape without data.
    pub fn shape(shape: Vec<DimExpr>) -> ShapeOrData {
        ShapeOrData::Tensor(TensorFact::shape(shape))
    }

    /// The tensor fact, when the value is a tensor.
    pub fn tensor(&self) -> Option<&TensorFact> {
        match self {
            ShapeOrData::Tensor(t) => Some(t),
            _ => None,
        }
    }

    /// The shape: a tensor's; an array's hint; empty otherwise.
    pub fn dims(&self) -> &[DimExpr] {
        match self {
            ShapeOrData::Tensor(t) => &t.shape,
            ShapeOrData::Array(h) => h,
            _ => &[],
        }
    }

    /// The data of a tensor, when known.
    pub fn data(&self) -> Option<&[DimExpr]> {
        self.tensor().and_then(|t| t.data.as_deref())
    }

    /// Applies `f` to every expression (shape and data).
    pub fn map(&self, f: &mut impl FnMut(&DimExpr) -> DimExpr) -> ShapeOrData {
        let tensor = |t: &TensorFact, f: &mut dyn FnMut(&DimExpr) -> DimExpr| TensorFact {
            shape: t.shape.iter().map(&mut *f).collect(),
            data: t.data.as_ref().map(|d| d.iter().map(&mut *f).collect()),
        };
        match self {
            ShapeOrData::Tensor(t) => ShapeOrData::Tensor(tensor(t, f)),
            ShapeOrData::List(l) => ShapeOrData::List(l.iter().map(|t| tensor(t, f)).collect()),
            ShapeOrData::Array(h) => ShapeOrData::Array(h.iter().map(f).collect()),
            ShapeOrData::Null => ShapeOrData::Null,
        }
    }
}

fn write_tensor(f: &mut fmt::Formatter<'_>, t: &TensorFact) -> fmt::Result {
    f.write_str("shape")?;
    write_dims(f, &t.shape)?;
    match &t.data {
        Some(d) => {
            f.write_str(", data")?;
            write_dims(f, d)
        }
        None => f.write_str(", data[NULL]"),
    }
}

/// Paddle's `operator<<` of a `ShapeOrDataDimExprs`.
impl fmt::Display for ShapeOrData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeOrData::Tensor(t) => write_tensor(f, t),
            ShapeOrData::List(l) => {
                for (i, t) in l.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write_tensor(f, t)?;
                }
                Ok(())
            }
            ShapeOrData::Array(h) => {
                f.write_str("TensorArray with shape hint: ")?;
                write_dims(f, h)
            }
            ShapeOrData::Null => f.write_str("shape[NULL], data[NULL]"),
        }
    }
}
