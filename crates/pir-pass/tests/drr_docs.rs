//! The rule language reference (`docs/guide/src/drr.md`) cannot drift from
//! the parser: every ```` ```drr ```` block of it must parse and check as a
//! rule file, every ```` ```drr-error ```` block must be refused, and every
//! function of `drr::FUNCTIONS` must be documented there.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

use pir_pass::drr::{RuleSet, FUNCTIONS};

fn reference() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/guide/src/drr.md");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The fenced blocks of `markdown` whose info string is `lang`: (line, text).
fn blocks(markdown: &str, lang: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, String, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        match &mut open {
            Some((start, info, text)) => {
                if trimmed.starts_with("```") && trimmed.trim_end() == "```" {
                    if info == lang {
                        out.push((*start, std::mem::take(text)));
                    }
                    open = None;
                } else {
                    text.push_str(line);
                    text.push('\n');
                }
            }
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    open = Some((i + 1, info.trim().to_owned(), String::new()));
                }
            }
        }
    }
    assert!(open.is_none(), "a code block is not closed");
    out
}

#[test]
fn every_drr_block_of_the_reference_parses() {
    let text = reference();
    let rules = blocks(&text, "drr");
    assert!(rules.len() >= 10, "only {} ```drr blocks", rules.len());
    for (line, block) in &rules {
        let set = RuleSet::parse(block, &format!("drr.md:{line}"))
            .unwrap_or_else(|e| panic!("the block at drr.md line {line} does not parse:\n{e}"));
        assert!(!set.rules.is_empty(), "drr.md line {line}: no rule");
        // What the printer makes of it reads back the same.
        let again = RuleSet::parse(&set.to_string(), "printed").unwrap();
        assert_eq!(again, set, "drr.md line {line}");
    }
}

#[test]
fn every_drr_error_block_of_the_reference_is_refused() {
    let text = reference();
    let bad = blocks(&text, "drr-error");
    assert!(!bad.is_empty(), "the reference shows no refused rule");
    for (line, block) in &bad {
        assert!(
            RuleSet::parse(block, "bad").is_err(),
            "the block at drr.md line {line} is shown as an error but parses"
        );
    }
}

#[test]
fn every_function_is_documented() {
    let text = reference();
    for (name, arity, _) in FUNCTIONS {
        let shown = format!("`{name}(");
        assert!(
            text.contains(&shown),
            "drr.md does not document `{name}` ({arity} argument(s))"
        );
    }
}
