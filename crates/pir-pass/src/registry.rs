//! Pipelines from text: `"dce,cse,canonicalize{max-iterations=20}"`.
//!
//! Each entry is a registered pass argument with optional `{key=value,...}`
//! options, or `op.name(pipeline)` to run a pipeline on each op of that name
//! (`pd_op.while(cse,dce)`). Unknown passes and options are errors that list
//! what exists.

use crate::pass::Pass;
use crate::rewrite::GreedyConfig;
use crate::transforms::canonicalize::PatternPass;
use crate::transforms::{
    cleanup, constant_folding, cse, dce, fold_batch_norm, inplace, value_semantics,
};

/// A pipeline that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("pipeline `{pipeline}`: {message}")]
pub struct PipelineError {
    /// The pipeline text.
    pub pipeline: String,
    /// What is wrong.
    pub message: String,
}

/// Argument and description of every registered pass.
pub const PASSES: [(&str, &str); 14] = [
    ("dce", "erase side-effect-free ops whose results are unused"),
    ("cse", "replace an op by an identical earlier one visible at its place"),
    ("canonicalize", "remove identity ops and fold redundant pairs to a fixed point {max-iterations, max-rewrites}"),
    ("remove-identity-ops", "replace ops that compute their input by the input"),
    ("remove-redundant-transpose", "remove pairs of transposes whose permutations cancel out"),
    ("delete-assert", "remove runtime assertions"),
    ("replace-fetch-with-shadow-output", "turn fetch ops into shadow outputs of the same name"),
    ("de_inplace", "replace in-place ops by their out-of-place twins where no reader can tell"),
    ("inplace", "replace ops by their in-place twins where the input is dead and unshared"),
    ("to_vtensor", "make ops with value semantics read and produce value tensors, through copies"),
    ("drop_vtensor_copies", "read a value tensor directly where a tensor copied from it is copied back unchanged"),
    ("constant_folding", "compute ops whose inputs are constants and replace them by constants or new parameters {keep-params}"),
    ("fold_batch_norm", "fold inference batch norms into the convolution or matmul before them {keep-params}"),
    ("lower_vtensor", "turn value tensors into dense tensors and copies into their operand or pd_op.assign"),
];

/// The description of the registered pass `argument`.
pub fn description(argument: &str) -> Option<&'static str> {
    PASSES
        .iter()
        .find(|(name, _)| *name == argument)
        .map(|(_, d)| *d)
}

fn greedy_options(
    options: &[(String, String)],
    err: &dyn Fn(String) -> PipelineError,
) -> Result<GreedyConfig, PipelineError> {
    let mut config = GreedyConfig::default();
    for (k, v) in options {
        match k.as_str() {
            "max-iterations" => {
                config.max_iterations = v
                    .parse()
                    .map_err(|_| err(format!("`{v}` is not a count")))?
            }
            "max-rewrites" => {
                config.max_rewrites = Some(
                    v.parse()
                        .map_err(|_| err(format!("`{v}` is not a count")))?,
                )
            }
            "bottom-up" => config.top_down = v != "true",
            other => return Err(err(format!("unknown option `{other}`"))),
        }
    }
    Ok(config)
}

/// Option values that a pipeline's passes take unless their entry sets the
/// option itself: `(pass, option, value)`. `pir opt --keep-params` is
/// `[("constant_folding", "keep-params", "true"), ("fold_batch_norm", "keep-params", "true")]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptionDefaults(pub Vec<(String, String, String)>);

impl OptionDefaults {
    /// The defaults that keep the parameter file as it is: no pass reads a
    /// parameter as a constant, creates or drops one.
    pub fn keep_params() -> OptionDefaults {
        let entry = |pass: &str| (pass.to_owned(), "keep-params".to_owned(), "true".to_owned());
        OptionDefaults(vec![entry("constant_folding"), entry("fold_batch_norm")])
    }

    fn apply(&self, pass: &str, options: &mut Vec<(String, String)>) {
        for (p, k, v) in &self.0 {
            if p == pass && !options.iter().any(|(key, _)| key == k) {
                options.push((k.clone(), v.clone()));
            }
        }
    }
}

/// Parses a `keep-params=true|false` option.
fn keep_params(
    name: &str,
    options: &[(String, String)],
    err: &dyn Fn(String) -> PipelineError,
) -> Result<bool, PipelineError> {
    let mut keep = false;
    for (k, v) in options {
        match (k.as_str(), v.as_str()) {
            ("keep-params", "true") => keep = true,
            ("keep-params", "false") => keep = false,
            ("keep-params", _) => {
                return Err(err(format!("keep-params takes true or false, not `{v}`")))
            }
            (other, _) => return Err(err(format!("`{name}` takes no option `{other}`"))),
        }
    }
    Ok(keep)
}

/// Builds the passes of a pipeline text.
pub fn parse_pipeline(text: &str) -> Result<Vec<Box<dyn Pass>>, PipelineError> {
    parse_pipeline_with(text, &OptionDefaults::default())
}

/// Builds the passes of a pipeline text, with option defaults.
pub fn parse_pipeline_with(
    text: &str,
    defaults: &OptionDefaults,
) -> Result<Vec<Box<dyn Pass>>, PipelineError> {
    let err = |message: String| PipelineError {
        pipeline: text.to_owned(),
        message,
    };
    let mut passes: Vec<Box<dyn Pass>> = Vec::new();
    for entry in split_top_level(text).map_err(err)? {
        if let Some(open) = entry.find('(') {
            let op_name = entry[..open].trim();
            let inner = entry[open + 1..]
                .strip_suffix(')')
                .ok_or_else(|| err(format!("`{entry}`: missing `)`")))?;
            if op_name.is_empty() {
                return Err(err(format!(
                    "`{entry}`: a nested pipeline needs an op name"
                )));
            }
            let inner_passes = parse_pipeline_with(inner, defaults).map_err(|e| err(e.message))?;
            passes.push(Box::new(crate::nested::Nested::new(op_name, inner_passes)));
            continue;
        }
        let (name, mut options) = match entry.find('{') {
            Some(i) => {
                let body = entry[i + 1..]
                    .strip_suffix('}')
                    .ok_or_else(|| err(format!("`{entry}`: missing `}}`")))?;
                let mut opts = Vec::new();
                for kv in body.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    let (k, v) = kv
                        .split_once('=')
                        .ok_or_else(|| err(format!("option `{kv}` needs `=value`")))?;
                    opts.push((k.trim().to_owned(), v.trim().to_owned()));
                }
                (entry[..i].trim(), opts)
            }
            None => (entry.trim(), Vec::new()),
        };
        defaults.apply(name, &mut options);
        let no_options = |opts: &[(String, String)]| match opts.first() {
            Some((k, _)) => Err(err(format!("`{name}` takes no option `{k}`"))),
            None => Ok(()),
        };
        let pass: Box<dyn Pass> = match name {
            "dce" => {
                no_options(&options)?;
                Box::new(dce::DeadCodeElimination)
            }
            "cse" => {
                no_options(&options)?;
                Box::new(cse::CommonSubexpressionElimination)
            }
            "canonicalize" => {
                let mut p = PatternPass::canonicalize();
                p.config = greedy_options(&options, &err)?;
                Box::new(p)
            }
            "remove-identity-ops" => {
                let mut p = PatternPass::remove_identity_ops();
                p.config = greedy_options(&options, &err)?;
                Box::new(p)
            }
            "remove-redundant-transpose" => {
                let mut p = PatternPass::remove_redundant_transpose();
                p.config = greedy_options(&options, &err)?;
                Box::new(p)
            }
            "delete-assert" => {
                no_options(&options)?;
                Box::new(cleanup::DeleteAssert)
            }
            "replace-fetch-with-shadow-output" => {
                no_options(&options)?;
                Box::new(cleanup::ReplaceFetchWithShadowOutput)
            }
            "de_inplace" => {
                no_options(&options)?;
                Box::new(inplace::DeInplace)
            }
            "inplace" => {
                no_options(&options)?;
                Box::new(inplace::Inplace)
            }
            "to_vtensor" => {
                no_options(&options)?;
                Box::new(value_semantics::ToVTensor)
            }
            "drop_vtensor_copies" => {
                no_options(&options)?;
                Box::new(value_semantics::DropVTensorCopies)
            }
            "constant_folding" => Box::new(constant_folding::ConstantFolding {
                keep_params: keep_params(name, &options, &err)?,
            }),
            "fold_batch_norm" => Box::new(fold_batch_norm::FoldBatchNorm {
                keep_params: keep_params(name, &options, &err)?,
            }),
            "lower_vtensor" => {
                no_options(&options)?;
                Box::new(value_semantics::LowerVTensor)
            }
            other => {
                let known: Vec<&str> = PASSES.iter().map(|(n, _)| *n).collect();
                return Err(err(format!(
                    "unknown pass `{other}` (known: {})",
                    known.join(", ")
                )));
            }
        };
        passes.push(pass);
    }
    Ok(passes)
}

/// Splits at commas outside `{…}`.
fn split_top_level(text: &str) -> Result<Vec<&str>, String> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in text.char_indices() {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => {
                depth -= 1;
                if depth < 0 {
                    return Err(format!("unbalanced `{c}` at {i}"));
                }
            }
            ',' if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err("missing `}` or `)`".into());
    }
    out.push(text[start..].trim());
    if out.iter().any(|s| s.is_empty()) {
        return Err("empty pass name".into());
    }
    Ok(out)
}
