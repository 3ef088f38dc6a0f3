//! Rules built in Rust: the same [`Rule`] the text makes, checked by the
//! same [`Rule::check`].
//!
//! Source and result ops are listed in order, each followed by its
//! attributes; operands are tensor names, `"_"` (any value) or `"none"`
//! (an absent optional input); expressions are [`Expr`]s, written with
//! their constructors and Rust's operators.
//!
//! ```
//! use pir_pass::drr::{Expr, RuleBuilder, RuleSet};
//! let rank = |t: &str| Expr::call("rank", [Expr::tensor(t)]);
//! let dim = |t: &str, i: i64| Expr::call("dim", [Expr::tensor(t), Expr::from(i)]);
//! let built = RuleBuilder::new("matmul_add_to_fc")
//!     .source(|s| {
//!         s.op("pd_op.matmul", ["x", "w"], ["mm"])
//!             .attr("transpose_x", false)
//!             .attr("transpose_y", false)
//!             .op("pd_op.add", ["mm", "b"], ["out"])
//!     })
//!     .where_(rank("w").eq(2).and(rank("b").eq(1)).and(dim("w", 1).eq(dim("b", 0))))
//!     .result(|r| {
//!         r.op("pd_op.fc", ["x", "w", "b"], ["out"])
//!             .attr("in_num_col_dims", rank("x") - 1)
//!             .attr("activation_type", Expr::str(""))
//!             .attr("padding_weights", false)
//!     })
//!     .build()?;
//! let text = RuleSet::parse(
//!     "rule matmul_add_to_fc {
//!         %mm = pd_op.matmul(%x, %w) {transpose_x: false, transpose_y: false}
//!         %out = pd_op.add(%mm, %b)
//!         where rank(%w) == 2 && rank(%b) == 1 && dim(%w, 1) == dim(%b, 0)
//!         =>
//!         %out = pd_op.fc(%x, %w, %b) {in_num_col_dims: rank(%x) - 1, activation_type: \"\", padding_weights: false}
//!     }",
//!     "fc.drr",
//! )?;
//! assert_eq!(built, text.rules[0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Arc;

use super::check::{CheckedRule, RuleError};
use super::{BinaryOp, Expr, ResultOp, ResultStmt, Rule, SourceOp, SourceOperand, Spans, UnaryOp};

/// Builds a [`Rule`]; [`RuleBuilder::build`] checks it.
#[derive(Debug, Clone)]
pub struct RuleBuilder {
    rule: Rule,
    /// An attribute given before any op (reported by `build`).
    orphan: Option<String>,
}

impl RuleBuilder {
    /// A rule named `name` (of benefit 1), without ops yet.
    pub fn new(name: impl Into<String>) -> Self {
        RuleBuilder {
            rule: Rule {
                name: name.into(),
                benefit: 1,
                pattern: Vec::new(),
                constraints: Vec::new(),
                result: Vec::new(),
                line: 0,
                spans: Arc::new(Spans::default()),
            },
            orphan: None,
        }
    }

    /// Tried before rules of lower benefit on the same op.
    pub fn benefit(mut self, benefit: u16) -> Self {
        self.rule.benefit = benefit;
        self
    }

    /// Adds source ops (definitions before uses; the last is the anchor).
    pub fn source(mut self, ops: impl FnOnce(SourceBuilder) -> SourceBuilder) -> Self {
        let built = ops(SourceBuilder {
            stmts: std::mem::take(&mut self.rule.pattern),
            orphan: None,
        });
        self.rule.pattern = built.stmts;
        self.orphan = self.orphan.or(built.orphan);
        self
    }

    /// Adds a condition that must hold (a `where`).
    pub fn where_(mut self, condition: impl Into<Expr>) -> Self {
        self.rule.constraints.push(condition.into());
        self
    }

    /// Adds result statements, in order.
    pub fn result(mut self, stmts: impl FnOnce(ResultBuilder) -> ResultBuilder) -> Self {
        let built = stmts(ResultBuilder {
            stmts: std::mem::take(&mut self.rule.result),
            orphan: None,
        });
        self.rule.result = built.stmts;
        self.orphan = self.orphan.or(built.orphan);
        self
    }

    /// The rule, unchecked.
    pub fn into_rule(self) -> Rule {
        self.rule
    }

    /// The rule, checked ([`Rule::check`]).
    pub fn build(self) -> Result<CheckedRule, RuleError> {
        if let Some(name) = self.orphan {
            return Err(RuleError {
                rule: self.rule.name,
                location: None,
                kind: Box::new(super::RuleErrorKind::AttributeWithoutOp(name)),
            });
        }
        self.rule.check()
    }
}

/// Statements of a rule listed in order, each followed by its attributes.
#[derive(Debug)]
pub struct OpsBuilder<S> {
    stmts: Vec<S>,
    /// An attribute given before any op (reported by `build`).
    orphan: Option<String>,
}

/// The source ops of a [`RuleBuilder`].
pub type SourceBuilder = OpsBuilder<SourceOp>;

/// The result statements of a [`RuleBuilder`].
pub type ResultBuilder = OpsBuilder<ResultStmt>;

/// A statement of an [`OpsBuilder`]: an op made from its names, which may
/// carry attributes.
pub trait WithAttrs {
    /// The op `results = op(operands)`, its names read as its side of the
    /// rule reads them ([`OpsBuilder::op`]).
    fn from_names<'n>(
        op: String,
        operands: impl Iterator<Item = &'n str>,
        results: impl Iterator<Item = &'n str>,
    ) -> Self
    where
        Self: Sized;
    /// Its attributes (`None`: it has none, as `%r = %a`).
    fn attrs_mut(&mut self) -> Option<&mut Vec<(String, Expr)>>;
}

impl WithAttrs for SourceOp {
    fn from_names<'n>(
        op: String,
        operands: impl Iterator<Item = &'n str>,
        results: impl Iterator<Item = &'n str>,
    ) -> Self {
        let operand = |o: &str| match o {
            "_" => SourceOperand::Any,
            "none" => SourceOperand::Absent,
            name => SourceOperand::Tensor(tensor_name(name)),
        };
        let result = |r: &str| (r != "_").then(|| tensor_name(r));
        SourceOp {
            results: results.map(result).collect(),
            op,
            operands: operands.map(operand).collect(),
            attrs: Vec::new(),
        }
    }
    fn attrs_mut(&mut self) -> Option<&mut Vec<(String, Expr)>> {
        Some(&mut self.attrs)
    }
}

impl WithAttrs for ResultStmt {
    fn from_names<'n>(
        op: String,
        operands: impl Iterator<Item = &'n str>,
        results: impl Iterator<Item = &'n str>,
    ) -> Self {
        let operand = |o: &str| (o != "none").then(|| tensor_name(o));
        ResultStmt::Op(ResultOp {
            results: results.map(tensor_name).collect(),
            op,
            operands: operands.map(operand).collect(),
            attrs: Vec::new(),
            types: Vec::new(),
        })
    }
    fn attrs_mut(&mut self) -> Option<&mut Vec<(String, Expr)>> {
        match self {
            ResultStmt::Op(op) => Some(&mut op.attrs),
            ResultStmt::Alias { .. } => None,
        }
    }
}

impl<S: WithAttrs> OpsBuilder<S> {
    /// An op: `results = op(operands)`. In a source op the operands are
    /// tensor names, `"_"` or `"none"`, and the results names or `"_"` (an
    /// empty list names none, matching any number of results); in a result
    /// op an operand `"none"` is an absent optional input.
    pub fn op<'n>(
        mut self,
        op: impl Into<String>,
        operands: impl IntoIterator<Item = &'n str>,
        results: impl IntoIterator<Item = &'n str>,
    ) -> Self {
        let stmt = S::from_names(op.into(), operands.into_iter(), results.into_iter());
        self.stmts.push(stmt);
        self
    }

    /// An attribute of the last op. In a source op a `$variable`
    /// ([`Expr::var`]) binds its value and any other expression must equal
    /// it; in a result op it is the value given.
    pub fn attr(mut self, name: impl Into<String>, value: impl Into<Expr>) -> Self {
        let name = name.into();
        match self.stmts.last_mut().and_then(WithAttrs::attrs_mut) {
            Some(attrs) => attrs.push((name, value.into())),
            None => self.orphan = self.orphan.or(Some(name)),
        }
        self
    }
}

impl OpsBuilder<ResultStmt> {
    /// The last op's result types (`type(%t)`, `tensor(...)`), one per
    /// result.
    pub fn types(mut self, types: impl IntoIterator<Item = Expr>) -> Self {
        if let Some(ResultStmt::Op(op)) = self.stmts.last_mut() {
            op.types.extend(types);
        }
        self
    }

    /// `%name = %value`: the source tensor `name` is replaced by `value`.
    pub fn alias(mut self, name: &str, value: &str) -> Self {
        self.stmts.push(ResultStmt::Alias {
            name: tensor_name(name),
            value: tensor_name(value),
        });
        self
    }
}

/// A tensor name, with or without its `%`.
fn tensor_name(name: &str) -> String {
    name.strip_prefix('%').unwrap_or(name).to_owned()
}

impl Expr {
    /// `%name`: a tensor of the pattern (an argument of `rank`, `dim`, ...).
    pub fn tensor(name: &str) -> Expr {
        Expr::Tensor(tensor_name(name))
    }

    /// `$name`: binds an attribute in a source op, reads it elsewhere.
    pub fn var(name: &str) -> Expr {
        Expr::Var(name.strip_prefix('$').unwrap_or(name).to_owned())
    }

    /// A quoted string.
    pub fn str(s: &str) -> Expr {
        Expr::Str(s.to_owned())
    }

    /// A bare word (`float32`, `NCHW`).
    pub fn word(s: &str) -> Expr {
        Expr::Word(s.to_owned())
    }

    /// `f(args)`: a function of [`FUNCTIONS`](super::FUNCTIONS).
    pub fn call(f: &str, args: impl IntoIterator<Item = Expr>) -> Expr {
        Expr::Call(f.to_owned(), args.into_iter().collect())
    }

    /// `self[index]`.
    pub fn index(self, index: impl Into<Expr>) -> Expr {
        Expr::Index(Box::new(self), Box::new(index.into()))
    }

    fn binary(self, op: BinaryOp, other: impl Into<Expr>) -> Expr {
        Expr::Binary(op, Box::new(self), Box::new(other.into()))
    }
}

/// Methods building the comparisons and `&&`, `||` (Rust's `==` and `<`
/// must give a `bool`, so these are named).
macro_rules! named_operators {
    ($($method:ident $op:ident $doc:literal),*) => {
        impl Expr {$(
            #[doc = $doc]
            pub fn $method(self, other: impl Into<Expr>) -> Expr {
                self.binary(BinaryOp::$op, other)
            }
        )*}
    };
}
named_operators!(
    eq Eq "`self == other`.", ne Ne "`self != other`.",
    lt Lt "`self < other`.", le Le "`self <= other`.",
    gt Gt "`self > other`.", ge Ge "`self >= other`.",
    and And "`self && other`.", or Or "`self || other`."
);

/// `a + b` and the other arithmetic operators build [`Expr::Binary`].
macro_rules! arithmetic {
    ($($trait:ident $method:ident $op:ident),*) => {$(
        impl<T: Into<Expr>> std::ops::$trait<T> for Expr {
            type Output = Expr;
            fn $method(self, other: T) -> Expr {
                self.binary(BinaryOp::$op, other)
            }
        }
    )*};
}
arithmetic!(Add add Add, Sub sub Sub, Mul mul Mul, Div div Div, Rem rem Rem);

impl std::ops::Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr::Unary(UnaryOp::Neg, Box::new(self))
    }
}

impl std::ops::Not for Expr {
    type Output = Expr;
    fn not(self) -> Expr {
        Expr::Unary(UnaryOp::Not, Box::new(self))
    }
}

impl From<i64> for Expr {
    fn from(v: i64) -> Expr {
        Expr::Int(v)
    }
}

impl From<i32> for Expr {
    fn from(v: i32) -> Expr {
        Expr::Int(i64::from(v))
    }
}

impl From<f64> for Expr {
    fn from(v: f64) -> Expr {
        Expr::Float(v)
    }
}

impl From<bool> for Expr {
    fn from(v: bool) -> Expr {
        Expr::Bool(v)
    }
}

impl<T: Into<Expr>> From<Vec<T>> for Expr {
    fn from(items: Vec<T>) -> Expr {
        Expr::List(items.into_iter().map(Into::into).collect())
    }
}
