//! The analysis never panics: random programs of shape-changing ops with
//! arbitrary (often inconsistent) shapes, attributes and operands, from
//! fixed seeds, are analysed and printed annotated.

use std::fmt::Write as _;

use pir_corpus::Rng;

const DIMS: &[i64] = &[-1, 0, 1, 2, 3, 4, 8];
const INTS: &[i64] = &[-3, -1, 0, 1, 2, 3, 5, 2_147_483_647, -2_147_483_648];

fn pick<T: Copy>(rng: &mut Rng, from: &[T]) -> T {
    from[rng.below(from.len())]
}

fn list(rng: &mut Rng, from: &[i64], max: usize) -> Vec<i64> {
    (0..rng.below(max + 1)).map(|_| pick(rng, from)).collect()
}

fn ty(dims: &[i64], int: bool) -> String {
    let mut s = String::from("tensor<");
    for d in dims {
        let _ = write!(s, "{d}x");
    }
    s.push_str(if int { "i64>" } else { "f32>" });
    s
}

fn ints_text(v: &[i64]) -> String {
    let items: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("[{}]", items.join(","))
}

/// A random program's text: each op takes earlier values as operands,
/// whatever their shapes.
fn program(rng: &mut Rng) -> String {
    let mut text = String::from("{\n");
    let mut values: Vec<(usize, String)> = Vec::new();
    for id in 0..(4 + rng.below(24)) {
        let kind = rng.below(16);
        let operand = |rng: &mut Rng, values: &[(usize, String)]| {
            if values.is_empty() {
                None
            } else {
                Some(values[rng.below(values.len())].clone())
            }
        };
        let out_dims = list(rng, DIMS, 4);
        let out = ty(&out_dims, rng.below(2) == 0);
        let line = match (kind, operand(rng, &values), operand(rng, &values)) {
            (0, _, _) | (_, None, _) | (_, _, None) => {
                let shape = list(rng, DIMS, 4);
                let int = rng.below(3) == 0;
                let t = ty(&shape, int);
                let dtype = if int { "int64" } else { "float32" };
                values.push((id, t.clone()));
                format!(
                    "(%{id}) = \"pd_op.data\" () {{dtype:{dtype},name:\"x{id}\",place:Place(undefined:0),shape:{},stop_gradient:[false]}} : () -> {t}",
                    ints_text(&shape)
                )
            }
            (1, _, _) => {
                let v = list(rng, INTS, 4);
                let t = ty(&[v.len() as i64], true);
                values.push((id, t.clone()));
                format!(
                    "(%{id}) = \"pd_op.full_int_array\" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:{}}} : () -> {t}",
                    ints_text(&v)
                )
            }
            (k, Some((a, at)), Some((b, bt))) => {
                let (name, attrs, operands) = match k {
                    2 => ("pd_op.add", String::new(), vec![(a, at), (b, bt)]),
                    3 => (
                        "pd_op.matmul",
                        "transpose_x:false,transpose_y:true".to_string(),
                        vec![(a, at), (b, bt)],
                    ),
                    4 => ("pd_op.reshape", String::new(), vec![(a, at), (b, bt)]),
                    5 => ("pd_op.shape64", String::new(), vec![(a, at)]),
                    6 => (
                        "pd_op.transpose",
                        format!("perm:{}", ints_text(&list(rng, INTS, 4))),
                        vec![(a, at)],
                    ),
                    7 => (
                        "pd_op.slice",
                        format!(
                            "axes:{},decrease_axis:{},infer_flags:[1]",
                            ints_text(&list(rng, INTS, 2)),
                            ints_text(&list(rng, INTS, 2))
                        ),
                        vec![(a, at), (b, bt.clone()), (b, bt)],
                    ),
                    8 => ("pd_op.unsqueeze", String::new(), vec![(a, at), (b, bt)]),
                    9 => ("pd_op.squeeze", String::new(), vec![(a, at), (b, bt)]),
                    10 => ("pd_op.tile", String::new(), vec![(a, at), (b, bt)]),
                    11 => ("pd_op.expand", String::new(), vec![(a, at), (b, bt)]),
                    12 => (
                        "pd_op.flatten",
                        format!(
                            "start_axis:{},stop_axis:{}",
                            pick(rng, INTS),
                            pick(rng, INTS)
                        ),
                        vec![(a, at)],
                    ),
                    13 => (
                        "pd_op.split_with_num",
                        format!("num:{}", pick(rng, INTS)),
                        vec![(a, at), (b, bt)],
                    ),
                    14 => (
                        "pd_op.mean",
                        "keepdim:true".to_string(),
                        vec![(a, at), (b, bt)],
                    ),
                    _ => (
                        "pd_op.scale",
                        "bias:1,bias_after_scale:true".to_string(),
                        vec![(a, at), (b, bt)],
                    ),
                };
                let names: Vec<String> = operands.iter().map(|(v, _)| format!("%{v}")).collect();
                let types: Vec<String> = operands.iter().map(|(_, t)| t.clone()).collect();
                values.push((id, out.clone()));
                format!(
                    "(%{id}) = \"{name}\" ({}) {{{attrs}}} : ({}) -> {out}",
                    names.join(", "),
                    types.join(", ")
                )
            }
        };
        text.push_str("    ");
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str("}\n");
    text
}

#[test]
fn random_programs_never_panic() {
    let ctx = pir_dialects::pd_op_context();
    let mut parsed = 0;
    for seed in 1..=3000u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let text = program(&mut rng);
        let Ok(p) = pir_core::Program::parse(&ctx, &text) else {
            continue;
        };
        parsed += 1;
        let shapes = pir_shape::ShapeAnalysis::run(&p);
        let out = pir_shape::annotated_text(&p, &shapes);
        assert!(out.starts_with("{\n"), "seed {seed}:\n{text}");
    }
    assert!(parsed > 1500, "only {parsed} random programs parsed");
}
