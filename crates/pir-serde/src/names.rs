//! Dialect-prefix compression of op names (`pd_op.matmul` ↔ `1.matmul`).

/// Compressed prefix ids of the dialects Paddle knows (format spec §2.5).
pub const DIALECT_IDS: [(&str, &str); 7] = [
    ("builtin", "0"),
    ("pd_op", "1"),
    ("cf", "2"),
    ("custom_op", "3"),
    ("pd_dist", "4"),
    ("test", "-1"),
    ("test1", "-2"),
];

/// `1.matmul` → `pd_op.matmul`. Names whose prefix is not a number are taken
/// literally (Paddle writes e.g. `onednn_op.*` uncompressed). `Err` carries an
/// unknown numeric prefix.
pub fn decompress_op_name(name: &str) -> Result<std::borrow::Cow<'_, str>, &str> {
    let Some((prefix, rest)) = name.split_once('.') else {
        return Ok(name.into());
    };
    let numeric = !prefix.is_empty()
        && prefix
            .trim_start_matches('-')
            .bytes()
            .all(|b| b.is_ascii_digit());
    if !numeric {
        return Ok(name.into());
    }
    match DIALECT_IDS.iter().find(|(_, id)| *id == prefix) {
        Some((dialect, _)) => Ok([dialect, ".", rest].concat().into()),
        None => Err(prefix),
    }
}

/// The dialect id and the rest of `name` whose prefix is a dialect
/// Paddle knows (`pd_op.matmul` → `("1", "matmul")`).
fn compressed_parts(name: &str) -> Option<(&'static str, &str)> {
    let (prefix, rest) = name.split_once('.')?;
    let (_, id) = DIALECT_IDS.iter().find(|(d, _)| *d == prefix)?;
    Some((id, rest))
}

/// `pd_op.matmul` → `1.matmul`; unknown prefixes are kept as they are (as Paddle does).
pub fn compress_op_name(name: &str) -> std::borrow::Cow<'_, str> {
    match compressed_parts(name) {
        Some((id, rest)) => format!("{id}.{rest}").into(),
        None => name.into(),
    }
}

/// Appends the JSON string of `name` compressed (see [`compress_op_name`]),
/// in place: the compressed name is built on its own only in the rare case
/// that it needs escaping.
pub fn write_compressed_op_name(out: &mut Vec<u8>, name: &str) {
    match compressed_parts(name) {
        Some((id, rest)) if !pir_json::needs_escape(rest.as_bytes()) => {
            out.push(b'"');
            out.extend_from_slice(id.as_bytes());
            out.push(b'.');
            out.extend_from_slice(rest.as_bytes());
            out.push(b'"');
        }
        _ => pir_json::write_escaped_string(out, &compress_op_name(name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compression_round_trips_known_dialects() {
        for name in [
            "builtin.combine",
            "pd_op.matmul",
            "cf.yield",
            "custom_op.x",
            "pd_dist.reshard",
            "test.op",
        ] {
            let c = compress_op_name(name);
            assert_ne!(c, name);
            assert_eq!(decompress_op_name(&c).unwrap(), name);
        }
    }

    #[test]
    fn compressed_names_are_written_as_json_strings() {
        for name in ["pd_op.matmul", "onednn_op.conv", "pd_op.a\"b", "plain"] {
            let mut expected = Vec::new();
            pir_json::write_escaped_string(&mut expected, &compress_op_name(name));
            let mut written = Vec::new();
            write_compressed_op_name(&mut written, name);
            assert_eq!(written, expected, "{name}");
        }
        let mut written = Vec::new();
        write_compressed_op_name(&mut written, "builtin.combine");
        assert_eq!(written, b"\"0.combine\"");
    }

    #[test]
    fn unknown_prefixes_are_literal_and_unknown_ids_fail() {
        assert_eq!(compress_op_name("onednn_op.conv"), "onednn_op.conv");
        assert_eq!(
            decompress_op_name("onednn_op.conv").unwrap(),
            "onednn_op.conv"
        );
        assert_eq!(decompress_op_name("7.foo"), Err("7"));
    }
}
