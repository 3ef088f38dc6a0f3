//! The program: operations, values, operands, blocks and regions in index arenas.
//!
//! Mirrors Paddle's `pir::Program` (seed `ir-program-design.md`): a module op
//! whose single region holds the top block, plus a parameter map kept apart from
//! the graph. Entities are addressed by typed ids; a block's operations form an
//! intrusive doubly-linked list (O(1) insert, erase, move) and each value's uses
//! form an intrusive list over operand ids (replace-all-uses and erasure cost
//! O(uses)). An operation's operands, results and regions are contiguous runs
//! in their arenas, so an operation is a fixed 40-byte record.
//!
//! Erased entities stay in the arenas as tombstones; ids are never reused.
//!
//! ```
//! use std::sync::Arc;
//! use pir_core::{IrContext, Program, builtin::ScalarType};
//! let ctx = Arc::new(IrContext::new());
//! let mut p = Program::new(ctx.clone());
//! let i64_ty = ctx.intern_type(ScalarType::I64);
//! let top = p.top_block();
//! let def = p.create_op(ctx.symbol("test.def"), &[], &[i64_ty], pir_core::AttrDict::EMPTY, 0);
//! p.append_op(top, def);
//! let v = p.result(def, 0);
//! let user = p.create_op(ctx.symbol("test.use"), &[Some(v), Some(v)], &[], pir_core::AttrDict::EMPTY, 0);
//! p.append_op(top, user);
//! assert_eq!(p.use_count(v), 2);
//! ```

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use crate::attributes::{AttrDict, Attribute};
use crate::context::{IrContext, Symbol};
use crate::entity::{Arena, EntityId};
use crate::op_info::OpInfo;
use crate::types::Type;

mod edit;
mod metrics;
mod values;

crate::entity_id!(
    /// An operation.
    pub struct OpId, "op"
);
crate::entity_id!(
    /// An SSA value: an op result or a block argument.
    pub struct ValueId, "v"
);
crate::entity_id!(
    /// One operand slot of an operation (one use of a value).
    pub struct OperandId, "use"
);
crate::entity_id!(
    /// A block: a list of operations with arguments.
    pub struct BlockId, "block"
);
crate::entity_id!(
    /// A region: a list of blocks owned by an operation.
    pub struct RegionId, "region"
);

/// The most results one operation can have (its count is stored in 16 bits).
pub const MAX_RESULTS: usize = u16::MAX as usize;
/// The most regions one operation can have (its count is stored in 8 bits).
pub const MAX_REGIONS: usize = u8::MAX as usize;

/// An operation shape [`Program::create_op`] cannot store.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpShapeError {
    /// More than [`MAX_RESULTS`] results.
    #[error("{0} results; an operation has at most {MAX_RESULTS}")]
    TooManyResults(usize),
    /// More than [`MAX_REGIONS`] regions.
    #[error("{0} regions; an operation has at most {MAX_REGIONS}")]
    TooManyRegions(usize),
}

/// Checks that an op with `results` results and `regions` regions fits
/// [`Program::create_op`]; readers call it before creating ops from input.
pub fn check_op_shape(results: usize, regions: usize) -> Result<(), OpShapeError> {
    if results > MAX_RESULTS {
        return Err(OpShapeError::TooManyResults(results));
    }
    if regions > MAX_REGIONS {
        return Err(OpShapeError::TooManyRegions(regions));
    }
    Ok(())
}

const OP_ERASED: u8 = 1;

#[derive(Clone, Debug)]
pub(crate) struct OpData {
    pub(crate) name: Symbol,
    pub(crate) attrs: AttrDict,
    pub(crate) parent: Option<BlockId>,
    pub(crate) prev: Option<OpId>,
    pub(crate) next: Option<OpId>,
    pub(crate) first_operand: u32,
    pub(crate) num_operands: u32,
    pub(crate) first_result: u32,
    pub(crate) num_results: u16,
    pub(crate) num_regions: u8,
    pub(crate) flags: u8,
    pub(crate) first_region: u32,
}

const DEF_RESULT: u32 = 0;
const DEF_ARG: u32 = 1;
const DEF_KWARG: u32 = 2;
const DEF_DEAD: u32 = 3;

#[derive(Clone, Debug)]
pub(crate) struct ValueData {
    pub(crate) ty: Type,
    /// Op or block index, according to `kind_index >> 30`.
    owner: u32,
    /// Definition kind in the top 2 bits, position in the low 30.
    kind_index: u32,
    pub(crate) first_use: Option<OperandId>,
}

#[derive(Clone, Debug)]
pub(crate) struct OperandData {
    pub(crate) value: Option<ValueId>,
    pub(crate) owner: OpId,
    pub(crate) prev_use: Option<OperandId>,
    pub(crate) next_use: Option<OperandId>,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct BlockData {
    pub(crate) parent: Option<RegionId>,
    pub(crate) first_op: Option<OpId>,
    pub(crate) last_op: Option<OpId>,
    pub(crate) args: Vec<ValueId>,
    pub(crate) kwargs: Vec<(Symbol, ValueId)>,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct RegionData {
    pub(crate) parent: Option<OpId>,
    pub(crate) blocks: Vec<BlockId>,
}

/// Where a value comes from.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ValueDef {
    /// Result `index` of `op`.
    Result {
        /// The defining op.
        op: OpId,
        /// Result position.
        index: u32,
    },
    /// Positional argument `index` of `block`.
    BlockArg {
        /// The block.
        block: BlockId,
        /// Argument position.
        index: u32,
    },
    /// Keyword argument `index` of `block`.
    BlockKwarg {
        /// The block.
        block: BlockId,
        /// Keyword-argument position.
        index: u32,
    },
    /// The value's definition was erased.
    Erased,
}

/// Where to insert an operation.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum InsertPoint {
    /// At the start of a block.
    BlockStart(BlockId),
    /// At the end of a block.
    BlockEnd(BlockId),
    /// Just before an op.
    Before(OpId),
    /// Just after an op.
    After(OpId),
}

/// Errors of structural edits.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum EditError {
    /// The op's results are still used.
    #[error("cannot erase {op:?} (`{name}`): result {index} still has {uses} use(s)")]
    ResultInUse {
        /// The op.
        op: OpId,
        /// Its name.
        name: String,
        /// The used result.
        index: u32,
        /// Number of uses.
        uses: usize,
    },
    /// A block argument is still used.
    #[error("cannot erase argument {index} of {block:?}: it still has {uses} use(s)")]
    ArgInUse {
        /// The block.
        block: BlockId,
        /// The argument position.
        index: u32,
        /// Number of uses.
        uses: usize,
    },
    /// A region's blocks would move into a region nested in them.
    #[error("cannot move the blocks of {from:?} into {to:?}, which is nested in them")]
    RegionInsideItself {
        /// The region whose blocks would move.
        from: RegionId,
        /// The region nested in them.
        to: RegionId,
    },
    /// An index was out of range.
    #[error("{what} index {index} out of range (have {len})")]
    OutOfRange {
        /// What was indexed.
        what: &'static str,
        /// The index.
        index: usize,
        /// The number of items.
        len: usize,
    },
    /// The op is already erased.
    #[error("{0:?} is erased")]
    Erased(OpId),
}

/// Tensor data bound to a parameter name; implemented by the parameter crate's tensors.
pub trait ParameterData: Any + Send + Sync + fmt::Debug {
    /// For downcasting to the concrete tensor type.
    fn as_any(&self) -> &dyn Any;
    /// The raw element bytes.
    fn bytes(&self) -> &[u8];
}

/// A named parameter of the program, kept apart from the graph (Paddle's
/// `Program::parameters_`): its type and, once loaded, its data.
#[derive(Clone, Debug)]
pub struct Parameter {
    /// The parameter's type (normally a dense tensor type).
    pub ty: Type,
    /// The tensor, when parameters were loaded.
    pub data: Option<Arc<dyn ParameterData>>,
}

/// A program. See the module docs.
#[derive(Clone)]
pub struct Program {
    ctx: Arc<IrContext>,
    pub(crate) ops: Arena<OpId, OpData>,
    pub(crate) values: Arena<ValueId, ValueData>,
    pub(crate) operands: Arena<OperandId, OperandData>,
    pub(crate) blocks: Arena<BlockId, BlockData>,
    pub(crate) regions: Arena<RegionId, RegionData>,
    module: OpId,
    /// By name, in insertion order (hashed: models have thousands).
    parameters: indexmap::IndexMap<String, Parameter, rustc_hash::FxBuildHasher>,
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Program")
            .field("ops", &self.num_ops())
            .field("parameters", &self.parameters.len())
            .finish()
    }
}

impl Program {
    /// An empty program: a `builtin.module` op with one region holding one empty block.
    pub fn new(ctx: Arc<IrContext>) -> Self {
        Self::with_capacity(ctx, 0)
    }

    /// An empty program with arena room for about `ops` operations.
    pub fn with_capacity(ctx: Arc<IrContext>, ops: usize) -> Self {
        let module_name = ctx.symbol("builtin.module");
        let mut p = Program {
            ctx,
            ops: Arena::with_capacity(ops + 1),
            // About 1.3 values per op in real models (a layer norm has
            // three results): room for fewer made a 1M-op program's value
            // arena grow once near its end, copying it and holding both.
            values: Arena::with_capacity(ops + ops / 2),
            operands: Arena::with_capacity(ops * 2),
            // Room for the module's and a few more, as a first push would
            // make: made at once rather than grown from empty.
            blocks: Arena::with_capacity(4),
            regions: Arena::with_capacity(4),
            module: OpId::new(0),
            parameters: Default::default(),
        };
        p.module = p.create_op(module_name, &[], &[], AttrDict::EMPTY, 1);
        let region = p.op_region(p.module, 0);
        p.add_block(region);
        p
    }

    /// The context the program's types and attributes live in.
    #[inline]
    pub fn ctx(&self) -> &IrContext {
        &self.ctx
    }

    /// A shared handle to the context.
    pub fn ctx_arc(&self) -> &Arc<IrContext> {
        &self.ctx
    }

    /// The `builtin.module` op.
    pub fn module_op(&self) -> OpId {
        self.module
    }

    /// The module's block: where a program's top-level ops live.
    pub fn top_block(&self) -> BlockId {
        self.regions[self.op_region(self.module, 0)].blocks[0]
    }

    // ----------------------------------------------------------------- creation

    /// Creates a detached operation with fresh results and `num_regions` empty regions.
    /// Null operands (`None`) are absent optional inputs.
    ///
    /// # Panics
    /// With more than [`MAX_RESULTS`] results or [`MAX_REGIONS`] regions:
    /// readers check [`check_op_shape`] first and report a typed error.
    // Readers call it once per op: offered for inlining, a read takes
    // 0.3 % fewer instructions.
    #[inline]
    pub fn create_op(
        &mut self,
        name: Symbol,
        operands: &[Option<ValueId>],
        result_types: &[Type],
        attrs: AttrDict,
        num_regions: usize,
    ) -> OpId {
        if let Err(e) = check_op_shape(result_types.len(), num_regions) {
            panic!("{e}");
        }
        let op = self.ops.next_id();
        let first_operand = self.push_operands(op, operands);
        let first_result = self.values.len() as u32;
        for (i, &ty) in result_types.iter().enumerate() {
            self.values.push(ValueData {
                ty,
                owner: op.index() as u32,
                kind_index: (DEF_RESULT << 30) | i as u32,
                first_use: None,
            });
        }
        let first_region = self.regions.len() as u32;
        for _ in 0..num_regions {
            self.regions.push(RegionData {
                parent: Some(op),
                blocks: Vec::new(),
            });
        }
        self.ops.push(OpData {
            name,
            attrs,
            parent: None,
            prev: None,
            next: None,
            first_operand,
            num_operands: operands.len() as u32,
            first_result,
            num_results: result_types.len() as u16,
            num_regions: num_regions as u8,
            flags: 0,
            first_region,
        })
    }

    /// Appends a new empty block to a region.
    pub fn add_block(&mut self, region: RegionId) -> BlockId {
        let block = self.blocks.push(BlockData {
            parent: Some(region),
            ..Default::default()
        });
        self.regions[region].blocks.push(block);
        block
    }

    /// Appends a positional argument of type `ty` to a block.
    pub fn add_block_arg(&mut self, block: BlockId, ty: Type) -> ValueId {
        let index = self.blocks[block].args.len() as u32;
        let v = self.values.push(ValueData {
            ty,
            owner: block.index() as u32,
            kind_index: (DEF_ARG << 30) | index,
            first_use: None,
        });
        self.blocks[block].args.push(v);
        v
    }

    /// Appends a keyword argument `name` of type `ty` to a block.
    pub fn add_block_kwarg(&mut self, block: BlockId, name: Symbol, ty: Type) -> ValueId {
        let index = self.blocks[block].kwargs.len() as u32;
        let v = self.values.push(ValueData {
            ty,
            owner: block.index() as u32,
            kind_index: (DEF_KWARG << 30) | index,
            first_use: None,
        });
        self.blocks[block].kwargs.push((name, v));
        v
    }

    /// Removes positional argument `index` of a block; it must have no uses.
    pub fn erase_block_arg(&mut self, block: BlockId, index: usize) -> Result<(), EditError> {
        let args = &self.blocks[block].args;
        let v = *args.get(index).ok_or(EditError::OutOfRange {
            what: "block argument",
            index,
            len: args.len(),
        })?;
        let uses = self.use_count(v);
        if uses > 0 {
            return Err(EditError::ArgInUse {
                block,
                index: index as u32,
                uses,
            });
        }
        self.blocks[block].args.remove(index);
        self.values[v].kind_index = DEF_DEAD << 30;
        for (i, &a) in self.blocks[block].args.iter().enumerate().skip(index) {
            self.values[a].kind_index = (DEF_ARG << 30) | i as u32;
        }
        Ok(())
    }

    // ------------------------------------------------------------- op queries

    /// The op's name symbol.
    #[inline]
    pub fn op_name(&self, op: OpId) -> Symbol {
        self.ops[op].name
    }

    /// The op's name as text.
    #[inline]
    pub fn op_name_str(&self, op: OpId) -> &str {
        self.ctx.symbol_str(self.ops[op].name)
    }

    /// The op's registration, or `None` for an unregistered op.
    #[inline]
    pub fn op_info(&self, op: OpId) -> Option<&OpInfo> {
        self.ctx.op_info(self.ops[op].name)
    }

    /// Whether the op was erased.
    #[inline]
    pub fn is_erased(&self, op: OpId) -> bool {
        self.ops[op].flags & OP_ERASED != 0
    }

    /// Number of operands.
    #[inline]
    pub fn num_operands(&self, op: OpId) -> usize {
        self.ops[op].num_operands as usize
    }

    /// The operand slots of an op.
    pub fn operand_ids(&self, op: OpId) -> impl ExactSizeIterator<Item = OperandId> + Clone + '_ {
        let d = &self.ops[op];
        (d.first_operand..d.first_operand + d.num_operands).map(|i| OperandId::new(i as usize))
    }

    /// The values an op uses (`None` for an absent operand).
    pub fn operands(
        &self,
        op: OpId,
    ) -> impl ExactSizeIterator<Item = Option<ValueId>> + Clone + '_ {
        self.operand_ids(op).map(move |o| self.operands[o].value)
    }

    /// Operand `index` of an op (`None` if absent).
    pub fn operand(&self, op: OpId, index: usize) -> Option<ValueId> {
        let d = &self.ops[op];
        assert!(
            index < d.num_operands as usize,
            "operand index {index} out of range"
        );
        self.operands[OperandId::new(d.first_operand as usize + index)].value
    }

    /// Number of results.
    #[inline]
    pub fn num_results(&self, op: OpId) -> usize {
        self.ops[op].num_results as usize
    }

    /// The results of an op.
    pub fn results(
        &self,
        op: OpId,
    ) -> impl ExactSizeIterator<Item = ValueId> + Clone + DoubleEndedIterator {
        let d = &self.ops[op];
        (d.first_result..d.first_result + d.num_results as u32).map(|i| ValueId::new(i as usize))
    }

    /// Result `index` of an op.
    // Translators ask for one result of nearly every op they make.
    #[inline]
    pub fn result(&self, op: OpId, index: usize) -> ValueId {
        let d = &self.ops[op];
        assert!(
            index < d.num_results as usize,
            "result index {index} out of range"
        );
        ValueId::new(d.first_result as usize + index)
    }

    /// The op's attribute dictionary.
    #[inline]
    pub fn attrs(&self, op: OpId) -> AttrDict {
        self.ops[op].attrs
    }

    /// The op's attribute named `name`.
    pub fn attr(&self, op: OpId, name: &str) -> Option<Attribute> {
        let sym = self.ctx.lookup_symbol(name)?;
        self.ctx.dict_get(self.ops[op].attrs, sym)
    }

    /// The op's attribute named `name` when it is a `BoolAttr`.
    pub fn attr_bool(&self, op: OpId, name: &str) -> Option<bool> {
        let a = self.attr(op, name)?;
        self.ctx.attr_as::<crate::builtin::BoolAttr>(a).map(|b| b.0)
    }

    /// Replaces the op's attribute dictionary.
    pub fn set_attrs(&mut self, op: OpId, attrs: AttrDict) {
        self.ops[op].attrs = attrs;
    }

    /// Sets (or adds, at the end) one attribute.
    pub fn set_attr(&mut self, op: OpId, name: &str, attr: Attribute) {
        let sym = self.ctx.symbol(name);
        self.ops[op].attrs = self.ctx.dict_with(self.ops[op].attrs, sym, attr);
    }

    /// Removes one attribute; returns whether it was there.
    pub fn remove_attr(&mut self, op: OpId, name: &str) -> bool {
        let Some(sym) = self.ctx.lookup_symbol(name) else {
            return false;
        };
        let before = self.ops[op].attrs;
        self.ops[op].attrs = self.ctx.dict_without(before, sym);
        self.ops[op].attrs != before
    }

    /// Number of regions.
    #[inline]
    pub fn num_regions(&self, op: OpId) -> usize {
        self.ops[op].num_regions as usize
    }

    /// The regions of an op.
    pub fn regions(&self, op: OpId) -> impl ExactSizeIterator<Item = RegionId> + Clone {
        let d = &self.ops[op];
        (d.first_region..d.first_region + d.num_regions as u32).map(|i| RegionId::new(i as usize))
    }

    /// Region `index` of an op.
    pub fn op_region(&self, op: OpId, index: usize) -> RegionId {
        let d = &self.ops[op];
        assert!(
            index < d.num_regions as usize,
            "region index {index} out of range"
        );
        RegionId::new(d.first_region as usize + index)
    }

    /// The block containing the op (`None` if detached).
    #[inline]
    pub fn op_parent_block(&self, op: OpId) -> Option<BlockId> {
        self.ops[op].parent
    }

    /// The op whose region contains this op's block.
    pub fn op_parent_op(&self, op: OpId) -> Option<OpId> {
        self.op_parent_block(op)
            .and_then(|b| self.block_parent_op(b))
    }

    /// The next op in the block.
    #[inline]
    pub fn next_op(&self, op: OpId) -> Option<OpId> {
        self.ops[op].next
    }

    /// The previous op in the block.
    #[inline]
    pub fn prev_op(&self, op: OpId) -> Option<OpId> {
        self.ops[op].prev
    }

    /// Whether `ancestor` contains `op` in one of its regions (at any depth).
    pub fn is_proper_ancestor(&self, ancestor: OpId, op: OpId) -> bool {
        let mut cur = self.op_parent_op(op);
        while let Some(p) = cur {
            if p == ancestor {
                return true;
            }
            cur = self.op_parent_op(p);
        }
        false
    }

    // --------------------------------------------------------- block queries

    /// The first op of a block.
    #[inline]
    pub fn block_first_op(&self, block: BlockId) -> Option<OpId> {
        self.blocks[block].first_op
    }

    /// The last op of a block (its terminator, when it has one).
    #[inline]
    pub fn block_last_op(&self, block: BlockId) -> Option<OpId> {
        self.blocks[block].last_op
    }

    /// The ops of a block in order. Not safe against edits: use
    /// [`Program::walk_mut`] or collect first when erasing.
    pub fn block_ops(&self, block: BlockId) -> BlockOps<'_> {
        BlockOps {
            program: self,
            next: self.blocks[block].first_op,
        }
    }

    /// The positional arguments of a block.
    #[inline]
    pub fn block_args(&self, block: BlockId) -> &[ValueId] {
        &self.blocks[block].args
    }

    /// The keyword arguments of a block, in insertion order.
    #[inline]
    pub fn block_kwargs(&self, block: BlockId) -> &[(Symbol, ValueId)] {
        &self.blocks[block].kwargs
    }

    /// The region containing a block.
    #[inline]
    pub fn block_parent_region(&self, block: BlockId) -> Option<RegionId> {
        self.blocks[block].parent
    }

    /// The op owning the region that contains a block.
    pub fn block_parent_op(&self, block: BlockId) -> Option<OpId> {
        self.blocks[block]
            .parent
            .and_then(|r| self.regions[r].parent)
    }

    /// The blocks of a region.
    #[inline]
    pub fn region_blocks(&self, region: RegionId) -> &[BlockId] {
        &self.regions[region].blocks
    }

    /// The op owning a region.
    #[inline]
    pub fn region_parent_op(&self, region: RegionId) -> Option<OpId> {
        self.regions[region].parent
    }
}

/// Iterator over the uses of a value. See [`Program::uses`].
pub struct Uses<'p> {
    program: &'p Program,
    next: Option<OperandId>,
}

impl Iterator for Uses<'_> {
    type Item = OperandId;
    fn next(&mut self) -> Option<OperandId> {
        let cur = self.next?;
        self.next = self.program.operands[cur].next_use;
        Some(cur)
    }
}

/// Iterator over the ops of a block. See [`Program::block_ops`].
pub struct BlockOps<'p> {
    program: &'p Program,
    next: Option<OpId>,
}

impl Iterator for BlockOps<'_> {
    type Item = OpId;
    fn next(&mut self) -> Option<OpId> {
        let cur = self.next?;
        self.next = self.program.ops[cur].next;
        Some(cur)
    }
}

/// Sizes in bytes of the per-entity records, for memory accounting and the size test.
pub mod sizes {
    /// One operation record.
    pub const OPERATION: usize = std::mem::size_of::<super::OpData>();
    /// One value record.
    pub const VALUE: usize = std::mem::size_of::<super::ValueData>();
    /// One operand record.
    pub const OPERAND: usize = std::mem::size_of::<super::OperandData>();
}
