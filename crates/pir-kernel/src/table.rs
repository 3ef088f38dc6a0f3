//! Which phi kernels exist: Paddle 3.3.1's kernel factory as data.
//!
//! `data/phi_kernels.tsv` lists every kernel key Paddle registers (kernel
//! name, backend, layout, dtype; 7,497 keys of 1,217 kernels), written by
//! `scripts/gen_kernel_table.py` from a running Paddle. It is compiled in and
//! read once per process. The lowering asks it what Paddle's
//! `KernelFactory::SelectKernel` would: is there a kernel for this key, or
//! for the key with any layout.
//!
//! ```
//! use pir_core::builtin::DataLayout;
//! use pir_dialects::pd_op::DataType;
//! use pir_kernel::key::{Backend, KernelKey};
//! let table = pir_kernel::table::KernelTable::paddle();
//! let key = KernelKey::new(Backend::Cpu, DataLayout::NCHW, DataType::Float32);
//! assert!(table.select("matmul", key));
//! assert!(!table.select("matmul", KernelKey { dtype: DataType::Bool, ..key }));
//! ```

use std::sync::OnceLock;

use pir_core::builtin::DataLayout;
use pir_dialects::pd_op::DataType;
use rustc_hash::FxHashMap;

use crate::key::{Backend, KernelKey};

/// The generated table.
const PADDLE_KERNELS: &str = include_str!("../data/phi_kernels.tsv");

/// A set of registered kernel keys, by kernel name.
#[derive(Debug, Default)]
pub struct KernelTable {
    kernels: FxHashMap<&'static str, Vec<KernelKey>>,
    entries: usize,
}

/// A line of the table that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("kernel table line {line}: {message}")]
pub struct TableError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl KernelTable {
    /// Paddle 3.3.1's kernels (read on first use).
    pub fn paddle() -> &'static KernelTable {
        static TABLE: OnceLock<KernelTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            // The file is generated and compiled in; the unit test below
            // reads it strictly, so a bad line cannot ship.
            KernelTable::parse(PADDLE_KERNELS).unwrap_or_default()
        })
    }

    /// Reads the table's text: `name<TAB>backend<TAB>layout<TAB>dtype` lines,
    /// `#` comments.
    pub fn parse(text: &'static str) -> Result<KernelTable, TableError> {
        let mut table = KernelTable::default();
        for (i, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let error = |message: String| TableError {
                line: i + 1,
                message,
            };
            let mut fields = line.split('\t');
            let (Some(name), Some(backend), Some(layout), Some(dtype), None) = (
                fields.next(),
                fields.next(),
                fields.next(),
                fields.next(),
                fields.next(),
            ) else {
                return Err(error("expected four tab-separated fields".into()));
            };
            let backend = Backend::parse(backend)
                .ok_or_else(|| error(format!("unknown backend {backend}")))?;
            let layout = DataLayout::parse(layout)
                .ok_or_else(|| error(format!("unknown layout {layout}")))?;
            let dtype =
                DataType::parse(dtype).ok_or_else(|| error(format!("unknown dtype {dtype}")))?;
            table
                .kernels
                .entry(name)
                .or_default()
                .push(KernelKey::new(backend, layout, dtype));
            table.entries += 1;
        }
        Ok(table)
    }

    /// Number of registered (kernel, backend, layout, dtype) keys.
    pub fn len(&self) -> usize {
        self.entries
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// Number of kernel names.
    pub fn kernel_count(&self) -> usize {
        self.kernels.len()
    }

    /// Whether a kernel of this name is registered at all.
    pub fn has_name(&self, kernel: &str) -> bool {
        self.kernels.contains_key(kernel)
    }

    /// Whether exactly `key` is registered (`KernelFactory::HasKernel`).
    pub fn has(&self, kernel: &str, key: KernelKey) -> bool {
        self.kernels
            .get(kernel)
            .is_some_and(|keys| keys.contains(&key))
    }

    /// Whether `SelectKernel` finds a kernel: `key` itself, or `key` with any
    /// layout (kernels are registered for all layouts).
    pub fn select(&self, kernel: &str, key: KernelKey) -> bool {
        self.has(kernel, key)
            || (key.layout != DataLayout::Undefined
                && self.has(
                    kernel,
                    KernelKey {
                        layout: DataLayout::Undefined,
                        ..key
                    },
                ))
    }

    /// The (backend, dtype) pairs registered for `kernel`, sorted.
    pub fn keys(&self, kernel: &str) -> Vec<KernelKey> {
        let mut keys = self.kernels.get(kernel).cloned().unwrap_or_default();
        keys.sort_by_key(|k| (k.backend, k.layout.as_str(), k.dtype.text()));
        keys
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test fails loudly by design

    use super::*;

    #[test]
    fn the_generated_table_reads_without_errors() {
        let table = KernelTable::parse(PADDLE_KERNELS).unwrap();
        assert_eq!(table.len(), KernelTable::paddle().len());
        assert!(table.kernel_count() > 1000, "{}", table.kernel_count());
    }

    #[test]
    fn selection_falls_back_to_any_layout_but_not_to_other_dtypes() {
        let table = KernelTable::paddle();
        let key = KernelKey::new(Backend::Cpu, DataLayout::NCHW, DataType::Int64);
        assert!(table.select("add", key));
        assert!(!table.has("add", key));
        assert!(!table.select(
            "matmul",
            KernelKey::new(Backend::Cpu, DataLayout::NCHW, DataType::Bool)
        ));
        assert!(!table.has_name("no_such_kernel"));
    }

    #[test]
    fn bad_lines_are_errors_naming_the_line() {
        let e = KernelTable::parse("# header\nadd\tCPU\tNCHW\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = KernelTable::parse("add\tMOON\tNCHW\tfloat32\n").unwrap_err();
        assert!(e.message.contains("MOON"), "{e}");
    }
}
