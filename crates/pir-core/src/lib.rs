//! `pir-core`: the PIR intermediate representation.
//!
//! The IR mirrors PaddlePaddle's PIR (seed documents `pir-basic-concepts.md` and
//! `ir-program-design.md`), organised as in MLIR:
//!
//! - [`IrContext`] interns [`Type`]s, [`Attribute`]s, attribute dictionaries
//!   ([`AttrDict`]) and names ([`Symbol`]), and registers dialects and ops
//!   ([`op_info::OpInfo`] with traits and interfaces).
//! - [`Program`] holds operations, values, blocks and regions in index arenas,
//!   with use-def chains, plus a parameter map.
//! - [`Builder`] creates ops at an insertion point; [`clone::IrMapping`] clones;
//!   [`walk`] visits nested ops; [`Program::verify`] checks structure, SSA and op rules.
//! - [`printer`] writes exactly the text Paddle 3.3 prints (or a lossless typed
//!   form); [`parser`] reads both back.
//! - [`builtin`] is the builtin dialect every context has.
//!
//! ```
//! use std::sync::Arc;
//! use pir_core::{IrContext, Program, Builder, builtin::{ScalarType, DenseTensorType}};
//! let ctx = Arc::new(IrContext::new());
//! let mut program = Program::new(ctx.clone());
//! let f32_ty = ctx.intern_type(ScalarType::F32);
//! let t = DenseTensorType::get(&ctx, f32_ty, &[-1, 4]);
//! let top = program.top_block();
//! let mut b = Builder::at_end(&mut program, top);
//! let x = b.op("test.input", &[], &[t], &[]);
//! let x = b.program().result(x, 0);
//! b.op("test.output", &[x], &[], &[]);
//! program.verify().unwrap();
//! assert!(program.to_string().contains("\"test.input\""));
//! ```
#![forbid(unsafe_code)]

pub mod attributes;
pub mod builder;
pub mod builtin;
pub mod clone;
pub mod context;
mod declare;
pub mod entity;
pub mod field;
pub mod fs;
mod interner;
pub mod kind;
pub mod memo;
pub mod op_info;
pub mod parser;
pub mod printer;
pub mod program;
pub mod serial;
pub mod suggest;
pub mod types;
pub mod verify;
pub mod visible;
pub mod walk;

pub use attributes::{AttrDef, AttrDict, Attribute};
pub use builder::Builder;
pub use context::{Dialect, IrContext, OpSource, Symbol};
pub use op_info::{OpInfo, TraitId};
pub use program::{
    BlockId, InsertPoint, OpId, OperandId, Parameter, ParameterData, Program, RegionId, ValueDef,
    ValueId,
};
pub use types::{Type, TypeDef};
