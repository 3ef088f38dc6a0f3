#!/usr/bin/env python3
"""Build the small per-op models of `tests/corpus/onnx_ops/` with Paddle 3.3.1.

Each model uses one op family the ONNX exporter maps with a loop or an index
computation (sequence decoding and signal framing), on dynamic shapes, so that
`scripts/onnx_check.py --sets ops` can judge the exported file against Paddle
at the saved batch and at batch 1 and 3 (the other models of that folder,
decompositions and detection ops, come from scripts/make_onnx_op_models.py):

| model | ops |
|---|---|
| `op_ctc_align` | `ctc_align` on padded int32 and int64 tokens with lengths, merging repeats or not |
| `op_gather_tree` | `gather_tree` of beam-search ids and parents (`[time, batch, beam]`, time and batch dynamic) |
| `op_viterbi_decode` | `viterbi_decode` with and without the begin/end tags, lengths below the padded time |
| `op_crf_decoding` | `crf_decoding` with lengths, with and without a label |
| `op_edit_distance` | `edit_distance` of padded int64 sequences with lengths, plain and normalized |
| `op_frame` | `frame` along the last axis and along axis 0 |
| `op_overlap_add` | `overlap_add` along the last axis and along axis 0 |
| `op_gru_unit` | `gru_unit` (one version-1 GRU step) with and without a bias, both update modes |

Files per model `NAME`: `NAME.json` and `NAME.pdiparams` (as `paddle.jit.save`
writes them; PIR, the default of Paddle 3.3.1), `NAME.inputs.npz`
(`arg<i>_<feed name>`: batch 4 where a dim is dynamic, values chosen so that
lengths vary and tokens repeat), `NAME.b1.inputs.npz` and `NAME.b3.inputs.npz`
(its first sample, its first three; `op_gather_tree` also `NAME.b1t1.inputs.npz`,
one sample of one time step), `NAME.meta.json` (name, description, Paddle
version, `input_specs`: what `onnx_check.py` reads to cut and tile the batch).
Then `scripts/make_onnx_refs.py` adds `NAME.outputs.npz` (Paddle's outputs).

Every prefix of the batch is a valid input on its own: lengths never exceed
the padded time, beam parents stay below the beam width.

Run (CPU; a few seconds):

    /work/venv-paddle/bin/python scripts/make_onnx_decode_models.py [--out tests/corpus/onnx_ops]
"""

import argparse
import json
import os
import sys
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("GLOG_minloglevel", "2")

import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "tests", "corpus", "onnx_ops")
SEED = 2024


def models():
    """name -> (description, layer factory, [(name, spec shape, dtype, value[, batch axis])])."""
    import paddle
    from paddle import _C_ops

    rng = np.random.default_rng(SEED)

    class CtcAlign(paddle.nn.Layer):
        def forward(self, tokens, lengths, tokens64, lengths64):
            a, al = _C_ops.ctc_align(tokens, lengths, 0, True, -1)
            b, bl = _C_ops.ctc_align(tokens64, lengths64, 2, False, 0)
            return a, al, b, bl

    tokens = np.array([[0, 1, 1, 0, 2, 2, 2, 3],
                       [1, 1, 1, 1, 1, 1, 1, 1],
                       [0, 0, 0, 0, 0, 0, 0, 0],
                       [3, 0, 3, 3, 1, 0, 1, 2]], dtype=np.int32)
    lengths = np.array([[7], [8], [5], [6]], dtype=np.int32)

    class GatherTree(paddle.nn.Layer):
        def forward(self, ids, parents):
            return paddle.nn.functional.gather_tree(ids, parents)

    # [time, batch, beam]: time and batch dynamic.
    ids = rng.integers(0, 10, size=(5, 4, 3)).astype(np.int64)
    parents = rng.integers(0, 3, size=(5, 4, 3)).astype(np.int64)

    class Viterbi(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.trans = self.create_parameter([5, 5])
            self.trans.set_value(paddle.to_tensor(rng.standard_normal((5, 5)).astype(np.float32)))

        def forward(self, potentials, lengths):
            s1, p1 = paddle.text.viterbi_decode(potentials, self.trans, lengths, True)
            s2, p2 = paddle.text.viterbi_decode(potentials, self.trans, lengths, False)
            return s1, p1, s2, p2

    potentials = rng.standard_normal((4, 6, 5)).astype(np.float32)
    vlengths = np.array([4, 6, 1, 3], dtype=np.int64)

    class Crf(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.trans = self.create_parameter([6, 4])
            self.trans.set_value(paddle.to_tensor(rng.standard_normal((6, 4)).astype(np.float32)))

        def forward(self, emission, length, label):
            path = _C_ops.crf_decoding(emission, self.trans, None, length)
            hits = _C_ops.crf_decoding(emission, self.trans, label, length)
            return path, hits

    emission = rng.standard_normal((4, 5, 4)).astype(np.float32)
    clengths = np.array([3, 5, 0, 1], dtype=np.int64)
    label = rng.integers(0, 4, size=(4, 5)).astype(np.int64)

    class EditDistance(paddle.nn.Layer):
        def forward(self, hyps, refs, hyp_len, ref_len):
            n, d = _C_ops.edit_distance(hyps, refs, hyp_len, ref_len, False)
            _, dn = _C_ops.edit_distance(hyps, refs, hyp_len, ref_len, True)
            return n, d, dn

    hyps = rng.integers(0, 4, size=(4, 6)).astype(np.int64)
    refs = rng.integers(0, 4, size=(4, 5)).astype(np.int64)
    hyp_len = np.array([6, 0, 3, 4], dtype=np.int64)
    ref_len = np.array([4, 2, 5, 1], dtype=np.int64)

    class Frame(paddle.nn.Layer):
        def forward(self, x):
            last = paddle.signal.frame(x, 8, 3, axis=-1)
            first = paddle.signal.frame(paddle.transpose(x, [1, 0]), 5, 4, axis=0)
            return last, first

    signal = rng.standard_normal((4, 26)).astype(np.float32)

    class OverlapAdd(paddle.nn.Layer):
        def forward(self, x):
            last = paddle.signal.overlap_add(x, 3, axis=-1)
            first = paddle.signal.overlap_add(paddle.transpose(x, [2, 1, 0]), 2, axis=0)
            return last, first

    frames = rng.standard_normal((4, 6, 7)).astype(np.float32)

    class GruUnit(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.weight = self.create_parameter([3, 9])
            self.weight.set_value(paddle.to_tensor(rng.standard_normal((3, 9)).astype(np.float32)))
            self.bias = self.create_parameter([1, 9])
            self.bias.set_value(paddle.to_tensor(rng.standard_normal((1, 9)).astype(np.float32)))

        def forward(self, x, h):
            # The Python op returns the hidden state only.
            hidden = _C_ops.gru_unit(x, h, self.weight, self.bias, 2, 1, False)
            origin = _C_ops.gru_unit(x, h, self.weight, None, 3, 1, True)
            return hidden, origin

    gru_x = rng.standard_normal((4, 9)).astype(np.float32)
    gru_h = rng.standard_normal((4, 3)).astype(np.float32)

    return {
        "op_ctc_align": ("ctc_align on padded int32 and int64 tokens with lengths "
                         "(blank 0 merging repeats, padding -1; blank 2 keeping them, padding 0)",
                         CtcAlign,
                         [("tokens", [-1, 8], "int32", tokens),
                          ("lengths", [-1, 1], "int32", lengths),
                          ("tokens64", [-1, 8], "int64", tokens.astype(np.int64)),
                          ("lengths64", [-1, 1], "int64", lengths.astype(np.int64))]),
        "op_gather_tree": ("gather_tree of beam-search ids and parents [time, batch, beam]",
                           GatherTree,
                           [("ids", [-1, -1, 3], "int64", ids, 1),
                            ("parents", [-1, -1, 3], "int64", parents, 1)]),
        "op_viterbi_decode": ("viterbi_decode with and without begin/end tags, lengths 4, 6, 1, 3 of 6",
                              Viterbi,
                              [("potentials", [-1, 6, 5], "float32", potentials),
                               ("lengths", [-1], "int64", vlengths)]),
        "op_crf_decoding": ("crf_decoding with lengths 3, 5, 0, 1 of 5, without and with a label",
                            Crf,
                            [("emission", [-1, 5, 4], "float32", emission),
                             ("length", [-1], "int64", clengths),
                             ("label", [-1, 5], "int64", label)]),
        "op_edit_distance": ("edit_distance of padded int64 sequences with lengths, plain and normalized",
                             EditDistance,
                             [("hyps", [-1, 6], "int64", hyps),
                              ("refs", [-1, 5], "int64", refs),
                              ("hyp_len", [-1], "int64", hyp_len),
                              ("ref_len", [-1], "int64", ref_len)]),
        "op_frame": ("frame (length 8, hop 3) along the last axis, (length 5, hop 4) along axis 0",
                     Frame,
                     [("x", [-1, 26], "float32", signal)]),
        "op_overlap_add": ("overlap_add (hop 3) along the last axis, (hop 2) along axis 0",
                           OverlapAdd,
                           [("x", [-1, 6, 7], "float32", frames)]),
        "op_gru_unit": ("gru_unit with a bias (tanh, sigmoid) and without (relu, sigmoid, origin_mode)",
                        GruUnit,
                        [("x", [-1, 9], "float32", gru_x),
                         ("h", [-1, 3], "float32", gru_h)]),
    }


def build(name, description, factory, inputs, out):
    import paddle

    paddle.disable_static()
    paddle.seed(SEED)
    layer = factory()
    layer.eval()
    specs = [paddle.static.InputSpec(spec[1], spec[2], spec[0]) for spec in inputs]
    static = paddle.jit.to_static(layer, input_spec=specs, full_graph=True)
    prefix = os.path.join(out, name)
    paddle.jit.save(static, prefix)
    np.savez(prefix + ".inputs.npz", **{f"arg{i}_{spec[0]}": spec[3] for i, spec in enumerate(inputs)})
    # The batches beside the saved one: its first sample, its first three;
    # for inputs whose batch is not their first axis (`gather_tree`'s
    # [time, batch, beam]) also one time step.
    variants = {"b1": (1, None), "b3": (3, None)}
    if any(len(spec) > 4 for spec in inputs):
        variants["b1t1"] = (1, 1)
    for label, (batch, steps) in variants.items():
        arrays = {}
        for i, spec in enumerate(inputs):
            axis = spec[4] if len(spec) > 4 else 0
            value = np.take(spec[3], range(batch), axis=axis)
            if steps is not None and axis != 0:
                value = value[:steps]
            arrays[f"arg{i}_{spec[0]}"] = value
        np.savez(f"{prefix}.{label}.inputs.npz", **arrays)
    meta = {
        "name": name,
        "description": description,
        "paddle_version": paddle.__version__,
        "save_api": "paddle.jit.save(paddle.jit.to_static(layer, input_spec=[...], full_graph=True), prefix)",
        "input_specs": [{"name": spec[0], "shape": spec[1], "dtype": spec[2]} for spec in inputs],
        "generator": "scripts/make_onnx_decode_models.py",
    }
    with open(prefix + ".meta.json", "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    print(f"{name}: saved", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", default=None)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    import paddle

    paddle.set_device("cpu")
    only = set(args.only.split(",")) if args.only else None
    for name, (description, factory, inputs) in models().items():
        if only and name not in only:
            continue
        build(name, description, factory, inputs, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
