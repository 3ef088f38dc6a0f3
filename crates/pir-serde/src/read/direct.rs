//! Result types and attribute entries read from their text without a document.
//!
//! The builder decodes each distinct type text and attribute entry text of a
//! file once; Paddle spells nearly all of them one way (`{"#":"0.t_dtensor",
//! "D":[{"#":"0.t_f32"},[-1,16],"NCHW",[],0]}`, `{"AT":{"#":"0.a_bool",
//! "D":false},"N":"trans_x"}`), and reading that spelling byte by byte costs a
//! fraction of parsing a document and walking it. Each kind reads its own
//! text ([`pir_core::TypeDef::decode_exact`]); this module frames it. Text
//! spelled any other way gives `None` and the builder decodes its document as
//! before, so values and errors are those of the document's decoders.
//!
//! The context keeps the texts read here with their values (see
//! [`IrContext::type_of_text`]): a context that reads a model again, or
//! models that spell their types alike, reads each such text once.

use pir_core::serial::{self, ExactJson};
use pir_core::{Attribute, IrContext, Symbol, Type};

/// The type whose whole JSON text is `raw`, when it is spelled exactly as
/// the writer spells it: as the context found it before (see
/// [`IrContext::type_of_text`]), else read and kept there.
pub(super) fn type_text(ctx: &IrContext, raw: &str) -> Option<Type> {
    if let Some(ty) = ctx.type_of_text(raw) {
        return Some(ty);
    }
    let mut text = ExactJson::new(raw);
    let ty = serial::decode_type_exact(ctx, &mut text)?;
    text.at_end().then(|| {
        ctx.remember_type_text(raw, ty);
        ty
    })
}

/// The name and attribute of an entry whose whole text is `raw`, when it is
/// `{"AT":attr,"N":"name"}` spelled exactly as the writer spells it: as the
/// context found it before (see [`IrContext::entry_of_text`]), else read and
/// kept there.
pub(super) fn entry_text(ctx: &IrContext, raw: &str) -> Option<(Symbol, Attribute)> {
    if let Some(entry) = ctx.entry_of_text(raw) {
        return Some(entry);
    }
    let mut text = ExactJson::new(raw);
    let (attr, name) = text.nest(|text| {
        text.eat(r#"{"AT":"#)?;
        let attr = serial::decode_attr_exact(ctx, text)?;
        text.eat(r#","N":"#)?;
        let name = text.string()?;
        text.eat_byte(b'}')?;
        Some((attr, name))
    })?;
    // As the document's reader does: the attribute first, then the name.
    let entry = text.at_end().then(|| (ctx.symbol(name), attr))?;
    ctx.remember_entry_text(raw, entry);
    Some(entry)
}

#[cfg(test)]
#[path = "direct_tests.rs"]
mod tests;
