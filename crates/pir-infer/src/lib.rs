//! `pir-infer`: result types of `pd_op` ops computed as Paddle computes them
//! (its `InferMetaInterface`), from operand types, attributes and the values
//! of constant operands.
//!
//! Each op definition names an InferMeta function (`runtime.infer_meta_func`)
//! and maps the op's operands and attributes to its parameters
//! (`runtime.infer_meta_param`, in the definitions' `RuntimeDef`). There is one
//! implementation per function, shared by every op that names it, in modules
//! named after Paddle's files (`unary`, `binary`, `ternary`, `multiary`,
//! `nullary`, `backward`, `fusion`), plus the ops Paddle infers by hand
//! (`control_flow`: `if`, `while`, array ops; `builtin`: `combine`, `split`,
//! `slice`). An op without inference is an [`InferError`], never a guess.
//!
//! ```
//! use pir_infer::Inferer;
//! let ctx = pir_dialects::pd_op_context();
//! let inferer = Inferer::new(&ctx);
//! assert!(inferer.has_inference(ctx.symbol("pd_op.matmul")));
//! ```
#![forbid(unsafe_code)]

/// Declares a tree's test modules (each `X_tests.rs` beside its `X.rs`),
/// compiled for tests only.
macro_rules! test_modules {
    ($($vis:vis mod $name:ident;)*) => {
        $(#[cfg(test)] $vis mod $name;)*
    };
}

mod args;
mod backward;
mod binary;
mod builtin;
mod check;
mod control_flow;
mod create;
mod fusion;
mod meta;
mod multiary;
mod nullary;
mod propagate;
mod registry;
mod ternary;
#[cfg(test)]
mod testing;
mod unary;

pub use args::{IntArray, Scalar};
pub use check::{display_type_or_null, display_types, OpCheck, ProgramCheck};
pub use meta::{DDim, Meta, Out, MAX_RANK};
pub use multiary::training::size_of as element_size;
pub use propagate::{inputs, Input, Reshaped, ShapeError};

use std::sync::{Arc, Mutex, Weak};

use pir_core::{IrContext, OpId, Program, Symbol, Type};
use pir_dialects::op_def::{OpDef, OP_DEFS};
use rustc_hash::FxHashMap;

use args::{Args, Param, Syms};

/// The InferMeta facts of the op definitions.
mod table {
    use pir_dialects::op_def::{List, OpDef, Text, OP_DEFS};

    /// `(definition, InferMeta function, parameters)` of every defined op that
    /// names a function, in name order.
    pub(crate) fn infer_meta() -> impl Iterator<Item = (&'static OpDef, &'static str, List<Text>)> {
        OP_DEFS.iter().filter_map(|d| {
            let rt = d.runtime?;
            (!rt.infer_meta_func.is_empty()).then_some((
                d,
                rt.infer_meta_func.as_str(),
                rt.infer_meta_params,
            ))
        })
    }
}

/// A failure inside an InferMeta function: Paddle's `PADDLE_ENFORCE` message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bad(pub String);

/// Why an op's result types could not be inferred.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InferError {
    /// The op has no inference: it has no InferMeta function and is not one
    /// of the ops typed by hand or by declaration, or it is not a known op.
    #[error("no type inference for `{op}`")]
    NoInference {
        /// The op name.
        op: String,
    },
    /// The op names an InferMeta function this crate does not implement.
    #[error("`{op}`: InferMeta function `{func}` is not implemented")]
    Unimplemented {
        /// The op name.
        op: String,
        /// The function.
        func: String,
    },
    /// The function refused the op's operands or attributes.
    #[error("`{op}` ({func}): {message}")]
    Invalid {
        /// The op name.
        op: String,
        /// The function (or `manual` for ops inferred by hand).
        func: String,
        /// What was wrong.
        message: String,
    },
}

/// An InferMeta function: parameters in, results out (one slot per result).
pub(crate) type InferFn = fn(&Args<'_>, &mut [Out]) -> Result<(), Bad>;

/// An op inferred by hand from the whole op (builtin and control flow).
pub(crate) type OpFn = fn(&Program, OpId, &mut [Out]) -> Result<(), Bad>;

enum Entry {
    Meta {
        func: InferFn,
        name: &'static str,
        params: Box<[Param]>,
        def: &'static OpDef,
    },
    Op(OpFn, Option<&'static OpDef>),
    /// Result types given by the op itself (see [`DECLARED_OPS`]).
    Declared,
    Missing(&'static str),
}

/// Ops whose result types are declared rather than inferred: nothing in
/// Paddle computes them from operands, so they are what they are.
///
/// - `builtin.parameter`: the type of the parameter the op names, given
///   when the op is built (`ParameterOp::Build` takes it as an argument).
/// - `builtin.constant`: the type of its value, given when built.
/// - `pd_op.feed`: the type of the fed variable; the op has no InferMeta
///   function (its yaml entry names none) and its builder takes the type.
///
/// `pd_op.data` is not here: its `DataInferMeta` computes the type from the
/// `shape` and `dtype` attributes, and is checked like any other.
pub const DECLARED_OPS: &[&str] = &["builtin.constant", "builtin.parameter", "pd_op.feed"];

/// How many ops of the definitions have inference (see [`Inferer::coverage`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Coverage {
    /// Ops naming an InferMeta function that is implemented.
    pub ops_inferred: usize,
    /// Ops naming an InferMeta function (`runtime.infer_meta_func`).
    pub ops_with_function: usize,
    /// Distinct InferMeta functions implemented.
    pub functions_implemented: usize,
    /// Distinct InferMeta functions the definitions name.
    pub functions: usize,
    /// Ops without an InferMeta function typed by hand or by declaration.
    pub ops_manual: usize,
}

/// Infers result types. Built once per context (it interns the names of
/// the ops and attributes it reads); cheap to share across threads.
pub struct Inferer {
    entries: FxHashMap<Symbol, Entry>,
    syms: Syms,
}

/// Counts the ops of the definitions with inference, without a context.
pub fn coverage() -> Coverage {
    let mut funcs: Vec<&str> = table::infer_meta().map(|e| e.1).collect();
    funcs.sort_unstable();
    funcs.dedup();
    Coverage {
        ops_inferred: table::infer_meta()
            .filter(|e| {
                registry::op_override(e.0.name.as_str()).is_some()
                    || registry::function(e.1).is_some()
            })
            .count(),
        ops_with_function: table::infer_meta().count(),
        functions_implemented: registry::implemented_functions(),
        functions: funcs.len(),
        ops_manual: registry::MANUAL_OPS.len() + DECLARED_OPS.len(),
    }
}

/// Whether ops named `op` have inference (an implemented InferMeta function
/// or typing by hand), without a context: for checks made before a program
/// exists (a rule file's result ops).
pub fn has_inference(op: &str) -> bool {
    if registry::MANUAL_OPS.iter().any(|&(name, _)| name == op) {
        return true;
    }
    find_def(op)
        .and_then(|d| d.runtime)
        .filter(|rt| !rt.infer_meta_func.is_empty())
        .is_some_and(|rt| {
            registry::op_override(op).is_some() || registry::function(&rt.infer_meta_func).is_some()
        })
}

fn find_def(name: &str) -> Option<&'static OpDef> {
    OP_DEFS
        .binary_search_by(|d| d.name.cmp_str(name))
        .ok()
        .and_then(|i| OP_DEFS.get(i))
}

impl Inferer {
    /// The inferer for ops of `ctx`.
    pub fn new(ctx: &IrContext) -> Inferer {
        let mut entries = FxHashMap::default();
        for (def, func_name, param_names) in table::infer_meta() {
            let op = def.name.as_str();
            let entry = if let Some(f) = registry::op_override(op) {
                Entry::Op(f, Some(def))
            } else if let Some(func) = registry::function(func_name) {
                let params = param_names
                    .strs()
                    .map(|n| {
                        if let Some(k) = def.input_index(n) {
                            Param::Input(k)
                        } else if let Some(k) = def.attributes.iter().position(|a| a.name == n) {
                            Param::Attr(ctx.symbol(n), k)
                        } else {
                            Param::Lit(n == "True" || n == "true")
                        }
                    })
                    .collect();
                Entry::Meta {
                    func,
                    name: func_name,
                    params,
                    def,
                }
            } else {
                Entry::Missing(func_name)
            };
            entries.insert(ctx.symbol(op), entry);
        }
        for &(op, f) in registry::MANUAL_OPS {
            entries.insert(ctx.symbol(op), Entry::Op(f, find_def(op)));
        }
        for &op in DECLARED_OPS {
            entries.insert(ctx.symbol(op), Entry::Declared);
        }
        Inferer {
            entries,
            syms: Syms::new(ctx),
        }
    }

    /// The inferer of `ctx`, built once per context and shared (passes
    /// and builders that meet the same context reuse it). Contexts that
    /// are gone are forgotten.
    pub fn shared(ctx: &Arc<IrContext>) -> Arc<Inferer> {
        type Cache = Vec<(Weak<IrContext>, Arc<Inferer>)>;
        static CACHE: Mutex<Cache> = Mutex::new(Vec::new());
        // A panic elsewhere while holding the lock leaves the list whole.
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        cache.retain(|(weak, _)| weak.strong_count() > 0);
        if let Some((_, inferer)) = cache
            .iter()
            .find(|(weak, _)| std::ptr::eq(weak.as_ptr(), Arc::as_ptr(ctx)))
        {
            return inferer.clone();
        }
        let inferer = Arc::new(Inferer::new(ctx));
        cache.push((Arc::downgrade(ctx), inferer.clone()));
        inferer
    }

    /// Whether ops named `op` have inference.
    pub fn has_inference(&self, op: Symbol) -> bool {
        matches!(
            self.entries.get(&op),
            Some(Entry::Meta { .. } | Entry::Op(..))
        )
    }

    /// Whether ops named `op` have declared result types (see [`DECLARED_OPS`]).
    pub fn is_declared(&self, op: Symbol) -> bool {
        matches!(self.entries.get(&op), Some(Entry::Declared))
    }

    /// The coverage of the definitions (see [`coverage`]).
    pub fn coverage(&self) -> Coverage {
        coverage()
    }

    /// The definition of the op named `op`, if it has inference.
    pub(crate) fn def_of(&self, op: Symbol) -> Option<&'static OpDef> {
        match self.entries.get(&op)? {
            Entry::Meta { def, .. } => Some(def),
            Entry::Op(_, def) => *def,
            _ => None,
        }
    }

    /// Infers the results of `op` into `outs` (one slot per result). A
    /// declared op (see [`DECLARED_OPS`]) gives its own result types.
    pub fn infer_into(&self, p: &Program, op: OpId, outs: &mut Vec<Out>) -> Result<(), InferError> {
        let name = p.op_name(op);
        let n = p.num_results(op);
        outs.clear();
        outs.resize(n, Out::Unset);
        let op_name = || p.op_name_str(op).to_owned();
        match self.entries.get(&name) {
            None => Err(InferError::NoInference { op: op_name() }),
            Some(Entry::Declared) => {
                for (o, v) in outs.iter_mut().zip(p.results(op)) {
                    *o = Out::Type(p.value_type(v));
                }
                Ok(())
            }
            Some(Entry::Missing(func)) => Err(InferError::Unimplemented {
                op: op_name(),
                func: (*func).to_owned(),
            }),
            Some(Entry::Op(f, _)) => f(p, op, outs).map_err(|Bad(message)| InferError::Invalid {
                op: op_name(),
                func: "manual".to_owned(),
                message,
            }),
            Some(Entry::Meta {
                func,
                name: fname,
                params,
                def,
            }) => {
                let args = Args {
                    p,
                    op,
                    def,
                    params,
                    syms: &self.syms,
                };
                func(&args, outs).map_err(|Bad(message)| InferError::Invalid {
                    op: op_name(),
                    func: (*fname).to_owned(),
                    message,
                })?;
                // A result the function leaves alone keeps the builder's
                // fresh `IrTensor` (see `Meta::unset_dims`). A result the op
                // was built without is null, which the check accepts for
                // optional results.
                for (o, spec) in outs.iter_mut().zip(def.outputs) {
                    if matches!(o, Out::Unset)
                        && spec.kind == pir_dialects::op_def::ValueKind::DenseTensor
                    {
                        *o = Out::Tensor(Meta::unset_dims(pir_dialects::pd_op::DataType::Float32));
                    }
                }
                Ok(())
            }
        }
    }

    /// The inferred result types of `op`.
    pub fn infer(&self, p: &Program, op: OpId) -> Result<Vec<Type>, InferError> {
        let mut outs = Vec::new();
        self.infer_into(p, op, &mut outs)?;
        let def = self.def_of(p.op_name(op));
        outs.iter()
            .enumerate()
            .map(|(i, o)| {
                let kind = check::result_kind(def, i);
                meta::out_type(p.ctx(), kind, o).map_err(|Bad(message)| InferError::Invalid {
                    op: p.op_name_str(op).to_owned(),
                    func: "result type".to_owned(),
                    message,
                })
            })
            .collect()
    }
}
