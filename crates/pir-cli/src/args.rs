//! The small argument parser the subcommands share: positional paths,
//! `--switch` flags and `--key value` options (which may repeat).

use std::path::PathBuf;

use crate::CliError;

/// Parsed arguments of one subcommand.
#[derive(Debug, Default)]
pub struct Args {
    /// Positional arguments, in order.
    pub positional: Vec<PathBuf>,
    switches: Vec<&'static str>,
    values: Vec<(&'static str, String)>,
}

impl Args {
    /// Parses `args`; `switches` take no value, `valued` options take one.
    /// Anything else starting with `--` is an error.
    pub fn parse(
        args: &[String],
        switches: &[&'static str],
        valued: &[&'static str],
    ) -> Result<Args, CliError> {
        let mut out = Args::default();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            if let Some(&s) = switches.iter().find(|s| **s == arg) {
                out.switches.push(s);
            } else if let Some(&k) = valued.iter().find(|k| **k == arg) {
                let v = it
                    .next()
                    .ok_or_else(|| CliError::Usage(format!("{k} needs a value")))?;
                out.values.push((k, v.clone()));
            } else if arg.starts_with("--") {
                return Err(CliError::Usage(format!("unknown option `{arg}`")));
            } else {
                out.positional.push(PathBuf::from(arg));
            }
        }
        Ok(out)
    }

    /// Whether the switch was given.
    pub fn has(&self, switch: &str) -> bool {
        self.switches.contains(&switch)
    }

    /// The last value given for an option.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Every value given for an option, in order.
    pub fn values<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.values
            .iter()
            .filter(move |(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    }
}
