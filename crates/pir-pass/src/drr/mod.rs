//! DRR: declarative rewrite rules.
//!
//! A rule names a *source pattern* — ops connected through named tensors,
//! with attribute values required or bound to `$variables` — constraints on
//! what matched (`where`), and a *result pattern*: ops whose operands are
//! matched tensors and whose attributes are computed from matched ones. The
//! result ops are inserted before the pattern's last op; the source tensors
//! they define again (same name) are replaced, and the source ops left
//! without users are erased. A rule is compiled into a [`RewritePattern`](crate::rewrite::RewritePattern)
//! for the greedy driver ([`compile`]).
//!
//! Rules are written in an IR-like text (the library's fusions are such
//! files, and `pir opt --rules FILE` takes users' own):
//!
//! ```text
//! // y = x·w + b, with a 2-D weight and a 1-D bias: one pd_op.fc
//! rule matmul_add_to_fc {
//!     %mm = pd_op.matmul(%x, %w) {transpose_x: false, transpose_y: false}
//!     %out = pd_op.add(%mm, %b)
//!     where rank(%w) == 2 && rank(%b) == 1 && dim(%w, 1) == dim(%b, 0)
//!     =>
//!     %out = pd_op.fc(%x, %w, %b) {in_num_col_dims: rank(%x) - 1, activation_type: "", padding_weights: false}
//! }
//! ```
//!
//! In short: source lines `%r = op.name(%a, _, none) {attr: $v, attr: EXPR}`
//! (`_` any operand or an ignored result, `none` an absent optional input,
//! `$v` binds an attribute, any other expression requires it); `where EXPR`
//! lines, all of which must hold, over the functions of [`FUNCTIONS`];
//! after `=>`, result ops `%r = op.name(...) {attr: EXPR} : type(%t)` that
//! replace the source tensors of the same names, or `%r = %a`. A rule never
//! fires where its rewrite could be observed (in-place writes, outside
//! users of unreplaced results).
//!
//! The language reference — every construct with an example, the
//! functions, placement and safety rules, the errors — is the guide's
//! chapter *Rewrite rules (DRR)*, `docs/guide/src/drr.md` in the
//! repository; its examples are parsed by this crate's tests
//! (`tests/drr_docs.rs`), so it follows the parser.

mod attr;
mod build;
mod check;
mod eval;
mod parse;
mod pattern;
mod placement;
mod print;
mod typeck;

use std::sync::Arc;

pub use build::{OpsBuilder, ResultBuilder, RuleBuilder, SourceBuilder, WithAttrs};
pub use check::{CheckedRule, Location, OpSpans, RuleError, RuleErrorKind, Spans};
pub use eval::{Val, FUNCTIONS, MAX_BUILT, MAX_LIST_LEN};
pub use parse::MAX_TREE_DEPTH;
pub use pattern::{compile, DrrPattern};
pub use typeck::Ty;

/// Whether `v` stops gradients: its defining op's `stop_gradient` flag for
/// it; a block argument does (as in Paddle, which builds ops reading one
/// as stopping gradients when their other inputs do).
pub fn value_stop_gradient(p: &pir_core::Program, v: pir_core::ValueId) -> bool {
    let Some(def) = p.defining_op(v) else {
        return true;
    };
    let index = p.results(def).position(|r| r == v).unwrap_or(0);
    p.attr(def, "stop_gradient")
        .and_then(|a| p.ctx().attr_as::<pir_core::builtin::ArrayAttr>(a))
        .and_then(|list| list.0.get(index).copied())
        .and_then(|flag| p.ctx().attr_as::<pir_core::builtin::BoolAttr>(flag))
        .is_some_and(|b| b.0)
}

/// A `stop_gradient` attribute of `flags`.
pub fn stop_gradient_attr(ctx: &pir_core::IrContext, flags: &[bool]) -> pir_core::Attribute {
    use pir_core::builtin::{ArrayAttr, BoolAttr};
    let items: Vec<pir_core::Attribute> = flags
        .iter()
        .map(|&f| ctx.intern_attr(BoolAttr(f)))
        .collect();
    ctx.intern_attr(ArrayAttr(items.into_boxed_slice()))
}

/// A file of rules, each checked ([`Rule::check`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RuleSet {
    /// The rules, in file order.
    pub rules: Vec<CheckedRule>,
}

/// One rewrite rule, read from text ([`RuleSet::parse`]) or built in Rust
/// ([`RuleBuilder`]); [`Rule::check`] makes it one [`compile`] takes. Rules
/// compare equal when they say the same, wherever they stand in their
/// files (`line` and `spans` are left out).
#[derive(Debug, Clone)]
pub struct Rule {
    /// Its name (reports say which rule fired or never matched).
    pub name: String,
    /// Tried before rules of lower benefit on the same op.
    pub benefit: u16,
    /// The source ops, definitions before uses; the last is the anchor.
    pub pattern: Vec<SourceOp>,
    /// Conditions that must all hold.
    pub constraints: Vec<Expr>,
    /// The result statements, in order.
    pub result: Vec<ResultStmt>,
    /// 1-based line of the rule in its file (0 when built in code).
    pub line: usize,
    /// Where its parts stand in its file (empty when built in code).
    pub spans: Arc<Spans>,
}

impl PartialEq for Rule {
    fn eq(&self, other: &Rule) -> bool {
        self.name == other.name
            && self.benefit == other.benefit
            && self.pattern == other.pattern
            && self.constraints == other.constraints
            && self.result == other.result
    }
}

/// An op of a source pattern.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceOp {
    /// Result names (`None`: `_`, ignored).
    pub results: Vec<Option<String>>,
    /// The op name (`pd_op.matmul`).
    pub op: String,
    /// Operands.
    pub operands: Vec<SourceOperand>,
    /// Required or bound attributes.
    pub attrs: Vec<(String, Expr)>,
}

/// An operand of a source op.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceOperand {
    /// `%name`: a tensor, the same value wherever the name appears.
    Tensor(String),
    /// `_`: any value, or none.
    Any,
    /// `none`: an absent optional input.
    Absent,
}

impl SourceOperand {
    /// The tensor name, if the operand names one.
    pub fn name(&self) -> Option<&str> {
        match self {
            SourceOperand::Tensor(n) => Some(n),
            SourceOperand::Any | SourceOperand::Absent => None,
        }
    }
}

/// A statement of a result pattern.
#[derive(Debug, Clone, PartialEq)]
pub enum ResultStmt {
    /// `%r = op(...) {...} : types` — creates an op.
    Op(ResultOp),
    /// `%r = %a` — the tensor `r` is replaced by `a`.
    Alias {
        /// The replaced (or new) name.
        name: String,
        /// The tensor it stands for.
        value: String,
    },
}

/// An op of a result pattern.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultOp {
    /// Result names.
    pub results: Vec<String>,
    /// The op name.
    pub op: String,
    /// Operands: a tensor name or `None` (an absent optional input).
    pub operands: Vec<Option<String>>,
    /// Attribute values.
    pub attrs: Vec<(String, Expr)>,
    /// Result types (`type(%t)` expressions); empty: the types of the
    /// source tensors of the same names.
    pub types: Vec<Expr>,
}

/// An expression over what a rule matched.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// An integer.
    Int(i64),
    /// A number with a fraction or exponent.
    Float(f64),
    /// `true` / `false`.
    Bool(bool),
    /// A quoted string.
    Str(String),
    /// A bare word (`float32`, `NCHW`).
    Word(String),
    /// `[a, b]`.
    List(Vec<Expr>),
    /// `%name`: a matched or created tensor.
    Tensor(String),
    /// `$name`: a bound attribute.
    Var(String),
    /// `f(args)`.
    Call(String, Vec<Expr>),
    /// `list[index]`.
    Index(Box<Expr>, Box<Expr>),
    /// `-x`, `!x`.
    Unary(UnaryOp, Box<Expr>),
    /// `a op b`.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-`
    Neg,
    /// `!`
    Not,
}

/// Binary operators, loosest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    /// `||`
    Or,
    /// `&&`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+` (numbers; lists and strings concatenate)
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (integer division of integers)
    Div,
    /// `%`
    Rem,
}

impl BinaryOp {
    /// The operator's text.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "||",
            BinaryOp::And => "&&",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
        }
    }

    /// Binding strength: higher binds tighter.
    pub fn precedence(self) -> u8 {
        match self {
            BinaryOp::Or => 1,
            BinaryOp::And => 2,
            BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge => 3,
            BinaryOp::Add | BinaryOp::Sub => 4,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 5,
        }
    }
}

/// A rule file that cannot be used: where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}: {error}")]
pub struct DrrError {
    /// The file (or `<rules>`).
    pub source_name: String,
    /// The position and message.
    pub error: pir_core::parser::ParseError,
    /// For a rule [`Rule::check`] refused, its typed error.
    pub rule_error: Option<Box<RuleError>>,
}

impl RuleSet {
    /// Parses and checks a rule file; `source_name` names it in errors.
    pub fn parse(text: &str, source_name: &str) -> Result<RuleSet, DrrError> {
        parse::parse(text).map_err(|(error, rule_error)| DrrError {
            source_name: source_name.to_owned(),
            error,
            rule_error,
        })
    }

    /// The rules compiled into patterns for the greedy driver.
    pub fn patterns(&self) -> Vec<Box<dyn crate::rewrite::RewritePattern>> {
        self.rules
            .iter()
            .map(|r| Box::new(compile(r)) as Box<dyn crate::rewrite::RewritePattern>)
            .collect()
    }
}

impl std::fmt::Display for RuleSet {
    /// The rules as text that [`RuleSet::parse`] reads back to an equal set.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, rule) in self.rules.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}", rule.rule())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod check_tests;
#[cfg(test)]
mod tests;
