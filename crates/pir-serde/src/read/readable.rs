//! Paddle's indented (`readable`) files read as their compact text.
//!
//! Such a file is mostly indentation (a 14-op model is 35 KiB indented,
//! 4 KiB compact), and the reader's fast paths match Paddle's compact text
//! byte by byte. Removing the white space outside strings in one pass
//! gives the compact text, which the streamed reader then reads as it
//! reads a compact file; the program is the same, and only the header's
//! `readable` flag tells the two apart.

use std::ops::Range;
use std::sync::Arc;

use pir_core::IrContext;

use super::streamed::read_streamed;
use super::threads::Plan;
use super::{LoadedProgram, ReadOptions};

/// Whether `bytes` start as Paddle's indented form does.
pub(super) fn is_readable(bytes: &[u8]) -> bool {
    bytes.starts_with(b"{\n")
}

/// Reads an indented file through its compact text (see the module's
/// documentation). `None` when the text cannot be made compact safely or
/// its compact text is not read as a stream (another layout, or any
/// error): the caller then reads the original bytes, so that errors are
/// reported against them.
pub(super) fn read_readable(
    ctx: Arc<IrContext>,
    bytes: &[u8],
    options: &ReadOptions,
    release: &dyn Fn(Range<usize>),
) -> Option<LoadedProgram> {
    let compact = without_white_space(bytes)?;
    // The original was read through once, and is read again only after a
    // failure: the owner of a large mapping may drop its pages meanwhile.
    if bytes.len() >= Plan::default().release_checked_min {
        release(0..bytes.len());
    }
    // The compact text is this reader's own buffer: its ranges are not the
    // caller's to release.
    let mut loaded = read_streamed(ctx, &compact, options, &|_| {}).ok()??;
    loaded.readable = true;
    Some(loaded)
}

/// `bytes` without the spaces and line feeds outside strings (tabs and
/// carriage returns, which Paddle does not write, stay); strings are kept
/// byte for byte. `None` when a string is not closed, or when removing
/// white space would join two tokens into one (`1 2` into `12`, `- 1` into
/// `-1`): such text is invalid JSON, and must stay so.
pub(super) fn without_white_space(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len().checked_add(wide::BLOCK)?);
    let state = match wide::available() {
        true => wide::strip(bytes, &mut out)?,
        false => bytewise(bytes, State::default(), &mut out)?,
    };
    (!state.in_string).then_some(out)
}

/// Where the text read so far leaves the next byte.
#[derive(Clone, Copy, Debug, Default)]
struct State {
    /// The next byte is inside a string.
    in_string: bool,
    /// The next byte is escaped (the last was a backslash in a string).
    escaped: bool,
    /// The last byte was white space, removed.
    removed: bool,
}

/// [`without_white_space`] 64 bytes at a time, as bit masks of their
/// quotes, white space and token bytes, with AVX-512 where the processor
/// has it: an indented file is mostly indentation, and a byte at a time
/// its removal took four times as long as reading the compact text.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod wide {
    use std::arch::x86_64::{
        __m512i, _mm512_cmpeq_epi8_mask, _mm512_cmpneq_epi8_mask, _mm512_loadu_si512,
        _mm512_maskz_compress_epi8, _mm512_permutexvar_epi8, _mm512_set1_epi8, _mm512_storeu_si512,
        _mm_clmulepi64_si128, _mm_cvtsi128_si64, _mm_cvtsi64_si128, _mm_set1_epi8,
    };

    use super::{bytewise, State, IN_TOKEN};

    /// How many bytes are read at once.
    pub(super) const BLOCK: usize = 64;

    /// Whether the processor has the instructions [`strip`] uses.
    pub(super) fn available() -> bool {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi")
            && std::is_x86_feature_detected!("avx512vbmi2")
            && std::is_x86_feature_detected!("pclmulqdq")
            && std::is_x86_feature_detected!("popcnt")
    }

    /// At index `i`, the byte outside [`IN_TOKEN`] whose low six bits are
    /// `i` (no two share them), else one whose low six bits are not `i`:
    /// a byte is a token's unless it equals the entry its low six bits
    /// pick, which one lookup of the 64 bytes of a block tells.
    static NOT_TOKEN_BY_LOW_BITS: [u8; 64] = {
        let mut table = [0xFF; 64];
        table[0x3F] = 0;
        let mut byte = 0;
        while byte < 256 {
            if !IN_TOKEN[byte] {
                table[byte & 63] = byte as u8;
            }
            byte += 1;
        }
        table
    };

    /// Appends `bytes` without their white space to `out` (see
    /// [`without_white_space`](super::without_white_space)); the state
    /// the text ends in, or `None` where two tokens would join.
    pub(super) fn strip(bytes: &[u8], out: &mut Vec<u8>) -> Option<State> {
        // Room for every byte and a block's store past them: the blocks
        // are stored without asking for room.
        out.reserve(bytes.len().checked_add(BLOCK)?);
        // SAFETY: only called once `available` found the instructions
        // `strip_blocks` is compiled for, with the room it writes in.
        unsafe { strip_blocks(bytes, out) }
    }

    /// A block holding an escape, or starting with an escaped byte, read
    /// a byte at a time; its state, and whether the last byte kept is a
    /// token's. Kept apart: blocks of a model's text seldom hold one.
    #[cold]
    #[inline(never)]
    fn by_bytes(block: &[u8], state: State, out: &mut Vec<u8>) -> Option<(State, bool)> {
        let state = bytewise(block, state, out)?;
        Some((state, out.last().is_some_and(|&b| IN_TOKEN[usize::from(b)])))
    }

    /// [`strip`], for `out` with room for `bytes` and a block more.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,pclmulqdq,popcnt")]
    fn strip_blocks(bytes: &[u8], out: &mut Vec<u8>) -> Option<State> {
        // SAFETY: the table is 64 bytes; the load needs no alignment.
        let not_token = unsafe { _mm512_loadu_si512(NOT_TOKEN_BY_LOW_BITS.as_ptr().cast()) };
        let eq = |v, byte: u8| _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(byte as i8));
        // What the blocks carry to the next, as masks and bits: inside a
        // string (all ones) or not; the next byte escaped; the last byte
        // removed; the last byte kept a token's.
        let (mut inside_mask, mut escaped, mut removed_bit, mut token_bit) = (0u64, false, 0, 0);
        // `out.len()`, kept apart: `out` is not told of the stores until
        // the end.
        let mut end = out.len();
        for block in bytes.chunks(BLOCK) {
            let v = match block.first_chunk::<BLOCK>() {
                // SAFETY: the load reads the block's 64 bytes (no
                // alignment needed).
                Some(full) => unsafe { _mm512_loadu_si512(full.as_ptr().cast()) },
                None => {
                    // Spaces pad the last block: removed, or inside a
                    // string that is not closed.
                    let mut padded = [b' '; BLOCK];
                    padded[..block.len()].copy_from_slice(block);
                    // SAFETY: as above, from the padded copy.
                    unsafe { _mm512_loadu_si512(padded.as_ptr().cast()) }
                }
            };
            if escaped || eq(v, b'\\') != 0 {
                let state = State {
                    in_string: inside_mask != 0,
                    escaped,
                    removed: removed_bit != 0,
                };
                // SAFETY: `end` bytes of `out` are written.
                unsafe { out.set_len(end) };
                let (state, token) = by_bytes(block, state, out)?;
                (escaped, end) = (state.escaped, out.len());
                inside_mask = 0u64.wrapping_sub(u64::from(state.in_string));
                (removed_bit, token_bit) = (u64::from(state.removed), u64::from(token));
                continue;
            }
            let quotes = eq(v, b'"');
            let white = eq(v, b' ') | eq(v, b'\n');
            let token = _mm512_cmpneq_epi8_mask(_mm512_permutexvar_epi8(v, not_token), v);
            // Bit `i` set: byte `i` is inside a string (or opens one), as
            // the parity of the quotes up to it says: their product
            // without carries with all ones. The next block's start
            // depends on this one's by its last bit only, so blocks do
            // not wait for each other's masks.
            let quote_parity =
                _mm_clmulepi64_si128(_mm_cvtsi64_si128(quotes as i64), _mm_set1_epi8(-1), 0);
            let inside = _mm_cvtsi128_si64(quote_parity) as u64 ^ inside_mask;
            let removed = white & !inside;
            // A run of removed bytes after a token byte carries a bit to
            // the byte after the run: a token byte there would join it.
            let carried = token_bit & (removed_bit | removed);
            let after_runs = removed.wrapping_add((token << 1) & removed | carried) & !removed;
            if after_runs & token != 0 {
                return None;
            }
            let keep = !removed;
            // The last byte kept is a token's when the highest bit of
            // `keep` is among the tokens' (the two parts share no bit);
            // a block kept nothing of keeps the bit it found.
            let (kept_tokens, kept_others) = (keep & token, keep & !token);
            if kept_tokens != kept_others {
                token_bit = u64::from(kept_tokens > kept_others);
            }
            let kept = _mm512_maskz_compress_epi8(keep, v);
            // SAFETY: `out` has room for `bytes` and a block more, and
            // `end` is at most the bytes read before this block, so the
            // store's 64 bytes are within it.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(end).cast::<__m512i>(), kept) };
            end += keep.count_ones() as usize;
            inside_mask = ((inside as i64) >> 63) as u64;
            removed_bit = removed >> 63;
        }
        // SAFETY: the first `end` bytes of `out` are its own and the kept
        // bytes stored.
        unsafe { out.set_len(end) };
        Some(State {
            in_string: inside_mask != 0,
            escaped,
            removed: removed_bit != 0,
        })
    }
}

/// Where the processor lacks AVX-512, the text is read a byte at a time.
#[cfg(not(target_arch = "x86_64"))]
mod wide {
    pub(super) const BLOCK: usize = 0;

    pub(super) fn available() -> bool {
        false
    }

    pub(super) fn strip(_: &[u8], _: &mut Vec<u8>) -> Option<super::State> {
        None
    }
}

/// Appends `bytes` without their white space to `out` a byte at a time,
/// from `state` (blocks holding an escape, or starting with an escaped
/// byte); the state the bytes end in, or `None` where two tokens would join.
fn bytewise(bytes: &[u8], mut state: State, out: &mut Vec<u8>) -> Option<State> {
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        at += 1;
        if state.in_string {
            if state.escaped {
                state.escaped = false;
            } else if byte == b'\\' {
                state.escaped = true;
            } else if byte == b'"' {
                state.in_string = false;
            }
        } else if byte == b' ' || byte == b'\n' {
            if byte == b'\n' {
                at = skip_spaces(bytes, at);
            }
            state.removed = true;
            continue;
        } else {
            if state.removed {
                if let Some(&last) = out.last() {
                    if IN_TOKEN[usize::from(last)] && IN_TOKEN[usize::from(byte)] {
                        return None;
                    }
                }
            }
            state.in_string = byte == b'"';
        }
        state.removed = false;
        out.push(byte);
    }
    Some(state)
}

/// Past the spaces from `at` (a line's indentation), 32 then eight at a
/// time.
fn skip_spaces(bytes: &[u8], mut at: usize) -> usize {
    const SPACES: u64 = u64::from_le_bytes([b' '; 8]);
    while let Some(words) = bytes.get(at..).and_then(|rest| rest.first_chunk::<32>()) {
        let word = |i: usize| {
            let mut w = [0; 8];
            w.copy_from_slice(&words[i * 8..i * 8 + 8]);
            u64::from_le_bytes(w) ^ SPACES
        };
        if word(0) | word(1) | word(2) | word(3) != 0 {
            break;
        }
        at += 32;
    }
    while let Some(word) = bytes.get(at..).and_then(|rest| rest.first_chunk::<8>()) {
        let not_spaces = u64::from_le_bytes(*word) ^ SPACES;
        if not_spaces != 0 {
            return at + not_spaces.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    at
}

/// Whether a byte may continue a token before or after it: anything but
/// JSON's punctuation, a string's quote and white space.
static IN_TOKEN: [bool; 256] = {
    let mut table = [true; 256];
    let others = *b"{}[],:\" \n\t\r";
    let mut i = 0;
    while i < others.len() {
        table[others[i] as usize] = false;
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::{write_to_vec, WriteOptions};

    fn one_thread() -> ReadOptions {
        ReadOptions {
            threads: 1,
            ..Default::default()
        }
    }

    fn written(loaded: &LoadedProgram, readable: bool) -> Vec<u8> {
        let options = WriteOptions {
            readable,
            trainable: loaded.trainable,
            version: loaded.version,
        };
        write_to_vec(&loaded.program, &options).unwrap()
    }

    fn compact_of(text: &str) -> Option<String> {
        without_white_space(text.as_bytes()).map(|c| String::from_utf8(c).unwrap())
    }

    #[test]
    fn white_space_goes_and_strings_stay_byte_for_byte() {
        let text = "{\n    \"a b\": [\n        1,\n\t\r  -2.5e3\n    ],\n    \"c\" : \"x \\\" y\\\\\",\n    \"d\": \"\\\\\", \"é ☃\\n\\u00e9 \": true\n}\n";
        assert_eq!(
            compact_of(text).unwrap(),
            "{\"a b\":[1,\t\r-2.5e3],\"c\":\"x \\\" y\\\\\",\"d\":\"\\\\\",\"é ☃\\n\\u00e9 \":true}"
        );
        assert_eq!(compact_of("  [ ]  ").unwrap(), "[]");
        assert_eq!(compact_of("").unwrap(), "");
        // Indentation longer than a word, and ending mid-word.
        let deep = format!("[\n{}1,\n{}2\n]", " ".repeat(37), " ".repeat(8));
        assert_eq!(compact_of(&deep).unwrap(), "[1,2]");
    }

    #[test]
    fn text_whose_tokens_would_join_or_whose_string_is_open_is_left_alone() {
        for text in [
            "[1 2]",
            "[- 1]",
            "[1\n.5]",
            "[tr ue]",
            "[\"a\", 1 e5]",
            "[\"a",
            "\"a\\\"",
        ] {
            assert_eq!(compact_of(text), None, "{text:?}");
        }
        // Tokens that stay apart are no reason.
        assert_eq!(compact_of("[\"a\" \"b\", 1 ]").unwrap(), "[\"a\"\"b\",1]");
    }

    /// The plain reading of what [`without_white_space`] does, a byte at a time.
    fn reference(bytes: &[u8]) -> Option<Vec<u8>> {
        let (mut out, mut at) = (Vec::new(), 0);
        while let Some(&byte) = bytes.get(at) {
            match byte {
                b'"' => loop {
                    out.push(*bytes.get(at)?);
                    at += 1;
                    match *bytes.get(at)? {
                        b'"' => {
                            out.push(b'"');
                            at += 1;
                            break;
                        }
                        b'\\' => {
                            out.push(b'\\');
                            at += 1;
                        }
                        _ => {}
                    }
                },
                b' ' | b'\n' => {
                    while matches!(bytes.get(at), Some(b' ' | b'\n')) {
                        at += 1;
                    }
                    if let (Some(&before), Some(&after)) = (out.last(), bytes.get(at)) {
                        if IN_TOKEN[usize::from(before)] && IN_TOKEN[usize::from(after)] {
                            return None;
                        }
                    }
                }
                _ => {
                    out.push(byte);
                    at += 1;
                }
            }
        }
        Some(out)
    }

    /// A text of JSON's bytes in any order and length: strings, escapes,
    /// runs of white space, across the blocks read at once; half of them
    /// without backslashes, which blocks are read a byte at a time for.
    fn random_text(rng: &mut pir_corpus::Rng) -> Vec<u8> {
        let pieces: [&[u8]; 19] = [
            b"a",
            b"1",
            b"-",
            b"{",
            b"]",
            b",",
            b":",
            "é".as_bytes(),
            b" ",
            b"        ",
            b"                                ",
            b"\n",
            b"\t",
            b"\r",
            b"\"",
            b"\"",
            b"\"",
            b"\\",
            b"\\\"",
        ];
        let kinds = pieces.len() - 2 * rng.below(2);
        let mut text = Vec::new();
        for _ in 0..rng.below(160) {
            text.extend_from_slice(pieces[rng.below(kinds)]);
        }
        text
    }

    /// Texts come out as the plain reading says.
    #[test]
    fn blocks_and_bytes_agree() {
        let mut rng = pir_corpus::Rng(7);
        for _ in 0..20_000 {
            let text = random_text(&mut rng);
            assert_eq!(
                without_white_space(&text),
                reference(&text),
                "{:?}",
                String::from_utf8_lossy(&text)
            );
        }
    }

    /// Every byte is told a token's or not as [`IN_TOKEN`] says, on
    /// either side of removed white space.
    #[test]
    fn every_byte_joins_as_the_plain_reading_says() {
        for byte in 0..=u8::MAX {
            for text in [[b'a', b' ', byte], [byte, b'\n', b'1']] {
                assert_eq!(without_white_space(&text), reference(&text), "{byte:#x}");
            }
        }
    }

    /// The text read a byte at a time (as where AVX-512 is missing) is
    /// the plain reading's too.
    #[test]
    fn bytes_alone_agree() {
        let mut rng = pir_corpus::Rng(11);
        for _ in 0..20_000 {
            let text = random_text(&mut rng);
            let mut out = Vec::new();
            let alone = bytewise(&text, State::default(), &mut out)
                .and_then(|state| (!state.in_string).then_some(out));
            assert_eq!(
                alone,
                reference(&text),
                "{:?}",
                String::from_utf8_lossy(&text)
            );
        }
    }

    /// Each corpus model written indented, without its white space, is the
    /// model written compact; read, it is the program the compact text
    /// gives, still said to be indented, and written again byte for byte.
    #[test]
    fn indented_models_read_as_their_compact_text() {
        let mut seen = 0;
        for model in pir_corpus::models() {
            let bytes = std::fs::read(model.json()).unwrap();
            let ctx = pir_dialects::pd_op_context();
            let Ok(loaded) = super::super::read_slice(ctx.clone(), &bytes, &one_thread()) else {
                continue;
            };
            let (compact, readable) = (written(&loaded, false), written(&loaded, true));
            assert!(is_readable(&readable), "{}", model.name);
            assert!(
                without_white_space(&readable).unwrap() == compact,
                "{}",
                model.name
            );
            for ctx in [ctx, pir_dialects::pd_op_context()] {
                let again = read_readable(ctx.clone(), &readable, &one_thread(), &|_| {})
                    .unwrap_or_else(|| panic!("{} not read as compact text", model.name));
                assert!(again.readable);
                assert!(written(&again, true) == readable, "{}", model.name);
                let read = super::super::read_slice(ctx, &readable, &one_thread()).unwrap();
                assert!(read.readable && written(&read, true) == readable);
            }
            seen += 1;
        }
        assert!(seen > 0);
    }

    /// A model whose strings hold white space, escapes and non-ASCII text
    /// keeps them through an indented save and read.
    #[test]
    fn strings_with_white_space_escapes_and_unicode_survive() {
        let model = pir_corpus::model("mlp_tiny").unwrap();
        let bytes = std::fs::read_to_string(model.json()).unwrap();
        let odd = r#""D":"/Lin  ear/ \"q\" \\ \n\t é☃ \u00e9 {[,:]}""#;
        assert!(bytes.contains(r#""D":"/Linear/""#));
        let bytes = bytes.replace(r#""D":"/Linear/""#, odd);
        let ctx = pir_dialects::pd_op_context();
        let loaded =
            super::super::read_slice(ctx.clone(), bytes.as_bytes(), &one_thread()).unwrap();
        let readable = written(&loaded, true);
        let again = read_readable(ctx, &readable, &one_thread(), &|_| {}).unwrap();
        assert!(written(&again, true) == readable);
        assert!(written(&again, false) == written(&loaded, false));
        let text = String::from_utf8(written(&again, false)).unwrap();
        assert!(
            text.contains("/Lin  ear/ \\\"q\\\" \\\\ \\n\\t é☃ é {[,:]}"),
            "{text}"
        );
    }

    /// An indented file with an error is reported as the whole-document
    /// reader reports its original text: the same message and place.
    #[test]
    fn errors_are_those_of_the_original_text() {
        let model = pir_corpus::model("mlp_tiny").unwrap();
        let bytes = std::fs::read(model.json()).unwrap();
        let ctx = pir_dialects::pd_op_context();
        let loaded = super::super::read_slice(ctx.clone(), &bytes, &one_thread()).unwrap();
        let readable = String::from_utf8(written(&loaded, true)).unwrap();
        let broken = [
            readable.replace("\"magic\": \"pir\"", "\"magic\": \"pix\""),
            readable.replace("\"version\": ", "\"version\": 1 "),
            readable.replace("\"#\": \"p\"", "\"#\": \"p\n\""),
            readable.replacen("\"%\": 1", "\"%\": true", 1),
            readable[..readable.len() / 2].to_owned(),
            format!("{readable}x"),
        ];
        for text in broken {
            assert_ne!(text, readable);
            let error = super::super::read_slice(ctx.clone(), text.as_bytes(), &one_thread())
                .unwrap_err()
                .to_string();
            let whole = super::super::read_whole(ctx.clone(), text.as_bytes(), &one_thread())
                .unwrap_err()
                .to_string();
            assert_eq!(error, whole);
        }
    }
}
