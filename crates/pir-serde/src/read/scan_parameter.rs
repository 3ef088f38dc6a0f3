//! Scanning `builtin.parameter` ops in their short form (format spec §2.7):
//! most ops of a model are parameters.

use pir_json::{Open, Stream};

use super::{end_of, AttrListId, Batch, Scanned, ScannedResult, Scanner, PARAMETER};
use crate::error::ReadError;
use crate::read::compact::{compact_flags, eat, plain_string_rest};
use crate::read::template::Templates;

impl<'a> Scanner<'a> {
    /// The short form of `builtin.parameter` after its name: `A` and `OA` hold
    /// integer flags and a plain name, `O` a result, `DA`/`QA` attribute
    /// lists; pushed to `batch.ops` (true). False for anything else (escaped
    /// keys or names, other keys, repeated keys, other shapes).
    pub(super) fn scan_parameter(
        &mut self,
        s: &mut Stream<'a>,
        mut object: Open,
        batch: &mut Batch<'a>,
        templates: Option<&Templates>,
    ) -> Result<bool, ReadError> {
        let mut learn_at = None;
        if let Some(templates) = templates {
            match self.parameter_template.scan_parameter(templates, s, batch) {
                Ok(op) => {
                    batch.ops.push(Scanned::Template(op));
                    return Ok(true);
                }
                Err(learn) => learn_at = learn,
            }
        }
        let start = s.offset();
        if self.compact_parameter(s, batch, learn_at).is_some() {
            return Ok(true);
        }
        s.rewind(start);
        let (mut a, mut oa, mut da, mut qa, mut output) = (None, None, None, None, None);
        while let Some(key) = s.next_key(&mut object)? {
            let std::borrow::Cow::Borrowed(key) = key else {
                return Ok(false);
            };
            match key {
                "A" if a.is_none() => {
                    let mut list = s.begin_array()?;
                    let Some(flags) = read_flags(s, &mut list)? else {
                        return Ok(false);
                    };
                    if !s.next_element(&mut list)? {
                        return Ok(false);
                    }
                    // A name without escapes or control characters is its own text.
                    let raw = s.raw_value()?;
                    let name = match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
                        Some(n) if n.bytes().all(|b| b >= 0x20 && b != b'\\' && b != b'"') => n,
                        _ => return Ok(false),
                    };
                    if s.next_element(&mut list)? {
                        return Ok(false);
                    }
                    a = Some((flags, name));
                }
                "OA" if oa.is_none() => {
                    let mut list = s.begin_array()?;
                    match read_flags(s, &mut list)? {
                        Some(flags) if !s.next_element(&mut list)? => oa = Some(flags),
                        _ => return Ok(false),
                    }
                }
                "DA" if da.is_none() => {
                    da = Some(self.scan_list(s, PARAMETER, AttrListId::Da, batch)?.1);
                }
                "QA" if qa.is_none() => {
                    qa = Some(self.scan_list(s, PARAMETER, AttrListId::Qa, batch)?.1);
                }
                "O" if output.is_none() => match self.scan_result(s, PARAMETER, 0)? {
                    Some(result) => output = Some(result),
                    None => return Ok(false),
                },
                _ => return Ok(false),
            }
        }
        let (Some((flags, name)), Some(result)) = (a, output) else {
            return Ok(false);
        };
        batch.ops.push(Scanned::Parameter {
            flags,
            name,
            lists: [da.unwrap_or_default(), qa.unwrap_or_default()],
            output_flags: oa,
            result,
            learn: None,
        });
        Ok(true)
    }

    /// The short form of `builtin.parameter` after its name, when its text is
    /// exactly as Paddle writes it:
    /// `,"A":[d,p,c,"name"],"DA":[],"O":{"%":id,"TT":type},"OA":[f,f,f],"QA":[]}`
    /// (no white space, those keys in that order, `OA` optional, a plain
    /// name), pushed to `batch.ops`. Most ops of
    /// a model are parameters, and matched byte by byte their fixed parts
    /// cost a comparison rather than a key and a container each. `None`,
    /// with the stream anywhere, for any other text: the caller reads it
    /// field by field from where it was, which meets the same values (and
    /// errors) in the same order, so a partial match changes nothing.
    /// With `learn_at`, the op's texts around its result's id go with it,
    /// to learn the template of that place among the file's parameters.
    fn compact_parameter(
        &mut self,
        s: &mut Stream<'a>,
        batch: &mut Batch<'a>,
        learn_at: Option<usize>,
    ) -> Option<()> {
        let start = s.offset();
        if !eat(s, br#","A":["#) {
            return None;
        }
        let flags = compact_flags(s)?;
        if !eat(s, b",\"") {
            return None;
        }
        let name = plain_string_rest(s)?;
        if !eat(s, br#"],"DA":[],"O":{"%":"#) {
            return None;
        }
        let head_end = s.offset();
        let id = s.i64().ok()??;
        let tail_start = s.offset();
        if !eat(s, br#","TT":"#) {
            return None;
        }
        let (ty, text) = self.scan_type(s, PARAMETER, 0).ok()?;
        // Files saved untrainable have no `OA`.
        let output_flags = match eat(s, br#"},"OA":["#) {
            true => Some(compact_flags(s).filter(|_| eat(s, b"]"))?),
            false => eat(s, b"}").then_some(None)?,
        };
        if !eat(s, br#","QA":[]}"#) {
            return None;
        }
        let none = end_of(&batch.entries);
        let texts = s.text();
        let learn = learn_at.and_then(|occurrence| {
            let head = texts.get(start..head_end)?;
            Some((occurrence, head, texts.get(tail_start..s.offset())?))
        });
        batch.ops.push(Scanned::Parameter {
            flags,
            name,
            lists: [none..none, none..none],
            output_flags,
            result: ScannedResult {
                id: Some(id),
                ty,
                text,
            },
            learn,
        });
        Some(())
    }
}

/// Three integer flags (non-zero is true) of an open array, or `None` when
/// the array holds fewer or other values.
fn read_flags(s: &mut Stream<'_>, list: &mut Open) -> Result<Option<[bool; 3]>, ReadError> {
    let mut flags = [false; 3];
    for flag in &mut flags {
        if !s.next_element(list)? {
            return Ok(None);
        }
        match s.i64()? {
            Some(v) => *flag = v != 0,
            None => return Ok(None),
        }
    }
    Ok(Some(flags))
}
