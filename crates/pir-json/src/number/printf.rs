//! C++ `std::ostream << double` with default flags (printf `%g`, precision 6).
//!
//! Paddle's textual IR printer writes float and double attributes with `os << value`. With the
//! default stream flags libstdc++ formats through `vsnprintf("%.*g", 6, value)`, so the result is
//! glibc's `%g`: the exact binary value correctly rounded to 6 significant digits (ties to
//! even), fixed notation when the decimal exponent X satisfies `-4 <= X < 6`, otherwise
//! `d.ddddde±XX`, and trailing zeros (and a trailing `.`) removed. A `float` is promoted to
//! `double` before formatting, so `1.4e-45f32` prints `1.4013e-45`.
//!
//! Non-finite values print `inf`, `-inf`, `nan` and, for a NaN whose sign bit is set, `-nan`
//! (glibc prints the sign of a NaN and libstdc++ passes it through; `-nan` is what a C++
//! program compiled with g++ prints for `-std::numeric_limits<double>::quiet_NaN()`).
//!
//! ```
//! use pir_json::number::f64_to_cpp_ostream_string as g;
//! assert_eq!(g(2.5), "2.5");
//! assert_eq!(g(1.0), "1");
//! assert_eq!(g(123456789.0), "1.23457e+08");
//! assert_eq!(g(1e-5), "1e-05");
//! ```

use std::fmt::Write as _;

/// Significant digits printed by a default-configured C++ stream.
const PRECISION: usize = 6;

/// A fixed-capacity `fmt::Write` sink on the stack (no allocation).
struct StackBuf {
    buf: [u8; 40],
    len: usize,
}

impl std::fmt::Write for StackBuf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let bytes = s.as_bytes();
        let end = self.len + bytes.len();
        let slot = self.buf.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        slot.copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }
}

/// Appends what C++ `std::ostream << v` prints for a `double` with default flags.
///
/// Examples: `2.5`, `0.1`, `1` (for 1.0), `-0`, `1e-05`, `0.0001`, `1.23457e+08`, `1e+15`,
/// `9.0072e+15`, `nan`, `-nan`, `inf`, `-inf`.
pub fn write_f64_cpp_ostream(out: &mut Vec<u8>, v: f64) {
    if v.is_nan() {
        if v.is_sign_negative() {
            out.extend_from_slice(b"-nan");
        } else {
            out.extend_from_slice(b"nan");
        }
        return;
    }
    if v.is_sign_negative() {
        out.push(b'-');
    }
    let v = v.abs();
    if v.is_infinite() {
        out.extend_from_slice(b"inf");
        return;
    }
    if v == 0.0 {
        out.push(b'0');
        return;
    }

    let mut digits = [b'0'; PRECISION];
    let (digits, exponent) = match six_digits_fast(v) {
        Some((n, exponent)) => {
            let mut n = n;
            for slot in digits.iter_mut().rev() {
                *slot = b'0' + (n % 10) as u8;
                n /= 10;
            }
            (digits, exponent)
        }
        None => match six_digits_exact(v) {
            Some(found) => found,
            None => return,
        },
    };
    // Trailing zeros are removed in both notations (no `#` flag).
    let mut significant = PRECISION;
    while significant > 1 && digits.get(significant - 1) == Some(&b'0') {
        significant -= 1;
    }
    let digits = digits.get(..significant).unwrap_or(&[]);

    if (-4..PRECISION as i32).contains(&exponent) {
        super::push_fixed(out, digits, exponent + 1);
    } else {
        super::push_scientific(out, digits, exponent);
    }
}

/// Powers of ten a double holds exactly.
const EXACT_POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `v` (finite, above zero) correctly rounded to six significant digits,
/// as the integer `n` of them (`100000..=999999`) and the decimal exponent
/// of the first, when one multiplication or division by an exact power of
/// ten settles it; `None` sends the value to [`six_digits_exact`].
///
/// `v · 10^k`, computed with one rounding, is within 2^-33 of the exact
/// product (below 2^20, its ulp is at most 2^-32). Rounding that to an
/// integer gives the exact product's rounding unless the fraction lies
/// within that distance of one half: those (and exact ties, whose even
/// choice the error could hide) are left to the exact path.
fn six_digits_fast(v: f64) -> Option<(u32, i32)> {
    const MARGIN: f64 = 1.0 / (1u64 << 30) as f64;
    let biased = (v.to_bits() >> 52) & 0x7ff;
    if biased == 0 {
        // Subnormal: the exponent estimate below does not hold.
        return None;
    }
    // floor(e2 · log10 2) is the decimal exponent or one less.
    let e2 = biased as i32 - 1023;
    let estimate = (e2 * 78_913) >> 18;
    let scaled_by = |k: i32| -> Option<f64> {
        let power = EXACT_POWERS_OF_TEN.get(k.unsigned_abs() as usize)?;
        Some(if k >= 0 { v * power } else { v / power })
    };
    let mut k = 5 - estimate;
    let mut scaled = scaled_by(k)?;
    if scaled >= 1e6 {
        k -= 1;
        scaled = scaled_by(k)?;
    }
    if !(1e5..1e6).contains(&scaled) {
        return None;
    }
    let floor = scaled.floor();
    let fraction = scaled - floor;
    if (fraction - 0.5).abs() <= MARGIN {
        return None;
    }
    // Below 1e6 and at least 1e5: the conversions are exact.
    let mut n = floor as u32 + u32::from(fraction > 0.5);
    let mut exponent = 5 - k;
    if n == 1_000_000 {
        n = 100_000;
        exponent += 1;
    }
    Some((n, exponent))
}

/// `v` (finite, above zero) correctly rounded to six significant digits by
/// the exact (big-number) formatting of the standard library: the ASCII
/// digits and the decimal exponent of the first.
fn six_digits_exact(v: f64) -> Option<([u8; PRECISION], i32)> {
    // Rust's `{:.5e}` is the exact binary value correctly rounded to 6 significant digits with
    // ties to even, like glibc's printf in the default rounding mode: "d.ddddde<exp>".
    let mut buf = StackBuf {
        buf: [0; 40],
        len: 0,
    };
    write!(buf, "{:.*e}", PRECISION - 1, v).ok()?;
    let text = buf.buf.get(..buf.len).unwrap_or(&[]);
    let e_pos = text.iter().position(|&b| b == b'e')?;
    let (mantissa, exponent) = text.split_at(e_pos);
    let exponent = parse_exponent(exponent.get(1..).unwrap_or(&[]));

    // Six significant digits without the decimal point.
    let mut digits = [b'0'; PRECISION];
    let mut n = 0;
    for &b in mantissa {
        if b.is_ascii_digit() {
            if let Some(slot) = digits.get_mut(n) {
                *slot = b;
                n += 1;
            }
        }
    }
    Some((digits, exponent))
}

/// Parses the decimal exponent Rust's `{:e}` prints (`-4`, `23`).
fn parse_exponent(text: &[u8]) -> i32 {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let magnitude = digits.iter().fold(0i32, |acc, &b| {
        acc.saturating_mul(10)
            .saturating_add(i32::from(b.wrapping_sub(b'0')))
    });
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

/// Appends what C++ `std::ostream << v` prints for a `float` with default flags.
///
/// The stream promotes the float to `double` first, so this is
/// `write_f64_cpp_ostream(out, f64::from(v))`: `0.1f32` prints `0.1`, the smallest subnormal
/// prints `1.4013e-45`.
pub fn write_f32_cpp_ostream(out: &mut Vec<u8>, v: f32) {
    write_f64_cpp_ostream(out, f64::from(v));
}

/// [`write_f64_cpp_ostream`] into a new `String`.
pub fn f64_to_cpp_ostream_string(v: f64) -> String {
    let mut out = Vec::with_capacity(16);
    write_f64_cpp_ostream(&mut out, v);
    String::from_utf8(out).unwrap_or_default()
}

/// [`write_f32_cpp_ostream`] into a new `String`.
pub fn f32_to_cpp_ostream_string(v: f32) -> String {
    f64_to_cpp_ostream_string(f64::from(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(v: f64) -> String {
        f64_to_cpp_ostream_string(v)
    }

    #[test]
    fn spec_section_6_4_examples_match() {
        assert_eq!(g(2.5), "2.5");
        assert_eq!(g(0.1), "0.1");
        assert_eq!(g(1.0), "1");
        assert_eq!(g(-0.0), "-0");
        assert_eq!(g(0.0), "0");
        assert_eq!(g(1e-05), "1e-05");
        assert_eq!(g(0.0001), "0.0001");
        assert_eq!(g(123456789.0), "1.23457e+08");
        assert_eq!(g(1e15), "1e+15");
        assert_eq!(g(9007199254740992.0), "9.0072e+15");
        assert_eq!(g(f64::NAN), "nan");
        assert_eq!(g(f64::INFINITY), "inf");
        assert_eq!(g(f64::NEG_INFINITY), "-inf");
        assert_eq!(f32_to_cpp_ostream_string(f32::from_bits(1)), "1.4013e-45");
        assert_eq!(f32_to_cpp_ostream_string(0.1), "0.1");
    }

    #[test]
    fn negative_nan_prints_with_its_sign_like_libstdcxx() {
        assert_eq!(g(-f64::NAN), "-nan");
        assert_eq!(g(f64::from_bits(0xfff8_0000_0000_0000)), "-nan");
        assert_eq!(g(f64::from_bits(0x7ff8_0000_0000_0001)), "nan");
        assert_eq!(f32_to_cpp_ostream_string(-f32::NAN), "-nan");
    }

    #[test]
    fn exact_ties_round_to_even() {
        // 1234565 and 1234575 are exact; the 7th digit is a 5 followed by nothing.
        assert_eq!(g(1234565.0), "1.23456e+06");
        assert_eq!(g(1234575.0), "1.23458e+06");
        // 2^-10 = 0.0009765625 -> 9.76562|5e-04.
        assert_eq!(g(0.0009765625), "0.000976562");
        // 0.5 below the 6th digit but not an exact tie rounds up.
        assert_eq!(g(1234565.0000000002), "1.23457e+06");
    }

    /// The digits the fast path gives are those of the exact formatting,
    /// wherever it does not decline: random doubles over the whole range,
    /// floats (as Paddle's float attributes reach it) and short decimals.
    #[test]
    fn the_fast_path_rounds_as_the_exact_formatting() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut values: Vec<f64> = Vec::new();
        for _ in 0..200_000 {
            let bits = next();
            values.push(f64::from_bits(bits >> 1));
            values.push(f64::from(f32::from_bits((bits >> 33) as u32)));
            values.push((bits % 2_000_001) as f64 / 10f64.powi((bits >> 40) as i32 % 12));
        }
        let mut fast = 0;
        for v in values.into_iter().filter(|v| v.is_finite() && *v > 0.0) {
            if let Some((n, exponent)) = six_digits_fast(v) {
                fast += 1;
                let (digits, exact_exponent) = six_digits_exact(v).unwrap_or_default();
                assert_eq!(
                    (n.to_string().into_bytes(), exponent),
                    (digits.to_vec(), exact_exponent),
                    "{v:e}"
                );
            }
        }
        // Most doubles of the whole range lie beyond the exact powers of ten.
        assert!(fast > 300_000, "{fast}");
    }

    #[test]
    fn fixed_and_exponent_boundaries_match_printf() {
        assert_eq!(g(999999.0), "999999");
        assert_eq!(g(999999.5), "1e+06");
        assert_eq!(g(100000.0), "100000");
        assert_eq!(g(1000000.0), "1e+06");
        assert_eq!(g(0.0001), "0.0001");
        assert_eq!(g(0.00009999995), "0.0001");
        assert_eq!(g(0.0000999999), "9.99999e-05");
        assert_eq!(g(1e100), "1e+100");
        assert_eq!(g(-1.5e-300), "-1.5e-300");
        assert_eq!(g(f64::MAX), "1.79769e+308");
        assert_eq!(g(5e-324), "4.94066e-324");
        assert_eq!(g(10.0), "10");
        assert_eq!(g(0.5), "0.5");
        assert_eq!(g(-476.4663769236316), "-476.466");
    }
}
