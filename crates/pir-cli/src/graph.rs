//! `pir graph MODEL [-o OUT.dot|.svg|.html]`: the dataflow graph of a model.
//!
//! Each op is a node (its name and, folded into it, the parameters it reads:
//! parameter ops are not nodes), each use of a value an edge labelled with
//! the value's shape (`-1x4xf32`). The ops of a nested region's block form a
//! cluster labelled with the op that owns it. DOT (for Graphviz) is written
//! as text; SVG and HTML (the SVG in a self-contained page) are laid out by
//! `layout-rs`, a hierarchical (Sugiyama) layout in pure Rust.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use layout::backends::svg::SVGWriter;
use layout::core::base::Orientation;
use layout::core::color::Color;
use layout::core::format::RenderBackend;
use layout::core::geometry::Point;
use layout::core::style::StyleAttr;
use layout::std_shapes::shapes::{Arrow, Element, ShapeKind};
use layout::topo::layout::VisualGraph;
use pir_core::builtin::{DenseTensorType, StrAttr};
use pir_core::{BlockId, OpId, Program, Type, ValueDef, ValueId};

use crate::cli::GraphArgs;
use crate::CliError;

/// Edge labels are left out of the SVG above this many edges: each label
/// is a node of its own for the layout, and the picture reads better without.
const MAX_LABELLED_EDGES: usize = 2_000;

/// Above this many layout nodes ([`Graph::layout_size`]) the layout skips
/// its crossing-reduction passes, which grow faster than the graph (a
/// 5,000-op model is then laid out in seconds; its ranks and edges stay
/// readable).
const MAX_OPTIMIZED_NODES: usize = 1_500;

/// Above this many layout nodes the SVG is refused, with a pointer to DOT
/// output, which needs no layout (a 5,000-op model is about 10,000).
const MAX_LAYOUT_NODES: usize = 50_000;

/// Above this sum of squared rank widths ([`Graph::layout_size`]) the SVG is
/// refused too: the placement's time grows as about this measure to the
/// power 1.8 (DenseNet-like blocks with edge labels: 16 ops, 84,000, a
/// third of a second; 24 ops, 600,000, 10 s; 30 ops, 1.8 million, a
/// minute; without labels, 30 ops, 820,000: 40 s). Past it, edge labels
/// are dropped first (halving the measure).
const MAX_LAYOUT_WORK: u64 = 700_000;

/// What the layout of a graph costs ([`Graph::layout_size`]).
#[derive(Clone, Copy, Debug)]
struct LayoutSize {
    /// Nodes, dummy nodes of long edges and edge labels included.
    nodes: usize,
    /// The sum over ranks of the square of their widths.
    work: u64,
}

impl LayoutSize {
    fn too_large(self) -> bool {
        self.nodes > MAX_LAYOUT_NODES || self.work > MAX_LAYOUT_WORK
    }
}

/// The graph of a program: nodes, edges and clusters.
pub(crate) struct Graph {
    /// Node labels, by node index.
    pub nodes: Vec<String>,
    /// `(from, to, label)`.
    pub edges: Vec<(usize, usize, String)>,
    /// Nested blocks: label and the nodes in it (nested clusters listed
    /// after their parent, with a parent index).
    pub clusters: Vec<Cluster>,
}

/// The nodes of one nested block.
pub(crate) struct Cluster {
    /// The owning op and region, e.g. `pd_op.while body`.
    pub label: String,
    /// The enclosing cluster, if any.
    pub parent: Option<usize>,
    /// The node of the op that owns the block.
    pub owner: usize,
    /// Nodes directly in this block.
    pub nodes: Vec<usize>,
}

/// The shape text of a type: `-1x4xf32` for a dense tensor, else its print.
fn shape(program: &Program, ty: Type) -> String {
    let ctx = program.ctx();
    match ctx.type_as::<DenseTensorType>(ty) {
        Some(t) => {
            let mut s = String::new();
            for d in t.dims.iter() {
                let _ = write!(s, "{d}x");
            }
            s.push_str(&ctx.display_type(t.dtype));
            s
        }
        None => ctx.display_type(ty),
    }
}

impl Graph {
    /// The graph of `program`'s top block and everything nested in it.
    pub(crate) fn of(program: &Program) -> Graph {
        let mut g = Graph {
            nodes: Vec::new(),
            edges: Vec::new(),
            clusters: Vec::new(),
        };
        let mut node_of: HashMap<OpId, usize> = HashMap::new();
        let mut arg_node: HashMap<BlockId, usize> = HashMap::new();
        g.add_block(
            program,
            program.top_block(),
            None,
            &mut node_of,
            &mut arg_node,
        );
        // Edges: every use of a value made by a node (or a block's arguments).
        let mut seen = std::collections::HashSet::new();
        program.walk(program.module_op(), pir_core::walk::Order::Pre, &mut |op| {
            let Some(&to) = node_of.get(&op) else {
                return;
            };
            for v in program.operands(op).flatten() {
                let from = match program.value_def(v) {
                    ValueDef::Result { op: def, .. } => node_of.get(&def).copied(),
                    ValueDef::BlockArg { block, .. } => arg_node.get(&block).copied(),
                    _ => None,
                };
                if let Some(from) = from {
                    if seen.insert((from, to, v)) {
                        g.edges
                            .push((from, to, shape(program, program.value_type(v))));
                    }
                }
            }
        });
        // Names come from the model: control characters, which XML 1.0
        // forbids even escaped and DOT readers choke on, are made visible.
        for label in g
            .nodes
            .iter_mut()
            .chain(g.edges.iter_mut().map(|e| &mut e.2))
        {
            visible_in_place(label);
        }
        for c in &mut g.clusters {
            visible_in_place(&mut c.label);
        }
        g
    }

    /// The size of the hierarchical layout: how many nodes it works on and
    /// the sum over its ranks of the square of their widths.
    ///
    /// The layout splits an edge spanning several ranks into a chain through
    /// one dummy node per rank it crosses (and an edge label is a node of
    /// its own, on a rank between its ends), ranks being longest paths. Its
    /// placement then works rank by rank, in time that grows with the
    /// square of a rank's width: a 5,000-op chain (narrow ranks) takes
    /// seconds, while a DenseNet-like block of n ops, every op feeding
    /// every later one, is n nodes but about n³/3 layout nodes (with edge
    /// labels) on ranks up to about n²/4 wide.
    fn layout_size(&self, labelled: bool) -> LayoutSize {
        // Every edge runs from a lower node index to a higher one (a value
        // is defined before its uses, a block's owner and arguments before
        // its ops), so index order is a topological order; an edge the
        // other way would be reversed by the layout, and is here too.
        let weight = if labelled { 2 } else { 1 };
        let mut edges: Vec<(usize, usize, usize)> = self
            .edges
            .iter()
            .map(|&(a, b, _)| (a.min(b), a.max(b), weight))
            .collect();
        for c in &self.clusters {
            edges.extend(c.nodes.iter().map(|&n| (c.owner.min(n), c.owner.max(n), 1)));
        }
        let n = self.nodes.len();
        let mut by_target: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        for &(from, to, w) in &edges {
            if let Some(v) = by_target.get_mut(to) {
                v.push((from, w));
            }
        }
        // in index order, every edge into a node is seen before the edges
        // out of it, so a node's rank is final when it is used
        let mut rank = vec![0usize; n];
        let mut nodes = n;
        for to in 0..n {
            for &(from, w) in by_target.get(to).map(Vec::as_slice).unwrap_or(&[]) {
                if from == to {
                    nodes = nodes.saturating_add(1); // a self edge's connector
                    continue;
                }
                let r = rank.get(from).copied().unwrap_or(0).saturating_add(w);
                if let Some(slot) = rank.get_mut(to) {
                    *slot = (*slot).max(r);
                }
            }
        }
        let ranks = rank.iter().copied().max().unwrap_or(0) + 1;
        // widths by a difference array: a node adds one at its rank, an
        // edge one at each rank strictly between its ends
        let mut delta = vec![0i64; ranks + 1];
        for &r in &rank {
            delta[r] += 1;
            delta[r + 1] -= 1;
        }
        for &(from, to, _) in &edges {
            let (rf, rt) = (rank[from], rank[to]);
            if rt > rf + 1 {
                nodes = nodes.saturating_add(rt - rf - 1);
                delta[rf + 1] += 1;
                delta[rt] -= 1;
            }
        }
        let mut work = 0u64;
        let mut width = 0i64;
        for d in delta.iter().take(ranks) {
            width += d;
            let w = width.max(0) as u64;
            work = work.saturating_add(w.saturating_mul(w));
        }
        LayoutSize { nodes, work }
    }

    fn add_block(
        &mut self,
        program: &Program,
        block: BlockId,
        cluster: Option<usize>,
        node_of: &mut HashMap<OpId, usize>,
        arg_node: &mut HashMap<BlockId, usize>,
    ) {
        let ctx = program.ctx();
        let args = program.block_args(block);
        if !args.is_empty() {
            let types: Vec<String> = args
                .iter()
                .map(|&a| shape(program, program.value_type(a)))
                .collect();
            let n = self.push_node(format!("block arguments\n{}", types.join(", ")), cluster);
            arg_node.insert(block, n);
        }
        for op in program.block_ops(block) {
            let name = program.op_name_str(op);
            if name == "builtin.parameter" {
                continue;
            }
            let mut label = name.to_owned();
            // Parameters the op reads are folded into its node.
            for v in program.operands(op).flatten() {
                if let Some(param) = parameter_name(program, v) {
                    let _ = write!(
                        label,
                        "\n{param}: {}",
                        shape(program, program.value_type(v))
                    );
                }
            }
            let n = self.push_node(label, cluster);
            node_of.insert(op, n);
            for (r, region) in program.regions(op).enumerate() {
                for (b, &inner) in program.region_blocks(region).iter().enumerate() {
                    let label = match (program.num_regions(op), name) {
                        (_, "pd_op.while") => format!("{name} body"),
                        (2, "pd_op.if") => {
                            format!("{name} {}", if r == 0 { "true" } else { "false" })
                        }
                        _ => format!("{name} region {r} block {b}"),
                    };
                    self.clusters.push(Cluster {
                        label,
                        parent: cluster,
                        owner: n,
                        nodes: Vec::new(),
                    });
                    let c = self.clusters.len() - 1;
                    self.add_block(program, inner, Some(c), node_of, arg_node);
                }
            }
        }
        let _ = ctx;
    }

    fn push_node(&mut self, label: String, cluster: Option<usize>) -> usize {
        self.nodes.push(label);
        let n = self.nodes.len() - 1;
        if let Some(c) = cluster {
            self.clusters[c].nodes.push(n);
        }
        n
    }

    /// The graph in Graphviz's DOT language, regions as nested clusters.
    pub(crate) fn to_dot(&self) -> String {
        let mut out = String::from(
            "digraph program {\n  node [shape=box, style=rounded, fontname=\"monospace\"];\n  edge [fontname=\"monospace\", fontsize=9];\n",
        );
        let mut top: Vec<usize> = (0..self.nodes.len()).collect();
        let in_cluster: std::collections::HashSet<usize> = self
            .clusters
            .iter()
            .flat_map(|c| c.nodes.iter().copied())
            .collect();
        top.retain(|n| !in_cluster.contains(n));
        for n in top {
            let _ = writeln!(out, "  n{n} [label={}];", dot_string(&self.nodes[n]));
        }
        for (c, cluster) in self.clusters.iter().enumerate() {
            if cluster.parent.is_none() {
                self.write_cluster(&mut out, c, 1);
            }
        }
        for (from, to, label) in &self.edges {
            let _ = writeln!(out, "  n{from} -> n{to} [label={}];", dot_string(label));
        }
        out.push_str("}\n");
        out
    }

    fn write_cluster(&self, out: &mut String, c: usize, depth: usize) {
        let pad = "  ".repeat(depth);
        let cluster = &self.clusters[c];
        let _ = writeln!(
            out,
            "{pad}subgraph cluster_{c} {{\n{pad}  label={};\n{pad}  style=dashed;",
            dot_string(&cluster.label)
        );
        for &n in &cluster.nodes {
            let _ = writeln!(out, "{pad}  n{n} [label={}];", dot_string(&self.nodes[n]));
        }
        for (inner, child) in self.clusters.iter().enumerate() {
            if child.parent == Some(c) {
                self.write_cluster(out, inner, depth + 1);
            }
        }
        let _ = writeln!(out, "{pad}}}");
    }

    /// The graph laid out as a self-contained SVG picture, or an error when
    /// the layout would be too large ([`MAX_LAYOUT_NODES`]): edge labels
    /// are dropped first (each doubles the ranks an edge spans), and past
    /// that the error points to DOT output.
    pub(crate) fn to_svg(&self) -> Result<String, CliError> {
        let mut labelled = self.edges.len() <= MAX_LABELLED_EDGES;
        let mut size = self.layout_size(labelled);
        if labelled && size.too_large() {
            labelled = false;
            size = self.layout_size(false);
        }
        if size.too_large() {
            // The model, not the command line, is at fault: exit 1.
            return Err(CliError::File(format!(
                "the graph of {} ops and {} edges is too large to lay out: its layout has \
                 {} nodes (edges spanning many ranks need one per rank) on ranks whose \
                 squared widths sum to {}, more than {MAX_LAYOUT_NODES} or \
                 {MAX_LAYOUT_WORK}; write DOT instead (`-o FILE.dot`, no layout needed) \
                 and render it with Graphviz",
                self.nodes.len(),
                self.edges.len(),
                size.nodes,
                size.work
            )));
        }
        let mut vg = VisualGraph::new(Orientation::TopToBottom);
        // layout-rs re-checks the whole graph for cycles after every edge it
        // adds (17 s of a 5,000-op model's 17.1 s). The check only asserts:
        // the edges that would close a cycle are reversed before it runs.
        vg.dag.set_validate(false);
        let look = StyleAttr::new(Color::fast("black"), 1, Some(Color::fast("white")), 0, 14);
        let handles: Vec<_> = self
            .nodes
            .iter()
            .map(|label| {
                let shape = ShapeKind::new_box(label);
                let size = text_size(label);
                vg.add_node(Element::create(
                    shape,
                    look.clone(),
                    Orientation::TopToBottom,
                    size,
                ))
            })
            .collect();
        // A nested block's ops hang below the op that owns it (invisible
        // edges: layout-rs has no clusters of its own). They come first:
        // the layout checks each new edge for a cycle by a search from its
        // head that does not remember visited nodes (exponential in a dense
        // DAG); added before the data edges they form a forest, and each
        // data edge then starts from an op whose only successors are its
        // own nested ops.
        for cluster in &self.clusters {
            for &n in &cluster.nodes {
                vg.add_edge(Arrow::invisible(), handles[cluster.owner], handles[n]);
            }
        }
        for (from, to, label) in &self.edges {
            let arrow = if labelled {
                Arrow::simple(label)
            } else {
                Arrow::simple("")
            };
            vg.add_edge(arrow, handles[*from], handles[*to]);
        }
        let mut svg = SVGWriter::new();
        vg.do_it(false, size.nodes > MAX_OPTIMIZED_NODES, false, &mut svg);
        // Clusters: a dashed frame around each nested block's nodes (the
        // layout keeps a block's ops together: they are connected).
        let frame = StyleAttr::new(Color::fast("gray"), 1, None, 6, 12);
        for (depth_first, cluster) in self.clusters.iter().enumerate().rev() {
            let mut nodes = cluster.nodes.clone();
            // A cluster frames its nested clusters' nodes too.
            for (c, inner) in self.clusters.iter().enumerate().skip(depth_first + 1) {
                if self.is_within(c, depth_first) {
                    nodes.extend(&inner.nodes);
                }
            }
            let boxes = nodes.iter().map(|&n| vg.pos(handles[n]).bbox(false));
            let Some((lo, hi)) = boxes.fold(None, |acc: Option<(Point, Point)>, (a, b)| {
                Some(match acc {
                    None => (a, b),
                    Some((lo, hi)) => (
                        Point::new(lo.x.min(a.x), lo.y.min(a.y)),
                        Point::new(hi.x.max(b.x), hi.y.max(b.y)),
                    ),
                })
            }) else {
                continue;
            };
            let margin = 12.0;
            let xy = Point::new(lo.x - margin, lo.y - margin - 14.0);
            let size = Point::new(
                hi.x - lo.x + 2.0 * margin,
                hi.y - lo.y + 2.0 * margin + 14.0,
            );
            svg.draw_rect(
                xy,
                size,
                &frame,
                Some("stroke-dasharray=\"6,4\"".into()),
                None,
            );
            svg.draw_text(
                Point::new(xy.x + size.x / 2.0, xy.y + 10.0),
                &cluster.label,
                &frame,
            );
        }
        // The layout library spells "no colour" as `#00000000` (CSS colour
        // 4's eight digits), which SVG 1.1 renderers such as cairosvg and
        // librsvg do not know and paint black: region boxes came out as
        // black blocks. `none` means the same to every renderer.
        Ok(svg.finalize().replace("\"#00000000\"", "\"none\""))
    }

    /// Whether cluster `c` lies inside cluster `outer`.
    fn is_within(&self, mut c: usize, outer: usize) -> bool {
        while let Some(p) = self.clusters[c].parent {
            if p == outer {
                return true;
            }
            c = p;
        }
        false
    }
}

/// The size of a node's box for a label of several lines.
fn text_size(label: &str) -> Point {
    let lines = label.lines().count().max(1) as f64;
    let width = label.lines().map(|l| l.chars().count()).max().unwrap_or(1) as f64;
    Point::new(width * 8.5 + 16.0, lines * 17.0 + 10.0)
}

/// The name of the parameter `v` is, if it is one.
fn parameter_name(program: &Program, v: ValueId) -> Option<String> {
    let ValueDef::Result { op, .. } = program.value_def(v) else {
        return None;
    };
    if program.op_name_str(op) != "builtin.parameter" {
        return None;
    }
    let attr = program.attr(op, "parameter_name")?;
    program
        .ctx()
        .attr_as::<StrAttr>(attr)
        .map(|s| s.0.to_string())
}

/// Replaces in `s` the characters XML 1.0 does not allow, even escaped,
/// and the other control characters, by their visible form
/// ([`pir_core::visible::visible`]).
fn visible_in_place(s: &mut String) {
    if let std::borrow::Cow::Owned(shown) = pir_core::visible::visible(s, true) {
        *s = shown;
    }
}

/// A DOT string literal (a newline spelled `\\n`, as labels read it).
fn dot_string(s: &str) -> String {
    pir_core::visible::quoted(s, &[('\n', "\\n")])
}

/// The SVG in a page of its own: no script, no outside resource.
fn to_html(title: &str, svg: &str) -> String {
    let mut title = title.to_owned();
    visible_in_place(&mut title);
    let mut escaped = String::new();
    for c in title.chars() {
        match c {
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '&' => escaped.push_str("&amp;"),
            c => escaped.push(c),
        }
    }
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{escaped}</title>\n\
         <style>body{{margin:0;font-family:sans-serif}}h1{{font-size:14px;margin:8px}}\
         .graph{{overflow:auto;width:100vw;height:calc(100vh - 40px)}}</style></head>\n\
         <body><h1>{escaped}</h1><div class=\"graph\">{svg}</div></body></html>\n"
    )
}

/// Runs `pir graph`.
pub fn run(args: &GraphArgs) -> Result<(), CliError> {
    let format = match &args.output {
        None => String::from("dot"),
        Some(out) => {
            crate::input::check_extension(out, &["dot", "gv", "svg", "html"], "a graph")?;
            pir_core::fs::extension(out).unwrap_or_else(|| "dot".into())
        }
    };
    let loaded = crate::input::load(&args.model)?;
    let graph = Graph::of(&loaded.program);
    let text = {
        let _progress = crate::progress::spinner("laying out the graph");
        match format.as_str() {
            "svg" => graph.to_svg()?,
            "html" => to_html(&args.model.display().to_string(), &graph.to_svg()?),
            _ => graph.to_dot(),
        }
    };
    match &args.output {
        None => std::io::stdout().write_all(text.as_bytes())?,
        Some(out) => write_file(out, text.as_bytes(), args.force)?,
    }
    Ok(())
}

fn write_file(path: &Path, bytes: &[u8], force: bool) -> Result<(), CliError> {
    Ok(pir_core::fs::write_atomic(path, force, |w| {
        w.write_all(bytes)
    })?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` nodes, every one feeding every later one.
    fn dense(n: usize) -> Graph {
        let mut edges = Vec::new();
        for to in 0..n {
            for from in 0..to {
                edges.push((from, to, String::new()));
            }
        }
        Graph {
            nodes: vec![String::new(); n],
            edges,
            clusters: Vec::new(),
        }
    }

    #[test]
    fn layout_size_of_dense_dags() {
        for n in [17, 21, 25, 31] {
            let (l, u) = (dense(n).layout_size(true), dense(n).layout_size(false));
            eprintln!("{n}: labelled {l:?}, unlabelled {u:?}");
        }
        // 25 nodes: 300 edges spanning 2 to 48 ranks with their labels
        let s = dense(25).layout_size(true);
        assert_eq!(
            s.nodes,
            25 + (1..25).map(|d| (2 * d - 1) * (25 - d)).sum::<usize>()
        );
        // a chain: no dummies, ranks one wide
        let chain = Graph {
            nodes: vec![String::new(); 4],
            edges: (1..4).map(|i| (i - 1, i, String::new())).collect(),
            clusters: Vec::new(),
        };
        let s = chain.layout_size(false);
        assert_eq!((s.nodes, s.work), (4, 4));
        let s = chain.layout_size(true);
        assert_eq!((s.nodes, s.work), (7, 7));
    }
}
