//! Number formatting compatible with the C++ code that writes Paddle's files.
//!
//! * [`write_f64_nlohmann`]: a `double` as nlohmann::json 3.11 `dump()` writes it (Grisu2
//!   digits, nlohmann's layout; format spec §4.3/§4.4). Used for every float in a model file.
//! * [`write_f64_cpp_ostream`], [`write_f32_cpp_ostream`]: what C++ `std::ostream << value`
//!   prints with default flags (`%g`, 6 significant digits; format spec §6.4). Used by the
//!   textual IR printer.
//! * [`write_i64`], [`write_u64`]: plain decimal integers (JSON integers, §4.3).
//!
//! Every function appends to a `Vec<u8>` without any other allocation; the `*_string`
//! variants return a `String` for tests and messages.
//!
//! ```
//! use pir_json::number;
//! let mut out = Vec::new();
//! number::write_f64_nlohmann(&mut out, 0.1f32 as f64);
//! out.push(b' ');
//! number::write_f32_cpp_ostream(&mut out, 0.1f32);
//! out.push(b' ');
//! number::write_i64(&mut out, -9007199254740993);
//! assert_eq!(out, b"0.10000000149011612 0.1 -9007199254740993");
//! ```

mod grisu;
mod printf;

pub use grisu::{f64_to_nlohmann_string, write_f64_nlohmann};
pub use printf::{
    f32_to_cpp_ostream_string, f64_to_cpp_ostream_string, write_f32_cpp_ostream,
    write_f64_cpp_ostream,
};

/// Two-digit pairs "00" to "99" for integer formatting.
const DIGIT_PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends the decimal digits of `v`.
#[inline]
pub fn write_u64(out: &mut Vec<u8>, mut v: u64) {
    if v < 10 {
        // Flags, small ids and dims: one digit, no buffer.
        out.push(b'0' + v as u8);
        return;
    }
    let mut buf = [0u8; 20];
    let mut pos = buf.len();
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        pos -= 2;
        if let (Some(dst), Some(src)) = (buf.get_mut(pos..pos + 2), DIGIT_PAIRS.get(pair..pair + 2))
        {
            dst.copy_from_slice(src);
        }
    }
    if v >= 10 {
        let pair = v as usize * 2;
        pos -= 2;
        if let (Some(dst), Some(src)) = (buf.get_mut(pos..pos + 2), DIGIT_PAIRS.get(pair..pair + 2))
        {
            dst.copy_from_slice(src);
        }
    } else {
        pos -= 1;
        if let Some(dst) = buf.get_mut(pos) {
            *dst = b'0' + v as u8;
        }
    }
    out.extend_from_slice(buf.get(pos..).unwrap_or(&[]));
}

/// Appends `v` in decimal, with `-` for negative values (full `i64` range).
#[inline]
pub fn write_i64(out: &mut Vec<u8>, v: i64) {
    if v < 0 {
        out.push(b'-');
    }
    write_u64(out, v.unsigned_abs());
}

/// Appends significant decimal `digits` (ASCII) with the decimal point
/// after the first `point` of them: `dd.ddd`; `ddd00` when `point` is at or
/// past the end (no point written); `0.00ddd` when `point <= 0`. The fixed
/// notation of both C's `%g` and nlohmann's `format_buffer`.
fn push_fixed(out: &mut Vec<u8>, digits: &[u8], point: i32) {
    if point <= 0 {
        out.extend_from_slice(b"0.");
        out.resize(out.len() + point.unsigned_abs() as usize, b'0');
        out.extend_from_slice(digits);
    } else if let Some((int_part, frac_part)) = digits
        .split_at_checked(point as usize)
        .filter(|(_, f)| !f.is_empty())
    {
        out.extend_from_slice(int_part);
        out.push(b'.');
        out.extend_from_slice(frac_part);
    } else {
        out.extend_from_slice(digits);
        out.resize(out.len() + (point as usize - digits.len()), b'0');
    }
}

/// Appends `d[.ddd]e±XX`: the first digit, the rest after a point, and the
/// exponent with its sign and at least two digits (C's `%g` and nlohmann
/// agree on this form).
fn push_scientific(out: &mut Vec<u8>, digits: &[u8], exponent: i32) {
    if let Some((first, rest)) = digits.split_first() {
        out.push(*first);
        if !rest.is_empty() {
            out.push(b'.');
            out.extend_from_slice(rest);
        }
    }
    out.push(b'e');
    out.push(if exponent < 0 { b'-' } else { b'+' });
    let k = exponent.unsigned_abs();
    if k >= 100 {
        out.push(b'0' + (k / 100 % 10) as u8);
    }
    out.push(b'0' + (k / 10 % 10) as u8);
    out.push(b'0' + (k % 10) as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(v: i64) -> String {
        let mut out = Vec::new();
        write_i64(&mut out, v);
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn integers_are_plain_decimal_over_the_full_range() {
        for v in [
            0,
            1,
            -1,
            9,
            10,
            99,
            100,
            101,
            -5,
            12345,
            -9007199254740993,
            i64::MAX,
            i64::MIN,
        ] {
            assert_eq!(int(v), v.to_string());
        }
        let mut out = Vec::new();
        write_u64(&mut out, u64::MAX);
        assert_eq!(out, u64::MAX.to_string().as_bytes());
        let mut x: u64 = 88172645463325252;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let shift = (x % 64) as u32;
            let v = x >> shift;
            let mut out = Vec::new();
            write_u64(&mut out, v);
            assert_eq!(out, v.to_string().as_bytes());
        }
    }
}
