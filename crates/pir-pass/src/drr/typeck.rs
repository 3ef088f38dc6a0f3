//! Types of rule expressions, given when a rule is checked.
//!
//! Every expression gets a [`Ty`]: literals their own, a `$variable` the
//! declared kind of the attribute that binds it, a function call its
//! result. An expression that cannot have a value of the type its place
//! needs — a `where` that is not a bool, `rank(%x) + [1]`, an attribute
//! value of another kind than the attribute's — refuses the rule when it
//! loads.
//!
//! What typing cannot know is left to the match, where it is *data*: a
//! tensor without a dense type, a dimension or an index past the end, an
//! overflow, a division by zero, `range` of a negative number, an attribute
//! in the program of another kind than its op declares. Such an expression
//! has no value on that match and the rule does not fire there
//! ([`super::eval::EvalError::NoValue`]).

use std::collections::HashMap;
use std::fmt;

use pir_dialects::op_def::{AttrKind, ElementKind, OpDef, ScalarDataType};

use super::check::{RuleErrorKind, COMMON_ATTRS};
use super::eval::FUNCTIONS;
use super::{BinaryOp, Expr, UnaryOp, MAX_TREE_DEPTH};

/// The type of an expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// A 64-bit integer.
    Int,
    /// A float.
    Float,
    /// An integer or a float (a Scalar attribute of no fixed data type).
    Number,
    /// A boolean.
    Bool,
    /// A string or a bare word (a dtype, a layout).
    Str,
    /// A list of items of one type.
    List(Box<Ty>),
    /// A tensor type (`type(%x)`, `tensor(...)`).
    Type,
    /// A place (`place("cpu")`, a place attribute).
    Place,
    /// Known only on a match (an attribute of no declared kind).
    Any,
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Int => f.write_str("an int"),
            Ty::Float => f.write_str("a float"),
            Ty::Number => f.write_str("a number"),
            Ty::Bool => f.write_str("a bool"),
            Ty::Str => f.write_str("a string"),
            Ty::List(item) => write!(f, "a list of ({item})"),
            Ty::Type => f.write_str("a type"),
            Ty::Place => f.write_str("a place"),
            Ty::Any => f.write_str("any value"),
        }
    }
}

impl Ty {
    /// The type of a value of an attribute of `kind`, as
    /// `eval::attr_val` reads it.
    pub fn of_kind(kind: AttrKind) -> Ty {
        match kind {
            AttrKind::Bool | AttrKind::Scalar(ScalarDataType::Bool) => Ty::Bool,
            AttrKind::Int32
            | AttrKind::Int64
            | AttrKind::Index
            | AttrKind::Scalar(ScalarDataType::Int32 | ScalarDataType::Int64) => Ty::Int,
            AttrKind::Float
            | AttrKind::Double
            | AttrKind::Scalar(ScalarDataType::Float | ScalarDataType::Double) => Ty::Float,
            AttrKind::Scalar(ScalarDataType::Other) => Ty::Number,
            AttrKind::Str | AttrKind::DataType => Ty::Str,
            AttrKind::IntArray => Ty::List(Box::new(Ty::Int)),
            AttrKind::Array(Some(e)) => Ty::List(Box::new(Ty::of_element(e))),
            AttrKind::Array(None) => Ty::List(Box::new(Ty::Any)),
            AttrKind::Place => Ty::Place,
            AttrKind::DataLayout | AttrKind::Pointer | AttrKind::Any => Ty::Any,
        }
    }

    fn of_element(kind: ElementKind) -> Ty {
        match kind {
            ElementKind::Bool => Ty::Bool,
            ElementKind::Int32 | ElementKind::Int64 => Ty::Int,
            ElementKind::Float | ElementKind::Double => Ty::Float,
            ElementKind::Str => Ty::Str,
            ElementKind::Scalar => Ty::Any,
        }
    }

    fn is_number(&self) -> bool {
        matches!(self, Ty::Int | Ty::Float | Ty::Number | Ty::Any)
    }

    /// Whether a value of this type may stand where `want` is needed: an
    /// integer where a float is, anything where any value is, and `Any`
    /// (known on a match only) anywhere but a type or a place.
    pub fn fits(&self, want: &Ty) -> bool {
        match (self, want) {
            (Ty::Any, Ty::Type) => false,
            (Ty::Any, _) => true,
            (Ty::Type, Ty::Any) => false,
            (_, Ty::Any) => true,
            (Ty::Int, Ty::Float | Ty::Number) => true,
            (Ty::Float, Ty::Number) => true,
            // Whether a number of either kind is an integer is known on a
            // match only.
            (Ty::Number, Ty::Int | Ty::Float) => true,
            (Ty::List(a), Ty::List(b)) => a.fits(b),
            (a, b) => a == b,
        }
    }

    /// The type of either of two values (`if`'s branches, a list's items),
    /// if they have one.
    fn join(&self, other: &Ty) -> Option<Ty> {
        Some(match (self, other) {
            (a, b) if a == b => a.clone(),
            (Ty::Any, _) | (_, Ty::Any) => Ty::Any,
            (a, b) if a.is_number() && b.is_number() => Ty::Number,
            (Ty::List(a), Ty::List(b)) => Ty::List(Box::new(a.join(b)?)),
            _ => return None,
        })
    }

    /// Whether two values of these types can ever be equal.
    fn comparable(&self, other: &Ty) -> bool {
        self.join(other).is_some()
    }
}

/// The declared kind of attribute `name` of an op (`def`: `None` for
/// builtin ops); Paddle's common attributes are bool arrays, and any other
/// name is of no declared kind.
pub(super) fn attr_kind(def: Option<&OpDef>, name: &str) -> AttrKind {
    if let Some(spec) = def.and_then(|d| d.attribute(name)) {
        return spec.kind;
    }
    if COMMON_ATTRS.contains(&name) {
        return AttrKind::Array(Some(ElementKind::Bool));
    }
    AttrKind::Any
}

/// Refuses an expression tree deeper than [`MAX_TREE_DEPTH`] (walked with
/// an explicit stack: a tree built in Rust is not bounded by the parser).
pub(super) fn check_depth(e: &Expr) -> Result<(), RuleErrorKind> {
    let mut stack = vec![(e, 1usize)];
    while let Some((e, depth)) = stack.pop() {
        if depth > MAX_TREE_DEPTH {
            return Err(RuleErrorKind::TooDeep);
        }
        match e {
            Expr::List(items) | Expr::Call(_, items) => {
                stack.extend(items.iter().map(|i| (i, depth + 1)));
            }
            Expr::Index(a, b) | Expr::Binary(_, a, b) => {
                stack.push((a, depth + 1));
                stack.push((b, depth + 1));
            }
            Expr::Unary(_, a) => stack.push((a, depth + 1)),
            _ => {}
        }
    }
    Ok(())
}

/// The types of the `$variables` bound so far.
#[derive(Default)]
pub(super) struct Typer<'r> {
    vars: HashMap<&'r str, Ty>,
}

type Typed = Result<Ty, RuleErrorKind>;

fn mistyped(context: impl Into<String>, expected: &str, found: &Ty) -> RuleErrorKind {
    RuleErrorKind::Mistyped {
        context: context.into(),
        expected: expected.to_owned(),
        found: found.to_string(),
    }
}

/// The functions whose first argument is a tensor `%name`.
const TENSOR_FUNCTIONS: [&str; 9] = [
    "rank",
    "shape",
    "dim",
    "numel",
    "dtype",
    "uses",
    "is_param",
    "type",
    "persistable",
];

impl<'r> Typer<'r> {
    /// Binds `$name` (its first binding gives its type).
    pub(super) fn bind(&mut self, name: &'r str, ty: Ty) {
        self.vars.entry(name).or_insert(ty);
    }

    /// The type of `e` (of bounded depth: see [`check_depth`]); `tensors`
    /// says which `%names` are readable here.
    pub(super) fn type_of(
        &self,
        e: &Expr,
        tensors: &dyn Fn(&str) -> bool,
        type_position: bool,
    ) -> Typed {
        Ok(match e {
            Expr::Int(_) => Ty::Int,
            Expr::Float(_) => Ty::Float,
            Expr::Bool(_) => Ty::Bool,
            Expr::Str(_) | Expr::Word(_) => Ty::Str,
            Expr::List(items) => {
                let mut item = None::<Ty>;
                for i in items {
                    let t = self.type_of(i, tensors, type_position)?;
                    item = Some(match item {
                        None => t,
                        Some(prev) => prev
                            .join(&t)
                            .ok_or_else(|| mistyped("a list's items", &prev.to_string(), &t))?,
                    });
                }
                Ty::List(Box::new(item.unwrap_or(Ty::Any)))
            }
            Expr::Tensor(n) => {
                if !tensors(n) {
                    return Err(RuleErrorKind::UnknownTensor(n.clone()));
                }
                return Err(RuleErrorKind::Mistyped {
                    context: format!("`%{n}`"),
                    expected: "a value (a tensor is read through a function: `rank(%x)`)".into(),
                    found: "a tensor".into(),
                });
            }
            Expr::Var(v) => match self.vars.get(v.as_str()) {
                Some(t) => t.clone(),
                None => return Err(RuleErrorKind::UnboundVariable(v.clone())),
            },
            Expr::Index(base, index) => {
                let b = self.type_of(base, tensors, type_position)?;
                let i = self.type_of(index, tensors, type_position)?;
                if !i.fits(&Ty::Int) {
                    return Err(mistyped("an index", "an int", &i));
                }
                match b {
                    Ty::List(item) => *item,
                    Ty::Any => Ty::Any,
                    other => return Err(mistyped("an indexed value", "a list", &other)),
                }
            }
            Expr::Unary(UnaryOp::Not, x) => {
                let t = self.type_of(x, tensors, type_position)?;
                if !t.fits(&Ty::Bool) {
                    return Err(mistyped("`!`", "a bool", &t));
                }
                Ty::Bool
            }
            Expr::Unary(UnaryOp::Neg, x) => {
                let t = self.type_of(x, tensors, type_position)?;
                if !t.is_number() {
                    return Err(mistyped("`-`", "a number", &t));
                }
                t
            }
            Expr::Binary(op, x, y) => {
                let l = self.type_of(x, tensors, type_position)?;
                let r = self.type_of(y, tensors, type_position)?;
                binary(*op, &l, &r)?
            }
            Expr::Call(f, args) => self.call(f, args, tensors, type_position)?,
        })
    }

    fn call(
        &self,
        f: &str,
        args: &[Expr],
        tensors: &dyn Fn(&str) -> bool,
        type_position: bool,
    ) -> Typed {
        let Some((_, arity, _)) = FUNCTIONS.iter().find(|(name, _, _)| *name == f) else {
            let known: Vec<&str> = FUNCTIONS.iter().map(|(n, _, _)| *n).collect();
            return Err(RuleErrorKind::UnknownFunction {
                name: f.to_owned(),
                known: known.join(", "),
            });
        };
        if *arity != args.len() {
            return Err(RuleErrorKind::FunctionArity {
                name: f.to_owned(),
                expected: *arity,
                found: args.len(),
            });
        }
        if f == "type" && !type_position {
            return Err(RuleErrorKind::TypeOutsideResultTypes);
        }
        if TENSOR_FUNCTIONS.contains(&f) {
            match args.first() {
                Some(Expr::Tensor(n)) if tensors(n) => {}
                Some(Expr::Tensor(n)) => return Err(RuleErrorKind::UnknownTensor(n.clone())),
                Some(other) => {
                    let t = self.type_of(other, tensors, type_position)?;
                    return Err(mistyped(
                        format!("`{f}`'s argument"),
                        "a tensor `%name`",
                        &t,
                    ));
                }
                None => {}
            }
        }
        // The other arguments' types, in order (the tensor is not typed).
        let skip = usize::from(TENSOR_FUNCTIONS.contains(&f));
        let mut types = Vec::with_capacity(args.len());
        for a in &args[skip..] {
            types.push(self.type_of(a, tensors, type_position)?);
        }
        let arg = |i: usize, want: &Ty, what: &str| -> Result<Ty, RuleErrorKind> {
            let t = types.get(i).cloned().unwrap_or(Ty::Any);
            if t.fits(want) {
                Ok(t)
            } else {
                Err(mistyped(format!("`{f}`'s argument"), what, &t))
            }
        };
        let int_list = Ty::List(Box::new(Ty::Number));
        Ok(match f {
            "rank" | "numel" | "uses" => Ty::Int,
            "shape" => Ty::List(Box::new(Ty::Int)),
            "dim" => {
                arg(0, &Ty::Int, "an int")?;
                Ty::Int
            }
            "dtype" => Ty::Str,
            "is_param" | "persistable" => Ty::Bool,
            "type" | "empty_vector" => Ty::Type,
            "len" => {
                let t = types.first().cloned().unwrap_or(Ty::Any);
                if !matches!(t, Ty::List(_) | Ty::Str | Ty::Any) {
                    return Err(mistyped("`len`'s argument", "a list or a string", &t));
                }
                Ty::Int
            }
            "range" => {
                arg(0, &Ty::Int, "an int")?;
                Ty::List(Box::new(Ty::Int))
            }
            "abs" => {
                let t = arg(0, &Ty::Number, "a number")?;
                if t == Ty::Any {
                    Ty::Number
                } else {
                    t
                }
            }
            "min" | "max" => {
                let a = arg(0, &Ty::Number, "a number")?;
                let b = arg(1, &Ty::Number, "a number")?;
                a.join(&b).unwrap_or(Ty::Number)
            }
            "prod" => {
                arg(0, &int_list, "a list of integers")?;
                Ty::Int
            }
            "gather" => {
                let items = arg(0, &Ty::List(Box::new(Ty::Any)), "a list")?;
                arg(1, &int_list, "a list of integers")?;
                match items {
                    Ty::Any => Ty::List(Box::new(Ty::Any)),
                    t => t,
                }
            }
            "if" => {
                arg(0, &Ty::Bool, "a bool")?;
                let (a, b) = (&types[1], &types[2]);
                a.join(b)
                    .ok_or_else(|| mistyped("`if`'s branches", &a.to_string(), b))?
            }
            "f32" => {
                arg(0, &Ty::Number, "a number")?;
                Ty::Float
            }
            "tensor" => {
                arg(0, &int_list, "a list of integers")?;
                arg(1, &Ty::Str, "a dtype")?;
                Ty::Type
            }
            "place" => {
                arg(0, &Ty::Str, "a device name")?;
                Ty::Place
            }
            _ => Ty::Any,
        })
    }
}

/// The type of `l op r`.
fn binary(op: BinaryOp, l: &Ty, r: &Ty) -> Typed {
    let context = format!("`{}`", op.symbol());
    let numbers = |l: &Ty, r: &Ty| -> Typed {
        for t in [l, r] {
            if !t.is_number() {
                return Err(mistyped(context.clone(), "a number", t));
            }
        }
        Ok(match (l, r) {
            (Ty::Int, Ty::Int) => Ty::Int,
            (Ty::Float, _) | (_, Ty::Float) => Ty::Float,
            _ => Ty::Number,
        })
    };
    Ok(match op {
        BinaryOp::And | BinaryOp::Or => {
            for t in [l, r] {
                if !t.fits(&Ty::Bool) {
                    return Err(mistyped(context, "a bool", t));
                }
            }
            Ty::Bool
        }
        BinaryOp::Eq | BinaryOp::Ne => {
            if !l.comparable(r) {
                return Err(mistyped(
                    format!("{context} (the two sides are never equal)"),
                    &l.to_string(),
                    r,
                ));
            }
            Ty::Bool
        }
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
            numbers(l, r)?;
            Ty::Bool
        }
        BinaryOp::Add => match (l, r) {
            (Ty::List(_), Ty::List(_)) => l
                .join(r)
                .ok_or_else(|| mistyped(context.clone(), &l.to_string(), r))?,
            (Ty::Str, Ty::Str) => Ty::Str,
            (Ty::Any, t @ (Ty::List(_) | Ty::Str)) | (t @ (Ty::List(_) | Ty::Str), Ty::Any) => {
                t.clone()
            }
            (Ty::Any, Ty::Any) => Ty::Any,
            _ => numbers(l, r)?,
        },
        BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => numbers(l, r)?,
    })
}
