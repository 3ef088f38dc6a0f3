//! Hostile models through the `pir` command: a value of 70,000 users
//! (`pir diff`), a DenseNet-like DAG (`pir graph`), names holding control
//! characters (SVG output, error messages), a parameter file converted
//! with another model's program. No times are asserted: the inputs are
//! sized so that the linear paths take seconds and the quadratic ones they
//! replaced would take minutes.
#![allow(clippy::unwrap_used)]

mod common;

use std::fmt::Write as _;

use common::{corpus_model, path_str, pir, pir_ok, stderr};

const DATA: &str = r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>"#;

/// A program of `relu` users of one value, then `extra` users of op `other`.
fn fan_out(relus: usize, other: &str, extra: usize) -> String {
    let mut text = format!("{{\n{DATA}\n");
    let mut next = 1;
    for (name, n) in [("pd_op.relu", relus), (other, extra)] {
        for _ in 0..n {
            let _ = writeln!(
                text,
                "    (%{next}) = \"{name}\" (%0) {{stop_gradient:[true]}} : (tensor<2xf32>) -> tensor<2xf32>"
            );
            next += 1;
        }
    }
    text.push_str("}\n");
    text
}

/// Users are paired by (operand index, op name) in one pass, and the ops
/// left over are aligned greedily by name through an index: both were
/// quadratic (the first took 73 s for 50,000 users).
#[test]
fn diff_of_a_value_with_seventy_thousand_users() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
    std::fs::write(&a, fan_out(50_000, "pd_op.sin", 20_000)).unwrap();
    std::fs::write(&b, fan_out(50_000, "pd_op.cos", 20_000)).unwrap();
    let out = pir(&["diff", "--stat", path_str(&a), path_str(&b)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let stat = String::from_utf8_lossy(&out.stdout);
    assert!(
        stat.starts_with(
            "70001 ops in A, 70001 in B: 50001 matched (0 changed), 20000 removed, 20000 added"
        ),
        "{stat}"
    );
}

/// `n` ops, each using the results of every op before it.
fn dense_dag(n: usize) -> String {
    let mut text = format!("{{\n{DATA}\n");
    for k in 1..=n {
        let operands: Vec<String> = (0..k).map(|i| format!("%{i}")).collect();
        let types = vec!["tensor<2xf32>"; k].join(", ");
        let _ = writeln!(
            text,
            "    (%{k}) = \"test.dense\" ({}) {{}} : ({types}) -> tensor<2xf32>",
            operands.join(", ")
        );
    }
    text.push_str("}\n");
    text
}

/// The layout's size counts the dummy nodes of edges spanning ranks and
/// the width of its ranks: the 24-op DenseNet-like DAG (25 nodes, about
/// 5,000 layout nodes) is laid out without the crossing reduction (it took
/// 295 s with it); a 100-op one (about 170,000 layout nodes with labels,
/// 85,000 without, on ranks up to 2,500 wide) is refused with a pointer to
/// DOT, which needs no layout.
#[test]
fn graph_of_a_dense_dag() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("dense.txt");
    std::fs::write(&model, dense_dag(24)).unwrap();
    let svg = dir.path().join("dense.svg");
    pir_ok(&["graph", path_str(&model), "-o", path_str(&svg)]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("test.dense") && text.ends_with("</svg>"));

    std::fs::write(&model, dense_dag(100)).unwrap();
    let out = pir(&["graph", path_str(&model), "-o", path_str(&svg), "--force"]);
    assert_eq!(out.status.code(), Some(1));
    let e = stderr(&out);
    assert!(
        e.contains("the graph of 101 ops and 5050 edges is too large to lay out"),
        "{e}"
    );
    assert!(e.contains("write DOT instead (`-o FILE.dot`"), "{e}");
    let dot = dir.path().join("dense.dot");
    pir_ok(&["graph", path_str(&model), "-o", path_str(&dot)]);
}

/// True for the characters XML 1.0 allows.
fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
        || c >= '\u{10000}'
}

/// Names holding `\x01` and ESC: the SVG stays well-formed XML (they are
/// written `\x01`, `\x1b`), and so does the DOT.
#[test]
fn control_characters_in_names_make_a_well_formed_svg() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("names.txt");
    let text = fan_out(2, "pd_op.sin", 1).replace("name:\"x\"", "name:\"a\u{1}b\u{1b}[31mc\"");
    // the name is not in a label; an op name is
    let text = text.replace("pd_op.sin", "test.s\u{1}i\u{1b}n");
    std::fs::write(&model, text).unwrap();
    for ext in ["svg", "html", "dot"] {
        let out_file = dir.path().join(format!("names.{ext}"));
        let out = pir(&["graph", path_str(&model), "-o", path_str(&out_file)]);
        assert!(out.status.success(), "{ext}: {}", stderr(&out));
        let written = std::fs::read_to_string(&out_file).unwrap();
        let bad: Vec<char> = written.chars().filter(|&c| !xml_char(c)).collect();
        assert!(bad.is_empty(), "{ext}: {bad:?}");
        // DOT writes the backslash of the visible form as `\\`
        let shown = if ext == "dot" {
            r"test.s\\x01i\\x1bn"
        } else {
            r"test.s\x01i\x1bn"
        };
        assert!(written.contains(shown), "{ext}");
    }
}

/// Error messages quote names and paths from the input: NUL, ESC and the
/// other control characters reach stderr escaped.
#[test]
fn error_messages_escape_control_characters() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = dir.path().join("\u{1b}]0;pwned\u{7}\u{1b}[2J.json");
    let out = pir(&["print", path_str(&hostile)]);
    assert_eq!(out.status.code(), Some(1));
    let e = stderr(&out);
    assert!(e.starts_with("error: "), "{e}");
    assert!(e.contains(r"\x1b]0;pwned\x07\x1b[2J.json"), "{e}");
    assert!(
        !e.chars().any(|c| c.is_control() && c != '\n'),
        "raw control characters: {e:?}"
    );
}

/// `pir params convert X.pdparams Y.pdiparams --program OTHER`: a tensor
/// whose shape is not the one OTHER declares is refused, by name.
#[test]
fn params_convert_refuses_other_shapes() {
    let m = corpus_model("train_mlp_adam");
    let pdparams = m.file(".pdparams").unwrap();
    let txt = std::fs::read_to_string(m.file(".txt").unwrap()).unwrap();
    let params: Vec<&str> = txt
        .lines()
        .filter(|l| l.contains("\"builtin.parameter\""))
        .collect();
    assert_eq!(params.len(), 4);
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("params.txt");
    let out_file = dir.path().join("out.pdiparams");
    let same = format!("{{\n{}\n}}\n", params.join("\n"));
    std::fs::write(&program, &same).unwrap();
    let run = |force: &str| {
        pir(&[
            "params",
            "convert",
            path_str(&pdparams),
            path_str(&out_file),
            "--program",
            path_str(&program),
            force,
        ])
    };
    let out = run("--force");
    assert!(out.status.success(), "{}", stderr(&out));
    // linear_0.w_0 is 6x8; the other program says 8x6
    std::fs::write(&program, same.replace("tensor<6x8xf32>", "tensor<8x6xf32>")).unwrap();
    let out = run("--force");
    assert_eq!(out.status.code(), Some(1));
    let e = stderr(&out);
    assert!(
        e.contains("`linear_0.w_0`: ") && e.contains(" declares float32 [8, 6], "),
        "{e}"
    );
    assert!(e.contains(" holds float32 [6, 8]"), "{e}");
}
