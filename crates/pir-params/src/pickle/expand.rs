//! Turning the interpreter's object graph into a [`PickleValue`] tree, with
//! the expansion of shared references counted (and bounded) first.

use std::borrow::Cow;

use super::reader::{Id, Obj, NONE};
use super::value::PickleValue;

pub(super) struct Convert<'r, 'a> {
    pub(super) arena: &'r [Obj<'a>],
    pub(super) visiting: Vec<bool>,
    pub(super) counts: Vec<Option<(u64, u64)>>,
    pub(super) max_depth: usize,
}

fn children(obj: &Obj<'_>) -> Vec<Id> {
    match obj {
        Obj::Tuple(v) | Obj::List(v) => v.clone(),
        Obj::Dict { items, .. } => items.iter().flat_map(|&(k, v)| [k, v]).collect(),
        _ => Vec::new(),
    }
}

impl<'a> Convert<'_, 'a> {
    /// Number of values `id` expands to (shared references counted each time;
    /// owned byte buffers, copied per reference, count one per 64 bytes, an
    /// array's dims one each), and
    /// the bytes of owned buffers that building it clones (each reference
    /// clones them again). Linear in the arena thanks to memoized counts;
    /// finds cycles and depth.
    pub(super) fn count(
        &mut self,
        id: Id,
        depth: usize,
    ) -> std::result::Result<(u64, u64), String> {
        if let Some(Some(c)) = self.counts.get(id) {
            return Ok(*c);
        }
        if depth > self.max_depth {
            return Err(format!(
                "the value nests deeper than {} levels",
                self.max_depth
            ));
        }
        if self.visiting.get(id).copied().unwrap_or(false) {
            return Err("recursive structures are not supported".into());
        }
        if let Some(v) = self.visiting.get_mut(id) {
            *v = true;
        }
        let obj = self.arena.get(id).unwrap_or(&NONE);
        let mut total = 1u64;
        let mut bytes = 0u64;
        match obj {
            Obj::Leaf(PickleValue::Bytes(Cow::Owned(b))) => {
                total += b.len() as u64 / 64;
                bytes = b.len() as u64;
            }
            Obj::Array(a) => {
                // each reference clones the shape: an array of 100,000
                // unit dims named a million times would be 800 GB of dims
                total = total.saturating_add(a.shape.len() as u64);
                if matches!(a.data, Cow::Owned(_)) {
                    total += a.data.len() as u64 / 64;
                    bytes = a.data.len() as u64;
                }
            }
            _ => {}
        }
        for child in children(obj) {
            let (n, b) = self.count(child, depth + 1)?;
            total = total.saturating_add(n);
            bytes = bytes.saturating_add(b);
        }
        if let Some(v) = self.visiting.get_mut(id) {
            *v = false;
        }
        if let Some(c) = self.counts.get_mut(id) {
            *c = Some((total, bytes));
        }
        Ok((total, bytes))
    }

    /// Builds the value (after [`Convert::count`] accepted it).
    pub(super) fn value(
        &mut self,
        id: Id,
        depth: usize,
    ) -> std::result::Result<PickleValue<'a>, String> {
        if depth > self.max_depth {
            return Err(format!(
                "the value nests deeper than {} levels",
                self.max_depth
            ));
        }
        let obj = self.arena.get(id).unwrap_or(&NONE);
        Ok(match obj {
            Obj::Leaf(v) => v.clone(),
            Obj::Tuple(v) => PickleValue::Tuple(self.seq(v, depth)?),
            Obj::List(v) => PickleValue::List(self.seq(v, depth)?),
            Obj::Dict { items, .. } => {
                let mut out = Vec::with_capacity(items.len());
                for &(k, v) in items {
                    out.push((self.value(k, depth + 1)?, self.value(v, depth + 1)?));
                }
                PickleValue::Dict(out)
            }
            Obj::Array(a) => PickleValue::Array(a.clone()),
            Obj::Global(c) => return Err(format!("a bare global ({c:?}) cannot be a value")),
            Obj::Dtype { .. } => return Err("a bare numpy.dtype cannot be a value".into()),
            Obj::PendingArray => return Err("an ndarray was never built (missing BUILD)".into()),
        })
    }

    fn seq(&mut self, v: &[Id], depth: usize) -> std::result::Result<Vec<PickleValue<'a>>, String> {
        v.iter().map(|&id| self.value(id, depth + 1)).collect()
    }
}
