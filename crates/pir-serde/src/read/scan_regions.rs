//! Scanning the regions of an op (`if`, `while`) in Paddle's compact text:
//! the blocks' ops are scanned as the top block's are, rather than the whole
//! op parsed as one document and walked (ops with regions hold kilobytes of
//! text, about half of a small model with control flow).
//!
//! The batch gets the region op itself (its region count set once they are
//! scanned), then for each block a [`Scanned::Block`] and the block's ops,
//! then [`Scanned::EndRegions`]; the builder keeps the nesting on a stack.
//! Any other layout (white space, other keys or orders, regions nested
//! deeper than [`MAX_DEPTH`]) gives `None`, and the caller parses the op as
//! one document.

use pir_json::Stream;

use super::{end_of, Batch, Scanned, ScannedResult, Scanner};
use crate::error::ReadError;
use crate::read::compact::{compact_items, eat, plain_string};
use crate::read::template::Templates;

/// Region ops nested deeper than this are parsed as documents (which bound
/// their own depth): the scan recurses once per level.
const MAX_DEPTH: u32 = 32;

impl<'a> Scanner<'a> {
    /// The regions of the op at `batch.ops[op]`, the stream standing after
    /// `,"regions":[`: scanned into `batch` up to the op's closing `}`, and
    /// their number; `None` for any other layout.
    pub(super) fn scan_regions(
        &mut self,
        s: &mut Stream<'a>,
        batch: &mut Batch<'a>,
        templates: Option<&Templates>,
    ) -> Result<Option<u32>, ReadError> {
        if self.depth >= MAX_DEPTH {
            return Ok(None);
        }
        self.depth += 1;
        let scanned = self.region_list(s, batch, templates);
        self.depth -= 1;
        scanned
    }

    fn region_list(
        &mut self,
        s: &mut Stream<'a>,
        batch: &mut Batch<'a>,
        templates: Option<&Templates>,
    ) -> Result<Option<u32>, ReadError> {
        let mut regions = 0u32;
        let mut more = !eat(s, b"]");
        while more {
            if !(eat(s, br##"{"#":"##) && plain_string(s).is_some() && eat(s, br#","blocks":["#)) {
                return Ok(None);
            }
            let mut blocks = !eat(s, b"]");
            while blocks {
                if !self.scan_block(s, batch, templates, regions)? {
                    return Ok(None);
                }
                blocks = !eat(s, b"]");
                if blocks && !eat(s, b",") {
                    return Ok(None);
                }
            }
            if !eat(s, b"}") {
                return Ok(None);
            }
            regions = regions.saturating_add(1);
            more = !eat(s, b"]");
            if more && !eat(s, b",") {
                return Ok(None);
            }
        }
        Ok(eat(s, b"}").then_some(regions))
    }

    /// A block `{"#":name,"args":[…],"kwargs":[…],"ops":[…]}` (`kwargs`
    /// optional) of region `region`; false for any other layout.
    fn scan_block(
        &mut self,
        s: &mut Stream<'a>,
        batch: &mut Batch<'a>,
        templates: Option<&Templates>,
        region: u32,
    ) -> Result<bool, ReadError> {
        if !(eat(s, br##"{"#":"##) && plain_string(s).is_some() && eat(s, br#","args":"#)) {
            return Ok(false);
        }
        let first = end_of(&batch.results);
        let args = match self.compact_block_args(s, batch) {
            true => None,
            false => block_list(s)?,
        };
        let scanned_args = first..end_of(&batch.results);
        let kwargs = match eat(s, br#","kwargs":"#) {
            true => block_list(s)?,
            false => None,
        };
        if !eat(s, br#","ops":["#) {
            return Ok(false);
        }
        batch.ops.push(Scanned::Block {
            region,
            args,
            kwargs,
            scanned_args,
        });
        let mut ops = !eat(s, b"]");
        while ops {
            self.scan_op(s, batch, templates)?;
            ops = !eat(s, b"]");
            if ops && !eat(s, b",") {
                return Ok(false);
            }
        }
        Ok(eat(s, b"}"))
    }

    /// A block's `args` at the stream in Paddle's compact text,
    /// `[{"#":id,"TT":type},…]`, appended to `batch.results` (nothing for
    /// `[]`); false, with the stream and `batch` where they were, for any
    /// other text. A list parsed as a document cost a while loop's read
    /// a tenth of its instructions.
    fn compact_block_args(&mut self, s: &mut Stream<'a>, batch: &mut Batch<'a>) -> bool {
        let (at, first) = (s.offset(), batch.results.len());
        let scanned = eat(s, b"[")
            && compact_items(s, |s| {
                if !eat(s, br##"{"#":"##) {
                    return None;
                }
                let id = s.i64().ok()??;
                if !eat(s, br#","TT":"#) {
                    return None;
                }
                let (text, ty) = self.scan_any_type(s).ok()?;
                batch.results.push(ScannedResult {
                    id: Some(id),
                    ty,
                    text,
                });
                eat(s, b"}").then_some(())
            })
            .is_some();
        if !scanned {
            s.rewind(at);
            batch.results.truncate(first);
        }
        scanned
    }
}

/// A block's `args` or `kwargs` at the stream: `None` when empty (`[]`),
/// else its document.
fn block_list<'a>(s: &mut Stream<'a>) -> Result<Option<pir_json::Document<'a>>, ReadError> {
    if eat(s, b"[]") {
        return Ok(None);
    }
    Ok(Some(s.value()?))
}
