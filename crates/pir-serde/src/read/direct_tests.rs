//! Text read directly reads to what its document gives: over every distinct
//! type and entry text of the corpus, text near them, and generated values.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;

use pir_core::builtin::{
    ArrayAttr, BoolAttr, DataLayout, DenseTensorType, F32Attr, F64Attr, I32Attr, I64Attr,
    ScalarType, StrAttr,
};
use pir_core::serial::{self, JsonPath, JsonWriter};
use pir_dialects::pd_op::{DataType, DataTypeAttr, IntArrayAttr, Place, PlaceAttr};
use pir_json::{Kind, Value};
use proptest::prelude::*;

use super::*;

/// The type the document of `raw` decodes to, as the builder decodes it.
fn dom_type(ctx: &IrContext, raw: &str) -> Result<Type, String> {
    let doc = pir_json::parse(raw.as_bytes()).map_err(|e| e.to_string())?;
    serial::decode_type(ctx, doc.root(), &JsonPath::Root("")).map_err(|e| e.to_string())
}

/// The entry the document of `raw` decodes to, as the builder's
/// `read_attr_entry` decodes it.
fn dom_entry(ctx: &IrContext, raw: &str) -> Result<(Symbol, Attribute), String> {
    let doc = pir_json::parse(raw.as_bytes()).map_err(|e| e.to_string())?;
    let (root, path) = (doc.root(), JsonPath::Root(""));
    let decode = || -> Result<_, serial::DecodeError> {
        let name = serial::string(serial::field(root, "N", &path)?, &path)?;
        let attr = serial::decode_attr(ctx, serial::field(root, "AT", &path)?, &path)?;
        Ok((ctx.symbol(&name), attr))
    };
    decode().map_err(|e| e.to_string())
}

/// [`type_text`], checked against the document when it reads anything.
fn check_type(ctx: &IrContext, raw: &str) -> Option<Type> {
    let direct = type_text(ctx, raw);
    if let Some(ty) = direct {
        assert_eq!(dom_type(ctx, raw), Ok(ty), "{raw}");
    }
    direct
}

/// [`entry_text`], checked against the document when it reads anything.
fn check_entry(ctx: &IrContext, raw: &str) -> Option<(Symbol, Attribute)> {
    let direct = entry_text(ctx, raw);
    if let Some(entry) = direct {
        assert_eq!(dom_entry(ctx, raw), Ok(entry), "{raw}");
    }
    direct
}

fn compact(v: Value<'_>) -> String {
    let mut out = Vec::new();
    JsonWriter::compact(&mut out).value(v);
    String::from_utf8(out).unwrap()
}

/// Every result type (`TT`) and attribute entry (`{"AT":…,"N":…}`) in `v`.
fn collect(v: Value<'_>, types: &mut BTreeSet<String>, entries: &mut BTreeSet<String>) {
    match v.kind() {
        Kind::Object => {
            if v.get("AT").is_some() && v.get("N").is_some() {
                entries.insert(compact(v));
            }
            if let Some(tt) = v.get("TT") {
                types.insert(compact(tt));
            }
            for (_, member) in v.object().into_iter().flatten() {
                collect(member, types, entries);
            }
        }
        Kind::Array => {
            for element in v.array().into_iter().flatten() {
                collect(element, types, entries);
            }
        }
        _ => {}
    }
}

/// The distinct type and entry texts of the corpus's JSON files (Paddle's
/// own and the translations of its 2.x models).
fn corpus_texts() -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut types, mut entries) = (BTreeSet::new(), BTreeSet::new());
    let corpus = pir_corpus::corpus_dir();
    let legacy = pir_corpus::repo_root().join("../shared/legacy-corpus");
    for dir in [corpus, legacy] {
        let Ok(list) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in list.filter_map(|e| e.ok().map(|e| e.path())) {
            let name = path.to_string_lossy();
            if !name.ends_with(".json") || name.ends_with(".meta.json") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            if let Ok(doc) = pir_json::parse(&bytes) {
                collect(doc.root(), &mut types, &mut entries);
            }
        }
    }
    (types, entries)
}

/// Text that no kind reads directly, and why: the builder decodes its document.
fn left_to_the_document(raw: &str) -> bool {
    // Escapes, the `VD` spelling of NaN and infinities, and kinds without a direct reader.
    raw.contains('\\')
        || raw.contains(r##""VD":"##)
        || [
            "0.a_c64",
            "0.a_c128",
            "1.a_layout",
            "1.a_scalar",
            "1.t_",
            "4.",
            "vt.",
        ]
        .iter()
        .any(|id| raw.contains(&format!("\"{id}")))
}

#[test]
fn corpus_texts_read_directly_as_their_documents() {
    let ctx = pir_dialects::pd_op_context();
    let (types, entries) = corpus_texts();
    let (mut direct, mut left) = (0, Vec::new());
    for raw in &types {
        match check_type(&ctx, raw) {
            Some(_) => direct += 1,
            None => left.push(raw),
        }
    }
    for raw in &entries {
        match check_entry(&ctx, raw) {
            Some(_) => direct += 1,
            None => left.push(raw),
        }
    }
    let unexpected: Vec<_> = left.iter().filter(|r| !left_to_the_document(r)).collect();
    assert!(unexpected.is_empty(), "not read directly: {unexpected:#?}");
    eprintln!(
        "{} type and {} entry texts: {direct} read directly, {} left to the document",
        types.len(),
        entries.len(),
        left.len()
    );
}

/// `raw` cut short, each byte changed, white space put between any two
/// characters: text the direct reader must refuse or read as the document does.
fn near_misses(raw: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bounds: Vec<usize> = (0..=raw.len())
        .filter(|&i| raw.is_char_boundary(i))
        .collect();
    for &i in &bounds {
        out.push(raw[..i].to_owned());
        out.push(format!("{} {}", &raw[..i], &raw[i..]));
    }
    let bytes = raw.as_bytes();
    for i in 0..bytes.len() {
        for b in *br##" 0159-+.eE"\x}]{[,:tfn"## {
            let mut changed = bytes.to_vec();
            changed[i] = b;
            if let Ok(text) = String::from_utf8(changed) {
                out.push(text);
            }
        }
        let mut dropped = bytes.to_vec();
        dropped.remove(i);
        if let Ok(text) = String::from_utf8(dropped) {
            out.push(text);
        }
    }
    out
}

#[test]
fn near_misses_of_corpus_texts_read_as_their_documents() {
    let ctx = pir_dialects::pd_op_context();
    let (types, entries) = corpus_texts();
    // A spread of each: the near misses of thousands of texts add nothing but time.
    let sample = |set: &BTreeSet<String>| -> Vec<String> {
        let step = (set.len() / 150).max(1);
        set.iter().step_by(step).cloned().collect()
    };
    for raw in sample(&types) {
        for text in near_misses(&raw) {
            check_type(&ctx, &text);
        }
    }
    for raw in sample(&entries) {
        for text in near_misses(&raw) {
            check_entry(&ctx, &text);
        }
    }
}

#[test]
fn numbers_read_as_the_document_reads_them() {
    let ctx = pir_dialects::pd_op_context();
    let entry = |id: &str, d: &str| format!(r##"{{"AT":{{"#":"{id}","D":{d}}},"N":"x"}}"##);
    let floats = [
        "0",
        "-0",
        "0.0",
        "-0.0",
        "1e40",
        "-1e40",
        "1e400",
        "1e-50",
        "1E+2",
        "2.5e-3",
        "9.999999747378752e-06",
        "0.8999999761581421",
        "3.4028235677973366e38",
        "3.4028235677973362e38",
        "1.401298464324817e-45",
        "7.006492321624086e-46",
        "18446744073709551616",
        "-9223372036854775809",
        "9007199254740993",
    ];
    for d in floats {
        for id in ["0.a_f32", "0.a_f64"] {
            let raw = entry(id, d);
            assert!(check_entry(&ctx, &raw).is_some(), "{raw}");
        }
    }
    for (id, d, fits) in [
        ("0.a_i32", "2147483647", true),
        ("0.a_i32", "-2147483648", true),
        ("0.a_i32", "2147483648", false),
        ("0.a_i32", "-2147483649", false),
        ("0.a_i32", "-0", true),
        ("0.a_i32", "1.0", false),
        ("0.a_i32", "1e2", false),
        ("0.a_i64", "9223372036854775807", true),
        ("0.a_i64", "-9223372036854775808", true),
        ("0.a_i64", "9223372036854775808", false),
        ("0.a_i64", "-9223372036854775809", false),
        ("0.a_i64", "007", false),
    ] {
        let raw = entry(id, d);
        assert_eq!(check_entry(&ctx, &raw).is_some(), fits, "{raw}");
        if !fits {
            assert!(dom_entry(&ctx, &raw).is_err(), "{raw}");
        }
    }
    // −0 is an integer token: 0.0, as nlohmann reads it.
    let (_, attr) = entry_text(&ctx, &entry("0.a_f32", "-0")).unwrap();
    assert_eq!(attr, F32Attr::get(&ctx, 0.0));
    let (_, attr) = entry_text(&ctx, &entry("0.a_f32", "-0.0")).unwrap();
    assert_eq!(attr, F32Attr::get(&ctx, -0.0));
    // Paddle's spelling of NaN and infinities is left to the document.
    for vd in ["NaN", "INF", "-INF"] {
        let raw = format!(r##"{{"AT":{{"#":"0.a_f32","VD":"{vd}"}},"N":"x"}}"##);
        assert_eq!(entry_text(&ctx, &raw), None);
        assert!(dom_entry(&ctx, &raw).is_ok());
    }
}

#[test]
fn paddle_spellings_read_directly() {
    let ctx = pir_dialects::pd_op_context();
    let f32_ty = ctx.intern_type(ScalarType::F32);
    let tensor = |dims: &[i64]| DenseTensorType::get(&ctx, f32_ty, dims);
    for (raw, ty) in [
        (
            r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[-1,16,32,32],"NCHW",[],0]}"##,
            tensor(&[-1, 16, 32, 32]),
        ),
        (
            r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[],"NCHW",[],0]}"##,
            tensor(&[]),
        ),
        (
            r##"{"#":"0.t_dtensor","D":[{"#":"0.t_bool"},[2],"NHWC",[[0,1,3]],7]}"##,
            ctx.intern_type(DenseTensorType {
                dtype: ctx.intern_type(ScalarType::Bool),
                dims: Box::new([2]),
                layout: DataLayout::NHWC,
                lod: Box::new([Box::new([0, 1, 3])]),
                offset: 7,
            }),
        ),
    ] {
        assert_eq!(check_type(&ctx, raw), Some(ty), "{raw}");
    }
    for raw in [
        r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[-1],"NCHW",[],-1]}"##,
        r##"{"#":"0.t_dtensor","D":[{"#":"0.t_nope"},[-1],"NCHW",[],0]}"##,
        r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[-1],"XYZW",[],0]}"##,
        r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[-1],"NCHW",[]]}"##,
        r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[1.5],"NCHW",[],0]}"##,
        r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[-1],"NCHW",[],0],"X":1}"##,
        r##"{"D":[{"#":"0.t_f32"},[-1],"NCHW",[],0],"#":"0.t_dtensor"}"##,
        r##"{"#":"0.t_dtensor", "D":[{"#":"0.t_f32"},[-1],"NCHW",[],0]}"##,
        r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[-1],"NCHW",[],0]} "##,
    ] {
        assert_eq!(check_type(&ctx, raw), None, "{raw}");
    }
    let x = ctx.symbol("x");
    let i32_ = |v| ctx.intern_attr(I32Attr(v));
    for (raw, attr) in [
        (
            r##"{"AT":{"#":"0.a_bool","D":true},"N":"x"}"##,
            ctx.intern_attr(BoolAttr(true)),
        ),
        (r##"{"AT":{"#":"0.a_i32","D":-3},"N":"x"}"##, i32_(-3)),
        (
            r##"{"AT":{"#":"0.a_i64","D":5},"N":"x"}"##,
            ctx.intern_attr(I64Attr(5)),
        ),
        (
            r##"{"AT":{"#":"0.a_f64","D":0.5},"N":"x"}"##,
            F64Attr::get(&ctx, 0.5),
        ),
        (
            r##"{"AT":{"#":"0.a_str","D":"é"},"N":"x"}"##,
            StrAttr::get(&ctx, "é"),
        ),
        (
            r##"{"AT":{"#":"0.a_array","D":[{"#":"0.a_i32","D":1},{"#":"0.a_i32","D":2}]},"N":"x"}"##,
            ArrayAttr::get(&ctx, &[i32_(1), i32_(2)]),
        ),
        (
            r##"{"AT":{"#":"0.a_array","D":[]},"N":"x"}"##,
            ArrayAttr::get(&ctx, &[]),
        ),
        (
            r##"{"AT":{"#":"1.a_dtype","D":"Undefined(ALL_DTYPE)"},"N":"x"}"##,
            DataTypeAttr::get(&ctx, DataType::Undefined),
        ),
        (
            r##"{"AT":{"#":"1.a_place","D":[1,0,""]},"N":"x"}"##,
            PlaceAttr::get(&ctx, Place::cpu()),
        ),
        (
            r##"{"AT":{"#":"1.a_intarray","D":[-1,8]},"N":"x"}"##,
            IntArrayAttr::get(&ctx, &[-1, 8]),
        ),
    ] {
        assert_eq!(check_entry(&ctx, raw), Some((x, attr)), "{raw}");
    }
    for raw in [
        r##"{"N":"x","AT":{"#":"0.a_bool","D":true}}"##,
        r##"{"AT":{"#":"0.a_bool","D":true},"N":"x\"y"}"##,
        r##"{"AT":{"#":"0.a_bool","D":1},"N":"x"}"##,
        r##"{"AT":{"#":"0.a_str","D":"a\nb"},"N":"x"}"##,
        r##"{"AT":{"#":"1.a_dtype","D":"float128"},"N":"x"}"##,
        r##"{"AT":{"#":"1.a_place","D":[1,0]},"N":"x"}"##,
        r##"{"AT":{"#":"0.a_unknown","D":1},"N":"x"}"##,
        r##"{"AT":{"#":"0.a_bool","D":true},"N":"x","X":0}"##,
    ] {
        assert_eq!(check_entry(&ctx, raw), None, "{raw}");
    }
}

/// A context without `pd_op` reads none of its kinds directly (its reader
/// reports them unknown).
#[test]
fn kinds_come_from_the_context() {
    let ctx = IrContext::new();
    let raw = r##"{"AT":{"#":"1.a_dtype","D":"int64"},"N":"x"}"##;
    assert_eq!(entry_text(&ctx, raw), None);
    assert!(dom_entry(&ctx, raw).is_err());
    let raw = r##"{"AT":{"#":"0.a_bool","D":true},"N":"x"}"##;
    assert!(check_entry(&ctx, raw).is_some());
}

/// An attribute of the kinds read directly.
fn attr_strategy() -> impl Strategy<Value = Leaf> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Leaf::Bool),
        any::<i32>().prop_map(Leaf::I32),
        any::<i64>().prop_map(Leaf::I64),
        any::<u32>().prop_map(Leaf::F32),
        any::<u64>().prop_map(Leaf::F64),
        "[ -~é\\\\\"\n]{0,8}".prop_map(Leaf::Str),
        prop::collection::vec(any::<i64>(), 0..4).prop_map(Leaf::IntArray),
        (0..DataType::ALL.len()).prop_map(Leaf::DataType),
        (-1i64..10, -1i64..3, "[a-z\\\\]{0,3}").prop_map(|(a, d, t)| Leaf::Place(a, d, t)),
    ];
    leaf.prop_recursive(2, 12, 4, |inner| {
        prop::collection::vec(inner, 0..4).prop_map(Leaf::Array)
    })
}

#[derive(Debug, Clone)]
enum Leaf {
    Bool(bool),
    I32(i32),
    I64(i64),
    F32(u32),
    F64(u64),
    Str(String),
    IntArray(Vec<i64>),
    DataType(usize),
    Place(i64, i64, String),
    Array(Vec<Leaf>),
}

fn intern(ctx: &IrContext, leaf: &Leaf) -> Attribute {
    match leaf {
        Leaf::Bool(v) => ctx.intern_attr(BoolAttr(*v)),
        Leaf::I32(v) => ctx.intern_attr(I32Attr(*v)),
        Leaf::I64(v) => ctx.intern_attr(I64Attr(*v)),
        Leaf::F32(bits) => ctx.intern_attr(F32Attr(*bits)),
        Leaf::F64(bits) => ctx.intern_attr(F64Attr(*bits)),
        Leaf::Str(s) => StrAttr::get(ctx, s),
        Leaf::IntArray(v) => IntArrayAttr::get(ctx, v),
        Leaf::DataType(i) => DataTypeAttr::get(ctx, DataType::ALL[*i]),
        Leaf::Place(a, d, t) => PlaceAttr::get(
            ctx,
            Place {
                allocation_type: *a,
                device_id: *d,
                device_type: t.as_str().into(),
            },
        ),
        Leaf::Array(items) => {
            let items: Vec<_> = items.iter().map(|l| intern(ctx, l)).collect();
            ArrayAttr::get(ctx, &items)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// An attribute as the writer writes it reads back directly to itself
    /// (unless written with escapes or `VD`), and any one byte changed reads
    /// as the document reads it.
    #[test]
    fn written_entries_read_back(leaf in attr_strategy(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let ctx = pir_dialects::pd_op_context();
        let attr = intern(&ctx, &leaf);
        let mut out = br##"{"AT":"##.to_vec();
        if serial::encode_attr(&ctx, attr, &mut JsonWriter::compact(&mut out)).is_err() {
            return Ok(());
        }
        out.extend_from_slice(br##","N":"name"}"##);
        let raw = String::from_utf8(out.clone()).unwrap();
        let read = check_entry(&ctx, &raw);
        if !left_to_the_document(&raw) {
            prop_assert_eq!(read, Some((ctx.symbol("name"), attr)), "{}", raw);
        }
        let i = at.index(out.len());
        out[i] = byte;
        if let Ok(changed) = String::from_utf8(out) {
            check_entry(&ctx, &changed);
        }
    }
}

/// The parts of a dense tensor type: a scalar type's index, dims, a layout's
/// index, LoD, offset.
type DenseParts = (usize, Vec<i64>, usize, Vec<Vec<u64>>, u64);

fn dense_strategy() -> impl Strategy<Value = DenseParts> {
    (
        0..ScalarType::ALL.len(),
        prop::collection::vec(prop_oneof![Just(-1i64), 0i64..70000, any::<i64>()], 0..11),
        0..DataLayout::ALL.len(),
        prop_oneof![
            3 => Just(Vec::new()),
            1 => prop::collection::vec(prop::collection::vec(0u64..9, 0..3), 0..2),
        ],
        prop_oneof![3 => Just(0u64), 1 => any::<u64>()],
    )
}

fn dense(ctx: &IrContext, (dtype, dims, layout, lod, offset): &DenseParts) -> DenseTensorType {
    DenseTensorType {
        dtype: ctx.intern_type(ScalarType::ALL[*dtype]),
        dims: dims.as_slice().into(),
        layout: DataLayout::ALL[*layout],
        lod: lod.iter().map(|l| l.as_slice().into()).collect(),
        offset: *offset,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// A dense type read from the writer's text is the type interned whole,
    /// whichever comes first into a context (the reader looks the usual ones
    /// up by their parts without building one), also after the context's
    /// table has grown past many others.
    #[test]
    fn dense_types_read_directly_are_those_interned_whole(
        parts in prop::collection::vec(dense_strategy(), 1..40),
        text_first in any::<bool>(),
    ) {
        let ctx = pir_dialects::pd_op_context();
        for p in &parts {
            let t = dense(&ctx, p);
            let mut out = Vec::new();
            let whole = ctx.intern_type(t.clone());
            // Some element types are never written (`undefined`).
            if serial::encode_type(&ctx, whole, &mut JsonWriter::compact(&mut out)).is_err() {
                continue;
            }
            let raw = String::from_utf8(out).unwrap();
            let fresh = pir_dialects::pd_op_context();
            let (a, b) = if text_first {
                let read = type_text(&fresh, &raw);
                (read, Some(fresh.intern_type(dense(&fresh, p))))
            } else {
                let interned = fresh.intern_type(dense(&fresh, p));
                (type_text(&fresh, &raw), Some(interned))
            };
            prop_assert_eq!(a, b, "{}", raw);
            prop_assert_eq!(type_text(&ctx, &raw), Some(whole), "{}", raw);
        }
    }
}

/// Arrays longer than the reader keeps on its stack read as their documents.
#[test]
fn long_arrays_read_directly_as_their_documents() {
    let ctx = pir_dialects::pd_op_context();
    for n in [0, 1, 7, 8, 9, 16, 40] {
        let items: Vec<String> = (0..n)
            .map(|i| format!(r##"{{"#":"0.a_i64","D":{i}}}"##))
            .collect();
        let raw = format!(
            r##"{{"AT":{{"#":"0.a_array","D":[{}]}},"N":"x"}}"##,
            items.join(",")
        );
        let (_, attr) = check_entry(&ctx, &raw).unwrap();
        let want: Vec<Attribute> = (0..n).map(|i| ctx.intern_attr(I64Attr(i))).collect();
        assert_eq!(attr, ArrayAttr::get(&ctx, &want), "{raw}");
        // One element spelled otherwise leaves the whole to the document.
        let raw = raw.replacen(r#""D":0}"#, r#""D":0 }"#, 1);
        assert_eq!(entry_text(&ctx, &raw).is_none(), n > 0, "{raw}");
    }
}

#[test]
fn texts_read_once_are_found_in_the_context_afterwards() {
    let ctx = pir_dialects::pd_op_context();
    let (types, entries) = corpus_texts();
    for raw in &types {
        let Some(first) = type_text(&ctx, raw) else {
            assert_eq!(
                ctx.type_of_text(raw),
                None,
                "a text not read is not kept: {raw}"
            );
            continue;
        };
        assert_eq!(ctx.type_of_text(raw), Some(first), "{raw}");
        assert_eq!(check_type(&ctx, raw), Some(first), "{raw}");
    }
    for raw in &entries {
        let Some(first) = entry_text(&ctx, raw) else {
            assert_eq!(
                ctx.entry_of_text(raw),
                None,
                "a text not read is not kept: {raw}"
            );
            continue;
        };
        assert_eq!(ctx.entry_of_text(raw), Some(first), "{raw}");
        assert_eq!(check_entry(&ctx, raw), Some(first), "{raw}");
    }
    // Another context keeps its own texts: handles belong to their context.
    let other = pir_dialects::pd_op_context();
    assert!(types.iter().all(|raw| other.type_of_text(raw).is_none()));
}
