//! Runs inference over every op of every model of the corpus in use and
//! asserts that it gives the stored type wherever it gives a type.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pir_core::IrContext;
use pir_infer::{display_type_or_null, display_types, Inferer, OpCheck};

#[derive(Default)]
struct Tally {
    files: usize,
    checked: usize,
    equal: usize,
    without: BTreeMap<String, usize>,
    differ: BTreeMap<String, usize>,
    examples: Vec<String>,
}

impl Tally {
    /// Prints the counts, the ops without inference and those whose types
    /// differ, and the examples, each line after `what`.
    fn report(&self, what: &str) {
        eprintln!(
            "{what}files {}, ops checked {}, equal {}, differing {}",
            self.files,
            self.checked,
            self.equal,
            self.checked - self.equal
        );
        eprintln!("{what}without inference: {:?}", self.without);
        eprintln!("{what}differing by op: {:?}", self.differ);
        for e in &self.examples {
            eprintln!("  {e}");
        }
    }
}

fn check(
    ctx: &Arc<IrContext>,
    inferer: &Inferer,
    label: &str,
    program: &pir_core::Program,
    t: &mut Tally,
) {
    let r = inferer.check_program(program);
    t.files += 1;
    t.checked += r.checked;
    t.equal += r.equal;
    for (path, op, c) in &r.reports {
        let name = program.op_name_str(*op).to_owned();
        match c {
            OpCheck::Equal | OpCheck::Declared => {}
            OpCheck::Error(e) => {
                if matches!(e, pir_infer::InferError::Invalid { .. }) && t.examples.len() < 400 {
                    t.examples.push(format!("{label} {path:?}: {e}"));
                }
                *t.without.entry(name).or_default() += 1;
            }
            OpCheck::Differ { stored, inferred } => {
                if t.examples.len() < 400 {
                    let ins: Vec<String> = program
                        .operands(*op)
                        .map(|v| {
                            v.map_or("none".into(), |v| {
                                display_type_or_null(ctx, program.value_type(v))
                            })
                        })
                        .collect();
                    t.examples.push(format!(
                        "{label} {path:?} {name}: in [{}] stored [{}] inferred [{}]",
                        ins.join(", "),
                        display_types(ctx, stored),
                        display_types(ctx, inferred)
                    ));
                }
                *t.differ.entry(name).or_default() += 1;
            }
        }
    }
}

fn legacy_models(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            legacy_models(&p, out);
        } else if p.extension().is_some_and(|x| x == "pdmodel") {
            out.push(p);
        }
    }
}

/// Translated legacy ops whose stored types may differ from InferMeta's.
///
/// Paddle's translator (`paddle/fluid/ir_adaptor/translator/op_translator.cc`)
/// creates an op of the general path with `pir::Operation::Create` and the
/// result types `OpTranscriber::GenerateOperationOutput` gives it: each
/// result is the type of the legacy variable it writes (its `VarDesc`,
/// through `TypeTranslator`), and no InferMeta function runs. A result is
/// then what the legacy program's compile-time `InferShape` recorded:
///
/// - `pd_op.batch_norm_`: the saved mean and variance variables are stored
///   0-d (`tensor<f32>`) and the reserve space is absent (null);
/// - `pd_op.matmul`, `pd_op.embedding`: variables of `matmul` v1 /
///   `lookup_table` v1 (`embedding` drops a trailing 1 of the ids, `matmul`
///   keeps the dims the legacy graph recorded);
/// - `pd_op.rnn`, `pd_op.sequence_pool`, `pd_op.kthvalue`, `pd_op.mode`:
///   the dropout state, reserve, max-index and indices variables keep their
///   legacy types (uint8, float32);
/// - `pd_op.lu`: the `infos` variable of a 2-d input keeps the legacy
///   dims `[0]` where Paddle 3.3.1's `LUInferMeta` gives 0-d;
/// - `pd_op.reshape`, `pd_op.expand`, `pd_op.tile`, `pd_op.split`,
///   `pd_op.concat`, `pd_op.squeeze`, `pd_op.topk`, `pd_op.strided_slice`,
///   `pd_op.bilinear_interp`, `pd_op.full_with_tensor`, `pd_op.uniform`:
///   an attribute given by a tensor, which the legacy `InferShape` reads
///   as unknown where the IR builders read the constant behind it (or the
///   other way round);
/// - `pd_op.create_array`, `pd_op.array_read`, `pd_op.array_to_tensor`:
///   tensor-array variables whose element dims the legacy graph records;
/// - `pd_op.beam_search`, `pd_op.det`, `pd_op.lstsq`, `pd_op.matrix_nms`,
///   `pd_op.unique`, `pd_op.unique_consecutive`, `pd_op.viterbi_decode`,
///   `pd_op.linspace`, `pd_op.logspace`: outputs whose dims or dtype the
///   Paddle 2.6 `InferShape` (or its run) recorded differently from Paddle
///   3.3.1's InferMeta (a count tensor's dims, a batch of determinants,
///   an index dtype, a 1-d unique's dtype the 3.3.1 function leaves
///   float32, a length read from a tensor as unknown);
/// - `pd_op.equal_all`, `pd_op.crf_decoding`, `pd_op.ctc_align`,
///   `pd_op.dequantize_abs_max`, `pd_op.dequantize_log`,
///   `pd_op.generate_proposals`: outputs whose dtype or dims Paddle 2.6
///   set where Paddle 3.3.1's function leaves them (its builder gives
///   `equal_all` float32, `crf_decoding` float32, the dequantizations
///   their input's int8: checked by building each in Paddle 3.3.1).
const TYPED_FROM_VARIABLES: &[&str] = &[
    "pd_op.array_read",
    "pd_op.array_to_tensor",
    "pd_op.batch_norm_",
    "pd_op.beam_search",
    "pd_op.bilinear_interp",
    "pd_op.concat",
    "pd_op.create_array",
    "pd_op.crf_decoding",
    "pd_op.ctc_align",
    "pd_op.dequantize_abs_max",
    "pd_op.dequantize_log",
    "pd_op.det",
    "pd_op.embedding",
    "pd_op.equal_all",
    "pd_op.expand",
    "pd_op.full_with_tensor",
    "pd_op.generate_proposals",
    "pd_op.kthvalue",
    "pd_op.linspace",
    "pd_op.logspace",
    "pd_op.lstsq",
    "pd_op.lu",
    "pd_op.matmul",
    "pd_op.matrix_nms",
    "pd_op.mode",
    "pd_op.reshape",
    "pd_op.rnn",
    "pd_op.sequence_pool",
    "pd_op.split",
    "pd_op.squeeze",
    "pd_op.strided_slice",
    "pd_op.tile",
    "pd_op.topk",
    "pd_op.uniform",
    "pd_op.unique",
    "pd_op.unique_consecutive",
    "pd_op.viterbi_decode",
];

#[test]
fn inferred_types_equal_stored_types() {
    let ctx = pir_dialects::pd_op_context();
    let inferer = Inferer::new(&ctx);
    let mut t = Tally::default();
    let mut models = pir_corpus::models();
    models.extend(pir_corpus::compat_models());
    models.extend(pir_corpus::control_flow_models());
    let options = pir_serde::ReadOptions::default();
    for m in &models {
        let loaded = pir_serde::read_file(ctx.clone(), &m.json(), &options)
            .unwrap_or_else(|e| panic!("{}: {e}", m.label()));
        check(&ctx, &inferer, &m.label(), &loaded.program, &mut t);
    }
    let mut legacy = Vec::new();
    legacy_models(
        &pir_corpus::repo_root().join("tests/corpus/legacy"),
        &mut legacy,
    );
    if pir_corpus::full_corpus_available() {
        legacy_models(
            &pir_corpus::repo_root().join("../shared/legacy-corpus"),
            &mut legacy,
        );
        legacy_models(&pir_corpus::corpus_dir(), &mut legacy);
    }
    legacy.sort();
    legacy.dedup();
    // Paddle's translator types most ops' results from the legacy program's
    // variables, not by InferMeta: see `TYPED_FROM_VARIABLES`.
    let mut lt = Tally::default();
    for path in &legacy {
        match pir_legacy::load_file(path, ctx.clone(), pir_legacy::Options::default()) {
            Ok(program) => check(
                &ctx,
                &inferer,
                &path.display().to_string(),
                &program,
                &mut lt,
            ),
            Err(e) => eprintln!("skipped {}: {e}", path.display()),
        }
    }
    t.report("");
    lt.report("translated legacy: ");
    assert!(t.files > 0);
    let unexpected: Vec<_> = lt
        .differ
        .keys()
        .filter(|op| !TYPED_FROM_VARIABLES.contains(&op.as_str()))
        .collect();
    assert!(
        unexpected.is_empty(),
        "translated legacy ops whose inferred types differ: {unexpected:?}"
    );
    assert!(
        t.differ.is_empty(),
        "ops whose inferred types differ: {:?}",
        t.differ
    );
}
