//! `Rule::check`: everything about a rule that needs no program, checked
//! once before the rule is compiled — as ISLE's and PDLL's checkers do.
//!
//! A rule read from text and one built in Rust go through the same check,
//! and [`compile`](super::compile) takes only its proof, a [`CheckedRule`].
//! Checked: the ops exist in the dialect registry (`pir_dialects` op
//! definitions), operand, result and attribute names and counts match those
//! definitions, every tensor and `$variable` is bound before it is read,
//! results read bound tensors and replace at least one source tensor, the
//! source pattern is connected, and every expression has a type that fits
//! where it stands (see [`super::typeck`]): a `where` is a bool, an
//! attribute value fits the attribute's declared kind, a result type is a
//! type.
//!
//! ```
//! use pir_pass::drr::{RuleBuilder, RuleErrorKind};
//! let error = RuleBuilder::new("typo")
//!     .source(|s| s.op("pd_op.relux", ["x"], ["out"]))
//!     .result(|r| r.alias("out", "x"))
//!     .build()
//!     .unwrap_err();
//! assert_eq!(*error.kind, RuleErrorKind::UnknownOp("pd_op.relux".into()));
//! ```

use std::collections::HashSet;
use std::sync::Arc;

use pir_dialects::op_def::OpDef;

use super::typeck::{self, Ty, Typer};
use super::{Expr, ResultStmt, Rule, SourceOp, SourceOperand};

/// A rule that passed [`Rule::check`]: the only kind
/// [`compile`](super::compile) accepts. It reads as the [`Rule`] it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedRule {
    rule: Arc<Rule>,
}

impl CheckedRule {
    /// The rule.
    pub fn rule(&self) -> &Rule {
        &self.rule
    }

    /// The rule, shared.
    pub(super) fn shared(&self) -> Arc<Rule> {
        Arc::clone(&self.rule)
    }
}

impl std::ops::Deref for CheckedRule {
    type Target = Rule;
    fn deref(&self) -> &Rule {
        &self.rule
    }
}

/// Where a rule read from text went wrong (line and column are 0 where the
/// rule does not hold its text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// Byte offset in the text.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// A rule [`Rule::check`] refuses: which rule, where (for rules read from
/// text) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct RuleError {
    /// The rule's name.
    pub rule: String,
    /// Where in its text (`None` for rules built in Rust).
    pub location: Option<Location>,
    /// What is wrong (boxed: errors travel in `Result`s of rules).
    pub kind: Box<RuleErrorKind>,
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rule `{}`", self.rule)?;
        if let Some(at) = self.location {
            write!(f, " (line {}, column {})", at.line, at.column)?;
        }
        write!(f, ": {}", self.kind)
    }
}

/// Why a rule is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleErrorKind {
    /// The pattern has no op.
    #[error("rule `{0}` has no source op")]
    NoSourceOp(String),
    /// An op the dialect registry does not know.
    #[error("unknown op `{0}` (not an op of Paddle 3.3.1)")]
    UnknownOp(String),
    /// Operands against the op's definition.
    #[error("{op} has {expected} operands, not {found}")]
    OperandCount {
        /// The op.
        op: String,
        /// Its inputs.
        expected: usize,
        /// The rule's operands.
        found: usize,
    },
    /// Results against the op's definition.
    #[error("{op} has {expected} results, not {found}")]
    ResultCount {
        /// The op.
        op: String,
        /// Its outputs.
        expected: usize,
        /// The rule's results.
        found: usize,
    },
    /// An attribute the op does not declare.
    #[error("{op} has no attribute `{name}`")]
    UnknownAttribute {
        /// The op.
        op: String,
        /// The attribute.
        name: String,
    },
    /// One attribute given twice on an op.
    #[error("attribute `{0}` is given twice")]
    RepeatedAttribute(String),
    /// A source tensor defined twice (or an input defined later).
    #[error("`%{0}` is defined twice")]
    DefinedTwice(String),
    /// An op reading its own result.
    #[error("`%{0}` is read by the op that defines it")]
    ReadByItsOp(String),
    /// A source op whose results do not reach the anchor.
    #[error("source op {index} ({op}) does not feed the last source op: a pattern is rooted at its last op")]
    NotConnected {
        /// 1-based position of the op in the pattern.
        index: usize,
        /// The op.
        op: String,
    },
    /// A result defining an input of the pattern.
    #[error("`%{0}` is an input of the pattern: a result cannot replace it")]
    RedefinesInput(String),
    /// A name the result defines twice.
    #[error("`%{0}` is defined twice in the result")]
    DefinedTwiceInResult(String),
    /// A tensor nothing defines (yet).
    #[error("`%{0}` is not a tensor of the pattern")]
    UnknownTensor(String),
    /// A variable no source attribute binds (yet).
    #[error("`${0}` is not bound by a source attribute before this point")]
    UnboundVariable(String),
    /// A function the language does not have.
    #[error("unknown function `{name}` (known: {known})")]
    UnknownFunction {
        /// The name called.
        name: String,
        /// The functions there are.
        known: String,
    },
    /// A call with the wrong number of arguments.
    #[error("`{name}` takes {expected} argument(s), not {found}")]
    FunctionArity {
        /// The function.
        name: String,
        /// Its arity.
        expected: usize,
        /// The arguments given.
        found: usize,
    },
    /// `type(...)` outside result types.
    #[error("`type(...)` gives a result type, after `:`")]
    TypeOutsideResultTypes,
    /// `none` for an input that must be given.
    #[error("{op}'s input `{input}` is not optional")]
    NotOptional {
        /// The op.
        op: String,
        /// The input.
        input: String,
    },
    /// A result op leaving out an attribute without default.
    #[error("{op} needs attribute `{name}` (it has no default)")]
    MissingAttribute {
        /// The op.
        op: String,
        /// The attribute.
        name: String,
    },
    /// Written types not one per result.
    #[error("{types} types for {results} results")]
    TypeCount {
        /// Types written.
        types: usize,
        /// Results named.
        results: usize,
    },
    /// A new tensor of an op without type inference, without its type.
    #[error("`%{name}` is new and `{op}` has no type inference: give its type (`: type(%t)`)")]
    NeedsType {
        /// The tensor.
        name: String,
        /// The op.
        op: String,
    },
    /// A result replacing nothing.
    #[error("rule `{0}` replaces no source tensor (a result must define one of their names)")]
    ReplacesNothing(String),
    /// A builder's attribute given before any op it could belong to.
    #[error("attribute `{0}` is given before any op")]
    AttributeWithoutOp(String),
    /// An expression tree deeper than [`super::MAX_TREE_DEPTH`].
    #[error(
        "expression too deep: more than {} levels of operators, prefixes, indices and nesting",
        super::MAX_TREE_DEPTH
    )]
    TooDeep,
    /// An expression of a type that does not fit where it stands.
    #[error("{context}: expected {expected}, found {found}")]
    Mistyped {
        /// Where (`` `where` ``, `attribute `perm` of pd_op.transpose`, `` `+` ``).
        context: String,
        /// What fits there.
        expected: String,
        /// The expression's type.
        found: String,
    },
}

/// What a check found wrong, and the offset it points at (`None`: no text).
pub(super) type Refusal = (RuleErrorKind, Option<usize>);

impl Rule {
    /// Checks the rule (see the module docs); the proof is what
    /// [`compile`](super::compile) takes.
    pub fn check(self) -> Result<CheckedRule, RuleError> {
        match Checker::new(&self).run() {
            Ok(()) => Ok(CheckedRule {
                rule: Arc::new(self),
            }),
            Err((kind, offset)) => Err(RuleError {
                rule: self.name.clone(),
                location: offset.map(|offset| self.spans.locate(offset, self.line)),
                kind: Box::new(kind),
            }),
        }
    }
}

/// Attributes an op may carry beyond its definition (besides Paddle's
/// runtime attributes, `__name__`).
pub(super) const COMMON_ATTRS: [&str; 3] = ["stop_gradient", "persistable", "trainable"];

/// The op's definition; an error for names that are neither defined ops nor
/// `builtin.*` / `cf.*`.
pub(super) fn op_def(name: &str) -> Result<Option<&'static OpDef>, RuleErrorKind> {
    if let Some(def) = pir_dialects::op_def(name) {
        return Ok(Some(def));
    }
    if name.starts_with("builtin.") || name.starts_with("cf.") {
        return Ok(None);
    }
    Err(RuleErrorKind::UnknownOp(name.to_owned()))
}

/// Names known while a rule is checked, in its order.
#[derive(Default)]
struct Scope<'r> {
    /// Tensors defined by source ops.
    defined: HashSet<&'r str>,
    /// Tensors read by the pattern but defined outside it.
    inputs: HashSet<&'r str>,
    /// Names defined by result statements so far.
    result_defined: HashSet<&'r str>,
}

impl Scope<'_> {
    fn readable(&self, name: &str) -> bool {
        self.defined.contains(name)
            || self.inputs.contains(name)
            || self.result_defined.contains(name)
    }
}

struct Checker<'r> {
    rule: &'r Rule,
    spans: &'r Spans,
    scope: Scope<'r>,
    typer: Typer<'r>,
}

/// `Err((kind, offset))`.
macro_rules! refuse {
    ($kind:expr, $at:expr) => {
        return Err(($kind, $at))
    };
}

impl<'r> Checker<'r> {
    fn new(rule: &'r Rule) -> Self {
        Checker {
            rule,
            spans: &rule.spans,
            scope: Scope::default(),
            typer: Typer::default(),
        }
    }

    fn run(mut self) -> Result<(), Refusal> {
        let rule = self.rule;
        let start = self.spans.rule;
        for (i, op) in rule.pattern.iter().enumerate() {
            self.source_op(i, op)?;
        }
        for (i, c) in rule.constraints.iter().enumerate() {
            let at = self.spans.constraints.get(i).copied();
            self.expr(c, at, "`where`", &Ty::Bool, false)?;
        }
        if rule.pattern.is_empty() {
            refuse!(RuleErrorKind::NoSourceOp(rule.name.clone()), start);
        }
        check_connected(&rule.pattern).map_err(|k| (k, start))?;
        let mut replaced = 0usize;
        for (i, stmt) in rule.result.iter().enumerate() {
            replaced += self.result_stmt(i, stmt)?;
        }
        if replaced == 0 {
            refuse!(RuleErrorKind::ReplacesNothing(rule.name.clone()), start);
        }
        Ok(())
    }

    /// Checks `e` (names, functions, depth, type) against `want`.
    fn expr(
        &self,
        e: &'r Expr,
        at: Option<usize>,
        context: &str,
        want: &Ty,
        type_position: bool,
    ) -> Result<(), Refusal> {
        typeck::check_depth(e).map_err(|k| (k, at))?;
        let names = |n: &str| self.scope.readable(n);
        let ty = self
            .typer
            .type_of(e, &names, type_position)
            .map_err(|k| (k, at))?;
        if !ty.fits(want) {
            refuse!(
                RuleErrorKind::Mistyped {
                    context: context.to_owned(),
                    expected: want.to_string(),
                    found: ty.to_string(),
                },
                at
            );
        }
        Ok(())
    }

    fn source_op(&mut self, index: usize, op: &'r SourceOp) -> Result<(), Refusal> {
        let spans = self.spans.source.get(index);
        let op_at = spans.map(|s| s.op);
        for (k, r) in op.results.iter().enumerate() {
            let Some(r) = r else { continue };
            if self.scope.inputs.contains(r.as_str()) || !self.scope.defined.insert(r) {
                let at = spans.and_then(|s| s.results.get(k).copied());
                refuse!(RuleErrorKind::DefinedTwice(r.clone()), at);
            }
        }
        let def = op_def(&op.op).map_err(|k| (k, op_at))?;
        let own: HashSet<&str> = op.results.iter().flatten().map(String::as_str).collect();
        for (k, operand) in op.operands.iter().enumerate() {
            let SourceOperand::Tensor(n) = operand else {
                continue;
            };
            if own.contains(n.as_str()) {
                let at = spans.and_then(|s| s.operands.get(k).copied());
                refuse!(RuleErrorKind::ReadByItsOp(n.clone()), at);
            }
            // A name not yet defined is an input of the pattern.
            if !self.scope.defined.contains(n.as_str()) {
                self.scope.inputs.insert(n);
            }
        }
        if let Some(def) = def {
            let results = (!op.results.is_empty()).then_some(op.results.len());
            check_arity(&op.op, def, op.operands.len(), results).map_err(|k| (k, op_at))?;
        }
        self.attrs(&op.op, def, &op.attrs, spans, true)
    }

    /// An op's attributes: names declared and distinct, values typed by
    /// the declared kinds; in a source op a lone `$v` binds.
    fn attrs(
        &mut self,
        op: &str,
        def: Option<&'static OpDef>,
        attrs: &'r [(String, Expr)],
        spans: Option<&OpSpans>,
        source: bool,
    ) -> Result<(), Refusal> {
        let mut seen: HashSet<&str> = HashSet::new();
        for (k, (name, e)) in attrs.iter().enumerate() {
            let name_at = spans.and_then(|s| s.attr_names.get(k).copied());
            if let Some(def) = def {
                if def.attribute(name).is_none()
                    && !COMMON_ATTRS.contains(&name.as_str())
                    && !name.starts_with("__")
                {
                    refuse!(
                        RuleErrorKind::UnknownAttribute {
                            op: op.to_owned(),
                            name: name.clone(),
                        },
                        name_at
                    );
                }
            }
            if !seen.insert(name) {
                refuse!(RuleErrorKind::RepeatedAttribute(name.clone()), name_at);
            }
            let kind = typeck::attr_kind(def, name);
            match (e, source) {
                (Expr::Var(v), true) => self.typer.bind(v, Ty::of_kind(kind)),
                _ => {
                    let at = spans.and_then(|s| s.attr_values.get(k).copied());
                    let context = format!("attribute `{name}` of {op}");
                    self.expr(e, at, &context, &Ty::of_kind(kind), false)?;
                }
            }
        }
        Ok(())
    }

    /// Checks a result statement; returns how many source tensors it
    /// replaces.
    fn result_stmt(&mut self, index: usize, stmt: &'r ResultStmt) -> Result<usize, Refusal> {
        let spans = self.spans.result.get(index);
        let op_at = spans.map(|s| s.op);
        let names: Vec<&'r String> = match stmt {
            ResultStmt::Op(op) => op.results.iter().collect(),
            ResultStmt::Alias { name, .. } => vec![name],
        };
        for (k, n) in names.iter().enumerate() {
            let at = spans.and_then(|s| s.results.get(k).copied());
            if self.scope.inputs.contains(n.as_str()) {
                refuse!(RuleErrorKind::RedefinesInput((*n).clone()), at);
            }
            if self.scope.result_defined.contains(n.as_str()) {
                refuse!(RuleErrorKind::DefinedTwiceInResult((*n).clone()), at);
            }
        }
        let replaced = names
            .iter()
            .filter(|n| self.scope.defined.contains(n.as_str()))
            .count();
        match stmt {
            ResultStmt::Alias { value, .. } => {
                if !self.scope.readable(value) {
                    refuse!(RuleErrorKind::UnknownTensor(value.clone()), op_at);
                }
            }
            ResultStmt::Op(op) => {
                let def = op_def(&op.op).map_err(|k| (k, op_at))?;
                for (k, operand) in op.operands.iter().enumerate() {
                    if let Some(n) = operand {
                        if !self.scope.readable(n) {
                            let at = spans.and_then(|s| s.operands.get(k).copied());
                            refuse!(RuleErrorKind::UnknownTensor(n.clone()), at);
                        }
                    }
                }
                if let Some(def) = def {
                    check_arity(&op.op, def, op.operands.len(), Some(op.results.len()))
                        .map_err(|k| (k, op_at))?;
                    for (input, operand) in def.inputs.iter().zip(&op.operands) {
                        if operand.is_none() && !input.optional {
                            refuse!(
                                RuleErrorKind::NotOptional {
                                    op: op.op.clone(),
                                    input: input.name.to_string(),
                                },
                                op_at
                            );
                        }
                    }
                }
                self.attrs(&op.op, def, &op.attrs, spans, false)?;
                if let Some(def) = def {
                    for spec in def.attributes {
                        if spec.default.is_none() && !op.attrs.iter().any(|(k, _)| *k == spec.name)
                        {
                            refuse!(
                                RuleErrorKind::MissingAttribute {
                                    op: op.op.clone(),
                                    name: spec.name.to_string(),
                                },
                                op_at
                            );
                        }
                    }
                }
                for (k, t) in op.types.iter().enumerate() {
                    let at = spans.and_then(|s| s.types.get(k).copied());
                    self.expr(t, at, "a result type", &Ty::Type, true)?;
                }
                if !op.types.is_empty() && op.types.len() != op.results.len() {
                    refuse!(
                        RuleErrorKind::TypeCount {
                            types: op.types.len(),
                            results: op.results.len(),
                        },
                        op_at
                    );
                }
                if op.types.is_empty() && !pir_infer::has_inference(&op.op) {
                    // Without inference a result takes the type of the
                    // source tensor it replaces; a new one needs its type
                    // written.
                    for (k, n) in op.results.iter().enumerate() {
                        if !self.scope.defined.contains(n.as_str()) {
                            let at = spans.and_then(|s| s.results.get(k).copied());
                            refuse!(
                                RuleErrorKind::NeedsType {
                                    name: n.clone(),
                                    op: op.op.clone(),
                                },
                                at
                            );
                        }
                    }
                }
            }
        }
        for n in names {
            self.scope.result_defined.insert(n);
        }
        Ok(replaced)
    }
}

/// Operand and result counts against the op's definition (`results`:
/// `None` when the rule names none).
fn check_arity(
    op: &str,
    def: &OpDef,
    operands: usize,
    results: Option<usize>,
) -> Result<(), RuleErrorKind> {
    if operands != def.inputs.len() {
        return Err(RuleErrorKind::OperandCount {
            op: op.to_owned(),
            expected: def.inputs.len(),
            found: operands,
        });
    }
    match results {
        Some(r) if r != def.outputs.len() => Err(RuleErrorKind::ResultCount {
            op: op.to_owned(),
            expected: def.outputs.len(),
            found: r,
        }),
        _ => Ok(()),
    }
}

/// Every source op must feed the last one, directly or not.
fn check_connected(pattern: &[SourceOp]) -> Result<(), RuleErrorKind> {
    // Result names are defined once (checked before): a map finds each
    // operand's producer (a search per operand is quadratic in the rule).
    let mut producer: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, op) in pattern.iter().enumerate() {
        for r in op.results.iter().flatten() {
            producer.entry(r.as_str()).or_insert(i);
        }
    }
    let n = pattern.len();
    let mut reached = vec![false; n];
    if let Some(last) = reached.last_mut() {
        *last = true;
    }
    for i in (0..n).rev() {
        if !reached[i] {
            continue;
        }
        for operand in pattern[i].operands.iter().filter_map(SourceOperand::name) {
            if let Some(&j) = producer.get(operand) {
                if j < i {
                    reached[j] = true;
                }
            }
        }
    }
    match reached.iter().position(|r| !r) {
        Some(i) => Err(RuleErrorKind::NotConnected {
            index: i + 1,
            op: pattern[i].op.clone(),
        }),
        None => Ok(()),
    }
}

/// Where the parts of a statement stand in the rule's text (byte offsets).
#[derive(Debug, Clone, Default)]
pub struct OpSpans {
    /// The op name (or, for `%r = %a`, the `%a`).
    pub op: usize,
    /// Each result name.
    pub results: Vec<usize>,
    /// Each operand.
    pub operands: Vec<usize>,
    /// Each attribute's name.
    pub attr_names: Vec<usize>,
    /// Each attribute's value.
    pub attr_values: Vec<usize>,
    /// Each written result type.
    pub types: Vec<usize>,
}

/// Where a rule read from text has its parts (byte offsets in the text), so
/// that [`Rule::check`] can point at them; empty for rules built in Rust.
#[derive(Debug, Clone, Default)]
pub struct Spans {
    /// The `rule` keyword.
    pub rule: Option<usize>,
    /// Each source op.
    pub source: Vec<OpSpans>,
    /// Each `where`'s expression.
    pub constraints: Vec<usize>,
    /// Each result statement.
    pub result: Vec<OpSpans>,
    /// The rule's text from the start of its first line, and where that
    /// stands in its file: what line and column numbers are counted in.
    pub text: Option<(usize, Arc<str>)>,
}

impl Spans {
    /// The line and column of `offset`, counted in the rule's own lines
    /// (the first is `first_line`).
    fn locate(&self, offset: usize, first_line: usize) -> Location {
        let (line, column) = match &self.text {
            Some((base, text)) => {
                let before = offset
                    .checked_sub(*base)
                    .and_then(|rel| text.get(..rel))
                    .unwrap_or("");
                let line_start = before.rfind('\n').map_or(0, |i| i + 1);
                let newlines = before.bytes().filter(|&b| b == b'\n').count();
                (
                    first_line + newlines,
                    before[line_start..].chars().count() + 1,
                )
            }
            None => (0, 0),
        };
        Location {
            offset,
            line,
            column,
        }
    }
}
