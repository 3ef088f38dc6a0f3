//! `pir diff A B [--stat] [--color WHEN]`: a structural comparison of two
//! models, in the manner of `llvm-diff`.
//!
//! Ops are matched first by what names them (a parameter's
//! `parameter_name`, a `data` op's `name`, a `fetch`'s `name`), then
//! through def-use from matched pairs (the defining ops of the operands at
//! the same position, the users of the results at the same operand
//! position, when their op names agree), then, for what is left, in order
//! within each pair of matched blocks (a longest common subsequence of op
//! names). A matched pair whose attributes, result types or operand wiring
//! differ is *changed*; unmatched ops are *removed* (only in A) or *added*
//! (only in B). Parameters bound from the files beside the models are
//! compared by dtype, shape and content. The exit code is 1 when anything
//! differs.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};

use pir_core::{BlockId, OpId, Program, ValueDef, ValueId};

use crate::cli::{ColorChoice, DiffArgs};
use crate::CliError;

/// Ops matched between two programs.
struct Matching {
    a_to_b: HashMap<OpId, OpId>,
    b_to_a: HashMap<OpId, OpId>,
}

impl Matching {
    fn pair(&mut self, a: OpId, b: OpId) -> bool {
        if self.a_to_b.contains_key(&a) || self.b_to_a.contains_key(&b) {
            return false;
        }
        self.a_to_b.insert(a, b);
        self.b_to_a.insert(b, a);
        true
    }
}

/// What names an op across versions of a model, if anything.
fn identity(p: &Program, op: OpId) -> Option<String> {
    let name = p.op_name_str(op);
    let key = match name {
        "builtin.parameter" => "parameter_name",
        "pd_op.data" | "pd_op.fetch" | "builtin.shadow_output" => "name",
        "builtin.set_parameter" => "parameter_name",
        _ => return None,
    };
    let attr = p.attr(op, key).or_else(|| p.attr(op, "output_name"))?;
    let s = p.ctx().attr_as::<pir_core::builtin::StrAttr>(attr)?;
    Some(format!("{name}:{}", s.0))
}

/// Every op of a program (nested ones included), in print order.
fn all_ops(p: &Program) -> Vec<OpId> {
    let mut ops = Vec::new();
    p.walk(p.module_op(), pir_core::walk::Order::Pre, &mut |op| {
        if op != p.module_op() {
            ops.push(op);
        }
    });
    ops
}

fn def_op(p: &Program, v: ValueId) -> Option<OpId> {
    match p.value_def(v) {
        ValueDef::Result { op, .. } => Some(op),
        _ => None,
    }
}

/// `(user, operand index)` of each use of `v`, in op order. The index comes
/// from the operand slot itself (constant time), not from a search of the
/// user's operands, which is quadratic for an op of thousands of operands.
fn users(p: &Program, v: ValueId) -> Vec<(OpId, usize)> {
    let mut out: Vec<(OpId, usize)> = p
        .uses(v)
        .map(|operand| (p.operand_owner(operand), p.operand_index(operand)))
        .collect();
    out.reverse();
    out
}

/// Pairs the users of two corresponding values: each user in A with the
/// first user in B at the same operand index, of the same op name, not yet
/// matched. B's users are grouped by (index, name) once, each group a queue
/// consumed from its front, so a value of n users costs O(n), not the O(n²)
/// of searching B's users for each user in A.
fn pair_users(
    a: &Program,
    b: &Program,
    ua: &[(OpId, usize)],
    ub: &[(OpId, usize)],
    m: &mut Matching,
    queue: &mut VecDeque<(OpId, OpId)>,
) {
    let mut groups: HashMap<(usize, &str), VecDeque<OpId>> = HashMap::new();
    for &(user_b, ib) in ub {
        groups
            .entry((ib, b.op_name_str(user_b)))
            .or_default()
            .push_back(user_b);
    }
    for &(user_a, ia) in ua {
        if m.a_to_b.contains_key(&user_a) {
            continue;
        }
        let Some(group) = groups.get_mut(&(ia, a.op_name_str(user_a))) else {
            continue;
        };
        // a user matched since the grouping (or twice in the group, using
        // the value at one index twice) is dropped for good: matches are
        // never undone
        while let Some(user_b) = group.pop_front() {
            if m.pair(user_a, user_b) {
                queue.push_back((user_a, user_b));
                break;
            }
        }
    }
}

fn match_programs(a: &Program, b: &Program) -> Matching {
    let mut m = Matching {
        a_to_b: HashMap::new(),
        b_to_a: HashMap::new(),
    };
    // 1. Ops named by an attribute.
    let mut named: HashMap<String, OpId> = HashMap::new();
    for op in all_ops(b) {
        if let Some(id) = identity(b, op) {
            named.entry(id).or_insert(op);
        }
    }
    let mut queue = VecDeque::new();
    for op in all_ops(a) {
        if let Some(other) = identity(a, op).and_then(|id| named.get(&id)) {
            if m.pair(op, *other) {
                queue.push_back((op, *other));
            }
        }
    }
    // The module ops and their top blocks correspond.
    let mut blocks = vec![(a.top_block(), b.top_block())];
    loop {
        // 2. Through def-use from every matched pair.
        while let Some((x, y)) = queue.pop_front() {
            let same_name = |p: OpId, q: OpId| {
                a.op_name(p) == b.op_name(q) || a.op_name_str(p) == b.op_name_str(q)
            };
            for (va, vb) in a.operands(x).zip(b.operands(y)) {
                if let (Some(va), Some(vb)) = (va, vb) {
                    if let (Some(da), Some(db)) = (def_op(a, va), def_op(b, vb)) {
                        if same_name(da, db) && m.pair(da, db) {
                            queue.push_back((da, db));
                        }
                    }
                }
            }
            for (ra, rb) in a.results(x).zip(b.results(y)) {
                pair_users(a, b, &users(a, ra), &users(b, rb), &mut m, &mut queue);
            }
            for (ra, rb) in a.regions(x).zip(b.regions(y)) {
                for (&ba, &bb) in a.region_blocks(ra).iter().zip(b.region_blocks(rb)) {
                    blocks.push((ba, bb));
                }
            }
        }
        // 3. What is left, in order within matched blocks.
        let Some((ba, bb)) = blocks.pop() else {
            break;
        };
        for (x, y) in align_block(a, b, ba, bb, &m) {
            if m.pair(x, y) {
                queue.push_back((x, y));
            }
        }
    }
    m
}

/// The longest common subsequence (by op name) of the unmatched ops of two
/// blocks.
fn align_block(
    a: &Program,
    b: &Program,
    ba: BlockId,
    bb: BlockId,
    m: &Matching,
) -> Vec<(OpId, OpId)> {
    let xs: Vec<OpId> = a
        .block_ops(ba)
        .filter(|o| !m.a_to_b.contains_key(o))
        .collect();
    let ys: Vec<OpId> = b
        .block_ops(bb)
        .filter(|o| !m.b_to_a.contains_key(o))
        .collect();
    // Quadratic table; past this size, pair equal names greedily in order:
    // each op of A with the next op of B of its name after the last pair,
    // found by a binary search in the positions of that name (a scan of B
    // per op of A is quadratic when few names agree).
    if xs.len().saturating_mul(ys.len()) > 4_000_000 {
        let mut positions: HashMap<&str, Vec<usize>> = HashMap::new();
        for (j, &y) in ys.iter().enumerate() {
            positions.entry(b.op_name_str(y)).or_default().push(j);
        }
        let mut out = Vec::new();
        let mut j = 0;
        for &x in &xs {
            let Some(at) = positions.get(a.op_name_str(x)) else {
                continue;
            };
            if let Some(&k) = at.get(at.partition_point(|&k| k < j)) {
                if let Some(&y) = ys.get(k) {
                    out.push((x, y));
                }
                j = k + 1;
            }
        }
        return out;
    }
    let (n, k) = (xs.len(), ys.len());
    let mut table = vec![0u32; (n + 1) * (k + 1)];
    let at = |i: usize, j: usize| i * (k + 1) + j;
    for i in (0..n).rev() {
        for j in (0..k).rev() {
            table[at(i, j)] = if a.op_name_str(xs[i]) == b.op_name_str(ys[j]) {
                table[at(i + 1, j + 1)] + 1
            } else {
                table[at(i + 1, j)].max(table[at(i, j + 1)])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n && j < k {
        if a.op_name_str(xs[i]) == b.op_name_str(ys[j]) {
            out.push((xs[i], ys[j]));
            i += 1;
            j += 1;
        } else if table[at(i + 1, j)] >= table[at(i, j + 1)] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// Value names as the print gives them (`%0`, `%1`, … in print order; block
/// arguments `%arg_N`).
fn value_names(p: &Program) -> HashMap<ValueId, String> {
    let mut names = HashMap::new();
    let (mut next, mut next_arg) = (0usize, 0usize);
    p.walk(p.module_op(), pir_core::walk::Order::Pre, &mut |op| {
        for r in p.results(op) {
            names.insert(r, format!("%{next}"));
            next += 1;
        }
        for region in p.regions(op) {
            for &block in p.region_blocks(region) {
                for &arg in p.block_args(block) {
                    names.insert(arg, format!("%arg_{next_arg}"));
                    next_arg += 1;
                }
            }
        }
    });
    names
}

/// One line for an op: `(%3) = pd_op.relu (%2)`.
fn op_line(p: &Program, op: OpId, names: &HashMap<ValueId, String>) -> String {
    let name = |v: ValueId| names.get(&v).cloned().unwrap_or_else(|| "%?".into());
    let results: Vec<String> = p.results(op).map(name).collect();
    let operands: Vec<String> = p
        .operands(op)
        .map(|v| v.map_or_else(|| "<<NULL>>".into(), name))
        .collect();
    let mut line = format!(
        "({}) = {} ({})",
        results.join(", "),
        p.op_name_str(op),
        operands.join(", ")
    );
    if let Some(id) = identity(p, op) {
        let _ = write!(
            line,
            "  [{}]",
            id.split_once(':').map_or(id.as_str(), |x| x.1)
        );
    }
    line
}

/// What differs between two matched ops.
fn op_changes(a: &Program, b: &Program, x: OpId, y: OpId, m: &Matching) -> Vec<String> {
    let (ca, cb) = (a.ctx(), b.ctx());
    let mut out = Vec::new();
    let attrs = |p: &Program, op: OpId| -> Vec<(String, String)> {
        let ctx = p.ctx();
        ctx.dict_entries(p.attrs(op))
            .iter()
            .map(|&(n, v)| (ctx.symbol_str(n).to_owned(), ctx.display_attr(v)))
            .collect()
    };
    let (aa, ab) = (attrs(a, x), attrs(b, y));
    // by name: an op may carry many attributes
    let in_a: HashSet<&str> = aa.iter().map(|(n, _)| n.as_str()).collect();
    let in_b: HashMap<&str, &str> = ab.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    for (name, va) in &aa {
        match in_b.get(name.as_str()) {
            None => out.push(format!("attribute {name}: {va} -> (none)")),
            Some(vb) if vb != va => out.push(format!("attribute {name}: {va} -> {vb}")),
            _ => {}
        }
    }
    for (name, vb) in &ab {
        if !in_a.contains(name.as_str()) {
            out.push(format!("attribute {name}: (none) -> {vb}"));
        }
    }
    changed(&mut out, "results", a.num_results(x), b.num_results(y));
    for (i, (ra, rb)) in a.results(x).zip(b.results(y)).enumerate() {
        let (ta, tb) = (
            ca.display_type(a.value_type(ra)),
            cb.display_type(b.value_type(rb)),
        );
        if ta != tb {
            out.push(format!("result {i} type: {ta} -> {tb}"));
        }
    }
    changed(&mut out, "operands", a.num_operands(x), b.num_operands(y));
    for (i, (va, vb)) in a.operands(x).zip(b.operands(y)).enumerate() {
        let same = match (va, vb) {
            (None, None) => true,
            (Some(va), Some(vb)) => match (a.value_def(va), b.value_def(vb)) {
                (
                    ValueDef::Result { op: da, index: ia },
                    ValueDef::Result { op: db, index: ib },
                ) => ia == ib && m.a_to_b.get(&da) == Some(&db),
                (ValueDef::BlockArg { index: ia, .. }, ValueDef::BlockArg { index: ib, .. }) => {
                    ia == ib
                }
                _ => false,
            },
            _ => false,
        };
        if !same {
            out.push(format!("operand {i} comes from a different value"));
        }
    }
    out
}

/// Colours for the report (ANSI; empty when off).
struct Paint {
    red: &'static str,
    green: &'static str,
    yellow: &'static str,
    bold: &'static str,
    reset: &'static str,
}

impl Paint {
    const ON: Paint = Paint {
        red: "\x1b[31m",
        green: "\x1b[32m",
        yellow: "\x1b[33m",
        bold: "\x1b[1m",
        reset: "\x1b[0m",
    };
    const OFF: Paint = Paint {
        red: "",
        green: "",
        yellow: "",
        bold: "",
        reset: "",
    };
}

/// Parameter differences: `name: what`.
fn parameter_changes(a: &pir::Model, b: &pir::Model) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let (na, nb) = (a.parameter_names(), b.parameter_names());
    // sets: a model may have tens of thousands of parameters
    let (set_a, set_b): (HashSet<&str>, HashSet<&str>) = (
        na.iter().map(String::as_str).collect(),
        nb.iter().map(String::as_str).collect(),
    );
    for name in &na {
        let (Some(ta), Some(tb)) = (a.tensor(name), b.tensor(name)) else {
            continue;
        };
        let describe =
            |t: &pir_params::Tensor| format!("{} {:?}", t.dtype().paddle_name(), t.dims());
        if ta.dtype() != tb.dtype() || ta.dims() != tb.dims() {
            out.push((
                name.clone(),
                format!("{} -> {}", describe(ta), describe(tb)),
            ));
        } else if ta.bytes() != tb.bytes() {
            let differing = ta
                .bytes()
                .chunks(ta.dtype().size().max(1))
                .zip(tb.bytes().chunks(tb.dtype().size().max(1)))
                .filter(|(x, y)| x != y)
                .count();
            out.push((
                name.clone(),
                format!("data differs in {differing} of {} elements", ta.numel()),
            ));
        }
    }
    for name in &na {
        if !set_b.contains(name.as_str()) && a.tensor(name).is_some() {
            out.push((name.clone(), "only in A".into()));
        }
    }
    for name in &nb {
        if !set_a.contains(name.as_str()) && b.tensor(name).is_some() {
            out.push((name.clone(), "only in B".into()));
        }
    }
    out
}

/// Runs `pir diff`.
pub fn run(args: &DiffArgs) -> Result<(), CliError> {
    if crate::input::is_stdio(&args.a) && crate::input::is_stdio(&args.b) {
        return Err(CliError::Usage(
            "`pir diff - -`: only one of the two models can be read from standard input".into(),
        ));
    }
    let load = crate::input::load_model;
    let (ma, mb) = (load(&args.a)?, load(&args.b)?);
    let (a, b) = (&ma.program, &mb.program);
    let m = match_programs(a, b);
    let (names_a, names_b) = (value_names(a), value_names(b));
    let removed: Vec<OpId> = all_ops(a)
        .into_iter()
        .filter(|o| !m.a_to_b.contains_key(o))
        .collect();
    let added: Vec<OpId> = all_ops(b)
        .into_iter()
        .filter(|o| !m.b_to_a.contains_key(o))
        .collect();
    let mut changed = Vec::new();
    for x in all_ops(a) {
        if let Some(&y) = m.a_to_b.get(&x) {
            let changes = op_changes(a, b, x, y, &m);
            if !changes.is_empty() {
                changed.push((x, y, changes));
            }
        }
    }
    let params = parameter_changes(&ma, &mb);
    let differ =
        !removed.is_empty() || !added.is_empty() || !changed.is_empty() || !params.is_empty();
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    };
    let c = if color { Paint::ON } else { Paint::OFF };
    let mut out = String::new();
    if args.stat {
        let _ = writeln!(
            out,
            "{} ops in A, {} in B: {} matched ({} changed), {}{} removed{}, {}{} added{}; {} parameters differ",
            all_ops(a).len(),
            all_ops(b).len(),
            m.a_to_b.len(),
            changed.len(),
            c.red,
            removed.len(),
            c.reset,
            c.green,
            added.len(),
            c.reset,
            params.len()
        );
    } else {
        let _ = writeln!(out, "{}--- {}{}", c.bold, args.a.display(), c.reset);
        let _ = writeln!(out, "{}+++ {}{}", c.bold, args.b.display(), c.reset);
        for &op in &removed {
            let _ = writeln!(out, "{}- {}{}", c.red, op_line(a, op, &names_a), c.reset);
        }
        for &op in &added {
            let _ = writeln!(out, "{}+ {}{}", c.green, op_line(b, op, &names_b), c.reset);
        }
        for (x, y, changes) in &changed {
            let _ = writeln!(
                out,
                "{}~ {}{}\n{}  {}{}",
                c.yellow,
                op_line(a, *x, &names_a),
                c.reset,
                c.yellow,
                op_line(b, *y, &names_b),
                c.reset
            );
            for change in changes {
                let _ = writeln!(out, "    {change}");
            }
        }
        for (name, what) in &params {
            let _ = writeln!(out, "{}~ parameter {name}: {what}{}", c.yellow, c.reset);
        }
        if !differ {
            let _ = writeln!(out, "no differences ({} ops)", m.a_to_b.len());
        }
    }
    std::io::stdout().write_all(out.as_bytes())?;
    if differ {
        return Err(CliError::Differ);
    }
    Ok(())
}

/// Notes `what: a -> b` when the two differ.
fn changed(out: &mut Vec<String>, what: &str, a: usize, b: usize) {
    if a != b {
        out.push(format!("{what}: {a} -> {b}"));
    }
}
