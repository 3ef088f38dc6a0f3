//! JSON paths for error messages, built on the stack while walking a document.
//!
//! A [`Path`] is a linked list of borrowed segments: each level of a recursive walk creates
//! one on its own stack frame (`path.key("ops")`, `path.index(17)`), which costs a couple of
//! words and no allocation. Only when an error is reported is the path rendered, e.g.
//! `program.regions[0].blocks[0].ops[17].O[0].TT`.
//!
//! ```
//! use pir_json::Path;
//!
//! let root = Path::Root("program");
//! let regions = root.key("regions");
//! let region = regions.index(0);
//! let ops = region.key("blocks");
//! assert_eq!(ops.to_string(), "program.regions[0].blocks");
//! assert_eq!(Path::Root("").key("a b").index(2).to_string(), r#"["a b"][2]"#);
//! ```

use std::fmt;

/// A position in a JSON document: a root name, then object keys and array indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path<'a> {
    /// The document root, named for messages (`"program"`, or `""` for none).
    Root(&'static str),
    /// Member `key` of the object at the parent path.
    Key(&'a Path<'a>, &'a str),
    /// Element `index` of the array at the parent path.
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    /// The path of member `key` below `self`.
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    /// The path of element `index` below `self`.
    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path::Index(self, index)
    }

    /// True for a root with an empty name.
    fn is_empty_root(&self) -> bool {
        matches!(self, Path::Root(""))
    }
}

/// Keys made of these characters are written as `.key`; others as `["key"]`.
fn is_plain_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'#' | b'%' | b'@' | b'-'))
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Path::Root(name) => f.write_str(name),
            Path::Key(parent, key) => {
                parent.fmt(f)?;
                if is_plain_key(key) {
                    if !parent.is_empty_root() {
                        f.write_str(".")?;
                    }
                    f.write_str(key)
                } else {
                    write!(f, "[{key:?}]")
                }
            }
            Path::Index(parent, index) => {
                parent.fmt(f)?;
                write!(f, "[{index}]")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_render_like_javascript_accessors() {
        let root = Path::Root("program");
        let a = root.key("regions");
        let b = a.index(0);
        let c = b.key("blocks");
        let d = c.index(0);
        let e = d.key("ops");
        let f = e.index(17);
        let g = f.key("O");
        let h = g.index(0);
        let i = h.key("TT");
        assert_eq!(
            i.to_string(),
            "program.regions[0].blocks[0].ops[17].O[0].TT"
        );
        let j = f.key("#");
        assert_eq!(j.to_string(), "program.regions[0].blocks[0].ops[17].#");
    }

    #[test]
    fn unusual_keys_are_quoted_and_an_empty_root_adds_no_dot() {
        let root = Path::Root("");
        assert_eq!(root.to_string(), "");
        let k = root.key("base_code");
        assert_eq!(k.to_string(), "base_code");
        let odd = k.key("a.b");
        assert_eq!(odd.to_string(), r#"base_code["a.b"]"#);
        let empty = k.key("");
        assert_eq!(empty.to_string(), r#"base_code[""]"#);
        let idx = root.index(3);
        assert_eq!(idx.to_string(), "[3]");
    }

    #[test]
    fn paths_are_two_words_or_three() {
        assert!(std::mem::size_of::<Path<'_>>() <= 32);
    }
}
