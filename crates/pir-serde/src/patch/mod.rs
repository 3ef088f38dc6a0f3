//! PIR versions and the yaml patch system that upgrades old model files
//! (seed `version-compat-patch-yaml.md`, format spec §5).
//!
//! Each released version has a patch file in `patches/` compiled into the
//! binary. Reading a file of version `v` merges the patches of versions
//! `v..=CURRENT_VERSION` once and applies them to each op's JSON before the op
//! is built. Supporting the next version means: drop `patches/N.yaml` in, add
//! it to [`BUILTIN_PATCHES`], bump [`CURRENT_VERSION`].
//!
//! ```
//! let set = pir_serde::patch::upgrade_patches(1).unwrap();
//! assert!(set.ops.contains_key("pd_op.pool2d"));
//! assert!(pir_serde::patch::upgrade_patches(pir_serde::patch::CURRENT_VERSION).unwrap().is_empty());
//! ```

mod apply;
mod model;
mod tree;
mod undo;
mod yaml;

use std::sync::OnceLock;

pub use apply::{
    apply_id_renames, apply_op_patch, apply_parameter_patch, renames_may_apply, ApplyError,
    PairState,
};
pub use model::{AttrAction, AttrEdit, OpPatch, Origin, PairPatch, PatchSet};
pub use tree::Json;
pub use undo::{release_name, release_version, Downgrade, DowngradeError, RELEASES};
pub use yaml::{attr_class_id, parse_patch_yaml, type_class_id, PatchError};

/// The PIR version this reader and writer speak (Paddle 3.3.1's).
pub const CURRENT_VERSION: u64 = 4;

/// The newest released version (Paddle 3.3.1: 4).
pub const RELEASE_VERSION: u64 = 4;

/// The patch files of every released version, by version.
pub const BUILTIN_PATCHES: &[(u64, &str, &str)] = &[
    (1, "1.yaml", include_str!("../../patches/1.yaml")),
    (2, "2.yaml", include_str!("../../patches/2.yaml")),
    (3, "3.yaml", include_str!("../../patches/3.yaml")),
    (4, "4.yaml", include_str!("../../patches/4.yaml")),
];

/// The parsed built-in patch sets (parsed once per process).
fn builtin_sets() -> &'static [(u64, Result<PatchSet, PatchError>)] {
    static SETS: OnceLock<Vec<(u64, Result<PatchSet, PatchError>)>> = OnceLock::new();
    SETS.get_or_init(|| {
        BUILTIN_PATCHES
            .iter()
            .map(|&(v, file, text)| (v, parse_patch_yaml(file, text)))
            .collect()
    })
}

/// The merged patches that upgrade a file of `file_version` to
/// [`CURRENT_VERSION`]: the files of `file_version..=CURRENT_VERSION` in order
/// (a version's own file applies to files of that version too, as in Paddle;
/// every shipped patch is idempotent). A current or newer file gets none.
pub fn upgrade_patches(file_version: u64) -> Result<PatchSet, PatchError> {
    let mut merged = PatchSet::default();
    if file_version >= CURRENT_VERSION {
        return Ok(merged);
    }
    for (v, set) in builtin_sets() {
        if *v >= file_version && *v <= CURRENT_VERSION {
            merged.merge(set.clone()?);
        }
    }
    Ok(merged)
}
