//! Which PIR value each legacy variable name stands for, block by block
//! (Paddle's `TranslationContext`), and the types of legacy variables.

use pir_core::builtin::{DataLayout, DenseTensorType, ScalarType, VectorType};
use pir_core::{IrContext, Type, ValueId};
use pir_dialects::pd_op::attrs::DataType;
use pir_dialects::pd_op::types::{
    DenseTensorArrayType, SelectedRowsType, SparseCooTensorType, SparseCsrTensorType,
};
use rustc_hash::FxHashMap;

use crate::desc::{name_eq, DataKind, Name, ProgramDesc, VarDesc, VarKind};
use crate::inline::InlineVec;

/// What a variable name is bound to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VarInfo {
    /// The value.
    pub value: ValueId,
    /// The value is a `vec[...]` of which the variable is element `index`
    /// (a `builtin.slice` takes it out before use).
    pub by_vector: bool,
    /// Index in the vector, or -1.
    pub index: i32,
}

impl VarInfo {
    /// A plain binding.
    pub fn plain(value: ValueId) -> Self {
        VarInfo {
            value,
            by_vector: false,
            index: -1,
        }
    }
}

/// Id of a scope in [`Scopes`].
pub type ScopeId = usize;

/// The values pushed for one name: the current one last. Most names get one
/// value, and names written in place (a batch norm's running mean) one or
/// two more: none of these needs an allocation.
#[derive(Debug, Default)]
struct Stack {
    older: InlineVec<VarInfo, 2>,
    current: Option<VarInfo>,
    /// Index of the name in `Scopes::top_keys` (top scope only).
    key: usize,
}

#[derive(Debug, Default)]
struct Scope<'d> {
    parent: Option<ScopeId>,
    map: FxHashMap<Name<'d>, Stack>,
}

/// A name of the top scope that the top block declares, with its stack.
#[derive(Debug, Default)]
struct TopStack<'d> {
    /// The name as first bound (empty until then).
    name: &'d str,
    stack: Stack,
}

/// Where the translator found a variable declared, seen from the block of
/// the op naming it: `ProgramDesc::find_var_pos` of that block and the
/// name (block, index there).
pub type Declared = (usize, usize);

/// Nested name scopes: a block's scope sees its parents' names; each name
/// keeps the stack of values pushed for it (the last one is current).
///
/// The top scope keeps the names the top block declares by their index
/// there, and only the others by name: the general path finds where each
/// variable it reads or writes is declared anyway, and then binds or looks
/// it up without hashing its name again.
#[derive(Debug)]
pub struct Scopes<'d> {
    scopes: Vec<Scope<'d>>,
    /// The program whose top block's variables are kept by index.
    desc: Option<&'d ProgramDesc<'d>>,
    /// Stacks of the top scope's names the top block declares, by index.
    top_declared: Vec<TopStack<'d>>,
    /// Names of the top scope in first-insertion order (Paddle's hash map
    /// lists them in an order that follows from it).
    top_keys: Vec<&'d str>,
    /// The names bound to an element of a vector.
    by_vector: VectorBindings<'d>,
}

/// The names whose current binding (in some scope) is an element of a
/// vector: the outputs of a `split` until each is sliced out. Few at a
/// time, so an input is checked against them by name rather than looked up
/// in its scopes; past [`VectorBindings::MAX_LISTED`] only their number is
/// kept (and every input looked up) until none is left.
#[derive(Debug, Default)]
struct VectorBindings<'d> {
    /// How many there are.
    count: usize,
    /// Their names (one per binding), while `listed`.
    names: Vec<&'d str>,
    /// Whether `names` lists them all.
    listed: bool,
}

impl<'d> VectorBindings<'d> {
    const MAX_LISTED: usize = 16;

    fn new() -> Self {
        VectorBindings {
            listed: true,
            ..Default::default()
        }
    }

    /// `name`'s current binding in a scope changes from `old` to `new`.
    fn rebind(&mut self, name: &'d str, old: bool, new: bool) {
        if old {
            self.count = self.count.saturating_sub(1);
            if let Some(i) = self.names.iter().position(|n| name_eq(n, name)) {
                self.names.swap_remove(i);
            }
        }
        if new {
            self.count += 1;
            if self.listed && self.names.len() < Self::MAX_LISTED {
                self.names.push(name);
            } else {
                self.listed = false;
                self.names = Vec::new();
            }
        }
        if self.count == 0 {
            self.listed = true;
            self.names.clear();
        }
    }

    /// Whether `name` may be bound to an element of a vector.
    fn may_hold(&self, name: &str) -> bool {
        self.count > 0 && (!self.listed || self.names.iter().any(|n| name_eq(n, name)))
    }
}

impl Default for Scopes<'_> {
    fn default() -> Self {
        Scopes::new()
    }
}

/// The top scope.
pub const TOP: ScopeId = 0;

impl<'d> Scopes<'d> {
    /// A top scope only.
    pub fn new() -> Self {
        Scopes {
            scopes: vec![Scope::default()],
            desc: None,
            top_declared: Vec::new(),
            top_keys: Vec::new(),
            by_vector: VectorBindings::new(),
        }
    }

    /// A top scope for the names of `desc`, with room for every variable
    /// its top block declares.
    pub fn for_program(desc: &'d ProgramDesc<'d>) -> Self {
        let n = desc.blocks.first().map_or(0, |b| b.vars.len());
        let mut s = Scopes::new();
        s.desc = Some(desc);
        s.top_declared.resize_with(n, TopStack::default);
        s.top_keys.reserve(n);
        s
    }

    /// The index of `name` among the top block's variables, when it is
    /// declared there; `declared` is where it was found from some block, if
    /// known (found in the top block, that is the index).
    #[inline]
    fn top_index(&self, name: &str, declared: Option<Declared>) -> Option<usize> {
        match declared {
            Some((0, i)) => Some(i),
            _ => match self.desc?.find_var_pos(TOP, name)? {
                (0, i) => Some(i),
                _ => None,
            },
        }
        .filter(|&i| i < self.top_declared.len())
    }

    /// The stack of `name` in the top scope, if bound there.
    fn top_stack(&self, name: &str, declared: Option<Declared>) -> Option<&Stack> {
        match self.top_index(name, declared) {
            Some(i) => self.top_declared.get(i).map(|t| &t.stack),
            None => self.scopes[TOP].map.get(name),
        }
    }

    /// A new scope inside `parent`.
    pub fn inner(&mut self, parent: ScopeId) -> ScopeId {
        self.inner_with_room(parent, 0)
    }

    /// A new scope inside `parent` with room for `names` names without
    /// growing (a sub-block binds about as many as it declares).
    pub fn inner_with_room(&mut self, parent: ScopeId, names: usize) -> ScopeId {
        self.scopes.push(Scope {
            parent: Some(parent),
            map: FxHashMap::with_capacity_and_hasher(names, Default::default()),
        });
        self.scopes.len() - 1
    }

    /// The current binding of `name`, looking through parents.
    pub fn get(&self, scope: ScopeId, name: &str) -> Option<VarInfo> {
        self.get_declared(scope, name, None)
    }

    /// [`Scopes::get`] of a name found declared at `declared` from the
    /// block of `scope`, when known.
    #[inline]
    pub fn get_declared(
        &self,
        scope: ScopeId,
        name: &str,
        declared: Option<Declared>,
    ) -> Option<VarInfo> {
        // The top block's ops reading its variables: one index.
        if let (TOP, Some((0, i))) = (scope, declared) {
            if let Some(top) = self.top_declared.get(i) {
                return top.stack.current;
            }
        }
        self.get_walking(scope, name, declared)
    }

    /// [`Scopes::get_declared`] through the scopes.
    fn get_walking(
        &self,
        scope: ScopeId,
        name: &str,
        declared: Option<Declared>,
    ) -> Option<VarInfo> {
        let mut s = Some(scope);
        while let Some(id) = s {
            if id == TOP {
                return self.top_stack(name, declared).and_then(|st| st.current);
            }
            let sc = self.scopes.get(id)?;
            if let Some(stack) = sc.map.get(&Name(name)) {
                return stack.current;
            }
            s = sc.parent;
        }
        None
    }

    /// [`Scopes::get`], with where the top block declares `name` (if it
    /// does) given by `top_pos` when the walk reaches the top scope.
    #[inline]
    pub fn get_finding_top(
        &self,
        scope: ScopeId,
        name: &str,
        top_pos: impl FnOnce() -> Option<Declared>,
    ) -> Option<VarInfo> {
        let mut s = Some(scope);
        while let Some(id) = s {
            if id == TOP {
                // Not declared in the top block: bound by name, if at all.
                let stack = match top_pos() {
                    Some((TOP, i)) if i < self.top_declared.len() => {
                        self.top_declared.get(i).map(|t| &t.stack)
                    }
                    _ => self.scopes[TOP].map.get(name),
                };
                return stack.and_then(|st| st.current);
            }
            let sc = self.scopes.get(id)?;
            if let Some(stack) = sc.map.get(&Name(name)) {
                return stack.current;
            }
            s = sc.parent;
        }
        None
    }

    /// Whether `name` is bound here or in a parent.
    pub fn has(&self, scope: ScopeId, name: &str) -> bool {
        self.get(scope, name).is_some()
    }

    /// Binds `name` in `scope` (pushing onto its stack).
    pub fn push(&mut self, scope: ScopeId, name: &'d str, info: VarInfo) {
        self.push_declared(scope, name, None, info);
    }

    /// [`Scopes::push`] of a name found declared at `declared` from the
    /// block of `scope`, when known.
    // Inlined: most names are the top block's, bound by their index there;
    // the hashed binding of the others is out of line.
    #[inline]
    pub fn push_declared(
        &mut self,
        scope: ScopeId,
        name: &'d str,
        declared: Option<Declared>,
        info: VarInfo,
    ) {
        if scope == TOP {
            if let Some(i) = self.top_index(name, declared) {
                self.push_top(i, name, info);
                return;
            }
        }
        self.push_by_name(scope, name, info);
    }

    /// Binds `name`, the top block's variable `i`, in the top scope.
    // Always inlined (a plain hint left it a call): every output of every
    // op of the top block is bound here.
    #[inline(always)]
    fn push_top(&mut self, i: usize, name: &'d str, info: VarInfo) {
        let key = self.top_keys.len();
        let Some(top) = self.top_declared.get_mut(i) else {
            return;
        };
        let old = top.stack.current.replace(info);
        match old {
            Some(old) => {
                if old.by_vector || info.by_vector {
                    self.by_vector.rebind(name, old.by_vector, info.by_vector);
                }
                top.stack.older.push(old);
            }
            None => {
                top.name = name;
                top.stack.key = key;
                self.top_keys.push(name);
                if info.by_vector {
                    self.by_vector.rebind(name, false, true);
                }
            }
        }
    }

    /// Binds `name` in the map of `scope`.
    #[inline(never)]
    fn push_by_name(&mut self, scope: ScopeId, name: &'d str, info: VarInfo) {
        use std::collections::hash_map::Entry;
        match self.scopes[scope].map.entry(Name(name)) {
            Entry::Occupied(mut e) => {
                let stack = e.get_mut();
                let old = stack.current.replace(info);
                let was_by_vector = old.is_some_and(|old| old.by_vector);
                if was_by_vector || info.by_vector {
                    self.by_vector.rebind(name, was_by_vector, info.by_vector);
                }
                if let Some(old) = old {
                    stack.older.push(old);
                }
            }
            Entry::Vacant(e) => {
                e.insert(Stack {
                    older: InlineVec::new(),
                    current: Some(info),
                    key: self.top_keys.len(),
                });
                if scope == TOP {
                    self.top_keys.push(name);
                }
                if info.by_vector {
                    self.by_vector.rebind(name, false, true);
                }
            }
        }
    }

    /// Whether any name is now bound to an element of a vector (else no
    /// input needs a `builtin.slice`).
    pub fn any_by_vector(&self) -> bool {
        self.by_vector.count > 0
    }

    /// Whether `name` may be bound to an element of a vector (when not, its
    /// binding needs no `builtin.slice`, without looking it up).
    pub fn may_be_by_vector(&self, name: &str) -> bool {
        self.by_vector.may_hold(name)
    }

    /// Every value pushed for `name` in the top scope, oldest first.
    pub fn top_values(&self, name: &str) -> impl Iterator<Item = VarInfo> + '_ {
        self.top_stack(name, None)
            .into_iter()
            .flat_map(|s| s.older.iter().copied().chain(s.current))
    }

    /// Each name of the top scope (in no particular order) with its index in
    /// [`Scopes::top_keys`], the index of the top block's first variable of
    /// that name when the scope keeps it by that index (else `None`: the
    /// name may still be declared there), and every value pushed for it,
    /// oldest first.
    pub fn top_entries(
        &self,
    ) -> impl Iterator<
        Item = (
            usize,
            &'d str,
            Option<usize>,
            impl Iterator<Item = VarInfo> + '_,
        ),
    > + '_ {
        let declared = self
            .top_declared
            .iter()
            .enumerate()
            .filter(|(_, t)| t.stack.current.is_some())
            .map(|(i, t)| (t.name, Some(i), &t.stack));
        let named = self.scopes[TOP]
            .map
            .iter()
            .map(|(name, s)| (name.0, None, s));
        declared
            .chain(named)
            .map(|(name, at, s)| (s.key, name, at, s.older.iter().copied().chain(s.current)))
    }

    /// [`Scopes::top_entries`] as a plain loop, for a walk over every name
    /// of the top scope (chained iterators cost several times the work of
    /// each step): `visit` gets each name, the index of the top block's
    /// first variable of that name when the scope keeps it by that index,
    /// and the values pushed for it, the older ones oldest first, then the
    /// current one.
    pub fn for_each_top_binding(
        &self,
        mut visit: impl FnMut(&'d str, Option<usize>, &[VarInfo], Option<VarInfo>),
    ) {
        for (i, top) in self.top_declared.iter().enumerate() {
            if top.stack.current.is_some() {
                visit(
                    top.name,
                    Some(i),
                    top.stack.older.as_slice(),
                    top.stack.current,
                );
            }
        }
        for (name, stack) in &self.scopes[TOP].map {
            visit(name.0, None, stack.older.as_slice(), stack.current);
        }
    }

    /// The names of the top scope in the order they were first bound (the
    /// order of Paddle's hash map follows from it).
    pub fn top_keys(&self) -> &[&'d str] {
        &self.top_keys
    }
}

/// The builtin element type of a legacy data type.
pub fn scalar_type(kind: DataKind) -> Option<ScalarType> {
    Some(match kind {
        DataKind::Bool => ScalarType::Bool,
        DataKind::Int16 => ScalarType::I16,
        DataKind::Int32 => ScalarType::I32,
        DataKind::Int64 => ScalarType::I64,
        DataKind::Fp16 => ScalarType::F16,
        DataKind::Fp32 => ScalarType::F32,
        DataKind::Fp64 => ScalarType::F64,
        DataKind::Uint8 => ScalarType::U8,
        DataKind::Int8 => ScalarType::I8,
        DataKind::Bf16 => ScalarType::BF16,
        DataKind::Complex64 => ScalarType::C64,
        DataKind::Complex128 => ScalarType::C128,
        DataKind::Fp8E4m3fn => ScalarType::F8E4M3FN,
        DataKind::Fp8E5m2 => ScalarType::F8E5M2,
        DataKind::SizeT | DataKind::PString | DataKind::Other(_) => return None,
    })
}

/// `phi::TransToPhiDataType` of a legacy data type (undefined for the rest).
pub fn phi_dtype(kind: DataKind) -> DataType {
    match kind {
        DataKind::Bool => DataType::Bool,
        DataKind::Int8 => DataType::Int8,
        DataKind::Uint8 => DataType::UInt8,
        DataKind::Int16 => DataType::Int16,
        DataKind::Int32 => DataType::Int32,
        DataKind::Int64 => DataType::Int64,
        DataKind::Fp16 => DataType::Float16,
        DataKind::Bf16 => DataType::BFloat16,
        DataKind::Fp32 => DataType::Float32,
        DataKind::Fp64 => DataType::Float64,
        DataKind::Complex64 => DataType::Complex64,
        DataKind::Complex128 => DataType::Complex128,
        DataKind::Fp8E4m3fn => DataType::Float8E4M3FN,
        DataKind::Fp8E5m2 => DataType::Float8E5M2,
        DataKind::PString => DataType::PString,
        DataKind::SizeT | DataKind::Other(_) => DataType::Undefined,
    }
}

/// Why a variable has no PIR type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeError {
    /// Its element type has no PIR counterpart.
    DataType(DataKind),
    /// Its kind (feed list, scopes, reader, ...) has none.
    Kind(VarKind),
}

impl std::fmt::Display for TypeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TypeError::DataType(d) => write!(f, "data type {d:?} has no PIR type"),
            TypeError::Kind(k) => write!(f, "variables of kind {k:?} have no PIR type"),
        }
    }
}

/// The PIR type of a legacy variable (Paddle's `TypeTranslator`).
pub fn var_type(ctx: &IrContext, var: &VarDesc) -> Result<Type, TypeError> {
    let dtype = var.dtype();
    let elem = |ctx: &IrContext| -> Result<Type, TypeError> {
        scalar_type(dtype)
            .map(|s| ctx.intern_type(s))
            .ok_or(TypeError::DataType(dtype))
    };
    let dims = var.shape();
    Ok(match var.kind {
        VarKind::DenseTensor => DenseTensorType::get(ctx, elem(ctx)?, dims),
        VarKind::DenseTensorArray => ctx.intern_type(DenseTensorArrayType {
            dtype: elem(ctx)?,
            dims: dims.into(),
            layout: DataLayout::NCHW,
        }),
        VarKind::SelectedRows => ctx.intern_type(SelectedRowsType(dense(ctx, elem(ctx)?, dims))),
        VarKind::SparseCoo => {
            let e = elem(ctx)?;
            let t = DenseTensorType::get(ctx, e, dims);
            ctx.intern_type(SparseCooTensorType {
                dtype: e,
                dims: dims.into(),
                non_zero_dims: dims.into(),
                layout: DataLayout::NCHW,
                indices: t,
                elements: t,
            })
        }
        VarKind::SparseCsr => {
            let e = elem(ctx)?;
            let t = DenseTensorType::get(ctx, e, dims);
            ctx.intern_type(SparseCsrTensorType {
                dtype: e,
                dims: dims.into(),
                layout: DataLayout::NCHW,
                crows: t,
                cols: t,
                elements: t,
            })
        }
        VarKind::Scalar(_) => elem(ctx)?,
        other => return Err(TypeError::Kind(other)),
    })
}

fn dense(_ctx: &IrContext, dtype: Type, dims: &[i64]) -> DenseTensorType {
    DenseTensorType {
        dtype,
        dims: dims.into(),
        layout: DataLayout::NCHW,
        lod: Box::new([]),
        offset: 0,
    }
}

/// `vec[types...]`.
pub fn vector_type(ctx: &IrContext, types: &[Type]) -> Type {
    VectorType::get(ctx, types)
}

/// The dense tensor behind a type, if it is one.
pub fn as_dense(ctx: &IrContext, t: Type) -> Option<DenseTensorType> {
    ctx.type_as::<DenseTensorType>(t).cloned()
}

/// The element type and dims of a dense tensor type, the dims copied
/// inline (the op builders read only these: no copy of the whole type).
pub fn dense_parts(ctx: &IrContext, t: Type) -> Option<(Type, crate::desc::Dims)> {
    ctx.type_as::<DenseTensorType>(t)
        .map(|d| (d.dtype, crate::desc::Dims::from(&d.dims[..])))
}

/// The element types of a `vec[...]` type.
pub fn vector_elems(ctx: &IrContext, t: Type) -> Option<Vec<Type>> {
    ctx.type_as::<VectorType>(t).map(|v| v.0.to_vec())
}

/// Whether a type is a `vec[...]`.
pub fn is_vector(ctx: &IrContext, t: Type) -> bool {
    ctx.type_is::<VectorType>(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name the top block declares is bound in one place however it is
    /// named: by its index there or by name.
    #[test]
    fn top_block_names_are_bound_alike_by_index_and_by_name() {
        use prost::Message;
        let var = |n: &str| crate::desc::tests::tensor_var(n, vec![1]);
        let proto = crate::proto::ProgramDesc {
            blocks: vec![crate::proto::BlockDesc {
                idx: 0,
                parent_idx: -1,
                vars: vec![var("a"), var("b")],
                ops: vec![],
                forward_block_idx: None,
            }],
            version: None,
            op_version_map: None,
        };
        let bytes = proto.encode_to_vec();
        let arena = crate::DescArena::default();
        let desc = ProgramDesc::decode(&bytes, &arena).expect("a valid program");
        let ctx = pir_dialects::pd_op_context();
        let mut p = pir_core::Program::new(ctx.clone());
        let top = p.top_block();
        let ty = ctx.intern_type(ScalarType::F32);
        let [v1, v2, v3] = [(); 3].map(|()| p.add_block_arg(top, ty));
        let mut s = Scopes::for_program(&desc);
        s.push_declared(TOP, "b", Some((0, 1)), VarInfo::plain(v1));
        s.push(TOP, "a", VarInfo::plain(v2));
        s.push(TOP, "c", VarInfo::plain(v3));
        s.push(TOP, "b", VarInfo::plain(v3));
        let value = |info: Option<VarInfo>| info.map(|i| i.value);
        assert_eq!(value(s.get(TOP, "b")), Some(v3));
        assert_eq!(value(s.get_declared(TOP, "a", Some((0, 0)))), Some(v2));
        let b: Vec<ValueId> = s.top_values("b").map(|i| i.value).collect();
        assert_eq!(b, [v1, v3]);
        assert_eq!(s.top_keys(), ["b", "a", "c"]);
        let inner = s.inner(TOP);
        assert_eq!(value(s.get_declared(inner, "c", None)), Some(v3));
        assert_eq!(value(s.get_declared(inner, "a", Some((0, 0)))), Some(v2));
        assert_eq!(value(s.get(inner, "d")), None);
        // The top block's position, when the walk reaches the top scope;
        // a name it does not declare is bound by name.
        let inner_b = s.inner(inner);
        s.push(inner, "a", VarInfo::plain(v1));
        let found = |scope, name, at| value(s.get_finding_top(scope, name, || at));
        assert_eq!(found(inner_b, "a", Some((0, 0))), Some(v1));
        assert_eq!(found(TOP, "a", Some((0, 0))), Some(v2));
        assert_eq!(found(inner_b, "b", Some((0, 1))), Some(v3));
        assert_eq!(found(inner_b, "c", None), Some(v3));
        assert_eq!(found(TOP, "c", Some((1, 0))), Some(v3));
        assert_eq!(found(TOP, "d", None), None);
        let mut entries: Vec<(usize, &str, Option<usize>, usize)> = s
            .top_entries()
            .map(|(k, name, at, values)| (k, name, at, values.count()))
            .collect();
        entries.sort_unstable();
        assert_eq!(
            entries,
            [
                (0, "b", Some(1), 2),
                (1, "a", Some(0), 1),
                (2, "c", None, 1)
            ]
        );
        // The plain loop visits the same names with the same values.
        let mut visited = Vec::new();
        s.for_each_top_binding(|name, at, older, current| {
            let values: Vec<ValueId> = older.iter().chain(&current).map(|i| i.value).collect();
            visited.push((name, at, values));
        });
        visited.sort_unstable();
        assert_eq!(
            visited,
            [
                ("a", Some(0), vec![v2]),
                ("b", Some(1), vec![v1, v3]),
                ("c", None, vec![v3])
            ]
        );
    }

    #[test]
    fn vector_bindings_are_listed_by_name_until_there_are_many() {
        let mut v = VectorBindings::new();
        assert!(!v.may_hold("a"));
        v.rebind("a", false, true);
        v.rebind("b", false, true);
        assert!(v.may_hold("a") && v.may_hold("b") && !v.may_hold("c"));
        v.rebind("a", true, false);
        assert!(!v.may_hold("a") && v.may_hold("b"));
        let many: Vec<String> = (0..=VectorBindings::MAX_LISTED)
            .map(|i| format!("m{i}"))
            .collect();
        for name in &many {
            v.rebind(name, false, true);
        }
        // Too many to list: any name may be one, until none is left.
        assert!(v.may_hold("c"));
        for name in &many {
            v.rebind(name, true, false);
        }
        assert!(v.may_hold("c"));
        v.rebind("b", true, false);
        assert!(!v.may_hold("c") && !v.may_hold("b"));
        v.rebind("c", false, true);
        assert!(v.may_hold("c") && !v.may_hold("b"));
    }
}
