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

use pir_core::serial::{self, ExactJson};
use pir_core::{Attribute, IrContext, Symbol, Type};

/// The type whose whole JSON text is `raw`, when it is spelled exactly as
/// the writer spells it.
pub(super) fn type_text(ctx: &IrContext, raw: &str) -> Option<Type> {
    let mut text = ExactJson::new(raw);
    let ty = serial::decode_type_exact(ctx, &mut text)?;
    text.at_end().then_some(ty)
}

/// The name and attribute of an entry whose whole text is `raw`, when it is
/// `{"AT":attr,"N":"name"}` spelled exactly as the writer spells it.
pub(super) fn entry_text(ctx: &IrContext, raw: &str) -> Option<(Symbol, Attribute)> {
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
    text.at_end().then(|| (ctx.symbol(name), attr))
}

#[cfg(test)]
#[path = "direct_tests.rs"]
mod tests;
