//! Test support: the corpus of real files written by Paddle.
//!
//! Tests iterate over the corpus index (`index.json`) instead of hard-coded
//! lists. The full corpus lives in `../shared/paddle-corpus` beside the
//! repository; a few small models are shipped in the repository under
//! `tests/corpus`, so tests still have real files to read when the full corpus
//! is absent.
//!
//! ```
//! for model in pir_corpus::models() {
//!     assert!(model.json().exists());
//! }
//! ```

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

/// A small deterministic random generator (xorshift64*) for tests that
/// mutate inputs: a failure reproduces from its seed.
///
/// ```
/// let mut rng = pir_corpus::Rng(42);
/// assert!(rng.below(10) < 10);
/// ```
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// The repository root (two levels above this crate).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The full corpus folder if present, else the copy shipped in the repository.
pub fn corpus_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("PIR_CORPUS") {
        return PathBuf::from(dir);
    }
    let shared = repo_root().join("../shared/paddle-corpus");
    if shared.join("index.json").exists() {
        shared
    } else {
        repo_root().join("tests/corpus")
    }
}

/// Whether the full corpus (not just the shipped copy) is available.
pub fn full_corpus_available() -> bool {
    repo_root()
        .join("../shared/paddle-corpus/index.json")
        .exists()
}

/// One model of the corpus index.
#[derive(Clone, Debug)]
pub struct Model {
    /// Model name (`mlp_tiny`).
    pub name: String,
    /// The Paddle release that wrote it.
    pub paddle_version: String,
    /// `base_code.version` of its JSON file.
    pub pir_version: u64,
    /// Files of the model, relative to the corpus folder.
    pub files: Vec<String>,
    /// Total op count (nested included).
    pub op_count: u64,
    /// For compat models: the release folder (`3.0.0`).
    pub saved_by: Option<String>,
    dir: PathBuf,
}

impl Model {
    /// Path of the file whose name ends with `suffix` (e.g. `.json`), if listed.
    pub fn file(&self, suffix: &str) -> Option<PathBuf> {
        let stem = format!("{}{}", self.name, suffix);
        self.files
            .iter()
            .find(|f| f.ends_with(&format!("/{stem}")) || **f == stem)
            .map(|f| self.dir.join(f))
    }

    /// The model's program JSON.
    pub fn json(&self) -> PathBuf {
        self.file(".json")
            .unwrap_or_else(|| self.dir.join(format!("{}.json", self.name)))
    }

    /// Paddle's printed text of the model, if the corpus has it.
    pub fn txt(&self) -> Option<PathBuf> {
        self.file(".txt")
    }

    /// A file name unique across releases (`3.0.0/lenet` for compat models).
    pub fn label(&self) -> String {
        match &self.saved_by {
            Some(v) => format!("{v}/{}", self.name),
            None => self.name.clone(),
        }
    }
}

fn read_index(section: &str) -> Vec<Model> {
    read_index_in(corpus_dir(), section)
}

fn read_index_in(dir: PathBuf, section: &str) -> Vec<Model> {
    let path = dir.join("index.json");
    // A corpus without an index has no models; an index that cannot be
    // read or parsed is a broken corpus, said as such (not an empty list
    // that makes every test look for models in vain).
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => panic!("{}: {e}", path.display()),
    };
    let index = serde_json::from_str::<serde_json::Value>(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let Some(list) = index.get(section).and_then(|v| v.as_array()) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|m| {
            Some(Model {
                name: m.get("name")?.as_str()?.to_owned(),
                paddle_version: m
                    .get("paddle_version")
                    .and_then(|v| v.as_str())
                    .unwrap_or_default()
                    .to_owned(),
                pir_version: m
                    .get("pir_version")
                    .and_then(|v| v.as_u64())
                    .unwrap_or_default(),
                files: m
                    .get("files")?
                    .as_array()?
                    .iter()
                    .filter_map(|f| f.as_str().map(str::to_owned))
                    .collect(),
                op_count: m
                    .get("op_count")
                    .and_then(|v| v.as_u64())
                    .unwrap_or_default(),
                saved_by: m
                    .get("saved_by")
                    .and_then(|v| v.as_str())
                    .map(str::to_owned),
                dir: dir.clone(),
            })
        })
        .collect()
}

/// Models written by the current Paddle release (top level of the corpus).
pub fn models() -> Vec<Model> {
    read_index("models")
}

/// The model named `name` of the corpus in use, if it has one.
pub fn model(name: &str) -> Option<Model> {
    models().into_iter().find(|m| m.name == name)
}

/// Models written by older releases (`compat/<release>/`).
pub fn compat_models() -> Vec<Model> {
    read_index("compat")
}

/// The control-flow models shipped in the repository
/// (`tests/corpus/control_flow`, made by `scripts/make_control_flow_models.py`):
/// loops in branches, branches in loops, carried and captured values, in-place
/// ops in loop bodies, with inputs and Paddle's outputs.
pub fn control_flow_models() -> Vec<Model> {
    read_index_in(repo_root().join("tests/corpus/control_flow"), "models")
}

/// The models the analysis benchmarks run on, each read by `load` from its
/// JSON: `20k_ops`, the synthetic model of 2,500 blocks
/// ([`synthetic_mlp_json`], 20,002 ops), and `huge_5000ops` when the full
/// corpus is beside the repository. Panics, naming the model, when one
/// cannot be read.
pub fn bench_models<T, E: std::fmt::Display>(
    load: impl Fn(&[u8]) -> Result<T, E>,
) -> Vec<(&'static str, T)> {
    let mut inputs = vec![("20k_ops", synthetic_mlp_json(2500).into_bytes())];
    if let Some(m) = model("huge_5000ops") {
        let json = std::fs::read(m.json()).unwrap_or_else(|e| panic!("huge_5000ops: {e}"));
        inputs.push(("huge_5000ops", json));
    }
    inputs
        .into_iter()
        .map(|(name, json)| (name, load(&json).unwrap_or_else(|e| panic!("{name}: {e}"))))
        .collect()
}

/// A synthetic model in Paddle's JSON format, shaped like the corpus'
/// `huge_5000ops`: `blocks` stacked Linear(4,4) + ReLU + LayerNorm(4) blocks,
/// four parameters and four ops per block, plus feed and fetch
/// (`8 * blocks + 2` ops). Used by benchmarks and size tests; the text is what
/// Paddle's writer produces for such a program.
pub fn synthetic_mlp_json(blocks: usize) -> String {
    const F32_4: &str = r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[4],"NCHW",[],0]}"##;
    const F32_4X4: &str = r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[4,4],"NCHW",[],0]}"##;
    const F32_N4: &str = r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[-1,4],"NCHW",[],0]}"##;
    const F32_N: &str = r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[-1],"NCHW",[],0]}"##;
    const SG: &str =
        r##"{"AT":{"#":"0.a_array","D":[{"#":"0.a_bool","D":false}]},"N":"stop_gradient"}"##;
    let mut ops: Vec<String> = Vec::with_capacity(blocks * 8 + 2);
    let mut id = 0i64;
    let mut next = || {
        id += 1;
        id
    };
    let mut params = Vec::with_capacity(blocks);
    for b in 0..blocks {
        let mut ids = [0i64; 4];
        for (k, (name, ty)) in [
            (format!("linear_{b}.w_0"), F32_4X4),
            (format!("linear_{b}.b_0"), F32_4),
            (format!("layer_norm_{b}.w_0"), F32_4),
            (format!("layer_norm_{b}.b_0"), F32_4),
        ]
        .into_iter()
        .enumerate()
        {
            ids[k] = next();
            ops.push(format!(
                r##"{{"#":"p","A":[0,1,1,"{name}"],"DA":[],"O":{{"%":{},"TT":{ty}}},"OA":[1,0,1],"QA":[]}}"##,
                ids[k]
            ));
        }
        params.push(ids);
    }
    let mut x = next();
    ops.push(format!(
        r##"{{"#":"1.data","A":[{{"AT":{{"#":"0.a_str","D":"x"}},"N":"name"}},{{"AT":{{"#":"1.a_intarray","D":[-1,4]}},"N":"shape"}},{{"AT":{{"#":"1.a_dtype","D":"float32"}},"N":"dtype"}},{{"AT":{{"#":"1.a_place","D":[0,0,""]}},"N":"place"}}],"I":[],"O":[{{"%":{x},"TT":{F32_N4}}}],"OA":[{SG}]}}"##
    ));
    for (b, [w, bias, ln_w, ln_b]) in params.into_iter().enumerate() {
        let scope = if b == 0 {
            "/Block/".to_owned()
        } else {
            format!("/Block_{b}/")
        };
        let mm = next();
        ops.push(format!(
            r##"{{"#":"1.matmul","A":[{{"AT":{{"#":"0.a_bool","D":false}},"N":"transpose_x"}},{{"AT":{{"#":"0.a_bool","D":false}},"N":"transpose_y"}},{{"AT":{{"#":"0.a_str","D":"{scope}Linear/"}},"N":"struct_name"}}],"I":[{{"%":{x}}},{{"%":{w}}}],"O":[{{"%":{mm},"TT":{F32_N4}}}],"OA":[{SG}]}}"##
        ));
        let add = next();
        ops.push(format!(
            r##"{{"#":"1.add","A":[{{"AT":{{"#":"0.a_str","D":"{scope}Linear/"}},"N":"struct_name"}}],"I":[{{"%":{mm}}},{{"%":{bias}}}],"O":[{{"%":{add},"TT":{F32_N4}}}],"OA":[{SG}]}}"##
        ));
        let relu = next();
        ops.push(format!(
            r##"{{"#":"1.relu","A":[{{"AT":{{"#":"0.a_str","D":"{scope}"}},"N":"struct_name"}}],"I":[{{"%":{add}}}],"O":[{{"%":{relu},"TT":{F32_N4}}}],"OA":[{SG}]}}"##
        ));
        let (out, mean, var) = (next(), next(), next());
        ops.push(format!(
            r##"{{"#":"1.layer_norm","A":[{{"AT":{{"#":"0.a_f32","D":9.999999747378752e-06}},"N":"epsilon"}},{{"AT":{{"#":"0.a_i32","D":1}},"N":"begin_norm_axis"}},{{"AT":{{"#":"0.a_str","D":"{scope}LayerNorm/"}},"N":"struct_name"}}],"I":[{{"%":{relu}}},{{"%":{ln_w}}},{{"%":{ln_b}}}],"O":[{{"%":{out},"TT":{F32_N4}}},{{"%":{mean},"TT":{F32_N}}},{{"%":{var},"TT":{F32_N}}}],"OA":[{{"AT":{{"#":"0.a_array","D":[{{"#":"0.a_bool","D":false}},{{"#":"0.a_bool","D":false}},{{"#":"0.a_bool","D":false}}]}},"N":"stop_gradient"}}]}}"##
        ));
        x = out;
    }
    let fetch = next();
    ops.push(format!(
        r##"{{"#":"1.fetch","A":[{{"AT":{{"#":"0.a_str","D":"fetch_name_0"}},"N":"name"}},{{"AT":{{"#":"0.a_i32","D":0}},"N":"col"}}],"I":[{{"%":{x}}}],"O":[{{"%":{fetch},"TT":{F32_N4}}}],"OA":[{{"AT":{{"#":"0.a_array","D":[{{"#":"0.a_bool","D":true}}]}},"N":"persistable"}},{SG}]}}"##
    ));
    format!(
        r##"{{"base_code":{{"magic":"pir","trainable":true,"version":4}},"program":{{"regions":[{{"#":"region_0","blocks":[{{"#":"block_0","args":[],"ops":[{}]}}]}}]}}}}"##,
        ops.join(",")
    )
}
