//! The rule text's parser. It reads the syntax and records where each part
//! stands ([`Spans`]); what the parts mean is checked by
//! [`Rule::check`](super::Rule::check), for rules read and rules built alike.

use std::collections::HashSet;

use pir_core::parser::{Cursor, ParseError, StringEscapes};

use super::check::{OpSpans, Spans};
use super::{
    BinaryOp, Expr, ResultOp, ResultStmt, Rule, RuleSet, SourceOp, SourceOperand, UnaryOp,
};

/// Rules nest expressions (parentheses, lists, calls, indices) at most
/// this deep: the parser recurses once per level.
const MAX_DEPTH: u32 = 64;

/// An expression tree is at most this deep, however it is built — nesting,
/// a chain of binary operators (`1 + 1 + ...` is a tree as deep as it is
/// long), unary prefixes, indices. Evaluation, the checks, printing and
/// even dropping a tree recurse over it: this bound is what keeps them
/// within the stack, for any tree the parser accepts.
pub const MAX_TREE_DEPTH: usize = 128;

/// Why a rule file was refused: where, and for a rule that
/// [`Rule::check`](super::Rule::check) refused, its typed error.
pub(super) type Refused = (ParseError, Option<Box<super::RuleError>>);

pub(super) fn parse(text: &str) -> Result<RuleSet, Refused> {
    let mut p = RuleParser {
        cur: Cursor::new(text, StringEscapes::Full),
        depth: 0,
    };
    let mut rules = Vec::new();
    let mut names = HashSet::new();
    // Rule lines are counted on from the previous rule's start (a count
    // from the file's start for each rule would be quadratic in its size).
    let (mut counted, mut line) = (0usize, 1usize);
    loop {
        p.cur.skip_ws();
        if p.cur.peek().is_none() {
            break;
        }
        let start = p.cur.pos();
        let mut rule = p.rule().map_err(|e| (e, None))?;
        line += newlines(&text[counted..start]);
        counted = start;
        rule.line = line;
        let rule = rule.check().map_err(|e| {
            let offset = e.location.map_or(start, |l| l.offset);
            (
                ParseError::at(text, offset, 1, e.kind.to_string()),
                Some(Box::new(e)),
            )
        })?;
        if !names.insert(rule.name.clone()) {
            let message = format!("a second rule `{}`", rule.name);
            return Err((p.cur.error_at(start, 4, message), None));
        }
        rules.push(rule);
    }
    Ok(RuleSet { rules })
}

struct RuleParser<'t> {
    cur: Cursor<'t>,
    depth: u32,
}

fn newlines(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'\n').count()
}

impl<'t> RuleParser<'t> {
    fn err(&self, offset: usize, message: impl Into<String>) -> ParseError {
        self.cur.error_at(offset, 1, message)
    }

    fn rule(&mut self) -> Result<Rule, ParseError> {
        self.cur.skip_ws();
        let start = self.cur.pos();
        if !self.cur.eat_keyword("rule") {
            return Err(self.cur.expected("`rule`"));
        }
        let name = self.cur.expect_ident("a rule name")?.to_owned();
        let mut benefit = 1u16;
        if self.cur.eat_keyword("benefit") {
            let at = self.cur.pos();
            benefit = u16::try_from(self.cur.uint("a benefit")?)
                .map_err(|_| self.err(at, "a benefit is at most 65535"))?;
        }
        self.cur.expect("{", "to open the rule")?;
        let mut spans = Spans {
            rule: Some(start),
            ..Spans::default()
        };
        let mut pattern = Vec::new();
        let mut constraints = Vec::new();
        loop {
            self.cur.skip_ws();
            if self.cur.eat("=>") {
                break;
            }
            if self.cur.eat_keyword("where") {
                self.cur.skip_ws();
                spans.constraints.push(self.cur.pos());
                constraints.push(self.expr()?);
                continue;
            }
            if !constraints.is_empty() {
                return Err(self
                    .cur
                    .expected("`where` or `=>` (source ops come before constraints)"));
            }
            let mut op_spans = OpSpans::default();
            pattern.push(self.source_op(&mut op_spans)?);
            spans.source.push(op_spans);
        }
        let mut result = Vec::new();
        loop {
            self.cur.skip_ws();
            if self.cur.eat("}") {
                break;
            }
            let mut op_spans = OpSpans::default();
            result.push(self.result_stmt(&mut op_spans)?);
            spans.result.push(op_spans);
        }
        // The rule's lines, from the start of its first, so that a check
        // can say where in them it failed.
        let src = self.cur.src();
        let line_start = src[..start].rfind('\n').map_or(0, |i| i + 1);
        spans.text = Some((line_start, src[line_start..self.cur.pos()].into()));
        Ok(Rule {
            name,
            benefit,
            pattern,
            constraints,
            result,
            line: 0,
            spans: std::sync::Arc::new(spans),
        })
    }

    /// `%a, _ = op.name(%x, _) {k: v}`
    fn source_op(&mut self, spans: &mut OpSpans) -> Result<SourceOp, ParseError> {
        let mut results = Vec::new();
        self.cur.skip_ws();
        if self.cur.peek() == Some(b'%') || self.cur.looking_at("_ ") || self.cur.looking_at("_,") {
            loop {
                self.cur.skip_ws();
                spans.results.push(self.cur.pos());
                if self.cur.eat("_") {
                    results.push(None);
                } else {
                    let (n, _) = self
                        .cur
                        .value_name()
                        .ok_or_else(|| self.cur.expected("a result `%name` or `_`"))?;
                    results.push(Some(n.to_owned()));
                }
                if !self.cur.eat(",") {
                    break;
                }
            }
            self.cur.expect("=", "after the results")?;
        }
        self.cur.skip_ws();
        spans.op = self.cur.pos();
        let op = self.cur.expect_ident("an op name")?.to_owned();
        let operands = self.operand_list(&mut spans.operands, |p| {
            if p.cur.eat_keyword("none") {
                return Ok(SourceOperand::Absent);
            }
            if p.cur.eat("_") {
                return Ok(SourceOperand::Any);
            }
            let (n, _) = p
                .cur
                .value_name()
                .ok_or_else(|| p.cur.expected("an operand `%name`, `_` or `none`"))?;
            Ok(SourceOperand::Tensor(n.to_owned()))
        })?;
        let attrs = self.attr_dict(spans)?;
        Ok(SourceOp {
            results,
            op,
            operands,
            attrs,
        })
    }

    fn result_stmt(&mut self, spans: &mut OpSpans) -> Result<ResultStmt, ParseError> {
        let mut names = Vec::new();
        loop {
            self.cur.skip_ws();
            spans.results.push(self.cur.pos());
            let (n, _) = self
                .cur
                .value_name()
                .ok_or_else(|| self.cur.expected("a result `%name`"))?;
            names.push(n.to_owned());
            if !self.cur.eat(",") {
                break;
            }
        }
        self.cur.expect("=", "after the result names")?;
        self.cur.skip_ws();
        let at = self.cur.pos();
        spans.op = at;
        if let Some((value, _)) = self.cur.value_name() {
            if names.len() != 1 {
                return Err(self.err(at, "a replacement `%a = %b` names one tensor"));
            }
            return Ok(ResultStmt::Alias {
                name: names.remove(0),
                value: value.to_owned(),
            });
        }
        let op = self
            .cur
            .expect_ident("an op name or a `%tensor`")?
            .to_owned();
        let operands = self.operand_list(&mut spans.operands, |p| {
            if p.cur.eat_keyword("none") {
                return Ok(None);
            }
            let (n, _) = p
                .cur
                .value_name()
                .ok_or_else(|| p.cur.expected("an operand `%name` or `none`"))?;
            Ok(Some(n.to_owned()))
        })?;
        let attrs = self.attr_dict(spans)?;
        let mut types = Vec::new();
        if self.cur.eat(":") {
            loop {
                self.cur.skip_ws();
                spans.types.push(self.cur.pos());
                types.push(self.expr()?);
                if !self.cur.eat(",") {
                    break;
                }
            }
        }
        Ok(ResultStmt::Op(ResultOp {
            results: names,
            op,
            operands,
            attrs,
            types,
        }))
    }

    /// `(item, item, ...)`: an op's operands (their offsets into `at`).
    fn operand_list<T>(
        &mut self,
        at: &mut Vec<usize>,
        mut item: impl FnMut(&mut Self) -> Result<T, ParseError>,
    ) -> Result<Vec<T>, ParseError> {
        self.cur.expect("(", "to open the operands")?;
        let mut items = Vec::new();
        if self.cur.eat(")") {
            return Ok(items);
        }
        loop {
            self.cur.skip_ws();
            at.push(self.cur.pos());
            items.push(item(self)?);
            if self.cur.eat(")") {
                return Ok(items);
            }
            self.cur.expect(",", "between operands")?;
        }
    }

    /// `{name: expr, ...}` (optional).
    fn attr_dict(&mut self, spans: &mut OpSpans) -> Result<Vec<(String, Expr)>, ParseError> {
        let mut attrs: Vec<(String, Expr)> = Vec::new();
        if !self.cur.eat("{") {
            return Ok(attrs);
        }
        if self.cur.eat("}") {
            return Ok(attrs);
        }
        loop {
            self.cur.skip_ws();
            spans.attr_names.push(self.cur.pos());
            let name = self.cur.expect_ident("an attribute name")?.to_owned();
            self.cur.expect(":", "after the attribute name")?;
            self.cur.skip_ws();
            spans.attr_values.push(self.cur.pos());
            attrs.push((name, self.expr()?));
            if self.cur.eat("}") {
                break;
            }
            self.cur.expect(",", "between attributes")?;
        }
        Ok(attrs)
    }

    // ------------------------------------------------------------ expressions

    /// An expression (its tree's depth checked against [`MAX_TREE_DEPTH`]).
    fn expr(&mut self) -> Result<Expr, ParseError> {
        Ok(self.expr_depth()?.0)
    }

    /// An expression and the depth of its tree.
    fn expr_depth(&mut self) -> Result<(Expr, usize), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.cur.expected(&format!(
                "a shallower expression (nesting of parentheses, lists, calls and indices is limited to {MAX_DEPTH})"
            )));
        }
        let e = self.binary(1);
        self.depth -= 1;
        e
    }

    /// Refuses a tree of depth `depth`, built by the operator at `at`, when
    /// it is too deep.
    fn check_depth(&self, depth: usize, at: usize) -> Result<usize, ParseError> {
        if depth > MAX_TREE_DEPTH {
            return Err(self.err(
                at,
                format!(
                    "expression too deep: more than {MAX_TREE_DEPTH} levels of operators, prefixes, indices and nesting"
                ),
            ));
        }
        Ok(depth)
    }

    fn binary_op(&mut self) -> Option<BinaryOp> {
        self.cur.skip_ws();
        let ops = [
            ("||", BinaryOp::Or),
            ("&&", BinaryOp::And),
            ("==", BinaryOp::Eq),
            ("!=", BinaryOp::Ne),
            ("<=", BinaryOp::Le),
            (">=", BinaryOp::Ge),
            ("<", BinaryOp::Lt),
            (">", BinaryOp::Gt),
            ("+", BinaryOp::Add),
            ("-", BinaryOp::Sub),
            ("*", BinaryOp::Mul),
            ("/", BinaryOp::Div),
            ("%", BinaryOp::Rem),
        ];
        ops.into_iter()
            .find(|(s, _)| self.cur.looking_at(s))
            .map(|(_, op)| op)
    }

    /// Operators binding at least as tightly as `min`, left to right. A
    /// chain of operators is a loop here, not a recursion, but it deepens
    /// the tree with every operator: the depth is checked as it grows.
    fn binary(&mut self, min: u8) -> Result<(Expr, usize), ParseError> {
        let (mut left, mut depth) = self.unary()?;
        loop {
            let pos = self.cur.pos();
            let Some(op) = self.binary_op() else { break };
            // `%name` after an operand is a tensor, not the `%` operator.
            if op == BinaryOp::Rem
                && self
                    .cur
                    .peek_at(1)
                    .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            {
                self.cur.set_pos(pos);
                break;
            }
            if op.precedence() < min {
                self.cur.set_pos(pos);
                break;
            }
            let at = self.cur.pos();
            self.cur.eat(op.symbol());
            let (right, right_depth) = self.binary(op.precedence() + 1)?;
            depth = self.check_depth(1 + depth.max(right_depth), at)?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
        Ok((left, depth))
    }

    /// Prefixes, an operand, indices. The prefixes are read in a loop (a
    /// recursion per `!` would overflow the stack on a long run of them)
    /// and bounded as they are read.
    fn unary(&mut self) -> Result<(Expr, usize), ParseError> {
        let mut prefixes = Vec::new();
        loop {
            self.cur.skip_ws();
            let at = self.cur.pos();
            let op = if self.cur.looking_at("!") && !self.cur.looking_at("!=") {
                UnaryOp::Not
            } else if self.cur.peek() == Some(b'-')
                && !self.cur.peek_at(1).is_some_and(|b| b.is_ascii_digit())
            {
                UnaryOp::Neg
            } else {
                break;
            };
            self.check_depth(prefixes.len() + 2, at)?;
            self.cur.set_pos(at + 1);
            prefixes.push((op, at));
        }
        let (mut e, mut depth) = self.primary()?;
        loop {
            let at = self.cur.pos();
            if !self.cur.eat("[") {
                break;
            }
            let (index, index_depth) = self.expr_depth()?;
            self.cur.expect("]", "to close the index")?;
            depth = self.check_depth(1 + depth.max(index_depth), at)?;
            e = Expr::Index(Box::new(e), Box::new(index));
        }
        for (op, at) in prefixes.into_iter().rev() {
            depth = self.check_depth(depth + 1, at)?;
            e = Expr::Unary(op, Box::new(e));
        }
        Ok((e, depth))
    }

    /// Items up to `close`, separated by commas (list items, arguments), and
    /// the deepest item's depth.
    fn items(&mut self, close: &str, between: &str) -> Result<(Vec<Expr>, usize), ParseError> {
        let mut items = Vec::new();
        let mut depth = 0;
        if !self.cur.eat(close) {
            loop {
                let (item, d) = self.expr_depth()?;
                items.push(item);
                depth = depth.max(d);
                if self.cur.eat(close) {
                    break;
                }
                self.cur.expect(",", between)?;
            }
        }
        Ok((items, depth))
    }

    fn primary(&mut self) -> Result<(Expr, usize), ParseError> {
        self.cur.skip_ws();
        let at = self.cur.pos();
        let leaf = match self.cur.peek() {
            Some(b'%') => {
                let (n, _) = self
                    .cur
                    .value_name()
                    .ok_or_else(|| self.cur.expected("a tensor name"))?;
                Expr::Tensor(n.to_owned())
            }
            Some(b'$') => {
                self.cur.eat("$");
                Expr::Var(self.cur.expect_ident("a variable name")?.to_owned())
            }
            Some(b'"') => Expr::Str(self.cur.string()?.into_owned()),
            Some(b'(') => {
                self.cur.eat("(");
                let e = self.expr_depth()?;
                self.cur.expect(")", "to close the parenthesis")?;
                return Ok(e);
            }
            Some(b'[') => {
                self.cur.eat("[");
                let (items, depth) = self.items("]", "between list items")?;
                let depth = self.check_depth(depth + 1, at)?;
                return Ok((Expr::List(items), depth));
            }
            Some(b) if b.is_ascii_digit() || b == b'-' => {
                let text = self
                    .cur
                    .number_text()
                    .ok_or_else(|| self.cur.expected("a number"))?;
                if text.contains(['.', 'e', 'E']) {
                    text.parse()
                        .map(Expr::Float)
                        .map_err(|_| self.err(at, format!("`{text}` is not a number")))?
                } else {
                    text.parse()
                        .map(Expr::Int)
                        .map_err(|_| self.err(at, format!("`{text}` is not a 64-bit integer")))?
                }
            }
            _ => {
                let word = self.cur.expect_ident("an expression")?;
                match word {
                    "true" => Expr::Bool(true),
                    "false" => Expr::Bool(false),
                    _ if self.cur.peek() == Some(b'(') => {
                        let word = word.to_owned();
                        self.cur.eat("(");
                        let (args, depth) = self.items(")", "between arguments")?;
                        let depth = self.check_depth(depth + 1, at)?;
                        return Ok((Expr::Call(word, args), depth));
                    }
                    _ => Expr::Word(word.to_owned()),
                }
            }
        };
        Ok((leaf, 1))
    }
}
