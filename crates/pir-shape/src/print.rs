//! The program annotated as Paddle's `ShapeOptimizationPass` prints it:
//! Paddle's text with ` { (fact), (fact) }` after each op (after the
//! closing `}` of an op with regions; ` {  }` for an op without results;
//! `()` for a result without a fact, such as an absent optional output).

use std::fmt::Write as _;

use pir_core::{BlockId, OpId, Program};

use crate::analysis::ShapeAnalysis;

/// The suffix Paddle's print hook writes after op `op`.
pub fn op_suffix(program: &Program, shapes: &ShapeAnalysis, op: OpId) -> String {
    let mut s = String::from(" { ");
    for (i, r) in program.results(op).enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        match shapes.fact(r) {
            None => s.push_str("()"),
            Some(f) => {
                let _ = write!(s, "({f})");
            }
        }
    }
    s.push_str(" }");
    s
}

/// Paddle's text of `program` with every op's facts.
pub fn annotated_text(program: &Program, shapes: &ShapeAnalysis) -> String {
    let text = String::from_utf8_lossy(&program.print_to_vec()).into_owned();
    let lines: Vec<&str> = text.split('\n').collect();
    let mut suffixes: Vec<Option<String>> = vec![None; lines.len()];
    let mut i = 0;
    walk_block(
        program,
        shapes,
        program.top_block(),
        4,
        &lines,
        &mut i,
        &mut suffixes,
        0,
    );
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    for (k, line) in lines.iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        out.push_str(line);
        if let Some(s) = &suffixes[k] {
            out.push_str(s);
        }
    }
    out
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_op_line(line: &str, indent: usize) -> bool {
    indent_of(line) == indent && line[indent..].starts_with('(')
}

/// Deepest nesting annotated (the readers bound nesting lower).
const MAX_NESTING: usize = 256;

/// Matches `block`'s ops, in print order, with their lines at `indent`.
#[allow(clippy::too_many_arguments)]
fn walk_block(
    program: &Program,
    shapes: &ShapeAnalysis,
    block: BlockId,
    indent: usize,
    lines: &[&str],
    i: &mut usize,
    suffixes: &mut [Option<String>],
    depth: usize,
) {
    if depth > MAX_NESTING {
        return;
    }
    for op in program.block_ops(block) {
        while *i < lines.len() && !is_op_line(lines[*i], indent) {
            *i += 1;
        }
        if *i >= lines.len() {
            return;
        }
        let start = *i;
        *i += 1;
        let mut end = start;
        if program.num_regions(op) > 0 {
            for region in program.regions(op) {
                for &b in program.region_blocks(region) {
                    walk_block(
                        program,
                        shapes,
                        b,
                        indent + 4,
                        lines,
                        i,
                        suffixes,
                        depth + 1,
                    );
                }
            }
            // The op ends at its last closing line at its own indentation.
            while *i < lines.len()
                && indent_of(lines[*i]) == indent
                && lines[*i][indent..].starts_with('}')
            {
                end = *i;
                *i += 1;
            }
        }
        suffixes[end] = Some(op_suffix(program, shapes, op));
    }
}
