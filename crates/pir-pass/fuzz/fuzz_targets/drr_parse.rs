//! Any bytes given to the rule parser (as UTF-8, invalid sequences
//! replaced) give rules or an error, never a panic or a stack overflow; rules
//! that parse print as text that parses back to equal rules, printed the
//! same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pir_pass::drr::RuleSet;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(rules) = RuleSet::parse(&text, "fuzz.drr") {
        let printed = rules.to_string();
        match RuleSet::parse(&printed, "printed.drr") {
            Err(e) => panic!("printed rules must parse again: {e}\n--- printed ---\n{printed}"),
            Ok(again) => {
                assert_eq!(again, rules, "printed rules read back differently:\n{printed}");
                assert_eq!(again.to_string(), printed, "printed text changed");
            }
        }
    }
});
