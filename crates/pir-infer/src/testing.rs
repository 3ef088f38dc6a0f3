//! Test helper: infers the last op of a program written as IR text.

/// The inferred result types of the last top-level op of `text`, printed
/// (`null` for an unset result), or the error.
pub(crate) fn infer_last(text: &str) -> Result<Vec<String>, String> {
    let ctx = pir_dialects::pd_op_context();
    let loaded = pir_serde::read_text(ctx.clone(), text).map_err(|e| e.to_string())?;
    let p = &loaded.program;
    let op = p
        .block_ops(p.top_block())
        .last()
        .ok_or_else(|| "empty program".to_owned())?;
    let inferer = crate::Inferer::new(&ctx);
    let types = inferer.infer(p, op).map_err(|e| e.to_string())?;
    Ok(types
        .iter()
        .map(|&t| crate::display_type_or_null(&ctx, t))
        .collect())
}

/// `infer_last` that must succeed.
pub(crate) fn types(text: &str) -> Vec<String> {
    infer_last(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Infers the last op of `body` (ops of a block, without braces) and
/// compares with the result types Paddle printed for it (`null`: an
/// optional result Paddle built the op without). Paddle's live print shows
/// a result its InferMeta leaves alone as `tensor<0xf32>`; its files, and
/// this IR, hold that fresh `IrTensor` as 0-d (`tensor<f32>`).
pub(crate) fn check(body: &str, want: &[&str]) {
    let got = types(&format!("{{\n{body}\n}}\n"));
    assert_eq!(got.len(), want.len(), "{body}");
    for (g, w) in got.iter().zip(want) {
        match *w {
            "null" => {}
            "tensor<0xf32>" => assert!(g == "tensor<f32>" || g == w, "{body}: {g}"),
            // A list's fresh elements too (einsum's `inner_cache`).
            _ if w.starts_with("vec[") => {
                assert_eq!(*g, w.replace("tensor<0xf32>", "tensor<f32>"), "{body}")
            }
            _ => assert_eq!(g, w, "{body}"),
        }
    }
}

/// Paddle's print of `(%{id}) = pd_op.data`: an input named `name` of
/// `dtype` (Paddle's name: `float32`, `int64`, ...) and `dims`, its
/// gradient stopped.
pub(crate) fn data(id: usize, name: &str, dtype: &str, dims: &[i64]) -> String {
    let scalar = pir_dialects::pd_op::DataType::parse(dtype)
        .and_then(|d| d.scalar())
        .unwrap_or_else(|| panic!("no element type for {dtype}"));
    let shape: Vec<String> = dims.iter().map(i64::to_string).collect();
    let prefix: String = shape.iter().map(|d| format!("{d}x")).collect();
    format!(
        "(%{id}) = \"pd_op.data\" () {{dtype:{dtype},name:\"{name}\",place:Place(undefined:0),shape:[{}],stop_gradient:[true]}} : () -> tensor<{prefix}{}>",
        shape.join(","),
        scalar.text()
    )
}

/// A program of `data` ops for `inputs` (`(name, dtype, dims)`, results
/// `%0`, `%1`, ...), then the lines `ops`.
pub(crate) fn with_inputs(inputs: &[(&str, &str, &[i64])], ops: &[&str]) -> String {
    let mut text = String::from("{\n");
    for (id, (name, dtype, dims)) in inputs.iter().enumerate() {
        text += &data(id, name, dtype, dims);
        text.push('\n');
    }
    for op in ops {
        text += op;
        text.push('\n');
    }
    text + "}\n"
}

/// A program of `data` operands (`(dtype, short dtype, dims)`, `None` for
/// an absent optional operand) and an `op` with `attrs` and `results`
/// results, for the refusals Paddle reports while building.
pub(crate) fn program(
    op: &str,
    operands: &[Option<(&str, &str, &[i64])>],
    attrs: &str,
    results: usize,
) -> String {
    let mut text = String::from("{\n");
    let mut names = Vec::new();
    let mut types = Vec::new();
    for (i, o) in operands.iter().enumerate() {
        match o {
            Some((dtype, short, dims)) => {
                let d: String = dims.iter().map(|v| format!("{v}x")).collect();
                let ty = format!("tensor<{d}{short}>");
                text += &format!(
                    "(%{i}) = \"pd_op.data\" () {{dtype:{dtype},name:\"x{i}\",place:Place(undefined:0),shape:{dims:?},stop_gradient:[true]}} : () -> {ty}\n"
                );
                names.push(format!("%{i}"));
                types.push(ty);
            }
            None => {
                names.push("<<NULL VALUE>>".to_owned());
                types.push("<<NULL TYPE>>".to_owned());
            }
        }
    }
    let n = operands.len();
    let res: Vec<String> = (0..results).map(|k| format!("%{}", n + k)).collect();
    let tys = vec!["tensor<f32>"; results].join(", ");
    text += &format!(
        "({}) = \"{op}\" ({}) {{{attrs}}} : ({}) -> {tys}\n}}\n",
        res.join(", "),
        names.join(", "),
        types.join(", ")
    );
    text
}

/// The refusal inferring `text`'s last op.
pub(crate) fn refusal(text: &str) -> String {
    match infer_last(text) {
        Ok(t) => panic!("inferred {t:?}"),
        Err(e) => e,
    }
}
