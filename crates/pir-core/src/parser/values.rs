//! Value names: the table from `%name` to values, and the values whose type
//! the text has not given yet.
//!
//! A block's names end with the block (SSA values do not escape it), and a
//! nested block may reuse an outer name: Paddle names keyword arguments
//! `%kwarg_<key>`, so sibling and nested blocks repeat them.
//!
//! Paddle's print leaves some types out: block arguments print as `%arg_0 {}`
//! and `pd_op.while` prints no result types. Such values get a tentative type
//! (the loop-carried input's, or null) that the first signature using them
//! replaces; after that every use must agree.

use rustc_hash::FxHashMap;

use super::cursor::Cursor;
use super::error::ParseError;
use crate::program::{Program, ValueId};
use crate::types::Type;

pub(super) struct ValueTable<'t> {
    names: FxHashMap<&'t str, ValueId>,
    /// Values named by a plain number (`%12`, as Paddle names them), by the
    /// number: no hashing for the common names.
    numbered: Vec<Option<ValueId>>,
    /// Numbers above this go to `names` (bounds `numbered` by the text's size).
    max_number: usize,
    /// Every definition of the open scopes, with the binding it shadows.
    defined: Vec<(&'t str, Option<ValueId>)>,
    /// Where each open scope starts in `defined`.
    scopes: Vec<usize>,
    tentative: FxHashMap<ValueId, ()>,
}

impl<'t> ValueTable<'t> {
    /// A table for a text of `text_len` bytes with about `n` values.
    pub(super) fn new(n: usize, text_len: usize) -> Self {
        ValueTable {
            names: FxHashMap::default(),
            numbered: Vec::with_capacity(n),
            // A value's definition takes more than 8 bytes of text.
            max_number: text_len / 8,
            defined: Vec::with_capacity(n),
            scopes: Vec::new(),
            tentative: FxHashMap::default(),
        }
    }

    /// The number of a name that is a plain number (`12`, not `012`) small
    /// enough for `numbered`.
    #[inline]
    fn number(&self, name: &str) -> Option<usize> {
        let b = name.as_bytes();
        if b.is_empty() || b.len() > 9 || (b[0] == b'0' && b.len() > 1) {
            return None;
        }
        let mut n = 0usize;
        for &c in b {
            if !c.is_ascii_digit() {
                return None;
            }
            n = n * 10 + usize::from(c - b'0');
        }
        (n <= self.max_number).then_some(n)
    }

    /// The value bound to `name`.
    #[inline]
    fn get(&self, name: &str) -> Option<ValueId> {
        match self.number(name) {
            Some(n) => self.numbered.get(n).copied().flatten(),
            None => self.names.get(name).copied(),
        }
    }

    /// Binds (or unbinds) `name`, returning its previous binding.
    #[inline]
    fn set(&mut self, name: &'t str, v: Option<ValueId>) -> Option<ValueId> {
        match self.number(name) {
            Some(n) => {
                if n >= self.numbered.len() {
                    self.numbered.resize(n + 1, None);
                }
                std::mem::replace(&mut self.numbered[n], v)
            }
            None => match v {
                Some(v) => self.names.insert(name, v),
                None => self.names.remove(name),
            },
        }
    }

    /// Opens the scope of a block.
    pub(super) fn push_scope(&mut self) {
        self.scopes.push(self.defined.len());
    }

    /// Closes the innermost scope: its names end, shadowed ones come back.
    pub(super) fn pop_scope(&mut self) {
        let start = self.scopes.pop().unwrap_or(0);
        if start == 0 {
            // The outermost scope: nothing is shadowed, everything ends.
            self.names.clear();
            self.numbered.clear();
            self.defined.clear();
            return;
        }
        while self.defined.len() > start {
            if let Some((name, shadowed)) = self.defined.pop() {
                self.set(name, shadowed);
            }
        }
    }

    /// Binds `name` (defined at `offset`) to `v` in the innermost scope.
    pub(super) fn define(
        &mut self,
        name: &'t str,
        offset: usize,
        v: ValueId,
        cur: &Cursor<'_>,
    ) -> Result<(), ParseError> {
        let shadowed = self.set(name, Some(v));
        if shadowed.is_some() {
            let scope = self.scopes.last().copied().unwrap_or(0);
            if self.defined[scope..].iter().any(|(n, _)| *n == name) {
                return Err(cur.error_at(
                    offset,
                    name.len() + 1,
                    format!("value `%{name}` is defined twice"),
                ));
            }
        }
        self.defined.push((name, shadowed));
        Ok(())
    }

    /// The value named `name`, used at `offset`.
    #[inline]
    pub(super) fn lookup(
        &self,
        name: &str,
        offset: usize,
        cur: &Cursor<'_>,
    ) -> Result<ValueId, ParseError> {
        self.get(name)
            .ok_or_else(|| cur.error_at(offset, name.len() + 1, format!("unknown value `%{name}`")))
    }

    /// Marks `v`'s type as a guess that its first typed use replaces.
    pub(super) fn mark_tentative(&mut self, v: ValueId) {
        self.tentative.insert(v, ());
    }

    /// Checks a use of `v` (written `%name` at `offset`) whose signature says
    /// `ty`, fixing a tentative type.
    pub(super) fn check_use(
        &mut self,
        program: &mut Program,
        v: ValueId,
        ty: Type,
        name: &str,
        offset: usize,
        cur: &Cursor<'_>,
    ) -> Result<(), ParseError> {
        if !self.tentative.is_empty() && self.tentative.remove(&v).is_some() {
            program.set_value_type(v, ty);
            return Ok(());
        }
        let have = program.value_type(v);
        if have != ty {
            let ctx = program.ctx();
            return Err(cur.error_at(
                offset,
                name.len() + 1,
                format!(
                    "type mismatch: `%{name}` is {} but the signature says {}",
                    ctx.display_type(have),
                    ctx.display_type(ty)
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::StringEscapes;

    fn v(i: usize) -> ValueId {
        crate::entity::EntityId::new(i)
    }

    #[test]
    fn numbered_and_other_names_shadow_and_come_back() {
        let src = "x".repeat(1000);
        let cur = Cursor::new(&src, StringEscapes::Paddle);
        let mut t = ValueTable::new(4, src.len());
        t.push_scope();
        t.define("12", 0, v(1), &cur).unwrap();
        t.define("012", 0, v(2), &cur).unwrap();
        t.define("arg_0", 0, v(3), &cur).unwrap();
        // Past the bound for the number table: kept by name.
        t.define("99999", 0, v(4), &cur).unwrap();
        t.push_scope();
        t.define("12", 0, v(5), &cur).unwrap();
        t.define("arg_0", 0, v(6), &cur).unwrap();
        assert_eq!(t.lookup("12", 0, &cur).unwrap(), v(5));
        assert_eq!(t.lookup("012", 0, &cur).unwrap(), v(2));
        assert_eq!(t.lookup("arg_0", 0, &cur).unwrap(), v(6));
        t.define("7", 0, v(7), &cur).unwrap();
        t.pop_scope();
        assert_eq!(t.lookup("12", 0, &cur).unwrap(), v(1));
        assert_eq!(t.lookup("arg_0", 0, &cur).unwrap(), v(3));
        assert_eq!(t.lookup("99999", 0, &cur).unwrap(), v(4));
        let err = t.lookup("7", 0, &cur).unwrap_err();
        assert_eq!(err.message, "unknown value `%7`");
        let err = t.define("12", 0, v(9), &cur).unwrap_err();
        assert_eq!(err.message, "value `%12` is defined twice");
        t.pop_scope();
        assert!(t.lookup("12", 0, &cur).is_err());
        assert!(t.lookup("99999", 0, &cur).is_err());
    }
}
