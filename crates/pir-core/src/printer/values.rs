//! Naming values in a print: `%N` in print order, `%arg_N` for block
//! arguments, keyword arguments by key, custom names, or the ids the JSON
//! writer gives.

use super::Printer;
use crate::program::{Program, ValueDef, ValueId};

/// Marks the entries of `Printer::numbers` that are not op results (block
/// arguments and keyword arguments), so a result prints without a look at
/// its definition.
const NOT_A_RESULT: u32 = 1 << 31;

impl Printer<'_> {
    /// Returns the next number of a named counter (0, 1, ...), for custom
    /// printers that number things on their own (`%stack_0`).
    pub fn next_counter(&mut self, key: &'static str) -> u32 {
        match self.counters.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.counters.push((key, 0));
                0
            }
        }
    }

    /// Gives a value a fixed name (without `%`), e.g. `stack_0`; it then takes no number.
    pub fn set_value_name(&mut self, v: ValueId, name: &str) {
        self.custom_names.insert(v, name.into());
    }

    /// Prints a value reference, numbering it on first print. A block argument's
    /// first print carries its (empty) attribute dictionary: `%arg_0 {}`.
    #[inline]
    pub fn print_value(&mut self, program: &Program, v: ValueId) {
        // A result printed before: its number, without looking at its definition.
        let n = *self.kept.numbers.get(v);
        if n & NOT_A_RESULT == 0 && n != 0 && self.plain_names() {
            self.write_value_number(n - 1);
            return;
        }
        self.print_value_by_definition(program, v, n);
    }

    /// [`Printer::print_value`] of a value not printed before, named, or
    /// not an op's result: by what defines it.
    #[inline(never)]
    fn print_value_by_definition(&mut self, program: &Program, v: ValueId, n: u32) {
        if !self.custom_names.is_empty() {
            if let Some(name) = self.custom_names.get(&v) {
                self.out.push(b'%');
                self.out.extend_from_slice(name.as_bytes());
                return;
            }
        }
        let def = program.value_def(v);
        if let ValueDef::Result { .. } = def {
            if !self.options.json_ids {
                return self.print_result_number(v);
            }
        }
        if self.options.json_ids {
            return self.print_json_id(
                v,
                n,
                matches!(def, ValueDef::BlockArg { .. } | ValueDef::BlockKwarg { .. }),
            );
        }
        let first_suffix = if self.options.typed { "" } else { " {}" };
        match def {
            ValueDef::BlockArg { .. } => {
                let first = n == 0;
                if first {
                    self.next_arg += 1;
                    self.kept.numbers.set(v, self.next_arg | NOT_A_RESULT);
                }
                self.write_str("%arg_");
                let n = *self.kept.numbers.get(v) & !NOT_A_RESULT;
                self.write_u64(u64::from(n - 1));
                if first {
                    self.write_str(first_suffix);
                }
            }
            ValueDef::BlockKwarg { block, index } => {
                let key = program.block_kwargs(block)[index as usize].0;
                let first = n == 0;
                if first {
                    // Paddle names every keyword argument of a key alike; the
                    // typed form tells repeats apart with `$1`, `$2`, ...
                    let seen = self.kwarg_keys.entry(key).or_insert(0);
                    *seen += 1;
                    let nth = if self.options.typed { *seen } else { 1 };
                    self.kept.numbers.set(v, nth | NOT_A_RESULT);
                }
                let nth = *self.kept.numbers.get(v) & !NOT_A_RESULT;
                self.write_str("%kwarg_");
                self.write_str(self.ctx.symbol_str(key));
                if nth > 1 {
                    self.out.push(b'$');
                    self.write_u64(u64::from(nth - 1));
                }
                if first {
                    self.write_str(first_suffix);
                }
            }
            ValueDef::Result { .. } | ValueDef::Erased => self.print_result_number(v),
        }
    }

    /// Whether values print by their numbers: no custom names, no JSON ids.
    #[inline]
    pub(super) fn plain_names(&self) -> bool {
        self.custom_names.is_empty() && !self.options.json_ids
    }

    /// `%N` of an op result (print-order numbering), numbering it on first print.
    #[inline]
    pub(super) fn print_result_number(&mut self, v: ValueId) {
        let mut n = *self.kept.numbers.get(v);
        if n == 0 {
            self.next_value += 1;
            n = self.next_value;
            self.kept.numbers.set(v, n);
        }
        self.write_value_number(n - 1);
    }

    /// Writes `%n`: most programs number fewer than a thousand values,
    /// written as stores of known size rather than through a digit buffer.
    #[inline]
    fn write_value_number(&mut self, n: u32) {
        let digit = |d: u32| b'0' + (d % 10) as u8;
        match n {
            0..=9 => self.out.extend_from_slice(&[b'%', digit(n)]),
            10..=99 => self.out.extend_from_slice(&[b'%', digit(n / 10), digit(n)]),
            100..=999 => {
                self.out
                    .extend_from_slice(&[b'%', digit(n / 100), digit(n / 10), digit(n)])
            }
            _ => self.write_large_value_number(n),
        }
    }

    #[inline(never)]
    fn write_large_value_number(&mut self, n: u32) {
        self.out.push(b'%');
        self.write_u64(u64::from(n));
    }

    /// `%<id>` with the id the JSON writer gives the value: results count up
    /// from 1, block arguments down from −1, both in print (= write) order.
    fn print_json_id(&mut self, v: ValueId, n: u32, is_arg: bool) {
        if n == 0 {
            let counter = if is_arg {
                &mut self.next_arg
            } else {
                &mut self.next_value
            };
            *counter += 1;
            let id = *counter;
            self.kept.numbers.set(v, id);
        }
        let id = i64::from(*self.kept.numbers.get(v));
        self.out.push(b'%');
        self.write_i64(if is_arg { -id } else { id });
    }
}
