//! Link settings of the `pir` executable: what its start-up costs before
//! `main` (`bench/small_commands.sh` measures it).
//!
//! The executable is position independent, so every pointer stored in its
//! static data (vtables, `&str` constants, panic locations, the addresses
//! of functions in other crates) is an address rewritten when the program
//! starts, by the loader or, in a static PIE, by the C library's start
//! code: about 12,600 of them, a quarter of the instructions of a
//! dynamically linked `pir --version`. Stored as usual, each is a 24-byte
//! record read and applied one at a time; `-z pack-relative-relocs` stores
//! them as DT_RELR, a bitmap of the words to adjust, walked in a tight
//! loop (300 KB of records become a few KB). The addresses, and what the
//! program does, are the same.
//!
//! The C library applies DT_RELR from glibc 2.36 on, and the linker marks
//! the executable as needing it (`GLIBC_ABI_DT_RELR`), so an older loader
//! refuses the program with a clear message instead of running it with
//! addresses left unadjusted. The flag is therefore passed only when the
//! build is for the machine it runs on and that machine's glibc is 2.36 or
//! newer (a static PIE applies them with its own copy of that glibc).
//!
//! The unwinder (panics, backtraces) is linked into the executable from
//! GCC's `libgcc_eh.a`, as Rust's static builds do, rather than loaded from
//! `libgcc_s.so.1`: one library less for the loader to find, map, relocate
//! and search for every symbol the others import (40,000 instructions and
//! 8 page faults of `pir --version`). rustc asks for `-lgcc_s` itself, so
//! the link is given a directory where `libgcc_s.a` is a linker script
//! naming `libgcc_eh.a`; where the compiler has no `libgcc_eh.a` the
//! shared unwinder stays.
//!
//! With it, the C library is linked in too: the executable is a static
//! PIE, still loaded at a random address, which relocates itself and
//! neither loads, relocates nor searches `libc.so.6` and `libm.so.6` (the
//! loader was two fifths of `pir --version`'s instructions; a static PIE
//! runs it in 285k rather than 474k, `pir verify` of a small model in 739k
//! rather than 928k, with 35 page faults fewer). rustc asks for the C
//! libraries by name after `-Bdynamic` (`-lc`, `-lm`, …) and cannot be
//! told to link statically for the executable alone (`-C
//! target-feature=+crt-static` applies to every crate, and the Python
//! module cannot be built so), so the link is given `-static-pie` and a
//! directory where each of those names is a linker script naming the
//! static archive (`libc.a` grouped with GCC's `libgcc.a` and
//! `libgcc_eh.a`, which it calls). Nothing in the program asks the C
//! library for what a static one cannot give (user or host look-ups
//! through NSS, loading a shared library, iconv's loadable converters):
//! the functions that would (`getaddrinfo`, `getpwuid_r`) are in Rust's
//! standard library, but no code of the program reaches them and the
//! linker drops them; the one optional function the standard library looks
//! up with `dlsym` is then not found, as in Rust's own static builds. Where glibc has no static-PIE start file
//! (`rcrt1.o`) or one of the archives is missing, the executable stays
//! dynamically linked. The tests run the executable, so a link that left
//! it unable to start would fail them all.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if packs_relative_relocations() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
    if let Some(dir) = static_unwinder_dir() {
        println!("cargo:rustc-link-arg-bins=-L{}", dir.display());
        // Only with the static unwinder: `-lgcc_s` must not name a shared
        // library in a program that loads none.
        if let Some(dir) = static_c_library_dir() {
            println!("cargo:rustc-link-arg-bins=-static-pie");
            println!("cargo:rustc-link-arg-bins=-L{}", dir.display());
        }
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
    if !has_compiler_file("libgcc_eh.a") {
        return None;
    }
    // A file the linker does not recognise as an archive is read as a
    // linker script: this one adds the static unwinder in its place.
    let script = ("libgcc_s.a".to_owned(), "INPUT(-lgcc_eh)".to_owned());
    script_dir("static-unwinder", &[script])
}

/// The C libraries rustc asks for by name for Rust's standard library.
const C_LIBRARIES: [&str; 6] = ["c", "m", "dl", "pthread", "rt", "util"];

/// The directory that makes rustc's `-lc`, `-lm`, … link glibc's static
/// archives, written into `OUT_DIR`; `None` (the shared C library) when
/// glibc has no static-PIE start file or one of the archives is missing.
fn static_c_library_dir() -> Option<PathBuf> {
    let mut needed = C_LIBRARIES
        .iter()
        .map(|name| format!("lib{name}.a"))
        .chain(["rcrt1.o".to_owned(), "libgcc.a".to_owned()]);
    if !needed.all(|file| has_compiler_file(&file)) {
        return None;
    }
    // The scripts are `.so` files, which a `-Bdynamic` search finds first,
    // and name the archives with `-l:`, an exact file name the directory
    // does not hold. The C library calls GCC's support libraries, which a
    // static link groups with it, as `gcc -static` does.
    let scripts: Vec<(String, String)> = C_LIBRARIES
        .iter()
        .map(|&name| {
            let script = match name {
                "c" => "GROUP(-l:libc.a -l:libgcc.a -l:libgcc_eh.a)".to_owned(),
                _ => format!("INPUT(-l:lib{name}.a)"),
            };
            (format!("lib{name}.so"), script)
        })
        .collect();
    script_dir("static-c-library", &scripts)
}

/// Whether the C compiler that links the program has `file` among its
/// libraries and start files.
fn has_compiler_file(file: &str) -> bool {
    // `cc` links the program (rustc's default linker on Linux); it prints
    // the bare name back when it has no such file.
    let Ok(output) = Command::new("cc")
        .arg(format!("-print-file-name={file}"))
        .output()
    else {
        return false;
    };
    let found = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    output.status.success() && Path::new(&found).is_absolute() && Path::new(&found).is_file()
}

/// Writes linker scripts (file name, text) into the directory `name` of
/// `OUT_DIR`; `None` when it cannot be made.
fn script_dir(name: &str, scripts: &[(String, String)]) -> Option<PathBuf> {
    let dir = PathBuf::from(var("OUT_DIR")).join(name);
    std::fs::create_dir_all(&dir).ok()?;
    for (file, script) in scripts {
        std::fs::write(dir.join(file), format!("{script}\n")).ok()?;
    }
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
