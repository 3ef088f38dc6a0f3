//! Malicious and malformed pickles are rejected with clear errors, never run.
//! The files under `tests/data/evil_*.pkl` come from `scripts/make_test_pickles.py`.
#![allow(clippy::unwrap_used)]

use pir_params::pickle::{self, ReadLimits};

fn data(name: &str) -> Vec<u8> {
    let p = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    std::fs::read(format!("{p}{name}")).unwrap()
}

fn rejected(name: &str) -> String {
    let bytes = data(name);
    let e = pickle::read_pickle(&bytes).expect_err(name).to_string();
    // the state-dict loader fails the same way
    assert_eq!(pickle::load_state_dict(&bytes).unwrap_err().to_string(), e);
    e
}

#[test]
fn os_system_protocol_2() {
    let e = rejected("evil_os_system_p2.pkl");
    assert!(
        e.starts_with("pickle: global `os.system` is not allowed"),
        "{e}"
    );
    assert!(e.ends_with("(at byte offset 2)"), "{e}");
}

#[test]
fn posix_system_protocol_4() {
    let e = rejected("evil_posix_system_p4.pkl");
    assert!(e.contains("global `posix.system` is not allowed"), "{e}");
    assert!(e.contains("at byte offset 28"), "{e}");
}

#[test]
fn builtins_eval() {
    for f in ["evil_eval_p4.pkl", "evil_eval_dict_p4.pkl"] {
        let e = rejected(f);
        assert!(
            e.contains("global `builtins.eval` is not allowed"),
            "{f}: {e}"
        );
    }
}

#[test]
fn subprocess_popen() {
    let e = rejected("evil_popen_p4.pkl");
    assert!(
        e.contains("global `subprocess.Popen` is not allowed"),
        "{e}"
    );
}

#[test]
fn nested_reduce_tricks() {
    let e = rejected("evil_nested_reduce.pkl");
    assert!(
        e.contains("global `builtins.getattr` is not allowed"),
        "{e}"
    );
    let e = rejected("evil_reduce_on_result.pkl");
    assert!(
        e.contains("REDUCE with a tuple as callable is not allowed"),
        "{e}"
    );
}

#[test]
fn inst_obj_newobj_opcodes() {
    let e = rejected("evil_inst.pkl");
    assert!(
        e.contains("opcode INST (0x69) is not allowed (at byte offset 3)"),
        "{e}"
    );
    let e = rejected("evil_obj.pkl");
    assert!(e.contains("opcode OBJ (0x6f) is not allowed"), "{e}");
    let e = rejected("evil_newobj.pkl");
    assert!(e.contains("opcode NEWOBJ (0x81) is not allowed"), "{e}");
}

#[test]
fn numpy_lookalikes() {
    let e = rejected("evil_numpy_lookalike.pkl");
    assert!(
        e.contains("global `numpy.ctypeslib.load_library` is not allowed"),
        "{e}"
    );
    let e = rejected("evil_numpy_testing.pkl");
    assert!(
        e.contains("global `numpy.testing._private.utils.runstring` is not allowed"),
        "{e}"
    );
    let e = rejected("evil_object_dtype.pkl");
    assert!(e.contains("numpy dtype 'O8' is not supported"), "{e}");
}

#[test]
fn memo_bomb() {
    let e = rejected("evil_memo_bomb.pkl");
    assert!(
        e.contains(
            "the value expands to 18446744073709551615 items, more than the limit of 1048965"
        ),
        "{e}"
    );
    assert!(e.contains("memo bomb"), "{e}");
    // a shared list that is legitimately referenced twice is fine by default,
    // and rejected with no extra allowance
    let twice = b"\x80\x04]\x94K\x01ah\x00\x86.";
    assert!(pickle::read_pickle(twice).is_ok());
    let limits = ReadLimits {
        max_extra_nodes: 0,
        ..ReadLimits::default()
    };
    assert!(pickle::read_pickle_with(twice, &limits).is_ok());
    let bytes = data("evil_memo_bomb.pkl");
    let limits = ReadLimits {
        max_extra_nodes: 1000,
        ..ReadLimits::default()
    };
    let e = pickle::read_pickle_with(&bytes, &limits)
        .unwrap_err()
        .to_string();
    assert!(e.contains("more than the limit of 1389"), "{e}");
}

#[test]
fn memo_and_stack_limits() {
    // 10 memo entries with a limit of 4
    let mut p = b"\x80\x04".to_vec();
    for _ in 0..10 {
        p.extend(b"N\x94");
    }
    p.push(b'.');
    let limits = ReadLimits {
        max_memo: 4,
        max_stack: 8,
        ..ReadLimits::default()
    };
    let e = pickle::read_pickle_with(&p, &limits)
        .unwrap_err()
        .to_string();
    assert!(e.contains("memo holds more than 4 entries"), "{e}");
    let limits = ReadLimits {
        max_memo: 100,
        max_stack: 8,
        ..ReadLimits::default()
    };
    let e = pickle::read_pickle_with(&p, &limits)
        .unwrap_err()
        .to_string();
    assert!(e.contains("stack deeper than 8 items"), "{e}");
    // huge LONG_BINPUT indices do not allocate
    let p = b"\x80\x04Nr\xff\xff\xff\xffj\xff\xff\xff\xff\x86.";
    assert!(matches!(
        pickle::read_pickle(p).unwrap(),
        pickle::PickleValue::Tuple(_)
    ));
    // undefined memo key
    let e = pickle::read_pickle(b"\x80\x04h\x07.")
        .unwrap_err()
        .to_string();
    assert!(e.contains("memo key 7 is not defined"), "{e}");
}

#[test]
fn one_terabyte_array() {
    let e = rejected("evil_1tb_array.pkl");
    assert!(
        e.contains(
            "array of shape [1099511627776] |u1 needs 1099511627776 bytes but the pickle holds 3"
        ),
        "{e}"
    );
}

#[test]
fn protocol_5_and_missing_proto() {
    let e = rejected("evil_protocol5.pkl");
    assert!(e.contains("pickle protocol 5 is not supported"), "{e}");
    let e = pickle::read_pickle(b"N.").unwrap_err().to_string();
    assert!(e.contains("no PROTO opcode"), "{e}");
    let e = pickle::read_pickle(b"").unwrap_err().to_string();
    assert!(e.contains("no STOP opcode"), "{e}");
}

#[test]
fn truncated_files() {
    let bytes = data("paddle_linear_p4.pdparams");
    assert!(pickle::load_state_dict(&bytes).is_ok());
    for cut in 0..bytes.len() {
        let e = pickle::read_pickle(&bytes[..cut]).unwrap_err().to_string();
        assert!(
            e.contains("truncated") || e.contains("FRAME of") || e.contains("no PROTO"),
            "cut {cut}: {e}"
        );
    }
    let mut extra = bytes.clone();
    extra.push(b'N');
    let e = pickle::read_pickle(&extra).unwrap_err().to_string();
    assert!(e.contains("1 bytes after STOP"), "{e}");
}

#[test]
fn structural_errors() {
    let cases: &[(&[u8], &str)] = &[
        (b"\x80\x04a.", "stack underflow"),
        (b"\x80\x04Nt.", "no MARK on the stack"),
        (b"\x80\x04(N\x86.", "stack underflow"),
        (b"\x80\x04NNa.", "APPEND(S) to a None is not allowed"),
        (b"\x80\x04}]Ns.", "unhashable dict key of type list"),
        (b"\x80\x04NNNb.", "BUILD state must be a tuple"),
        (b"\x80\x04N)b.", "BUILD on a None is not allowed"),
        (
            b"\x80\x04\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01.",
            "LONG1 integer of 9 bytes",
        ),
        (b"\x80\x04\x8c\x02\xff\xfe.", "not valid UTF-8"),
        (
            b"\x80\x04\x95\xff\x00\x00\x00\x00\x00\x00\x00N.",
            "FRAME of 255 bytes exceeds the 2 bytes left",
        ),
        (
            b"\x80\x04X\xff\xff\xff\x7f.",
            "truncated BINUNICODE: needs 2147483647 bytes, 1 left",
        ),
        (
            b"\x80\x04\x8e\xff\xff\xff\xff\xff\xff\xff\xff.",
            "truncated BINBYTES8",
        ),
        (b"\x80\x04cnumpy\nndarray", "GLOBAL name is unterminated"),
        (b"\x80\x04\x80\x04N.", "PROTO is only allowed at the start"),
        (b"\x80\x01N.", "pickle protocol 1 is not supported"),
        (b"\x80\x04(.", "stack underflow"),
    ];
    for (p, want) in cases {
        let e = pickle::read_pickle(p).unwrap_err().to_string();
        assert!(e.contains(want), "{p:?}: {e}");
    }
}

#[test]
fn recursive_structures_are_rejected() {
    // l = []; l.append(l)
    let e = pickle::read_pickle(b"\x80\x04]\x94h\x00a.")
        .unwrap_err()
        .to_string();
    assert!(e.contains("recursive structures are not supported"), "{e}");
}
