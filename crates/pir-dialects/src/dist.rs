//! The `pd_dist` dialect's attributes and types as real (distributed) models
//! carry them: process meshes, tensor and operation distribution attributes,
//! and the distributed dense tensor type (format spec §3.1, §3.2).

use pir_core::builtin::{
    decode_dims, encode_dims, print_shape_and_dtype, DenseTensorType, TensorExtras,
};
use pir_core::parser::{Expect, ParseError, Parser};
use pir_core::printer::Printer;
use pir_core::serial::{self, DecodeError, DecodeInput, EncodeError, JsonWriter};
use pir_core::{AttrDef, Attribute, Dialect, IrContext, Type, TypeDef};

/// `ProcessMeshAttribute` (`4.a_process_mesh`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProcessMeshAttr {
    /// Mesh shape.
    pub shape: Box<[i64]>,
    /// Process ids.
    pub process_ids: Box<[i64]>,
    /// Names of the mesh dimensions.
    pub dim_names: Box<[Box<str>]>,
}

impl ProcessMeshAttr {
    /// `mesh_shape:[2],process_ids:[0,1]` (typed: `,dim_names:["x"]` too).
    fn print_body(&self, p: &mut Printer<'_>, shape_key: &str, ids_key: &str) {
        p.write_str(shape_key);
        p.write_int_list(&self.shape);
        p.write_str(ids_key);
        p.write_int_list(&self.process_ids);
        if p.is_typed() {
            p.write_str(",dim_names:");
            let names: Vec<&str> = self.dim_names.iter().map(|n| &n[..]).collect();
            p.write_list(&names, |p, n| p.write_quoted(n));
        }
    }

    /// Reads what [`ProcessMeshAttr::print_body`] writes. Paddle's print has
    /// no dimension names: they default to `d0`, `d1`, ...
    fn parse_body(p: &mut Parser<'_>, shape_key: &str, ids_key: &str) -> Result<Self, ParseError> {
        p.cur.expect(shape_key, "to start a process mesh")?;
        let shape = p.parse_int_list()?;
        p.cur.expect(ids_key, "after the mesh shape")?;
        let process_ids = p.parse_int_list()?;
        let dim_names = if p.cur.eat(",dim_names:") {
            p.parse_list("[", "]", "dimension names", |p| {
                p.parse_string().map(|s| s.into())
            })?
        } else {
            (0..shape.len()).map(|i| format!("d{i}").into()).collect()
        };
        Ok(ProcessMeshAttr {
            shape: shape.into(),
            process_ids: process_ids.into(),
            dim_names: dim_names.into(),
        })
    }
}

impl AttrDef for ProcessMeshAttr {
    const NAME: &'static str = "pd_dist.process_mesh";
    const JSON_IDS: &'static [&'static str] = &["4.a_process_mesh"];
    const TAG: &'static str = "pd_dist.ProcessMesh";
    fn print(&self, p: &mut Printer<'_>) {
        self.print_body(p, "mesh_shape:", ",process_ids:");
    }
    fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
        let mesh = Self::parse_body(p, "mesh_shape:", ",process_ids:")?;
        Ok(p.ctx().intern_attr(mesh))
    }
    pir_core::json_fields!(attr: shape, process_ids, dim_names);
}

/// `TensorDistAttribute` (`4.a_tensor_dist`): mesh, dims mapping and partial status.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TensorDistAttr {
    /// The process mesh (a [`ProcessMeshAttr`]).
    pub mesh: Attribute,
    /// For each tensor dim, the mesh dim it is sharded on (−1: replicated).
    pub dims_mapping: Box<[i64]>,
    /// `(mesh_dim, reduce_type)` pairs of partial mesh dims.
    pub partial_status: Box<[(i64, i64)]>,
}

const REDUCE_TYPES: [&str; 7] = ["SUM", "MAX", "MIN", "PRODUCT", "AVG", "ANY", "ALL"];

fn reduce_name(t: i64) -> &'static str {
    usize::try_from(t)
        .ok()
        .and_then(|i| REDUCE_TYPES.get(i))
        .copied()
        .unwrap_or("UNKNOWN")
}

impl TensorDistAttr {
    fn print_body(&self, p: &mut Printer<'_>) {
        let ctx = p.ctx();
        match ctx.attr_as::<ProcessMeshAttr>(self.mesh) {
            Some(mesh) => mesh.print_body(p, "mesh_shape:", ",process_ids:"),
            None => p.print_attr(self.mesh),
        }
        p.write_str(",dims_mappings:");
        p.write_int_list(&self.dims_mapping);
        for &(dim, ty) in self.partial_status.iter() {
            p.write_str(", partial(");
            p.write_i64(dim);
            p.write_str(",");
            p.write_str(reduce_name(ty));
            p.write_str(")");
        }
        p.write_str(", placements:[");
        let mesh_dims = p
            .ctx()
            .attr_as::<ProcessMeshAttr>(self.mesh)
            .map_or(0, |m| m.shape.len());
        for mesh_dim in 0..mesh_dims as i64 {
            if mesh_dim > 0 {
                p.write_str(",");
            }
            if let Some(&(_, ty)) = self.partial_status.iter().find(|(d, _)| *d == mesh_dim) {
                p.write_str("Partial(reduce_type=");
                p.write_str(reduce_name(ty));
                p.write_str(")");
            } else if let Some(dim) = self.dims_mapping.iter().position(|&m| m == mesh_dim) {
                p.write_str("Shard(dim=");
                p.write_i64(dim as i64);
                p.write_str(")");
            } else {
                p.write_str("Replicate()");
            }
        }
        p.write_str("]");
    }
}

impl AttrDef for TensorDistAttr {
    const NAME: &'static str = "pd_dist.tensor_dist";
    const JSON_IDS: &'static [&'static str] = &["4.a_tensor_dist"];
    const TAG: &'static str = "pd_dist.TensorDist";
    // A bare process mesh starts the same way; the parser tells them apart.
    const KEYWORDS: &'static [&'static str] = &["mesh_shape"];
    fn print(&self, p: &mut Printer<'_>) {
        self.print_body(p);
    }
    /// `mesh_shape:[…],process_ids:[…],dims_mappings:[…][, partial(d,SUM)…], placements:[…]`;
    /// the placements are derived from the rest and only checked for form.
    fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
        p.cur.skip_ws();
        let start = p.cur.pos();
        let mesh = ProcessMeshAttr::parse_body(p, "mesh_shape:", ",process_ids:")?;
        let mesh = p.ctx().intern_attr(mesh);
        if !p.cur.eat(",dims_mappings:") {
            return Ok(mesh);
        }
        let dims_mapping = p.parse_int_list()?;
        let mut partial_status = Vec::new();
        loop {
            let before = p.cur.pos();
            if !p.cur.eat(",") {
                break;
            }
            if p.cur.eat("partial(") {
                let dim = p.cur.int("a mesh dimension")?;
                p.cur.expect(",", "after the partial dimension")?;
                p.cur.skip_ws();
                let at = p.cur.pos();
                let name = p.cur.expect_ident("a reduce type")?;
                let ty = REDUCE_TYPES
                    .iter()
                    .position(|&r| r == name)
                    .ok_or_else(|| {
                        p.error_at(at, name.len(), format!("unknown reduce type `{name}`"))
                    })?;
                p.cur.expect(")", "to close `partial(`")?;
                partial_status.push((dim, ty as i64));
            } else if p.cur.looking_at("placements:") {
                p.cur.expect("placements:", "")?;
                let at = p.cur.pos();
                let end = p
                    .cur
                    .balanced_end(at)
                    .filter(|_| p.cur.peek() == Some(b'['))
                    .ok_or_else(|| p.error_at(at, 1, "expected `[…]` of placements"))?;
                p.cur.set_pos(end);
                break;
            } else {
                p.cur.set_pos(before);
                break;
            }
        }
        if let Some(&(dim, _)) = partial_status
            .iter()
            .find(|(d, _)| dims_mapping.contains(d))
        {
            let len = p.cur.pos() - start;
            return Err(p.error_at(
                start,
                len,
                format!("mesh dim {dim} is both sharded and partial"),
            ));
        }
        Ok(p.ctx().intern_attr(TensorDistAttr {
            mesh,
            dims_mapping: dims_mapping.into(),
            partial_status: partial_status.into(),
        }))
    }
    fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        serial::begin_tagged(w, "4.a_tensor_dist");
        w.begin_array();
        serial::encode_attr(ctx, self.mesh, w)?;
        encode_dims(w, &self.dims_mapping);
        w.begin_array();
        for &(dim, ty) in self.partial_status.iter() {
            w.begin_array();
            w.i64(dim);
            w.i64(ty);
            w.end_array();
        }
        w.end_array();
        w.end_array();
        w.end_object();
        Ok(())
    }
    fn decode(input: DecodeInput<'_>) -> Result<Attribute, DecodeError> {
        let ctx = input.ctx;
        let (data, dpath) = input.data()?;
        let [mesh, mapping, partial] = serial::array_n::<3>(data, &dpath)?;
        let mesh_path = dpath.index(0);
        let mesh = serial::decode_attr(ctx, mesh, &mesh_path)?;
        if ctx.attr_as::<ProcessMeshAttr>(mesh).is_none() {
            return Err(DecodeError::at(
                &mesh_path,
                "expected a process mesh attribute",
            ));
        }
        let ppath = dpath.index(2);
        let mut partial_status = Vec::new();
        for (i, entry) in serial::array(partial, &ppath)?.enumerate() {
            let epath = ppath.index(i);
            let [dim, ty] = serial::array_n::<2>(entry, &epath)?;
            partial_status.push((
                serial::int(dim, &epath.index(0))?,
                serial::int(ty, &epath.index(1))?,
            ));
        }
        let dims_mapping = decode_dims(mapping, &dpath.index(1))?;
        if let Some(&(dim, _)) = partial_status
            .iter()
            .find(|(d, _)| dims_mapping.contains(d))
        {
            return Err(DecodeError::at(
                &dpath,
                format!("mesh dim {dim} is both sharded and partial"),
            ));
        }
        Ok(ctx.intern_attr(TensorDistAttr {
            mesh,
            dims_mapping,
            partial_status: partial_status.into(),
        }))
    }
}

/// `OperationDistAttribute` (`4.a_op_dist`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OpDistAttr {
    /// The process mesh.
    pub mesh: Attribute,
    /// Per-operand dist attributes.
    pub operands: Box<[Attribute]>,
    /// Per-result dist attributes.
    pub results: Box<[Attribute]>,
    /// Pipeline chunk id.
    pub chunk_id: i64,
}

impl AttrDef for OpDistAttr {
    const NAME: &'static str = "pd_dist.op_dist";
    const JSON_IDS: &'static [&'static str] = &["4.a_op_dist"];
    const TAG: &'static str = "pd_dist.OpDist";
    const KEYWORDS: &'static [&'static str] = &["{"];
    fn print(&self, p: &mut Printer<'_>) {
        p.write_str("{mesh:{");
        let ctx = p.ctx();
        let empty = ProcessMeshAttr {
            shape: Box::new([]),
            process_ids: Box::new([]),
            dim_names: Box::new([]),
        };
        let mesh = ctx.attr_as::<ProcessMeshAttr>(self.mesh).unwrap_or(&empty);
        mesh.print_body(p, "shape:", ",process_ids:");
        p.write_str("}");
        for (label, list) in [("operand", &self.operands), ("result", &self.results)] {
            for (i, &a) in list.iter().enumerate() {
                p.write_str(",");
                p.write_str(label);
                p.write_str("(");
                p.write_i64(i as i64);
                p.write_str("):{");
                p.print_attr(a);
                p.write_str("}");
            }
        }
        p.write_str(",chunk_id:");
        p.write_i64(self.chunk_id);
        p.write_str("}");
    }
    /// `{mesh:{shape:[…],process_ids:[…]},operand(0):{…},result(0):{…},chunk_id:N}`.
    fn parse(p: &mut Parser<'_>, _: Expect) -> Result<Attribute, ParseError> {
        p.cur
            .expect("{mesh:{", "to start an operation dist attribute")?;
        let mesh = ProcessMeshAttr::parse_body(p, "shape:", ",process_ids:")?;
        p.cur.expect("}", "to close the mesh")?;
        let mut lists = [Vec::new(), Vec::new()];
        loop {
            p.cur.expect(",", "")?;
            let which = if p.cur.eat("operand(") {
                0
            } else if p.cur.eat("result(") {
                1
            } else {
                break;
            };
            p.cur.skip_ws();
            let at = p.cur.pos();
            let index = p.cur.int("an index")?;
            if index != lists[which].len() as i64 {
                return Err(p.error_at(at, 1, format!("expected index {}", lists[which].len())));
            }
            p.cur.expect("):{", "")?;
            lists[which].push(p.parse_attr(Expect::Any)?);
            p.cur.expect("}", "to close the dist attribute")?;
        }
        p.cur.expect("chunk_id:", "")?;
        let chunk_id = p.cur.int("a chunk id")?;
        p.cur.expect("}", "to close the operation dist attribute")?;
        let [operands, results] = lists;
        let ctx = p.ctx();
        Ok(ctx.intern_attr(OpDistAttr {
            mesh: ctx.intern_attr(mesh),
            operands: operands.into(),
            results: results.into(),
            chunk_id,
        }))
    }
    pir_core::json_fields!(attr: mesh, operands, results, chunk_id);
}

/// `DistDenseTensorType` (`4.t_dist_dtensor`): a dense tensor type, its
/// distribution and the local dims.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DistDenseTensorType {
    /// The global dense tensor type.
    pub dense: Type,
    /// The [`TensorDistAttr`].
    pub dist: Attribute,
    /// Dims of the local shard.
    pub local_dims: Box<[i64]>,
}

impl TypeDef for DistDenseTensorType {
    const NAME: &'static str = "pd_dist.tensor";
    const JSON_IDS: &'static [&'static str] = &["4.t_dist_dtensor"];
    const KEYWORDS: &'static [&'static str] = &["pd_dist.tensor"];
    fn print(&self, p: &mut Printer<'_>) {
        p.write_str("pd_dist.tensor<");
        let ctx = p.ctx();
        match ctx.type_as::<DenseTensorType>(self.dense) {
            Some(d) => {
                print_shape_and_dtype(p, &d.dims, d.dtype);
                TensorExtras::print(p, d.layout, &d.lod, d.offset);
            }
            None => p.print_type(self.dense),
        }
        p.write_str(", ");
        p.print_attr(self.dist);
        if p.is_typed() {
            p.write_str(", local_dims:");
            p.write_int_list(&self.local_dims);
        }
        p.write_str(">");
    }
    /// Paddle's print has no local dims: they are the global dims divided
    /// (rounding up) by the mesh dimension each tensor dim is sharded on.
    fn parse(p: &mut Parser<'_>, _: &str, _: usize) -> Result<Type, ParseError> {
        p.cur.expect("<", "to open the dist tensor type")?;
        let (dims, dtype) = p.parse_dims_and_dtype()?;
        let extras = TensorExtras::parse(p)?;
        p.cur.expect(",", "before the tensor dist attribute")?;
        p.cur.skip_ws();
        let at = p.cur.pos();
        let dist = p.parse_attr(Expect::Kind(TensorDistAttr::TAG))?;
        let ctx = p.ctx_arc();
        let Some(tensor_dist) = ctx.attr_as::<TensorDistAttr>(dist) else {
            return Err(p.error_at(at, 1, "expected a tensor dist attribute"));
        };
        let local_dims = if p.cur.eat(",") {
            p.cur.expect("local_dims:", "")?;
            p.parse_int_list()?
        } else {
            let mesh_shape = ctx
                .attr_as::<ProcessMeshAttr>(tensor_dist.mesh)
                .map_or(&[][..], |m| &m.shape[..]);
            local_dims(&dims, &tensor_dist.dims_mapping, mesh_shape)
        };
        p.cur.expect(">", "to close the dist tensor type")?;
        let dense = ctx.intern_type(DenseTensorType {
            dtype,
            dims: dims.into(),
            layout: extras.layout,
            lod: extras.lod,
            offset: extras.offset,
        });
        Ok(ctx.intern_type(DistDenseTensorType {
            dense,
            dist,
            local_dims: local_dims.into(),
        }))
    }
    pir_core::json_fields!(type: dense, dist, local_dims);
}

/// The dims of one shard: each sharded dim divided, rounding up, by its mesh dimension.
fn local_dims(dims: &[i64], mapping: &[i64], mesh_shape: &[i64]) -> Vec<i64> {
    dims.iter()
        .enumerate()
        .map(|(i, &d)| {
            let parts = mapping
                .get(i)
                .and_then(|&m| usize::try_from(m).ok())
                .and_then(|m| mesh_shape.get(m).copied())
                .filter(|&n| n > 0);
            match parts {
                Some(n) if d > 0 => (d + n - 1) / n,
                _ => d,
            }
        })
        .collect()
}

/// The `pd_dist` dialect (its attributes and types; dist ops load as unregistered).
pub struct DistDialect;

impl Dialect for DistDialect {
    fn name(&self) -> &'static str {
        "pd_dist"
    }

    fn register(&self, ctx: &IrContext) {
        ctx.register_attr::<ProcessMeshAttr>();
        ctx.register_attr::<TensorDistAttr>();
        ctx.register_attr::<OpDistAttr>();
        ctx.register_type::<DistDenseTensorType>();
        ctx.register_attr_name_hint("op_dist_attr", Expect::Kind(OpDistAttr::TAG));
    }
}
