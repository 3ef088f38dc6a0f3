//! The rule text's parser, with the checks that need no program: names
//! defined before use, ops and attributes that exist, a connected source
//! pattern, a result that replaces something.

use std::collections::HashSet;

use pir_core::parser::{Cursor, ParseError, StringEscapes};

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

pub(super) fn parse(text: &str) -> Result<RuleSet, ParseError> {
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
        let mut rule = p.rule()?;
        if !names.insert(rule.name.clone()) {
            return Err(p
                .cur
                .error_at(start, 4, format!("a second rule `{}`", rule.name)));
        }
        line += newlines(&text[counted..start]);
        counted = start;
        rule.line = line;
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
        let mut scope = Scope::default();
        let mut pattern = Vec::new();
        let mut constraints = Vec::new();
        loop {
            self.cur.skip_ws();
            if self.cur.eat("=>") {
                break;
            }
            if self.cur.eat_keyword("where") {
                let at = self.cur.pos();
                let e = self.expr()?;
                self.check_expr(&e, &scope, at, false)?;
                constraints.push(e);
                continue;
            }
            if !constraints.is_empty() {
                return Err(self
                    .cur
                    .expected("`where` or `=>` (source ops come before constraints)"));
            }
            pattern.push(self.source_op(&mut scope)?);
        }
        if pattern.is_empty() {
            return Err(self.err(start, format!("rule `{name}` has no source op")));
        }
        check_connected(&pattern).map_err(|m| self.err(start, m))?;
        let mut result = Vec::new();
        let mut replaced = 0usize;
        loop {
            self.cur.skip_ws();
            if self.cur.eat("}") {
                break;
            }
            let stmt = self.result_stmt(&mut scope)?;
            let defined: Vec<&String> = match &stmt {
                ResultStmt::Op(op) => op.results.iter().collect(),
                ResultStmt::Alias { name, .. } => vec![name],
            };
            replaced += defined
                .iter()
                .filter(|n| scope.source_results.contains(n.as_str()))
                .count();
            result.push(stmt);
        }
        if replaced == 0 {
            return Err(self.err(
                start,
                format!("rule `{name}` replaces no source tensor (a result must define one of their names)"),
            ));
        }
        Ok(Rule {
            name,
            benefit,
            pattern,
            constraints,
            result,
            line: 0,
        })
    }

    /// `%a, _ = op.name(%x, _) {k: v}`
    fn source_op(&mut self, scope: &mut Scope) -> Result<SourceOp, ParseError> {
        let mut results = Vec::new();
        self.cur.skip_ws();
        if self.cur.peek() == Some(b'%') || self.cur.looking_at("_ ") || self.cur.looking_at("_,") {
            loop {
                self.cur.skip_ws();
                let at = self.cur.pos();
                if self.cur.eat("_") {
                    results.push(None);
                } else {
                    let (n, _) = self
                        .cur
                        .value_name()
                        .ok_or_else(|| self.cur.expected("a result `%name` or `_`"))?;
                    if !scope.define(n) {
                        return Err(self.err(at, format!("`%{n}` is defined twice")));
                    }
                    scope.source_results.insert(n.to_owned());
                    results.push(Some(n.to_owned()));
                }
                if !self.cur.eat(",") {
                    break;
                }
            }
            self.cur.expect("=", "after the results")?;
        }
        self.cur.skip_ws();
        let op_at = self.cur.pos();
        let op = self.cur.expect_ident("an op name")?.to_owned();
        let def = check_op(&op).map_err(|m| self.err(op_at, m))?;
        let own: HashSet<&str> = results.iter().flatten().map(String::as_str).collect();
        let operands = self.operand_list(|p| {
            if p.cur.eat_keyword("none") {
                return Ok(SourceOperand::Absent);
            }
            if p.cur.eat("_") {
                return Ok(SourceOperand::Any);
            }
            let (n, at) = p
                .cur
                .value_name()
                .ok_or_else(|| p.cur.expected("an operand `%name`, `_` or `none`"))?;
            if own.contains(n) {
                return Err(p.err(at, format!("`%{n}` is read by the op that defines it")));
            }
            // A name not yet defined is an input of the pattern.
            if !scope.defined.contains(n) {
                scope.inputs.insert(n.to_owned());
            }
            Ok(SourceOperand::Tensor(n.to_owned()))
        })?;
        if let Some(def) = def {
            let results = (!results.is_empty()).then_some(results.len());
            self.check_arity(op_at, &op, def, operands.len(), results)?;
        }
        let attrs = self.attr_dict(&op, def, scope, true)?;
        Ok(SourceOp {
            results,
            op,
            operands,
            attrs,
        })
    }

    fn result_stmt(&mut self, scope: &mut Scope) -> Result<ResultStmt, ParseError> {
        let mut names = Vec::new();
        loop {
            self.cur.skip_ws();
            let at = self.cur.pos();
            let (n, _) = self
                .cur
                .value_name()
                .ok_or_else(|| self.cur.expected("a result `%name`"))?;
            if scope.inputs.contains(n) {
                return Err(self.err(
                    at,
                    format!("`%{n}` is an input of the pattern: a result cannot replace it"),
                ));
            }
            if scope.result_defined.contains(n) {
                return Err(self.err(at, format!("`%{n}` is defined twice in the result")));
            }
            names.push((n.to_owned(), at));
            if !self.cur.eat(",") {
                break;
            }
        }
        self.cur.expect("=", "after the result names")?;
        self.cur.skip_ws();
        let at = self.cur.pos();
        if let Some((value, _)) = self.cur.value_name() {
            if names.len() != 1 {
                return Err(self.err(at, "a replacement `%a = %b` names one tensor"));
            }
            scope.check_readable(value).map_err(|m| self.err(at, m))?;
            let name = names.remove(0).0;
            scope.result_defined.insert(name.clone());
            return Ok(ResultStmt::Alias {
                name,
                value: value.to_owned(),
            });
        }
        let op = self
            .cur
            .expect_ident("an op name or a `%tensor`")?
            .to_owned();
        let def = check_op(&op).map_err(|m| self.err(at, m))?;
        let operands = self.operand_list(|p| {
            if p.cur.eat_keyword("none") {
                return Ok(None);
            }
            let (n, at) = p
                .cur
                .value_name()
                .ok_or_else(|| p.cur.expected("an operand `%name` or `none`"))?;
            scope.check_readable(n).map_err(|m| p.err(at, m))?;
            Ok(Some(n.to_owned()))
        })?;
        if let Some(def) = def {
            self.check_arity(at, &op, def, operands.len(), Some(names.len()))?;
            for (input, operand) in def.inputs.iter().zip(&operands) {
                if operand.is_none() && !input.optional {
                    return Err(
                        self.err(at, format!("{op}'s input `{}` is not optional", input.name))
                    );
                }
            }
        }
        let attrs = self.attr_dict(&op, def, scope, false)?;
        if let Some(def) = def {
            let given: HashSet<&str> = attrs.iter().map(|(k, _)| k.as_str()).collect();
            for spec in def.attributes {
                if spec.default.is_none() && !given.contains(spec.name) {
                    return Err(self.err(
                        at,
                        format!("{op} needs attribute `{}` (it has no default)", spec.name),
                    ));
                }
            }
        }
        let mut types = Vec::new();
        if self.cur.eat(":") {
            loop {
                let tat = self.cur.pos();
                let e = self.expr()?;
                self.check_expr(&e, scope, tat, true)?;
                types.push(e);
                if !self.cur.eat(",") {
                    break;
                }
            }
            if types.len() != names.len() {
                return Err(self.err(
                    at,
                    format!("{} types for {} results", types.len(), names.len()),
                ));
            }
        } else if !pir_infer::has_inference(&op) {
            // Without inference a result takes the type of the source
            // tensor it replaces; a new one needs its type written.
            for (n, nat) in &names {
                if !scope.source_results.contains(n) {
                    return Err(self.err(
                        *nat,
                        format!("`%{n}` is new and `{op}` has no type inference: give its type (`: type(%t)`)"),
                    ));
                }
            }
        }
        let results: Vec<String> = names.into_iter().map(|(n, _)| n).collect();
        for n in &results {
            scope.result_defined.insert(n.clone());
        }
        Ok(ResultStmt::Op(ResultOp {
            results,
            op,
            operands,
            attrs,
            types,
        }))
    }

    /// `(item, item, ...)`: an op's operands.
    fn operand_list<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<T, ParseError>,
    ) -> Result<Vec<T>, ParseError> {
        self.cur.expect("(", "to open the operands")?;
        let mut items = Vec::new();
        if self.cur.eat(")") {
            return Ok(items);
        }
        loop {
            self.cur.skip_ws();
            items.push(item(self)?);
            if self.cur.eat(")") {
                return Ok(items);
            }
            self.cur.expect(",", "between operands")?;
        }
    }

    /// Operand and result counts against the op's definition (`results`:
    /// `None` when the rule names none).
    fn check_arity(
        &self,
        at: usize,
        op: &str,
        def: &pir_dialects::op_def::OpDef,
        operands: usize,
        results: Option<usize>,
    ) -> Result<(), ParseError> {
        if operands != def.inputs.len() {
            let n = def.inputs.len();
            return Err(self.err(at, format!("{op} has {n} operands, not {operands}")));
        }
        match results {
            Some(r) if r != def.outputs.len() => {
                let n = def.outputs.len();
                Err(self.err(at, format!("{op} has {n} results, not {r}")))
            }
            _ => Ok(()),
        }
    }

    /// `{name: expr, ...}` (optional). In a source op, a lone `$v` binds.
    fn attr_dict(
        &mut self,
        op: &str,
        def: Option<&'static pir_dialects::op_def::OpDef>,
        scope: &mut Scope,
        source: bool,
    ) -> Result<Vec<(String, Expr)>, ParseError> {
        let mut attrs: Vec<(String, Expr)> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        if !self.cur.eat("{") {
            return Ok(attrs);
        }
        if self.cur.eat("}") {
            return Ok(attrs);
        }
        loop {
            self.cur.skip_ws();
            let at = self.cur.pos();
            let name = self.cur.expect_ident("an attribute name")?.to_owned();
            if let Some(def) = def {
                if def.attribute(&name).is_none()
                    && !COMMON_ATTRS.contains(&name.as_str())
                    && !name.starts_with("__")
                {
                    return Err(self.err(at, format!("{op} has no attribute `{name}`")));
                }
            }
            if !seen.insert(name.clone()) {
                return Err(self.err(at, format!("attribute `{name}` is given twice")));
            }
            self.cur.expect(":", "after the attribute name")?;
            let eat = self.cur.pos();
            let e = self.expr()?;
            match (&e, source) {
                (Expr::Var(v), true) => {
                    scope.vars.insert(v.clone());
                }
                _ => self.check_expr(&e, scope, eat, false)?,
            }
            attrs.push((name, e));
            if self.cur.eat("}") {
                break;
            }
            self.cur.expect(",", "between attributes")?;
        }
        Ok(attrs)
    }

    /// Names in `e` must be known; `type(...)` only where types are given.
    fn check_expr(
        &self,
        e: &Expr,
        scope: &Scope,
        at: usize,
        type_position: bool,
    ) -> Result<(), ParseError> {
        let mut problem = None;
        visit(e, &mut |e| match e {
            Expr::Tensor(n) if problem.is_none() => {
                if let Err(m) = scope.check_readable(n) {
                    problem = Some(m);
                }
            }
            Expr::Var(v) if problem.is_none() && !scope.vars.contains(v) => {
                problem = Some(format!(
                    "`${v}` is not bound by a source attribute before this point"
                ));
            }
            Expr::Call(f, args) if problem.is_none() => {
                match super::eval::FUNCTIONS.iter().find(|(name, _, _)| name == f) {
                    None => {
                        let known: Vec<&str> =
                            super::eval::FUNCTIONS.iter().map(|(n, _, _)| *n).collect();
                        problem = Some(format!(
                            "unknown function `{f}` (known: {})",
                            known.join(", ")
                        ));
                    }
                    Some((_, arity, _)) if *arity != args.len() => {
                        problem = Some(format!(
                            "`{f}` takes {arity} argument(s), not {}",
                            args.len()
                        ));
                    }
                    Some(_) if f == "type" && !type_position => {
                        problem = Some("`type(...)` gives a result type, after `:`".into());
                    }
                    _ => {}
                }
            }
            _ => {}
        });
        match problem {
            Some(m) => Err(self.err(at, m)),
            None => Ok(()),
        }
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

/// Attributes an op may carry beyond its definition (besides Paddle's
/// runtime attributes, `__name__`).
const COMMON_ATTRS: [&str; 3] = ["stop_gradient", "persistable", "trainable"];

/// The op's definition; an error for names that are neither defined ops nor
/// `builtin.*`.
fn check_op(name: &str) -> Result<Option<&'static pir_dialects::op_def::OpDef>, String> {
    if let Some(def) = pir_dialects::op_def(name) {
        return Ok(Some(def));
    }
    if name.starts_with("builtin.") || name.starts_with("cf.") {
        return Ok(None);
    }
    Err(format!("unknown op `{name}` (not an op of Paddle 3.3.1)"))
}

/// Every source op must feed the last one, directly or not.
fn check_connected(pattern: &[SourceOp]) -> Result<(), String> {
    // Result names are defined once (the scope checks): a map finds each
    // operand's producer (a search per operand is quadratic in the rule).
    let mut producer: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, op) in pattern.iter().enumerate() {
        for r in op.results.iter().flatten() {
            producer.entry(r.as_str()).or_insert(i);
        }
    }
    let n = pattern.len();
    let mut reached = vec![false; n];
    reached[n - 1] = true;
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
        Some(i) => Err(format!(
            "source op {} ({}) does not feed the last source op: a pattern is rooted at its last op",
            i + 1,
            pattern[i].op
        )),
        None => Ok(()),
    }
}

fn visit(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match e {
        Expr::List(items) | Expr::Call(_, items) => items.iter().for_each(|i| visit(i, f)),
        Expr::Index(a, b) | Expr::Binary(_, a, b) => {
            visit(a, f);
            visit(b, f);
        }
        Expr::Unary(_, a) => visit(a, f),
        _ => {}
    }
}

/// Names known while a rule is read.
#[derive(Default)]
struct Scope {
    /// Tensors defined by source ops, in order.
    defined: HashSet<String>,
    /// Names defined by source ops (replaceable by results).
    source_results: HashSet<String>,
    /// Tensors read by the pattern but defined outside it.
    inputs: HashSet<String>,
    /// Names defined by result statements so far.
    result_defined: HashSet<String>,
    /// `$variables` bound by source attributes.
    vars: HashSet<String>,
}

impl Scope {
    fn define(&mut self, name: &str) -> bool {
        !self.inputs.contains(name) && self.defined.insert(name.to_owned())
    }

    fn check_readable(&self, name: &str) -> Result<(), String> {
        if self.defined.contains(name)
            || self.inputs.contains(name)
            || self.result_defined.contains(name)
        {
            Ok(())
        } else {
            Err(format!("`%{name}` is not a tensor of the pattern"))
        }
    }
}
