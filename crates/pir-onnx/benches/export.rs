//! Export time of a corpus model (`deep_mlp_ln200`, else the largest
//! model of the available corpus) and of a synthetic 20,000-op program.
#![allow(missing_docs)] // criterion macros generate undocumented items

use criterion::{criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    let models = pir_corpus::models();
    let pick = models
        .iter()
        .find(|m| m.name == "deep_mlp_ln200")
        .or_else(|| models.iter().max_by_key(|m| m.op_count));
    if let Some(m) = pick {
        let model = pir::Model::load(m.json()).expect("loads");
        let options = pir_onnx::ExportOptions::default();
        c.bench_function(&format!("export {}", m.name), |b| {
            b.iter(|| pir_onnx::export_bytes(&model.program, &options).expect("exports"))
        });
    }
    let ctx = pir::dialects::pd_op_context();
    let text = pir_corpus::synthetic_mlp_json(2500);
    let program = pir::serde::read_slice(ctx, text.as_bytes(), &Default::default());
    if let Ok(mut read) = program {
        // Zero tensors for the synthetic parameters, so the export is the
        // real one (initializers included).
        let p = &read.program;
        let declared: Vec<(String, pir::core::Type)> = p
            .block_ops(p.top_block())
            .filter(|&op| p.op_name_str(op) == "builtin.parameter")
            .filter_map(|op| {
                let name = p.attr(op, "parameter_name")?;
                let name = p
                    .ctx()
                    .attr_as::<pir::core::builtin::StrAttr>(name)?
                    .0
                    .to_string();
                Some((name, p.value_type(p.result(op, 0))))
            })
            .collect();
        for (name, ty) in declared {
            if let Some((dtype, dims)) = pir::params::bound::declared(&read.program, ty) {
                if let Ok(t) = pir::params::Tensor::zeros(dtype, dims) {
                    pir::params::bound::bind_typed(&mut read.program, &name, ty, t);
                }
            }
        }
        let options = pir_onnx::ExportOptions::default();
        c.bench_function("export synthetic 20k ops", |b| {
            b.iter(|| pir_onnx::export_bytes(&read.program, &options).expect("exports"))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
