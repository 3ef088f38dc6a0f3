//! Reads and translates `.pdmodel` files in a loop, for profilers
//! (`valgrind --tool=callgrind`): one translation first (it fills the
//! context's memo, as `pir time`'s first load does), then `REPEAT` more.
//!
//! ```text
//! cargo build --profile bench -p pir-legacy --example translate_loop
//! target/release/examples/translate_loop REPEAT FILE.pdmodel...
//! ```

use std::process::ExitCode;

/// As the `pir` command: a translation is many small allocations, whose
/// cost depends on the allocator.
#[global_allocator]
static ALLOCATOR: pir_alloc::Allocator = pir_alloc::Allocator;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(repeat) = args.next().and_then(|r| r.parse::<usize>().ok()) else {
        eprintln!("usage: translate_loop REPEAT FILE.pdmodel...");
        return ExitCode::FAILURE;
    };
    let ctx = pir_dialects::pd_op_context();
    for path in args {
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        };
        for _ in 0..=repeat {
            match pir_legacy::translate_bytes(&bytes, ctx.clone(), Default::default()) {
                Ok(program) => drop(std::hint::black_box(program)),
                Err(e) => {
                    eprintln!("{path}: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    ExitCode::SUCCESS
}
