//! Facts derived from the static tables only (op-compat facts, `pd_op`
//! definitions, libstdc++'s map order), kept for the whole process like the
//! tables themselves: each legacy op type is looked up once, not once per
//! op or per model. Each table is bounded (hostile models may name any
//! number of op types); past the bound answers are computed, not kept.
//! What is interned in a context (definition symbols, the constants of
//! every translation) is kept for the last context asked about.

use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::{Arc, LazyLock, Mutex, PoisonError, Weak};

use pir_core::{IrContext, Symbol};
use pir_dialects::op_def::{AttrKind, OpDef};
use rustc_hash::{FxBuildHasher, FxHashMap};

use super::general;
use super::plan::Plan;

mod answers;
mod context;
mod matches;

pub(crate) use answers::{Answers, Lookups};
pub(crate) use context::{
    keep_context_memo, take_context_memo, AsInputOp, ContextMemo, Elem, KeyedEntry,
};

/// Most entries a table keeps.
const MAX_ENTRIES: usize = 4096;

/// Per legacy op type: its default target (in place or not) and its plans
/// into the definitions it was translated into.
#[derive(Default)]
struct OpFacts {
    target: [Option<Option<&'static OpDef>>; 2],
    plans: Vec<(&'static str, Arc<Plan>)>,
}

impl OpFacts {
    fn target(&mut self, op_type: &str, inplace: bool) -> Option<&'static OpDef> {
        *self.target[usize::from(inplace)]
            .get_or_insert_with(|| general::def(&general::target_name_of(op_type, inplace)))
    }

    fn plan(&mut self, op_type: &str, def: &'static OpDef) -> Arc<Plan> {
        if let Some((_, p)) = self.plans.iter().find(|(n, _)| *n == def.name) {
            return p.clone();
        }
        let p = Arc::new(Plan::new(op_type, def));
        self.plans.push((def.name.as_str(), p.clone()));
        p
    }
}

static OPS: LazyLock<Mutex<FxHashMap<Box<str>, OpFacts>>> = LazyLock::new(Default::default);

fn with_op<R>(op_type: &str, f: impl FnOnce(Option<&mut OpFacts>) -> R) -> R {
    let mut map = OPS.lock().unwrap_or_else(PoisonError::into_inner);
    if !map.contains_key(op_type) && map.len() < MAX_ENTRIES {
        map.insert(op_type.into(), OpFacts::default());
    }
    f(map.get_mut(op_type))
}

/// How the general path reads `op_type` into `def`.
pub fn plan(op_type: &str, def: &'static OpDef) -> Arc<Plan> {
    with_op(op_type, |facts| {
        facts.unwrap_or(&mut OpFacts::default()).plan(op_type, def)
    })
}

/// The default target of `op_type` with its plan (one look-up).
pub fn target_plan(op_type: &str, inplace: bool) -> Option<(&'static OpDef, Arc<Plan>)> {
    with_op(op_type, |facts| {
        let mut fresh = OpFacts::default();
        let f = facts.unwrap_or(&mut fresh);
        let def = f.target(op_type, inplace)?;
        Some((def, f.plan(op_type, def)))
    })
}

static DEFS: LazyLock<Mutex<FxHashMap<Box<str>, Option<&'static OpDef>>>> =
    LazyLock::new(Default::default);

/// The `pd_op` definition named `name`, remembered: translations ask for
/// the same few names on every model, and a look-up here takes about two
/// thirds of the instructions of the definition table's own (which hashes
/// the name a byte at a time, then compares it with the table's packed
/// name: 124 instructions a call against 88 measured).
pub fn def(name: &str) -> Option<&'static OpDef> {
    let mut map = DEFS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&known) = map.get(name) {
        return known;
    }
    let found = pir_dialects::op_def(name);
    if map.len() < MAX_ENTRIES {
        map.insert(name.into(), found);
    }
    found
}

/// What the writer needs of a definition in one context.
#[derive(Debug, PartialEq, Eq)]
pub struct DefFacts {
    /// Symbols of the declared attributes, in declaration order.
    pub syms: Box<[Symbol]>,
    /// Names and kinds of the declared attributes, in declaration order
    /// (read for every attribute of every op made: kept as plain data).
    pub specs: Box<[(&'static str, AttrKind)]>,
    /// Whether a map holding the declared attributes in declaration order,
    /// then `stop_gradient`, then `persistable` (what the general path
    /// makes), lists `stop_gradient` first.
    pub stop_gradient_first: bool,
    /// Whether a declared attribute is named as a result flag (then a map
    /// of the declared attributes may hold one).
    pub declares_flags: bool,
}

/// Facts of each definition in one context: the last one asked about (the
/// `Weak` keeps its address from being reused).
type DefFactsMap = (Weak<IrContext>, FxHashMap<usize, Arc<DefFacts>>);

static DEF_FACTS: LazyLock<Mutex<DefFactsMap>> =
    LazyLock::new(|| Mutex::new((Weak::new(), FxHashMap::default())));

/// The symbols of `def`'s declared attributes in `ctx`, and the order of the
/// result flags after them.
pub fn def_facts(ctx: &Arc<IrContext>, def: &'static OpDef) -> Arc<DefFacts> {
    let mut guard = DEF_FACTS.lock().unwrap_or_else(PoisonError::into_inner);
    let (known_ctx, map) = &mut *guard;
    if !std::ptr::eq(known_ctx.as_ptr(), Arc::as_ptr(ctx)) {
        *known_ctx = Arc::downgrade(ctx);
        map.clear();
    }
    let key = std::ptr::from_ref(def) as usize;
    if let Some(facts) = map.get(&key) {
        return facts.clone();
    }
    let mut keys: Vec<&str> = def.attributes.iter().map(|a| a.name.as_str()).collect();
    let n = keys.len();
    keys.extend(super::FLAGS);
    let first_flag = crate::umap::iteration_order(&keys)
        .into_iter()
        .find(|&i| i >= n);
    let facts = Arc::new(DefFacts {
        syms: def
            .attributes
            .iter()
            .map(|a| ctx.symbol(a.name.as_str()))
            .collect(),
        specs: def
            .attributes
            .iter()
            .map(|a| (a.name.as_str(), a.kind))
            .collect(),
        stop_gradient_first: first_flag == Some(n),
        declares_flags: def
            .attributes
            .iter()
            .any(|a| super::FLAGS.contains(&a.name.as_str())),
    });
    if map.len() < MAX_ENTRIES {
        map.insert(key, facts.clone());
    }
    facts
}

/// The constants of the last context asked about (the `Weak` keeps its
/// address from being reused).
static CONSTS: LazyLock<Mutex<(Weak<IrContext>, Option<super::Consts>)>> =
    LazyLock::new(|| Mutex::new((Weak::new(), None)));

/// The attributes and symbols every translation in `ctx` uses: made for
/// the first one, not interned again for each.
pub(crate) fn consts(ctx: &Arc<IrContext>) -> super::Consts {
    let mut guard = CONSTS.lock().unwrap_or_else(PoisonError::into_inner);
    let (known_ctx, consts) = &mut *guard;
    if !std::ptr::eq(known_ctx.as_ptr(), Arc::as_ptr(ctx)) {
        *known_ctx = Arc::downgrade(ctx);
        *consts = None;
    }
    *consts.get_or_insert_with(|| super::Consts::new(ctx))
}

type Orders = FxHashMap<u64, Vec<(Box<[Box<str>]>, Arc<[usize]>)>>;

static ORDERS: LazyLock<Mutex<(usize, Orders)>> = LazyLock::new(Default::default);

/// The libstdc++ `unordered_map` iteration order of `keys` (distinct, in
/// insertion order), as indices into `keys`.
pub fn map_order<'k>(keys: impl Iterator<Item = &'k str> + Clone) -> Arc<[usize]> {
    let mut h = FxBuildHasher.build_hasher();
    for k in keys.clone() {
        k.hash(&mut h);
    }
    let hash = h.finish();
    let mut guard = ORDERS.lock().unwrap_or_else(PoisonError::into_inner);
    let (count, map) = &mut *guard;
    if let Some(list) = map.get(&hash) {
        for (stored, order) in list {
            if stored.iter().map(|s| &**s).eq(keys.clone()) {
                return order.clone();
            }
        }
    }
    let owned: Vec<&str> = keys.collect();
    let order: Arc<[usize]> = crate::umap::iteration_order(&owned).into();
    if *count < MAX_ENTRIES {
        *count += 1;
        let stored = owned.iter().map(|&s| s.into()).collect();
        map.entry(hash).or_default().push((stored, order.clone()));
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_remembered_by_content() {
        let a = map_order(["name", "col", "persistable", "stop_gradient"].into_iter());
        let owned: Vec<String> = ["name", "col", "persistable", "stop_gradient"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let b = map_order(owned.iter().map(String::as_str));
        assert_eq!(&*a, &[3, 2, 1, 0]);
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(&*map_order(["x"].into_iter()), &[0]);
    }

    #[test]
    fn definition_symbols_belong_to_their_context() {
        let def = general::def("pd_op.scale").expect("pd_op.scale");
        let a = pir_dialects::pd_op_context();
        // A bare context numbering names in another order.
        let b = Arc::new(IrContext::new());
        for n in ["first", "second"] {
            b.symbol(n);
        }
        let names = |ctx: &IrContext, syms: &[Symbol]| -> Vec<String> {
            syms.iter().map(|&s| ctx.symbol_str(s).to_owned()).collect()
        };
        let want: Vec<String> = def.attributes.iter().map(|a| a.name.to_string()).collect();
        assert!(!want.is_empty());
        let (in_a, in_b) = (def_facts(&a, def), def_facts(&b, def));
        assert_ne!(
            in_a.syms, in_b.syms,
            "the two contexts number the names alike"
        );
        for (ctx, facts) in [(&a, in_a), (&b, in_b), (&a, def_facts(&a, def))] {
            assert_eq!(names(ctx, &facts.syms), want);
        }
    }

    #[test]
    fn constants_belong_to_their_context() {
        let a = pir_dialects::pd_op_context();
        let b = Arc::new(IrContext::new());
        for n in ["first", "second"] {
            b.symbol(n);
        }
        for ctx in [&a, &b, &a] {
            let k = consts(ctx);
            assert_eq!(ctx.symbol_str(k.stop_gradient), "stop_gradient");
            // `builtin.parameter`'s attributes, by name.
            let names = k.param_syms.map(|sym| ctx.symbol_str(sym));
            assert!(names.windows(2).all(|w| w[0] < w[1]), "{names:?}");
            assert_eq!((names[0], names[3]), ("is_distributed", "parameter_name"));
            assert_eq!(names[6], "trainable");
            assert_eq!(k.true1, pir_core::builtin::bool_array(ctx, &[true]));
        }
    }

    /// The flag order kept per definition is the one the general map
    /// order gives for its keys followed by the two flags.
    #[test]
    fn flag_order_is_that_of_the_whole_map() {
        let ctx = pir_dialects::pd_op_context();
        let names = [
            "pd_op.scale",
            "pd_op.relu",
            "pd_op.conv2d",
            "pd_op.matmul",
            "pd_op.add",
            "pd_op.layer_norm",
            "pd_op.batch_norm_",
            "pd_op.pool2d",
            "pd_op.softmax",
            "pd_op.dropout",
            "pd_op.full",
            "pd_op.reshape",
            "pd_op.transpose",
            "pd_op.gather",
            "pd_op.cast",
        ];
        for name in names {
            let def = general::def(name).expect(name);
            let keys: Vec<&str> = def
                .attributes
                .iter()
                .map(|a| a.name.as_str())
                .chain(["stop_gradient", "persistable"])
                .collect();
            let order = map_order(keys.iter().copied());
            let pos = |k: &str| order.iter().position(|&i| keys[i] == k);
            let want = pos("stop_gradient") < pos("persistable");
            assert_eq!(def_facts(&ctx, def).stop_gradient_first, want, "{name}");
        }
    }

    #[test]
    fn definitions_are_those_of_the_table() {
        for name in [
            "pd_op.add",
            "pd_op.full",
            "builtin.combine",
            "pd_op.nope",
            "",
        ] {
            let want = pir_dialects::op_def(name).map(std::ptr::from_ref);
            for _ in 0..2 {
                assert_eq!(def(name).map(std::ptr::from_ref), want, "{name}");
            }
        }
        assert!(def("pd_op.add").is_some() && def("pd_op.nope").is_none());
    }

    /// Remembered fits answer as the check itself, asked again or not.
    #[test]
    fn operand_fits_are_those_of_the_check() {
        use pir_core::builtin::{DenseTensorType, ScalarType};
        use pir_dialects::op_def::ValueKind;
        let ctx = pir_dialects::pd_op_context();
        let f32 = ctx.intern_type(ScalarType::F32);
        let dense = DenseTensorType::get(&ctx, f32, &[2, 3]);
        let array = ctx.intern_type(pir_dialects::pd_op::types::DenseTensorArrayType {
            dtype: f32,
            dims: vec![2, 3].into(),
            layout: pir_core::builtin::DataLayout::NCHW,
        });
        let mut fits = matches::FitMatches::default();
        for _ in 0..2 {
            for ty in [dense, array, pir_core::Type::NULL] {
                for kind in [
                    ValueKind::DenseTensor,
                    ValueKind::DenseTensorArray,
                    ValueKind::VectorDenseTensor,
                    ValueKind::Any,
                ] {
                    for mutable in [false, true] {
                        let want = pir_dialects::value_kinds::fits(&ctx, ty, kind, mutable);
                        assert_eq!(fits.fits(&ctx, ty, kind, mutable), want, "{kind:?}");
                    }
                }
            }
        }
        assert!(!fits.fits(&ctx, array, ValueKind::DenseTensor, false));
    }

    #[test]
    fn targets_and_plans_are_shared() {
        let d = target_plan("elementwise_add", false).map(|(d, _)| d.name.as_str());
        assert_eq!(d, Some("pd_op.add"));
        assert_eq!(
            target_plan("relu", true).map(|(d, _)| d.name.as_str()),
            Some("pd_op.relu_")
        );
        let def = general::def("pd_op.add").expect("pd_op.add");
        assert!(Arc::ptr_eq(
            &plan("elementwise_add", def),
            &plan("elementwise_add", def)
        ));
    }
}
