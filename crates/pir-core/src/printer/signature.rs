//! The end of a generic op's line in Paddle's text, `{attrs} : (types) ->
//! types`: it depends on the op's dictionary and its operands' and
//! results' types alone. From a context's second print on, once the
//! dictionary's text is kept, the whole end is kept too, under the
//! dictionary and behind the types it was printed with (their counts and
//! handles, four bytes each); an op with the same dictionary and types
//! copies it in one piece. One end is kept per dictionary (the first
//! printed whole after its dictionary's text was kept), so ops that share
//! a dictionary but not their types print theirs part by part, and a
//! program printed again and again adds nothing after its second print.

use super::kept::Texts;
use super::Printer;
use crate::context::{KeptState, KEEP_BYTES};
use crate::entity::EntityId;
use crate::program::{OpId, OperandId, Program, ValueId};

/// The most counts and types a signature is compared by: an op with more
/// operands and results than that prints its signature part by part.
const MAX_WORDS: usize = 24;

/// What stands for an absent operand's type among a signature's types (no
/// handle is: the interner keeps them below `u32::MAX`).
const NO_TYPE: u32 = u32::MAX;

impl Printer<'_> {
    /// Prints `{attrs} : (types) -> types` (see the module docs).
    #[inline]
    pub(super) fn print_signature(&mut self, program: &Program, op: OpId) {
        let plain = !self.options.typed;
        // A context's first print finds none kept (see below).
        if plain && self.kept.print > 1 && self.copy_kept_signature(program, op) {
            return;
        }
        let from = self.out.len();
        self.print_attr_dict(program, op);
        self.write_str(" : (");
        self.print_operand_types(program, op);
        self.write_str(") -> ");
        self.print_result_types(program, op);
        // Kept from a context's second print on: a program printed once
        // pays nothing for them.
        if plain && self.kept.print > 1 {
            self.keep_signature(program, op, from);
        }
    }

    /// Copies the kept signature of the op's dictionary if it was printed
    /// with the op's types; false when not.
    #[inline]
    fn copy_kept_signature(&mut self, program: &Program, op: OpId) -> bool {
        let data = &program.ops[op];
        let (operands, results) = (data.num_operands as usize, data.num_results as usize);
        let words = 2 + operands + results;
        if words > MAX_WORDS {
            return false;
        }
        let cache = &self.kept.cache;
        let table = &cache.tables[Texts::Signatures as usize];
        let Some(kept) = table.get(data.attrs.0, &cache.bytes) else {
            return false;
        };
        // The op's counts and types as kept (see `keep_signature`), laid
        // out here to be compared in one piece.
        let mut key = [0u8; 4 * MAX_WORDS];
        let mut put =
            |i: usize, word: u32| key[4 * i..4 * i + 4].copy_from_slice(&word.to_le_bytes());
        put(0, operands as u32);
        put(1, results as u32);
        for i in 0..operands {
            let operand = &program.operands[OperandId::new(data.first_operand as usize + i)];
            put(
                2 + i,
                operand.value.map_or(NO_TYPE, |v| program.values[v].ty.0),
            );
        }
        for i in 0..results {
            let result = &program.values[ValueId::new(data.first_result as usize + i)];
            put(2 + operands + i, result.ty.0);
        }
        match kept.split_at_checked(4 * words) {
            Some((types, text)) if *types == key[..4 * words] => {
                self.out.extend_from_slice(text);
                true
            }
            _ => false,
        }
    }

    /// Keeps the signature printed since `from` under the op's dictionary
    /// when the dictionary's text is kept and no signature is yet, while
    /// the printer keeps less than half of what its context would.
    #[cold]
    fn keep_signature(&mut self, program: &Program, op: OpId, from: usize) {
        let dict = program.attrs(op).0;
        let cache = &self.kept.cache;
        let [.., dicts, signatures] = &cache.tables;
        if dicts.get(dict, &cache.bytes).is_none()
            || signatures.get(dict, &cache.bytes).is_some()
            || self.kept.footprint() > KEEP_BYTES / 2
        {
            return;
        }
        let (operands, results) = (program.operands(op), program.results(op));
        if 2 + operands.len() + results.len() > MAX_WORDS {
            return;
        }
        let cache = &mut self.kept.cache;
        let scratch = &mut cache.scratch;
        scratch.clear();
        scratch.extend_from_slice(&(operands.len() as u32).to_le_bytes());
        scratch.extend_from_slice(&(results.len() as u32).to_le_bytes());
        let types = operands
            .map(|v| v.map_or(NO_TYPE, |v| program.value_type(v).0))
            .chain(results.map(|r| program.value_type(r).0));
        for ty in types {
            scratch.extend_from_slice(&ty.to_le_bytes());
        }
        scratch.extend_from_slice(&self.out[from..]);
        cache.tables[Texts::Signatures as usize].store(dict, &mut cache.bytes, scratch);
    }
}
