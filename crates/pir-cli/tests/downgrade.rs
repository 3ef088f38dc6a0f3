//! `pir convert --to` and `pir downgrade`: files for older Paddle releases.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;
use common::{path_str, pir, pir_ok};

/// The repository's copy of a file an older release wrote.
fn shipped(release: &str, file: &str) -> std::path::PathBuf {
    pir_corpus::repo_root().join(format!("tests/corpus/compat/{release}/{file}"))
}

#[test]
fn convert_to_an_old_release_gives_back_its_file_and_parameters() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("old.json");
    let original = shipped("3.0.0", "mlp_tiny.json");
    pir_ok(&[
        "convert",
        path_str(&original),
        path_str(&out),
        "--to",
        "3.0",
    ]);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(&original).unwrap()
    );
    assert_eq!(
        std::fs::read(out.with_extension("pdiparams")).unwrap(),
        std::fs::read(original.with_extension("pdiparams")).unwrap()
    );
}

#[test]
fn downgrade_undoes_the_patches_after_the_release() {
    let dir = tempfile::tempdir().unwrap();
    let upgraded = shipped("3.0.0", "c_pool_interp.upgraded.json");
    for (release, version, strides) in [("3.0", 1, "0.a_i32"), ("3.1.1", 2, "0.a_i64")] {
        let out = dir.path().join(format!("{release}.json"));
        pir_ok(&[
            "downgrade",
            path_str(&upgraded),
            path_str(&out),
            "--to",
            release,
        ]);
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            text.contains(&format!(r#""version":{version}}}"#)),
            "{release}"
        );
        assert!(
            text.contains(&format!(r##"{{"#":"{strides}","D":2}}"##)),
            "{release}"
        );
        // Interpolation scales were float arrays before 3.3.
        assert!(!text.contains("0.a_f64"), "{release}");
    }
    // Already at the version asked for: said, and written.
    let out = dir.path().join("same.json");
    let res = pir(&[
        "downgrade",
        path_str(&shipped("3.2.2", "c_activations.json")),
        path_str(&out),
        "--to",
        "3.2",
    ]);
    assert!(res.status.success());
    assert!(String::from_utf8_lossy(&res.stderr).contains("already at version 3"));
}

#[test]
fn what_the_release_cannot_hold_is_refused_with_exit_1_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(shipped("3.2.2", "c_linalg_misc.json"))
        .unwrap()
        .replace(
            r#""D":-1},"N":"output_size""#,
            r#""D":5},"N":"output_size""#,
        );
    let input = dir.path().join("in.json");
    std::fs::write(&input, text).unwrap();
    let out = dir.path().join("out.json");
    let res = pir(&["downgrade", path_str(&input), path_str(&out), "--to", "3.1"]);
    assert_eq!(res.status.code(), Some(1));
    let err = String::from_utf8_lossy(&res.stderr);
    for part in ["op 10", "pd_op.repeat_interleave", "output_size"] {
        assert!(err.contains(part), "{part}: {err}");
    }
    assert!(!out.exists());
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let input = shipped("3.0.0", "mlp_tiny.json");
    let json = dir.path().join("o.json");
    let typed = dir.path().join("o.pir");
    for args in [
        &["downgrade", path_str(&input), path_str(&json)][..],
        &[
            "downgrade",
            path_str(&input),
            path_str(&json),
            "--to",
            "2.6",
        ],
        &["convert", path_str(&input), path_str(&json), "--to", "3.x"],
        &["convert", path_str(&input), path_str(&typed), "--to", "3.0"],
    ] {
        let res = pir(args);
        assert_eq!(res.status.code(), Some(2), "{args:?}");
    }
    assert!(!json.exists() && !typed.exists());
    // --to 3.3 is the current version: any output.
    assert!(
        pir(&["convert", path_str(&input), path_str(&typed), "--to", "3.3"])
            .status
            .success()
    );
}
