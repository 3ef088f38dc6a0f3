//! Writing for an older release: the version patches undone, newest first
//! (format spec §5). The undo is derived from the same parsed patch files the
//! reader applies; the one fact the patches do not hold — what kind a
//! `modify_attr` replaced — is data beside them (`patches/older-kinds.yaml`).
//!
//! | patch action | undone by |
//! |---|---|
//! | `add_attr` / `add_output_attr` | removing the attribute when it holds the patch's value; any other value cannot be written (an error) |
//! | `modify_attr` / `modify_output_attr` (kind only, or array element kinds) | the older kind, the value converted (an error when it does not fit) |
//! | `modify_attr_name` / `modify_output_attr_name` | the old name |
//! | `modify_name` (op) | the old op name |
//! | anything else (deleted attributes, inputs, outputs, value pairs, type and attribute renames, a `modify_attr` with a new value, parameter ops) | not reversible: building the plan fails, naming the action |
//!
//! ```
//! use pir_serde::patch::{Downgrade, Json};
//! let plan = Downgrade::to(3).unwrap();
//! let mut attrs = vec![Json::Obj(vec![
//!     ("AT".into(), Json::tagged_with("0.a_f64", Json::Float(0.20000000298023224))),
//!     ("N".into(), Json::Str("negative_slope".into())),
//! ])];
//! plan.undo_op("pd_op.leaky_relu", &mut attrs, None, 0).unwrap();
//! assert_eq!(attrs[0].get("AT").and_then(|a| a.get("#")), Some(&Json::Str("0.a_f32".into())));
//! ```

use rustc_hash::{FxHashMap, FxHashSet};

use super::model::{AttrAction, AttrEdit, OpPatch, Origin, PatchSet};
use super::tree::Json;
use super::{attr_class_id, builtin_sets, PatchError, CURRENT_VERSION};

/// The released Paddle versions and the PIR version each writes (format
/// spec §5.1).
pub const RELEASES: [(&str, u64); 4] = [("3.0", 1), ("3.1", 2), ("3.2", 3), ("3.3", 4)];

/// The PIR version a Paddle release writes: `3.1` or `3.1.1` → 2.
pub fn release_version(release: &str) -> Option<u64> {
    let mut parts = release.trim().splitn(3, '.');
    let short = format!("{}.{}", parts.next()?, parts.next()?);
    if parts
        .next()
        .is_some_and(|patch| patch.parse::<u32>().is_err())
    {
        return None;
    }
    RELEASES
        .iter()
        .find(|(name, _)| *name == short)
        .map(|&(_, v)| v)
}

/// The Paddle release that writes PIR `version` (`3.1` for 2).
pub fn release_name(version: u64) -> Option<&'static str> {
    RELEASES
        .iter()
        .find(|(_, v)| *v == version)
        .map(|&(name, _)| name)
}

/// The data file of kinds `modify_attr` replaced.
const OLDER_KINDS: &str = include_str!("../../patches/older-kinds.yaml");

/// Why a program cannot be written for an older release.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DowngradeError {
    /// An attribute holds something the older release cannot say.
    #[error("op {op_index} (`{op_name}`), attribute `{attribute}`: cannot be written for PIR version {version}{}: {reason}", release_label(*.version))]
    Inexpressible {
        /// Position of the op in write order.
        op_index: usize,
        /// The op's name.
        op_name: String,
        /// The attribute.
        attribute: String,
        /// The version written.
        version: u64,
        /// Why.
        reason: String,
    },
    /// A patch after the target version does something whose undo is not
    /// known.
    #[error("cannot write PIR version {version}{}: {origin} cannot be undone: {reason}", release_label(*.version))]
    NotReversible {
        /// The version written.
        version: u64,
        /// The action, with its file and line.
        origin: String,
        /// Why.
        reason: String,
    },
    /// A built-in patch file or `older-kinds.yaml` is malformed.
    #[error("{0}")]
    Patch(#[from] PatchError),
}

fn release_label(version: u64) -> String {
    release_name(version)
        .map(|r| format!(" (Paddle {r})"))
        .unwrap_or_default()
}

/// How one attribute action is undone.
#[derive(Clone, Debug, PartialEq)]
enum AttrUndo {
    /// Remove the attribute when its `"AT"` equals `default`.
    Remove { name: String, default: Json },
    /// Give the attribute (or, with `element`, each of its array elements)
    /// of kind `wide` the kind `narrow`.
    Narrow {
        name: String,
        wide: String,
        narrow: String,
        element: bool,
    },
    /// Rename attribute `to` back to `name`.
    RenameBack { name: String, to: String },
}

/// One action's undo, with the action it undoes.
#[derive(Clone, Debug, PartialEq)]
struct Step {
    undo: AttrUndo,
    origin: Origin,
}

/// What one version's patch did to ops of one name, undone.
#[derive(Clone, Debug, Default, PartialEq)]
struct OpUndo {
    /// The op's name before the patch, when the patch renamed it.
    old_name: Option<String>,
    /// `"A"` steps, last action first.
    attrs: Vec<Step>,
    /// `"OA"` steps, last action first.
    output_attrs: Vec<Step>,
}

/// The undo of one version's patch file, by the op name it leaves.
#[derive(Clone, Debug, Default, PartialEq)]
struct VersionUndo {
    ops: FxHashMap<String, OpUndo>,
}

/// The plan that turns the attributes of a current-version program into
/// those of an older version's file: every patch after the target version
/// undone, newest first.
#[derive(Clone, Debug, PartialEq)]
pub struct Downgrade {
    target: u64,
    /// Newest version first.
    versions: Vec<VersionUndo>,
    /// Every op name some step applies to.
    touched: FxHashSet<String>,
}

impl Downgrade {
    /// The plan for writing PIR version `target` (1 = Paddle 3.0). A target
    /// of the current version or newer (or 0, a development build's) needs
    /// nothing undone.
    pub fn to(target: u64) -> Result<Downgrade, DowngradeError> {
        let mut plan = Downgrade {
            target,
            versions: Vec::new(),
            touched: FxHashSet::default(),
        };
        if target == 0 || target >= CURRENT_VERSION {
            return Ok(plan);
        }
        let (older, written_since) = older_kinds()?;
        for (v, set) in builtin_sets().iter().rev() {
            if *v > target && *v <= CURRENT_VERSION {
                let mut set = set.clone()?;
                // Ops the target release already wrote as this patch leaves them.
                set.ops.retain(|name, _| {
                    written_since
                        .get(name.as_str())
                        .is_none_or(|&since| since > target)
                });
                let undo = version_undo(set, &older, target)?;
                plan.touched.extend(undo.ops.keys().cloned());
                plan.versions.push(undo);
            }
        }
        Ok(plan)
    }

    /// The version the plan writes.
    pub fn target(&self) -> u64 {
        self.target
    }

    /// Whether the plan changes nothing (the target is current, or no patch
    /// after it touches ops).
    pub fn touches_nothing(&self) -> bool {
        self.touched.is_empty()
    }

    /// Whether ops named `op_name` (as the program names them) may change.
    pub fn touches(&self, op_name: &str) -> bool {
        self.touched.contains(op_name)
    }

    /// Undoes the patches on one op's attribute entries (`{"AT":…,"N":…}`,
    /// `output_attrs` when the file has them). Returns the name the older
    /// release gives the op when a patch renamed it. `op_index` names the op
    /// in errors.
    pub fn undo_op(
        &self,
        op_name: &str,
        attrs: &mut Vec<Json>,
        mut output_attrs: Option<&mut Vec<Json>>,
        op_index: usize,
    ) -> Result<Option<String>, DowngradeError> {
        let mut name = op_name.to_owned();
        let mut renamed = false;
        for version in &self.versions {
            let Some(undo) = version.ops.get(&name) else {
                continue;
            };
            let fail = |attribute: &str, reason: String| DowngradeError::Inexpressible {
                op_index,
                op_name: op_name.to_owned(),
                attribute: attribute.to_owned(),
                version: self.target,
                reason,
            };
            undo_list(attrs, &undo.attrs, &fail)?;
            if let Some(list) = output_attrs.as_deref_mut() {
                undo_list(list, &undo.output_attrs, &fail)?;
            }
            if let Some(old) = &undo.old_name {
                name = old.clone();
                renamed = true;
            }
        }
        Ok(renamed.then_some(name))
    }
}

/// What `older-kinds.yaml` says: attribute id → the id it replaced, and op
/// → the PIR version from which releases wrote it as patched.
type OlderKinds = (
    FxHashMap<&'static str, &'static str>,
    FxHashMap<String, u64>,
);

/// `older-kinds.yaml` (see [`OlderKinds`]).
fn older_kinds() -> Result<OlderKinds, PatchError> {
    const FILE: &str = "older-kinds.yaml";
    let fail = |line: usize, message: String| PatchError {
        file: FILE.into(),
        line,
        column: 0,
        action: None,
        message,
    };
    let root = marked_yaml::parse_yaml(0, OLDER_KINDS).map_err(|e| fail(0, e.to_string()))?;
    let map = root
        .as_mapping()
        .and_then(|m| m.get_mapping("widened_from"))
        .ok_or_else(|| fail(0, "expected a mapping `widened_from`".into()))?;
    let mut kinds = FxHashMap::default();
    for (wide, narrow) in map.iter() {
        let line = wide.span().start().map_or(0, |m| m.line());
        let narrow = narrow
            .as_scalar()
            .ok_or_else(|| fail(line, "expected a class name".into()))?;
        let id = |class: &str| {
            attr_class_id(class.trim())
                .ok_or_else(|| fail(line, format!("unknown attribute class `{class}`")))
        };
        kinds.insert(id(wide.as_str())?, id(narrow.as_str())?);
    }
    let mut written_since = FxHashMap::default();
    if let Some(map) = root
        .as_mapping()
        .and_then(|m| m.get_mapping("written_since"))
    {
        for (op, version) in map.iter() {
            let line = op.span().start().map_or(0, |m| m.line());
            let version = version
                .as_scalar()
                .and_then(|v| v.as_str().trim().parse::<u64>().ok())
                .ok_or_else(|| fail(line, "expected a PIR version number".into()))?;
            written_since.insert(op.as_str().to_owned(), version);
        }
    }
    Ok((kinds, written_since))
}

/// The undo of one version's patch set.
fn version_undo(
    set: PatchSet,
    older: &FxHashMap<&str, &str>,
    target: u64,
) -> Result<VersionUndo, DowngradeError> {
    let refuse = |origin: &Origin, reason: &str| DowngradeError::NotReversible {
        version: target,
        origin: origin.to_string(),
        reason: reason.to_owned(),
    };
    if let Some(pair) = set.pairs.first() {
        return Err(refuse(&pair.origin, "values added or deleted between ops"));
    }
    if let Some((_, (_, origin))) = set.type_renames.iter().chain(&set.attr_renames).next() {
        return Err(refuse(origin, "type and attribute id renames"));
    }
    let mut undo = VersionUndo::default();
    let mut ops: Vec<(String, OpPatch)> = set.ops.into_iter().collect();
    // The map's order is arbitrary: sorted, a conflict is reported the same
    // way every time.
    ops.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, patch) in ops {
        let first_io = patch
            .delete_inputs
            .first()
            .map(|(_, o)| o)
            .or(patch.add_outputs.first().map(|(_, _, o)| o))
            .or(patch.modify_output_types.first().map(|(_, _, o)| o));
        if let Some(origin) = first_io {
            return Err(refuse(origin, "the older inputs and outputs are not known"));
        }
        if name == crate::param_form::OP_NAME {
            if let Some(action) = patch.attrs.iter().chain(&patch.output_attrs).next() {
                return Err(refuse(
                    &action.origin,
                    "the parameter op's attributes are positional",
                ));
            }
        }
        let op = OpUndo {
            old_name: patch.rename.as_ref().map(|_| name.clone()),
            attrs: steps(&patch.attrs, older, &refuse)?,
            output_attrs: steps(&patch.output_attrs, older, &refuse)?,
        };
        let key = match &patch.rename {
            Some((new, _)) => new.clone(),
            None => name,
        };
        if let Some((_, origin)) = &patch.rename {
            if undo.ops.contains_key(&key) {
                return Err(refuse(
                    origin,
                    "two ops are renamed to one name: which the older one was is not known",
                ));
            }
        }
        undo.ops.insert(key, op);
    }
    Ok(undo)
}

/// The undo steps of a list of attribute actions, last action first.
fn steps(
    actions: &[AttrAction],
    older: &FxHashMap<&str, &str>,
    refuse: &dyn Fn(&Origin, &str) -> DowngradeError,
) -> Result<Vec<Step>, DowngradeError> {
    let mut out = Vec::with_capacity(actions.len());
    for action in actions.iter().rev() {
        let name = action.name.clone();
        let undo = match &action.edit {
            AttrEdit::Add(entry) => AttrUndo::Remove {
                name,
                default: entry.get("AT").cloned().unwrap_or(Json::Null),
            },
            AttrEdit::Modify {
                id,
                data: None,
                element_id,
            } => {
                let (wide, element) = match element_id {
                    Some(elem) => (elem, true),
                    None => (id, false),
                };
                let narrow = older.get(wide.as_str()).ok_or_else(|| {
                    refuse(
                        &action.origin,
                        &format!(
                            "the patch names only the new kind `{wide}`, and older-kinds.yaml does not say which kind it replaced"
                        ),
                    )
                })?;
                AttrUndo::Narrow {
                    name,
                    wide: wide.clone(),
                    narrow: (*narrow).to_owned(),
                    element,
                }
            }
            AttrEdit::Modify { data: Some(_), .. } => {
                return Err(refuse(
                    &action.origin,
                    "the patch replaces the value; the older value is not known",
                ))
            }
            AttrEdit::Delete => {
                return Err(refuse(
                    &action.origin,
                    "the deleted attribute's value is not known",
                ))
            }
            AttrEdit::Rename(to) => AttrUndo::RenameBack {
                name,
                to: to.clone(),
            },
        };
        out.push(Step {
            undo,
            origin: action.origin.clone(),
        });
    }
    Ok(out)
}

/// Applies undo steps to one attribute list.
fn undo_list(
    list: &mut Vec<Json>,
    steps: &[Step],
    fail: &dyn Fn(&str, String) -> DowngradeError,
) -> Result<(), DowngradeError> {
    let position = |list: &[Json], name: &str| {
        list.iter()
            .position(|e| e.get("N").and_then(Json::as_str) == Some(name))
    };
    for step in steps {
        match &step.undo {
            AttrUndo::Remove { name, default } => {
                let Some(i) = position(list, name) else {
                    continue;
                };
                let value = list[i].get("AT").cloned().unwrap_or(Json::Null);
                if value != *default {
                    return Err(fail(
                        name,
                        format!(
                            "{} added it with the value {}; the older release has no place for {}",
                            step.origin,
                            text(default),
                            text(&value)
                        ),
                    ));
                }
                list.remove(i);
            }
            AttrUndo::Narrow {
                name,
                wide,
                narrow,
                element,
            } => {
                let Some(i) = position(list, name) else {
                    continue;
                };
                let Some(attr) = list[i].get_mut("AT") else {
                    continue;
                };
                let reason = |e: String| fail(name, format!("{}: {e}", step.origin));
                if !*element {
                    narrow_attr(attr, wide, narrow).map_err(reason)?;
                } else if attr.get("#").and_then(Json::as_str) == Some("0.a_array") {
                    if let Some(items) = attr.get_mut("D").and_then(Json::as_array_mut) {
                        for (k, item) in items.iter_mut().enumerate() {
                            narrow_attr(item, wide, narrow)
                                .map_err(|e| reason(format!("element {k}: {e}")))?;
                        }
                    }
                }
            }
            AttrUndo::RenameBack { name, to } => {
                if let Some(i) = position(list, to) {
                    list[i].set("N", Json::Str(name.clone()));
                }
            }
        }
    }
    Ok(())
}

/// Gives an attribute of kind `wide` the kind `narrow`, converting its
/// value; an attribute of another kind (already the older one) is left.
fn narrow_attr(attr: &mut Json, wide: &str, narrow: &str) -> Result<(), String> {
    if attr.get("#").and_then(Json::as_str) != Some(wide) {
        return Ok(());
    }
    if let Some(data) = attr.get("D") {
        let value = narrow_value(narrow, data)?;
        attr.set("D", value);
    }
    attr.set("#", Json::Str(narrow.to_owned()));
    Ok(())
}

/// The value of kind `narrow` that a wider value becomes: an integer must
/// fit, a double is rounded to the nearest float (as the older release
/// stored a float attribute) but must not overflow it.
fn narrow_value(narrow: &str, data: &Json) -> Result<Json, String> {
    match (narrow, data) {
        ("0.a_i32", Json::Int(i)) => i32::try_from(*i)
            .map(|_| Json::Int(*i))
            .map_err(|_| format!("{i} does not fit a 32-bit integer")),
        ("0.a_i32", Json::UInt(u)) => Err(format!("{u} does not fit a 32-bit integer")),
        ("0.a_f32", Json::Float(x)) => to_f32(*x),
        #[allow(clippy::cast_precision_loss)] // an integer-valued double
        ("0.a_f32", Json::Int(i)) => to_f32(*i as f64),
        _ => Ok(data.clone()),
    }
}

#[allow(clippy::cast_possible_truncation)] // rounding to float is the point
fn to_f32(x: f64) -> Result<Json, String> {
    let f = x as f32;
    if x.is_finite() && !f.is_finite() {
        return Err(format!("{x} does not fit a 32-bit float"));
    }
    Ok(Json::Float(f64::from(f)))
}

/// A JSON value as text, for messages.
fn text(value: &Json) -> String {
    String::from_utf8_lossy(&value.to_bytes()).into_owned()
}

#[cfg(test)]
#[path = "undo_tests.rs"]
mod tests;
