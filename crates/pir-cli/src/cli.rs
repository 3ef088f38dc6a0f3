//! The command line: every command, option and its help text (clap derive).
//!
//! A command's options are built only when it runs or its help is shown
//! (`defer`): building every command's was a third of the start-up of a
//! small command. Deferred options are built after the command's own
//! settings, so anything the options' struct (or enum of subcommands) sets
//! wins: its doc comment is written `#[doc = concat!(…)]`, which clap does
//! not read, or it would replace the command's description (a test checks
//! that none does).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand};

/// What every `--help` ends with.
const AFTER_HELP: &str = "\
MODEL may be Paddle's JSON, IR text (Paddle's print or the typed form) or a
legacy Paddle 2.x .pdmodel; the kind is told by the content.

Exit codes: 0 success, 1 error (bad input, failed check, models that differ),
2 usage error (unknown command or option, missing argument).";

/// Inspect, convert, verify and optimise PaddlePaddle PIR models.
#[derive(Debug, Parser)]
#[command(
    name = "pir",
    version,
    after_help = AFTER_HELP,
    subcommand_required = true,
    arg_required_else_help = true
)]
pub struct Cli {
    /// Keep legacy ops that cannot be translated as unregistered ops
    /// `legacy.<type>` instead of failing.
    #[arg(long, global = true)]
    pub lenient: bool,

    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// Print the program exactly as Paddle 3.3 prints it.
    Print(PrintArgs),
    /// Verify structure, SSA and op rules.
    Verify(VerifyArgs),
    /// Op histogram, counts and memory per op.
    Stats(StatsArgs),
    /// Read a model (upgrading older versions) and write it as JSON or text.
    Convert(ConvertArgs),
    /// Convert a model of an older Paddle release to the current version.
    Upgrade(ConvertArgs),
    /// Write a model as an older Paddle release writes it (--to 3.0, 3.1
    /// or 3.2).
    Downgrade(DowngradeArgs),
    /// Run a pipeline of passes on a model (with its parameters).
    Opt(OptArgs),
    /// Export a model (with its parameters) to ONNX.
    Export(ExportArgs),
    /// List or convert the tensors of a parameter file.
    Params(ParamsArgs),
    /// Compare two models structurally (exit 1 when they differ).
    Diff(DiffArgs),
    /// Draw the dataflow graph of a model (DOT, SVG or HTML).
    Graph(GraphArgs),
    /// In-process medians of load, print and save (JSON on stdout).
    Time(TimeArgs),
    /// Write a synthetic model of about OPS ops (for benchmarks).
    Synth(SynthArgs),
    /// Lower a model to Paddle's CPU kernels and print it as Paddle's
    /// executor does (`IR after lowering`).
    Lower(LowerArgs),
    /// Print the program annotated with its symbolic shapes, as Paddle's
    /// shape optimization pass prints it.
    Shapes(ShapesArgs),
    /// Print a shell completion script.
    Completions(CompletionsArgs),
}

impl Command {
    /// The files the command reads a model from (parameter files and
    /// patches aside).
    pub fn models(&self) -> Vec<&Path> {
        match self {
            Command::Print(a) => vec![a.model.as_path()],
            Command::Verify(a) => a.models.iter().map(PathBuf::as_path).collect(),
            Command::Stats(a) => a.models.iter().map(PathBuf::as_path).collect(),
            Command::Convert(a) | Command::Upgrade(a) => vec![a.input.as_path()],
            Command::Downgrade(a) => vec![a.convert.input.as_path()],
            Command::Opt(a) => a.input.iter().map(PathBuf::as_path).collect(),
            Command::Export(a) => vec![a.input.as_path()],
            Command::Params(a) => a.program.iter().map(PathBuf::as_path).collect(),
            Command::Diff(a) => vec![a.a.as_path(), a.b.as_path()],
            Command::Graph(a) => vec![a.model.as_path()],
            Command::Time(a) => vec![a.model.as_path()],
            Command::Lower(a) => vec![a.model.as_path()],
            Command::Shapes(a) => vec![a.model.as_path()],
            Command::Synth(_) | Command::Completions(_) => Vec::new(),
        }
    }
}

impl Cli {
    /// The command line `args` (those after the program's name) when it
    /// is a command that reads models and nothing but their paths: `pir
    /// verify MODEL…`, `pir stats MODEL…` or `pir print MODEL`, each path
    /// neither empty nor starting with `-`. Clap's parse of such a line
    /// gives the same (a test compares them), but first builds the whole
    /// command tree, a fifth of the instructions of a small `pir verify`;
    /// any other line, and every usage error, is clap's.
    pub fn plain_paths<A: AsRef<OsStr>>(mut args: impl Iterator<Item = A>) -> Option<Cli> {
        let name = args.next()?;
        let mut paths = Vec::new();
        for arg in args {
            let arg = arg.as_ref();
            if arg.is_empty() || arg.as_encoded_bytes().starts_with(b"-") {
                return None;
            }
            paths.push(PathBuf::from(arg));
        }
        let command = match name.as_ref().to_str()? {
            "verify" if !paths.is_empty() => Command::Verify(VerifyArgs {
                models: paths,
                strict: false,
                infer: false,
                jobs: Jobs { jobs: None },
            }),
            "stats" if !paths.is_empty() => Command::Stats(StatsArgs {
                models: paths,
                jobs: Jobs { jobs: None },
            }),
            "print" if paths.len() == 1 => Command::Print(PrintArgs {
                model: paths.pop()?,
                typed: false,
                json_ids: false,
            }),
            _ => return None,
        };
        Some(Cli {
            lenient: false,
            command,
        })
    }
}

#[doc = concat!("How many models to work on at once.")]
#[derive(Debug, Args)]
pub struct Jobs {
    /// Work on this many models at once (default: one per core).
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,
}

impl Jobs {
    /// The number given, if any.
    pub fn get(&self) -> Option<usize> {
        self.jobs.map(|j| j as usize)
    }
}

#[doc = concat!("`pir stats`.")]
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// The model files (several are read in parallel, reported in order).
    #[arg(required = true)]
    pub models: Vec<PathBuf>,
    #[command(flatten)]
    pub jobs: Jobs,
}

#[doc = concat!("`pir print`.")]
#[derive(Debug, Args)]
pub struct PrintArgs {
    /// The model file.
    pub model: PathBuf,
    /// Print the lossless typed text instead of Paddle's print.
    #[arg(long)]
    pub typed: bool,
    /// Name values by their ids in the JSON file.
    #[arg(long)]
    pub json_ids: bool,
}

#[doc = concat!("`pir verify`.")]
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The model files (several are verified in parallel, reported in
    /// order; the exit code is 1 when any fails).
    #[arg(required = true)]
    pub models: Vec<PathBuf>,
    /// Also reject ops that are not registered.
    #[arg(long)]
    pub strict: bool,
    /// Also re-infer every op's result types (Paddle's InferMeta) and
    /// report each op whose stored types differ, and ops without
    /// inference; the exit code is 1 when any differ.
    #[arg(long)]
    pub infer: bool,
    #[command(flatten)]
    pub jobs: Jobs,
}

#[doc = concat!("`pir convert` / `pir upgrade` / `pir downgrade`.")]
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The model to read.
    pub input: PathBuf,
    /// Where to write: .json (Paddle's JSON), .pir (typed text) or .txt
    /// (Paddle's print).
    pub output: PathBuf,
    /// Write an inference file (no `trainable` attributes).
    #[arg(long, conflicts_with = "trainable")]
    pub inference: bool,
    /// Write a trainable file.
    #[arg(long)]
    pub trainable: bool,
    /// Write indented JSON (default: the input's layout).
    #[arg(long, conflicts_with = "compact")]
    pub readable: bool,
    /// Write compact JSON (default: the input's layout).
    #[arg(long)]
    pub compact: bool,
    /// Overwrite the output if it exists.
    #[arg(long, short)]
    pub force: bool,
    /// Apply a yaml patch file after the version upgrade (repeatable).
    #[arg(long, value_name = "FILE")]
    pub patch: Vec<PathBuf>,
    /// Read version-0 files (development builds) with every released patch.
    #[arg(long)]
    pub accept_develop_version: bool,
    /// Write JSON as this Paddle release writes it: 3.0, 3.1, 3.2 or 3.3
    /// (default: 3.3, the current version). The version patches after it
    /// are undone; a model the release cannot hold is refused and nothing
    /// is written.
    #[arg(long, value_name = "RELEASE", value_parser = release)]
    pub to: Option<u64>,
}

#[doc = concat!("`pir downgrade`: `pir convert`'s arguments with `--to` required.")]
#[derive(Debug, Args)]
#[command(mut_arg("to", |a| a.required(true)))]
pub struct DowngradeArgs {
    /// The arguments.
    #[command(flatten)]
    pub convert: ConvertArgs,
}

/// `--to RELEASE`: the PIR version a Paddle release writes.
fn release(text: &str) -> Result<u64, String> {
    pir_serde::patch::release_version(text).ok_or_else(|| {
        let known: Vec<&str> = pir_serde::patch::RELEASES.iter().map(|r| r.0).collect();
        format!(
            "`{text}` is not a Paddle release with a PIR format; use {}",
            known.join(", ")
        )
    })
}

#[doc = concat!("`pir opt`. One option is one field here and one use in `opt.rs`.")]
#[derive(Debug, Args)]
#[command(
    after_help = "A .json or .pdmodel input is read with its parameter file \
(IN.pdiparams, else IN.pdparams), checked before any pass runs; -o OUT writes \
OUT.pdiparams with the tensors the result uses."
)]
pub struct OptArgs {
    /// The model to optimise.
    #[arg(required_unless_present = "list_passes")]
    pub input: Option<PathBuf>,
    /// The pipeline, e.g. "canonicalize,cse,dce" or "inference".
    #[arg(
        short,
        long = "pipeline",
        value_name = "PIPELINE",
        value_parser = PipelineText,
        hide_possible_values = true,
        required_unless_present_any = ["list_passes", "rules", "input_shape"]
    )]
    pub pipeline: Option<String>,
    /// Give input NAME (a data or feed op) fixed dims, e.g.
    /// image=1,3,224,224 (-1 keeps a dim dynamic), and re-infer every op it
    /// reaches before the pipeline runs (the `set_input_shapes` pass).
    /// Repeat for more inputs.
    #[arg(long = "input-shape", value_name = "NAME=DIMS", value_parser = input_shape)]
    pub input_shape: Vec<(String, Vec<i64>)>,
    /// Apply the rewrite rules (DRR) of FILE before the pipeline; rules that
    /// never match are reported.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<String>,
    /// Write the result here (JSON, or text for .pir/.txt) instead of
    /// printing it.
    #[arg(short, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// List the registered passes.
    #[arg(long)]
    pub list_passes: bool,
    /// Print the IR before every pass.
    #[arg(long)]
    pub print_ir_before_all: bool,
    /// Print the IR after every pass.
    #[arg(long)]
    pub print_ir_after_all: bool,
    /// Print the IR after every pass that changed it.
    #[arg(long)]
    pub print_ir_after_change: bool,
    /// Write the printed IR to DIR/NN-pass.txt instead of stderr.
    #[arg(long, value_name = "DIR")]
    pub ir_dump_dir: Option<PathBuf>,
    /// Time load, every pass and save (on stderr).
    #[arg(long)]
    pub timing: bool,
    /// Print the passes' counters (on stderr).
    #[arg(long)]
    pub statistics: bool,
    /// Do not verify after each pass.
    #[arg(long)]
    pub no_verify: bool,
    /// Overwrite the output if it exists.
    #[arg(long, short)]
    pub force: bool,
    /// When a pass fails, write its input program to FILE and print the
    /// command that replays the failure.
    #[arg(long, value_name = "FILE")]
    pub reproducer: Option<PathBuf>,
    /// Write value tensors as they are (pir reads them; Paddle does not).
    #[arg(long)]
    pub keep_vtensor: bool,
    /// No pass reads, creates, drops or reshapes a parameter (the parameter
    /// file stays as it is).
    #[arg(long)]
    pub keep_params: bool,
    /// Optimise the program alone when its parameter file is missing
    /// (passes see no parameter data; -o writes no parameter file).
    #[arg(long)]
    pub no_params: bool,
}

#[doc = concat!("Arguments of `pir export`.")]
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The model to export (.json, .pdmodel or IR text, with its parameters).
    pub input: PathBuf,
    /// The ONNX file to write.
    #[arg(short, value_name = "OUT.onnx")]
    pub output: PathBuf,
    /// The ONNX opset (13 to 21).
    #[arg(long, default_value_t = 17)]
    pub opset: i64,
    /// Export the program as read: no constant folding or cleanups first.
    #[arg(long)]
    pub no_opt: bool,
    /// Give input NAME fixed dims, e.g. image=1,3,224,224 (-1 keeps a dim
    /// dynamic), followed through the program by type inference. Repeat for
    /// more inputs.
    #[arg(long = "input-shape", value_name = "NAME=DIMS", value_parser = input_shape)]
    pub input_shape: Vec<(String, Vec<i64>)>,
    /// Write the parameters to OUT.onnx.data beside the model (ONNX
    /// external data); chosen anyway when the model would pass 2 GB.
    #[arg(long)]
    pub external_data: bool,
    /// Overwrite the output if it exists.
    #[arg(long, short)]
    pub force: bool,
    /// Time load, preparation, export and write (on stderr).
    #[arg(long)]
    pub timing: bool,
}

/// The whole command tree, every deferred command built, for shell
/// completion scripts (which walk all of it).
///
/// Clap builds a command's `help` subcommand (the tree `pir help params
/// convert` completes) from copies of its subcommands taken before it
/// builds them, so a deferred command shows there without its own
/// subcommands. Building the tree once and giving a fresh root the built
/// commands makes the root's copies whole; the commands themselves are
/// built as they are when a command line is parsed (options propagated
/// from the root, each built argument in place), which zsh's script needs.
pub fn full_command() -> clap::Command {
    use clap::CommandFactory;
    let mut built = Cli::command();
    built.build();
    Cli::command().mut_subcommands(|unbuilt| {
        built
            .find_subcommand(unbuilt.get_name())
            .cloned()
            .unwrap_or(unbuilt)
    })
}

/// `--input-shape NAME=DIMS`: an input's name and dims.
fn input_shape(text: &str) -> Result<(String, Vec<i64>), String> {
    let (name, dims) = text
        .rsplit_once('=')
        .ok_or_else(|| format!("`{text}`: write NAME=DIMS, e.g. image=1,3,224,224"))?;
    if name.is_empty() || name.contains([';', ',', '{', '}', '(', ')']) {
        return Err(format!("`{name}` is not an input name"));
    }
    let dims = pir_pass::transforms::set_input_shapes::parse_dims(dims)?;
    Ok((name.to_owned(), dims))
}

/// The text of a pipeline, taken as it is (the pass manager checks it);
/// the registered passes and pipelines are its possible values for shell
/// completion.
#[derive(Clone, Debug)]
pub struct PipelineText;

impl clap::builder::TypedValueParser for PipelineText {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let passes = pir_pass::registry::PASSES
            .iter()
            .map(|info| clap::builder::PossibleValue::new(info.argument).help(info.description));
        let pipelines = pir_pass::pipelines::PIPELINES
            .iter()
            .map(|(name, _, description)| {
                clap::builder::PossibleValue::new(*name).help(*description)
            });
        Some(Box::new(passes.chain(pipelines)))
    }
}

#[doc = concat!("`pir params`.")]
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ParamsArgs {
    /// The parameter file (.pdiparams or .pdparams).
    #[arg(required = true)]
    pub file: Option<PathBuf>,
    /// The model naming the tensors of a .pdiparams (default: FILE's model
    /// beside it, .json or .pdmodel).
    #[arg(long, value_name = "MODEL")]
    pub program: Option<PathBuf>,
    /// One JSON array on stdout.
    #[arg(long)]
    pub json: bool,
    /// Convert between formats.
    #[command(subcommand)]
    pub command: Option<ParamsCommand>,
}

#[doc = concat!("The subcommands of `pir params`.")]
#[derive(Debug, Subcommand)]
pub enum ParamsCommand {
    /// Convert .pdiparams <-> .pdparams (by the output's extension).
    Convert(ParamsConvertArgs),
}

#[doc = concat!("`pir params convert`.")]
#[derive(Debug, Args)]
pub struct ParamsConvertArgs {
    /// The parameter file to read.
    pub input: PathBuf,
    /// The file to write: .pdiparams, or a pickle (.pdparams, .pdopt, .pkl,
    /// .pickle).
    pub output: PathBuf,
    /// The model naming the tensors (default: the input's model beside it).
    #[arg(long, value_name = "MODEL")]
    pub program: Option<PathBuf>,
    /// Overwrite the output if it exists.
    #[arg(long, short)]
    pub force: bool,
}

#[doc = concat!("`pir diff`.")]
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The first model.
    pub a: PathBuf,
    /// The second model.
    pub b: PathBuf,
    /// Only counts: ops added, removed and changed.
    #[arg(long)]
    pub stat: bool,
    /// Colour: auto (on a terminal), always or never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// When to colour output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal only.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

#[doc = concat!("`pir graph`.")]
#[derive(Debug, Args)]
pub struct GraphArgs {
    /// The model.
    pub model: PathBuf,
    /// Where to write: .dot (or .gv), .svg or .html (default: DOT on stdout).
    #[arg(short, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Overwrite the output if it exists.
    #[arg(long, short)]
    pub force: bool,
}

#[doc = concat!("`pir time`.")]
#[derive(Debug, Args)]
pub struct TimeArgs {
    /// The model.
    pub model: PathBuf,
    /// How many runs to take the median of.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// Also time reading the parameters: the `.pdiparams` beside the model,
    /// memory-mapped, every tensor located and summed (`params_ms`, and
    /// `params_gbps` of the file's size).
    #[arg(long)]
    pub params: bool,
}

#[doc = concat!("`pir synth`.")]
#[derive(Debug, Args)]
pub struct SynthArgs {
    /// About how many ops (at most 100,000,000: about 28 GB of JSON).
    #[arg(value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub ops: u64,
    /// The model to write.
    pub output: PathBuf,
    /// Overwrite the output if it exists.
    #[arg(long, short)]
    pub force: bool,
}

#[doc = concat!("`pir lower`.")]
#[derive(Debug, Args)]
pub struct LowerArgs {
    /// The model file (any kind pir reads).
    pub model: PathBuf,
    /// Print the lossless typed text instead of Paddle's print.
    #[arg(long)]
    pub typed: bool,
    /// Write the text here (.txt: Paddle's print, .pir: typed text)
    /// instead of standard output; a kernel program has no JSON form.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Overwrite the output if it exists.
    #[arg(long, short)]
    pub force: bool,
}

#[doc = concat!("`pir shapes`.")]
#[derive(Debug, Args)]
pub struct ShapesArgs {
    /// The model file (any kind pir reads).
    pub model: PathBuf,
    /// Write the text here (.txt) instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Overwrite the output if it exists.
    #[arg(long, short)]
    pub force: bool,
}

#[doc = concat!("`pir completions`.")]
#[derive(Debug, Args)]
#[command(
    after_help = "bash: pir completions bash > ~/.local/share/bash-completion/completions/pir\n\
zsh:  pir completions zsh > ~/.zfunc/_pir   (with fpath+=~/.zfunc before compinit)\n\
fish: pir completions fish > ~/.config/fish/completions/pir.fish"
)]
pub struct CompletionsArgs {
    /// The shell.
    pub shell: clap_complete::Shell,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        super::Cli::command().debug_assert();
        super::full_command().debug_assert();
    }

    /// The models a command reads, which decide whether the reader's
    /// second thread starts early.
    #[test]
    fn commands_name_the_models_they_read() {
        use clap::Parser;
        let models = |args: &[&str]| {
            let cli = super::Cli::try_parse_from(args).expect("valid arguments");
            let paths: Vec<String> = cli
                .command
                .models()
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            paths
        };
        assert_eq!(
            models(&["pir", "verify", "a.json", "b.json"]),
            ["a.json", "b.json"]
        );
        assert_eq!(
            models(&["pir", "diff", "a.json", "b.pdmodel"]),
            ["a.json", "b.pdmodel"]
        );
        assert_eq!(
            models(&["pir", "downgrade", "--to", "3.0", "a.json", "b.json"]),
            ["a.json"]
        );
        assert_eq!(
            models(&["pir", "opt", "--list-passes"]),
            Vec::<String>::new()
        );
        assert_eq!(
            models(&["pir", "synth", "10", "out.json"]),
            Vec::<String>::new()
        );
    }

    /// A command line of model paths alone is read as clap reads it;
    /// any other goes to clap.
    #[test]
    fn plain_paths_are_read_as_clap_reads_them() {
        use clap::Parser;
        let plain = |args: &[&str]| super::Cli::plain_paths(args.iter());
        for args in [
            &["verify", "a.json"][..],
            &["verify", "a.json", "b/c.pdmodel", "help"],
            &["stats", "a.json", "b.json"],
            &["print", "a.json"],
            &["print", "verify"],
        ] {
            let clap = super::Cli::try_parse_from(std::iter::once(&"pir").chain(args))
                .expect("valid arguments");
            let ours = plain(args).unwrap_or_else(|| panic!("{args:?} is not plain"));
            assert_eq!(format!("{ours:?}"), format!("{clap:?}"));
        }
        for args in [
            &[][..],
            &["verify"],
            &["verify", ""],
            &["verify", "-"],
            &["verify", "--strict", "a.json"],
            &["verify", "a.json", "-j2"],
            &["print", "a.json", "b.json"],
            &["print"],
            &["convert", "a.json", "b.json"],
            &["--lenient", "verify", "a.json"],
            &["verfy", "a.json"],
            &["help", "verify"],
        ] {
            assert!(plain(args).is_none(), "{args:?}");
        }
    }

    /// The completion scripts' tree has every level, `help`'s too, and
    /// every shell's script is made from it without a failed check.
    #[test]
    fn the_full_command_tree_reaches_nested_commands() {
        let mut full = super::full_command();
        full.build();
        let path = |root: &clap::Command, names: &[&str]| {
            let mut at = root.clone();
            for name in names {
                at = at.find_subcommand(name)?.clone();
            }
            Some(at)
        };
        let convert = path(&full, &["params", "convert"]).expect("params convert");
        assert!(convert
            .get_arguments()
            .any(|a| a.get_long() == Some("program")));
        assert!(path(&full, &["help", "params", "convert"]).is_some());
        for shell in [
            clap_complete::Shell::Bash,
            clap_complete::Shell::Zsh,
            clap_complete::Shell::Fish,
            clap_complete::Shell::Elvish,
            clap_complete::Shell::PowerShell,
        ] {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut super::full_command(), "pir", &mut script);
            assert!(!script.is_empty(), "{shell}");
        }
    }

    /// Building a command's deferred options leaves its description as
    /// it was (see the module docs).
    #[test]
    fn built_options_keep_each_command_s_description() {
        let unbuilt = super::Cli::command();
        let mut built = super::Cli::command();
        built.build();
        for command in unbuilt.get_subcommands() {
            let name = command.get_name();
            let after = built
                .find_subcommand(name)
                .unwrap_or_else(|| panic!("{name} is missing"));
            let text = |c: &clap::Command| c.get_about().map(ToString::to_string);
            assert!(text(command).is_some(), "{name} has no description");
            assert_eq!(text(after), text(command), "{name}");
            assert_eq!(
                after.get_long_about().map(ToString::to_string),
                command.get_long_about().map(ToString::to_string),
                "{name}"
            );
        }
    }
}
