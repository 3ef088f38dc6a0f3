//! Arithmetic on complex tensors in the (real, imaginary) pair layout of
//! [`super::complex`]: `add`, `subtract`, `multiply`, `divide` with a
//! complex operand (a real one taken as imaginary part 0), `abs`, the
//! modulus, and `cast` to or from a complex dtype (Paddle's type promotion
//! casts real operands). The elementwise mappers hand these ops over when an
//! operand or the result is complex.

use pir_params::DType;

use crate::export::{a_int, Exporter};
use crate::mappers::complex::{is_complex, pairs_out, part, part_dtype};
use crate::mappers::elementwise::base_name;
use crate::mappers::index::reduce;
use crate::ExportError;

type R = Result<(), ExportError>;

/// The binary ops computed on pairs.
pub(crate) const BINARY: [&str; 4] = [
    "pd_op.add",
    "pd_op.subtract",
    "pd_op.multiply",
    "pd_op.divide",
];

/// Whether an operand of the op is complex.
pub(crate) fn reads_complex(x: &Exporter<'_>) -> bool {
    (0..x.num_operands()).any(|i| x.in_dtype(i).is_ok_and(is_complex))
}

/// The real and imaginary parts of operand `i` (of a real operand: itself
/// and zeros of its shape).
fn halves(x: &mut Exporter<'_>, i: usize) -> Result<(String, String), ExportError> {
    let v = x.input(i)?;
    let d = x.in_dtype(i)?;
    if is_complex(d) {
        return Ok((part(x, &v, 0)?, part(x, &v, 1)?));
    }
    let zero = zeros_like(x, &v, d)?;
    Ok((v, zero))
}

/// Zeros of `v`'s shape and dtype `d` (not `v - v`, which is NaN where `v`
/// is infinite).
fn zeros_like(x: &mut Exporter<'_>, v: &str, d: DType) -> Result<String, ExportError> {
    let zero = x.const_scalar(d, 0.0)?;
    let shape = x.node1("Shape", &[v], vec![]);
    Ok(x.node1("Expand", &[&zero, &shape], vec![]))
}

/// `re + i·im` as pairs.
fn pairs(x: &mut Exporter<'_>, re: &str, im: &str) -> String {
    let re = x.unsqueeze(re, &[-1]);
    let im = x.unsqueeze(im, &[-1]);
    x.node1("Concat", &[&re, &im], vec![a_int("axis", -1)])
}

/// `add`, `subtract`, `multiply` and `divide` with a complex operand.
pub(crate) fn binary(x: &mut Exporter<'_>) -> R {
    let name = base_name(x);
    let (ar, ai) = halves(x, 0)?;
    let (br, bi) = halves(x, 1)?;
    let (re, im) = match name {
        "add" | "subtract" => {
            let op = if name == "add" { "Add" } else { "Sub" };
            (
                x.node1(op, &[&ar, &br], vec![]),
                x.node1(op, &[&ai, &bi], vec![]),
            )
        }
        "multiply" | "divide" => {
            // (ar + i·ai)(br ± i·bi): divide multiplies by the conjugate
            // and scales by |b|².
            let rr = x.node1("Mul", &[&ar, &br], vec![]);
            let ii = x.node1("Mul", &[&ai, &bi], vec![]);
            let ri = x.node1("Mul", &[&ar, &bi], vec![]);
            let ir = x.node1("Mul", &[&ai, &br], vec![]);
            if name == "multiply" {
                (
                    x.node1("Sub", &[&rr, &ii], vec![]),
                    x.node1("Add", &[&ri, &ir], vec![]),
                )
            } else {
                let b2 = x.node1("Mul", &[&br, &br], vec![]);
                let c2 = x.node1("Mul", &[&bi, &bi], vec![]);
                let den = x.node1("Add", &[&b2, &c2], vec![]);
                let re = x.node1("Add", &[&rr, &ii], vec![]);
                let im = x.node1("Sub", &[&ir, &ri], vec![]);
                (
                    x.node1("Div", &[&re, &den], vec![]),
                    x.node1("Div", &[&im, &den], vec![]),
                )
            }
        }
        _ => return Err(x.unsupported("no complex mapping")),
    };
    let z = pairs(x, &re, &im);
    pairs_out(x, &z)
}

/// `abs(z)` of a complex `z`: the modulus, `sqrt(re² + im²)`.
pub(crate) fn abs(x: &mut Exporter<'_>) -> R {
    let z = x.input(0)?;
    let d = part_dtype(x.in_dtype(0)?);
    if !matches!(d, DType::Float32 | DType::Float64) {
        return Err(x.unsupported(format!("a {d} complex part")));
    }
    let r = reduce(x, "ReduceL2", &z, &[-1], false);
    x.finish_with(&r)
}

/// Whether a `cast` reads or makes a complex tensor.
pub(crate) fn casts_complex(x: &Exporter<'_>) -> bool {
    reads_complex(x) || x.out_dtype(0).is_ok_and(is_complex)
}

/// `cast` with a complex side: a real input becomes pairs with imaginary
/// part 0; a complex input cast to a real dtype keeps its real part (as
/// Paddle's kernel does).
pub(crate) fn cast(x: &mut Exporter<'_>) -> R {
    let v = x.input(0)?;
    let from = x.in_dtype(0)?;
    let to = x.out_dtype(0)?;
    let part_to = part_dtype(to);
    let converted = |x: &mut Exporter<'_>, n: &str, d: DType| -> Result<String, ExportError> {
        if d == part_to {
            Ok(n.to_string())
        } else {
            x.cast(n, part_to)
        }
    };
    match (is_complex(from), is_complex(to)) {
        (true, true) => {
            let z = converted(x, &v, part_dtype(from))?;
            pairs_out(x, &z)
        }
        (false, true) => {
            let re = converted(x, &v, from)?;
            let im = zeros_like(x, &re, part_to)?;
            let z = pairs(x, &re, &im);
            pairs_out(x, &z)
        }
        _ => {
            let re = part(x, &v, 0)?;
            let r = converted(x, &re, part_dtype(from))?;
            x.finish_with(&r)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_at, op_types};

    const PAIR: &str = r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%1) = "pd_op.complex" (%0, %0) {stop_gradient:[false]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> tensor<-1x4xc64>
    (%2) = "pd_op.multiply" (%1, %1) {stop_gradient:[false]} : (tensor<-1x4xc64>, tensor<-1x4xc64>) -> tensor<-1x4xc64>"#;

    #[test]
    fn complex_products_are_computed_on_pairs() {
        let g = export_at(
            &format!(
                "{PAIR}\n{}\n{}",
                r#"    (%3) = "pd_op.abs" (%2) {stop_gradient:[false]} : (tensor<-1x4xc64>) -> tensor<-1x4xf32>"#,
                r#"    (%4) = "pd_op.fetch" (%3) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#,
            ),
            crate::DEFAULT_OPSET,
        )
        .expect("exports")
        .graph
        .expect("a graph");
        let types = op_types(&g);
        assert!(types.contains(&"ReduceL2"), "{types:?}");
        assert!(
            types.iter().filter(|t| **t == "Mul").count() >= 4,
            "{types:?}"
        );
    }

    #[test]
    fn a_complex_output_is_refused_by_name() {
        let err = export_at(
            &format!(
                "{PAIR}\n{}",
                r#"    (%3) = "pd_op.fetch" (%2) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xc64>) -> tensor<-1x4xc64>"#,
            ),
            crate::DEFAULT_OPSET,
        )
        .expect_err("onnxruntime has no complex tensors");
        let text = err.to_string();
        assert!(text.contains("pd_op.fetch on complex tensors"), "{text}");
        assert!(!text.contains("multiply"), "{text}");
    }
}
