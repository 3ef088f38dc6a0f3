//! Special functions ONNX lacks, as compositions evaluated in float64 and
//! cast back: `erfinv` (Giles' approximation, then one Newton step on
//! `Erf`, in float32), `lgamma` (Lanczos, g = 7, with the reflection formula below
//! 1/2), `digamma` (six recurrence steps up, the asymptotic series, the
//! reflection formula below 1/2). Each is accurate to a few float32 ulps
//! of Paddle's result away from the functions' poles.

use pir_params::DType;

use crate::export::Exporter;
use crate::ExportError;

type R = Result<(), ExportError>;
type S = Result<String, ExportError>;

/// Operand 0 in float64, its dtype, and the op's output name after a
/// closure computes the float64 result.
fn in_float64(x: &mut Exporter<'_>, compute: impl FnOnce(&mut Exporter<'_>, &str) -> S) -> R {
    let d = x.in_dtype(0)?;
    if !matches!(
        d,
        DType::Float16 | DType::BFloat16 | DType::Float32 | DType::Float64
    ) {
        return Err(x.unsupported(format!("a {d} input")));
    }
    let a = x.input(0)?;
    let a = x.cast(&a, DType::Float64)?;
    let r = compute(x, &a)?;
    let r = x.cast(&r, d)?;
    x.finish_with(&r)
}

/// A float64 scalar constant.
fn k(x: &mut Exporter<'_>, v: f64) -> S {
    x.const_scalar(DType::Float64, v)
}

/// `op(a, b)`.
fn bin(x: &mut Exporter<'_>, op: &str, a: &str, b: &str) -> String {
    x.node1(op, &[a, b], vec![])
}

/// `op(a, constant)`.
fn bin_k(x: &mut Exporter<'_>, op: &str, a: &str, v: f64) -> S {
    let c = k(x, v)?;
    Ok(bin(x, op, a, &c))
}

/// The polynomial with `coeffs` (highest power first) at `t`, by Horner.
fn horner(x: &mut Exporter<'_>, t: &str, coeffs: &[f64]) -> S {
    let mut p = k(x, coeffs[0])?;
    for &c in &coeffs[1..] {
        let m = bin(x, "Mul", &p, t);
        p = bin_k(x, "Add", &m, c)?;
    }
    Ok(p)
}

/// Giles' single-precision erfinv, central branch (`w < 5`, in `w - 2.5`).
const ERFINV_CENTRAL: [f64; 9] = [
    2.810_226_36e-08,
    3.432_739_39e-07,
    -3.523_387_7e-06,
    -4.391_506_54e-06,
    0.000_218_580_87,
    -0.001_253_725_03,
    -0.004_177_681_64,
    0.246_640_727,
    1.501_409_41,
];

/// Giles' single-precision erfinv, tail branch (in `sqrt(w) - 3`).
const ERFINV_TAIL: [f64; 9] = [
    -0.000_200_214_257,
    0.000_100_950_558,
    0.001_349_343_22,
    -0.003_673_428_44,
    0.005_739_507_73,
    -0.007_622_461_3,
    0.009_438_870_47,
    1.001_674_06,
    2.832_976_82,
];

/// `erfinv(x)`: ±inf at ±1, NaN beyond.
pub(crate) fn erfinv(x: &mut Exporter<'_>) -> R {
    in_float64(x, |x, a| {
        let one = k(x, 1.0)?;
        let lo = bin(x, "Sub", &one, a);
        let hi = bin(x, "Add", &one, a);
        let prod = bin(x, "Mul", &lo, &hi);
        let w = x.node1("Log", &[&prod], vec![]);
        let w = x.node1("Neg", &[&w], vec![]);
        let central_t = bin_k(x, "Sub", &w, 2.5)?;
        let central = horner(x, &central_t, &ERFINV_CENTRAL)?;
        let root = x.node1("Sqrt", &[&w], vec![]);
        let tail_t = bin_k(x, "Sub", &root, 3.0)?;
        let tail = horner(x, &tail_t, &ERFINV_TAIL)?;
        let five = k(x, 5.0)?;
        let is_central = bin(x, "Less", &w, &five);
        let p = x.node1("Where", &[&is_central, &central, &tail], vec![]);
        let y = bin(x, "Mul", &p, a);
        // One Newton step: y -= (erf(y) - a) / (2/sqrt(pi) * exp(-y^2)).
        // ONNX runtimes compute Erf in float32 only: one step there takes
        // the approximation to float32 accuracy, all the result keeps.
        let y32 = x.cast(&y, DType::Float32)?;
        let e = x.node1("Erf", &[&y32], vec![]);
        let e = x.cast(&e, DType::Float64)?;
        let err = bin(x, "Sub", &e, a);
        let y2 = bin(x, "Mul", &y, &y);
        let ny2 = x.node1("Neg", &[&y2], vec![]);
        let g = x.node1("Exp", &[&ny2], vec![]);
        let slope = bin_k(x, "Mul", &g, std::f64::consts::FRAC_2_SQRT_PI)?;
        let step = bin(x, "Div", &err, &slope);
        let refined = bin(x, "Sub", &y, &step);
        // At ±1 the step is inf - inf: the unrefined ±inf stands.
        let finite = x.node1("IsInf", &[&y], vec![]);
        Ok(x.node1("Where", &[&finite, &y, &refined], vec![]))
    })
}

/// Lanczos coefficients, g = 7, n = 9.
const LANCZOS: [f64; 9] = [
    0.999_999_999_999_809_9,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_1,
    -176.615_029_162_140_6,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_572e-6,
    1.505_632_735_149_311_6e-7,
];

/// `lgamma` for arguments of at least 1/2 (Lanczos).
fn lgamma_right(x: &mut Exporter<'_>, v: &str) -> S {
    let z = bin_k(x, "Sub", v, 1.0)?;
    let mut sum = k(x, LANCZOS[0])?;
    for (i, &c) in LANCZOS.iter().enumerate().skip(1) {
        let den = bin_k(x, "Add", &z, i as f64)?;
        let num = k(x, c)?;
        let term = bin(x, "Div", &num, &den);
        sum = bin(x, "Add", &sum, &term);
    }
    let t = bin_k(x, "Add", &z, 7.5)?;
    let zh = bin_k(x, "Add", &z, 0.5)?;
    let log_t = x.node1("Log", &[&t], vec![]);
    let a = bin(x, "Mul", &zh, &log_t);
    let a = bin(x, "Sub", &a, &t);
    let log_sum = x.node1("Log", &[&sum], vec![]);
    let a = bin(x, "Add", &a, &log_sum);
    bin_k(x, "Add", &a, 0.5 * (2.0 * std::f64::consts::PI).ln())
}

/// Whether `a < 1/2` (the reflection side), and `1 - a` there, `a` elsewhere.
fn reflect(x: &mut Exporter<'_>, a: &str) -> Result<(String, String), ExportError> {
    let half = k(x, 0.5)?;
    let left = bin(x, "Less", a, &half);
    let one = k(x, 1.0)?;
    let mirrored = bin(x, "Sub", &one, a);
    let v = x.node1("Where", &[&left, &mirrored, a], vec![]);
    Ok((left, v))
}

/// `pi * a`.
fn times_pi(x: &mut Exporter<'_>, a: &str) -> S {
    bin_k(x, "Mul", a, std::f64::consts::PI)
}

/// `lgamma(x)`: below 1/2, `log(pi / |sin(pi x)|) - lgamma(1 - x)`.
pub(crate) fn lgamma(x: &mut Exporter<'_>) -> R {
    in_float64(x, |x, a| {
        let (left, v) = reflect(x, a)?;
        let l = lgamma_right(x, &v)?;
        let pa = times_pi(x, a)?;
        let s = x.node1("Sin", &[&pa], vec![]);
        let s = x.node1("Abs", &[&s], vec![]);
        let log_s = x.node1("Log", &[&s], vec![]);
        let r = bin_k(x, "Sub", &log_s, std::f64::consts::PI.ln())?;
        let r = x.node1("Neg", &[&r], vec![]);
        let r = bin(x, "Sub", &r, &l);
        Ok(x.node1("Where", &[&left, &r, &l], vec![]))
    })
}

/// `digamma` for arguments of at least 1/2: six steps of
/// `psi(v) = psi(v + 1) - 1/v`, then the asymptotic series at `v + 6`.
fn digamma_right(x: &mut Exporter<'_>, v: &str) -> S {
    let mut shift = k(x, 0.0)?;
    for i in 0..6 {
        let vi = bin_k(x, "Add", v, f64::from(i))?;
        let one = k(x, 1.0)?;
        let inv = bin(x, "Div", &one, &vi);
        shift = bin(x, "Add", &shift, &inv);
    }
    let z = bin_k(x, "Add", v, 6.0)?;
    let one = k(x, 1.0)?;
    let inv = bin(x, "Div", &one, &z);
    let inv2 = bin(x, "Mul", &inv, &inv);
    // ln z - 1/(2z) - 1/(12 z^2) + 1/(120 z^4) - 1/(252 z^6) + 1/(240 z^8)
    // - 1/(132 z^10), the even terms by Horner in 1/z^2.
    let series = horner(
        x,
        &inv2,
        &[
            -1.0 / 132.0,
            1.0 / 240.0,
            -1.0 / 252.0,
            1.0 / 120.0,
            -1.0 / 12.0,
            0.0,
        ],
    )?;
    let ln = x.node1("Log", &[&z], vec![]);
    let half_inv = bin_k(x, "Mul", &inv, 0.5)?;
    let r = bin(x, "Sub", &ln, &half_inv);
    let r = bin(x, "Add", &r, &series);
    Ok(bin(x, "Sub", &r, &shift))
}

/// `digamma(x)`: below 1/2, `digamma(1 - x) - pi / tan(pi x)`.
pub(crate) fn digamma(x: &mut Exporter<'_>) -> R {
    in_float64(x, |x, a| {
        let (left, v) = reflect(x, a)?;
        let d = digamma_right(x, &v)?;
        let pa = times_pi(x, a)?;
        // pi / tan(pi x) as pi cos / sin (runtimes lack a float64 Tan).
        let sin = x.node1("Sin", &[&pa], vec![]);
        let cos = x.node1("Cos", &[&pa], vec![]);
        let pi_cos = bin_k(x, "Mul", &cos, std::f64::consts::PI)?;
        let c = bin(x, "Div", &pi_cos, &sin);
        let r = bin(x, "Sub", &d, &c);
        Ok(x.node1("Where", &[&left, &r, &d], vec![]))
    })
}

#[cfg(test)]
mod tests {
    use super::{ERFINV_CENTRAL, LANCZOS};

    fn horner(t: f64, c: &[f64]) -> f64 {
        c.iter().fold(0.0, |p, &k| p * t + k)
    }

    #[test]
    fn the_lanczos_sum_gives_log_gamma() {
        let lgamma = |v: f64| {
            let z = v - 1.0;
            let a = LANCZOS[0]
                + LANCZOS[1..]
                    .iter()
                    .enumerate()
                    .map(|(i, c)| c / (z + i as f64 + 1.0))
                    .sum::<f64>();
            let t = z + 7.5;
            0.5 * (2.0 * std::f64::consts::PI).ln() + (z + 0.5) * t.ln() - t + a.ln()
        };
        assert!((lgamma(5.0) - 24f64.ln()).abs() < 1e-12);
        assert!((lgamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-12);
    }

    #[test]
    fn the_central_erfinv_branch_inverts_erf_at_one_half() {
        // erf(0.476936...) = 0.5.
        let a: f64 = 0.5;
        let w = -((1.0 - a) * (1.0 + a)).ln();
        let y = horner(w - 2.5, &ERFINV_CENTRAL) * a;
        assert!((y - 0.476_936_276_204_47).abs() < 1e-6);
    }

    #[test]
    fn special_functions_are_computed_in_float64_and_cast_back() {
        use crate::mappers::tests::export_ops;
        for op in ["erfinv", "lgamma", "digamma"] {
            let g = export_ops(&format!(
                r#"    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]}} : () -> tensor<-1x4xf32>
    (%1) = "pd_op.{op}" (%0) {{stop_gradient:[false]}} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%2) = "pd_op.fetch" (%1) {{col:0,name:"y",persistable:[true],stop_gradient:[false]}} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#
            ));
            let casts: Vec<i64> = g
                .node
                .iter()
                .filter(|n| n.op_type == "Cast")
                .map(|n| n.attribute[0].i)
                .collect();
            assert_eq!(casts.first(), Some(&11), "{op}: computed in double");
            assert_eq!(casts.last(), Some(&1), "{op}: cast back to float");
        }
    }
}
