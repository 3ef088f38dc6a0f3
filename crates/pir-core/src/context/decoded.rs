//! JSON texts of types and attribute entries a reader decoded, kept by the
//! context that interned their values: a later read of the same model (or
//! of another model that spells its types alike) finds a value by its text,
//! one hash, instead of decoding it again. Interned values never change, and
//! a text decodes to the same value whenever it decodes at all (kinds are
//! only ever added to a context), so a value found here is the one decoding
//! would give. Only texts that decoded are kept, and only up to
//! `MAX_BYTES` of them: names and paths that occur once are a reader's
//! own business.

use parking_lot::Mutex;
use rustc_hash::FxHashMap;

use crate::attributes::Attribute;
use crate::context::Symbol;
use crate::types::Type;

/// How many bytes of text a context keeps at the most.
pub(crate) const MAX_BYTES: usize = 4 << 20;

/// The room each table takes at its first text.
const FIRST_ROOM: usize = 256;

/// The texts, behind one lock (taken once per text a read has not met yet).
#[derive(Default)]
pub(crate) struct DecodedTexts(Mutex<Tables>);

#[derive(Default)]
struct Tables {
    types: FxHashMap<Box<str>, Type>,
    entries: FxHashMap<Box<str>, (Symbol, Attribute)>,
    /// The bytes of text kept in both tables.
    bytes: usize,
}

impl DecodedTexts {
    pub(crate) fn ty(&self, text: &str) -> Option<Type> {
        self.0.lock().types.get(text).copied()
    }

    pub(crate) fn remember_ty(&self, text: &str, ty: Type) {
        let mut tables = self.0.lock();
        let Tables { types, bytes, .. } = &mut *tables;
        remember(types, bytes, text, ty);
    }

    pub(crate) fn entry(&self, text: &str) -> Option<(Symbol, Attribute)> {
        self.0.lock().entries.get(text).copied()
    }

    pub(crate) fn remember_entry(&self, text: &str, entry: (Symbol, Attribute)) {
        let mut tables = self.0.lock();
        let Tables { entries, bytes, .. } = &mut *tables;
        remember(entries, bytes, text, entry);
    }
}

/// Keeps `text` → `value` in `table` unless the texts would pass [`MAX_BYTES`].
fn remember<V>(table: &mut FxHashMap<Box<str>, V>, bytes: &mut usize, text: &str, value: V) {
    if *bytes + text.len() > MAX_BYTES || table.contains_key(text) {
        return;
    }
    if table.capacity() == 0 {
        // A model brings tens to hundreds of texts: room for them at once
        // rather than a table grown (and rehashed) a doubling at a time.
        table.reserve(FIRST_ROOM);
    }
    *bytes += text.len();
    table.insert(text.into(), value);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_kept_until_the_bound_and_the_first_value_stays() {
        let texts = DecodedTexts::default();
        texts.remember_ty("a", Type::NULL);
        assert_eq!(texts.ty("a"), Some(Type::NULL));
        assert_eq!(texts.ty("b"), None);
        texts.remember_ty("a", Type(1));
        assert_eq!(texts.ty("a"), Some(Type::NULL), "the first value stays");
        let big = "x".repeat(MAX_BYTES);
        texts.remember_ty(&big, Type::NULL);
        assert_eq!(texts.ty(&big), None, "past the bound nothing more is kept");
        let entry = (Symbol(0), Attribute::NULL);
        texts.remember_entry("e", entry);
        assert_eq!(texts.entry("e"), Some(entry));
        assert_eq!(texts.ty("e"), None, "types and entries are apart");
    }
}
