#!/usr/bin/env python3
"""Reference outputs for the ONNX test of the pytest suite
(`crates/pir-py/tests/test_onnx_export.py`), computed by Paddle 3.3.1.

Run with Paddle's Python:

    /work/venv-paddle/bin/python scripts/make_onnx_refs.py

For each model of tests/corpus, tests/corpus/control_flow and the
sequence-decoding and signal models of tests/corpus/onnx_ops (`op_*.json`,
made with their inputs by scripts/make_onnx_decode_models.py) (`NAME.json`):
a model without `NAME.inputs.npz` gets one made from its `meta.json`
`input_specs` (batch 2 for a dynamic first dim, seed 2024; float inputs
normal, integer inputs 4, the loop count the control-flow models take);
then Paddle 3.3.1 runs the model on those inputs (`load_inference_model` +
`Executor.run` on CPU) and its fetches are saved as `NAME.outputs.npz`
(`arr_0`, `arr_1`, ... in fetch order). Input keys are `argI_NAME`, as the
corpus's inputs are. Models Paddle cannot run as inference programs (a
training program) are reported and get no outputs. The legacy models of
tests/corpus/legacy already carry `NAME.ref.npz` (Paddle 2.6.2's outputs).
"""

import glob
import json
import os
import sys

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRS = [f"{REPO}/tests/corpus", f"{REPO}/tests/corpus/control_flow", f"{REPO}/tests/corpus/onnx_ops"]
# In tests/corpus/onnx_ops, only the models of make_onnx_decode_models.py.
OPS_PREFIX = "op_"


def make_inputs(meta_path, out):
    specs = json.load(open(meta_path)).get("input_specs") or []
    if not specs:
        return False
    rng = np.random.default_rng(2024)
    arrays = {}
    for i, spec in enumerate(specs):
        shape = [2 if d == -1 else d for d in spec["shape"]]
        dtype = np.dtype(spec["dtype"])
        if dtype.kind == "f":
            value = rng.standard_normal(shape).astype(dtype)
        else:
            value = np.full(shape, 4 if spec["name"] == "n" else 0, dtype=dtype)
        arrays[f"arg{i}_{spec['name']}"] = value
    np.savez(out, **arrays)
    return True


def main():
    import paddle

    paddle.set_device("cpu")
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    for d in DIRS:
        for model in sorted(glob.glob(f"{d}/*.json")):
            prefix = model[: -len(".json")]
            name = os.path.basename(prefix)
            meta = prefix + ".meta.json"
            if not os.path.exists(meta) or name.endswith((".meta", ".translated", ".legacy")):
                continue
            if d.endswith("onnx_ops") and not name.startswith(OPS_PREFIX):
                continue
            inputs = prefix + ".inputs.npz"
            try:
                prog, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
            except Exception as e:  # a training program
                print(f"{name}: Paddle cannot load it for inference ({type(e).__name__})", file=sys.stderr)
                continue
            if not os.path.exists(inputs) and not make_inputs(meta, inputs):
                print(f"{name}: no input specs", file=sys.stderr)
                continue
            data = np.load(inputs)
            by_name = {k.split("_", 1)[1]: data[k] for k in data.files}
            try:
                flat = exe.run(prog, feed={n: by_name[n] for n in feeds}, fetch_list=fetches)
            except Exception as e:
                print(f"{name}: Paddle cannot run it ({type(e).__name__}: {str(e)[:200]})", file=sys.stderr)
                continue
            np.savez(prefix + ".outputs.npz", *[np.asarray(a) for a in flat])
            print(f"{name}: {len(flat)} outputs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
