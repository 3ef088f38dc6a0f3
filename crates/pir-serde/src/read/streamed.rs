//! Reading a file in Paddle's layout as a [`Stream`], one value at a time (see
//! [`read_slice`](super::read_slice)).

use std::ops::Range;
use std::sync::Arc;

use pir_core::serial::JsonPath;
use pir_core::{BlockId, IrContext};
use pir_json::{Open, Stream};

use super::compact::{compact_postlude, compact_prelude};
use super::kept::{self, Lent};
use super::threads::Plan;
use super::{finish_program, patches_for, read_header, Header, LoadedProgram, ReadOptions, Reader};
use crate::error::ReadError;

/// Reads a file laid out as Paddle writes it as a stream (see [`read_slice`]);
/// `None` when the layout is another one.
pub(super) fn read_streamed(
    ctx: Arc<IrContext>,
    bytes: &[u8],
    options: &ReadOptions,
    release: &dyn Fn(Range<usize>),
) -> Result<Option<LoadedProgram>, ReadError> {
    Ok(
        read_streamed_with(ctx, bytes, options, Plan::default(), release)?
            .map(|(loaded, _)| loaded),
    )
}

/// [`read_streamed`], and how many ops were read field by field.
#[cfg(test)]
pub(super) fn read_streamed_counting(
    ctx: Arc<IrContext>,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<Option<(LoadedProgram, usize)>, ReadError> {
    Ok(
        read_streamed_with(ctx, bytes, options, Plan::default(), &|_| {})?
            .map(|(loaded, counts)| (loaded, counts.plain)),
    )
}

/// How many ops a streamed read read how (for tests).
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(not(test), allow(dead_code))]
pub(super) struct Counts {
    /// Ops read field by field.
    pub(super) plain: usize,
    /// Ops scanned on a second thread.
    pub(super) scanned_apart: usize,
    /// Of those, ops matched against templates.
    pub(super) templated_apart: usize,
}

/// [`read_streamed`] with the top block's ops cut for a second thread as
/// `plan` says, and how many ops were read how.
pub(super) fn read_streamed_with(
    ctx: Arc<IrContext>,
    bytes: &[u8],
    options: &ReadOptions,
    plan: Plan,
    release: &dyn Fn(Range<usize>),
) -> Result<Option<(LoadedProgram, Counts)>, ReadError> {
    let mut s = Stream::new(bytes)?;
    // Checking the text read all of it; the ops are read from the start again.
    if bytes.len() >= plan.release_checked_min {
        release(0..bytes.len());
    }
    // The other thread starts on its part at once: this one reads the
    // header and sets up meanwhile.
    match super::threads::lending(&ctx, s.text(), options, plan) {
        Some(lending) => kept::lend(
            lending.kept,
            s.text(),
            lending.at,
            lending.batch_ops,
            lending.matching,
            |lent| read_document(ctx, &mut s, bytes, options, plan, release, lent),
        ),
        None => read_document(ctx, &mut s, bytes, options, plan, release, None),
    }
}

/// [`read_streamed_with`] once the text is checked, with the top block's
/// ops from a cut on lent to the kept thread, if they are.
fn read_document<'a>(
    ctx: Arc<IrContext>,
    s: &mut Stream<'a>,
    bytes: &[u8],
    options: &ReadOptions,
    plan: Plan,
    release: &dyn Fn(Range<usize>),
    mut lent: Option<&mut Lent<'a>>,
) -> Result<Option<(LoadedProgram, Counts)>, ReadError> {
    let top = JsonPath::Root("");
    if let Some((trainable, version)) = compact_prelude(s) {
        // The top block's ops, then the file's end as Paddle writes it
        // (else the file is read again, as any other layout).
        let mut header = Header {
            version,
            trainable,
            patches: patches_for(version, options)?,
        };
        let mut reader = Reader::new(s.text(), ctx, options, &mut header, bytes.len(), release);
        reader.plan = plan;
        let program = top.key("program");
        let regions = program.key("regions");
        let region = regions.index(0);
        let blocks = region.key("blocks");
        let block_path = blocks.index(0);
        let (mut list, block) = (s.begin_array()?, reader.program.top_block());
        let ops_path = block_path.key("ops");
        super::threads::read_ops(&mut reader, s, &mut list, block, &ops_path, lent)?;
        if !compact_postlude(s) {
            return Ok(None);
        }
        s.finish()?;
        let counts = Counts {
            plain: reader.plain_ops,
            scanned_apart: reader.scanned_apart,
            templated_apart: reader.templated_apart,
        };
        let program = reader.into_program();
        return finish_program(program, &header, bytes).map(|p| Some((p, counts)));
    }
    let mut root = s.begin_object()?;
    let (mut header, mut program, mut counts) = (None, None, Counts::default());
    while let Some(key) = s.next_key(&mut root)? {
        match &*key {
            "base_code" if header.is_none() => {
                let doc = s.value()?;
                header = Some(read_header(doc.root(), &top.key("base_code"), options)?);
                s.recycle(doc);
            }
            "program" if program.is_none() => {
                let Some(header) = header.as_mut() else {
                    return Ok(None);
                };
                let mut reader =
                    Reader::new(s.text(), ctx.clone(), options, header, bytes.len(), release);
                reader.plan = plan;
                if !reader.read_program_streamed(s, &top.key("program"), lent.take())? {
                    return Ok(None);
                }
                counts = Counts {
                    plain: reader.plain_ops,
                    scanned_apart: reader.scanned_apart,
                    templated_apart: reader.templated_apart,
                };
                program = Some(reader.into_program());
            }
            "base_code" | "program" => return Ok(None),
            _ => s.skip()?,
        }
    }
    s.finish()?;
    match (header, program) {
        (Some(header), Some(program)) => {
            finish_program(program, &header, bytes).map(|p| Some((p, counts)))
        }
        _ => Ok(None),
    }
}

impl<'a> Reader<'_, 'a> {
    /// Reads `program` (the stream stands before its value) into the top block,
    /// one op at a time. False when its layout is not Paddle's: one region
    /// with `#` and `blocks`, whose first block has its members in key order.
    fn read_program_streamed(
        &mut self,
        s: &mut Stream<'a>,
        path: &JsonPath<'_>,
        mut lent: Option<&mut Lent<'a>>,
    ) -> Result<bool, ReadError> {
        let mut program = s.begin_object()?;
        let mut read = false;
        while let Some(key) = s.next_key(&mut program)? {
            if &*key != "regions" || read {
                s.skip()?;
                continue;
            }
            read = true;
            let regions_path = path.key("regions");
            let region_path = regions_path.index(0);
            let mut regions = s.begin_array()?;
            if !s.next_element(&mut regions)? {
                return Ok(false);
            }
            let mut region = s.begin_object()?;
            let (mut named, mut blocks_read) = (false, false);
            while let Some(key) = s.next_key(&mut region)? {
                match &*key {
                    "#" if !named => {
                        named = true;
                        s.skip()?;
                    }
                    "blocks" if !blocks_read => {
                        blocks_read = true;
                        let mut blocks = s.begin_array()?;
                        if !s.next_element(&mut blocks)? {
                            return Ok(false);
                        }
                        let top = self.program.top_block();
                        let blocks_path = region_path.key("blocks");
                        let lent = lent.take();
                        if !self.read_block_streamed(s, top, &blocks_path.index(0), lent)? {
                            return Ok(false);
                        }
                        // Like the whole-document reader, later blocks are not read.
                        while s.next_element(&mut blocks)? {
                            s.skip()?;
                        }
                    }
                    "#" | "blocks" => return Ok(false),
                    _ => s.skip()?,
                }
            }
            if !(named && blocks_read) || s.next_element(&mut regions)? {
                return Ok(false);
            }
        }
        Ok(read)
    }

    /// Reads a block's object (the stream stands before it) op by op. False
    /// when its members are not `#`, `args`, `kwargs` (optional) and `ops` in
    /// that order (other keys anywhere).
    fn read_block_streamed(
        &mut self,
        s: &mut Stream<'a>,
        block: BlockId,
        path: &JsonPath<'_>,
        mut lent: Option<&mut Lent<'a>>,
    ) -> Result<bool, ReadError> {
        let mut object = s.begin_object()?;
        let (mut named, mut args, mut kwargs, mut ops) = (false, false, false, false);
        while let Some(key) = s.next_key(&mut object)? {
            match &*key {
                "#" if !named => {
                    named = true;
                    s.skip()?;
                }
                "args" if !args && !kwargs && !ops => {
                    args = true;
                    let doc = s.value()?;
                    self.read_block_args(doc.root(), block, path)?;
                    s.recycle(doc);
                }
                "kwargs" if args && !kwargs && !ops => {
                    kwargs = true;
                    let doc = s.value()?;
                    self.read_block_kwargs(doc.root(), block, path)?;
                    s.recycle(doc);
                }
                "ops" if args && !ops => {
                    ops = true;
                    let ops_path = path.key("ops");
                    let mut list = s.begin_array()?;
                    let lent = lent.take();
                    super::threads::read_ops(self, s, &mut list, block, &ops_path, lent)?;
                }
                "#" | "args" | "kwargs" | "ops" => return Ok(false),
                _ => s.skip()?,
            }
        }
        Ok(named && args && ops)
    }

    /// Reads the ops of the open list `list` (the top block's) into `dest`
    /// until the list ends or, before an op, the stream reaches `stop` (see
    /// [`Reached`]). With `pending`, the stream stands before an op already.
    pub(super) fn read_ops_until(
        &mut self,
        s: &mut Stream<'a>,
        list: &mut Open,
        dest: &mut Dest<'_>,
        stop: usize,
        mut pending: bool,
    ) -> Result<Reached, ReadError> {
        // The batch and the handles go out of `self` while ops are built;
        // the scanner stays (it is large, and only scanning uses it).
        let mut batch = std::mem::take(&mut self.batch);
        let mut resolved = std::mem::take(&mut self.resolved);
        let result = loop {
            // A few ops are scanned, then built: one hand-over per batch
            // rather than per op. Where scanning stopped (the list's end,
            // the stop, an error) counts once the ops before are built, so
            // an error of an earlier op still comes first.
            batch.clear_into(s);
            let mut stopped = None;
            for _ in 0..OWN_BATCH_OPS {
                if !pending {
                    match s.next_element(list) {
                        Ok(true) => {}
                        Ok(false) => {
                            stopped = Some(Ok(Reached::End));
                            break;
                        }
                        Err(e) => {
                            stopped = Some(Err(e.into()));
                            break;
                        }
                    }
                }
                pending = false;
                if s.offset() >= stop {
                    let reached = if s.offset() == stop {
                        Reached::Stop
                    } else {
                        Reached::Past
                    };
                    stopped = Some(Ok(reached));
                    // The stream stands before this op, as the caller expects.
                    break;
                }
                if self.patches.is_some() {
                    let read = self.read_op_document(s, dest.block, &dest.path.index(dest.index));
                    if let Err(e) = read {
                        stopped = Some(Err(e));
                        break;
                    }
                    dest.index += 1;
                    continue;
                }
                let templates = self.kept.templates.in_use();
                if let Err(e) = self.scanner.scan_op(s, &mut batch, templates) {
                    stopped = Some(Err(e));
                    break;
                }
            }
            if let Err(e) = self.build_batch(s, &batch, &mut resolved, dest) {
                break Err(e);
            }
            match stopped {
                Some(Err(e)) => break Err(e),
                Some(reached) => break reached,
                None => self.went_past(s.offset()),
            }
        };
        self.batch = batch;
        self.resolved = resolved;
        result
    }

    /// Reads the op at the stream as one document into `block`.
    fn read_op_document(
        &mut self,
        s: &mut Stream<'a>,
        block: BlockId,
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        let doc = s.value()?;
        let op = self.read_op(doc.root(), path);
        s.recycle(doc);
        self.program.append_op(block, op?);
        Ok(())
    }
}

/// Where built ops go: a block, the path of its `ops`, and the number of the next op.
pub(super) struct Dest<'p> {
    pub(super) block: BlockId,
    pub(super) path: &'p JsonPath<'p>,
    pub(super) index: usize,
}

/// How many ops [`Reader::read_ops_until`] scans before it builds them.
pub(super) const OWN_BATCH_OPS: usize = 8;

/// Where [`Reader::read_ops_until`] stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Reached {
    /// The list ended.
    End,
    /// The stream stands at the stop, before an op.
    Stop,
    /// The stream stands past the stop, before an op.
    Past,
}
