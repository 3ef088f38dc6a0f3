//! The patch set: what a patch file says to do, in a form ready to apply.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::tree::Json;

/// Where an action was written: file, line and the action's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The patch file (`2.yaml`, or a user file's path).
    pub file: Arc<str>,
    /// 1-based line of the action.
    pub line: usize,
    /// The action (`modify_attr`).
    pub action: &'static str,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}:{})", self.action, self.file, self.line)
    }
}

/// What to do with one named attribute.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrEdit {
    /// Append this `{"AT":…,"N":…}` entry unless the op already has the name.
    Add(Json),
    /// Change the attribute's kind to `id`; replace its data with `data` if
    /// given; for an array kind given only element kinds, retag every element.
    Modify {
        /// New attribute id (`0.a_f64`).
        id: String,
        /// New data, if the patch gives one.
        data: Option<Json>,
        /// Element id for "retag every element" arrays.
        element_id: Option<String>,
    },
    /// Remove the attribute.
    Delete,
    /// Rename the attribute.
    Rename(String),
}

/// One attribute action.
#[derive(Clone, Debug, PartialEq)]
pub struct AttrAction {
    /// The attribute name the action targets.
    pub name: String,
    /// The edit.
    pub edit: AttrEdit,
    /// Where it was written.
    pub origin: Origin,
}

/// All actions on ops of one name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpPatch {
    /// New full op name.
    pub rename: Option<(String, Origin)>,
    /// Actions on `"A"` entries, in order.
    pub attrs: Vec<AttrAction>,
    /// Actions on `"OA"` entries, in order.
    pub output_attrs: Vec<AttrAction>,
    /// Input indices to delete, applied one after the other.
    pub delete_inputs: Vec<(usize, Origin)>,
    /// Results to insert: index and type JSON.
    pub add_outputs: Vec<(usize, Json, Origin)>,
    /// Results whose type changes: index and type JSON.
    pub modify_output_types: Vec<(usize, Json, Origin)>,
}

/// An action between a producer op and a consumer op.
#[derive(Clone, Debug, PartialEq)]
pub struct PairPatch {
    /// Producer op name.
    pub producer: String,
    /// Consumer op name.
    pub consumer: String,
    /// Output index in the producer.
    pub output: usize,
    /// Input index in the consumer.
    pub input: usize,
    /// `Some(type)` adds a value of that type; `None` deletes the value.
    pub add: Option<Json>,
    /// Where it was written.
    pub origin: Origin,
}

/// A merged set of patches (format spec §5.4–§5.5).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PatchSet {
    /// Op patches by full op name.
    pub ops: FxHashMap<String, OpPatch>,
    /// Op-pair patches.
    pub pairs: Vec<PairPatch>,
    /// Type id renames (`""` = the type is deleted and no longer readable).
    pub type_renames: FxHashMap<String, (String, Origin)>,
    /// Attribute id renames (`""` = deleted).
    pub attr_renames: FxHashMap<String, (String, Origin)>,
}

impl PatchSet {
    /// Whether the set does nothing.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
            && self.pairs.is_empty()
            && self.type_renames.is_empty()
            && self.attr_renames.is_empty()
    }

    /// Merges `later` into `self` with Paddle's rule: for the same op name the
    /// lists are concatenated and a later rename wins; type and attribute
    /// renames are overwritten by later ones; pair patches are collected.
    pub fn merge(&mut self, later: PatchSet) {
        for (name, patch) in later.ops {
            let entry = self.ops.entry(name).or_default();
            if patch.rename.is_some() {
                entry.rename = patch.rename;
            }
            entry.attrs.extend(patch.attrs);
            entry.output_attrs.extend(patch.output_attrs);
            entry.delete_inputs.extend(patch.delete_inputs);
            entry.add_outputs.extend(patch.add_outputs);
            entry.modify_output_types.extend(patch.modify_output_types);
        }
        for pair in later.pairs {
            if !self.pairs.contains(&pair) {
                self.pairs.push(pair);
            }
        }
        self.type_renames.extend(later.type_renames);
        self.attr_renames.extend(later.attr_renames);
    }
}
