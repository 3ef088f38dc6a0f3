//! Link settings of the `pir` executable: what its start-up costs the
//! dynamic loader (`bench/small_commands.sh` measures it).
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
//!
//! The unwinder (panics, backtraces) is linked into the executable from
//! GCC's `libgcc_eh.a`, as Rust's static builds do, rather than loaded from
//! `libgcc_s.so.1`: one library less for the loader to find, map, relocate
//! and search for every symbol the others import (40,000 instructions and
//! 8 page faults of `pir --version`). rustc asks for `-lgcc_s` itself, so
//! the link is given a directory where `libgcc_s.a` is a linker script
//! naming `libgcc_eh.a`; where the compiler has no `libgcc_eh.a` the
//! shared unwinder stays.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if packs_relative_relocations() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
    if let Some(dir) = static_unwinder_dir() {
        println!("cargo:rustc-link-arg-bins=-L{}", dir.display());
    }
}

/// Reads a cargo variable of the build (empty when unset).
fn var(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}

/// Whether the executable can store its relative relocations as DT_RELR:
/// a native Linux glibc build where glibc is 2.36 or newer.
fn packs_relative_relocations() -> bool {
    if !native_linux_glibc() {
        return false;
    }
    // `glibc 2.36`; any other answer (or none) leaves the default.
    let Ok(output) = Command::new("getconf").arg("GNU_LIBC_VERSION").output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&output.stdout);
    glibc_at_least(&text, (2, 36))
}

/// A native Linux glibc build: what the link settings here are made for.
fn native_linux_glibc() -> bool {
    var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu"
        && var("TARGET") == var("HOST")
}

/// The directory that makes `-lgcc_s` link GCC's static unwinder, written
/// into `OUT_DIR`; `None` (the shared unwinder) when the C compiler that
/// links the program has no `libgcc_eh.a` or the directory cannot be made.
fn static_unwinder_dir() -> Option<PathBuf> {
    if !native_linux_glibc() {
        return None;
    }
    // `cc` links the program (rustc's default linker on Linux); it prints
    // the bare name back when it has no such file.
    let output = Command::new("cc")
        .arg("-print-file-name=libgcc_eh.a")
        .output()
        .ok()?;
    let found = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    if !output.status.success() || !Path::new(&found).is_absolute() || !Path::new(&found).is_file()
    {
        return None;
    }
    let dir = PathBuf::from(var("OUT_DIR")).join("static-unwinder");
    std::fs::create_dir_all(&dir).ok()?;
    // A file the linker does not recognise as an archive is read as a
    // linker script: this one adds the static unwinder in its place.
    std::fs::write(dir.join("libgcc_s.a"), "INPUT(-lgcc_eh)\n").ok()?;
    Some(dir)
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
