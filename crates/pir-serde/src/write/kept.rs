//! What a write of the JSON model format keeps in its context for the next
//! one: the compact JSON of types, attributes and attribute lists (they are
//! interned and immutable, so each is encoded once per context rather than
//! once per write), compressed op names, and the writer's reusable tables.
//! A program saved again, or another program of the same context, writes
//! mostly copies of these texts.

use pir_core::context::KeptState;
use pir_core::entity::SecondaryMap;
use pir_core::memo::{HandleTable, MemoBytes, MemoTable};
use pir_core::serial::{self, JsonWriter};
use pir_core::{Attribute, IrContext, Symbol, Type, ValueId};

use super::Names;
use crate::names::write_compressed_op_name;

/// How many bytes a parameter op's `,"OA":[f,f,f]` takes: the start of
/// its kept tail, left out by writes without output attributes.
pub(super) const PARAMETER_OA_BYTES: usize = b",\"OA\":[0,0,0]".len();

/// What a kept type's text starts with (see [`EncodedCache::type_tail`]).
const TYPE_TAIL_OPEN: &[u8] = b",\"TT\":";

/// A writer's memoized texts and reusable tables (see the module docs).
#[derive(Default)]
pub(super) struct Kept {
    /// Compact JSON of what was encoded before.
    pub(super) cache: EncodedCache,
    /// The symbols the writer looks for (interned by the first write).
    pub(super) names: Option<Names>,
    /// The id each value is written with (0: not written yet); cleared by
    /// each write, its room kept.
    pub(super) ids: SecondaryMap<ValueId, i64>,
    /// Reused buffer for the tail of a parameter op met for the first time.
    pub(super) parameter_tail: Vec<u8>,
    /// The flag attributes of the last parameter op whose short form was
    /// made, in [`crate::param_form::A_FLAGS`] then [`crate::param_form::OA_FLAGS`]
    /// order, and its flags: a model's parameters mostly share theirs.
    pub(super) parameter_flags: Option<ParameterFlags>,
}

/// A parameter op's flag attributes (absent ones `None`) and the `"A"` and
/// `"OA"` flags they give.
pub(super) type ParameterFlags = ([Option<Attribute>; 6], [bool; 3], [bool; 3]);

/// Compact JSON of interned things, each in a table by handle.
#[derive(Default)]
pub(super) struct EncodedCache {
    pub(super) bytes: MemoBytes,
    /// `,"TT":type}` by type (see [`EncodedCache::type_tail`]).
    types: MemoTable,
    /// `"A"` lists by attribute dictionary.
    pub(super) attrs: MemoTable,
    /// `"OA"` lists by attribute dictionary.
    pub(super) output_attrs: MemoTable,
    /// Single attributes, by attribute (from their second use on: names
    /// and paths are often unique).
    attr_values: MemoTable,
    /// `,"N":"name"}`, the end of an attribute entry, by name symbol.
    entry_tails: MemoTable,
    /// `{"#":"name","A":` by op name symbol (see [`Kept::op_head`]).
    op_heads: MemoTable,
    /// The short form of parameter ops by attribute dictionary (from its
    /// second use on): what comes before the result's JSON,
    /// `{"#":"p","A":[...],"DA":[...],"O":`, and what comes after it,
    /// `,"OA":[...],"QA":[...]}` (see [`PARAMETER_OA_BYTES`]).
    pub(super) parameter_heads: MemoTable,
    pub(super) parameter_tails: MemoTable,
    /// [`pir_core::builtin::first_bool`] by attribute: 0 not yet asked,
    /// 1 not a flag, 2 false, 3 true.
    flags: HandleTable<u8>,
    /// Reused buffer for a text met for the first time.
    scratch: Vec<u8>,
}

impl Kept {
    /// What the last write in `ctx` left, its value ids cleared (see
    /// [`IrContext::take_kept`]).
    pub(super) fn take(ctx: &IrContext) -> Box<Kept> {
        Box::new(ctx.take_kept())
    }

    /// Leaves `kept` in `ctx` for the next write (see [`IrContext::keep`]).
    pub(super) fn give_back(ctx: &IrContext, kept: Box<Kept>) {
        ctx.keep(*kept);
    }
}

impl KeptState for Kept {
    /// The bytes its texts and tables hold (the value ids, eight bytes a
    /// value of the largest program written, are not counted).
    fn footprint(&self) -> usize {
        let c = &self.cache;
        let tables = [
            &c.types,
            &c.attrs,
            &c.output_attrs,
            &c.attr_values,
            &c.entry_tails,
            &c.op_heads,
            &c.parameter_heads,
            &c.parameter_tails,
        ];
        c.bytes.as_slice().len()
            + tables.iter().map(|t| t.footprint()).sum::<usize>()
            + c.flags.footprint()
            + c.scratch.capacity()
    }

    /// Clears the value ids.
    fn prepare(&mut self) {
        self.ids.clear();
    }
}

impl Kept {
    /// `{"#":"name","A":` of ops named `name` (the name compressed), made
    /// once per context.
    pub(super) fn op_head(&mut self, ctx: &IrContext, name: Symbol) -> &[u8] {
        let c = &mut self.cache;
        let index = name.index() as u32;
        if c.op_heads.get(index, &c.bytes).is_none() {
            c.scratch.clear();
            c.scratch.extend_from_slice(b"{\"#\":");
            write_compressed_op_name(&mut c.scratch, ctx.symbol_str(name));
            c.scratch.extend_from_slice(b",\"A\":");
            c.op_heads.store(index, &mut c.bytes, &c.scratch);
        }
        // A table that stopped storing (past 4 GiB of text) falls back to
        // the fresh text in `scratch`.
        match c.op_heads.get(index, &c.bytes) {
            Some(json) => json,
            None => &c.scratch[..],
        }
    }
}

impl EncodedCache {
    /// The compact JSON of a type, encoded once.
    pub(super) fn type_json(
        &mut self,
        ctx: &IrContext,
        ty: Type,
    ) -> Result<&[u8], serial::EncodeError> {
        let tail = self.type_tail(ctx, ty)?;
        Ok(tail
            .get(TYPE_TAIL_OPEN.len()..tail.len() - 1)
            .unwrap_or_default())
    }

    /// `,"TT":type}`, the end of a result's or block argument's entry
    /// after its id, encoded once per type.
    pub(super) fn type_tail(
        &mut self,
        ctx: &IrContext,
        ty: Type,
    ) -> Result<&[u8], serial::EncodeError> {
        if self.types.get(ty.as_u32(), &self.bytes).is_none() {
            self.scratch.clear();
            self.scratch.extend_from_slice(TYPE_TAIL_OPEN);
            serial::encode_type(ctx, ty, &mut JsonWriter::compact(&mut self.scratch))?;
            self.scratch.push(b'}');
            self.types
                .store(ty.as_u32(), &mut self.bytes, &self.scratch);
        }
        // A table that stopped storing (past 4 GiB of text) falls back to
        // the fresh encoding in `scratch`.
        Ok(match self.types.get(ty.as_u32(), &self.bytes) {
            Some(json) => json,
            None => &self.scratch[..],
        })
    }

    /// The compact JSON of an attribute entry's value and its tail
    /// (`,"N":"name"}`), from the cache where they were met before.
    pub(super) fn entry_parts(
        &mut self,
        ctx: &IrContext,
        name: Symbol,
        attr: Attribute,
    ) -> Result<(&[u8], &[u8]), serial::EncodeError> {
        let name_index = name.index() as u32;
        if self.entry_tails.get(name_index, &self.bytes).is_none() {
            self.scratch.clear();
            entry_tail(&mut self.scratch, ctx.symbol_str(name));
            self.entry_tails
                .store(name_index, &mut self.bytes, &self.scratch);
        }
        let attr_index = attr.as_u32();
        if self.attr_values.get(attr_index, &self.bytes).is_none() {
            self.scratch.clear();
            serial::encode_attr(ctx, attr, &mut JsonWriter::compact(&mut self.scratch))?;
            if self.attr_values.seen_before(attr_index) {
                self.attr_values
                    .store(attr_index, &mut self.bytes, &self.scratch);
            }
        }
        // A table that stopped storing (past 4 GiB of text) falls back to
        // the fresh encoding in `scratch` (and the tail to an empty one,
        // which the caller writes itself).
        let value = match self.attr_values.get(attr_index, &self.bytes) {
            Some(v) => v,
            None => &self.scratch[..],
        };
        let tail = self
            .entry_tails
            .get(name_index, &self.bytes)
            .unwrap_or_default();
        Ok((value, tail))
    }

    /// [`pir_core::builtin::first_bool`], memoized per attribute.
    pub(super) fn flag_of(&mut self, ctx: &IrContext, attr: Attribute) -> Option<bool> {
        let flag = self.flags.get_mut(attr.as_u32());
        if *flag == 0 {
            *flag = match pir_core::builtin::first_bool(ctx, attr) {
                None => 1,
                Some(false) => 2,
                Some(true) => 3,
            };
        }
        match *flag {
            2 => Some(false),
            3 => Some(true),
            _ => None,
        }
    }
}

/// `,"N":"name"}`: what follows an attribute's value in its entry.
pub(super) fn entry_tail(out: &mut Vec<u8>, name: &str) {
    out.extend_from_slice(b",\"N\":");
    pir_json::write_escaped_string(out, name);
    out.push(b'}');
}
