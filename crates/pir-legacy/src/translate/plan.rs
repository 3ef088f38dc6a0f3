//! The plan of one legacy op type into one `pd_op` definition: the op-compat
//! facts the general path (`general.rs`) reads for every op of the type,
//! looked up once per context, with hints of where the type's ops keep
//! their slots.

use std::borrow::Cow;
use std::sync::atomic::{AtomicU8, Ordering};

use pir_dialects::op_def::{AttrKind, OpDef};

use super::attrs::{missing_attr_defaults, Fallback};
use crate::compat::compat;
use crate::desc::{name_eq, Slot};

/// Where the slot of one legacy name was in the last op of its type that
/// had it: the ops of a type list the same slots, so most look-ups take
/// one comparison instead of a scan. A slot's name is distinct within an
/// op's inputs and within its outputs ([`OpDesc::inputs`]), so the slot
/// found there is the one a scan finds.
#[derive(Debug, Default)]
pub(super) struct SlotHint(AtomicU8);

impl SlotHint {
    /// The arguments of the slot named `name` among `slots`.
    #[inline]
    pub(super) fn find<'o, 'd>(&self, slots: &'o [Slot<'d>], name: &str) -> Option<&'o [&'d str]> {
        // Relaxed: a stale or racing hint costs a scan, never a wrong slot.
        let at = usize::from(self.0.load(Ordering::Relaxed));
        if let Some(slot) = slots.get(at).filter(|s| name_eq(s.name, name)) {
            return Some(slot.args);
        }
        let i = slots.iter().position(|s| name_eq(s.name, name))?;
        if let Ok(i) = u8::try_from(i) {
            self.0.store(i, Ordering::Relaxed);
        }
        slots.get(i).map(|s| s.args)
    }
}

/// How the general path reads one legacy op type into one definition: the
/// op-compat facts for each input, output and attribute, looked up once.
#[derive(Debug)]
pub struct Plan {
    /// The legacy op type.
    pub(super) op_type: Box<str>,
    /// The definition.
    pub(super) def: &'static OpDef,
    /// The definition's name (read from its table once).
    pub(super) name: &'static str,
    /// Per input of the definition.
    pub(super) inputs: Vec<InputPlan>,
    /// Per output: its legacy name and where ops of the type had it.
    pub(super) outputs: Vec<(Cow<'static, str>, SlotHint)>,
    /// Per attribute: its legacy name.
    pub(super) attrs: Vec<&'static str>,
    /// Per attribute: its name and kind in the definition (read for every
    /// op translated: kept as plain data).
    pub(super) specs: Box<[(&'static str, AttrKind)]>,
    /// Defaults for attributes the legacy op lacks, when the op has a table.
    pub(super) defaults: Option<&'static [(&'static str, Fallback)]>,
}

#[derive(Debug)]
pub(super) struct InputPlan {
    /// The legacy input name.
    pub(super) legacy: Cow<'static, str>,
    /// The legacy attribute of the same PIR name.
    pub(super) legacy_attr: &'static str,
    /// Legacy inputs that may carry it as a mutable attribute.
    pub(super) candidates: Option<&'static [&'static str]>,
    /// A mutable IntArray attribute.
    pub(super) int_array: bool,
    /// The definition takes it as an IntArray (mutable or not).
    pub(super) int_array_input: bool,
    /// Where ops of the type had the legacy input.
    pub(super) slot: SlotHint,
}

impl Plan {
    /// Looks the facts up.
    pub fn new(op_type: &str, def: &'static OpDef) -> Plan {
        let c = compat();
        Plan {
            op_type: op_type.into(),
            def,
            name: def.name.as_str(),
            inputs: def
                .inputs
                .iter()
                .map(|info| InputPlan {
                    legacy: c.legacy_arg_name(op_type, info.name.as_str()),
                    legacy_attr: c.legacy_attr_name(op_type, info.name.as_str()),
                    candidates: c.mutable_candidates(op_type, info.name.as_str()),
                    int_array: info.mutable_attribute
                        && c.is_int_array_input(&def.name, &info.name),
                    int_array_input: c.is_int_array_input(&def.name, &info.name),
                    slot: SlotHint::default(),
                })
                .collect(),
            outputs: def
                .outputs
                .iter()
                .map(|info| {
                    let legacy = c.legacy_arg_name(op_type, info.name.as_str());
                    (legacy, SlotHint::default())
                })
                .collect(),
            attrs: def
                .attributes
                .iter()
                .map(|spec| c.legacy_attr_name(op_type, spec.name.as_str()))
                .collect(),
            specs: def
                .attributes
                .iter()
                .map(|spec| (spec.name.as_str(), spec.kind))
                .collect(),
            defaults: missing_attr_defaults(op_type),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hinted look-up finds what a scan finds, wherever the slot moved.
    #[test]
    fn slot_hints_find_what_a_scan_finds() {
        let slot = |name: &'static str, arg: &'static &'static str| Slot {
            name,
            args: std::slice::from_ref(arg),
        };
        let a = [
            slot("Bias", &"b"),
            slot("Filter", &"f"),
            slot("Input", &"x"),
        ];
        let b = [slot("Filter", &"f2"), slot("Input", &"x2")];
        let hint = SlotHint::default();
        for slots in [&a[..], &b[..], &a[..], &[][..]] {
            for name in ["Bias", "Filter", "Input", "Output"] {
                let want = slots.iter().find(|s| s.name == name).map(|s| s.args);
                assert_eq!(hint.find(slots, name), want, "{name}");
                assert_eq!(hint.find(slots, name), want, "{name} again");
            }
        }
    }
}
