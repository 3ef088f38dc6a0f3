//! What the end-to-end tests of the `pir` binary share.
#![allow(clippy::unwrap_used, dead_code)] // a test fails loudly by design; each test file uses a part

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `pir ARGS`, stdin closed.
pub fn pir(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pir"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the pir binary runs")
}

/// Runs `pir ARGS`; the test fails, showing the standard error, unless
/// the command succeeds.
pub fn pir_ok(args: &[&str]) -> Output {
    succeeded(pir(args))
}

/// `out`; the test fails, showing the standard error, unless the command
/// succeeded.
pub fn succeeded(out: Output) -> Output {
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

/// `pir opt INPUT -p PASSES -o OUT`.
pub fn opt_to(input: &Path, passes: &str, out: &Path) -> Output {
    pir(&["opt", path_str(input), "-p", passes, "-o", path_str(out)])
}

/// A path as a command-line argument (the tests' paths are UTF-8).
pub fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `pir ARGS` with `input` on its standard input.
pub fn pir_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pir"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the pir binary runs");
    let mut stdin = child.stdin.take().unwrap();
    // The command may stop reading early (a file of the wrong kind): a
    // closed pipe is not the test's failure.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// A model of the corpus in use; every corpus (the shipped copy in
/// `tests/corpus` included) has the models these tests name.
pub fn corpus_model(name: &str) -> pir_corpus::Model {
    pir_corpus::model(name).unwrap_or_else(|| panic!("{name} is in every corpus"))
}

/// The standard error of a run, as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
