//! Paddle's own result types for sampled ops, re-inferred.
//!
//! `tests/vectors/paddle-3.3.1.txt` holds small programs built by Paddle
//! 3.3.1 (`scripts/paddle_check_infer.py`, run by hand): for each pd_op op
//! with an InferMeta function, a few calls on sampled operand shapes,
//! dtypes and attributes, each printed by Paddle after its InferMeta
//! function typed the results. The file ships in the repository, so this
//! test needs nothing but it.
//!
//! Every op of every program is re-inferred:
//! - an op with inference must give Paddle's types exactly, and must not
//!   refuse an op Paddle accepted;
//! - an op without inference is counted and reported, not failed;
//! - a case where Paddle's function reads a dim past its tensor's rank (the
//!   sampled operand has fewer dims than the op expects: undefined in
//!   Paddle, refused here) is reported, not failed, as are the cases of
//!   [`UNDEFINED`];
//! - a tensor array's dims are not in Paddle's print (the reader gives
//!   them as unknown), so only its element type and layout are compared.
//!
//! `PIR_PADDLE_VECTORS=FILE` checks another file of the same form.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use pir_core::builtin::{DenseTensorType, VectorType};
use pir_core::{IrContext, Program, Type};
use pir_dialects::pd_op::DenseTensorArrayType;
use pir_infer::{display_types, InferError, Inferer, OpCheck};

/// The vector file in the repository.
const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/vectors/paddle-3.3.1.txt"
);

/// The line that starts a case: `=== <op> #<n> | <what the case gives>`.
const CASE_MARK: &str = "=== ";

/// Mismatches printed in full when the test fails.
const SHOWN: usize = 30;

/// Why the `cross_entropy_with_softmax` cases of [`UNDEFINED`] are there.
const LABEL_RANK: &str =
    "label of lower rank than logits: CrossEntropyWithSoftmaxInferMeta compares labels_dims[i] past its rank";

/// Cases where Paddle's function reads memory past a tensor's dims, by
/// label (`<op> #<n>`), with the reason: whether Paddle accepts them and
/// what it gives are not a rule to match.
const UNDEFINED: &[(&str, &str)] = &[
    ("pd_op.cross_entropy_with_softmax #1", LABEL_RANK),
    ("pd_op.cross_entropy_with_softmax #2", LABEL_RANK),
    ("pd_op.cross_entropy_with_softmax #5", LABEL_RANK),
    ("pd_op.cross_entropy_with_softmax #6", LABEL_RANK),
    ("pd_op.cross_entropy_with_softmax #7", LABEL_RANK),
    (
        "pd_op.c_softmax_with_multi_label_cross_entropy #7",
        "0-d logits: the function indexes logits_dims[rank - 1]",
    ),
    (
        "pd_op.margin_cross_entropy #2",
        "0-d logits: MarginCrossEntropyInferMeta indexes logits_dims[rank - 1]",
    ),
    (
        "pd_op.margin_cross_entropy #3",
        "0-d logits: MarginCrossEntropyInferMeta indexes logits_dims[rank - 1]",
    ),
    (
        "pd_op.norm #5",
        "0-d x with axis -1: NormInferMeta indexes x_dims[axis + rank]",
    ),
    (
        "pd_op.swiglu #5",
        "0-d x without y: SwiGLUInferMeta halves x_dims[rank - 1]",
    ),
];

/// Refusals that say the function read a dim past its tensor's rank.
fn reads_past_rank(message: &str) -> bool {
    message.contains(" of a rank-") || message.contains("0-d tensor has no last dim")
}

/// Whether a stored and an inferred result agree as far as Paddle's print
/// tells: equal, absent in the print (an optional result the op was built
/// without), or tensor arrays of one element type and layout (their dims
/// are not printed).
fn agree_in_print(ctx: &IrContext, stored: Type, inferred: Type) -> bool {
    if stored == inferred || stored.is_null() {
        return true;
    }
    if let (Some(s), Some(i)) = (
        ctx.type_as::<VectorType>(stored),
        ctx.type_as::<VectorType>(inferred),
    ) {
        return s.0.len() == i.0.len()
            && s.0
                .iter()
                .zip(i.0.iter())
                .all(|(&a, &b)| agree_in_print(ctx, a, b));
    }
    if let (Some(s), Some(i)) = (
        ctx.type_as::<DenseTensorType>(stored),
        ctx.type_as::<DenseTensorType>(inferred),
    ) {
        // A result the InferMeta leaves alone keeps the builder's fresh
        // `IrTensor`, whose unset dims Paddle's live print shows as `0x`
        // and its files (and this IR) hold as 0-d (`Meta::unset_dims`).
        return s.dims.as_ref() == [0]
            && i.dims.is_empty()
            && DenseTensorType {
                dims: i.dims.clone(),
                ..s.clone()
            } == *i;
    }
    match (
        ctx.type_as::<DenseTensorArrayType>(stored),
        ctx.type_as::<DenseTensorArrayType>(inferred),
    ) {
        (Some(s), Some(i)) => s.dtype == i.dtype && s.layout == i.layout,
        _ => false,
    }
}

/// One program of the file.
struct Case<'a> {
    /// `<op> #<n> | <what>`: names the case in messages.
    label: &'a str,
    /// The op the case was built for.
    op: &'a str,
    /// Line of the case mark (1-based), to find it in the file.
    line: usize,
    /// Paddle's print of the program.
    text: String,
}

/// Splits the file into cases; `#` lines before the first case are its header.
fn cases(file: &str) -> Vec<Case<'_>> {
    let mut out: Vec<Case<'_>> = Vec::new();
    for (i, line) in file.lines().enumerate() {
        if let Some(label) = line.strip_prefix(CASE_MARK) {
            let op = label.split_whitespace().next().unwrap_or_default();
            out.push(Case {
                label,
                op,
                line: i + 1,
                text: String::new(),
            });
        } else if let Some(case) = out.last_mut() {
            case.text.push_str(line);
            case.text.push('\n');
        }
    }
    out
}

/// What the check found over all cases.
#[derive(Default)]
struct Tally {
    cases: usize,
    /// Ops the cases were built for.
    targets: BTreeSet<String>,
    /// Of those, ops with inference.
    checked: BTreeSet<String>,
    /// Ops compared (any op of any program, with inference).
    ops_compared: usize,
    /// Ops without inference, and how many times each was met.
    without: BTreeMap<String, usize>,
    /// Cases set aside as undefined in Paddle (see [`UNDEFINED`] and
    /// [`reads_past_rank`]), one line each.
    undefined: Vec<String>,
    /// Mismatches (differing types or refusals) by op.
    by_op: BTreeMap<String, usize>,
    /// One line per mismatch.
    failures: Vec<String>,
}

/// The reason a case is in [`UNDEFINED`], if it is.
fn undefined_case(case: &Case<'_>) -> Option<&'static str> {
    let name = case.label.split(" |").next().unwrap_or_default().trim();
    UNDEFINED
        .iter()
        .find(|(label, _)| *label == name)
        .map(|&(_, why)| why)
}

fn check_case(ctx: &std::sync::Arc<IrContext>, inferer: &Inferer, case: &Case<'_>, t: &mut Tally) {
    t.cases += 1;
    t.targets.insert(case.op.to_owned());
    if inferer.has_inference(ctx.symbol(case.op)) {
        t.checked.insert(case.op.to_owned());
    }
    let loaded = match pir_serde::read_text(ctx.clone(), &case.text) {
        Ok(l) => l,
        Err(e) => {
            *t.by_op.entry(case.op.to_owned()).or_default() += 1;
            t.failures.push(format!(
                "line {} `{}`: Paddle's print does not parse: {e}",
                case.line, case.label
            ));
            return;
        }
    };
    let program: &Program = &loaded.program;
    let r = inferer.check_program(program);
    t.ops_compared += r.checked;
    for (_, op, outcome) in &r.reports {
        let name = program.op_name_str(*op);
        let has = inferer.has_inference(program.op_name(*op));
        if matches!(outcome, OpCheck::Error(_) | OpCheck::Differ { .. }) && has {
            if let Some(why) = undefined_case(case).filter(|_| name == case.op) {
                t.undefined.push(format!(
                    "line {} `{}`: {name}: {why}",
                    case.line, case.label
                ));
                continue;
            }
        }
        let what = match outcome {
            OpCheck::Equal | OpCheck::Declared => continue,
            OpCheck::Error(_) if !has => {
                *t.without.entry(name.to_owned()).or_default() += 1;
                continue;
            }
            OpCheck::Error(InferError::Invalid { message, .. }) if reads_past_rank(message) => {
                t.undefined.push(format!(
                    "line {} `{}`: {name}: Paddle reads past a tensor's rank ({message})",
                    case.line, case.label
                ));
                continue;
            }
            OpCheck::Error(e) => format!("refused what Paddle accepted: {e}"),
            OpCheck::Differ { stored, inferred }
                if stored.len() == inferred.len()
                    && stored
                        .iter()
                        .zip(inferred)
                        .all(|(&s, &i)| agree_in_print(ctx, s, i)) =>
            {
                continue
            }
            OpCheck::Differ { stored, inferred } => {
                let ins: Vec<Type> = program
                    .operands(*op)
                    .map(|v| v.map_or(Type::NULL, |v| program.value_type(v)))
                    .collect();
                format!(
                    "in [{}] stored [{}] inferred [{}]",
                    display_types(ctx, &ins),
                    display_types(ctx, stored),
                    display_types(ctx, inferred)
                )
            }
        };
        *t.by_op.entry(name.to_owned()).or_default() += 1;
        t.failures.push(format!(
            "line {} `{}`: {name}: {what}",
            case.line, case.label
        ));
    }
}

#[test]
fn inferred_types_equal_paddles() {
    let path = std::env::var("PIR_PADDLE_VECTORS").unwrap_or_else(|_| VECTORS.to_owned());
    let file = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading the Paddle vectors {path}: {e}"));
    let ctx = pir_dialects::pd_op_context();
    let inferer = Inferer::new(&ctx);
    let all = cases(&file);
    assert!(!all.is_empty(), "{path}: no cases (`{CASE_MARK}` lines)");
    let mut t = Tally::default();
    for case in &all {
        check_case(&ctx, &inferer, case, &mut t);
    }

    eprintln!(
        "paddle vectors: {} cases, {} ops covered by cases, {} of them with inference, \
         {} ops compared, {} mismatches",
        t.cases,
        t.targets.len(),
        t.checked.len(),
        t.ops_compared,
        t.failures.len()
    );
    let without: Vec<String> = t
        .without
        .iter()
        .map(|(n, c)| format!("{n} ({c})"))
        .collect();
    eprintln!(
        "without inference ({} ops): {}",
        without.len(),
        without.join(", ")
    );
    eprintln!(
        "undefined in Paddle, not checked ({} cases):",
        t.undefined.len()
    );
    for u in &t.undefined {
        eprintln!("  {u}");
    }
    if !t.by_op.is_empty() {
        let by_op: Vec<String> = t.by_op.iter().map(|(n, c)| format!("{n} ({c})")).collect();
        eprintln!("mismatches by op: {}", by_op.join(", "));
    }
    let mut report = String::new();
    for f in t.failures.iter().take(SHOWN) {
        let _ = writeln!(report, "  {f}");
    }
    if t.failures.len() > SHOWN {
        let _ = writeln!(report, "  ... and {} more", t.failures.len() - SHOWN);
    }
    assert!(
        t.failures.is_empty(),
        "{} ops differ from Paddle's InferMeta or refuse what it accepted ({path}):\n{report}",
        t.failures.len()
    );
}
