//! Fixed input shapes, followed through a program: `set_input_shapes` gives
//! data (and feed) ops new dims and re-infers every op downstream, control
//! flow included, so shape arithmetic that has become static can be folded.
//!
//! Only ops that read a value whose type changed are re-inferred: the rest
//! keep their stored types (and an op without inference is then no
//! obstacle). An op that must be re-inferred and cannot be — no inference,
//! or operands it refuses (a matmul whose inner dims now disagree, a reshape
//! that cannot hold) — is an error naming it.

use pir_core::builtin::{DenseTensorType, StrAttr};
use pir_core::{BlockId, OpId, Program, Type, ValueId};
use pir_dialects::pd_op::IntArrayAttr;
use rustc_hash::FxHashSet;

use crate::control_flow::unify;
use crate::meta::MAX_RANK;
use crate::{InferError, Inferer};

/// Regions deeper than this are refused rather than walked.
const MAX_NESTING: usize = 256;

/// Why input shapes could not be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// No data or feed op has this name.
    #[error("the program has no input `{name}`{}", list_inputs(name, .inputs))]
    UnknownInput {
        /// The name given.
        name: String,
        /// The inputs the program has.
        inputs: Vec<String>,
    },
    /// The same input was given twice.
    #[error("input `{0}` is given twice")]
    Repeated(String),
    /// The dims given do not fit the input.
    #[error("input `{name}`: {message}")]
    BadShape {
        /// The input.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// An op downstream cannot take the new types.
    #[error("op {path} `{op}`: {source}")]
    Op {
        /// The op's index path (`3`, or `5.0.2` inside op 5's region 0).
        path: String,
        /// The op name.
        op: String,
        /// Why its types cannot be inferred.
        source: InferError,
    },
    /// Regions nested too deep to walk.
    #[error("op {path}: regions nested more than {MAX_NESTING} deep")]
    TooDeep {
        /// Where.
        path: String,
    },
}

fn list_inputs(name: &str, inputs: &[String]) -> String {
    if inputs.is_empty() {
        return " (it has no data or feed ops)".to_owned();
    }
    match pir_core::suggest::closest(name, inputs.iter().map(String::as_str)) {
        Some(near) => format!("; did you mean `{near}`? (inputs: {})", inputs.join(", ")),
        None => format!(" (inputs: {})", inputs.join(", ")),
    }
}

/// What setting input shapes did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reshaped {
    /// Inputs given new dims.
    pub inputs: usize,
    /// Ops re-inferred (their operands' types changed).
    pub reinferred: usize,
    /// Values whose type changed (inputs included).
    pub retyped: usize,
}

/// One input of a program: a top-level `pd_op.data` or `pd_op.feed`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The op.
    pub op: OpId,
    /// Its `name` attribute.
    pub name: String,
    /// Its current type.
    pub ty: Type,
}

/// The inputs of a program: its top-level data and feed ops, in order.
pub fn inputs(p: &Program) -> Vec<Input> {
    let ctx = p.ctx();
    let data = ctx.symbol("pd_op.data");
    let feed = ctx.symbol("pd_op.feed");
    let name_sym = ctx.symbol("name");
    p.block_ops(p.top_block())
        .filter(|&op| {
            let n = p.op_name(op);
            (n == data || n == feed) && p.num_results(op) == 1
        })
        .filter_map(|op| {
            let name = ctx.dict_get(p.attrs(op), name_sym)?;
            let name = ctx.attr_as::<StrAttr>(name)?.0.to_string();
            Some(Input {
                op,
                name,
                ty: p.value_type(p.result(op, 0)),
            })
        })
        .collect()
}

impl Inferer {
    /// Gives the named inputs the dims given (`-1` for a dim left dynamic)
    /// and re-infers every op their values reach.
    pub fn set_input_shapes(
        &self,
        p: &mut Program,
        shapes: &[(String, Vec<i64>)],
    ) -> Result<Reshaped, ShapeError> {
        let all = inputs(p);
        let mut seen: Vec<&str> = Vec::new();
        let mut walk = Walk {
            inferer: self,
            changed: FxHashSet::default(),
            done: Reshaped::default(),
        };
        let ctx = p.ctx_arc().clone();
        for (name, dims) in shapes {
            if seen.contains(&name.as_str()) {
                return Err(ShapeError::Repeated(name.clone()));
            }
            seen.push(name);
            let input =
                all.iter()
                    .find(|i| &i.name == name)
                    .ok_or_else(|| ShapeError::UnknownInput {
                        name: name.clone(),
                        inputs: all.iter().map(|i| i.name.clone()).collect(),
                    })?;
            let bad = |message: String| ShapeError::BadShape {
                name: name.clone(),
                message,
            };
            let tensor = ctx.type_as::<DenseTensorType>(input.ty).ok_or_else(|| {
                bad(format!(
                    "not a dense tensor ({})",
                    ctx.display_type(input.ty)
                ))
            })?;
            if dims.len() != tensor.dims.len() {
                return Err(bad(format!(
                    "it has rank {} ({}), {} dims given",
                    tensor.dims.len(),
                    ctx.display_type(input.ty),
                    dims.len()
                )));
            }
            if dims.len() > MAX_RANK {
                return Err(bad(format!("rank {} is over {MAX_RANK}", dims.len())));
            }
            if let Some(d) = dims.iter().find(|&&d| d < -1) {
                return Err(bad(format!("dim {d} is neither a size nor -1")));
            }
            let new_ty = ctx.intern_type(DenseTensorType {
                dims: dims.as_slice().into(),
                ..tensor.clone()
            });
            if p.op_name_str(input.op) == "pd_op.data" {
                // The data op's own `shape` attribute says its dims too
                // (DataInferMeta reads it).
                p.set_attr(input.op, "shape", IntArrayAttr::get(&ctx, dims));
            }
            walk.done.inputs += 1;
            walk.retype(p, p.result(input.op, 0), new_ty);
        }
        let top = p.top_block();
        // Ops typed by their users change after those users; each round
        // settles at least one more of them, and there are few.
        for _round in 0..8 {
            walk.block(p, top, &mut Vec::new())?;
            if !walk.user_typed(p)? {
                break;
            }
        }
        Ok(walk.done)
    }
}

/// The `full` and `create_array` ops of a block and the blocks nested in
/// it, with their index paths (nesting is bounded by the walk before).
fn collect_user_typed(
    p: &Program,
    block: BlockId,
    path: &mut Vec<usize>,
    out: &mut Vec<(OpId, Vec<usize>)>,
) {
    for (i, op) in p.block_ops(block).enumerate() {
        path.push(i);
        let name = p.op_name_str(op);
        if (name == "pd_op.create_array" || name == "pd_op.full") && p.num_results(op) == 1 {
            out.push((op, path.clone()));
        }
        for r in 0..p.num_regions(op) {
            for (b, &inner) in p.region_blocks(p.op_region(op, r)).iter().enumerate() {
                path.extend([r, b]);
                collect_user_typed(p, inner, path, out);
                path.truncate(path.len() - 2);
            }
        }
        path.pop();
    }
}

struct Walk<'i> {
    inferer: &'i Inferer,
    changed: FxHashSet<ValueId>,
    done: Reshaped,
}

fn path_text(path: &[usize]) -> String {
    path.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

impl Walk<'_> {
    fn retype(&mut self, p: &mut Program, v: ValueId, ty: Type) {
        if p.value_type(v) != ty {
            p.set_value_type(v, ty);
            self.changed.insert(v);
            self.done.retyped += 1;
        }
    }

    fn reads_changed(&self, p: &Program, op: OpId) -> bool {
        p.operands(op).flatten().any(|v| self.changed.contains(&v))
    }

    fn block(
        &mut self,
        p: &mut Program,
        block: BlockId,
        path: &mut Vec<usize>,
    ) -> Result<(), ShapeError> {
        if path.len() / 3 > MAX_NESTING {
            return Err(ShapeError::TooDeep {
                path: path_text(path),
            });
        }
        let ops: Vec<OpId> = p.block_ops(block).collect();
        for (i, op) in ops.into_iter().enumerate() {
            path.push(i);
            self.op(p, op, path)?;
            path.pop();
        }
        Ok(())
    }

    fn regions(
        &mut self,
        p: &mut Program,
        op: OpId,
        path: &mut Vec<usize>,
    ) -> Result<(), ShapeError> {
        for r in 0..p.num_regions(op) {
            let blocks = p.region_blocks(p.op_region(op, r)).to_vec();
            for (b, block) in blocks.into_iter().enumerate() {
                path.extend([r, b]);
                self.block(p, block, path)?;
                path.truncate(path.len() - 2);
            }
        }
        Ok(())
    }

    /// Whether a value an op's regions yield changed.
    fn yields_changed(&self, p: &Program, op: OpId) -> bool {
        (0..p.num_regions(op)).any(|r| {
            p.region_blocks(p.op_region(op, r))
                .iter()
                .filter_map(|&b| p.block_last_op(b))
                .any(|last| self.reads_changed(p, last))
        })
    }

    fn op(&mut self, p: &mut Program, op: OpId, path: &mut Vec<usize>) -> Result<(), ShapeError> {
        if p.op_name_str(op) == "pd_op.while" {
            self.while_body(p, op, path)?;
        } else {
            self.regions(p, op, path)?;
        }
        let stale = self.reads_changed(p, op) || self.yields_changed(p, op);
        if !stale || p.num_results(op) == 0 || self.inferer.is_declared(p.op_name(op)) {
            return Ok(());
        }
        let fail = |source: InferError| ShapeError::Op {
            path: path_text(path),
            op: p.op_name_str(op).to_owned(),
            source,
        };
        let types = self.inferer.infer(p, op).map_err(fail)?;
        self.done.reinferred += 1;
        for (i, ty) in types.into_iter().enumerate() {
            let v = p.result(op, i);
            // A result the op was built without stays absent.
            if p.value_type(v).is_null() {
                continue;
            }
            self.retype(p, v, ty);
        }
        Ok(())
    }

    /// A while body's block arguments carry the loop values: each starts as
    /// its operand's type and widens (dims that differ become `-1`) until
    /// what the body yields fits it, as Paddle's `WhileOp` unifies.
    fn while_body(
        &mut self,
        p: &mut Program,
        op: OpId,
        path: &mut Vec<usize>,
    ) -> Result<(), ShapeError> {
        if p.num_regions(op) == 0 {
            return Ok(());
        }
        let Some(&body) = p.region_blocks(p.op_region(op, 0)).first() else {
            return Ok(());
        };
        let args = p.block_args(body).to_vec();
        self.loop_rounds(p, op, body, &args, path)
    }

    /// Re-infers the ops typed from their users rather than their operands:
    /// a `full` that Paddle's `while_loop` builds as a loop variable's
    /// placeholder takes what the body yields for it, and a `create_array`
    /// takes the element type of the first tensor written into it. Returns
    /// whether any changed (then the walk runs again).
    fn user_typed(&mut self, p: &mut Program) -> Result<bool, ShapeError> {
        let mut candidates = Vec::new();
        collect_user_typed(p, p.top_block(), &mut Vec::new(), &mut candidates);
        let mut again = false;
        for (op, path) in candidates {
            let v = p.result(op, 0);
            let typed_by_users = p.uses(v).any(|u| {
                let user = p.operand_owner(u);
                self.reads_changed(p, user)
                    || p.num_regions(user) > 0 && self.yields_changed(p, user)
            });
            if !typed_by_users {
                continue;
            }
            let fail = |source: InferError| ShapeError::Op {
                path: path_text(&path),
                op: p.op_name_str(op).to_owned(),
                source,
            };
            let ty = self.inferer.infer(p, op).map_err(fail)?;
            if let Some(&ty) = ty.first() {
                if ty != p.value_type(v) {
                    self.retype(p, v, ty);
                    again = true;
                }
            }
        }
        Ok(again)
    }

    fn loop_rounds(
        &mut self,
        p: &mut Program,
        op: OpId,
        body: BlockId,
        args: &[ValueId],
        path: &mut Vec<usize>,
    ) -> Result<(), ShapeError> {
        // Each round turns at least one dim into -1 or stops: bounded by
        // the dims of the loop values.
        let rounds = 2 + args.len() * (MAX_RANK + 1);
        for round in 0..rounds {
            for (i, &arg) in args.iter().enumerate() {
                let Some(init) = p.operand(op, i + 1) else {
                    continue;
                };
                let want = if round == 0 {
                    if !self.changed.contains(&init) {
                        continue;
                    }
                    p.value_type(init)
                } else {
                    let yielded = p
                        .block_last_op(body)
                        .and_then(|y| p.operands(y).nth(i + 1).flatten())
                        .map_or(Type::NULL, |v| p.value_type(v));
                    if yielded.is_null() {
                        continue;
                    }
                    unify(p, p.value_type(arg), yielded)
                };
                self.retype(p, arg, want);
            }
            self.block(p, body, path)?;
            if !self.body_widens(p, body, args) {
                break;
            }
        }
        Ok(())
    }

    /// Whether a value the body yields does not fit its block argument.
    fn body_widens(&self, p: &Program, body: BlockId, args: &[ValueId]) -> bool {
        let Some(y) = p.block_last_op(body) else {
            return false;
        };
        args.iter().enumerate().any(|(i, &arg)| {
            let yielded = p
                .operands(y)
                .nth(i + 1)
                .flatten()
                .map_or(Type::NULL, |v| p.value_type(v));
            !yielded.is_null() && unify(p, p.value_type(arg), yielded) != p.value_type(arg)
        })
    }
}
