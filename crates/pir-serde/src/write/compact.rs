//! The compact form (Paddle's default) of most ops: each appended to the
//! output as raw bytes in one piece, its op name, types and attribute lists
//! copied from the texts the context keeps (see `kept`), so that a program
//! whose types and attributes were written before costs little more than
//! copying bytes and formatting value ids. Ops with regions and ops an
//! older version writes differently go value by value (see `write_op`).

use pir_core::{Attribute, OpId, Symbol, ValueId};

use super::kept::{entry_tail, PARAMETER_OA_BYTES};
use super::{param_form, ProgramWriter};
use crate::error::WriteError;

impl ProgramWriter<'_> {
    /// Appends the compact JSON of `op`, an op without regions that is
    /// written as it is (not downgraded) and not in the parameter form.
    pub(super) fn op_json(&mut self, out: &mut Vec<u8>, op: OpId) -> Result<(), WriteError> {
        let p = self.program;
        let first_result = self.number_results(op);
        out.extend_from_slice(self.kept.op_head(self.ctx, p.op_name(op)));
        self.attrs_json(out, op, false)?;
        out.extend_from_slice(b",\"I\":[");
        for (i, v) in p.operands(op).enumerate() {
            let id = self.operand_id(op, i, v)?;
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"%\":");
            pir_json::number::write_i64(out, id);
            out.push(b'}');
        }
        out.extend_from_slice(b"],\"O\":[");
        for (k, r) in p.results(op).enumerate() {
            if k > 0 {
                out.push(b',');
            }
            // Results were numbered in order from the first.
            self.result_json(out, op, r, first_result + k as i64)?;
        }
        out.push(b']');
        if self.options.trainable {
            out.extend_from_slice(b",\"OA\":");
            self.attrs_json(out, op, true)?;
        }
        out.push(b'}');
        Ok(())
    }

    /// Appends the `"A"` (`output == false`) or `"OA"` list of an op's
    /// attributes: copied when its dictionary's list was written before,
    /// kept from its second use on (many dictionaries occur once: unique
    /// names).
    fn attrs_json(&mut self, out: &mut Vec<u8>, op: OpId, output: bool) -> Result<(), WriteError> {
        let dict = self.program.attrs(op);
        let cache = &mut self.kept.cache;
        let table = if output {
            &mut cache.output_attrs
        } else {
            &mut cache.attrs
        };
        if let Some(json) = table.get(dict.as_u32(), &cache.bytes) {
            out.extend_from_slice(json);
            return Ok(());
        }
        let keep = table.seen_before(dict.as_u32());
        let start = out.len();
        let placement = self.names.placement();
        let entries = self.ctx.dict_entries(dict);
        let listed = entries.iter().filter(|&&(n, _)| placement.keeps(n, output));
        self.attr_list_json(out, op, listed.copied())?;
        if keep {
            let cache = &mut self.kept.cache;
            let table = if output {
                &mut cache.output_attrs
            } else {
                &mut cache.attrs
            };
            if let Some(json) = out.get(start..) {
                table.store(dict.as_u32(), &mut cache.bytes, json);
            }
        }
        Ok(())
    }

    /// Appends `[{"AT":attr,"N":"name"},...]`.
    fn attr_list_json(
        &mut self,
        out: &mut Vec<u8>,
        op: OpId,
        entries: impl Iterator<Item = (Symbol, Attribute)>,
    ) -> Result<(), WriteError> {
        out.push(b'[');
        for (k, (name, attr)) in entries.enumerate() {
            if k > 0 {
                out.push(b',');
            }
            let ctx = self.ctx;
            let (value, tail) = match self.kept.cache.entry_parts(ctx, name, attr) {
                Ok(parts) => parts,
                Err(e) => return Err(self.encode_error(op, e)),
            };
            out.extend_from_slice(b"{\"AT\":");
            out.extend_from_slice(value);
            if tail.is_empty() {
                entry_tail(out, ctx.symbol_str(name));
            } else {
                out.extend_from_slice(tail);
            }
        }
        out.push(b']');
        Ok(())
    }

    /// Appends `{"%":id,"TT":type}` of result `r`.
    fn result_json(
        &mut self,
        out: &mut Vec<u8>,
        op: OpId,
        r: ValueId,
        id: i64,
    ) -> Result<(), WriteError> {
        let tail = match self
            .kept
            .cache
            .type_tail(self.ctx, self.program.value_type(r))
        {
            Ok(tail) => tail,
            Err(e) => return Err(self.encode_error(op, e)),
        };
        out.extend_from_slice(b"{\"%\":");
        pir_json::number::write_i64(out, id);
        out.extend_from_slice(tail);
        Ok(())
    }

    /// Appends the short form of parameter op `op`:
    /// `{"#":"p","A":[d,p,c,name],"DA":[...],"O":{...},"OA":[...],"QA":[...]}`,
    /// all but the result copied when its dictionary was written before.
    pub(super) fn parameter_json(&mut self, out: &mut Vec<u8>, op: OpId) -> Result<(), WriteError> {
        let dict = self.program.attrs(op).as_u32();
        let r = self.program.result(op, 0);
        // Without output attributes, the tail's `,"OA":[...]` is left out.
        let skip = if self.options.trainable {
            0
        } else {
            PARAMETER_OA_BYTES
        };
        let cache = &self.kept.cache;
        if let Some(head) = cache.parameter_heads.get(dict, &cache.bytes) {
            out.extend_from_slice(head);
            let id = self.number_results(op);
            self.result_json(out, op, r, id)?;
            let cache = &self.kept.cache;
            let tail = cache.parameter_tails.get(dict, &cache.bytes);
            out.extend_from_slice(tail.and_then(|t| t.get(skip..)).unwrap_or_default());
            return Ok(());
        }
        let fields = self.parameter_fields(op)?;
        let names = self.names;
        let head_start = out.len();
        out.extend_from_slice(b"{\"#\":\"p\",\"A\":");
        write_flags(out, fields.a_flags, b',');
        pir_json::write_escaped_string(out, fields.name);
        out.extend_from_slice(b"],\"DA\":");
        self.attr_list_json(out, op, fields.entries(&names, &param_form::DA))?;
        out.extend_from_slice(b",\"O\":");
        let head_end = out.len();
        let id = self.number_results(op);
        self.result_json(out, op, r, id)?;
        // The tail is built whole (output attributes included) to be kept.
        let mut tail = std::mem::take(&mut self.kept.parameter_tail);
        tail.clear();
        tail.extend_from_slice(b",\"OA\":");
        write_flags(&mut tail, fields.oa_flags, b']');
        tail.extend_from_slice(b",\"QA\":");
        let listed = self.attr_list_json(&mut tail, op, fields.entries(&names, &param_form::QA));
        tail.push(b'}');
        out.extend_from_slice(tail.get(skip..).unwrap_or_default());
        let cache = &mut self.kept.cache;
        if listed.is_ok() && cache.parameter_heads.seen_before(dict) {
            cache.parameter_tails.store(dict, &mut cache.bytes, &tail);
            // The head only with its tail, so that a head found has one.
            if cache.parameter_tails.get(dict, &cache.bytes).is_some() {
                if let Some(head) = out.get(head_start..head_end) {
                    cache.parameter_heads.store(dict, &mut cache.bytes, head);
                }
            }
        }
        self.kept.parameter_tail = tail;
        listed
    }
}

/// `[f,f,f` and `last`: a parameter op's three flags as Paddle writes them
/// (`0` or `1`), opening their array.
fn write_flags(out: &mut Vec<u8>, flags: [bool; 3], last: u8) {
    let digit = |f: bool| if f { b'1' } else { b'0' };
    out.extend_from_slice(&[
        b'[',
        digit(flags[0]),
        b',',
        digit(flags[1]),
        b',',
        digit(flags[2]),
        last,
    ]);
}
