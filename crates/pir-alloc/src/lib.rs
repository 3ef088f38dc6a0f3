//! The process's allocator: mimalloc, asked for a block as C's `malloc`
//! asks for one when the alignment is one every block of mimalloc has
//! ([`Allocator`]), and the options a process gives mimalloc as it starts,
//! before the first allocation ([`reserve_small_arenas`],
//! [`allow_huge_pages_from_environment`], on Linux).
//!
//! The `pir` command, the Python module and the profiling examples all set
//! [`Allocator`] as their global allocator, so that what the examples
//! measure is what the command and Python run.
//!
//! ```
//! #[global_allocator]
//! static ALLOCATOR: pir_alloc::Allocator = pir_alloc::Allocator;
//!
//! let names = vec![String::from("pd_op.conv2d")];
//! assert_eq!(names[0].len(), 12);
//! ```
#![deny(unsafe_code)]

mod allocator;
#[cfg(target_os = "linux")]
mod options;

pub use allocator::Allocator;
#[cfg(target_os = "linux")]
pub use options::{allow_huge_pages_from_environment, reserve_small_arenas};
