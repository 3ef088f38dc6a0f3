//! The registered passes and pipelines from text:
//! `"dce,cse,canonicalize{max-iterations=20}"`.
//!
//! Each pass is described once, by the [`PassInfo`] in its own module
//! (argument, description, options, constructor); [`PASSES`] lists them.
//! A pipeline entry is a registered pass argument with optional
//! `{key=value,...}` options, or `op.name(pipeline)` to run a pipeline on
//! each op of that name (`pd_op.while(cse,dce)`). Unknown passes and
//! options are errors that list what exists.

use crate::pass::Pass;
use crate::rewrite::GreedyConfig;

/// A pipeline that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", if *.input { message.clone() } else { format!("pipeline `{pipeline}`: {message}") })]
pub struct PipelineError {
    /// The pipeline text.
    pub pipeline: String,
    /// What is wrong.
    pub message: String,
    /// Whether a file a pass reads is at fault (a rule file that cannot be
    /// read or parsed), not the pipeline's text: the message names the file
    /// and where in it, without the pipeline around it.
    pub input: bool,
}

/// Why a pass cannot be built from its options: an option (a usage
/// error), or a file an option names (bad input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MakeError {
    /// What is wrong.
    pub message: String,
    /// Whether a file an option names is at fault, not the option.
    pub input: bool,
}

impl MakeError {
    /// A file an option names cannot be read or is malformed; `message`
    /// names it and says where.
    pub fn input(message: impl Into<String>) -> MakeError {
        MakeError {
            message: message.into(),
            input: true,
        }
    }
}

impl From<String> for MakeError {
    fn from(message: String) -> MakeError {
        MakeError {
            message,
            input: false,
        }
    }
}

impl From<&str> for MakeError {
    fn from(message: &str) -> MakeError {
        MakeError::from(message.to_owned())
    }
}

/// A registered pass: the one place its name, description, options and
/// constructor are written.
#[derive(Clone, Copy)]
pub struct PassInfo {
    /// The name used in pipelines (`dce`).
    pub argument: &'static str,
    /// What the pass does, in one sentence.
    pub description: &'static str,
    /// The options it takes (`{name}` in a pipeline), for listings.
    pub options: &'static [&'static str],
    /// Builds the pass from its options (taking those it knows).
    pub make: fn(&mut Options) -> Result<Box<dyn Pass>, MakeError>,
}

impl std::fmt::Debug for PassInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PassInfo")
            .field("argument", &self.argument)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// Every registered pass, in the order `pir opt --list-passes` shows them
/// (declared beside the pass modules, so a new pass is its file and one
/// entry there).
pub use crate::transforms::PASSES;

/// Passes' former names, still accepted: `(old, new)`. Pass names follow
/// Paddle's `snake_case`.
pub static RENAMED: &[(&str, &str)] = &[
    ("remove-identity-ops", "remove_identity_ops"),
    ("delete-assert", "delete_assert"),
    (
        "replace-fetch-with-shadow-output",
        "replace_fetch_with_shadow_output",
    ),
];

/// The registered pass `argument` (or of its former name, [`RENAMED`]).
pub fn lookup(argument: &str) -> Option<&'static PassInfo> {
    let argument = RENAMED
        .iter()
        .find(|(old, _)| *old == argument)
        .map_or(argument, |&(_, new)| new);
    PASSES.iter().find(|info| info.argument == argument)
}

/// A note for each former pass name (`RENAMED`) that `pipeline` uses, to
/// show the user: `pass `delete-assert` is now `delete_assert``.
pub fn renamed_in(pipeline: &str) -> Vec<String> {
    let words = pipeline.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'));
    let mut notes: Vec<String> = Vec::new();
    for (old, new) in words.filter_map(|word| RENAMED.iter().find(|(old, _)| *old == word)) {
        let note = format!("pass `{old}` is now `{new}`; the old name will be dropped");
        if !notes.contains(&note) {
            notes.push(note);
        }
    }
    notes
}

/// The description of the registered pass `argument`.
pub fn description(argument: &str) -> Option<&'static str> {
    lookup(argument).map(|info| info.description)
}

/// A pass entry's `{key=value}` options; constructors take the ones they
/// know and the rest are reported as unknown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options(Vec<(String, String)>);

impl Options {
    /// Options from `(key, value)` pairs.
    pub fn new(entries: Vec<(String, String)>) -> Options {
        Options(entries)
    }

    /// Removes and returns option `key`'s value.
    pub fn take(&mut self, key: &str) -> Option<String> {
        let i = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(i).1)
    }

    /// Option `key` as `true`/`false` (`default` when absent).
    pub fn take_bool(&mut self, key: &str, default: bool) -> Result<bool, String> {
        match self.take(key).as_deref() {
            None => Ok(default),
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(v) => Err(format!("{key} takes true or false, not `{v}`")),
        }
    }

    /// Option `key` as a count.
    pub fn take_count<T: std::str::FromStr>(&mut self, key: &str) -> Result<Option<T>, String> {
        self.take(key)
            .map(|v| v.parse().map_err(|_| format!("`{v}` is not a count")))
            .transpose()
    }

    /// The greedy driver's options: `max-iterations`, `max-rewrites`, `bottom-up`.
    pub fn take_greedy(&mut self) -> Result<GreedyConfig, String> {
        let mut config = GreedyConfig::default();
        if let Some(n) = self.take_count("max-iterations")? {
            config.max_iterations = n;
        }
        config.max_rewrites = self.take_count("max-rewrites")?;
        if let Some(n) = self.take_count("max-created")? {
            config.max_created = Some(n);
        }
        config.top_down = !self.take_bool("bottom-up", false)?;
        Ok(config)
    }

    fn is_set(&self, key: &str) -> bool {
        self.0.iter().any(|(k, _)| k == key)
    }
}

/// The options of the greedy driver, for [`PassInfo::options`].
pub const GREEDY_OPTIONS: &[&str] = &["max-iterations", "max-rewrites", "max-created", "bottom-up"];

/// Option values that a pipeline's passes take unless their entry sets the
/// option itself: `(pass, option, value)`. `pir opt --keep-params` is
/// `("constant_folding", "keep-params", "true")` and the same for every
/// other pass with that option ([`OptionDefaults::keep_params`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptionDefaults(pub Vec<(String, String, String)>);

impl OptionDefaults {
    /// The defaults that keep the parameter file as it is: every pass with a
    /// `keep-params` option leaves parameters alone (none reads one as a
    /// constant, creates or drops one).
    pub fn keep_params() -> OptionDefaults {
        OptionDefaults(
            PASSES
                .iter()
                .filter(|info| info.options.contains(&"keep-params"))
                .map(|info| {
                    (
                        info.argument.to_owned(),
                        "keep-params".to_owned(),
                        "true".to_owned(),
                    )
                })
                .collect(),
        )
    }

    fn apply(&self, pass: &str, options: &mut Options) {
        for (p, k, v) in &self.0 {
            if p == pass && !options.is_set(k) {
                options.0.push((k.clone(), v.clone()));
            }
        }
    }
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
        input: false,
    };
    // An inner pipeline's error, said of this pipeline.
    let outer = |e: PipelineError| PipelineError {
        pipeline: text.to_owned(),
        ..e
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
            let inner_passes = parse_pipeline_with(inner, defaults).map_err(outer)?;
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
                (entry[..i].trim(), Options(opts))
            }
            None => (entry.trim(), Options::default()),
        };
        if let Some(expansion) = crate::pipelines::lookup(name) {
            if let Some((k, _)) = options.0.first() {
                return Err(err(format!("pipeline `{name}` takes no option `{k}`")));
            }
            passes.extend(parse_pipeline_with(expansion, defaults).map_err(outer)?);
            continue;
        }
        let Some(info) = lookup(name) else {
            let known = PASSES
                .iter()
                .map(|info| info.argument)
                .chain(crate::pipelines::names());
            let hint = match pir_core::suggest::closest(name, known) {
                Some(close) => format!(" (did you mean `{close}`?)"),
                None => String::new(),
            };
            return Err(err(format!(
                "unknown pass `{name}`{hint}; `pir opt --list-passes` lists the passes and pipelines"
            )));
        };
        defaults.apply(name, &mut options);
        let pass = (info.make)(&mut options).map_err(|e| match e.input {
            true => PipelineError {
                pipeline: text.to_owned(),
                message: e.message,
                input: true,
            },
            false => err(format!("`{name}`: {}", e.message)),
        })?;
        if let Some((k, _)) = options.0.first() {
            let hint = match pir_core::suggest::closest(k, info.options.iter().copied()) {
                Some(close) => format!(" (did you mean `{close}`?)"),
                None if info.options.is_empty() => " (it takes none)".to_owned(),
                None => format!(" (it takes {})", info.options.join(", ")),
            };
            return Err(err(format!("`{name}` takes no option `{k}`{hint}")));
        }
        passes.push(pass);
    }
    Ok(passes)
}

/// Splits at commas outside `{…}` and `(…)`.
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
