//! The hash of an op's name that places it in a table of names: the
//! table of definitions (`OP_NAME_SLOTS`, shared by the build script that
//! fills it and the lookup that reads it) and that of op facts.

/// How many slots the table of names has: a power of two, at least twice
/// the number of ops, so that a lookup meets an empty slot soon.
pub const OP_NAME_SLOTS_LEN: usize = 4096;

/// FNV-1a (32 bits) of the name's bytes: a few instructions a byte, and
/// evenly spread over the table for names that share their prefix
/// (`pd_op.`).
pub const fn op_name_hash(name: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < name.len() {
        hash ^= name[i] as u32;
        hash = hash.wrapping_mul(0x0100_0193);
        i += 1;
    }
    hash
}

/// The first slot to look at for `name` in a table of `len` slots (a
/// power of two).
pub const fn first_slot(name: &[u8], len: usize) -> usize {
    op_name_hash(name) as usize & (len - 1)
}

#[cfg(test)]
mod tests {
    use crate::op_def::{op_index, OP_DEFS};

    #[test]
    fn every_op_is_found_at_its_number_and_no_other_name_is() {
        for (i, def) in OP_DEFS.iter().enumerate() {
            assert_eq!(op_index(&def.name), Some(i), "{}", def.name.as_str());
        }
        for name in ["", "pd_op.", "pd_op.matmul_x", "pd_op.matmu", "relu"] {
            assert_eq!(op_index(name), None, "{name}");
        }
    }
}
