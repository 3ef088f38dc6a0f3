//! The CPU lowering of an operator-dialect program to kernel ops: what
//! Paddle 3.3.1's executor does before it runs a program
//! (`PdOpLowerToKernelPass`, `pd_op_to_kernel_pass.cc`), for the CPU place.
//!
//! Each `pd_op` op becomes a kernel op (`pd_kernel.phi_kernel`, or
//! `pd_kernel.legacy_kernel` for the few fluid-only ops) carrying the phi
//! kernel's name and the key Paddle chooses (`key.rs`); its results become
//! [`AllocatedType`]s on the kernel's backend (data ops, whose tensors are
//! fed from outside, give `undefined_tensor`s). Builtin and control-flow ops
//! are copied with kernel types (`special.rs`); `if`, `while` and `pylayer`
//! are rebuilt around their lowered blocks. A feed op for a name a data op
//! also reads is dropped, as Paddle drops it.
//!
//! Op ids: Paddle numbers every op it creates from one process-wide counter
//! and prints some of them (`[id:N]`, `origin_id:N`). The executor lowers a
//! clone of the loaded program; numbering that clone's ops from 0 (in the
//! order `Operation::Clone` creates them: an op, then for each of its regions
//! every op of its blocks, then their regions), the new program's module takes
//! the next number and each lowered op the following ones, in the order the
//! pass creates them. A kernel op's `origin_id` is its own number; a copied
//! builtin op keeps the number of the op it copies as `origin_id` and prints
//! its own as `[id:N]` ([`LoweredProgram::op_ids`]).
//!
//! Only the CPU place is lowered for: every kernel runs on the host, so no
//! place transfers (`memcpy_h2d`/`d2h`) or shadow feeds are needed. Paddle
//! inserts a `cast` before an input when an op's `GetKernelTypeForVar` asks
//! for another dtype; the definitions do not say which ops do, so no cast is
//! inserted.
//!
//! ```
//! let ctx = pir_kernel::kernel_context();
//! let text = r#"{
//!     (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
//!     (%1) = "pd_op.relu" (%0) {stop_gradient:[false]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>
//! }"#;
//! let program = pir_core::Program::parse(&ctx, text).unwrap();
//! let lowered = pir_kernel::lower(&program).unwrap();
//! let printed = lowered.to_paddle_string();
//! assert!(printed.contains(r#""relu(phi_kernel)" (%0) {kernel_key:<backend:CPU|layout:NCHW|dtype:float32>,kernel_name:"relu",op_name:"pd_op.relu",origin_id:4,stop_gradient:[false]} : (undefined_tensor<-1x3xf32>) -> cpu_tensor<-1x3xf32>"#), "{printed}");
//! ```

mod facts;
mod key;
mod special;
#[cfg(test)]
mod tests;

use pir_core::builtin::{ArrayAttr, BoolAttr, DenseTensorType, I64Attr, StrAttr, VectorType};
use pir_core::entity::SecondaryMap;
use pir_core::{Attribute, BlockId, IrContext, OpId, Program, Symbol, Type, ValueId};
use pir_dialects::pd_op::{DenseTensorArrayType, Place, SelectedRowsType};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::key::{KernelKey, KernelKeyAttr};
use crate::table::KernelTable;
use crate::types::AllocatedType;
use facts::{Handling, OpFacts};
use std::rc::Rc;

/// How deep regions may nest: lowering recurses into them.
pub const MAX_NESTING: usize = 256;

/// Ops Paddle lowers to fluid (legacy) kernels (`LegacyOpList`).
const LEGACY_OPS: &[&str] = &[
    "pd_op.c_allreduce_sum",
    "pd_op.c_allreduce_sum_",
    "pd_op.distributed_push_sparse",
    "pd_op.pull_box_sparse",
    "pd_op.push_box_sparse",
    "pd_op.push_dense",
    "pd_op.push_sparse_v2",
    "pd_op.recv_v2",
    "pd_op.send_and_recv",
    "pd_op.send_v2",
];

/// Ops whose results keep their place whatever the kernel (`UnchangeOutputOps`).
const UNCHANGED_OUTPUT_OPS: &[&str] = &[
    "builtin.combine",
    "builtin.slice",
    "builtin.split",
    "builtin.constant",
    "builtin.set_parameter",
    "builtin.parameter",
    "builtin.shadow_output",
    "pd_op.feed",
    "pd_op.data",
    "pd_op.array_length",
];

/// Why a program cannot be lowered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LowerError {
    /// An operand defined nowhere the lowering has been (a value from
    /// outside the program, or used before its definition).
    #[error("op {op} (#{index}): operand {operand} is not defined before its use")]
    UndefinedOperand {
        /// The op's name.
        op: String,
        /// The op's position in its block.
        index: usize,
        /// The operand's position.
        operand: usize,
    },
    /// A type the kernel dialect has no counterpart for.
    #[error("op {op}: {what}")]
    Unsupported {
        /// The op's name.
        op: String,
        /// What is not supported.
        what: String,
    },
    /// Regions nested deeper than [`MAX_NESTING`].
    #[error("regions nest deeper than {MAX_NESTING} levels")]
    TooDeep,
}

/// A kernel op whose key no registered kernel matches: Paddle lowers it
/// the same way and fails when it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingKernel {
    /// The operator (`pd_op.matmul`).
    pub op_name: String,
    /// The kernel (`matmul`).
    pub kernel: String,
    /// The key chosen.
    pub key: KernelKey,
}

/// A lowered program: a view of what Paddle runs (Paddle saves none).
#[derive(Debug)]
pub struct LoweredProgram {
    /// The kernel-dialect program.
    pub program: Program,
    /// Paddle's number of each op (printed `[id:N]` for builtin and `if` ops).
    pub op_ids: FxHashMap<OpId, i64>,
    /// `stop_gradient` of each `while` body argument (Paddle keeps it on the
    /// argument and prints it on the `^` line).
    pub arg_stop_gradient: FxHashMap<ValueId, bool>,
    /// Kernel ops without a registered kernel for their key.
    pub missing_kernels: Vec<MissingKernel>,
}

/// Lowers `source` for the CPU, as Paddle's executor does.
pub fn lower(source: &Program) -> Result<LoweredProgram, LowerError> {
    let ctx = source.ctx_arc().clone();
    crate::dialect::register(&ctx);
    let (source_ids, count) = number_clone_order(source)?;
    let mut lowering = Lowering {
        ctx: &ctx,
        src: source,
        dst: Program::with_capacity(ctx.clone(), source.num_ops()),
        source_ids,
        // The lowered program's module takes number `count`.
        next_id: count + 1,
        values: SecondaryMap::with_default(None),
        op_ids: FxHashMap::default(),
        arg_stop_gradient: FxHashMap::default(),
        missing: Vec::new(),
        table: KernelTable::paddle(),
        names: Names::new(&ctx),
        place: Place::cpu(),
        facts: FxHashMap::default(),
        placed: FxHashMap::default(),
    };
    let top = lowering.dst.top_block();
    lowering.lower_block(source.top_block(), top, 0)?;
    Ok(LoweredProgram {
        program: lowering.dst,
        op_ids: lowering.op_ids,
        arg_stop_gradient: lowering.arg_stop_gradient,
        missing_kernels: lowering.missing,
    })
}

/// Numbers the ops of `p` in the order `Program::Clone` creates them (the
/// program Paddle lowers is such a clone); returns the numbers and the count.
fn number_clone_order(p: &Program) -> Result<(FxHashMap<OpId, i64>, i64), LowerError> {
    fn region_ops(
        p: &Program,
        region: pir_core::RegionId,
        ids: &mut FxHashMap<OpId, i64>,
        next: &mut i64,
        depth: usize,
    ) -> Result<(), LowerError> {
        if depth > MAX_NESTING {
            return Err(LowerError::TooDeep);
        }
        // A region's clone first copies the ops of all its blocks, then
        // their regions.
        for &block in p.region_blocks(region) {
            for op in p.block_ops(block) {
                ids.insert(op, *next);
                *next += 1;
            }
        }
        for &block in p.region_blocks(region) {
            for op in p.block_ops(block) {
                for r in p.regions(op) {
                    region_ops(p, r, ids, next, depth + 1)?;
                }
            }
        }
        Ok(())
    }
    let mut ids = FxHashMap::default();
    ids.reserve(p.num_ops());
    let mut next = 0;
    for op in p.block_ops(p.top_block()) {
        ids.insert(op, next);
        next += 1;
        for r in p.regions(op) {
            region_ops(p, r, &mut ids, &mut next, 1)?;
        }
    }
    Ok((ids, next))
}

/// Symbols the lowering compares op names and attribute names with.
struct Names {
    data: Symbol,
    feed: Symbol,
    name: Symbol,
    stop_gradient: Symbol,
    op_name: Symbol,
    kernel_name: Symbol,
    kernel_key: Symbol,
    is_inplace: Symbol,
    origin_id: Symbol,
    combine: Symbol,
    place: Symbol,
    dtype: Symbol,
}

impl Names {
    fn new(ctx: &IrContext) -> Self {
        Names {
            data: ctx.symbol("pd_op.data"),
            feed: ctx.symbol("pd_op.feed"),
            name: ctx.symbol("name"),
            stop_gradient: ctx.symbol("stop_gradient"),
            op_name: ctx.symbol("op_name"),
            kernel_name: ctx.symbol("kernel_name"),
            kernel_key: ctx.symbol("kernel_key"),
            is_inplace: ctx.symbol("is_inplace"),
            origin_id: ctx.symbol("origin_id"),
            combine: ctx.symbol("builtin.combine"),
            place: ctx.symbol("place"),
            dtype: ctx.symbol("dtype"),
        }
    }
}

/// A source op with a region, as its lowering sees it: the op, its index
/// in its block, the block its lowering goes into, and how deeply that
/// block is nested.
#[derive(Clone, Copy)]
struct RegionOpSite {
    op: OpId,
    index: usize,
    block: BlockId,
    depth: usize,
}

/// An op to create: what [`Lowering::emit`] needs besides where.
struct NewOp<'x> {
    name: Symbol,
    operands: &'x [Option<ValueId>],
    types: &'x [Type],
    attrs: &'x [(Symbol, Attribute)],
    regions: usize,
}

/// The state of one lowering.
struct Lowering<'a> {
    ctx: &'a IrContext,
    src: &'a Program,
    dst: Program,
    source_ids: FxHashMap<OpId, i64>,
    next_id: i64,
    /// The lowered value of each source value.
    values: SecondaryMap<ValueId, Option<ValueId>>,
    op_ids: FxHashMap<OpId, i64>,
    arg_stop_gradient: FxHashMap<ValueId, bool>,
    missing: Vec<MissingKernel>,
    table: &'static KernelTable,
    names: Names,
    place: Place,
    /// The facts of each op kind met so far.
    facts: FxHashMap<Symbol, Rc<OpFacts>>,
    /// Kernel types made so far, by operator type and allocation type (for
    /// places without a device id or type).
    placed: FxHashMap<(Type, i64), Type>,
}

impl<'a> Lowering<'a> {
    /// Lowers the ops of `src_block` into `dst_block`. (Paddle also checks
    /// the places of what an `if` block yields; on the CPU they agree.)
    fn lower_block(
        &mut self,
        src_block: BlockId,
        dst_block: BlockId,
        depth: usize,
    ) -> Result<(), LowerError> {
        if depth > MAX_NESTING {
            return Err(LowerError::TooDeep);
        }
        for &(key, arg) in self.src.block_kwargs(src_block) {
            let ty = self.src.value_type(arg);
            let ty = if self.ctx.type_is::<DenseTensorType>(ty) {
                AllocatedType::get(self.ctx, Place::undefined(), ty)
            } else {
                ty
            };
            let new = self.dst.add_block_kwarg(dst_block, key, ty);
            self.values.set(arg, Some(new));
        }
        let fed_by_data = self.data_names(src_block);
        for (index, op) in self.src.block_ops(src_block).enumerate() {
            let name = self.src.op_name(op);
            if name == self.names.feed
                && self
                    .str_attr(op, self.names.name)
                    .is_some_and(|n| fed_by_data.contains(n))
            {
                continue;
            }
            let facts = self.facts_of(name);
            let site = RegionOpSite {
                op,
                index,
                block: dst_block,
                depth,
            };
            match facts.handling {
                Handling::If => self.lower_if(site)?,
                Handling::While => self.lower_while(site)?,
                Handling::PyLayer => self.lower_pylayer(site)?,
                Handling::Special(kind) => self.lower_special(op, index, dst_block, kind)?,
                Handling::Kernel => self.lower_to_kernel(op, index, dst_block, &facts)?,
            }
        }
        Ok(())
    }

    /// The facts of the op kind `name`, worked out on first use.
    fn facts_of(&mut self, name: Symbol) -> Rc<OpFacts> {
        let ctx = self.ctx;
        self.facts
            .entry(name)
            .or_insert_with(|| OpFacts::of(ctx, name))
            .clone()
    }

    /// The names data ops of `block` read (feed ops of these names are dropped).
    fn data_names(&self, block: BlockId) -> FxHashSet<&'a str> {
        let src: &'a Program = self.src;
        src.block_ops(block)
            .filter(|&op| src.op_name(op) == self.names.data)
            .filter_map(|op| self.str_attr(op, self.names.name))
            .collect()
    }

    fn str_attr(&self, op: OpId, name: Symbol) -> Option<&'a str> {
        let ctx: &'a IrContext = self.ctx;
        let attr = ctx.dict_get(self.src.attrs(op), name)?;
        ctx.attr_as::<StrAttr>(attr).map(|s| &*s.0)
    }

    /// The next op number (Paddle's counter).
    fn take_id(&mut self) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// The lowered value of operand `i` of `op` (`None` for an absent one).
    fn new_operand(&self, op: OpId, index: usize, i: usize) -> Result<Option<ValueId>, LowerError> {
        let Some(v) = self.src.operand(op, i) else {
            return Ok(None);
        };
        match self.values.get(v) {
            Some(new) => Ok(Some(*new)),
            None => Err(LowerError::UndefinedOperand {
                op: self.src.op_name_str(op).to_owned(),
                index,
                operand: i,
            }),
        }
    }

    fn new_operands(&self, op: OpId, index: usize) -> Result<Vec<Option<ValueId>>, LowerError> {
        (0..self.src.num_operands(op))
            .map(|i| self.new_operand(op, index, i))
            .collect()
    }

    /// Creates `new` at the end of `block`, maps `op`'s results to its
    /// results and records its number.
    fn emit(&mut self, op: OpId, new: NewOp<'_>, block: BlockId) -> (OpId, i64) {
        let id = self.take_id();
        let dict = self.ctx.dict(new.attrs);
        let created = self
            .dst
            .create_op(new.name, new.operands, new.types, dict, new.regions);
        self.dst.append_op(block, created);
        self.op_ids.insert(created, id);
        for (i, r) in self.src.results(op).enumerate() {
            if i < new.types.len() {
                let result = self.dst.result(created, i);
                self.values.set(r, Some(result));
            }
        }
        (created, id)
    }

    /// `stop_gradient` of a lowered value as Paddle's `Value::attribute`
    /// reads it: the defining op's array entry, or the argument's own.
    fn stop_gradient_of(&self, v: ValueId) -> Option<bool> {
        match self.dst.value_def(v) {
            pir_core::ValueDef::Result { op, index } => {
                let attr = self
                    .ctx
                    .dict_get(self.dst.attrs(op), self.names.stop_gradient)?;
                let array = self.ctx.attr_as::<ArrayAttr>(attr)?;
                let item = *array.0.get(index as usize)?;
                self.ctx.attr_as::<BoolAttr>(item).map(|b| b.0)
            }
            _ => self.arg_stop_gradient.get(&v).copied(),
        }
    }

    /// Marks a lowered value `stop_gradient` as Paddle's `IfOp`/`WhileOp`
    /// builders mark their condition (`Value::set_attribute`: a result's
    /// entry of its op's array, which grows to the result count, or the
    /// argument's own).
    fn stop_gradient_on(&mut self, v: ValueId) {
        let ctx = self.ctx;
        let yes = ctx.intern_attr(BoolAttr(true));
        match self.dst.value_def(v) {
            pir_core::ValueDef::Result { op, index } => {
                let mut items: Vec<Attribute> = ctx
                    .dict_get(self.dst.attrs(op), self.names.stop_gradient)
                    .and_then(|a| ctx.attr_as::<ArrayAttr>(a))
                    .map(|a| a.0.to_vec())
                    .unwrap_or_default();
                items.resize(self.dst.num_results(op), Attribute::NULL);
                items[index as usize] = yes;
                let array = ArrayAttr::get(ctx, &items);
                let dict = ctx.dict_with(self.dst.attrs(op), self.names.stop_gradient, array);
                self.dst.set_attrs(op, dict);
            }
            _ => {
                self.arg_stop_gradient.insert(v, true);
            }
        }
    }

    /// An `if`: rebuilt with kernel result types, its blocks lowered into it.
    fn lower_if(&mut self, site: RegionOpSite) -> Result<(), LowerError> {
        let op = site.op;
        let cond = self.new_operand(op, site.index, 0)?;
        if let Some(cond) = cond {
            self.stop_gradient_on(cond);
        }
        let types = self.converted_result_types(op)?;
        let mut attrs = Vec::new();
        if let Some(fake) = self.src.attr(op, "fake_false_branch") {
            if self.ctx.attr_as::<BoolAttr>(fake).is_some_and(|b| b.0) {
                attrs.push((self.ctx.symbol("fake_false_branch"), fake));
            }
        }
        let new = NewOp {
            name: self.src.op_name(op),
            operands: &[cond],
            types: &types,
            attrs: &attrs,
            regions: 2,
        };
        self.emit_with_regions(site, new)
    }

    /// Emits `new` for `op` and lowers the first block of each of `op`'s
    /// regions (as many as `new` has) into a block of its own in the new
    /// op's region.
    fn emit_with_regions(&mut self, site: RegionOpSite, new: NewOp<'_>) -> Result<(), LowerError> {
        let RegionOpSite {
            op, block, depth, ..
        } = site;
        let regions = new.regions.min(self.src.num_regions(op));
        let (created, _) = self.emit(op, new, block);
        for r in 0..regions {
            let region = self.dst.op_region(created, r);
            let new_block = self.dst.add_block(region);
            let src_region = self.src.op_region(op, r);
            if let Some(&src_block) = self.src.region_blocks(src_region).first() {
                self.lower_block(src_block, new_block, depth + 1)?;
            }
        }
        Ok(())
    }

    /// A `pylayer`: rebuilt around its lowered forward block.
    fn lower_pylayer(&mut self, site: RegionOpSite) -> Result<(), LowerError> {
        let op = site.op;
        let operands = self.new_operands(op, site.index)?;
        let types = self.converted_result_types(op)?;
        let mut attrs = Vec::new();
        if let Some(id) = self.src.attr(op, "backward_function_id") {
            attrs.push((self.ctx.symbol("backward_function_id"), id));
        }
        let new = NewOp {
            name: self.src.op_name(op),
            operands: &operands,
            types: &types,
            attrs: &attrs,
            regions: 1,
        };
        self.emit_with_regions(site, new)
    }

    /// A `while`: rebuilt on the lowered inputs (results and body arguments
    /// take their types), its body lowered into it.
    fn lower_while(&mut self, site: RegionOpSite) -> Result<(), LowerError> {
        let RegionOpSite {
            op,
            index,
            block,
            depth,
        } = site;
        let operands = self.new_operands(op, index)?;
        if let Some(Some(cond)) = operands.first() {
            self.stop_gradient_on(*cond);
        }
        let mut types = Vec::with_capacity(operands.len().saturating_sub(1));
        let mut stop = Vec::with_capacity(types.capacity());
        for (i, v) in operands.iter().enumerate().skip(1) {
            let Some(v) = *v else {
                return Err(LowerError::Unsupported {
                    op: "pd_op.while".into(),
                    what: format!("loop input {i} is absent"),
                });
            };
            types.push(self.dst.value_type(v));
            stop.push(self.stop_gradient_of(v).unwrap_or(false));
        }
        let stop_attr = pir_core::builtin::bool_array(self.ctx, &stop);
        let attrs = [(self.names.stop_gradient, stop_attr)];
        let name = self.src.op_name(op);
        let (new, _) = self.emit(
            op,
            NewOp {
                name,
                operands: &operands,
                types: &types,
                attrs: &attrs,
                regions: 1,
            },
            block,
        );
        let region = self.dst.op_region(new, 0);
        let body = self.dst.add_block(region);
        let src_body = self
            .src
            .regions(op)
            .next()
            .and_then(|r| self.src.region_blocks(r).first().copied());
        for (i, &ty) in types.iter().enumerate() {
            let arg = self.dst.add_block_arg(body, ty);
            self.arg_stop_gradient.insert(arg, stop[i]);
            if let Some(src_arg) = src_body.and_then(|b| self.src.block_args(b).get(i).copied()) {
                self.values.set(src_arg, Some(arg));
            }
        }
        if let Some(src_body) = src_body {
            self.lower_block(src_body, body, depth + 1)?;
        }
        Ok(())
    }

    /// The op's result types as kernel types on this place.
    fn converted_result_types(&self, op: OpId) -> Result<Vec<Type>, LowerError> {
        self.src
            .results(op)
            .map(|r| {
                let ty = self.src.value_type(r);
                AllocatedType::convert(self.ctx, ty, &self.place).ok_or_else(|| {
                    LowerError::Unsupported {
                        op: self.src.op_name_str(op).to_owned(),
                        what: format!(
                            "result type {} has no kernel type",
                            self.ctx.display_type(ty)
                        ),
                    }
                })
            })
            .collect()
    }

    /// A kernel op for `op`.
    fn lower_to_kernel(
        &mut self,
        op: OpId,
        index: usize,
        block: BlockId,
        facts: &OpFacts,
    ) -> Result<(), LowerError> {
        let mut kernel = facts.kernel_func;
        let mut kernel_name_attr = facts.kernel_name_attr;
        if facts.kernel_by_result {
            let by_result = kernel_name(self.ctx, self.src, op, kernel);
            if by_result != kernel {
                kernel = by_result;
                kernel_name_attr = StrAttr::get(self.ctx, kernel);
            }
        }
        let key = key::choose(self, op, facts)?;
        let operands = self.new_operands(op, index)?;
        if !kernel.is_empty() && !facts.unchanged && !self.table.select(kernel, key) {
            self.missing.push(MissingKernel {
                op_name: self.src.op_name_str(op).to_owned(),
                kernel: kernel.to_owned(),
                key,
            });
        }
        let out_place = key.backend.place();
        let mut types = Vec::with_capacity(self.src.num_results(op));
        for r in self.src.results(op) {
            types.push(self.output_type(op, self.src.value_type(r), &out_place)?);
        }
        let source_attrs = self.ctx.dict_entries(self.src.attrs(op));
        let mut attrs: Vec<(Symbol, Attribute)> = Vec::with_capacity(source_attrs.len() + 5);
        attrs.extend([
            (self.names.op_name, facts.op_name_attr),
            (self.names.kernel_name, kernel_name_attr),
            (self.names.kernel_key, KernelKeyAttr::get(self.ctx, key)),
        ]);
        for &(n, a) in source_attrs {
            if n != self.names.op_name && n != self.names.kernel_name && n != self.names.kernel_key
            {
                attrs.push((n, a));
            }
        }
        if facts.inplace {
            attrs.push((self.names.is_inplace, self.ctx.intern_attr(BoolAttr(true))));
        }
        // A kernel op's `origin_id` is its own number, the next one taken.
        attrs.push((
            self.names.origin_id,
            self.ctx.intern_attr(I64Attr(self.next_id)),
        ));
        self.emit(
            op,
            NewOp {
                name: facts.kind,
                operands: &operands,
                types: &types,
                attrs: &attrs,
                regions: 0,
            },
            block,
        );
        Ok(())
    }

    /// The kernel type of the operator type `ty` at `place`. Most values
    /// share a few types: they are remembered here, not interned again per op.
    pub(super) fn place_type(&mut self, ty: Type, place: &Place) -> Type {
        let key = (ty, place.allocation_type);
        let plain = place.device_type.is_empty() && place.device_id == 0;
        if plain {
            if let Some(&placed) = self.placed.get(&key) {
                return placed;
            }
        }
        let placed = AllocatedType::get(self.ctx, place.clone(), ty);
        if plain {
            self.placed.insert(key, placed);
        }
        placed
    }

    /// A kernel op's result type (`PushBackOutputTypes`).
    fn output_type(&mut self, op: OpId, ty: Type, place: &Place) -> Result<Type, LowerError> {
        let ctx = self.ctx;
        if ty.is_null() {
            return Ok(ty);
        }
        if AllocatedType::can_hold(ctx, ty) {
            return Ok(self.place_type(ty, place));
        }
        let unsupported = |what: String| LowerError::Unsupported {
            op: self.src.op_name_str(op).to_owned(),
            what,
        };
        let Some(vec) = ctx.type_as::<VectorType>(ty) else {
            return Err(unsupported(format!(
                "result type {} has no kernel type",
                ctx.display_type(ty)
            )));
        };
        let mut items = Vec::with_capacity(vec.0.len());
        for &t in vec.0.iter() {
            if t.is_null() {
                // A kernel has no null output: Paddle puts an empty float32
                // tensor in its place.
                let f32_ty = ctx.intern_type(pir_core::builtin::ScalarType::F32);
                let empty = ctx.intern_type(DenseTensorType {
                    dtype: f32_ty,
                    dims: Box::new([]),
                    layout: pir_core::builtin::DataLayout::NCHW,
                    lod: Box::new([Box::new([])]),
                    offset: 0,
                });
                items.push(AllocatedType::get(ctx, place.clone(), empty));
            } else if ctx.type_is::<DenseTensorType>(t) || ctx.type_is::<SelectedRowsType>(t) {
                items.push(AllocatedType::get(ctx, place.clone(), t));
            } else {
                return Err(unsupported(format!(
                    "only tensors and selected rows are lowered in vectors, found {}",
                    ctx.display_type(t)
                )));
            }
        }
        Ok(VectorType::get(ctx, &items))
    }
}

/// The kernel `op` calls (`GetKernelName`): the definition's, except
/// `add_n` of selected rows and `fetch` of a tensor array.
fn kernel_name<'a>(ctx: &IrContext, p: &Program, op: OpId, func: &'a str) -> &'a str {
    let result_is = |check: &dyn Fn(Type) -> bool| {
        p.num_results(op) > 0 && check(p.value_type(p.result(op, 0)))
    };
    match p.op_name_str(op) {
        "pd_op.add_n" | "pd_op.add_n_" if result_is(&|t| ctx.type_is::<SelectedRowsType>(t)) => {
            "add_n_sr"
        }
        "pd_op.fetch" if result_is(&|t| ctx.type_is::<DenseTensorArrayType>(t)) => "fetch_array",
        _ => func,
    }
}
