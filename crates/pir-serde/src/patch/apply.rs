//! Applying a [`PatchSet`] to one op's JSON before the op is built (format
//! spec §5.5): input/output edits, rename, attribute edits, then id renames.
//! A patch that cannot apply is an error naming the op and the action.

use super::model::{AttrAction, AttrEdit, OpPatch, Origin, PatchSet};
use super::tree::Json;
use crate::names::compress_op_name;

/// A patch that does not fit the op it targets.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path} (`{op}`): {origin}: {message}")]
pub struct ApplyError {
    /// JSON path of the op.
    pub path: String,
    /// The op's name.
    pub op: String,
    /// The action that failed, with its file and line.
    pub origin: String,
    /// What did not fit.
    pub message: String,
}

struct Target<'a> {
    path: &'a str,
    op: &'a str,
}

impl Target<'_> {
    fn err(&self, origin: &Origin, message: impl Into<String>) -> ApplyError {
        ApplyError {
            path: self.path.to_owned(),
            op: self.op.to_owned(),
            origin: origin.to_string(),
            message: message.into(),
        }
    }
}

/// Applies the op-level patch to a generic op object.
pub fn apply_op_patch(
    op: &mut Json,
    patch: &OpPatch,
    path: &str,
    op_name: &str,
) -> Result<(), ApplyError> {
    let t = Target { path, op: op_name };
    for (index, origin) in &patch.delete_inputs {
        let inputs = op
            .get_mut("I")
            .and_then(Json::as_array_mut)
            .ok_or_else(|| t.err(origin, "the op has no inputs"))?;
        if *index >= inputs.len() {
            return Err(t.err(
                origin,
                format!(
                    "input index {index} out of range (the op has {})",
                    inputs.len()
                ),
            ));
        }
        inputs.remove(*index);
    }
    for (index, ty, origin) in &patch.add_outputs {
        let outputs = op
            .get_mut("O")
            .and_then(Json::as_array_mut)
            .ok_or_else(|| t.err(origin, "the op has no outputs"))?;
        if *index > outputs.len() {
            return Err(t.err(
                origin,
                format!(
                    "output index {index} out of range (the op has {})",
                    outputs.len()
                ),
            ));
        }
        outputs.insert(*index, Json::Obj(vec![("TT".into(), ty.clone())]));
    }
    for (index, ty, origin) in &patch.modify_output_types {
        let outputs = op
            .get_mut("O")
            .and_then(Json::as_array_mut)
            .ok_or_else(|| t.err(origin, "the op has no outputs"))?;
        let len = outputs.len();
        let out = outputs.get_mut(*index).ok_or_else(|| {
            t.err(
                origin,
                format!("output index {index} out of range (the op has {len})"),
            )
        })?;
        out.set("TT", ty.clone());
    }
    if let Some((new, _)) = &patch.rename {
        op.set("#", Json::Str(compress_op_name(new).into_owned()));
    }
    edit_attr_list(op, "A", &patch.attrs, &t)?;
    if op.get("OA").is_some() {
        edit_attr_list(op, "OA", &patch.output_attrs, &t)?;
    }
    Ok(())
}

fn edit_attr_list(
    op: &mut Json,
    key: &str,
    actions: &[AttrAction],
    t: &Target<'_>,
) -> Result<(), ApplyError> {
    if actions.is_empty() {
        return Ok(());
    }
    if op.get(key).is_none() {
        op.set(key, Json::Arr(Vec::new()));
    }
    let Some(list) = op.get_mut(key).and_then(Json::as_array_mut) else {
        return Err(t.err(&actions[0].origin, format!("`{key}` is not a list")));
    };
    let position = |list: &[Json], name: &str| {
        list.iter()
            .position(|e| e.get("N").and_then(Json::as_str) == Some(name))
    };
    for action in actions {
        let found = position(list, &action.name);
        match &action.edit {
            // The file's own value wins over an added default.
            AttrEdit::Add(entry) => {
                if found.is_none() {
                    list.push(entry.clone());
                }
            }
            AttrEdit::Modify {
                id,
                data,
                element_id,
            } => {
                let i = found.ok_or_else(|| {
                    t.err(
                        &action.origin,
                        format!("the op has no attribute `{}` to modify", action.name),
                    )
                })?;
                let attr = list[i]
                    .get_mut("AT")
                    .ok_or_else(|| t.err(&action.origin, "the attribute entry has no `AT`"))?;
                attr.set("#", Json::Str(id.clone()));
                if let Some(d) = data {
                    attr.remove("VD");
                    attr.set("D", d.clone());
                } else if let Some(elem) = element_id {
                    if let Some(items) = attr.get_mut("D").and_then(Json::as_array_mut) {
                        for item in items {
                            item.set("#", Json::Str(elem.clone()));
                        }
                    }
                }
            }
            AttrEdit::Delete => {
                if let Some(i) = found {
                    list.remove(i);
                }
            }
            AttrEdit::Rename(new) => {
                let i = found.ok_or_else(|| {
                    t.err(
                        &action.origin,
                        format!("the op has no attribute `{}` to rename", action.name),
                    )
                })?;
                list[i].set("N", Json::Str(new.clone()));
            }
        }
    }
    Ok(())
}

/// Positions of the parameter op's short form: (`"A"` or `"OA"`, index).
fn parameter_slot(name: &str) -> Option<(&'static str, usize)> {
    Some(match name {
        "is_distributed" => ("A", 0),
        "is_parameter" => ("A", 1),
        "need_clip" => ("A", 2),
        "parameter_name" => ("A", 3),
        "persistable" => ("OA", 0),
        "stop_gradient" => ("OA", 1),
        "trainable" => ("OA", 2),
        _ => return None,
    })
}

/// Applies `builtin.parameter` attribute patches to a `"p"` op, whose
/// attributes are positional.
pub fn apply_parameter_patch(op: &mut Json, patch: &OpPatch, path: &str) -> Result<(), ApplyError> {
    let t = Target {
        path,
        op: "builtin.parameter",
    };
    for action in patch.attrs.iter().chain(&patch.output_attrs) {
        let (key, index) = parameter_slot(&action.name).ok_or_else(|| {
            t.err(
                &action.origin,
                format!(
                    "`{}` is not an attribute of the parameter op's short form",
                    action.name
                ),
            )
        })?;
        let value = match &action.edit {
            AttrEdit::Add(entry) => entry.get("AT").and_then(|a| a.get("D")).cloned(),
            AttrEdit::Modify { data, .. } => data.clone(),
            AttrEdit::Delete | AttrEdit::Rename(_) => {
                return Err(t.err(
                    &action.origin,
                    "the parameter op's attributes are positional: only values can change",
                ))
            }
        };
        let Some(value) = value else { continue };
        let value = match value {
            Json::Bool(b) => Json::Int(i64::from(b)),
            other => other,
        };
        if let Some(slot) = op
            .get_mut(key)
            .and_then(Json::as_array_mut)
            .and_then(|l| l.get_mut(index))
        {
            *slot = value;
        }
    }
    Ok(())
}

/// Applies type and attribute id renames to the op's own types and
/// attributes (not to ops nested in its regions, which are patched when read).
pub fn apply_id_renames(op: &mut Json, set: &PatchSet) {
    if set.type_renames.is_empty() && set.attr_renames.is_empty() {
        return;
    }
    let Json::Obj(members) = op else { return };
    for (key, value) in members.iter_mut() {
        if key == "regions" || key == "#" {
            continue;
        }
        value.visit_objects_mut(&mut |obj| {
            let Some(id) = obj.get("#").and_then(Json::as_str) else {
                return;
            };
            let renamed = set
                .type_renames
                .get(id)
                .or_else(|| set.attr_renames.get(id));
            if let Some((new, _)) = renamed {
                obj.set("#", Json::Str(new.clone()));
            }
        });
    }
}

/// Whether the id renames touch anything in `text` (a cheap pre-check on raw bytes).
pub fn renames_may_apply(set: &PatchSet, text: &[u8]) -> bool {
    let contains = |needle: &str| text.windows(needle.len()).any(|w| w == needle.as_bytes());
    set.type_renames
        .keys()
        .chain(set.attr_renames.keys())
        .any(|id| contains(id))
}

/// What op-pair patches carry from a producer to its consumers while a file
/// is read: the value each pair last added.
#[derive(Debug)]
pub struct PairState {
    /// The value id each op-pair patch last added, by pair index.
    values: Vec<Option<i64>>,
    /// The next id for an added value (far above any id in a file).
    next_id: i64,
}

impl Default for PairState {
    fn default() -> Self {
        PairState {
            values: Vec::new(),
            next_id: i64::MAX / 2,
        }
    }
}

impl PairState {
    fn next_fresh_id(&mut self) -> i64 {
        let id = self.next_id;
        self.next_id = self.next_id.saturating_add(1);
        id
    }

    /// Applies op-pair patch `i` of `set` to `op` (named `name`, at `path`):
    /// a producer gains or loses an output, a consumer the matching input.
    pub fn apply(
        &mut self,
        op: &mut Json,
        set: &PatchSet,
        i: usize,
        name: &str,
        path: &str,
    ) -> Result<(), ApplyError> {
        let Some(pair) = set.pairs.get(i) else {
            return Ok(());
        };
        if self.values.len() < set.pairs.len() {
            self.values.resize(set.pairs.len(), None);
        }
        let fail = |message: String| ApplyError {
            path: path.to_owned(),
            op: name.to_owned(),
            origin: pair.origin.to_string(),
            message,
        };
        if pair.producer == name {
            let outputs = op
                .get_mut("O")
                .and_then(Json::as_array_mut)
                .ok_or_else(|| fail("the op has no outputs".into()))?;
            let len = outputs.len();
            match &pair.add {
                Some(ty) if pair.output <= len => {
                    let id = self.next_fresh_id();
                    self.values[i] = Some(id);
                    outputs.insert(
                        pair.output,
                        Json::Obj(vec![("%".into(), Json::Int(id)), ("TT".into(), ty.clone())]),
                    );
                }
                None if pair.output < len => {
                    outputs.remove(pair.output);
                }
                _ => {
                    return Err(fail(format!(
                        "output index {} out of range (the op has {len})",
                        pair.output
                    )))
                }
            }
        }
        if pair.consumer == name {
            let inputs = op
                .get_mut("I")
                .and_then(Json::as_array_mut)
                .ok_or_else(|| fail("the op has no inputs".into()))?;
            let len = inputs.len();
            match &pair.add {
                Some(_) if pair.input <= len => {
                    let id = self.values[i].ok_or_else(|| {
                        fail(format!(
                            "no `{}` before this op produced the value to add",
                            pair.producer
                        ))
                    })?;
                    inputs.insert(pair.input, Json::Obj(vec![("%".into(), Json::Int(id))]));
                }
                None if pair.input < len => {
                    inputs.remove(pair.input);
                }
                _ => {
                    return Err(fail(format!(
                        "input index {} out of range (the op has {len})",
                        pair.input
                    )))
                }
            }
        }
        Ok(())
    }
}
