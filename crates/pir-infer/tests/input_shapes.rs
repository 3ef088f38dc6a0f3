//! `set_input_shapes` over every model of the corpus in use: fixing each
//! dynamic input dim leaves a program whose every stored type is what
//! inference gives (nothing stale downstream), and giving the shapes the
//! program already has changes nothing.

use pir_infer::{Inferer, OpCheck, ShapeError};

fn load(ctx: &std::sync::Arc<pir_core::IrContext>, m: &pir_corpus::Model) -> pir_core::Program {
    pir_serde::read_file(ctx.clone(), &m.json(), &pir_serde::ReadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", m.label()))
        .program
}

fn dims_of(ctx: &pir_core::IrContext, ty: pir_core::Type) -> Option<Vec<i64>> {
    ctx.type_as::<pir_core::builtin::DenseTensorType>(ty)
        .map(|t| t.dims.to_vec())
}

#[test]
fn fixed_inputs_leave_consistent_programs() {
    let ctx = pir_dialects::pd_op_context();
    let inferer = Inferer::new(&ctx);
    let mut models = pir_corpus::models();
    models.extend(pir_corpus::control_flow_models());
    let (mut files, mut reshaped, mut retyped) = (0, 0, 0);
    let mut failures = Vec::new();
    for m in &models {
        let mut p = load(&ctx, m);
        let inputs = pir_infer::inputs(&p);
        if inputs.is_empty() {
            continue;
        }
        // The shapes as stored: nothing to do.
        let same: Vec<(String, Vec<i64>)> = inputs
            .iter()
            .filter_map(|i| Some((i.name.clone(), dims_of(&ctx, i.ty)?)))
            .collect();
        let done = inferer
            .set_input_shapes(&mut p, &same)
            .unwrap_or_else(|e| panic!("{}: {e}", m.label()));
        assert_eq!(
            done.retyped,
            0,
            "{}: the same shapes retyped values",
            m.label()
        );
        // Every unknown dim fixed (2: a batch, a sequence, an image side).
        let fixed: Vec<(String, Vec<i64>)> = same
            .iter()
            .map(|(n, d)| {
                (
                    n.clone(),
                    d.iter().map(|&x| if x < 0 { 2 } else { x }).collect(),
                )
            })
            .collect();
        files += 1;
        match inferer.set_input_shapes(&mut p, &fixed) {
            Ok(done) => {
                reshaped += done.reinferred;
                retyped += done.retyped;
            }
            // A model whose shape arithmetic refuses a size of 2 (a
            // reshape to a fixed size) is a correct refusal, named.
            Err(e @ ShapeError::Op { .. }) => {
                eprintln!("{}: {e}", m.label());
                continue;
            }
            Err(e) => panic!("{}: {e}", m.label()),
        }
        let check = inferer.check_program(&p);
        for (path, op, c) in &check.reports {
            if let OpCheck::Differ { stored, inferred } = c {
                failures.push(format!(
                    "{} {path:?} {}: stored {:?} re-inferred {:?}",
                    m.label(),
                    p.op_name_str(*op),
                    stored
                        .iter()
                        .map(|&t| ctx.display_type(t))
                        .collect::<Vec<_>>(),
                    inferred
                        .iter()
                        .map(|&t| ctx.display_type(t))
                        .collect::<Vec<_>>()
                ));
            }
        }
    }
    eprintln!("{files} models with inputs: {reshaped} ops re-inferred, {retyped} values retyped");
    assert!(files >= 3, "the shipped corpus has models with inputs");
    assert!(retyped > 0);
    assert!(
        failures.is_empty(),
        "{} stale types:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}

#[test]
fn contradictions_are_named() {
    let ctx = pir_dialects::pd_op_context();
    let inferer = Inferer::new(&ctx);
    let models = pir_corpus::models();
    let lenet = models
        .iter()
        .find(|m| m.label().contains("lenet"))
        .expect("lenet ships with the repository");
    let mut p = load(&ctx, lenet);
    let inputs = pir_infer::inputs(&p);
    let input = inputs.first().expect("lenet has an input");
    let name = input.name.clone();
    let dims = dims_of(&ctx, input.ty).expect("a dense tensor");

    let err = inferer
        .set_input_shapes(&mut p, &[(format!("{name}x"), dims.clone())])
        .expect_err("unknown input");
    assert!(
        err.to_string().contains(&format!("did you mean `{name}`")),
        "{err}"
    );

    let err = inferer
        .set_input_shapes(&mut p, &[(name.clone(), vec![1, 2])])
        .expect_err("rank");
    assert!(err.to_string().contains("rank"), "{err}");

    let err = inferer
        .set_input_shapes(
            &mut p,
            &[(name.clone(), dims.clone()), (name.clone(), dims.clone())],
        )
        .expect_err("twice");
    assert!(matches!(err, ShapeError::Repeated(_)), "{err}");

    // LeNet's flatten feeds a linear layer sized for 28x28 images: another
    // size reaches a matmul whose inner dims disagree.
    let mut wrong = dims.clone();
    let last = wrong.len() - 1;
    wrong[last] = 40;
    wrong[last - 1] = 40;
    let err = inferer
        .set_input_shapes(&mut p, &[(name, wrong)])
        .expect_err("a matmul mismatch");
    let text = err.to_string();
    assert!(matches!(err, ShapeError::Op { .. }), "{text}");
    assert!(text.contains("pd_op.matmul"), "{text}");
}
