//! The budget of bytes the reader and the state-dict loader copy or create.
//!
//! A pickle can name one buffer many times (the memo), so a few bytes of
//! input can ask for a buffer to be latin-1 decoded, reordered, cloned per
//! reference or concatenated into a reassembled array again and again. Every
//! such allocation is charged here *before* it is made, against a total
//! proportional to the input (see [`super::ReadLimits::copy_factor`]): an
//! honest file copies each of its bytes a few times at most.

use super::reader::ReadLimits;

/// What is left to copy, and the total, for messages.
#[derive(Clone, Debug)]
pub(crate) struct CopyBudget {
    limit: u64,
    used: u64,
    input_len: u64,
    explicit: bool,
}

impl CopyBudget {
    /// The budget of one read of `input_len` bytes under `limits`.
    pub(crate) fn new(input_len: usize, limits: &ReadLimits) -> CopyBudget {
        let input_len = input_len as u64;
        match limits.max_copied_bytes {
            Some(limit) => CopyBudget {
                limit,
                used: 0,
                input_len,
                explicit: true,
            },
            None => CopyBudget {
                limit: input_len.saturating_mul(limits.copy_factor),
                used: 0,
                input_len,
                explicit: false,
            },
        }
    }

    /// Takes `n` bytes for `what` (e.g. "the latin-1 bytes of a string"),
    /// or says which limit they would exceed.
    pub(crate) fn charge(&mut self, n: u64, what: &str) -> Result<(), String> {
        match self.used.checked_add(n) {
            Some(total) if total <= self.limit => {
                self.used = total;
                Ok(())
            }
            _ => {
                let whence = if self.explicit {
                    "the explicit limit".to_string()
                } else {
                    format!(
                        "{}x the {}-byte input",
                        self.limit.checked_div(self.input_len).unwrap_or(0),
                        self.input_len
                    )
                };
                Err(format!(
                    "{what} needs {n} more bytes, beyond the {} bytes the reader may copy \
                     ({whence}; {} already used): buffers shared or repeated by reference",
                    self.limit, self.used
                ))
            }
        }
    }
}
