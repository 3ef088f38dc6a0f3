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
use pir_core::{AttrDict, Attribute, BlockId, IrContext, OpId, Program, Symbol, Type, ValueId};
use pir_json::Kind;
use rustc_hash::FxHashMap;

use crate::error::ReadError;
use crate::names::decompress_op_name;
use crate::param_form::{self, Slot};
use crate::patch::{self, Json, PatchSet, CURRENT_VERSION};

mod compact;
mod direct;
mod kept;
mod scan;
mod streamed;
mod tables;
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
    /// the environment variable `PIR_LOAD_THREADS` if set, else every core;
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
/// use one thread (`PIR_LOAD_THREADS=1`, or one core).
pub fn prepare_threads() {
    if threads::threads(&ReadOptions::default()) > 1 {
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
        readable: bytes.starts_with(b"{\n"),
    })
}

/// About how many ops a file of `len` bytes holds (for reserving tables).
fn approx_ops(len: usize) -> usize {
    len / 260
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
    let mut reader = Reader::new(
        doc.text(),
        ctx,
        options,
        header.patches.take(),
        bytes.len(),
        &|_| {},
    );
    let top_block = reader.program.top_block();
    reader.read_block(block, top_block, &blocks_path.index(0))?;
    finish_program(reader.program, &header, bytes)
}

/// The patches a file of `version` needs: the built-in upgrade chain, then the user's.
fn patches_for(version: u64, options: &ReadOptions) -> Result<Option<PatchSet>, ReadError> {
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

/// Symbols of the parameter op's short form, interned once per load.
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

struct Reader<'o, 'a> {
    /// The file's text: cache keys are slices of it, so they cost no copies.
    input: &'a str,
    ctx: Arc<IrContext>,
    program: Program,
    /// Value ids of the file → values.
    values: ValueTable,
    /// Compressed op name as written → symbol.
    names: FxHashMap<Box<str>, Symbol>,
    options: &'o ReadOptions,
    /// Scratch buffer for one op's attributes.
    attrs: Vec<(Symbol, Attribute)>,
    syms: ParamSymbols,
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
    resolved: streamed::Resolved,
    batch: scan::Batch<'a>,
    /// Scratch buffers of one op, reused across ops.
    operands: Vec<Option<ValueId>>,
    result_types: Vec<Type>,
    result_ids: Vec<Option<i64>>,
    /// How many ops were read field by field (see [`scan`]).
    plain_ops: usize,
    /// Where the top block's ops may be cut for a second thread.
    plan: threads::Plan,
    /// How many ops were scanned on a second thread.
    scanned_apart: usize,
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
        patches: Option<PatchSet>,
        file_len: usize,
        release: &'o dyn Fn(Range<usize>),
    ) -> Reader<'o, 'a> {
        let approx_ops = approx_ops(file_len);
        // Models whose ops carry a name each (a parameter's, a layer's
        // `struct_name`) bring a new dictionary per op and a new string for
        // about every other: room for them up front spares the tables'
        // growth (rehashing, and the old table held meanwhile).
        ctx.reserve_interned(approx_ops / 2, approx_ops);
        Reader {
            input,
            ctx: ctx.clone(),
            program: Program::with_capacity(ctx.clone(), approx_ops),
            values: ValueTable::new(file_len, approx_ops),
            names: FxHashMap::default(),
            options,
            attrs: Vec::with_capacity(16),
            syms: ParamSymbols::new(&ctx),
            patches,
            pairs: patch::PairState::default(),
            type_cache: tables::with_room(tables::small_table_room(approx_ops)),
            dict_cache: DictCache::default(),
            entry_cache: tables::with_room(tables::small_table_room(approx_ops)),
            last_str_name: None,
            scanner: scan::Scanner::with_capacity(approx_ops),
            resolved: streamed::Resolved::default(),
            batch: scan::Batch::default(),
            operands: Vec::new(),
            result_types: Vec::new(),
            result_ids: Vec::new(),
            plain_ops: 0,
            plan: threads::Plan::default(),
            scanned_apart: 0,
            release,
            released_to: 0,
        }
    }
}

impl<'a> Reader<'_, 'a> {
    /// Tells [`Reader::release`] that the reader has gone past `offset`, when
    /// that is a step ([`threads::Plan::release_step`]) beyond what it was
    /// told last.
    fn went_past(&mut self, offset: usize) {
        if offset >= self.released_to.saturating_add(self.plan.release_step) {
            (self.release)(self.released_to..offset);
            self.released_to = offset;
        }
    }

    /// `text` as a slice of the file, when it is one (the JSON of a patched op is not):
    /// only such slices serve as cache keys.
    fn in_input(&self, text: &str) -> Option<&'a str> {
        let start = (text.as_ptr() as usize).checked_sub(self.input.as_ptr() as usize)?;
        self.input.get(start..start.checked_add(text.len())?)
    }

    fn read_block(
        &mut self,
        block_json: JsonValue<'_>,
        block: BlockId,
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        serial::field(block_json, "#", path)?;
        self.read_block_args(serial::field(block_json, "args", path)?, block, path)?;
        if let Some(kwargs) = block_json.get("kwargs") {
            self.read_block_kwargs(kwargs, block, path)?;
        }
        let ops_path = path.key("ops");
        for (i, op_json) in
            serial::array(serial::field(block_json, "ops", path)?, &ops_path)?.enumerate()
        {
            let op = self.read_op(op_json, &ops_path.index(i))?;
            self.program.append_op(block, op);
        }
        Ok(())
    }

    /// A block's `args` (its path is `path.args`).
    fn read_block_args(
        &mut self,
        args: JsonValue<'_>,
        block: BlockId,
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        let args_path = path.key("args");
        for (i, arg) in serial::array(args, &args_path)?.enumerate() {
            let apath = args_path.index(i);
            let id = serial::int(serial::field(arg, "#", &apath)?, &apath.key("#"))?;
            let ty = self.read_type(serial::field(arg, "TT", &apath)?, &apath.key("TT"))?;
            let v = self.program.add_block_arg(block, ty);
            self.bind(id, v, &apath.key("#"))?;
        }
        Ok(())
    }

    /// A block's `kwargs` (its path is `path.kwargs`).
    fn read_block_kwargs(
        &mut self,
        kwargs: JsonValue<'_>,
        block: BlockId,
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        let kw_path = path.key("kwargs");
        for (i, kw) in serial::array(kwargs, &kw_path)?.enumerate() {
            let kpath = kw_path.index(i);
            let id = serial::int(serial::field(kw, "#", &kpath)?, &kpath.key("#"))?;
            let ty = serial::decode_type(
                &self.ctx,
                serial::field(kw, "TT", &kpath)?,
                &kpath.key("TT"),
            )?;
            // Paddle 3.3's writer stores a copy of the positional args here, without names;
            // such entries get the argument's id as name so nothing is lost.
            let name = match kw.get("key") {
                Some(k) => serial::string(k, &kpath.key("key"))?.into_owned(),
                None => format!("arg{}", id.unsigned_abs()),
            };
            let name = self.ctx.symbol(&name);
            let v = self.program.add_block_kwarg(block, name, ty);
            self.bind(id, v, &kpath.key("#"))?;
        }
        Ok(())
    }

    fn bind(&mut self, id: i64, v: ValueId, path: &JsonPath<'_>) -> Result<(), ReadError> {
        self.bind_or(id, v, |message| invalid(path, message))
    }

    /// [`Reader::bind`] with its error made by `error` from the message: a
    /// caller makes the path only when there is an error.
    #[inline]
    fn bind_or(
        &mut self,
        id: i64,
        v: ValueId,
        error: impl FnOnce(String) -> ReadError,
    ) -> Result<(), ReadError> {
        if id == 0 {
            return Err(error("value id 0 is reserved for absent values".into()));
        }
        if !self.values.insert(id, v) {
            return Err(error(format!("value id {id} is defined twice")));
        }
        Ok(())
    }

    fn lookup(&self, id: i64, path: &JsonPath<'_>) -> Result<Option<ValueId>, ReadError> {
        self.lookup_or(id, |message| invalid(path, message))
    }

    /// [`Reader::lookup`] with its error made by `error` from the message.
    #[inline]
    fn lookup_or(
        &self,
        id: i64,
        error: impl FnOnce(String) -> ReadError,
    ) -> Result<Option<ValueId>, ReadError> {
        if id == 0 {
            return Ok(None);
        }
        match self.values.get(id) {
            Some(v) => Ok(Some(v)),
            None if self.options.lenient_operands => Ok(None),
            None => Err(error(format!(
                "value id {id} is not defined before its use"
            ))),
        }
    }

    fn op_name(&mut self, raw: JsonValue<'_>, path: &JsonPath<'_>) -> Result<Symbol, ReadError> {
        let compressed = serial::string(raw, path)?;
        self.op_name_text(&compressed, path)
    }

    /// The symbol of the op name written `compressed` (`1.matmul`).
    fn op_name_text(&mut self, compressed: &str, path: &JsonPath<'_>) -> Result<Symbol, ReadError> {
        if let Some(&s) = self.names.get(compressed) {
            return Ok(s);
        }
        let full = decompress_op_name(compressed).map_err(|id| {
            invalid(
                path,
                format!("unknown dialect id `{id}` in op name `{compressed}`"),
            )
        })?;
        let sym = self.ctx.symbol(&full);
        self.names.insert(compressed.into(), sym);
        Ok(sym)
    }

    fn read_op(&mut self, op_json: JsonValue<'_>, path: &JsonPath<'_>) -> Result<OpId, ReadError> {
        if self.patches.is_some() {
            if let Some(patched) = self.patch_op(op_json, path)? {
                let doc = pir_json::parse(&patched)
                    .map_err(|e| invalid(path, format!("the patched op is not valid JSON: {e}")))?;
                return self.read_op_json(doc.root(), path);
            }
        }
        self.read_op_json(op_json, path)
    }

    /// The op's JSON after the patches that concern it, or `None` when none does.
    fn patch_op(
        &mut self,
        op_json: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Option<Vec<u8>>, ReadError> {
        let Some(set) = self.patches.take() else {
            return Ok(None);
        };
        let result = self.patch_op_with(&set, op_json, path);
        self.patches = Some(set);
        result
    }

    fn patch_op_with(
        &mut self,
        set: &PatchSet,
        op_json: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Option<Vec<u8>>, ReadError> {
        let name_json = serial::field(op_json, "#", path)?;
        let is_param = name_json.str_eq(param_form::SHORT_NAME);
        let name = if is_param {
            param_form::OP_NAME.to_owned()
        } else {
            let sym = self.op_name(name_json, &path.key("#"))?;
            self.ctx.symbol_str(sym).to_owned()
        };
        let op_patch = set.ops.get(&name);
        let pairs: Vec<usize> = (0..set.pairs.len())
            .filter(|&i| set.pairs[i].producer == name || set.pairs[i].consumer == name)
            .collect();
        let renames = !set.type_renames.is_empty() || !set.attr_renames.is_empty();
        if op_patch.is_none() && pairs.is_empty() && !renames {
            return Ok(None);
        }
        let mut tree = Json::from_value(op_json);
        let where_ = path.to_string();
        if let Some(p) = op_patch {
            if is_param {
                patch::apply_parameter_patch(&mut tree, p, &where_)?;
            } else {
                patch::apply_op_patch(&mut tree, p, &where_, &name)?;
            }
        }
        for i in pairs {
            self.pairs.apply(&mut tree, set, i, &name, &where_)?;
        }
        patch::apply_id_renames(&mut tree, set);
        Ok(Some(tree.to_bytes()))
    }

    fn read_op_json(
        &mut self,
        op_json: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<OpId, ReadError> {
        // One pass over the members instead of a key search per field.
        let Some(members) = op_json.object() else {
            return Err(invalid(
                path,
                format!("expected an op object, found {}", serial::describe(op_json)),
            ));
        };
        let (mut name_json, mut inputs, mut outputs, mut a, mut oa, mut regions) =
            (None, None, None, None, None, None);
        for (key, value) in members.raw() {
            let slot = match key.raw_str() {
                Some("#") => &mut name_json,
                Some("I") => &mut inputs,
                Some("O") => &mut outputs,
                Some("A") => &mut a,
                Some("OA") => &mut oa,
                Some("regions") => &mut regions,
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(value);
            }
        }
        let missing = |key: &str| invalid(path, format!("missing key `{key}`"));
        let name_json = name_json.ok_or_else(|| missing("#"))?;
        if name_json.str_eq(param_form::SHORT_NAME) {
            return self.read_parameter_op(op_json, path);
        }
        let name = self.op_name(name_json, &path.key("#"))?;
        if self.options.strict && self.ctx.op_info(name).is_none() {
            let text = self.ctx.symbol_str(name);
            return Err(invalid(&path.key("#"), format!("unknown op `{text}`")));
        }

        let inputs_path = path.key("I");
        let inputs = serial::array(inputs.ok_or_else(|| missing("I"))?, &inputs_path)?;
        let mut operands = std::mem::take(&mut self.operands);
        operands.clear();
        for (i, input) in inputs.enumerate() {
            let ipath = inputs_path.index(i);
            let id = serial::int(serial::field(input, "%", &ipath)?, &ipath.key("%"))?;
            operands.push(self.lookup(id, &ipath.key("%"))?);
        }

        let outputs_path = path.key("O");
        let outputs = serial::array(outputs.ok_or_else(|| missing("O"))?, &outputs_path)?;
        let mut result_types = std::mem::take(&mut self.result_types);
        let mut result_ids = std::mem::take(&mut self.result_ids);
        result_types.clear();
        result_ids.clear();
        for (i, output) in outputs.enumerate() {
            let opath = outputs_path.index(i);
            let (mut id, mut tt) = (None, None);
            if let Some(members) = output.object() {
                for (key, value) in members.raw() {
                    match key.raw_str() {
                        Some("%") if id.is_none() => id = Some(value),
                        Some("TT") if tt.is_none() => tt = Some(value),
                        _ => {}
                    }
                }
            }
            let tt = tt.ok_or_else(|| {
                invalid(
                    &opath,
                    format!(
                        "expected a result {{\"%\",\"TT\"}}, found {}",
                        serial::describe(output)
                    ),
                )
            })?;
            result_types.push(self.read_type(tt, &opath.key("TT"))?);
            result_ids.push(match id {
                Some(id) => Some(serial::int(id, &opath.key("%"))?),
                None => None,
            });
        }

        let attrs = self.read_attr_dict(a.ok_or_else(|| missing("A"))?, oa, path)?;

        let num_regions = match regions {
            Some(r) => serial::array(r, &path.key("regions"))?.len(),
            None => 0,
        };
        if let Err(e) = pir_core::program::check_op_shape(result_types.len(), num_regions) {
            return Err(invalid(path, e.to_string()));
        }
        let op = self
            .program
            .create_op(name, &operands, &result_types, attrs, num_regions);
        self.operands = operands;
        self.result_types = result_types;
        for (i, id) in result_ids.iter().enumerate() {
            if let Some(id) = *id {
                let v = self.program.result(op, i);
                self.bind(id, v, &outputs_path.index(i).key("%"))?;
            }
        }
        self.result_ids = result_ids;
        if let Some(regions_json) = regions {
            let rpath = path.key("regions");
            for (r, region_json) in serial::array(regions_json, &rpath)?.enumerate() {
                let region_path = rpath.index(r);
                serial::field(region_json, "#", &region_path)?;
                let region = self.program.op_region(op, r);
                let bpath = region_path.key("blocks");
                for (b, block_json) in
                    serial::array(serial::field(region_json, "blocks", &region_path)?, &bpath)?
                        .enumerate()
                {
                    let block = self.program.add_block(region);
                    self.read_block(block_json, block, &bpath.index(b))?;
                }
            }
        }
        Ok(op)
    }

    /// Reads a type, decoding each distinct JSON text once.
    fn read_type(&mut self, v: JsonValue<'_>, path: &JsonPath<'_>) -> Result<Type, ReadError> {
        let key = self.in_input(v.text_key());
        if let Some(ty) = key.and_then(|k| self.type_cache.get(k)) {
            return Ok(*ty);
        }
        let ty = serial::decode_type(&self.ctx, v, path)?;
        if let Some(key) = key {
            self.type_cache.insert(key, ty);
        }
        Ok(ty)
    }

    /// Reads an op's `A` then `OA` entries into an attribute dictionary,
    /// decoding each distinct pair of lists once.
    fn read_attr_dict(
        &mut self,
        a: JsonValue<'_>,
        oa: Option<JsonValue<'_>>,
        path: &JsonPath<'_>,
    ) -> Result<AttrDict, ReadError> {
        let key = match (
            self.in_input(a.text_key()),
            oa.map(|oa| self.in_input(oa.text_key())),
        ) {
            (Some(a), None) => Some(DictKey::new((a, ""))),
            (Some(a), Some(Some(oa))) => Some(DictKey::new((a, oa))),
            _ => None,
        };
        if let Some(dict) = key.and_then(|k| self.dict_cache.get(&k)) {
            return Ok(dict);
        }
        self.attrs.clear();
        self.read_attr_list(a, &path.key("A"))?;
        if let Some(oa) = oa {
            self.read_attr_list(oa, &path.key("OA"))?;
        }
        let dict = self.ctx.dict(&self.attrs);
        if let Some(key) = key {
            self.dict_cache.insert(key, dict);
        }
        Ok(dict)
    }

    /// Reads `[{"AT":attr,"N":name}, ...]` into `self.attrs`.
    fn read_attr_list(
        &mut self,
        list: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        for (i, entry) in serial::array(list, path)?.enumerate() {
            let key = self.in_input(entry.text_key());
            if let Some(&cached) = key.and_then(|k| self.entry_cache.get(k)) {
                self.attrs.push(cached);
                continue;
            }
            let entry = self.read_attr_entry(entry, &path.index(i))?;
            self.attrs.push(entry);
            if let Some(key) = key {
                self.entry_cache.insert(key, entry);
            }
        }
        Ok(())
    }

    /// One `{"AT":attr,"N":name}` entry.
    fn read_attr_entry(
        &mut self,
        entry: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<(Symbol, Attribute), ReadError> {
        let name = serial::string(serial::field(entry, "N", path)?, &path.key("N"))?;
        let attr = serial::decode_attr(
            &self.ctx,
            serial::field(entry, "AT", path)?,
            &path.key("AT"),
        )?;
        Ok((self.ctx.symbol(&name), attr))
    }

    /// Reads the short form of `builtin.parameter` (format spec §2.7).
    fn read_parameter_op(
        &mut self,
        op_json: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<OpId, ReadError> {
        let apath = path.key("A");
        let [dist, is_param, clip, name] =
            serial::array_n::<4>(serial::field(op_json, "A", path)?, &apath)?;
        let flag = |v: JsonValue<'_>, p: &JsonPath<'_>| serial::int(v, p).map(|i| i != 0);
        self.attrs.clear();
        for (i, (v, (attr, _))) in [dist, is_param, clip]
            .into_iter()
            .zip(param_form::A_FLAGS)
            .enumerate()
        {
            let a = self.syms.flag(flag(v, &apath.index(i))?);
            self.attrs.push((self.syms.get(attr), a));
        }
        let name = serial::string(name, &apath.index(3))?;
        let name_attr = StrAttr::get(&self.ctx, &name);
        self.attrs
            .push((self.syms.get(Slot::ParameterName), name_attr));
        for key in ["DA", "QA"] {
            if let Some(list) = op_json.get(key) {
                self.read_attr_list(list, &path.key(key))?;
            }
        }
        if let Some(oa) = op_json.get("OA") {
            let oapath = path.key("OA");
            let values = serial::array_n::<3>(oa, &oapath)?;
            for (i, (v, (attr, _))) in values.into_iter().zip(param_form::OA_FLAGS).enumerate() {
                let a = self.syms.flag(flag(v, &oapath.index(i))?);
                self.attrs.push((self.syms.get(attr), a));
            }
        }
        let attrs: AttrDict = self.ctx.dict(&self.attrs);
        let opath = path.key("O");
        let output = serial::field(op_json, "O", path)?;
        if output.kind() != Kind::Object {
            return Err(invalid(
                &opath,
                format!("expected an object, found {}", serial::describe(output)),
            ));
        }
        let ty = self.read_type(serial::field(output, "TT", &opath)?, &opath.key("TT"))?;
        let op = self.program.create_op(self.syms.op, &[], &[ty], attrs, 0);
        if let Some(id) = output.get("%") {
            let id = serial::int(id, &opath.key("%"))?;
            let v = self.program.result(op, 0);
            self.bind(id, v, &opath.key("%"))?;
        }
        Ok(op)
    }
}

#[cfg(test)]
mod tests;
