//! Rules as text: what the parser reads back to equal rules.

use std::fmt::{self, Display, Formatter, Write as _};

use super::{Expr, ResultStmt, Rule, SourceOperand, UnaryOp};

fn tensor_list(names: &[Option<String>], absent: &str) -> String {
    let items: Vec<String> = names
        .iter()
        .map(|n| {
            n.as_ref()
                .map_or_else(|| absent.to_owned(), |n| format!("%{n}"))
        })
        .collect();
    items.join(", ")
}

fn attrs(list: &[(String, Expr)]) -> String {
    if list.is_empty() {
        return String::new();
    }
    let items: Vec<String> = list.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!(" {{{}}}", items.join(", "))
}

impl Display for Rule {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "rule {}", self.name)?;
        if self.benefit != 1 {
            write!(f, " benefit {}", self.benefit)?;
        }
        writeln!(f, " {{")?;
        for op in &self.pattern {
            f.write_str("    ")?;
            if !op.results.is_empty() {
                write!(f, "{} = ", tensor_list(&op.results, "_"))?;
            }
            let operands: Vec<String> = op
                .operands
                .iter()
                .map(|o| match o {
                    SourceOperand::Tensor(n) => format!("%{n}"),
                    SourceOperand::Any => "_".to_owned(),
                    SourceOperand::Absent => "none".to_owned(),
                })
                .collect();
            writeln!(f, "{}({}){}", op.op, operands.join(", "), attrs(&op.attrs))?;
        }
        for c in &self.constraints {
            writeln!(f, "    where {c}")?;
        }
        writeln!(f, "    =>")?;
        for stmt in &self.result {
            match stmt {
                ResultStmt::Alias { name, value } => writeln!(f, "    %{name} = %{value}")?,
                ResultStmt::Op(op) => {
                    f.write_str("    ")?;
                    if !op.results.is_empty() {
                        let names: Vec<String> =
                            op.results.iter().map(|n| format!("%{n}")).collect();
                        write!(f, "{} = ", names.join(", "))?;
                    }
                    let operands = tensor_list(&op.operands, "none");
                    write!(f, "{}({operands}){}", op.op, attrs(&op.attrs))?;
                    if !op.types.is_empty() {
                        let types: Vec<String> = op.types.iter().map(|t| t.to_string()).collect();
                        write!(f, " : {}", types.join(", "))?;
                    }
                    writeln!(f)?;
                }
            }
        }
        writeln!(f, "}}")
    }
}

/// Writes a string literal with `\"`, `\\`, `\n`, `\t` escaped.
fn quoted(s: &str) -> String {
    pir_core::visible::quoted(s, &[('\n', "\\n"), ('\t', "\\t")])
}

/// The shortest text of `v` that reads back to it, always with a `.` or an
/// exponent so it reads back as a float.
pub(super) fn float_text(v: f64) -> String {
    let mut s = format!("{v:?}");
    if v.is_finite() && !s.contains(['.', 'e', 'E']) {
        s.push_str(".0");
    }
    s
}

impl Expr {
    fn fmt_prec(&self, f: &mut Formatter<'_>, outer: u8) -> fmt::Result {
        match self {
            Expr::Int(v) => write!(f, "{v}"),
            Expr::Float(v) => f.write_str(&float_text(*v)),
            Expr::Bool(v) => write!(f, "{v}"),
            Expr::Str(s) => f.write_str(&quoted(s)),
            Expr::Word(w) => f.write_str(w),
            Expr::Tensor(n) => write!(f, "%{n}"),
            Expr::Var(n) => write!(f, "${n}"),
            Expr::List(items) => {
                f.write_char('[')?;
                for (i, e) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    e.fmt_prec(f, 0)?;
                }
                f.write_char(']')
            }
            Expr::Call(name, args) => {
                write!(f, "{name}(")?;
                for (i, e) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    e.fmt_prec(f, 0)?;
                }
                f.write_char(')')
            }
            Expr::Index(base, index) => {
                base.fmt_prec(f, 7)?;
                f.write_char('[')?;
                index.fmt_prec(f, 0)?;
                f.write_char(']')
            }
            Expr::Unary(op, e) => {
                f.write_char(match op {
                    UnaryOp::Neg => '-',
                    UnaryOp::Not => '!',
                })?;
                if matches!(**e, Expr::Int(_) | Expr::Float(_)) {
                    // `-1` reads back as the literal -1: keep the operator.
                    f.write_char('(')?;
                    e.fmt_prec(f, 0)?;
                    return f.write_char(')');
                }
                e.fmt_prec(f, 6)
            }
            Expr::Binary(op, a, b) => {
                let p = op.precedence();
                if p < outer {
                    f.write_char('(')?;
                }
                a.fmt_prec(f, p)?;
                write!(f, " {} ", op.symbol())?;
                // Operators associate to the left: a right operand of the
                // same strength needs parentheses.
                b.fmt_prec(f, p + 1)?;
                if p < outer {
                    f.write_char(')')?;
                }
                Ok(())
            }
        }
    }
}

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.fmt_prec(f, 0)
    }
}
