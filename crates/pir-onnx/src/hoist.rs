//! Work that is the same at every step of a `Loop`, done once.
//!
//! A mapper writes what a Paddle op needs where the op is: a `matmul` with
//! `transpose_y` on a weight becomes `Transpose` + `MatMul`, so inside a
//! decoding loop the same weight would be transposed at every step. Two
//! rewrites keep such work out of the steps:
//!
//! - [`loop_invariants`]: after a body is built, every node that reads only
//!   values from outside the body (directly or through nodes moved already)
//!   is moved in front of the `Loop`, where it runs once. Nodes that read
//!   only small constants stay: those constants are placed in the body
//!   (below), where the runtime folds such nodes when it loads the model.
//! - [`place_constants`]: a small constant read only inside one subgraph
//!   becomes an initializer of that subgraph. onnxruntime hands a body each
//!   value it reads from outside at every step (a cost per value, however
//!   small the work), while a body's own initializers are constants it
//!   folds and reads for free.
//!
//! Only operators whose failure can depend on nothing but the shapes of
//! their inputs are moved out of a body: a node that may fail on its
//! input's *values* (a gather out of range, an integer division by zero, a
//! reshape to a computed shape) must not run when the loop runs zero
//! times. Random draws are never moved (each step draws anew), nor nodes
//! with subgraphs.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::encode::Initializer;
use crate::export::Exporter;
use crate::proto::{GraphProto, NodeProto, TensorProto, ValueInfoProto};

/// The largest constant [`place_constants`] puts in a subgraph. Larger
/// ones stay in the main graph, where the writer may put their elements in
/// the side file (a subgraph's initializers are written inline), and where
/// the work that reads them outweighs the cost of handing them in.
pub(crate) const SMALL_CONSTANT_BYTES: usize = 64 * 1024;

/// Operators (default domain) that are safe to run once before the loop:
/// deterministic, without subgraphs, and failing only where the shapes of
/// their inputs (fixed, as the inputs are) are wrong.
const MOVABLE: &[&str] = &[
    "Abs",
    "Add",
    "And",
    "Cast",
    "CastLike",
    "Concat",
    "Cos",
    "Equal",
    "Erf",
    "Exp",
    "Gemm",
    "Greater",
    "GreaterOrEqual",
    "Identity",
    "Less",
    "LessOrEqual",
    "MatMul",
    "Max",
    "Min",
    "Mul",
    "Neg",
    "Not",
    "Or",
    "Relu",
    "Shape",
    "Sigmoid",
    "Sin",
    "Size",
    "Sqrt",
    "Sub",
    "Tanh",
    "Transpose",
    "Unsqueeze",
    "Where",
    "Xor",
];

impl Exporter<'_> {
    /// Moves the loop-invariant nodes of `body` (a `Loop` body built by
    /// [`Exporter::subgraph`]) into the current graph, where they run once
    /// before the `Loop` node added next.
    pub fn hoist_loop_invariants(&mut self, body: &mut GraphProto) {
        let mut info = Vec::new();
        let small: FxHashSet<&str> = self
            .initializers
            .iter()
            .filter(|i| i.data.len() <= SMALL_CONSTANT_BYTES)
            .map(|i| i.header.name.as_str())
            .collect();
        let moved = loop_invariants(body, &mut info, &|n| small.contains(n));
        drop(small);
        let g = self.graph();
        for mut node in moved {
            // Named like every node of this graph, so names stay unique.
            node.name = format!("{}_{}", node.op_type, g.node.len());
            g.node.push(node);
        }
        g.value_info.extend(info);
    }
}

/// Moves the loop-invariant nodes out of `body` (a `Loop` body just built)
/// and returns them in order, to be placed before the `Loop` node; their
/// `value_info` entries move with them (appended to `outer_info`). A node
/// whose inputs are all `small_constant` stays (see the module docs).
pub(crate) fn loop_invariants(
    body: &mut GraphProto,
    outer_info: &mut Vec<ValueInfoProto>,
    small_constant: &dyn Fn(&str) -> bool,
) -> Vec<NodeProto> {
    // Values the body defines: its inputs, its initializers and the outputs
    // of the nodes that stay.
    let mut local: FxHashSet<String> = body.input.iter().map(|i| i.name.clone()).collect();
    local.extend(body.initializer.iter().map(|t| t.name.clone()));
    // A body output must be computed by the body.
    let outputs: FxHashSet<&str> = body.output.iter().map(|o| o.name.as_str()).collect();
    let mut moved_names: FxHashSet<String> = FxHashSet::default();
    let mut keep = Vec::with_capacity(body.node.len());
    let mut moved = Vec::new();
    for node in std::mem::take(&mut body.node) {
        let invariant = node.domain.is_empty()
            && MOVABLE.contains(&node.op_type.as_str())
            && node.attribute.iter().all(|a| a.g.is_none())
            && node.input.iter().all(|i| !local.contains(i))
            && node.output.iter().all(|o| !outputs.contains(o.as_str()))
            && !node
                .input
                .iter()
                .filter(|i| !i.is_empty())
                .all(|i| small_constant(i));
        if invariant {
            moved_names.extend(node.output.iter().cloned());
            moved.push(node);
        } else {
            local.extend(node.output.iter().cloned());
            keep.push(node);
        }
    }
    body.node = keep;
    if !moved_names.is_empty() {
        let (out, stay): (Vec<_>, Vec<_>) = std::mem::take(&mut body.value_info)
            .into_iter()
            .partition(|v| moved_names.contains(&v.name));
        body.value_info = stay;
        outer_info.extend(out);
    }
    moved
}

/// Where, below `g`, each of `names` is read: `Some((node, attribute))`
/// when every read is inside that one subgraph of `g` (or deeper), `None`
/// when `g` reads it itself (a node input or a graph output), or more than
/// one subgraph reads it, or nothing does.
fn home_below(g: &GraphProto, names: &[&str]) -> Vec<Option<(usize, usize)>> {
    let mut direct: FxHashSet<&str> = g.output.iter().map(|o| o.name.as_str()).collect();
    let mut within: Vec<((usize, usize), FxHashSet<&str>)> = Vec::new();
    for (i, node) in g.node.iter().enumerate() {
        direct.extend(node.input.iter().map(String::as_str));
        for (j, a) in node.attribute.iter().enumerate() {
            if let Some(sub) = &a.g {
                let mut reads = FxHashSet::default();
                all_reads(sub, &mut reads);
                within.push(((i, j), reads));
            }
        }
    }
    names
        .iter()
        .map(|name| {
            if direct.contains(name) {
                return None;
            }
            let mut readers = within.iter().filter(|(_, r)| r.contains(name));
            match (readers.next(), readers.next()) {
                (Some((at, _)), None) => Some(*at),
                _ => None,
            }
        })
        .collect()
}

/// Every value name `g` and its subgraphs read.
fn all_reads<'g>(g: &'g GraphProto, into: &mut FxHashSet<&'g str>) {
    into.extend(g.output.iter().map(|o| o.name.as_str()));
    for node in &g.node {
        into.extend(node.input.iter().map(String::as_str));
        for a in &node.attribute {
            if let Some(sub) = &a.g {
                all_reads(sub, into);
            }
        }
    }
}

/// Moves each small constant of `initializers` (the main graph's) that
/// only one subgraph reads into the deepest subgraph holding all its reads,
/// as an initializer of that graph.
pub(crate) fn place_constants(main: &mut GraphProto, initializers: &mut Vec<Initializer<'_>>) {
    let has_subgraph = main
        .node
        .iter()
        .any(|n| n.attribute.iter().any(|a| a.g.is_some()));
    if !has_subgraph {
        return;
    }
    let small: Vec<usize> = (0..initializers.len())
        .filter(|&k| initializers[k].data.len() <= SMALL_CONSTANT_BYTES)
        .collect();
    let names: Vec<&str> = small
        .iter()
        .map(|&k| initializers[k].header.name.as_str())
        .collect();
    let homes = home_below(main, &names);
    let mut homes_by_index: FxHashMap<usize, (usize, usize)> = small
        .iter()
        .zip(homes)
        .filter_map(|(&k, h)| h.map(|h| (k, h)))
        .collect();
    if homes_by_index.is_empty() {
        return;
    }
    let mut down: FxHashMap<(usize, usize), Vec<TensorProto>> = FxHashMap::default();
    let mut kept = Vec::with_capacity(initializers.len() - homes_by_index.len());
    for (k, init) in std::mem::take(initializers).into_iter().enumerate() {
        match homes_by_index.remove(&k) {
            Some(at) => down.entry(at).or_default().push(TensorProto {
                raw_data: init.data.into_owned(),
                ..init.header
            }),
            None => kept.push(init),
        }
    }
    *initializers = kept;
    place_in_subgraphs(main, down);
}

/// Puts each list of `down` into the subgraph it is keyed by (node,
/// attribute of `g`), or deeper where one of its subgraphs holds all reads.
fn place_in_subgraphs(g: &mut GraphProto, down: FxHashMap<(usize, usize), Vec<TensorProto>>) {
    for ((i, j), tensors) in down {
        let Some(sub) = g
            .node
            .get_mut(i)
            .and_then(|n| n.attribute.get_mut(j))
            .and_then(|a| a.g.as_mut())
        else {
            continue;
        };
        let names: Vec<&str> = tensors.iter().map(|t| t.name.as_str()).collect();
        let homes = home_below(sub, &names);
        let mut deeper: FxHashMap<(usize, usize), Vec<TensorProto>> = FxHashMap::default();
        for (t, home) in tensors.into_iter().zip(homes) {
            match home {
                Some(at) => deeper.entry(at).or_default().push(t),
                None => sub.initializer.push(t),
            }
        }
        place_in_subgraphs(sub, deeper);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(op: &str, inputs: &[&str], output: &str) -> NodeProto {
        NodeProto {
            input: inputs.iter().map(|s| s.to_string()).collect(),
            output: vec![output.to_string()],
            op_type: op.to_string(),
            ..Default::default()
        }
    }

    fn info(name: &str) -> ValueInfoProto {
        ValueInfoProto {
            name: name.to_string(),
            ..Default::default()
        }
    }

    #[test]
    fn moves_only_what_reads_nothing_of_the_body() {
        let mut body = GraphProto {
            input: vec![info("iter"), info("cond"), info("h")],
            output: vec![info("cond_out"), info("h_out")],
            node: vec![
                // Outer weight transposed: invariant.
                node("Transpose", &["w"], "wt"),
                // Reads the invariant only: invariant too.
                node("Mul", &["wt", "scale"], "ws"),
                // Reads the carried value: stays.
                node("MatMul", &["h", "ws"], "hw"),
                // Value-dependent failure: stays even though invariant.
                node("Gather", &["w", "idx"], "row"),
                // Random: stays.
                node("RandomUniformLike", &["w"], "noise"),
                node("Add", &["hw", "row"], "h_out"),
                // Invariant but a body output: stays.
                node("Identity", &["c0"], "cond_out"),
            ],
            value_info: vec![info("wt"), info("hw")],
            ..Default::default()
        };
        let mut outer = Vec::new();
        let moved = loop_invariants(&mut body, &mut outer, &|_| false);
        let names = |ns: &[NodeProto]| ns.iter().map(|n| n.op_type.clone()).collect::<Vec<_>>();
        assert_eq!(names(&moved), ["Transpose", "Mul"]);
        assert_eq!(
            names(&body.node),
            ["MatMul", "Gather", "RandomUniformLike", "Add", "Identity"]
        );
        assert_eq!(
            outer.iter().map(|v| v.name.as_str()).collect::<Vec<_>>(),
            ["wt"]
        );
        assert_eq!(body.value_info.len(), 1);
    }

    #[test]
    fn a_body_initializer_is_local() {
        let mut body = GraphProto {
            initializer: vec![crate::proto::TensorProto {
                name: "k".into(),
                ..Default::default()
            }],
            node: vec![node("Transpose", &["k"], "kt")],
            ..Default::default()
        };
        assert!(loop_invariants(&mut body, &mut Vec::new(), &|_| false).is_empty());
        assert_eq!(body.node.len(), 1);
    }

    #[test]
    fn nodes_on_small_constants_stay_for_the_runtime_to_fold() {
        let mut body = GraphProto {
            node: vec![
                node("Transpose", &["small_w"], "t1"),
                node("Transpose", &["large_w"], "t2"),
            ],
            ..Default::default()
        };
        let moved = loop_invariants(&mut body, &mut Vec::new(), &|n| n == "small_w");
        assert_eq!(moved.len(), 1);
        assert_eq!(moved[0].input, ["large_w"]);
        assert_eq!(body.node[0].input, ["small_w"]);
    }

    fn loop_node(body: GraphProto) -> NodeProto {
        NodeProto {
            op_type: "Loop".into(),
            attribute: vec![crate::proto::AttributeProto {
                name: "body".into(),
                g: Some(body),
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    fn constant(name: &str, len: usize) -> Initializer<'static> {
        Initializer::owned(TensorProto {
            name: name.into(),
            raw_data: vec![1; len],
            ..Default::default()
        })
    }

    #[test]
    fn small_constants_read_by_one_subgraph_move_into_it() {
        let inner = GraphProto {
            node: vec![node("Add", &["deep", "both"], "y")],
            ..Default::default()
        };
        let body = GraphProto {
            node: vec![
                node("MatMul", &["h", "w"], "hw"),
                node("Mul", &["hw", "shared"], "z"),
                loop_node(inner),
            ],
            ..Default::default()
        };
        let other = GraphProto {
            node: vec![node("Neg", &["shared"], "n"), node("Neg", &["both"], "m")],
            ..Default::default()
        };
        let mut main = GraphProto {
            node: vec![
                node("Relu", &["main_only"], "r"),
                loop_node(body),
                loop_node(other),
            ],
            ..Default::default()
        };
        let mut inits = vec![
            constant("w", 16),
            constant("big", SMALL_CONSTANT_BYTES + 1),
            constant("main_only", 4),
            constant("shared", 4),
            constant("deep", 4),
            constant("both", 4),
        ];
        // "big" is read in the body too, but stays: it is large.
        if let Some(g) = main.node[1].attribute[0].g.as_mut() {
            g.node.push(node("Add", &["z", "big"], "z2"));
        }
        place_constants(&mut main, &mut inits);
        let left: Vec<&str> = inits.iter().map(|i| i.header.name.as_str()).collect();
        assert_eq!(left, ["big", "main_only", "shared", "both"]);
        let body = main.node[1].attribute[0].g.clone().unwrap_or_default();
        let names = |g: &GraphProto| {
            g.initializer
                .iter()
                .map(|t| t.name.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&body), ["w"]);
        assert_eq!(body.initializer[0].raw_data, vec![1; 16]);
        let inner = body.node[2].attribute[0].g.clone().unwrap_or_default();
        assert_eq!(names(&inner), ["deep"]);
    }

    #[test]
    fn a_graph_without_subgraphs_is_left_alone() {
        let mut main = GraphProto {
            node: vec![node("Relu", &["w"], "r")],
            ..Default::default()
        };
        let mut inits = vec![constant("w", 4)];
        place_constants(&mut main, &mut inits);
        assert_eq!(inits.len(), 1);
    }
}
