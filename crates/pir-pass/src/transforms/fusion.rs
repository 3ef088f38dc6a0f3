//! Paddle's fusion and cleanup passes, each written as DRR rules in
//! `rules/NAME.drr` (compiled when the pass is built), and the `drr` pass
//! that runs a user's rule file.

use std::sync::OnceLock;

use crate::drr::{CheckedRule, RuleSet};
use crate::pass::Pass;
use crate::registry::{MakeError, Options, PassInfo, GREEDY_OPTIONS};
use crate::rewrite::PatternPass;

/// A rule file larger than this is refused before it is read.
const MAX_RULE_FILE: u64 = 16 << 20;

/// The library's rule files: `(name, text)`, `rules/NAME.drr`.
pub const RULE_FILES: &[(&str, &str)] = &[
    rule_file!("identity_op_clean"),
    rule_file!("delete_dropout"),
    rule_file!("map_op_to_another"),
    rule_file!("matmul_scale_fuse"),
    rule_file!("matmul_transpose_fuse"),
    rule_file!("remove_redundant_transpose"),
    rule_file!("matmul_add_act_fuse"),
    rule_file!("silu_fuse"),
    rule_file!("conv2d_add_fuse"),
    rule_file!("conv2d_add_act_fuse"),
    rule_file!("add_norm_fuse"),
];

/// `(name, text)` of `rules/NAME.drr`.
macro_rules! rule_file {
    ($name:literal) => {
        ($name, include_str!(concat!("../../rules/", $name, ".drr")))
    };
}
use rule_file;

/// The parsed rules of each of [`RULE_FILES`], parsed on first use: the
/// texts are fixed at build time, and a process that builds the same
/// pipeline many times (an exporter, a Python session) parses each once.
static PARSED_FILES: [OnceLock<Result<Vec<CheckedRule>, String>>; RULE_FILES.len()] =
    [const { OnceLock::new() }; RULE_FILES.len()];

/// The rules of the library files `files`, in order.
pub fn library_rules(files: &[&str]) -> Result<RuleSet, String> {
    let mut rules = Vec::new();
    for name in files {
        let index = RULE_FILES
            .iter()
            .position(|(n, _)| n == name)
            .ok_or_else(|| format!("no rule file `{name}`"))?;
        let (_, text) = RULE_FILES[index];
        let parsed = PARSED_FILES[index].get_or_init(|| {
            RuleSet::parse(text, &format!("rules/{name}.drr"))
                .map(|set| set.rules)
                .map_err(|e| e.to_string())
        });
        rules.extend(parsed.clone()?);
    }
    Ok(RuleSet { rules })
}

/// The rules named `names` of the library file `file`, in the file's order
/// (a name the file lacks is an error).
pub fn library_rules_named(file: &str, names: &[&str]) -> Result<RuleSet, String> {
    let mut set = library_rules(&[file])?;
    if let Some(missing) = names
        .iter()
        .find(|n| !set.rules.iter().any(|r| r.name == **n))
    {
        return Err(format!("rules/{file}.drr has no rule `{missing}`"));
    }
    set.rules.retain(|r| names.contains(&r.name.as_str()));
    Ok(set)
}

/// A library pass running the rules of `files`.
fn library(
    argument: &'static str,
    files: &[&str],
    o: &mut Options,
) -> Result<Box<dyn Pass>, String> {
    let rules = library_rules(files)?;
    Ok(Box::new(PatternPass::new(
        argument,
        rules.patterns(),
        o.take_greedy()?,
    )))
}

/// A library pass: the `PassInfo` of `$argument`, running the rules of
/// `rules/$argument.drr` and of any further files given.
macro_rules! library_pass {
    ($konst:ident, $argument:literal, $description:literal $(, $more:literal)*) => {
        #[doc = concat!("The `", $argument, "` pass: ", $description, ".")]
        pub const $konst: PassInfo = PassInfo {
            argument: $argument,
            description: $description,
            options: GREEDY_OPTIONS,
            make: |o| Ok(library($argument, &[$argument $(, $more)*], o)?),
        };
    };
}

library_pass!(
    IDENTITY_OP_CLEAN,
    "identity_op_clean",
    "remove scales by one, same-type casts, one-input concats and inference dropouts; merge scale and cast pairs (Paddle's identity_op_clean_pass)",
    "delete_dropout"
);
library_pass!(
    DELETE_DROPOUT,
    "delete_dropout",
    "remove inference dropouts, or make them scales (downgrade_in_infer)"
);
library_pass!(
    MAP_OP_TO_ANOTHER,
    "map_op_to_another",
    "turn grouped depthwise_conv2d into conv2d (Paddle's map_op_to_another_pass on CUDA builds)"
);
library_pass!(
    MATMUL_SCALE_FUSE,
    "matmul_scale_fuse",
    "move a scale after matmul onto its persistable weight (Paddle's matmul_scale_fuse_pass)"
);
library_pass!(
    MATMUL_TRANSPOSE_FUSE,
    "matmul_transpose_fuse",
    "fold transposes of the last two axes into matmul's flags (Paddle's matmul_transpose_fuse_pass)"
);
library_pass!(
    REMOVE_REDUNDANT_TRANSPOSE,
    "remove_redundant_transpose",
    "compose consecutive transposes and remove identity ones (Paddle's remove_redundant_transpose_pass)"
);
library_pass!(
    MATMUL_ADD_ACT_FUSE,
    "matmul_add_act_fuse",
    "fuse matmul, bias add and relu into pd_op.fc (Paddle's matmul_add_act_fuse_pass)"
);
library_pass!(
    SILU_FUSE,
    "silu_fuse",
    "turn x * sigmoid(x) into pd_op.swish (Paddle's silu_fuse_pass)"
);
library_pass!(
    CONV2D_ADD_FUSE,
    "conv2d_add_fuse",
    "fuse conv2d and a bias add into fused_conv2d_add_act, a GPU op (Paddle's conv2d_add_fuse_pass)"
);
library_pass!(
    CONV2D_ADD_ACT_FUSE,
    "conv2d_add_act_fuse",
    "fuse conv2d, bias add (and residual add) and relu into fused_conv2d_add_act, a GPU op (Paddle's conv2d_add_act_fuse_pass)"
);
library_pass!(
    ADD_NORM_FUSE,
    "add_norm_fuse",
    "fuse a residual add and layer_norm into fused_bias_residual_layernorm (Paddle's add_norm_fuse_pass, layer-norm form)"
);

/// `drr{file=PATH}`: the rules of a file, reporting those that never match.
pub const DRR: PassInfo = PassInfo {
    argument: "drr",
    description: "apply the declarative rewrite rules of a file (`drr{file=PATH}`, `pir opt --rules PATH`), reporting rules that never match",
    options: &["file", "max-iterations", "max-rewrites", "max-created", "bottom-up"],
    make: |o| {
        let path = o.take("file").ok_or("needs the rule file: drr{file=PATH}")?;
        let text = read_rules(std::path::Path::new(&path)).map_err(MakeError::input)?;
        let rules = RuleSet::parse(&text, &path).map_err(|e| MakeError::input(e.to_string()))?;
        let labels = rules
            .rules
            .iter()
            .map(|r| format!("rule `{}` ({path}:{})", r.name, r.line))
            .collect();
        // A rule file is not trusted: rules that undo each other or keep
        // growing the program stop the pass with an error naming them.
        let pass = PatternPass::new("drr", rules.patterns(), o.take_greedy()?).report_unmatched(labels);
        Ok(Box::new(pass))
    },
};

fn read_rules(path: &std::path::Path) -> Result<String, String> {
    let shown = path.display();
    let bytes = pir_core::fs::read_limited(path, MAX_RULE_FILE).map_err(|e| match e.kind() {
        std::io::ErrorKind::FileTooLarge => {
            format!("{shown}: a rule file has at most {MAX_RULE_FILE} bytes")
        }
        _ => format!("cannot read {shown}: {e}"),
    })?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{shown}: not UTF-8 text (byte offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}
