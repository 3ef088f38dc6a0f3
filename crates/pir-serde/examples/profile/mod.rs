//! The command line and the figures shared by the profiling examples
//! (`print_profile`, `save_profile`).

/// The model file and the `N` of `--repeat N` (1 without it) of the
/// command line, or `usage` as the error.
pub fn file_and_repeat(usage: &str) -> Result<(String, usize), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [path] => Ok((path.clone(), 1)),
        [path, flag, n] if flag == "--repeat" => Ok((path.clone(), n.parse::<usize>()?)),
        _ => Err(usage.into()),
    }
}

/// The median of `times` (NaN when there are none).
pub fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(f64::NAN)
}
