//! `pir-pass`: transformations of PIR programs.
//!
//! - [`pass::Pass`] and [`PassManager`] (pipelines from text, verification
//!   after each pass, timing, statistics, IR printing).
//! - [`rewrite`]: patterns and a greedy driver that reports why it stopped.
//! - [`transforms`]: `dce`, `cse`, `canonicalize`, `remove-identity-ops`,
//!   `remove-redundant-transpose`, `delete-assert`,
//!   `replace-fetch-with-shadow-output`, `de_inplace`, `inplace`,
//!   and the value-semantics passes `to_vtensor`, `drop_vtensor_copies`,
//!   `lower_vtensor`, and `constant_folding` (with the CPU evaluator).
//! - [`params`]: parameters for passes (read, create, erase).
//!
//! ```
//! let ctx = pir_dialects::pd_op_context();
//! let mut program = pir_dialects::synthetic::mlp(ctx, 3);
//! let mut pm = pir_pass::PassManager::parse("canonicalize,cse,dce").unwrap();
//! pm.run(&mut program).unwrap();
//! program.verify().unwrap();
//! ```
#![deny(unsafe_op_in_unsafe_fn)]

pub mod alias;
pub mod effects;
pub mod manager;
pub mod nested;
pub mod params;
pub mod pass;
pub mod registry;
pub mod rewrite;
pub mod transforms;

pub use manager::{Instrumentation, PassManager, RunError};
pub use pass::{Analysis, AnalysisManager, Changed, Pass, PassContext, PassError, Statistics};
