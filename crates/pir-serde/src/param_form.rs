//! The short form of `builtin.parameter` (format spec §2.7), spelled once
//! for the reader and the writer:
//! `{"#":"p","A":[d,p,c,name],"DA":[...],"O":{...},"OA":[...],"QA":[...]}`.

/// Every attribute the short form can hold, in the order of [`Slot`].
pub(crate) const NAMES: [&str; 11] = [
    "is_distributed",
    "is_parameter",
    "need_clip",
    "parameter_name",
    "persistable",
    "stop_gradient",
    "trainable",
    "op_dist_attr",
    "op_role",
    "struct_name",
    "op_callstack",
];

/// An attribute of the short form: its index into [`NAMES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    IsDistributed = 0,
    IsParameter = 1,
    NeedClip = 2,
    ParameterName = 3,
    Persistable = 4,
    StopGradient = 5,
    Trainable = 6,
    OpDistAttr = 7,
    OpRole = 8,
    StructName = 9,
    OpCallstack = 10,
}

impl Slot {
    /// The attribute's index into [`NAMES`].
    pub(crate) const fn index(self) -> usize {
        self as usize
    }

    /// The attribute's name.
    pub(crate) const fn name(self) -> &'static str {
        NAMES[self as usize]
    }
}

/// The flags of `"A"` before the name, with the value each has when the op
/// does not carry it.
pub(crate) const A_FLAGS: [(Slot, bool); 3] = [
    (Slot::IsDistributed, false),
    (Slot::IsParameter, true),
    (Slot::NeedClip, false),
];

/// The flags of `"OA"` (written only for trainable programs), with their
/// defaults.
pub(crate) const OA_FLAGS: [(Slot, bool); 3] = [
    (Slot::Persistable, true),
    (Slot::StopGradient, true),
    (Slot::Trainable, true),
];

/// The attributes of the `"DA"` list.
pub(crate) const DA: [Slot; 2] = [Slot::OpDistAttr, Slot::OpRole];

/// The attributes of the `"QA"` list.
pub(crate) const QA: [Slot; 1] = [Slot::StructName];

/// Attributes a parameter op may carry that the short form does not save
/// (Paddle's writer drops them too).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const DROPPED: [Slot; 1] = [Slot::OpCallstack];

/// The op's name.
pub(crate) const OP_NAME: &str = "builtin.parameter";

/// The op's name in a file.
pub(crate) const SHORT_NAME: &str = "p";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_match_names() {
        for (attr, name) in [
            (Slot::IsDistributed, "is_distributed"),
            (Slot::ParameterName, "parameter_name"),
            (Slot::Trainable, "trainable"),
            (Slot::OpCallstack, "op_callstack"),
        ] {
            assert_eq!(attr.name(), name);
            assert_eq!(NAMES[attr.index()], name);
        }
    }

    /// Every attribute has exactly one place in the short form.
    #[test]
    fn every_attribute_has_one_place() {
        let mut places = vec![Slot::ParameterName];
        places.extend(A_FLAGS.map(|(a, _)| a));
        places.extend(OA_FLAGS.map(|(a, _)| a));
        places.extend(DA);
        places.extend(QA);
        places.extend(DROPPED);
        let mut indices: Vec<usize> = places.iter().map(|a| a.index()).collect();
        indices.sort_unstable();
        assert_eq!(indices, (0..NAMES.len()).collect::<Vec<_>>());
    }
}
