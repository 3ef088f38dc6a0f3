//! Commands over many models at once (`pir verify a.json b.pdmodel …`): the
//! files are worked on by a pool of threads, each with its own context, and
//! their reports come out in the order the files were given, each as soon as
//! it and every report before it are done.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::CliError;

/// How many threads work on `files` models when `jobs` is not given: one per
/// core, never more than there are models.
fn default_jobs(files: usize) -> usize {
    std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(files)
        .max(1)
}

/// Runs `work` on every file with `jobs` threads (default: one per core) and
/// writes each report to stdout, each error to stderr as `error: …`, in the
/// order of `files`. One file behaves as a single command: its error is
/// returned as it is. With more, a failure of any makes the result
/// [`CliError::Failed`] after every file has been worked on.
pub(crate) fn run<W>(files: &[PathBuf], jobs: Option<usize>, work: W) -> Result<(), CliError>
where
    W: Fn(&Path) -> Result<String, CliError> + Sync,
{
    if let [file] = files {
        let report = work(file)?;
        write!(std::io::stdout(), "{report}")?;
        return Ok(());
    }
    // Several spinners at once would draw over each other.
    crate::progress::silence();
    let jobs = jobs.unwrap_or_else(|| default_jobs(files.len())).max(1);
    let next = AtomicUsize::new(0);
    let (done, reports) = mpsc::channel();
    let mut failed = 0usize;
    std::thread::scope(|scope| -> Result<(), CliError> {
        for _ in 0..jobs.min(files.len()) {
            let done = done.clone();
            let (next, work) = (&next, &work);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(i) else { break };
                if done.send((i, work(file))).is_err() {
                    break;
                }
            });
        }
        drop(done);
        // Reports wait here until every one before them has been written.
        let mut waiting: Vec<Option<Result<String, CliError>>> =
            std::iter::repeat_with(|| None).take(files.len()).collect();
        let mut written = 0;
        for (i, result) in reports {
            waiting[i] = Some(result);
            while let Some(result) = waiting.get_mut(written).and_then(Option::take) {
                match result {
                    Ok(report) => write!(std::io::stdout(), "{report}")?,
                    Err(e) => {
                        failed += 1;
                        let message = e.to_string();
                        writeln!(
                            std::io::stderr(),
                            "error: {}",
                            crate::escape_controls(&message)
                        )?;
                    }
                }
                written += 1;
            }
        }
        Ok(())
    })?;
    if failed > 0 {
        return Err(CliError::Failed {
            failed,
            total: files.len(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_is_worked_on_once_and_failures_are_counted() {
        let files: Vec<PathBuf> = (0..37).map(|i| PathBuf::from(format!("f{i}"))).collect();
        let seen = std::sync::Mutex::new(Vec::new());
        let result = run(&files, Some(4), |path| {
            seen.lock().unwrap().push(path.to_path_buf());
            if path.ends_with("f7") || path.ends_with("f30") {
                Err(CliError::File(format!("{} is bad", path.display())))
            } else {
                Ok(String::new())
            }
        });
        match result {
            Err(CliError::Failed { failed, total }) => assert_eq!((failed, total), (2, 37)),
            other => panic!("expected two failures, got {other:?}"),
        }
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        let mut expected = files.clone();
        expected.sort();
        assert_eq!(seen, expected);
    }

    #[test]
    fn one_file_returns_its_own_error() {
        let files = [PathBuf::from("only")];
        let result = run(&files, None, |_| Err(CliError::File("bad".into())));
        assert!(matches!(result, Err(CliError::File(m)) if m == "bad"));
    }
}
