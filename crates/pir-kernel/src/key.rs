//! Kernel keys: the (backend, layout, dtype) triple by which Paddle picks a
//! phi kernel (`phi::KernelKey`), and the `kernel_key` attribute that carries
//! it on a kernel op (`paddle::dialect::KernelAttribute`).
//!
//! ```
//! use pir_core::builtin::DataLayout;
//! use pir_dialects::pd_op::DataType;
//! use pir_kernel::key::{Backend, KernelKey};
//! let key = KernelKey::new(Backend::Cpu, DataLayout::NCHW, DataType::Float32);
//! assert_eq!(key.to_string(), "<backend:CPU|layout:NCHW|dtype:float32>");
//! ```

use std::fmt;

use pir_core::builtin::DataLayout;
use pir_core::parser::{Expect, ParseError, Parser};
use pir_core::printer::Printer;
use pir_core::{AttrDef, Attribute, IrContext};
use pir_dialects::pd_op::{DataType, Place};

/// A kernel's backend (`phi::Backend`), in Paddle's order: the kernel key
/// parser picks the highest one its inputs name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Backend {
    /// No backend chosen (`Undefined`): data ops, whose tensors come from outside.
    Undefined,
    /// The host.
    Cpu,
    /// CUDA or ROCm devices.
    Gpu,
    /// Kunlun XPU.
    Xpu,
    /// oneDNN kernels on the host.
    OneDnn,
    /// cuDNN kernels.
    GpuDnn,
    /// Kernel primitives.
    Kps,
    /// Graphcore IPU.
    Ipu,
    /// A custom device.
    Custom,
}

impl Backend {
    /// Every backend, in Paddle's order.
    pub const ALL: &'static [Backend] = &[
        Backend::Undefined,
        Backend::Cpu,
        Backend::Gpu,
        Backend::Xpu,
        Backend::OneDnn,
        Backend::GpuDnn,
        Backend::Kps,
        Backend::Ipu,
        Backend::Custom,
    ];

    /// The name Paddle prints (`CPU`, `Undefined`).
    pub fn as_str(self) -> &'static str {
        match self {
            Backend::Undefined => "Undefined",
            Backend::Cpu => "CPU",
            Backend::Gpu => "GPU",
            Backend::Xpu => "XPU",
            Backend::OneDnn => "ONEDNN",
            Backend::GpuDnn => "GPUDNN",
            Backend::Kps => "KPS",
            Backend::Ipu => "IPU",
            Backend::Custom => "CUSTOM",
        }
    }

    /// Reads the printed name.
    pub fn parse(s: &str) -> Option<Backend> {
        Backend::ALL.iter().copied().find(|b| b.as_str() == s)
    }

    /// The backend of tensors at `place` (Paddle's `ParseBackend`):
    /// undefined places give [`Backend::Undefined`].
    pub fn of_place(place: &Place) -> Backend {
        match place.allocation_type {
            1 | 3 | 5 => Backend::Cpu,
            2 => Backend::Gpu,
            4 => Backend::Xpu,
            7 => Backend::Ipu,
            9 => Backend::Custom,
            _ => Backend::Undefined,
        }
    }

    /// The place of a kernel's outputs on this backend (`TransToPhiPlace`).
    /// A custom device's type is not known from its backend alone: it is
    /// named `custom`.
    pub fn place(self) -> Place {
        let allocation_type = match self {
            Backend::Undefined => 0,
            Backend::Cpu | Backend::OneDnn => 1,
            Backend::Gpu | Backend::GpuDnn | Backend::Kps => 2,
            Backend::Xpu => 4,
            Backend::Ipu => 7,
            Backend::Custom => 9,
        };
        Place {
            allocation_type,
            device_id: 0,
            device_type: if self == Backend::Custom {
                "custom"
            } else {
                ""
            }
            .into(),
        }
    }
}

/// The key of a kernel: backend, layout, data type (`phi::KernelKey`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KernelKey {
    /// Where the kernel runs.
    pub backend: Backend,
    /// The layout it expects (`Undefined` = any).
    pub layout: DataLayout,
    /// The data type it computes in.
    pub dtype: DataType,
}

impl KernelKey {
    /// A key.
    pub fn new(backend: Backend, layout: DataLayout, dtype: DataType) -> Self {
        KernelKey {
            backend,
            layout,
            dtype,
        }
    }
}

impl fmt::Display for KernelKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "<backend:{}|layout:{}|dtype:{}>",
            self.backend.as_str(),
            self.layout.as_str(),
            self.dtype.text()
        )
    }
}

/// The `kernel_key` attribute of kernel ops (`paddle::dialect::KernelAttribute`),
/// printed `<backend:CPU|layout:NCHW|dtype:float32>`. Paddle has no JSON
/// encoding for it: kernel programs are not saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KernelKeyAttr(pub KernelKey);

impl KernelKeyAttr {
    /// Interns the attribute.
    pub fn get(ctx: &IrContext, key: KernelKey) -> Attribute {
        ctx.intern_attr(KernelKeyAttr(key))
    }
}

impl AttrDef for KernelKeyAttr {
    const NAME: &'static str = "pd_kernel.kernel_key";
    const TAG: &'static str = "pd_kernel.KernelKey";

    fn print(&self, p: &mut Printer<'_>) {
        p.write_str(&self.0.to_string());
    }

    /// `<backend:CPU|layout:NCHW|dtype:float32>`.
    fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
        p.cur.expect("<backend:", "to start a kernel key")?;
        let start = p.cur.pos();
        let backend = p.cur.expect_ident("a backend")?;
        let backend = Backend::parse(backend)
            .ok_or_else(|| p.error_at(start, backend.len(), "unknown backend"))?;
        p.cur.expect("|layout:", "after the backend")?;
        let start = p.cur.pos();
        let layout = p.cur.expect_ident("a layout")?;
        let mut text = layout.to_owned();
        if p.cur.eat("(") {
            let inner = p.cur.expect_ident("a layout")?;
            p.cur.expect(")", "to close the layout")?;
            text = format!("{layout}({inner})");
        }
        let layout = DataLayout::parse(&text)
            .ok_or_else(|| p.error_at(start, text.len(), "unknown layout"))?;
        p.cur.expect("|dtype:", "after the layout")?;
        let start = p.cur.pos();
        let dtype = p.cur.expect_ident("a data type")?;
        let dtype = DataType::parse(dtype)
            .ok_or_else(|| p.error_at(start, dtype.len(), "unknown data type"))?;
        p.cur.expect(">", "to close the kernel key")?;
        Ok(KernelKeyAttr::get(
            p.ctx(),
            KernelKey::new(backend, layout, dtype),
        ))
    }

    unsaved_kind_codec!(Attribute, "attribute paddle::dialect::KernelAttribute");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backends_print_and_parse_by_paddles_names() {
        for &b in Backend::ALL {
            assert_eq!(Backend::parse(b.as_str()), Some(b));
        }
        assert!(Backend::Cpu > Backend::Undefined);
    }

    #[test]
    fn places_map_to_backends_as_parse_backend_does() {
        assert_eq!(Backend::of_place(&Place::cpu()), Backend::Cpu);
        assert_eq!(Backend::of_place(&Place::undefined()), Backend::Undefined);
        assert_eq!(Backend::Cpu.place(), Place::cpu());
        assert_eq!(Backend::Undefined.place(), Place::undefined());
        // A custom place prints as one the text reader reads back.
        let ctx = crate::kernel_context();
        let attr = pir_dialects::pd_op::PlaceAttr::get(&ctx, Backend::Custom.place());
        assert_eq!(ctx.display_attr(attr), "Place(custom:0)");
    }
}
