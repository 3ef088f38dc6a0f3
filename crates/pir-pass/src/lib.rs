//! `pir-pass`: transformations of PIR programs.
//!
//! - [`pass::Pass`] and [`PassManager`] (pipelines from text, verification
//!   after each pass, timing, statistics, IR printing).
//! - [`rewrite`]: patterns, frozen pattern sets, a `Rewriter` and a greedy
//!   driver that reports why it stopped.
//! - [`drr`]: declarative rewrite rules (a text form, compiled into patterns).
//! - [`transforms`]: `dce`, `cse`, `canonicalize`, `remove_identity_ops`,
//!   `delete_assert`, `replace_fetch_with_shadow_output`, `de_inplace`,
//!   `inplace`, the value-semantics passes `to_vtensor`, `drop_vtensor_copies`,
//!   `lower_vtensor`, `constant_folding` (with the CPU evaluator),
//!   `fold_batch_norm`, and Paddle's fusion and cleanup passes written as DRR
//!   rules (`transforms::fusion`: `identity_op_clean`, `matmul_add_act_fuse`, …).
//! - [`registry`]: every pass's `PassInfo`; [`pipelines`]: named pipelines (`inference`).
//! - [`params`]: parameters for passes (read, create, erase).
//!
//! ```
//! let ctx = pir_dialects::pd_op_context();
//! let mut program = pir_dialects::synthetic::mlp(ctx, 3);
//! let mut pm = pir_pass::PassManager::parse("canonicalize,cse,dce").unwrap();
//! pm.run(&mut program).unwrap();
//! program.verify().unwrap();
//! ```
#![forbid(unsafe_code)]

pub mod alias;
pub mod drr;
pub mod effects;
pub mod manager;
pub mod nested;
pub mod params;
pub mod pass;
pub mod pipelines;
pub mod registry;
pub mod rewrite;
pub mod transforms;

pub use manager::{Instrumentation, PassManager, RunError};
pub use pass::{
    Analysis, AnalysisManager, Changed, Named, Pass, PassContext, PassError, PassResult, PassRun,
    Registered, Statistics,
};
