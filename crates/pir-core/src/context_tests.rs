//! Tests of `context.rs`.
use super::*;
use std::sync::atomic::Ordering;

#[test]
fn context_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<IrContext>();
}

/// A source that counts what it builds, each op named `test.op<index>`.
struct Counting {
    built: std::sync::Arc<AtomicU32>,
    names: Vec<&'static str>,
}

impl OpSource for Counting {
    fn op_info(&self, ctx: &IrContext, index: u16) -> OpInfo {
        self.built.fetch_add(1, Ordering::Relaxed);
        let pure = ctx.trait_id("TestPureTrait");
        OpInfo::new(format!("test.op{index}"), "test").with_trait(pure)
    }

    fn find(&self, name: &str) -> Option<(u16, &'static str)> {
        let index = self.names.iter().position(|&n| n == name)?;
        Some((u16::try_from(index).ok()?, self.names[index]))
    }

    fn ops(&self) -> Vec<(u16, &'static str)> {
        (0..).zip(self.names.iter().copied()).collect()
    }
}

/// Defers `ops` ops to a counting source; returns its count of builds.
fn defer_counted(ctx: &IrContext, ops: u16) -> std::sync::Arc<AtomicU32> {
    let built = std::sync::Arc::new(AtomicU32::new(0));
    // Names of a source are static (a dialect's table); a test's are leaked.
    let names = (0..ops).map(|i| &*format!("test.op{i}").leak()).collect();
    ctx.defer_ops(Box::new(Counting {
        built: built.clone(),
        names,
    }));
    built
}

#[test]
fn deferred_ops_are_built_on_first_lookup_once() {
    let ctx = IrContext::new();
    let built = defer_counted(&ctx, 3);
    assert_eq!(built.load(Ordering::Relaxed), 0);
    let op1 = ctx.symbol("test.op1");
    let info = ctx.op_info(op1).unwrap();
    assert_eq!(info.name, "test.op1");
    assert!(info.has_trait(ctx.trait_id("TestPureTrait")));
    assert!(std::ptr::eq(info, ctx.op_info(op1).unwrap()));
    assert!(ctx.op_info_named("test.op1").is_some());
    assert_eq!(built.load(Ordering::Relaxed), 1);
    assert!(ctx.op_info_named("test.op3").is_none());
    assert!(ctx.op_info(ctx.symbol("test.unknown")).is_none());
    // Listing every op builds the rest.
    let names: Vec<&str> = ctx
        .registered_ops()
        .filter(|i| i.dialect == "test")
        .map(|i| i.name.as_str())
        .collect();
    assert_eq!(names.len(), 3);
    assert_eq!(built.load(Ordering::Relaxed), 3);
}

#[test]
fn deferred_names_are_found_whether_interned_before_after_or_never() {
    let ctx = IrContext::new();
    let before = ctx.symbol("test.op0");
    let plain = ctx.symbol("test.plain");
    let built = defer_counted(&ctx, 3);
    assert!(ctx.op_info(before).is_some());
    assert!(ctx.op_info(plain).is_none());
    // Never interned: a lookup by name still finds the op.
    let never = ctx.lookup_symbol("test.op2").unwrap();
    assert_eq!(ctx.symbol_str(never), "test.op2");
    assert_eq!(ctx.op_info(never).unwrap().name, "test.op2");
    assert!(ctx.lookup_symbol("test.op9").is_none());
    assert!(ctx.op_info(ctx.symbol("test.op1")).is_some());
    assert_eq!(built.load(Ordering::Relaxed), 3);
}

#[test]
fn a_later_registration_replaces_a_deferred_one_and_the_other_way() {
    let ctx = IrContext::new();
    let built = defer_counted(&ctx, 2);
    ctx.register_op(OpInfo::new("test.op0", "mine"));
    assert_eq!(ctx.op_info_named("test.op0").unwrap().dialect, "mine");
    ctx.register_op(OpInfo::new("test.op1", "mine"));
    let again = defer_counted(&ctx, 2);
    assert_eq!(ctx.op_info_named("test.op1").unwrap().dialect, "test");
    assert_eq!(built.load(Ordering::Relaxed), 0);
    assert_eq!(again.load(Ordering::Relaxed), 1);
}

#[test]
fn threads_looking_up_a_deferred_op_at_once_share_one_build() {
    let ctx = IrContext::new();
    let built = defer_counted(&ctx, 64);
    let syms: Vec<Symbol> = (0..64)
        .map(|i| ctx.symbol(&format!("test.op{i}")))
        .collect();
    let seen: Vec<Vec<usize>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    syms.iter()
                        .map(|&sym| ctx.op_info(sym).unwrap() as *const OpInfo as usize)
                        .collect()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(seen.windows(2).all(|w| w[0] == w[1]));
    assert_eq!(built.load(Ordering::Relaxed), 64);
}

#[test]
fn interning_from_many_threads_gives_one_handle() {
    let ctx = IrContext::new();
    let handles: Vec<Symbol> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..4)
            .map(|_| s.spawn(|| ctx.symbol("shared_name")))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(handles.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn borrowed_lookups_find_the_attribute_built_from_its_value() {
    use crate::builtin::{StrAttr, TensorNameAttr};
    let ctx = IrContext::new();
    let built = ctx.intern_attr(StrAttr("x.w_0".into()));
    assert_eq!(StrAttr::get(&ctx, "x.w_0"), built);
    let fresh = StrAttr::get(&ctx, "y.w_0");
    assert_eq!(ctx.intern_attr(StrAttr("y.w_0".into())), fresh);
    assert_ne!(fresh, built);
    // Same text, another kind: another attribute.
    assert_ne!(TensorNameAttr::get(&ctx, "x.w_0"), built);
    assert_eq!(StrAttr::get(&ctx, ""), ctx.intern_attr(StrAttr("".into())));
}

#[test]
fn duplicate_dict_names_keep_the_first() {
    let ctx = IrContext::new();
    let a = ctx.symbol("a");
    let one = ctx.intern_attr(crate::builtin::I32Attr(1));
    let two = ctx.intern_attr(crate::builtin::I32Attr(2));
    let d = ctx.dict(&[(a, one), (a, two)]);
    assert_eq!(ctx.dict_entries(d), &[(a, one)]);
    // Distinct names whose indices are 64 apart (they share a bit of
    // the quick check) are all kept; a repeat among them is dropped.
    let names: Vec<Symbol> = (0..130).map(|i| ctx.symbol(&format!("n{i}"))).collect();
    let (x, y) = (names[0], names[64]);
    assert_eq!(x.0 % 64, y.0 % 64);
    let d = ctx.dict(&[(x, one), (y, two)]);
    assert_eq!(ctx.dict_entries(d), &[(x, one), (y, two)]);
    let d = ctx.dict(&[(x, one), (y, two), (names[128], one), (y, one)]);
    assert_eq!(
        ctx.dict_entries(d),
        &[(x, one), (y, two), (names[128], one)]
    );
}

#[test]
fn a_dict_with_a_repeated_name_finds_the_stored_one_after_a_guess() {
    let ctx = IrContext::new();
    let (a, b) = (ctx.symbol("a"), ctx.symbol("b"));
    let one = ctx.intern_attr(crate::builtin::I32Attr(1));
    let two = ctx.intern_attr(crate::builtin::I32Attr(2));
    let first = ctx.dict(&[(b, two)]);
    let second = ctx.dict(&[(a, one)]);
    // The guess after `first` is `second`: entries that repeat `a`
    // differ from it as given and equal it once the repeat is dropped.
    assert_eq!(ctx.dict(&[(b, two)]), first);
    assert_eq!(ctx.dict(&[(a, one), (a, two)]), second);
    assert_eq!(ctx.dict(&[(b, two)]), first);
    assert_eq!(ctx.dict(&[(a, one)]), second);
    assert_eq!(ctx.dict_entries(second), &[(a, one)]);
}

#[test]
fn dicts_iterate_in_name_order_whether_stored_in_it_or_not() {
    let ctx = IrContext::new();
    let one = ctx.intern_attr(crate::builtin::I32Attr(1));
    let names = |d| -> Vec<&str> { ctx.dict_sorted(d).map(|(n, _)| ctx.symbol_str(n)).collect() };
    let entries = |ns: &[&str]| -> Vec<(Symbol, Attribute)> {
        ns.iter().map(|n| (ctx.symbol(n), one)).collect()
    };
    let in_order = ctx.dict(&entries(&["a", "ab", "b"]));
    let shuffled = ctx.dict(&entries(&["b", "a", "ab"]));
    assert_ne!(in_order, shuffled);
    assert_eq!(names(in_order), ["a", "ab", "b"]);
    assert_eq!(names(shuffled), ["a", "ab", "b"]);
    assert!(ctx.dicts.get(in_order.0).sorted.is_none());
    // Dictionaries whose names come in the same order share their order.
    let other = ctx.dict(&entries(&["d", "c", "cd"]));
    assert_eq!(names(other), ["c", "cd", "d"]);
    let reversed = ctx.dict(&entries(&["ab", "a"]));
    assert_eq!(names(reversed), ["a", "ab"]);
    let order = |d: AttrDict| ctx.dicts.get(d.0).sorted;
    assert_eq!(order(other), order(shuffled));
    assert_ne!(order(reversed), order(shuffled));
    assert_eq!(ctx.orders.len(), 2);
    // A stored dictionary takes 3 words (its entries and order).
    assert!(std::mem::size_of::<DictData>() <= 24);
    assert_eq!(names(ctx.dict(&[])), Vec::<&str>::new());
}

/// The symbol of a deferred op's name is the source's static text (no
/// copy), and a name interned before the source was deferred still finds
/// its op.
#[test]
fn a_deferred_op_s_symbol_keeps_the_source_s_text() {
    let ctx = IrContext::new();
    let early = ctx.symbol("test.op0");
    let names: Vec<&'static str> = vec!["test.op0", "test.op1"];
    let static_name = names[1];
    ctx.defer_ops(Box::new(Counting {
        built: Default::default(),
        names,
    }));
    assert!(ctx.op_info(early).is_some());
    let probe = String::from("test.op1");
    let text = ctx.symbol_str(ctx.symbol(&probe));
    assert_eq!(text, probe);
    assert!(std::ptr::eq(text, static_name));
    assert_eq!(ctx.lookup_symbol("test.op1"), Some(ctx.symbol("test.op1")));
}
