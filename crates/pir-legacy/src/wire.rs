//! The protobuf wire format, read in place: varints, fixed-width numbers and
//! length-delimited fields borrowed from the input (strings are checked
//! UTF-8 and never copied).
//!
//! The rules are those of `prost` 0.13, so both accept the same inputs:
//! varints of at most 10 bytes (the tenth at most 1), keys within `u32` with
//! a non-zero field number and a known wire type, lengths within what is
//! left, packed or unpacked repeated scalars, unknown fields (groups
//! included) skipped, and a nesting limit of 100 messages or groups.

use std::fmt;

/// Most nested messages and groups (prost's `RECURSION_LIMIT`).
pub const RECURSION_LIMIT: u32 = 100;

/// Why bytes are not a valid protobuf message, and where. (Boxed: results
/// of the hot reading functions stay two words.)
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError(Box<ErrorInfo>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct ErrorInfo {
    offset: usize,
    message: &'static str,
    reason: &'static str,
}

impl WireError {
    fn new(offset: usize, message: &'static str, reason: &'static str) -> Self {
        WireError(Box::new(ErrorInfo {
            offset,
            message,
            reason,
        }))
    }

    /// Byte offset in the input.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// The message being read (`OpDesc.Attr`, ...).
    pub fn message(&self) -> &'static str {
        self.0.message
    }

    /// What is wrong.
    pub fn reason(&self) -> &'static str {
        self.0.reason
    }
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte {} (in {})",
            self.0.reason, self.0.offset, self.0.message
        )
    }
}

impl std::error::Error for WireError {}

/// `bytes` as text when they are UTF-8. Names and strings of a model are
/// nearly always short and ASCII, which `is_short_ascii` settles in a few
/// loads; the general check (`std::str::from_utf8`, byte by byte on short
/// input) takes the rest.
#[inline]
#[allow(unsafe_code)]
pub fn utf8(bytes: &[u8]) -> Option<&str> {
    if is_short_ascii(bytes) {
        // SAFETY: every ASCII byte sequence is valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        std::str::from_utf8(bytes).ok()
    }
}

/// Whether `bytes` are ASCII: up to 32 bytes as two overlapping words from
/// both ends (no loop: `is_ascii` checks the bytes past the last whole word
/// one by one, which cost about as much as the rest of reading a name),
/// longer ones by `is_ascii`.
#[inline(always)]
fn is_short_ascii(bytes: &[u8]) -> bool {
    if let (Some(head), Some(tail)) = (bytes.first_chunk::<16>(), bytes.last_chunk::<16>()) {
        if bytes.len() > 32 {
            return bytes.is_ascii();
        }
        let high = u128::from_ne_bytes([0x80; 16]);
        return (u128::from_ne_bytes(*head) | u128::from_ne_bytes(*tail)) & high == 0;
    }
    if let (Some(head), Some(tail)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        let high = u64::from_ne_bytes([0x80; 8]);
        return (u64::from_ne_bytes(*head) | u64::from_ne_bytes(*tail)) & high == 0;
    }
    if let (Some(head), Some(tail)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        let high = u32::from_ne_bytes([0x80; 4]);
        return (u32::from_ne_bytes(*head) | u32::from_ne_bytes(*tail)) & high == 0;
    }
    bytes.iter().fold(0, |acc, &b| acc | b) < 0x80
}

/// [`utf8`] for long text (a list of call-stack lines): ASCII checked by an
/// OR of all bytes, which the compiler does 32 bytes a step, several times
/// faster than `is_ascii` there (and slower on short names).
#[allow(unsafe_code)]
pub fn long_utf8(bytes: &[u8]) -> Option<&str> {
    if bytes.iter().fold(0, |acc, &b| acc | b) < 0x80 {
        // SAFETY: every ASCII byte sequence is valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        std::str::from_utf8(bytes).ok()
    }
}

/// Wire types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireType {
    /// 0: a varint.
    Varint,
    /// 1: eight bytes.
    Fixed64,
    /// 2: a length and that many bytes.
    Len,
    /// 3: start of a group.
    StartGroup,
    /// 4: end of a group.
    EndGroup,
    /// 5: four bytes.
    Fixed32,
}

/// A reader over one message: `data[pos..]`, where `data` is the input up
/// to the message's end (so offsets are the input's).
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// Messages that may still be entered (counts down from the limit).
    depth: u32,
    /// The message being read, for errors.
    what: &'static str,
}

/// Shorthand for wire results.
pub type WireResult<T> = Result<T, WireError>;

impl<'a> Reader<'a> {
    /// A reader over a whole top-level message.
    pub fn new(data: &'a [u8], what: &'static str) -> Self {
        Reader {
            data,
            pos: 0,
            depth: RECURSION_LIMIT,
            what,
        }
    }

    /// An error at the current position.
    #[cold]
    pub fn error(&self, reason: &'static str) -> WireError {
        WireError::new(self.pos, self.what, reason)
    }

    /// Whether the message has more fields.
    #[inline]
    pub fn has_more(&self) -> bool {
        self.pos < self.data.len()
    }

    /// The current byte offset in the input.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The unread bytes of the message.
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.pos..]
    }

    /// Moves past `n` unread bytes (at most those left), for a field a
    /// caller read from [`Reader::rest`].
    #[inline]
    pub fn advance(&mut self, n: usize) {
        self.pos = self.pos.saturating_add(n).min(self.data.len());
    }

    /// Whether a nested message may be entered here ([`Reader::message`]
    /// fails at the nesting limit), for readers that take nested messages
    /// from [`Reader::rest`] themselves.
    #[inline]
    pub fn can_enter(&self) -> bool {
        self.depth > 0
    }

    /// The key byte and bytes of the length-delimited field at the current
    /// position when its key and length take one byte each (the layout of
    /// most small messages), without moving: a caller that reads the bytes
    /// itself then [`Reader::advance`]s past `2 + len`. `None` for any other
    /// field, and at the nesting limit (where [`Reader::message`] fails).
    #[inline(always)]
    pub fn peek_short_message(&self) -> Option<(u8, &'a [u8])> {
        match self.rest() {
            [key, n, rest @ ..]
                if *key & 0x87 == 0x02
                    && *key >= 0x08
                    && *n < 0x80
                    && rest.len() >= usize::from(*n)
                    && self.depth > 0 =>
            {
                Some((*key, &rest[..usize::from(*n)]))
            }
            _ => None,
        }
    }

    /// A varint (prost's `decode_varint`). One or two bytes (a field key,
    /// the length of an op or a variable) are read inline, longer ones out
    /// of line.
    #[inline(always)]
    pub fn varint(&mut self) -> WireResult<u64> {
        match self.data.get(self.pos..) {
            Some([first @ 0..0x80, ..]) => {
                self.pos += 1;
                Ok(u64::from(*first))
            }
            Some([low, high @ 0..0x80, ..]) => {
                self.pos += 2;
                Ok(u64::from(low & 0x7f) | u64::from(*high) << 7)
            }
            _ => self.varint_long(),
        }
    }

    #[inline(never)]
    fn varint_long(&mut self) -> WireResult<u64> {
        let mut value = 0u64;
        for i in 0..10 {
            let Some(&b) = self.data.get(self.pos + i) else {
                return Err(self.error("invalid varint"));
            };
            if i == 9 && b > 1 {
                return Err(self.error("invalid varint"));
            }
            value |= u64::from(b & 0x7f) << (7 * i);
            if b < 0x80 {
                self.pos += i + 1;
                return Ok(value);
            }
        }
        Err(self.error("invalid varint"))
    }

    /// A field key: its number and wire type (prost's `decode_key`),
    /// inlined into the readers of blocks, ops and variables (a call per
    /// field was 1.5% of a small model's translation).
    #[inline(always)]
    pub fn key(&mut self) -> WireResult<(u32, WireType)> {
        let at = self.pos;
        let key = self.varint()?;
        let bad = |reason| WireError::new(at, self.what, reason);
        if key > u64::from(u32::MAX) {
            return Err(bad("invalid key value"));
        }
        let wire = match key & 7 {
            0 => WireType::Varint,
            1 => WireType::Fixed64,
            2 => WireType::Len,
            3 => WireType::StartGroup,
            4 => WireType::EndGroup,
            5 => WireType::Fixed32,
            _ => return Err(bad("invalid wire type value")),
        };
        let field = (key as u32) >> 3;
        if field == 0 {
            return Err(bad("invalid tag value: 0"));
        }
        Ok((field, wire))
    }

    fn expect(&self, got: WireType, want: WireType) -> WireResult<()> {
        if got == want {
            Ok(())
        } else {
            Err(self.error("invalid wire type"))
        }
    }

    fn take(&mut self, n: usize) -> WireResult<&'a [u8]> {
        if n > self.data.len() - self.pos {
            return Err(self.error("buffer underflow"));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn len_prefix(&mut self) -> WireResult<usize> {
        let at = self.pos;
        let len = self.varint()?;
        if len > (self.data.len() - self.pos) as u64 {
            return Err(WireError::new(at, self.what, "buffer underflow"));
        }
        Ok(len as usize)
    }

    /// The bytes of a length-delimited field.
    #[inline]
    pub fn bytes(&mut self, wire: WireType) -> WireResult<&'a [u8]> {
        self.expect(wire, WireType::Len)?;
        let n = self.len_prefix()?;
        self.take(n)
    }

    /// A string field (UTF-8 checked, borrowed).
    #[inline(always)]
    pub fn str(&mut self, wire: WireType) -> WireResult<&'a str> {
        let at = self.pos;
        let b = self.bytes(wire)?;
        utf8(b).ok_or_else(|| {
            WireError::new(
                at,
                self.what,
                "invalid string value: data is not UTF-8 encoded",
            )
        })
    }

    /// A nested message (`what` names it in errors); fails at the nesting
    /// limit.
    #[inline]
    pub fn message(&mut self, wire: WireType, what: &'static str) -> WireResult<Reader<'a>> {
        self.expect(wire, WireType::Len)?;
        if self.depth == 0 {
            return Err(self.error("recursion limit reached"));
        }
        let n = self.len_prefix()?;
        let start = self.pos;
        self.pos += n;
        Ok(Reader {
            data: &self.data[..start + n],
            pos: start,
            depth: self.depth - 1,
            what,
        })
    }

    /// A `uint64`/`int64` varint field.
    #[inline]
    pub fn u64(&mut self, wire: WireType) -> WireResult<u64> {
        self.expect(wire, WireType::Varint)?;
        self.varint()
    }

    /// An `int32` (or enum) field: the varint truncated as prost does.
    #[inline]
    pub fn i32(&mut self, wire: WireType) -> WireResult<i32> {
        Ok(self.u64(wire)? as i32)
    }

    /// An `int64` field.
    #[inline]
    pub fn i64(&mut self, wire: WireType) -> WireResult<i64> {
        Ok(self.u64(wire)? as i64)
    }

    /// A `bool` field.
    #[inline]
    pub fn bool(&mut self, wire: WireType) -> WireResult<bool> {
        Ok(self.u64(wire)? != 0)
    }

    fn fixed32(&mut self) -> WireResult<[u8; 4]> {
        let b = self.take(4)?;
        let mut w = [0u8; 4];
        w.copy_from_slice(b);
        Ok(w)
    }

    fn fixed64(&mut self) -> WireResult<[u8; 8]> {
        let b = self.take(8)?;
        let mut w = [0u8; 8];
        w.copy_from_slice(b);
        Ok(w)
    }

    /// A `float` field.
    #[inline]
    pub fn f32(&mut self, wire: WireType) -> WireResult<f32> {
        self.expect(wire, WireType::Fixed32)?;
        Ok(f32::from_le_bytes(self.fixed32()?))
    }

    /// A `double` field.
    #[inline]
    pub fn f64(&mut self, wire: WireType) -> WireResult<f64> {
        self.expect(wire, WireType::Fixed64)?;
        Ok(f64::from_le_bytes(self.fixed64()?))
    }

    /// Appends a repeated varint field, packed or not, converted by `f`.
    pub fn repeated_varint<T>(
        &mut self,
        wire: WireType,
        out: &mut impl Extend<T>,
        f: impl Fn(u64) -> T,
    ) -> WireResult<()> {
        if wire == WireType::Len {
            let mut packed = self.message(wire, self.what)?;
            while packed.has_more() {
                out.extend(Some(f(packed.varint()?)));
            }
            return Ok(());
        }
        out.extend(Some(f(self.u64(wire)?)));
        Ok(())
    }

    /// Appends a repeated `float` field, packed or not.
    pub fn repeated_f32(&mut self, wire: WireType, out: &mut Vec<f32>) -> WireResult<()> {
        if wire == WireType::Len {
            let mut packed = self.message(wire, self.what)?;
            while packed.has_more() {
                out.push(f32::from_le_bytes(packed.fixed32()?));
            }
            return Ok(());
        }
        out.push(self.f32(wire)?);
        Ok(())
    }

    /// Appends a repeated `double` field, packed or not.
    pub fn repeated_f64(&mut self, wire: WireType, out: &mut Vec<f64>) -> WireResult<()> {
        if wire == WireType::Len {
            let mut packed = self.message(wire, self.what)?;
            while packed.has_more() {
                out.push(f64::from_le_bytes(packed.fixed64()?));
            }
            return Ok(());
        }
        out.push(self.f64(wire)?);
        Ok(())
    }

    /// Skips a field of an unknown number (prost's `skip_field`, groups
    /// included).
    pub fn skip(&mut self, field: u32, wire: WireType) -> WireResult<()> {
        self.skip_at(field, wire, self.depth)
    }

    fn skip_at(&mut self, field: u32, wire: WireType, depth: u32) -> WireResult<()> {
        if depth == 0 {
            return Err(self.error("recursion limit reached"));
        }
        match wire {
            WireType::Varint => {
                self.varint()?;
            }
            WireType::Fixed32 => {
                self.take(4)?;
            }
            WireType::Fixed64 => {
                self.take(8)?;
            }
            WireType::Len => {
                let n = self.len_prefix()?;
                self.take(n)?;
            }
            WireType::StartGroup => loop {
                let (inner, inner_wire) = self.key()?;
                if inner_wire == WireType::EndGroup {
                    if inner != field {
                        return Err(self.error("unexpected end group tag"));
                    }
                    break;
                }
                self.skip_at(inner, inner_wire, depth - 1)?;
            },
            WireType::EndGroup => return Err(self.error("unexpected end group tag")),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_varints_read_inline_as_the_general_reader_reads_them() {
        for low in 0..=u8::MAX {
            for high in 0..=u8::MAX {
                let bytes = [low, high, 0x05];
                let mut inline = Reader::new(&bytes, "t");
                let mut general = Reader::new(&bytes, "t");
                assert_eq!(inline.varint(), general.varint_long(), "{bytes:?}");
                assert_eq!(inline.offset(), general.offset(), "{bytes:?}");
            }
        }
    }

    #[test]
    fn varints_follow_protobuf_limits() {
        let mut r = Reader::new(&[0x96, 0x01], "t");
        assert_eq!(r.varint(), Ok(150));
        let max = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
        assert_eq!(Reader::new(&max, "t").varint(), Ok(u64::MAX));
        let over = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
        assert!(Reader::new(&over, "t").varint().is_err());
        assert!(Reader::new(&[0x80], "t").varint().is_err());
        assert!(Reader::new(&[], "t").varint().is_err());
    }

    #[test]
    fn lengths_beyond_the_message_are_errors() {
        // Field 1, length 5, but only 2 bytes follow.
        let mut r = Reader::new(&[0x0a, 0x05, b'a', b'b'], "t");
        let (f, w) = r.key().unwrap();
        assert_eq!(f, 1);
        let e = r.str(w).unwrap_err();
        assert_eq!(e.reason(), "buffer underflow");
        assert_eq!(e.offset(), 1);
    }

    #[test]
    fn keys_reject_field_zero_and_bad_wire_types() {
        assert!(Reader::new(&[0x02], "t").key().is_err());
        assert!(Reader::new(&[0x0e], "t").key().is_err());
        assert!(Reader::new(&[0x0f], "t").key().is_err());
    }

    #[test]
    fn groups_are_skipped_to_their_end_and_nesting_is_bounded() {
        // Group 1 holding a varint field 2, then its end.
        let mut r = Reader::new(&[0x0b, 0x10, 0x01, 0x0c], "t");
        let (f, w) = r.key().unwrap();
        r.skip(f, w).unwrap();
        assert!(!r.has_more());
        // A group ended with the wrong number.
        let mut r = Reader::new(&[0x0b, 0x14], "t");
        let (f, w) = r.key().unwrap();
        assert!(r.skip(f, w).is_err());
        // Groups nested past the limit.
        let deep: Vec<u8> = std::iter::repeat_n(0x0b, 200).collect();
        let mut r = Reader::new(&deep, "t");
        let (f, w) = r.key().unwrap();
        assert_eq!(
            r.skip(f, w).unwrap_err().reason(),
            "recursion limit reached"
        );
    }

    #[test]
    fn packed_and_unpacked_repeated_fields_both_read() {
        let mut out = Vec::new();
        let mut r = Reader::new(&[0x08, 0x03, 0x0a, 0x02, 0x04, 0x05], "t");
        while r.has_more() {
            let (_, w) = r.key().unwrap();
            r.repeated_varint(w, &mut out, |v| v as i32).unwrap();
        }
        assert_eq!(out, [3, 4, 5]);
        let mut floats = Vec::new();
        let mut r = Reader::new(&[0x0a, 0x03, 0, 0, 0], "t");
        let (_, w) = r.key().unwrap();
        assert!(r.repeated_f32(w, &mut floats).is_err());
    }

    #[test]
    fn utf8_takes_exactly_the_valid_inputs() {
        let cases: [&[u8]; 9] = [
            b"",
            b"x",
            b"layer_norm_0.tmp_2",
            b"a longer name of more than sixteen bytes",
            "\u{e9}t\u{e9}".as_bytes(),
            &[0x80],
            &[b'a', b'b', 0xc3],
            &[0xed, 0xa0, 0x80],
            &[b'x'; 7],
        ];
        for bytes in cases {
            assert_eq!(utf8(bytes), std::str::from_utf8(bytes).ok(), "{bytes:?}");
            assert_eq!(
                long_utf8(bytes),
                std::str::from_utf8(bytes).ok(),
                "{bytes:?}"
            );
        }
        // A non-ASCII byte at every position of inputs of every length
        // around the word size and the 32-byte steps of `long_utf8`; a
        // valid two-byte character there is taken by both.
        for len in 1..=70 {
            for at in 0..len {
                let mut b = vec![b'a'; len];
                b[at] = 0xff;
                assert_eq!(utf8(&b), None);
                assert_eq!(long_utf8(&b), None);
                if at + 1 < len {
                    b[at] = 0xc3;
                    b[at + 1] = 0xa9;
                    assert_eq!(long_utf8(&b), std::str::from_utf8(&b).ok());
                    assert!(long_utf8(&b).is_some());
                }
            }
            assert!(utf8(&vec![0x7f; len]).is_some());
            assert!(long_utf8(&vec![0x7f; len]).is_some());
        }
    }

    #[test]
    fn invalid_utf8_is_an_error() {
        let mut r = Reader::new(&[0x0a, 0x01, 0xff], "t");
        let (_, w) = r.key().unwrap();
        assert!(r.str(w).is_err());
    }
}
