//! Link settings of the `pir` executable.
//!
//! The executable is position independent, so every pointer stored in its
//! static data (vtables, `&str` constants, panic locations, the addresses
//! of functions in other crates) is an address the loader rewrites when the
//! program starts: about 12,600 of them, a quarter of the instructions of
//! `pir --version`. Stored as usual, each is a 24-byte record the loader
//! reads and applies one at a time; `-z pack-relative-relocs` stores them
//! as DT_RELR, a bitmap of the words to adjust, which the loader walks in a
//! tight loop (300 KB of records become a few KB). The addresses, and what
//! the program does, are the same.
//!
//! The C library applies DT_RELR from glibc 2.36 on, and the linker marks
//! the executable as needing it (`GLIBC_ABI_DT_RELR`), so an older loader
//! refuses the program with a clear message instead of running it with
//! addresses left unadjusted. The flag is therefore passed only when the
//! build is for the machine it runs on and that machine's glibc is 2.36 or
//! newer.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if packs_relative_relocations() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

/// Whether the executable can store its relative relocations as DT_RELR:
/// a native Linux glibc build where glibc is 2.36 or newer.
fn packs_relative_relocations() -> bool {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") != "linux"
        || var("CARGO_CFG_TARGET_ENV") != "gnu"
        || var("TARGET") != var("HOST")
    {
        return false;
    }
    // `glibc 2.36`; any other answer (or none) leaves the default.
    let Ok(output) = Command::new("getconf").arg("GNU_LIBC_VERSION").output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&output.stdout);
    glibc_at_least(&text, (2, 36))
}

/// Whether `getconf GNU_LIBC_VERSION`'s answer names glibc `minimum` or newer.
fn glibc_at_least(answer: &str, minimum: (u32, u32)) -> bool {
    let Some(version) = answer.trim().strip_prefix("glibc ") else {
        return false;
    };
    let mut parts = version.split('.').map(|p| p.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(major), Some(minor)) => (major, minor) >= minimum,
        _ => false,
    }
}
