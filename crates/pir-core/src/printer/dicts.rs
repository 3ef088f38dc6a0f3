//! Attribute dictionaries in a print: Paddle's (sorted by name, hidden
//! entries left out, runs equal to the previous dictionary of the op name
//! copied from its text) and the typed form's (stored order, every entry).

use super::kept::{PrintedDict, PrintedEntry, Texts};
use super::Printer;
use crate::attributes::AttrDict;
use crate::context::Symbol;
use crate::program::{OpId, Program};

impl Printer<'_> {
    /// Prints `{name:value,...}` sorted by name, without `op_callstack` and `sym_shape_str`.
    #[inline]
    pub fn print_attr_dict(&mut self, program: &Program, op: OpId) {
        let dict = program.attrs(op);
        if !self.copy_kept(Texts::Dicts, dict.0) {
            self.format_attr_dict(program.op_name(op), dict);
        }
    }

    /// Prints a dictionary whose text is not kept (yet).
    #[inline(never)]
    fn format_attr_dict(&mut self, op_name: Symbol, dict: AttrDict) {
        let from = self.out.len();
        if self.options.typed {
            self.print_dict_typed(dict);
        } else {
            self.print_dict_paddle(op_name, dict);
        }
        self.keep_text(Texts::Dicts, dict.0, from, true);
    }

    /// The typed form's dictionary: stored order and every attribute, so it
    /// loses nothing.
    fn print_dict_typed(&mut self, dict: AttrDict) {
        let ctx = self.ctx;
        self.out.push(b'{');
        for (i, &(name, attr)) in ctx.dict_entries(dict).iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            let name = ctx.symbol_str(name);
            if is_plain_attr_name(name) {
                self.write_str(name);
            } else {
                self.write_quoted_escaped(name);
            }
            self.out.push(b':');
            self.print_attr(attr);
        }
        self.out.push(b'}');
    }

    /// Paddle's dictionary: sorted by name, without the hidden entries. Runs
    /// of entries equal to the previous dictionary of the same op name at
    /// the same places are copied from its text.
    fn print_dict_paddle(&mut self, op_name: Symbol, dict: AttrDict) {
        let ctx = self.ctx;
        let hidden = [ctx.well_known.op_callstack, ctx.well_known.sym_shape_str];
        let slot = self.kept.cache.prev_slot(op_name);
        let mut prev = std::mem::take(&mut self.kept.cache.prev[slot]);
        if prev.print != self.kept.print {
            // Printed by an earlier print: its text is gone.
            prev.entries.clear();
        }
        let mut now = self.kept.cache.take_spare();
        now.print = self.kept.print;
        self.out.push(b'{');
        // The pending run of entries equal to `prev`'s: first and last index.
        let mut run: Option<(usize, usize)> = None;
        for (name, attr) in ctx.dict_sorted(dict) {
            if hidden.contains(&name) {
                continue;
            }
            let i = now.entries.len();
            if let Some(&same) = prev.entries.get(i).filter(|e| e.entry == (name, attr)) {
                now.entries.push(same);
                run = Some(run.map_or((i, i), |(first, _)| (first, i)));
                continue;
            }
            if let Some((first, last)) = run.take() {
                self.copy_entries(&prev, first, last, &mut now);
            }
            if i > 0 {
                self.out.push(b',');
            }
            let start = self.out.len();
            self.write_str(ctx.symbol_str(name));
            self.out.push(b':');
            self.print_attr(attr);
            now.entries.push(PrintedEntry {
                entry: (name, attr),
                start,
                end: self.out.len(),
            });
        }
        if let Some((first, last)) = run {
            self.copy_entries(&prev, first, last, &mut now);
        }
        self.out.push(b'}');
        self.kept.cache.prev[slot] = now;
        self.kept.cache.spare = prev;
    }

    /// Copies the text of `prev`'s entries `first..=last` (printed one after
    /// the other earlier in this output), recording their new places in
    /// `now` (which holds them already, at their old places).
    fn copy_entries(
        &mut self,
        prev: &PrintedDict,
        first: usize,
        last: usize,
        now: &mut PrintedDict,
    ) {
        if first > 0 {
            self.out.push(b',');
        }
        let (from, to) = (prev.entries[first].start, prev.entries[last].end);
        let at = self.out.len();
        // The output only grows while printing: the earlier text is there.
        self.out.extend_from_within(from..to);
        for e in &mut now.entries[first..=last] {
            e.start = e.start - from + at;
            e.end = e.end - from + at;
        }
    }
}

/// Whether an attribute name prints unquoted in the typed form.
fn is_plain_attr_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'@' | b'-'))
}
