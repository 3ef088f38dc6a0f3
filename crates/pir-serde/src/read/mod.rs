//! Reading Paddle's JSON model format (format spec §2) into a [`Program`].
//!
//! The document is parsed once into a zero-copy DOM, then walked in one pass:
//! each op's types and attributes are decoded through the context's registry
//! (the dialects own their encodings), op names are decompressed once per
//! distinct name, and value ids are resolved through one table for the whole
//! program (results positive, block arguments negative, 0 = absent).

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use pir_core::builtin::{bool_array, StrAttr};
use pir_core::serial::{self, JsonPath, JsonValue};
use pir_core::{
    AttrDef, AttrDict, Attribute, BlockId, IrContext, OpId, Program, Symbol, Type, ValueId,
};
use pir_json::Kind;
use rustc_hash::FxHashMap;

use crate::error::ReadError;
use crate::names::decompress_op_name;
use crate::param_form::{self, Slot};
use crate::patch::{self, Json, PatchSet, CURRENT_VERSION};

mod build;
mod compact;
mod direct;
mod document;
mod kept;
mod readable;
mod scan;
mod streamed;
mod tables;
mod template;
mod template_lent;
mod threads;

use streamed::read_streamed;
use tables::{DictCache, DictKey, ValueTable};

/// Options of the reader.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// Treat an operand id that names no value as an absent operand, as Paddle
    /// does silently, instead of failing.
    pub lenient_operands: bool,
    /// Extra patches applied after the version upgrade (e.g. for models from forks).
    pub patches: Option<Arc<PatchSet>>,
    /// Read files of version 0 (written by development builds) by applying all
    /// released patches; Paddle 3.3.1 itself refuses them.
    pub accept_develop_version: bool,
    /// Every op must be registered: an unknown op name (a typo, an op of a
    /// newer release) is an error instead of an unregistered op.
    pub strict: bool,
    /// How many threads a file's ops may be read on: 0 (the default) takes
    /// the environment variable `PIR_LOAD_THREADS` if set (read once, at
    /// the process's first read that asks), else every core;
    /// 1 reads on the calling thread only. More than one uses the scanning
    /// thread the process keeps (see [`prepare_threads`]) for lists of ops
    /// of 16 KiB and more. The program read is the same whatever the number.
    pub threads: usize,
}

/// Starts the scanning thread that reads with more than one thread (see
/// [`ReadOptions::threads`]) keep between reads, so that a process's first
/// read finds it awake; a read starts it otherwise, and reads on alone
/// while it wakes. After a read the thread spins a short while (so that
/// the next read finds it at once), then sleeps. Does nothing where reads
/// use one thread (`PIR_LOAD_THREADS=1`, or one core), nor when the
/// largest text to be read (`largest_bytes`) is read on one thread anyway:
/// then starting the thread (and reading the cgroup's core quota) would be
/// most of a small command's work.
pub fn prepare_threads(largest_bytes: u64) {
    let used = usize::try_from(largest_bytes).map_or(true, |n| n >= threads::MIN_BYTES);
    if used && threads::threads(&ReadOptions::default()) > 1 {
        let _ = kept::Kept::global();
    }
}

/// A program read from a model file, with the file's header.
#[derive(Debug)]
pub struct LoadedProgram {
    /// The program.
    pub program: Program,
    /// `base_code.trainable` (false when absent).
    pub trainable: bool,
    /// `base_code.version`.
    pub version: u64,
    /// Whether the file was in Paddle's indented (`readable`) form.
    pub readable: bool,
}

impl LoadedProgram {
    /// A program made in memory (e.g. translated from a legacy `.pdmodel`)
    /// with the header Paddle 3.3.1 saves such a program under: trainable,
    /// the current version, compact.
    pub fn translated(program: Program) -> LoadedProgram {
        LoadedProgram {
            program,
            trainable: true,
            version: crate::PIR_VERSION,
            readable: false,
        }
    }
}

/// Reads a model file.
pub fn read_file(
    ctx: Arc<IrContext>,
    path: &Path,
    options: &ReadOptions,
) -> Result<LoadedProgram, ReadError> {
    read_slice(ctx, &read_bytes(path)?, options)
}

/// The bytes of a model file, or an error naming it.
pub(crate) fn read_bytes(path: &Path) -> Result<Vec<u8>, ReadError> {
    std::fs::read(path).map_err(|source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads a model from bytes.
///
/// Paddle's layout (`base_code` before `program`, the members of every block in
/// key order) is read as a stream, one op's JSON at a time, so a large file
/// never exists as a whole-document tree. Any other layout, and any error, goes
/// through the whole-document reader, which gives the canonical error.
pub fn read_slice(
    ctx: Arc<IrContext>,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<LoadedProgram, ReadError> {
    read_slice_releasing(ctx, bytes, options, &|_| {})
}

/// [`read_slice`], telling `release` the ranges of `bytes` it does not
/// expect to read again soon: the whole once it has checked that it is
/// UTF-8 (which reads every byte; from 32 MiB on), then, as it reads the
/// ops, what it has gone past, a few MiB at a time. It reads a few bytes in those ranges
/// again (the first texts of types and attribute entries it remembers), so
/// the bytes must stay readable; the owner of a memory map may drop the
/// pages from its resident memory, to be mapped again from the file when
/// read (as `pir::read_program` does with `pir_params::release_pages`). A
/// large file is then not resident as a whole while its program is built.
pub fn read_slice_releasing(
    ctx: Arc<IrContext>,
    bytes: &[u8],
    options: &ReadOptions,
    release: &dyn Fn(Range<usize>),
) -> Result<LoadedProgram, ReadError> {
    if readable::is_readable(bytes) {
        if let Some(loaded) = readable::read_readable(ctx.clone(), bytes, options, release) {
            return Ok(loaded);
        }
    }
    if let Ok(Some(loaded)) = read_streamed(ctx.clone(), bytes, options, release) {
        return Ok(loaded);
    }
    read_whole(ctx, bytes, options)
}

/// `base_code`: the version, the trainable flag and the patches the version needs.
struct Header {
    version: u64,
    trainable: bool,
    patches: Option<PatchSet>,
}

fn read_header(
    base: JsonValue<'_>,
    base_path: &JsonPath<'_>,
    options: &ReadOptions,
) -> Result<Header, ReadError> {
    let magic = serial::field(base, "magic", base_path)?;
    if !magic.str_eq("pir") {
        return Err(ReadError::BadMagic {
            path: base_path.key("magic").to_string(),
            found: serial::describe(magic),
        });
    }
    let version = serial::uint(
        serial::field(base, "version", base_path)?,
        &base_path.key("version"),
    )?;
    let trainable = match base.get("trainable") {
        Some(t) => serial::boolean(t, &base_path.key("trainable"))?,
        None => false,
    };
    let patches = patches_for(version, options)?;
    Ok(Header {
        version,
        trainable,
        patches,
    })
}

/// The program and header into the loaded form, with the checks that need the whole program.
fn finish_program(
    program: Program,
    header: &Header,
    bytes: &[u8],
) -> Result<LoadedProgram, ReadError> {
    // The arenas keep their spare room (see `Program::shrink_to_fit`).
    if header.version > CURRENT_VERSION {
        check_newer_file(&program, header.version)?;
    }
    Ok(LoadedProgram {
        program,
        trainable: header.trainable,
        version: header.version,
        readable: readable::is_readable(bytes),
    })
}

/// About how many ops a file of `len` bytes holds (for reserving tables).
fn approx_ops(len: usize) -> usize {
    len / 260
}

/// [`approx_ops`] of a file saved `trainable` or not: an untrainable
/// file's ops have no `OA` lists, so are about a third shorter (a small
/// program's arenas grew, copied, at the end of its read).
fn approx_ops_saved(len: usize, trainable: bool) -> usize {
    match trainable {
        true => approx_ops(len),
        false => len / 180,
    }
}

/// Reads a model from its whole-document tree.
fn read_whole(
    ctx: Arc<IrContext>,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<LoadedProgram, ReadError> {
    let doc = pir_json::parse(bytes)?;
    let root = doc.root();
    let top = JsonPath::Root("");
    let Some(base) = root.get("base_code") else {
        return Err(ReadError::NotAModel(match root.kind() {
            Kind::Object => "a JSON object without `base_code`".into(),
            _ => format!("the JSON document is {}", serial::describe(root)),
        }));
    };
    let mut header = read_header(base, &top.key("base_code"), options)?;
    let program_json = serial::field(root, "program", &top)?;
    let program_path = top.key("program");
    let regions_path = program_path.key("regions");
    let regions: Vec<JsonValue<'_>> = serial::array(
        serial::field(program_json, "regions", &program_path)?,
        &regions_path,
    )?
    .collect();
    if regions.len() != 1 {
        return Err(ReadError::Invalid {
            path: regions_path.to_string(),
            message: format!(
                "the program must have exactly 1 region, has {}",
                regions.len()
            ),
        });
    }
    let region_path = regions_path.index(0);
    let blocks_path = region_path.key("blocks");
    let mut blocks = serial::array(
        serial::field(regions[0], "blocks", &region_path)?,
        &blocks_path,
    )?;
    let Some(block) = blocks.next() else {
        return Err(ReadError::Invalid {
            path: blocks_path.to_string(),
            message: "the program region has no block".into(),
        });
    };
    let mut reader = Reader::new(doc.text(), ctx, options, &mut header, bytes.len(), &|_| {});
    let top_block = reader.program.top_block();
    reader.read_block(block, top_block, &blocks_path.index(0))?;
    finish_program(reader.into_program(), &header, bytes)
}

/// The patches a file of `version` needs: the built-in upgrade chain, then the user's.
fn patches_for(version: u64, options: &ReadOptions) -> Result<Option<PatchSet>, ReadError> {
    // Files of this reader's version, the commonest, need none: spared
    // making an empty set and finding it empty (1 % of reading a small model).
    if version >= CURRENT_VERSION && options.patches.is_none() {
        return Ok(None);
    }
    let from = match version {
        0 if options.accept_develop_version => 1,
        0 => {
            return Err(ReadError::Version {
                version,
                message: "version 0 files come from development builds; pass accept_develop_version to upgrade them \
                          with every released patch"
                    .into(),
            })
        }
        v => v,
    };
    let mut set = patch::upgrade_patches(from)?;
    if let Some(user) = &options.patches {
        set.merge((**user).clone());
    }
    Ok((!set.is_empty()).then_some(set))
}

/// A file newer than this reader loads only if it uses nothing the reader lacks:
/// every op of a known dialect must be known.
fn check_newer_file(program: &Program, version: u64) -> Result<(), ReadError> {
    let mut unknown = None;
    program.walk(program.module_op(), pir_core::walk::Order::Pre, &mut |op| {
        let name = program.op_name_str(op);
        let known_dialect = crate::names::DIALECT_IDS
            .iter()
            .any(|(d, _)| name.starts_with(&format!("{d}.")));
        if unknown.is_none() && known_dialect && program.op_info(op).is_none() {
            unknown = Some(name.to_owned());
        }
    });
    match unknown {
        Some(op) => Err(ReadError::Version {
            version,
            message: format!("the file is newer than this reader (version {CURRENT_VERSION}) and uses `{op}`, which it does not know"),
        }),
        None => Ok(()),
    }
}

/// Keeps `entry`, decoded from `text`, in the context for later reads
/// (see [`IrContext::entry_of_text`]), unless it holds a string: such
/// entries name a layer or a parameter and mostly occur once, so they
/// would fill the context's bounded room for texts.
fn remember_entry_text(ctx: &IrContext, text: &str, entry: (Symbol, Attribute)) {
    let holds_string = StrAttr::JSON_IDS
        .iter()
        .any(|id| memchr::memmem::find(text.as_bytes(), id.as_bytes()).is_some());
    if !holds_string {
        ctx.remember_entry_text(text, entry);
    }
}

/// Symbols of the parameter op's short form, interned once per context
/// (see [`Kept`]).
#[derive(Clone, Copy)]
struct ParamSymbols {
    /// [`param_form::NAMES`], interned.
    names: [Symbol; param_form::NAMES.len()],
    /// `builtin.parameter`.
    op: Symbol,
    /// `[false]` and `[true]`: every flag of a parameter op is one of them.
    flags: [Attribute; 2],
}

impl ParamSymbols {
    fn new(ctx: &IrContext) -> Self {
        ParamSymbols {
            names: param_form::NAMES.map(|n| ctx.symbol(n)),
            op: ctx.symbol(param_form::OP_NAME),
            flags: [bool_array(ctx, &[false]), bool_array(ctx, &[true])],
        }
    }

    fn flag(&self, value: bool) -> Attribute {
        self.flags[usize::from(value)]
    }

    fn get(&self, attr: Slot) -> Symbol {
        self.names[attr.index()]
    }
}

/// What readers keep in their context between reads (see
/// [`IrContext::keep`]): handles that depend on the context alone, so a
/// read of a small model does not look up again what the last one found
/// (decompressing and interning a name per op kind was a tenth of such a
/// read).
#[derive(Default)]
struct Kept {
    /// Compressed op name as written → symbol.
    names: FxHashMap<Box<str>, Symbol>,
    /// The bytes `names` holds, counted as they are added: a read ends
    /// with a [`footprint`](pir_core::context::KeptState::footprint).
    names_bytes: usize,
    /// The parameter op's symbols, once a read has met a parameter op.
    params: Option<ParamSymbols>,
    /// Op kinds' templates (see [`template`]), shared with the scanning
    /// thread during a read (see [`template_lent`]).
    templates: template_lent::Shared,
    /// How many ops of each kind the last read whose ops before its cut
    /// were nearly all built from templates had met at the cut: where the
    /// scanning thread counts from on the next read of the same text.
    seeds: Option<Arc<template_lent::Seeds>>,
    /// The length of the last text whose cut lay inside an op (in a
    /// region, most often): read again, it is read on one thread.
    past_cut: Option<usize>,
    /// The last read's buffers, emptied.
    buffers: tables::Buffers<'static>,
}

impl Kept {
    /// Names kept at the most: models use a few hundred kinds of op; a
    /// stream of made-up names stops adding here.
    const MAX_NAMES: usize = 4096;

    /// Keeps the symbol of the op name written `compressed`, unless the
    /// table is full.
    fn remember_name(&mut self, compressed: &str, sym: Symbol) {
        if self.names.len() < Self::MAX_NAMES && self.names.insert(compressed.into(), sym).is_none()
        {
            self.names_bytes += compressed.len() + std::mem::size_of::<(Box<str>, Symbol)>();
        }
    }
}

/// Kept boxed: a read takes and gives back the box rather than make a
/// new one and move the state in and out of it.
impl pir_core::context::KeptState for Box<Kept> {
    fn footprint(&self) -> usize {
        self.names_bytes + self.templates.bytes() + self.buffers.bytes()
    }

    /// Nothing to clear: all it holds serves every read.
    fn prepare(&mut self) {}
}

struct Reader<'o, 'a> {
    /// The file's text: cache keys are slices of it, so they cost no copies.
    input: &'a str,
    ctx: Arc<IrContext>,
    program: Program,
    /// Value ids of the file → values.
    values: ValueTable,
    /// What the last read of this context found (op names, the parameter
    /// op's symbols), given back to the context at the end of the read.
    kept: Box<Kept>,
    options: &'o ReadOptions,
    /// Scratch buffer for one op's attributes.
    attrs: Vec<(Symbol, Attribute)>,
    /// The merged version and user patches, if any apply.
    patches: Option<PatchSet>,
    /// What the op-pair patches carry from producers to consumers.
    pairs: patch::PairState,
    /// Types by their JSON text: real models repeat a handful of types
    /// thousands of times, so each distinct text is decoded once.
    type_cache: FxHashMap<&'a str, Type>,
    /// Attribute dictionaries by the JSON text of the op's `A` and `OA` lists.
    dict_cache: DictCache<'a, AttrDict>,
    /// Attribute entries (`{"AT":…,"N":…}`) by their JSON text.
    entry_cache: FxHashMap<&'a str, (Symbol, Attribute)>,
    /// The name of the last plain string entry read, and its symbol.
    last_str_name: Option<(&'a str, Symbol)>,
    /// The top block's ops scanned on this thread (see [`scan`]), the
    /// handles of what the scanner numbered, and the scanned op at hand.
    scanner: scan::Scanner<'a>,
    resolved: build::Resolved,
    batch: scan::Batch<'a>,
    /// Scratch buffers of one op, reused across ops.
    operands: Vec<Option<ValueId>>,
    result_types: Vec<Type>,
    result_ids: Vec<Option<i64>>,
    /// How many ops were read field by field (see [`scan`]).
    plain_ops: usize,
    /// Where the top block's ops may be cut for a second thread.
    plan: threads::Plan,
    /// How many ops were scanned on a second thread, and of those how many
    /// matched templates.
    scanned_apart: usize,
    templated_apart: usize,
    /// Told the ranges of the file the reader has gone past (see
    /// [`read_slice_releasing`]), and where the next one starts.
    release: &'o dyn Fn(Range<usize>),
    released_to: usize,
}

fn invalid(path: &JsonPath<'_>, message: impl Into<String>) -> ReadError {
    ReadError::Invalid {
        path: path.to_string(),
        message: message.into(),
    }
}

impl<'o, 'a> Reader<'o, 'a> {
    fn new(
        input: &'a str,
        ctx: Arc<IrContext>,
        options: &'o ReadOptions,
        header: &mut Header,
        file_len: usize,
        release: &'o dyn Fn(Range<usize>),
    ) -> Reader<'o, 'a> {
        let approx_ops = approx_ops_saved(file_len, header.trainable);
        let patches = header.patches.take();
        // Models whose ops carry a name each (a parameter's, a layer's
        // `struct_name`) bring a new dictionary per op and a new string for
        // about every other: room for them up front spares the tables'
        // growth (rehashing, and the old table held meanwhile).
        ctx.reserve_interned(approx_ops / 2, approx_ops);
        let mut kept = ctx.take_kept::<Box<Kept>>();
        // Taken field by field: the buffers are large to move whole.
        let buffers = kept.buffers.take_each();
        Reader {
            input,
            ctx: ctx.clone(),
            program: Program::with_capacity(ctx.clone(), approx_ops),
            values: ValueTable::reusing(buffers.values, file_len, approx_ops),
            kept,
            options,
            attrs: buffers.attrs,
            patches,
            pairs: patch::PairState::default(),
            type_cache: tables::with_room_for(buffers.type_cache, approx_ops),
            dict_cache: DictCache::default(),
            entry_cache: tables::with_room_for(buffers.entry_cache, approx_ops),
            last_str_name: None,
            scanner: scan::Scanner::with_tables(approx_ops, buffers.scanner),
            resolved: buffers.resolved,
            batch: buffers.batch,
            operands: buffers.operands,
            result_types: buffers.result_types,
            result_ids: Vec::new(),
            plain_ops: 0,
            plan: threads::Plan::default(),
            scanned_apart: 0,
            templated_apart: 0,
            release,
            released_to: 0,
        }
    }

    /// The parameter op's symbols, interned at the first parameter op
    /// the context meets.
    fn syms(&mut self) -> ParamSymbols {
        *self
            .kept
            .params
            .get_or_insert_with(|| ParamSymbols::new(&self.ctx))
    }

    /// The program read, giving the context back what it keeps between reads.
    fn into_program(mut self) -> Program {
        // The scanning thread let go of the templates when the ops were read.
        if let Some(templates) = self.kept.templates.settle() {
            templates.read_ended();
            templates.remember_kinds(self.scanner.template_uses());
        }
        // Given back field by field, in place: the reader, its scanner and
        // the buffers are large to move.
        use std::mem::take;
        let kept = &mut self.kept.buffers;
        kept.batch = take(&mut self.batch).recycled();
        kept.resolved = take(&mut self.resolved).cleared();
        kept.values = tables::cleared(take(&mut self.values.dense));
        kept.scanner = self.scanner.take_tables().emptied();
        kept.type_cache = tables::emptied_table(take(&mut self.type_cache));
        kept.entry_cache = tables::emptied_table(take(&mut self.entry_cache));
        kept.attrs = tables::cleared(take(&mut self.attrs));
        kept.operands = tables::cleared(take(&mut self.operands));
        kept.result_types = tables::cleared(take(&mut self.result_types));
        kept.bound();
        let Reader {
            ctx, program, kept, ..
        } = self;
        ctx.keep(kept);
        program
    }
}

#[cfg(test)]
mod tests;
