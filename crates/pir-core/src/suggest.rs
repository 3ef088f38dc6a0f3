//! "Did you mean …?": the known name closest to a misspelt one, for
//! every message that refuses a name (passes, attributes, options).

/// The candidate most like `name`, when one is like it at all: by
/// Jaro–Winkler similarity (which weighs a shared start, as typos of
/// names usually keep it), at least 0.8, or `name` as a prefix of one.
///
/// ```
/// let passes = ["dce", "cse", "canonicalize", "constant_folding"];
/// assert_eq!(pir_core::suggest::closest("canonicalise", passes), Some("canonicalize"));
/// assert_eq!(pir_core::suggest::closest("constant", passes), Some("constant_folding"));
/// assert_eq!(pir_core::suggest::closest("zzz", passes), None);
/// ```
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(f64, &'a str)> = None;
    for candidate in candidates {
        let mut score = strsim::jaro_winkler(name, candidate);
        if !name.is_empty() && candidate.starts_with(name) {
            score = score.max(0.9);
        }
        if score >= 0.8 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn the_closest_name_wins_and_strangers_get_none() {
        let names = ["transpose_y", "transpose_x", "data_format"];
        assert_eq!(closest("transpose_z", names), Some("transpose_y"));
        assert_eq!(closest("data_fromat", names), Some("data_format"));
        assert_eq!(closest("bogus", names), None);
        assert_eq!(closest("", names), None);
        assert_eq!(closest("x", std::iter::empty()), None);
    }
}
