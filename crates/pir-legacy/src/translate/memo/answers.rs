//! Look-ups answered by their number: a model translated again in a
//! context asks the same questions in the same order, so the answer the
//! last translation there found for the look-up of the same number, once
//! checked against the question, spares a search by name (variables by
//! name, op types' targets, the general path's attributes by their bytes).

use std::cell::Cell;
use std::sync::Arc;

use pir_core::builtin::StrAttr;
use pir_core::Attribute;
use pir_dialects::op_def::{AttrKind, OpDef};

use super::MAX_ENTRIES;
use crate::desc::{name_eq, AttrValue};
use crate::translate::attrs;
use crate::translate::plan::Plan;
use crate::translate::values::Declared;
use crate::translate::{TargetPlan, Translator};

/// Most answers an [`Answers`] keeps: a model's look-ups past this many
/// are made each time.
const MAX_KEPT_ANSWERS: usize = 16 * MAX_ENTRIES;

/// What the look-ups of one kind in the last translation in a context
/// found, by their number in it.
pub(crate) struct Answers<T> {
    kept: Vec<Option<T>>,
}

impl<T> Default for Answers<T> {
    fn default() -> Self {
        Answers { kept: Vec::new() }
    }
}

impl<T> Answers<T> {
    /// The answer of look-up `seq`, if kept.
    #[inline]
    pub fn get(&self, seq: usize) -> Option<&T> {
        self.kept.get(seq)?.as_ref()
    }

    /// Keeps `answer` for look-up `seq` (`None`: nothing worth keeping),
    /// within [`MAX_KEPT_ANSWERS`]; look-ups are kept in order, from 0.
    pub fn keep(&mut self, seq: usize, answer: Option<T>) {
        if let Some(slot) = self.kept.get_mut(seq) {
            *slot = answer;
        } else if seq == self.kept.len() && seq < MAX_KEPT_ANSWERS {
            self.kept.push(answer);
        }
    }
}

/// How many look-ups of each kind answered by number a translation has
/// made so far.
#[derive(Default)]
pub(crate) struct Lookups {
    /// [`Translator::find_var_pos`].
    vars: Cell<usize>,
    /// [`Translator::target_plan`].
    targets: Cell<usize>,
    /// [`Translator::plan_of`].
    plans: Cell<usize>,
    /// [`Translator::parameter_name`].
    params: Cell<usize>,
    /// [`Translator::feed_fetch_attrs_of`].
    feed_fetch: Cell<usize>,
    /// The general path's attributes by the op's attribute bytes
    /// ([`super::ContextMemo::general_attrs`]).
    attrs: Cell<usize>,
    /// [`Translator::op_kind`].
    op_kinds: Cell<usize>,
    /// Mutable attributes given as legacy attributes
    /// ([`super::ContextMemo::as_input`]).
    as_inputs: Cell<usize>,
}

impl Lookups {
    /// The number of the next look-up of the general path's attributes.
    pub fn next_attrs(&self) -> usize {
        next(&self.attrs)
    }

    /// The number of the next look-up of an op name's symbol and writer.
    #[inline]
    pub fn next_op_kind(&self) -> usize {
        next(&self.op_kinds)
    }

    /// The number of the next look-up of a mutable attribute given as a
    /// legacy attribute.
    pub fn next_as_input(&self) -> usize {
        next(&self.as_inputs)
    }
}

/// The number of the next look-up counted by `counter`.
#[inline]
fn next(counter: &Cell<usize>) -> usize {
    let seq = counter.get();
    counter.set(seq + 1);
    seq
}

impl<'d> Translator<'d> {
    /// Where variable `name` is declared seen from `block`
    /// ([`crate::desc::ProgramDesc::find_var_pos`]), found without hashing
    /// the name when the look-up of the same number in the last translation
    /// in this context found a variable of that name in `block` whose names
    /// are distinct (it is then the one a search finds).
    // Inlined: asked for every input and output of every op, and found
    // in a few instructions, fewer than the call's own.
    #[inline(always)]
    pub fn find_var_pos(&self, block: usize, name: &str) -> Option<Declared> {
        let seq = next(&self.lookups.vars);
        let kept = self.memo.borrow().var_positions.get(seq).copied();
        if let Some((_, i)) = kept.filter(|&(b, _)| b as usize == block) {
            let var = self
                .desc
                .blocks
                .get(block)
                .filter(|blk| blk.names_distinct())
                .and_then(|blk| blk.vars.get(i as usize));
            if var.is_some_and(|v| name_eq(v.name, name)) {
                return Some((block, i as usize));
            }
        }
        self.find_var_pos_by_name(seq, block, name)
    }

    /// [`Translator::find_var_pos`] by name, kept as look-up `seq`.
    #[inline(never)]
    fn find_var_pos_by_name(&self, seq: usize, block: usize, name: &str) -> Option<Declared> {
        let found = self.desc.find_var_pos(block, name);
        let own = found
            .filter(|&(b, _)| b == block && self.desc.blocks[b].names_distinct())
            .and_then(|(b, i)| Some((u32::try_from(b).ok()?, u32::try_from(i).ok()?)));
        self.memo.borrow_mut().var_positions.keep(seq, own);
        found
    }

    /// The default target of legacy op type `op_type` (in place or not)
    /// with its plan ([`super::target_plan`], asked once per context), the
    /// answer of the look-up of the same number in the last translation in
    /// this context when it was for the same type.
    pub fn target_plan(&self, op_type: &'d str, inplace: bool) -> Option<TargetPlan> {
        let seq = next(&self.lookups.targets);
        let mut memo = self.memo.borrow_mut();
        if let Some((kept_inplace, found)) = memo.op_targets.get(seq) {
            if *kept_inplace == inplace && name_eq(&found.1.op_type, op_type) {
                return Some(found.clone());
            }
        }
        let found = memo.target_plan(op_type, inplace);
        memo.op_targets
            .keep(seq, found.clone().map(|found| (inplace, found)));
        found
    }
}

impl<'d> Translator<'d> {
    /// The string attribute of parameter name `name`: the one the look-up
    /// of the same number in the last translation in this context made,
    /// when for the same text (a model names its parameters alike in every
    /// translation; the text is kept beside the attribute, which costs more
    /// to read back), else interned.
    pub fn parameter_name(&self, name: &str) -> Attribute {
        let seq = next(&self.lookups.params);
        let mut memo = self.memo.borrow_mut();
        if let Some((text, kept)) = memo.param_names.get(seq) {
            if name_eq(text, name) {
                return *kept;
            }
        }
        let made = StrAttr::get(&self.ctx, name);
        memo.param_names.keep(seq, Some((name.into(), made)));
        made
    }

    /// The `name` and `col` attributes of a `feed` or `fetch` of variable
    /// `name` at column `col`: those the look-up of the same number in the
    /// last translation in this context found, when for the same name and
    /// column (a model feeds and fetches alike each time it is read), else
    /// the memo's by their values.
    pub fn feed_fetch_attrs_of(&self, name: &str, col: i32) -> [Attribute; 2] {
        let seq = next(&self.lookups.feed_fetch);
        let mut memo = self.memo.borrow_mut();
        if let Some(&(kept_col, kept)) = memo.feed_fetch_attrs.get(seq) {
            let same = kept_col == col
                && self
                    .ctx
                    .attr_as::<StrAttr>(kept[0])
                    .is_some_and(|s| name_eq(&s.0, name));
            if same {
                return kept;
            }
        }
        let ctx = &*self.ctx;
        let mut kept = |kind, v: AttrValue<'_>| {
            memo.attr(kind, Some(&v), || attrs::translate(ctx, kind, Some(&v)))
        };
        let made = [
            kept(AttrKind::Str, AttrValue::String(name)),
            kept(AttrKind::Int32, AttrValue::Int(col)),
        ];
        memo.feed_fetch_attrs.keep(seq, Some((col, made)));
        made
    }

    /// The plan of legacy op type `op_type` into `def` ([`super::plan`],
    /// asked once per context), the answer of the look-up of the same
    /// number in the last translation in this context when it was for the
    /// same type and definition.
    pub fn plan_of(&self, op_type: &str, def: &'static OpDef) -> Arc<Plan> {
        let seq = next(&self.lookups.plans);
        let at = std::ptr::from_ref(def) as usize;
        let mut memo = self.memo.borrow_mut();
        if let Some((kept_at, plan)) = memo.op_plans.get(seq) {
            if *kept_at == at && name_eq(&plan.op_type, op_type) {
                return plan.clone();
            }
        }
        let found = memo.plan(op_type, def);
        memo.op_plans.keep(seq, Some((at, found.clone())));
        found
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use pir_core::IrContext;
    use prost::Message;

    use super::*;
    use crate::desc::ProgramDesc;
    use crate::proto;
    use crate::translate::{translate, Options};

    /// Float tensor variables, not persistable, each of one dimension.
    fn vars(declared: &[(&str, i64)]) -> Vec<proto::VarDesc> {
        let var = |&(name, dim): &(&str, i64)| proto::VarDesc {
            persistable: Some(false),
            ..crate::desc::tests::tensor_var(name, vec![dim])
        };
        declared.iter().map(var).collect()
    }

    /// A legacy op of type `ty` from `x` to `out`.
    fn unary(ty: &str, x: &str, out: &str) -> proto::OpDesc {
        let slot = |parameter: &str, arg: &str| proto::op_desc::Var {
            parameter: parameter.into(),
            arguments: vec![arg.into()],
        };
        proto::OpDesc {
            r#type: ty.into(),
            inputs: vec![slot("X", x)],
            outputs: vec![slot("Out", out)],
            attrs: vec![],
            is_target: None,
        }
    }

    /// A `feed` (`fetch` when `fetch`) of `var` at column `col`.
    fn feed_fetch(fetch: bool, var: &str, col: i32) -> proto::OpDesc {
        let (ty, x, out) = if fetch {
            ("fetch", var, "fetch")
        } else {
            ("feed", "feed", var)
        };
        let col = proto::op_desc::Attr {
            name: "col".into(),
            r#type: proto::AttrType::Int as i32,
            i: Some(col),
            ..Default::default()
        };
        proto::OpDesc {
            attrs: vec![col],
            ..unary(ty, x, out)
        }
    }

    fn program(vars: Vec<proto::VarDesc>, ops: Vec<proto::OpDesc>) -> Vec<u8> {
        let block = proto::BlockDesc {
            idx: 0,
            parent_idx: -1,
            vars,
            ops,
            forward_block_idx: None,
        };
        proto::ProgramDesc {
            blocks: vec![block],
            version: None,
            op_version_map: None,
        }
        .encode_to_vec()
    }

    /// The translation of `bytes` in `ctx`, printed, or its error.
    fn printed(bytes: &[u8], ctx: &Arc<IrContext>) -> Result<String, String> {
        let arena = crate::DescArena::default();
        let desc = ProgramDesc::decode(bytes, &arena).map_err(|e| e.to_string())?;
        translate(&desc, ctx.clone(), Options::default())
            .map(|p| p.to_string())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn answers_are_kept_in_order_and_replaced() {
        let mut answers = Answers::default();
        answers.keep(0, Some(1));
        // Past the next number: not kept.
        answers.keep(2, Some(3));
        answers.keep(1, None);
        assert_eq!(answers.get(0), Some(&1));
        assert_eq!(answers.get(1), None);
        assert_eq!(answers.get(2), None);
        answers.keep(2, Some(3));
        answers.keep(0, Some(4));
        assert_eq!((answers.get(0), answers.get(2)), (Some(&4), Some(&3)));
    }

    /// A model translated after another in the same context translates as
    /// in a context of its own, though the look-ups of the same numbers
    /// found other answers: its names declared elsewhere, a name declared
    /// twice (the last declaration counts) where the other model declared
    /// it once, other op types, an op in place.
    #[test]
    fn a_model_after_another_translates_as_alone() {
        let relus = || vec![unary("relu", "x", "y"), unary("relu", "y", "z")];
        let declared = vars(&[("a", 1), ("x", 2), ("y", 2), ("z", 2)]);
        let first = program(declared.clone(), relus());
        let moved = program(vars(&[("y", 3), ("z", 3), ("x", 3)]), relus());
        let twice = program(vars(&[("x", 4), ("x", 5), ("y", 4), ("z", 4)]), relus());
        let other_types = program(
            declared.clone(),
            vec![unary("sigmoid", "x", "y"), unary("tanh", "y", "z")],
        );
        let in_place = program(
            declared,
            vec![unary("relu", "x", "x"), unary("relu", "x", "z")],
        );
        for bytes in [&moved, &twice, &other_types, &in_place] {
            let alone = printed(bytes, &pir_dialects::pd_op_context());
            assert!(alone.is_ok(), "{alone:?}");
            let ctx = pir_dialects::pd_op_context();
            for _ in 0..2 {
                assert!(printed(&first, &ctx).is_ok());
            }
            // Then with its own answers kept.
            for _ in 0..2 {
                assert_eq!(printed(bytes, &ctx), alone);
            }
        }
    }

    /// Feeds and fetches of other names or columns than the last
    /// translation's in a context are named and numbered as their own.
    #[test]
    fn feeds_and_fetches_of_other_names_and_columns_translate_as_alone() {
        let declared = || vars(&[("x", 2), ("y", 2), ("z", 2)]);
        let model = |a: &str, b: &str, col: i32| {
            let ops = vec![
                feed_fetch(false, a, col),
                unary("relu", a, b),
                feed_fetch(true, b, col),
            ];
            program(declared(), ops)
        };
        let first = model("x", "y", 0);
        for bytes in [model("y", "x", 0), model("x", "y", 1), model("x", "z", 0)] {
            let alone = printed(&bytes, &pir_dialects::pd_op_context());
            assert!(alone.is_ok(), "{alone:?}");
            let ctx = pir_dialects::pd_op_context();
            for _ in 0..2 {
                assert!(printed(&first, &ctx).is_ok());
            }
            for _ in 0..2 {
                assert_eq!(printed(&bytes, &ctx), alone);
            }
        }
    }
}
