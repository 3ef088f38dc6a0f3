//! Values of rule expressions and their evaluation over a match.

use pir_core::builtin::{
    op_names, ArrayAttr, BoolAttr, DenseTensorType, F32Attr, F64Attr, I32Attr, I64Attr, IndexAttr,
    ScalarType, StrAttr,
};
use pir_core::{Attribute, IrContext, Program, Type, ValueId};
use pir_dialects::ops::{FullIntArrayOp, FullOp};
use pir_dialects::pd_op::{DataType, IntArrayAttr};

use super::{BinaryOp, Expr, UnaryOp};

/// A value an expression evaluates to.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// A string or a bare word (a dtype, a layout).
    Str(String),
    /// A list.
    List(Vec<Val>),
    /// A tensor type (`type(%x)`).
    Type(Type),
    /// An attribute of a kind with no plain value (a place): compared by
    /// identity, copied as it is.
    Attr(Attribute),
}

/// The functions expressions may call: `(name, arity, what it gives)`.
pub const FUNCTIONS: &[(&str, usize, &str)] = &[
    ("rank", 1, "the number of dimensions of a tensor"),
    ("shape", 1, "a tensor's dimensions (-1 where unknown)"),
    ("dim", 2, "dimension i of a tensor, from the end when negative"),
    ("numel", 1, "the number of elements of a tensor (-1 if unknown)"),
    ("dtype", 1, "a tensor's element type (`float32`)"),
    ("uses", 1, "the number of uses of a tensor"),
    ("is_param", 1, "whether a tensor is a parameter (builtin.parameter)"),
    ("type", 1, "a tensor's type, for result types"),
    ("len", 1, "the length of a list"),
    ("range", 1, "the list [0, 1, ..., n-1]"),
    ("abs", 1, "the absolute value"),
    ("min", 2, "the smaller of two numbers"),
    ("max", 2, "the larger of two numbers"),
    ("prod", 1, "the product of a list of integers (dims as they are, -1 included)"),
    ("gather", 2, "[list[i] for i in indices]"),
    ("if", 3, "the second argument if the first is true, else the third"),
    ("f32", 1, "a number rounded to float32 (Paddle's float arithmetic)"),
    ("persistable", 1, "whether a tensor is computed from parameters and constants only (Paddle's ValueIsPersistable)"),
    ("tensor", 2, "the dense tensor type of a shape and a dtype, for result types"),
    ("empty_vector", 0, "the empty vector type `vec[]`, for result types"),
    ("place", 1, "the place of a device name (`place(\"cpu\")`)"),
];

/// Why an expression has no value on a match (the rule then does not fire).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct NoValue;

/// The most items a list an expression builds may hold (a literal, `+`,
/// `range`, `gather`, a copy of an attribute's array), and the most bytes of
/// a string it builds: rules compute shapes and permutations, not data.
pub const MAX_LIST_LEN: usize = 1 << 16;

/// The most list items and string bytes one evaluation may build in all
/// (copies included), so that a rule cannot grow its lists without bound by
/// repeating an expression (`range(n) + range(n) + ...`).
pub const MAX_BUILT: usize = 1 << 20;

/// Why an evaluation gave no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum EvalError {
    /// Undefined on this match, for a reason in the *data*: a tensor
    /// without a dense type (or a dtype that is not a scalar), a dimension,
    /// index or `gather` position past the end, an overflow or a division
    /// by zero, `range` of a negative number, an attribute in the program
    /// of another kind than its op declares, an unknown dtype or device
    /// name computed by the rule. The rule does not fire here — explicitly,
    /// and only for such reasons: a checked rule's expressions are typed
    /// ([`super::typeck`]), so a mismatch of kinds the rule itself makes is
    /// refused when it loads.
    NoValue,
    /// The expression exceeded a limit of the language: the rule is at
    /// fault, whatever it matched, and the error is reported.
    Limit(String),
}

impl From<NoValue> for EvalError {
    fn from(_: NoValue) -> Self {
        EvalError::NoValue
    }
}

type Eval<T> = Result<T, EvalError>;

/// What expressions see of a match.
pub(super) trait Bindings {
    fn program(&self) -> &Program;
    fn tensor(&self, name: &str) -> Option<ValueId>;
    fn var(&self, name: &str) -> Option<Attribute>;
}

/// The plain value of an attribute, where it has one.
pub(super) fn attr_val(ctx: &IrContext, a: Attribute) -> Val {
    if let Some(b) = ctx.attr_as::<BoolAttr>(a) {
        return Val::Bool(b.0);
    }
    if let Some(v) = ctx.attr_as::<I32Attr>(a) {
        return Val::Int(i64::from(v.0));
    }
    if let Some(v) = ctx.attr_as::<I64Attr>(a) {
        return Val::Int(v.0);
    }
    if let Some(v) = ctx.attr_as::<IndexAttr>(a) {
        return Val::Int(v.0);
    }
    if let Some(v) = ctx.attr_as::<F32Attr>(a) {
        return Val::Float(f64::from(v.value()));
    }
    if let Some(v) = ctx.attr_as::<F64Attr>(a) {
        return Val::Float(v.value());
    }
    if let Some(v) = ctx.attr_as::<StrAttr>(a) {
        return Val::Str(v.0.to_string());
    }
    if let Some(v) = ctx.attr_as::<ArrayAttr>(a) {
        return Val::List(v.0.iter().map(|&e| attr_val(ctx, e)).collect());
    }
    if let Some(v) = ctx.attr_as::<IntArrayAttr>(a) {
        return Val::List(v.0.iter().map(|&e| Val::Int(e)).collect());
    }
    if let Some(v) = ctx.attr_as::<pir_dialects::pd_op::DataTypeAttr>(a) {
        return Val::Str(v.0.text().to_owned());
    }
    Val::Attr(a)
}

fn tensor_type(p: &Program, v: ValueId) -> Result<&DenseTensorType, NoValue> {
    p.ctx()
        .type_as::<DenseTensorType>(p.value_type(v))
        .ok_or(NoValue)
}

fn num(v: &Val) -> Result<f64, NoValue> {
    match v {
        Val::Int(i) => Ok(*i as f64),
        Val::Float(f) => Ok(*f),
        _ => Err(NoValue),
    }
}

fn int(v: &Val) -> Result<i64, NoValue> {
    match v {
        Val::Int(i) => Ok(*i),
        Val::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(*f as i64),
        _ => Err(NoValue),
    }
}

fn truth(v: &Val) -> Result<bool, NoValue> {
    match v {
        Val::Bool(b) => Ok(*b),
        _ => Err(NoValue),
    }
}

/// Equality across kinds: numbers by value, the rest structurally.
pub(super) fn equal(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Int(_) | Val::Float(_), Val::Int(_) | Val::Float(_)) => num(a).ok() == num(b).ok(),
        (Val::List(x), Val::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        _ => a == b,
    }
}

/// The list items and string bytes `v` holds, nested lists included
/// (counted without recursion: an attribute may nest deeply).
fn weight(v: &Val) -> usize {
    let mut total = 0usize;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Val::List(items) => {
                total = total.saturating_add(items.len());
                stack.extend(items);
            }
            Val::Str(s) => total = total.saturating_add(s.len()),
            _ => {}
        }
    }
    total
}

/// Evaluates `e` over a match.
pub(super) fn eval(e: &Expr, b: &dyn Bindings) -> Eval<Val> {
    Evaluator { b, built: 0 }.eval(e)
}

/// One evaluation: the bindings, and what it has built so far.
struct Evaluator<'b> {
    b: &'b dyn Bindings,
    /// List items and string bytes built (see [`MAX_BUILT`]).
    built: usize,
}

impl Evaluator<'_> {
    /// Counts `n` more items built.
    fn charge(&mut self, n: usize) -> Eval<()> {
        self.built = self.built.saturating_add(n);
        if self.built > MAX_BUILT {
            return Err(EvalError::Limit(format!(
                "an expression builds more than {MAX_BUILT} list items and string bytes in all"
            )));
        }
        Ok(())
    }

    /// A list the expression builds (`what` names how, for the error).
    fn list(&mut self, items: Vec<Val>, what: &str) -> Eval<Val> {
        if items.len() > MAX_LIST_LEN {
            return Err(EvalError::Limit(format!(
                "{what} builds a list of {} items (at most {MAX_LIST_LEN})",
                items.len()
            )));
        }
        self.charge(items.len())?;
        Ok(Val::List(items))
    }

    /// A copy of `v` (an attribute's value, a list item): counted as built.
    fn copied(&mut self, v: Val) -> Eval<Val> {
        self.charge(weight(&v))?;
        Ok(v)
    }

    fn eval(&mut self, e: &Expr) -> Eval<Val> {
        let b = self.b;
        let p = b.program();
        Ok(match e {
            Expr::Int(v) => Val::Int(*v),
            Expr::Float(v) => Val::Float(*v),
            Expr::Bool(v) => Val::Bool(*v),
            Expr::Str(s) | Expr::Word(s) => Val::Str(s.clone()),
            Expr::List(items) => {
                let items = items
                    .iter()
                    .map(|i| self.eval(i))
                    .collect::<Eval<Vec<_>>>()?;
                self.list(items, "a list literal")?
            }
            Expr::Tensor(_) => return Err(EvalError::NoValue),
            Expr::Var(name) => self.copied(attr_val(p.ctx(), b.var(name).ok_or(NoValue)?))?,
            Expr::Index(base, index) => {
                let Val::List(items) = self.eval(base)? else {
                    return Err(EvalError::NoValue);
                };
                let i = int(&self.eval(index)?)?;
                let i = if i < 0 { i + items.len() as i64 } else { i };
                usize::try_from(i)
                    .ok()
                    .and_then(|i| items.into_iter().nth(i))
                    .ok_or(NoValue)?
            }
            Expr::Unary(UnaryOp::Not, x) => Val::Bool(!truth(&self.eval(x)?)?),
            Expr::Unary(UnaryOp::Neg, x) => match self.eval(x)? {
                Val::Int(i) => Val::Int(i.checked_neg().ok_or(NoValue)?),
                Val::Float(f) => Val::Float(-f),
                _ => return Err(EvalError::NoValue),
            },
            Expr::Binary(op, x, y) => self.binary(*op, x, y)?,
            Expr::Call(f, args) => self.call(f, args)?,
        })
    }

    fn binary(&mut self, op: BinaryOp, x: &Expr, y: &Expr) -> Eval<Val> {
        match op {
            BinaryOp::And => {
                return Ok(Val::Bool(truth(&self.eval(x)?)? && truth(&self.eval(y)?)?))
            }
            BinaryOp::Or => return Ok(Val::Bool(truth(&self.eval(x)?)? || truth(&self.eval(y)?)?)),
            _ => {}
        }
        let (l, r) = (self.eval(x)?, self.eval(y)?);
        Ok(match op {
            BinaryOp::Eq => Val::Bool(equal(&l, &r)),
            BinaryOp::Ne => Val::Bool(!equal(&l, &r)),
            BinaryOp::Lt => Val::Bool(num(&l)? < num(&r)?),
            BinaryOp::Le => Val::Bool(num(&l)? <= num(&r)?),
            BinaryOp::Gt => Val::Bool(num(&l)? > num(&r)?),
            BinaryOp::Ge => Val::Bool(num(&l)? >= num(&r)?),
            BinaryOp::Add => match (l, r) {
                (Val::List(mut a), Val::List(c)) => {
                    // Checked before the items are joined: the limit is
                    // what keeps the join itself small.
                    let len = a.len().saturating_add(c.len());
                    if len > MAX_LIST_LEN {
                        return Err(EvalError::Limit(format!(
                            "`+` builds a list of {len} items (at most {MAX_LIST_LEN})"
                        )));
                    }
                    a.extend(c);
                    self.list(a, "`+`")?
                }
                (Val::Str(a), Val::Str(c)) => {
                    let len = a.len().saturating_add(c.len());
                    if len > MAX_LIST_LEN {
                        return Err(EvalError::Limit(format!(
                            "`+` builds a string of {len} bytes (at most {MAX_LIST_LEN})"
                        )));
                    }
                    self.charge(len)?;
                    Val::Str(a + &c)
                }
                (Val::Int(a), Val::Int(c)) => Val::Int(a.checked_add(c).ok_or(NoValue)?),
                (a, c) => Val::Float(num(&a)? + num(&c)?),
            },
            BinaryOp::Sub => match (l, r) {
                (Val::Int(a), Val::Int(c)) => Val::Int(a.checked_sub(c).ok_or(NoValue)?),
                (a, c) => Val::Float(num(&a)? - num(&c)?),
            },
            BinaryOp::Mul => match (l, r) {
                (Val::Int(a), Val::Int(c)) => Val::Int(a.checked_mul(c).ok_or(NoValue)?),
                (a, c) => Val::Float(num(&a)? * num(&c)?),
            },
            BinaryOp::Div => match (l, r) {
                (Val::Int(a), Val::Int(c)) => Val::Int(a.checked_div(c).ok_or(NoValue)?),
                (a, c) => Val::Float(num(&a)? / num(&c)?),
            },
            BinaryOp::Rem => match (l, r) {
                (Val::Int(a), Val::Int(c)) => Val::Int(a.checked_rem(c).ok_or(NoValue)?),
                (a, c) => Val::Float(num(&a)? % num(&c)?),
            },
            BinaryOp::And | BinaryOp::Or => return Err(EvalError::NoValue),
        })
    }

    fn tensor_arg(&self, args: &[Expr]) -> Result<ValueId, NoValue> {
        match args.first() {
            Some(Expr::Tensor(n)) => self.b.tensor(n).ok_or(NoValue),
            _ => Err(NoValue),
        }
    }

    /// Argument `i`, evaluated.
    fn arg(&mut self, args: &[Expr], i: usize) -> Eval<Val> {
        self.eval(args.get(i).ok_or(NoValue)?)
    }

    fn call(&mut self, f: &str, args: &[Expr]) -> Eval<Val> {
        let b = self.b;
        let p = b.program();
        Ok(match f {
            "rank" => Val::Int(tensor_type(p, self.tensor_arg(args)?)?.dims.len() as i64),
            "shape" => {
                let dims = tensor_type(p, self.tensor_arg(args)?)?
                    .dims
                    .iter()
                    .map(|&d| Val::Int(d))
                    .collect();
                self.list(dims, "`shape`")?
            }
            "dim" => {
                let dims = &tensor_type(p, self.tensor_arg(args)?)?.dims;
                let i = int(&self.arg(args, 1)?)?;
                let i = if i < 0 { i + dims.len() as i64 } else { i };
                Val::Int(
                    *usize::try_from(i)
                        .ok()
                        .and_then(|i| dims.get(i))
                        .ok_or(NoValue)?,
                )
            }
            "numel" => {
                let dims = &tensor_type(p, self.tensor_arg(args)?)?.dims;
                let n = dims.iter().try_fold(
                    1i64,
                    |acc, &d| if d < 0 { None } else { acc.checked_mul(d) },
                );
                Val::Int(n.unwrap_or(-1))
            }
            "dtype" => {
                let t = tensor_type(p, self.tensor_arg(args)?)?;
                let scalar = p.ctx().type_as::<ScalarType>(t.dtype).ok_or(NoValue)?;
                Val::Str(DataType::of_scalar(*scalar).text().to_owned())
            }
            "uses" => Val::Int(p.use_count(self.tensor_arg(args)?) as i64),
            "is_param" => {
                let v = self.tensor_arg(args)?;
                Val::Bool(
                    p.defining_op(v)
                        .is_some_and(|d| p.op_name_str(d) == "builtin.parameter"),
                )
            }
            "type" => Val::Type(p.value_type(self.tensor_arg(args)?)),
            "len" => match self.arg(args, 0)? {
                Val::List(items) => Val::Int(items.len() as i64),
                Val::Str(s) => Val::Int(s.len() as i64),
                _ => return Err(EvalError::NoValue),
            },
            "range" => {
                let n = int(&self.arg(args, 0)?)?;
                if n < 0 {
                    return Err(EvalError::NoValue);
                }
                if n > MAX_LIST_LEN as i64 {
                    return Err(EvalError::Limit(format!(
                        "`range({n})` builds a list of {n} items (at most {MAX_LIST_LEN})"
                    )));
                }
                self.list((0..n).map(Val::Int).collect(), "`range`")?
            }
            "abs" => match self.arg(args, 0)? {
                Val::Int(i) => Val::Int(i.checked_abs().ok_or(NoValue)?),
                v => Val::Float(num(&v)?.abs()),
            },
            "min" | "max" => {
                let x = self.arg(args, 0)?;
                let y = self.arg(args, 1)?;
                let pick_x = if f == "min" {
                    num(&x)? <= num(&y)?
                } else {
                    num(&x)? >= num(&y)?
                };
                if pick_x {
                    x
                } else {
                    y
                }
            }
            "prod" => match self.arg(args, 0)? {
                Val::List(items) => Val::Int(
                    items
                        .iter()
                        .try_fold(1i64, |acc, v| int(v).ok().and_then(|i| acc.checked_mul(i)))
                        .ok_or(NoValue)?,
                ),
                _ => return Err(EvalError::NoValue),
            },
            "gather" => {
                let (Val::List(items), Val::List(indices)) =
                    (self.arg(args, 0)?, self.arg(args, 1)?)
                else {
                    return Err(EvalError::NoValue);
                };
                let mut picked = Vec::with_capacity(indices.len().min(MAX_LIST_LEN));
                for i in &indices {
                    let i = usize::try_from(int(i)?).map_err(|_| NoValue)?;
                    let item = items.get(i).cloned().ok_or(NoValue)?;
                    // Each pick is a copy: a nested list picked again and
                    // again counts every time.
                    picked.push(self.copied(item)?);
                }
                self.list(picked, "`gather`")?
            }
            "if" => {
                let cond = truth(&self.arg(args, 0)?)?;
                self.arg(args, if cond { 1 } else { 2 })?
            }
            "f32" => Val::Float(f64::from(num(&self.arg(args, 0)?)? as f32)),
            "persistable" => Val::Bool(persistable(p, self.tensor_arg(args)?)),
            "tensor" => {
                let Val::List(dims) = self.arg(args, 0)? else {
                    return Err(EvalError::NoValue);
                };
                let dims = dims
                    .iter()
                    .map(int)
                    .collect::<Result<Vec<i64>, NoValue>>()?;
                let Val::Str(dtype) = self.arg(args, 1)? else {
                    return Err(EvalError::NoValue);
                };
                let scalar = DataType::parse(&dtype)
                    .and_then(DataType::scalar)
                    .ok_or(NoValue)?;
                let ctx = p.ctx();
                Val::Type(DenseTensorType::get(ctx, ctx.intern_type(scalar), &dims))
            }
            "empty_vector" => Val::Type(pir_core::builtin::VectorType::get(p.ctx(), &[])),
            // The device name is read by the place attribute's own reader
            // (`cpu`, `gpu:0`, `npu:1`); an unknown one has no value.
            "place" => match self.arg(args, 0)? {
                Val::Str(device) => Val::Attr(
                    pir_core::parser::parse_attribute(
                        p.ctx_arc(),
                        "pd_op.full",
                        "place",
                        &format!("Place({device})"),
                    )
                    .map_err(|_| NoValue)?,
                ),
                _ => return Err(EvalError::NoValue),
            },
            _ => return Err(EvalError::NoValue),
        })
    }
}

/// The deepest chain of ops [`persistable`] follows (Paddle's recursion has
/// no bound; a hostile program could make it arbitrarily deep).
const PERSISTABLE_DEPTH: u32 = 64;

/// Paddle's `ValueIsPersistable`: a value computed only from parameters and
/// `full` / `full_int_array` constants, through at most
/// [`PERSISTABLE_DEPTH`] ops. Each value is looked at once (a value reached
/// along many paths is remembered), so a program of shared operands — a
/// chain of `add(%a, %a)` — costs its size, not the number of paths.
fn persistable(p: &Program, v: ValueId) -> bool {
    // Per value: `Some(height)` (the longest chain of ops below it) when
    // persistable, `None` when not.
    let mut seen: rustc_hash::FxHashMap<ValueId, Option<u32>> = Default::default();
    persistable_height(p, v, 0, &mut seen).is_some_and(|h| h <= PERSISTABLE_DEPTH)
}

/// The height of `v` if it is persistable and no chain through it reaches
/// deeper than [`PERSISTABLE_DEPTH`] from the value asked about (`depth`:
/// where `v` stands on the current chain); `None` otherwise.
fn persistable_height(
    p: &Program,
    v: ValueId,
    depth: u32,
    seen: &mut rustc_hash::FxHashMap<ValueId, Option<u32>>,
) -> Option<u32> {
    if depth > PERSISTABLE_DEPTH {
        return None;
    }
    if let Some(&known) = seen.get(&v) {
        // Known heights hold wherever the value stands; the caller checks
        // the whole chain against the bound.
        return known.filter(|h| depth + h <= PERSISTABLE_DEPTH);
    }
    let def = p.defining_op(v)?;
    let height = if p.num_operands(def) == 0 {
        matches!(
            p.op_name_str(def),
            op_names::PARAMETER | FullOp::NAME | FullIntArrayOp::NAME
        )
        .then_some(0)
    } else {
        let mut height = Some(0u32);
        for o in p.operands(def) {
            let Some(o) = o else {
                height = None;
                break;
            };
            match persistable_height(p, o, depth + 1, seen) {
                Some(h) => height = height.map(|m| m.max(h + 1)),
                None => {
                    height = None;
                    break;
                }
            }
        }
        height
    };
    if height.is_some() || depth == 0 {
        seen.insert(v, height);
    }
    height.filter(|h| depth + h <= PERSISTABLE_DEPTH)
}
