//! `set_input_shapes`: fixed dims for a program's inputs (its data and feed
//! ops), followed through every op they reach by type inference
//! (`pir_infer`), control flow included. Shape arithmetic that becomes
//! static can then be folded by `constant_folding`; a shape the program
//! contradicts is an error naming the op.
//!
//! The option is `shapes=NAME:DxDx...;NAME:...` (`-1` keeps a dim dynamic):
//! `set_input_shapes{shapes=image:1x3x224x224}`. [`option_text`] writes it.

use crate::pass::{Changed, Pass, PassError, PassResult, PassRun, Registered};
use crate::registry::{MakeError, PassInfo};

/// The `set_input_shapes` pass.
pub const INFO: PassInfo = PassInfo {
    argument: "set_input_shapes",
    description: "give inputs (data and feed ops) fixed dims and re-infer the types of every \
                  op they reach, control flow included",
    options: &["shapes"],
    make: |o| {
        let text = o.take("shapes").ok_or_else(|| {
            MakeError::from("needs `shapes=NAME:DxD...` (e.g. shapes=x:1x3x224x224;mask:1x128)")
        })?;
        Ok(Box::new(SetInputShapes::new(parse_shapes(&text)?)))
    },
};

/// The `set_input_shapes` pass.
#[derive(Debug, Clone)]
pub struct SetInputShapes {
    shapes: Vec<(String, Vec<i64>)>,
}

impl SetInputShapes {
    /// The pass giving each named input its dims.
    pub fn new(shapes: Vec<(String, Vec<i64>)>) -> SetInputShapes {
        SetInputShapes { shapes }
    }
}

/// The pass option's text for these shapes: `x:1x3x224x224;mask:1x128`.
pub fn option_text(shapes: &[(String, Vec<i64>)]) -> String {
    shapes
        .iter()
        .map(|(name, dims)| {
            let dims: Vec<String> = dims.iter().map(i64::to_string).collect();
            format!("{name}:{}", dims.join("x"))
        })
        .collect::<Vec<_>>()
        .join(";")
}

/// Reads dims written `1x3x224x224` or `1,3,224,224` (`-1` for a dynamic
/// dim, nothing for a 0-d input).
pub fn parse_dims(text: &str) -> Result<Vec<i64>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(['x', ','])
        .map(|d| {
            let d = d.trim();
            match d.parse::<i64>() {
                Ok(v) if v >= -1 => Ok(v),
                _ => Err(format!("`{d}` is not a dim (a size or -1) in `{text}`")),
            }
        })
        .collect()
}

/// Reads the option `NAME:DxD...;NAME:...`.
pub fn parse_shapes(text: &str) -> Result<Vec<(String, Vec<i64>)>, String> {
    text.split(';')
        .filter(|s| !s.trim().is_empty())
        .map(|entry| {
            let (name, dims) = entry
                .rsplit_once(':')
                .ok_or_else(|| format!("`{entry}`: write NAME:DxD... (e.g. x:1x3x224x224)"))?;
            let name = name.trim();
            if name.is_empty() {
                return Err(format!("`{entry}`: the input name is empty"));
            }
            Ok((name.to_owned(), parse_dims(dims)?))
        })
        .collect()
}

impl Registered for SetInputShapes {
    const INFO: PassInfo = INFO;
}

impl Pass for SetInputShapes {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        if root != program.module_op() {
            return Err(PassError::new(
                INFO.argument,
                "inputs belong to the whole program: run it on the module",
            ));
        }
        let inferer = pir_infer::Inferer::shared(program.ctx_arc());
        let done = inferer
            .set_input_shapes(program, &self.shapes)
            .map_err(|e| PassError::new(INFO.argument, e))?;
        cx.statistics.add("inputs set", done.inputs as u64);
        cx.statistics.add("ops re-inferred", done.reinferred as u64);
        cx.statistics.add("values retyped", done.retyped as u64);
        Ok(if done.retyped > 0 {
            Changed::Yes
        } else {
            Changed::No
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_text_reads_back() {
        let shapes = vec![
            ("image".to_owned(), vec![1, 3, 224, 224]),
            ("mask".to_owned(), vec![-1, 128]),
            ("scalar".to_owned(), vec![]),
        ];
        assert_eq!(parse_shapes(&option_text(&shapes)), Ok(shapes));
        assert_eq!(parse_dims("1,3,-1"), Ok(vec![1, 3, -1]));
        assert!(parse_dims("1x-2").is_err());
        assert!(parse_dims("1xa").is_err());
        assert!(parse_shapes("1x2").is_err());
        assert!(parse_shapes(":1x2").is_err());
    }
}
