//! Values of rule expressions and their evaluation over a match.

use pir_core::builtin::{
    ArrayAttr, BoolAttr, DenseTensorType, F32Attr, F64Attr, I32Attr, I64Attr, IndexAttr,
    ScalarType, StrAttr,
};
use pir_core::{Attribute, IrContext, Program, Type, ValueId};
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

type Eval<T> = Result<T, NoValue>;

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

fn tensor_type(p: &Program, v: ValueId) -> Eval<&DenseTensorType> {
    p.ctx()
        .type_as::<DenseTensorType>(p.value_type(v))
        .ok_or(NoValue)
}

fn num(v: &Val) -> Eval<f64> {
    match v {
        Val::Int(i) => Ok(*i as f64),
        Val::Float(f) => Ok(*f),
        _ => Err(NoValue),
    }
}

fn int(v: &Val) -> Eval<i64> {
    match v {
        Val::Int(i) => Ok(*i),
        Val::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(*f as i64),
        _ => Err(NoValue),
    }
}

fn truth(v: &Val) -> Eval<bool> {
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

/// Evaluates `e` over a match.
pub(super) fn eval(e: &Expr, b: &dyn Bindings) -> Eval<Val> {
    let p = b.program();
    Ok(match e {
        Expr::Int(v) => Val::Int(*v),
        Expr::Float(v) => Val::Float(*v),
        Expr::Bool(v) => Val::Bool(*v),
        Expr::Str(s) | Expr::Word(s) => Val::Str(s.clone()),
        Expr::List(items) => Val::List(items.iter().map(|i| eval(i, b)).collect::<Eval<_>>()?),
        Expr::Tensor(_) => return Err(NoValue),
        Expr::Var(name) => attr_val(p.ctx(), b.var(name).ok_or(NoValue)?),
        Expr::Index(base, index) => {
            let Val::List(items) = eval(base, b)? else {
                return Err(NoValue);
            };
            let i = int(&eval(index, b)?)?;
            let i = if i < 0 { i + items.len() as i64 } else { i };
            usize::try_from(i)
                .ok()
                .and_then(|i| items.get(i))
                .cloned()
                .ok_or(NoValue)?
        }
        Expr::Unary(UnaryOp::Not, x) => Val::Bool(!truth(&eval(x, b)?)?),
        Expr::Unary(UnaryOp::Neg, x) => match eval(x, b)? {
            Val::Int(i) => Val::Int(i.checked_neg().ok_or(NoValue)?),
            Val::Float(f) => Val::Float(-f),
            _ => return Err(NoValue),
        },
        Expr::Binary(op, x, y) => binary(*op, x, y, b)?,
        Expr::Call(f, args) => call(f, args, b)?,
    })
}

fn binary(op: BinaryOp, x: &Expr, y: &Expr, b: &dyn Bindings) -> Eval<Val> {
    match op {
        BinaryOp::And => return Ok(Val::Bool(truth(&eval(x, b)?)? && truth(&eval(y, b)?)?)),
        BinaryOp::Or => return Ok(Val::Bool(truth(&eval(x, b)?)? || truth(&eval(y, b)?)?)),
        _ => {}
    }
    let (l, r) = (eval(x, b)?, eval(y, b)?);
    Ok(match op {
        BinaryOp::Eq => Val::Bool(equal(&l, &r)),
        BinaryOp::Ne => Val::Bool(!equal(&l, &r)),
        BinaryOp::Lt => Val::Bool(num(&l)? < num(&r)?),
        BinaryOp::Le => Val::Bool(num(&l)? <= num(&r)?),
        BinaryOp::Gt => Val::Bool(num(&l)? > num(&r)?),
        BinaryOp::Ge => Val::Bool(num(&l)? >= num(&r)?),
        BinaryOp::Add => match (l, r) {
            (Val::List(mut a), Val::List(c)) => {
                a.extend(c);
                Val::List(a)
            }
            (Val::Str(a), Val::Str(c)) => Val::Str(a + &c),
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
        BinaryOp::And | BinaryOp::Or => unreachable!("handled above"),
    })
}

fn tensor_arg(args: &[Expr], b: &dyn Bindings) -> Eval<ValueId> {
    match args.first() {
        Some(Expr::Tensor(n)) => b.tensor(n).ok_or(NoValue),
        _ => Err(NoValue),
    }
}

fn call(f: &str, args: &[Expr], b: &dyn Bindings) -> Eval<Val> {
    let p = b.program();
    Ok(match f {
        "rank" => Val::Int(tensor_type(p, tensor_arg(args, b)?)?.dims.len() as i64),
        "shape" => Val::List(
            tensor_type(p, tensor_arg(args, b)?)?
                .dims
                .iter()
                .map(|&d| Val::Int(d))
                .collect(),
        ),
        "dim" => {
            let dims = &tensor_type(p, tensor_arg(args, b)?)?.dims;
            let i = int(&eval(args.get(1).ok_or(NoValue)?, b)?)?;
            let i = if i < 0 { i + dims.len() as i64 } else { i };
            Val::Int(
                *usize::try_from(i)
                    .ok()
                    .and_then(|i| dims.get(i))
                    .ok_or(NoValue)?,
            )
        }
        "numel" => {
            let dims = &tensor_type(p, tensor_arg(args, b)?)?.dims;
            let n = dims.iter().try_fold(
                1i64,
                |acc, &d| if d < 0 { None } else { acc.checked_mul(d) },
            );
            Val::Int(n.unwrap_or(-1))
        }
        "dtype" => {
            let t = tensor_type(p, tensor_arg(args, b)?)?;
            let scalar = p.ctx().type_as::<ScalarType>(t.dtype).ok_or(NoValue)?;
            Val::Str(DataType::of_scalar(*scalar).text().to_owned())
        }
        "uses" => Val::Int(p.use_count(tensor_arg(args, b)?) as i64),
        "is_param" => {
            let v = tensor_arg(args, b)?;
            Val::Bool(
                p.defining_op(v)
                    .is_some_and(|d| p.op_name_str(d) == "builtin.parameter"),
            )
        }
        "type" => Val::Type(p.value_type(tensor_arg(args, b)?)),
        "len" => match eval(args.first().ok_or(NoValue)?, b)? {
            Val::List(items) => Val::Int(items.len() as i64),
            Val::Str(s) => Val::Int(s.len() as i64),
            _ => return Err(NoValue),
        },
        "range" => {
            let n = int(&eval(args.first().ok_or(NoValue)?, b)?)?;
            if !(0..=4096).contains(&n) {
                return Err(NoValue);
            }
            Val::List((0..n).map(Val::Int).collect())
        }
        "abs" => match eval(args.first().ok_or(NoValue)?, b)? {
            Val::Int(i) => Val::Int(i.checked_abs().ok_or(NoValue)?),
            v => Val::Float(num(&v)?.abs()),
        },
        "min" | "max" => {
            let x = eval(args.first().ok_or(NoValue)?, b)?;
            let y = eval(args.get(1).ok_or(NoValue)?, b)?;
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
        "prod" => match eval(args.first().ok_or(NoValue)?, b)? {
            Val::List(items) => Val::Int(
                items
                    .iter()
                    .try_fold(1i64, |acc, v| int(v).ok().and_then(|i| acc.checked_mul(i)))
                    .ok_or(NoValue)?,
            ),
            _ => return Err(NoValue),
        },
        "gather" => {
            let (Val::List(items), Val::List(indices)) = (
                eval(args.first().ok_or(NoValue)?, b)?,
                eval(args.get(1).ok_or(NoValue)?, b)?,
            ) else {
                return Err(NoValue);
            };
            let picked = indices
                .iter()
                .map(|i| {
                    let i = usize::try_from(int(i)?).map_err(|_| NoValue)?;
                    items.get(i).cloned().ok_or(NoValue)
                })
                .collect::<Eval<Vec<_>>>()?;
            Val::List(picked)
        }
        "if" => {
            let cond = truth(&eval(args.first().ok_or(NoValue)?, b)?)?;
            eval(args.get(if cond { 1 } else { 2 }).ok_or(NoValue)?, b)?
        }
        "f32" => Val::Float(f64::from(
            num(&eval(args.first().ok_or(NoValue)?, b)?)? as f32
        )),
        "persistable" => Val::Bool(persistable(p, tensor_arg(args, b)?, 0)),
        "tensor" => {
            let Val::List(dims) = eval(args.first().ok_or(NoValue)?, b)? else {
                return Err(NoValue);
            };
            let dims = dims.iter().map(int).collect::<Eval<Vec<i64>>>()?;
            let Val::Str(dtype) = eval(args.get(1).ok_or(NoValue)?, b)? else {
                return Err(NoValue);
            };
            let scalar = DataType::parse(&dtype)
                .and_then(DataType::scalar)
                .ok_or(NoValue)?;
            let ctx = p.ctx();
            Val::Type(DenseTensorType::get(ctx, ctx.intern_type(scalar), &dims))
        }
        "empty_vector" => Val::Type(pir_core::builtin::VectorType::get(p.ctx(), &[])),
        "place" => match eval(args.first().ok_or(NoValue)?, b)? {
            Val::Str(device) => Val::Str(format!("Place({device})")),
            _ => return Err(NoValue),
        },
        _ => return Err(NoValue),
    })
}

/// Paddle's `ValueIsPersistable`: a value computed only from parameters and
/// `full` / `full_int_array` constants (bounded depth).
fn persistable(p: &Program, v: ValueId, depth: u32) -> bool {
    let Some(def) = p.defining_op(v) else {
        return false;
    };
    if depth > 64 {
        return false;
    }
    if p.num_operands(def) == 0 {
        return matches!(
            p.op_name_str(def),
            "builtin.parameter" | "pd_op.full" | "pd_op.full_int_array"
        );
    }
    p.operands(def)
        .all(|o| o.is_some_and(|o| persistable(p, o, depth + 1)))
}

/// The text of `v` as an attribute value of kind `quote_strings` decides:
/// quoted for string attributes, bare for words (dtypes, layouts).
pub(super) fn attr_text(v: &Val, quote_strings: bool) -> Option<String> {
    Some(match v {
        Val::Int(i) => i.to_string(),
        Val::Float(f) => super::print::float_text(*f),
        Val::Bool(b) => b.to_string(),
        Val::Str(s) if quote_strings => {
            let mut out = String::from("\"");
            for c in s.chars() {
                if c == '"' {
                    out.push('\\');
                }
                out.push(c);
            }
            out.push('"');
            out
        }
        Val::Str(s) => s.clone(),
        Val::List(items) => {
            let parts: Option<Vec<String>> =
                items.iter().map(|i| attr_text(i, quote_strings)).collect();
            format!("[{}]", parts?.join(","))
        }
        Val::Type(_) | Val::Attr(_) => return None,
    })
}
