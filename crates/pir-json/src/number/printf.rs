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

    // Rust's `{:.5e}` is the exact binary value correctly rounded to 6 significant digits with
    // ties to even, like glibc's printf in the default rounding mode: "d.ddddde<exp>".
    let mut buf = StackBuf {
        buf: [0; 40],
        len: 0,
    };
    if write!(buf, "{:.*e}", PRECISION - 1, v).is_err() {
        return;
    }
    let text = buf.buf.get(..buf.len).unwrap_or(&[]);
    let Some(e_pos) = text.iter().position(|&b| b == b'e') else {
        return;
    };
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
