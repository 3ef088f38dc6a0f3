//! Grisu2 digit generation and layout exactly as nlohmann::json 3.11 writes doubles.
//!
//! nlohmann::json formats a `double` with Florian Loitsch's Grisu2 algorithm (PLDI 2010) in the
//! variant of its `detail/conversions/to_chars.hpp` (MIT licensed), followed by its own layout
//! rules. Grisu2 does not always find the shortest round-trip digits (about 0.17 % of random
//! doubles get a different last digit or one digit more than Ryu or `{:?}` would print), so
//! byte-compatible output needs this exact port, constants included. See the format spec
//! §4.3/§4.4.
//!
//! ```
//! let mut out = Vec::new();
//! pir_json::number::write_f64_nlohmann(&mut out, -476.4663769236316);
//! assert_eq!(out, b"-476.46637692363163");
//! ```

/// A "do-it-yourself floating point" number `f × 2^e`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DiyFp {
    f: u64,
    e: i32,
}

impl DiyFp {
    /// The product of two normalized numbers, rounded (ties up) to 64 bits.
    fn mul(self, other: DiyFp) -> DiyFp {
        let p = u128::from(self.f) * u128::from(other.f);
        // Adding 2^63 before the shift rounds the low half exactly like nlohmann's 32-bit
        // partial-product code (`Q += 1 << 31`).
        let h = (p + (1u128 << 63)) >> 64;
        DiyFp {
            // The product of two values below 2^64, plus 2^63, shifted right by 64, is below 2^64.
            f: h as u64,
            e: self.e + other.e + 64,
        }
    }

    /// Shifts left until the most significant bit is set. `f` must be non-zero.
    fn normalize(self) -> DiyFp {
        let shift = self.f.leading_zeros();
        DiyFp {
            f: self.f << shift,
            e: self.e - shift as i32,
        }
    }

    /// Expresses `self` with the (smaller) exponent `target_e`.
    fn normalize_to(self, target_e: i32) -> DiyFp {
        let delta = self.e - target_e;
        debug_assert!((0..64).contains(&delta));
        DiyFp {
            f: self.f << (delta as u32 & 63),
            e: target_e,
        }
    }
}

/// Normalized `w`, and the boundaries `m-` and `m+` of a positive finite double.
struct Boundaries {
    w: DiyFp,
    minus: DiyFp,
    plus: DiyFp,
}

fn compute_boundaries(value: f64) -> Boundaries {
    const PRECISION: i32 = 53;
    const BIAS: i32 = 1023 + (PRECISION - 1);
    const MIN_EXP: i32 = 1 - BIAS;
    const HIDDEN_BIT: u64 = 1 << (PRECISION - 1);

    let bits = value.to_bits();
    let biased_e = (bits >> (PRECISION - 1)) & 0x7ff;
    let fraction = bits & (HIDDEN_BIT - 1);
    let v = if biased_e == 0 {
        DiyFp {
            f: fraction,
            e: MIN_EXP,
        }
    } else {
        DiyFp {
            f: fraction + HIDDEN_BIT,
            e: biased_e as i32 - BIAS,
        }
    };
    // The lower boundary is closer iff the significand is a power of two and the value is not
    // the smallest normal number.
    let lower_boundary_is_closer = fraction == 0 && biased_e > 1;
    let m_plus = DiyFp {
        f: 2 * v.f + 1,
        e: v.e - 1,
    };
    let m_minus = if lower_boundary_is_closer {
        DiyFp {
            f: 4 * v.f - 1,
            e: v.e - 2,
        }
    } else {
        DiyFp {
            f: 2 * v.f - 1,
            e: v.e - 1,
        }
    };
    let plus = m_plus.normalize();
    let minus = m_minus.normalize_to(plus.e);
    Boundaries {
        w: v.normalize(),
        minus,
        plus,
    }
}

const ALPHA: i32 = -60;
const GAMMA: i32 = -32;

/// A cached power of ten: `f × 2^e ≈ 10^k`.
struct CachedPower {
    f: u64,
    e: i32,
    k: i32,
}

const CACHED_POWERS_MIN_DEC_EXP: i32 = -300;
const CACHED_POWERS_DEC_STEP: i32 = 8;

/// The normalized 64-bit approximations of `10^k`, `k = -300, -292, …, 324`, as in nlohmann.
#[rustfmt::skip]
const CACHED_POWERS: [CachedPower; 79] = [
    CachedPower { f: 0xAB70FE17C79AC6CA, e: -1060, k: -300 },
    CachedPower { f: 0xFF77B1FCBEBCDC4F, e: -1034, k: -292 },
    CachedPower { f: 0xBE5691EF416BD60C, e: -1007, k: -284 },
    CachedPower { f: 0x8DD01FAD907FFC3C, e:  -980, k: -276 },
    CachedPower { f: 0xD3515C2831559A83, e:  -954, k: -268 },
    CachedPower { f: 0x9D71AC8FADA6C9B5, e:  -927, k: -260 },
    CachedPower { f: 0xEA9C227723EE8BCB, e:  -901, k: -252 },
    CachedPower { f: 0xAECC49914078536D, e:  -874, k: -244 },
    CachedPower { f: 0x823C12795DB6CE57, e:  -847, k: -236 },
    CachedPower { f: 0xC21094364DFB5637, e:  -821, k: -228 },
    CachedPower { f: 0x9096EA6F3848984F, e:  -794, k: -220 },
    CachedPower { f: 0xD77485CB25823AC7, e:  -768, k: -212 },
    CachedPower { f: 0xA086CFCD97BF97F4, e:  -741, k: -204 },
    CachedPower { f: 0xEF340A98172AACE5, e:  -715, k: -196 },
    CachedPower { f: 0xB23867FB2A35B28E, e:  -688, k: -188 },
    CachedPower { f: 0x84C8D4DFD2C63F3B, e:  -661, k: -180 },
    CachedPower { f: 0xC5DD44271AD3CDBA, e:  -635, k: -172 },
    CachedPower { f: 0x936B9FCEBB25C996, e:  -608, k: -164 },
    CachedPower { f: 0xDBAC6C247D62A584, e:  -582, k: -156 },
    CachedPower { f: 0xA3AB66580D5FDAF6, e:  -555, k: -148 },
    CachedPower { f: 0xF3E2F893DEC3F126, e:  -529, k: -140 },
    CachedPower { f: 0xB5B5ADA8AAFF80B8, e:  -502, k: -132 },
    CachedPower { f: 0x87625F056C7C4A8B, e:  -475, k: -124 },
    CachedPower { f: 0xC9BCFF6034C13053, e:  -449, k: -116 },
    CachedPower { f: 0x964E858C91BA2655, e:  -422, k: -108 },
    CachedPower { f: 0xDFF9772470297EBD, e:  -396, k: -100 },
    CachedPower { f: 0xA6DFBD9FB8E5B88F, e:  -369, k:  -92 },
    CachedPower { f: 0xF8A95FCF88747D94, e:  -343, k:  -84 },
    CachedPower { f: 0xB94470938FA89BCF, e:  -316, k:  -76 },
    CachedPower { f: 0x8A08F0F8BF0F156B, e:  -289, k:  -68 },
    CachedPower { f: 0xCDB02555653131B6, e:  -263, k:  -60 },
    CachedPower { f: 0x993FE2C6D07B7FAC, e:  -236, k:  -52 },
    CachedPower { f: 0xE45C10C42A2B3B06, e:  -210, k:  -44 },
    CachedPower { f: 0xAA242499697392D3, e:  -183, k:  -36 },
    CachedPower { f: 0xFD87B5F28300CA0E, e:  -157, k:  -28 },
    CachedPower { f: 0xBCE5086492111AEB, e:  -130, k:  -20 },
    CachedPower { f: 0x8CBCCC096F5088CC, e:  -103, k:  -12 },
    CachedPower { f: 0xD1B71758E219652C, e:   -77, k:   -4 },
    CachedPower { f: 0x9C40000000000000, e:   -50, k:    4 },
    CachedPower { f: 0xE8D4A51000000000, e:   -24, k:   12 },
    CachedPower { f: 0xAD78EBC5AC620000, e:     3, k:   20 },
    CachedPower { f: 0x813F3978F8940984, e:    30, k:   28 },
    CachedPower { f: 0xC097CE7BC90715B3, e:    56, k:   36 },
    CachedPower { f: 0x8F7E32CE7BEA5C70, e:    83, k:   44 },
    CachedPower { f: 0xD5D238A4ABE98068, e:   109, k:   52 },
    CachedPower { f: 0x9F4F2726179A2245, e:   136, k:   60 },
    CachedPower { f: 0xED63A231D4C4FB27, e:   162, k:   68 },
    CachedPower { f: 0xB0DE65388CC8ADA8, e:   189, k:   76 },
    CachedPower { f: 0x83C7088E1AAB65DB, e:   216, k:   84 },
    CachedPower { f: 0xC45D1DF942711D9A, e:   242, k:   92 },
    CachedPower { f: 0x924D692CA61BE758, e:   269, k:  100 },
    CachedPower { f: 0xDA01EE641A708DEA, e:   295, k:  108 },
    CachedPower { f: 0xA26DA3999AEF774A, e:   322, k:  116 },
    CachedPower { f: 0xF209787BB47D6B85, e:   348, k:  124 },
    CachedPower { f: 0xB454E4A179DD1877, e:   375, k:  132 },
    CachedPower { f: 0x865B86925B9BC5C2, e:   402, k:  140 },
    CachedPower { f: 0xC83553C5C8965D3D, e:   428, k:  148 },
    CachedPower { f: 0x952AB45CFA97A0B3, e:   455, k:  156 },
    CachedPower { f: 0xDE469FBD99A05FE3, e:   481, k:  164 },
    CachedPower { f: 0xA59BC234DB398C25, e:   508, k:  172 },
    CachedPower { f: 0xF6C69A72A3989F5C, e:   534, k:  180 },
    CachedPower { f: 0xB7DCBF5354E9BECE, e:   561, k:  188 },
    CachedPower { f: 0x88FCF317F22241E2, e:   588, k:  196 },
    CachedPower { f: 0xCC20CE9BD35C78A5, e:   614, k:  204 },
    CachedPower { f: 0x98165AF37B2153DF, e:   641, k:  212 },
    CachedPower { f: 0xE2A0B5DC971F303A, e:   667, k:  220 },
    CachedPower { f: 0xA8D9D1535CE3B396, e:   694, k:  228 },
    CachedPower { f: 0xFB9B7CD9A4A7443C, e:   720, k:  236 },
    CachedPower { f: 0xBB764C4CA7A44410, e:   747, k:  244 },
    CachedPower { f: 0x8BAB8EEFB6409C1A, e:   774, k:  252 },
    CachedPower { f: 0xD01FEF10A657842C, e:   800, k:  260 },
    CachedPower { f: 0x9B10A4E5E9913129, e:   827, k:  268 },
    CachedPower { f: 0xE7109BFBA19C0C9D, e:   853, k:  276 },
    CachedPower { f: 0xAC2820D9623BF429, e:   880, k:  284 },
    CachedPower { f: 0x80444B5E7AA7CF85, e:   907, k:  292 },
    CachedPower { f: 0xBF21E44003ACDD2D, e:   933, k:  300 },
    CachedPower { f: 0x8E679C2F5E44FF8F, e:   960, k:  308 },
    CachedPower { f: 0xD433179D9C8CB841, e:   986, k:  316 },
    CachedPower { f: 0x9E19DB92B4E31BA9, e:  1013, k:  324 },
];

/// The cached power `c` with `ALPHA <= c.e + e + 64 <= GAMMA` for a normalized binary
/// exponent `e` of a double's boundary.
fn cached_power_for_binary_exponent(e: i32) -> &'static CachedPower {
    // k = ceil((ALPHA - e - 1) * log10(2)) with log10(2) ≈ 78913 / 2^18; integer division
    // truncates toward zero like C++.
    let f = ALPHA - e - 1;
    let k = (f * 78913) / (1 << 18) + i32::from(f > 0);
    let index =
        (-CACHED_POWERS_MIN_DEC_EXP + k + (CACHED_POWERS_DEC_STEP - 1)) / CACHED_POWERS_DEC_STEP;
    let index = usize::try_from(index)
        .unwrap_or(0)
        .min(CACHED_POWERS.len() - 1);
    &CACHED_POWERS[index]
}

/// Number of decimal digits `k` of `n` and `10^(k-1)`; `(1, 1)` for `n == 0`.
fn find_largest_pow10(n: u32) -> (i32, u32) {
    let mut pow10 = 1_000_000_000u32;
    let mut k = 10;
    while k > 1 && n < pow10 {
        pow10 /= 10;
        k -= 1;
    }
    (k, pow10)
}

/// A small digit buffer: Grisu2 produces at most 17 digits for a double.
struct Digits {
    buf: [u8; 20],
    len: usize,
}

impl Digits {
    fn push(&mut self, digit: u8) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b'0' + digit;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
}

fn grisu2_round(digits: &mut Digits, dist: u64, delta: u64, mut rest: u64, ten_k: u64) {
    // Move the last digit down while that brings the number closer to w and stays in range.
    while rest < dist
        && delta - rest >= ten_k
        && (rest + ten_k < dist || dist - rest > rest + ten_k - dist)
    {
        if let Some(last) = digits
            .len
            .checked_sub(1)
            .and_then(|i| digits.buf.get_mut(i))
        {
            *last -= 1;
        }
        rest += ten_k;
    }
}

/// Generates the digits of `M+` and adjusts `decimal_exponent`.
fn grisu2_digit_gen(
    digits: &mut Digits,
    decimal_exponent: &mut i32,
    m_minus: DiyFp,
    w: DiyFp,
    m_plus: DiyFp,
) {
    debug_assert!(m_plus.e >= ALPHA && m_plus.e <= GAMMA);
    let mut delta = m_plus.f - m_minus.f;
    let mut dist = m_plus.f - w.f;
    let shift = (-m_plus.e) as u32; // 32 <= shift <= 60
    let one_f = 1u64 << shift;

    // Since shift >= 32, the integer part fits in 32 bits.
    let mut p1 = (m_plus.f >> shift) as u32;
    let mut p2 = m_plus.f & (one_f - 1);

    let (k, mut pow10) = find_largest_pow10(p1);
    let mut n = k;
    while n > 0 {
        let d = p1 / pow10;
        let r = p1 % pow10;
        digits.push(d as u8);
        p1 = r;
        n -= 1;
        let rest = (u64::from(p1) << shift) + p2;
        if rest <= delta {
            *decimal_exponent += n;
            let ten_n = u64::from(pow10) << shift;
            grisu2_round(digits, dist, delta, rest, ten_n);
            return;
        }
        pow10 /= 10;
    }

    let mut m = 0;
    loop {
        p2 = p2.wrapping_mul(10);
        let d = p2 >> shift;
        let r = p2 & (one_f - 1);
        digits.push(d as u8);
        p2 = r;
        m += 1;
        delta = delta.wrapping_mul(10);
        dist = dist.wrapping_mul(10);
        if p2 <= delta {
            break;
        }
    }
    *decimal_exponent -= m;
    grisu2_round(digits, dist, delta, p2, one_f);
}

/// Grisu2 digits and decimal exponent of a positive finite double: `v ≈ digits × 10^exp`.
fn grisu2(value: f64) -> (Digits, i32) {
    let b = compute_boundaries(value);
    let cached = cached_power_for_binary_exponent(b.plus.e);
    let c_minus_k = DiyFp {
        f: cached.f,
        e: cached.e,
    };
    let w = b.w.mul(c_minus_k);
    let w_minus = b.minus.mul(c_minus_k);
    let w_plus = b.plus.mul(c_minus_k);
    // Shrink the interval by one unit on each side to stay within the rounding interval
    // despite the inexact multiplication.
    let m_minus = DiyFp {
        f: w_minus.f + 1,
        e: w_minus.e,
    };
    let m_plus = DiyFp {
        f: w_plus.f - 1,
        e: w_plus.e,
    };
    let mut decimal_exponent = -cached.k;
    let mut digits = Digits {
        buf: [0; 20],
        len: 0,
    };
    grisu2_digit_gen(&mut digits, &mut decimal_exponent, m_minus, w, m_plus);
    (digits, decimal_exponent)
}

/// nlohmann's `format_buffer` with `min_exp = -4`, `max_exp = 15` (double):
/// fixed notation for a point within `(-4, 15]`, with `.0` after an
/// integer (`digits[000].0`, `dig.its`, `0.[000]digits`), else
/// `d[.igits]e±NN`.
fn format_buffer(out: &mut Vec<u8>, digits: &[u8], decimal_exponent: i32) {
    const MIN_EXP: i32 = -4;
    const MAX_EXP: i32 = 15;
    let k = digits.len() as i32;
    let n = k + decimal_exponent;
    if MIN_EXP < n && n <= MAX_EXP {
        super::push_fixed(out, digits, n);
        if k <= n {
            out.extend_from_slice(b".0");
        }
    } else {
        super::push_scientific(out, digits, n - 1);
    }
}

/// Appends `v` as nlohmann::json 3.11 `dump()` writes a `double`.
///
/// Finite values follow the format spec §4.3 (`1.0`, `0.1`, `-0.0`, `1e-05`, `1e+15`,
/// `-476.46637692363163`). NaN and ±infinity are written as `null`, which is what nlohmann
/// writes for them; callers that need another spelling (Paddle's `"VD":"NaN"`) must handle
/// non-finite values before calling.
pub fn write_f64_nlohmann(out: &mut Vec<u8>, v: f64) {
    if !v.is_finite() {
        out.extend_from_slice(b"null");
        return;
    }
    if v.is_sign_negative() {
        out.push(b'-');
    }
    let v = v.abs();
    if v == 0.0 {
        out.extend_from_slice(b"0.0");
        return;
    }
    let (digits, decimal_exponent) = grisu2(v);
    format_buffer(out, digits.as_slice(), decimal_exponent);
}

/// [`write_f64_nlohmann`] into a new `String` (convenient in tests and error messages).
pub fn f64_to_nlohmann_string(v: f64) -> String {
    let mut out = Vec::with_capacity(24);
    write_f64_nlohmann(&mut out, v);
    // The output is ASCII by construction.
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: f64) -> String {
        f64_to_nlohmann_string(v)
    }

    #[test]
    fn appendix_a3_vectors_match() {
        let cases: &[(f64, &str)] = &[
            (1.0, "1.0"),
            (0.1, "0.1"),
            (0.2, "0.2"),
            (0.30000000000000004, "0.30000000000000004"),
            (f64::from(0.1f32), "0.10000000149011612"),
            (1e-05, "1e-05"),
            (0.0001, "0.0001"),
            (4.35e-05, "4.35e-05"),
            (123456789.0, "123456789.0"),
            (1e15, "1e+15"),
            (1e16, "1e+16"),
            (1e22, "1e+22"),
            (1e23, "9.999999999999999e+22"),
            (8.41e21, "8.409999999999999e+21"),
            (9007199254740992.0, "9.007199254740992e+15"),
            (1234567890123456.7, "1.2345678901234567e+15"),
            (12345678901234567890.0, "1.2345678901234567e+19"),
            (5e-324, "5e-324"),
            (2.2250738585072014e-308, "2.2250738585072014e-308"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (3.4028234663852886e38, "3.4028234663852886e+38"),
            (-0.0, "-0.0"),
            (0.0, "0.0"),
        ];
        for &(v, want) in cases {
            assert_eq!(s(v), want, "value {v:?}");
        }
    }

    #[test]
    fn section_4_3_non_shortest_examples_match() {
        let cases: &[(f64, &str)] = &[
            (-476.4663769236316, "-476.46637692363163"),
            (1.6269830806113058e15, "1.6269830806113057e+15"),
            (3.092535278770144e18, "3.0925352787701443e+18"),
            (2.80827964618071e-115, "2.8082796461807102e-115"),
            (2.7589442517007837e186, "2.7589442517007836e+186"),
            (-1.1131781205920022e15, "-1.1131781205920023e+15"),
        ];
        for &(v, want) in cases {
            assert_eq!(s(v), want, "value {v:?}");
        }
    }

    #[test]
    fn section_4_3_layout_examples_match() {
        let cases: &[(f64, &str)] = &[
            (100.0, "100.0"),
            (2.5, "2.5"),
            (12345.678, "12345.678"),
            (0.3333333333333333, "0.3333333333333333"),
            (1.5e300, "1.5e+300"),
            (1e-7, "1e-07"),
            (3.0, "3.0"),
            (-2.0, "-2.0"),
            (1e300, "1e+300"),
            (0.5, "0.5"),
            (999999999999999.0, "999999999999999.0"),
        ];
        for &(v, want) in cases {
            assert_eq!(s(v), want, "value {v:?}");
        }
    }

    #[test]
    fn non_finite_values_are_written_as_null() {
        assert_eq!(s(f64::NAN), "null");
        assert_eq!(s(-f64::NAN), "null");
        assert_eq!(s(f64::INFINITY), "null");
        assert_eq!(s(f64::NEG_INFINITY), "null");
    }

    #[test]
    fn output_always_reads_back_to_the_same_double() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from_bits(x);
            if !v.is_finite() {
                continue;
            }
            let text = s(v);
            let back: f64 = text.parse().unwrap_or(f64::NAN);
            assert_eq!(back.to_bits(), v.to_bits(), "{text}");
        }
    }
}
