//! `pir-shape`: symbolic shapes, as Paddle's shape dialect and its
//! `infer_symbolic_shape_pass` compute them.
//!
//! Every value gets a [`ShapeOrData`] fact: a [`DimExpr`] per dim (integers
//! for known extents, symbols `S0`, `S1`, … for unknown ones, and
//! expressions over them such as `Add(S3, 1)` or `Broadcast(S0, S1)`), and,
//! for small integer tensors (shapes, loop counters), the data. A
//! [`Constraints`] store records which dims are equal, which broadcast
//! together and which exceed one; an equality between a symbol and a
//! simpler dim substitutes it everywhere, as Paddle does.
//!
//! [`ShapeAnalysis::run`] infers a program op by op in program order with
//! one rule per op (modules under `rules/` named after Paddle's files),
//! `if` and `while` included. Passes ask it cheap questions:
//! [`ShapeAnalysis::same_shape`] ("do these two tensors have equal
//! shapes?"), [`ShapeAnalysis::dims_equal`], [`ShapeAnalysis::known_ints`]
//! ("is this value's data known?"). [`annotated_text`] prints the program
//! exactly as Paddle's `ShapeOptimizationPass` does.
//!
//! ```
//! let ctx = pir_dialects::pd_op_context();
//! let text = "{\n    (%0) = \"pd_op.data\" () {dtype:int64,name:\"n\",place:Place(undefined:0),shape:[1],stop_gradient:[false]} : () -> tensor<1xi64>\n}\n";
//! let program = pir_core::Program::parse(&ctx, text).unwrap();
//! let shapes = pir_shape::ShapeAnalysis::run(&program);
//! assert!(pir_shape::annotated_text(&program, &shapes).contains("{ (shape[1], data[S0]) }"));
//! ```
#![forbid(unsafe_code)]

mod analysis;
mod constraints;
mod expr;
mod fact;
mod print;
mod rank_check;
mod rules;
mod simplify;
mod substitute;

pub use analysis::{Assume, ShapeAnalysis, Skipped};
pub use constraints::Constraints;
pub use expr::{DimExpr, Sym, MAX_NODES};
pub use fact::{ShapeOrData, TensorFact};
pub use print::{annotated_text, op_suffix};
pub use rank_check::RankMismatch;
pub use rules::{ops_declaring_interface, ops_with_rules};
pub use simplify::simplify;
pub use substitute::{substitute, Pattern};
