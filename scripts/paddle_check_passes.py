#!/usr/bin/env python3
"""Numerical equivalence of pass pipelines: each corpus model is optimized with
`pir opt MODEL.json -p PIPELINE`, loaded by Paddle 3.3.1 (`paddle.jit.load`, with the
model's original .pdiparams), run on the corpus reference input (NAME.inputs.npz), and
its outputs compared with NAME.meta.json's reference_output (shape, sum, abs_sum,
first8; relative tolerance 1e-5).

Needs `pip install paddlepaddle==3.3.1` and `cargo build --release -p pir-cli`.
Usage: scripts/paddle_check_passes.py [--pipeline "canonicalize,cse,dce"]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("GLOG_minloglevel", "2")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIR = os.environ.get("PIR_BIN", os.path.join(ROOT, "target", "release", "pir"))
CORPUS = os.path.join(ROOT, "..", "shared", "paddle-corpus")
sys.path.insert(0, os.path.join(ROOT, "crates", "pir-params", "scripts"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pipeline", default="canonicalize,cse,dce")
    args = ap.parse_args()
    try:
        import numpy as np
        import paddle
    except ImportError:
        print("paddlepaddle is not installed: pip install paddlepaddle==3.3.1", file=sys.stderr)
        return 2
    from paddle_roundtrip import compare_outputs, flatten  # the same comparison as the parameter checks

    index = json.load(open(os.path.join(CORPUS, "index.json")))
    passed = failed = 0
    for entry in index["models"]:
        name = entry["name"]
        meta = json.load(open(os.path.join(CORPUS, name + ".meta.json")))
        params = os.path.join(CORPUS, name + ".pdiparams")
        inputs_path = os.path.join(CORPUS, name + ".inputs.npz")
        if not os.path.exists(params) or not os.path.exists(inputs_path) or name == "infer_untrainable":
            continue
        work = tempfile.mkdtemp()
        prefix = os.path.join(work, "model")
        res = subprocess.run([PIR, "opt", os.path.join(CORPUS, name + ".json"), "-p", args.pipeline,
                              "-o", prefix + ".json", "--statistics"], capture_output=True, text=True)
        if res.returncode != 0:
            print("FAIL %s: pir opt: %s" % (name, res.stderr.strip()))
            failed += 1
            continue
        changed = sum(int(l.split()[0]) for l in res.stderr.splitlines()
                      if l.strip() and l.split()[0].isdigit() and ("erased" in l or "merged" in l or "applied" in l))
        shutil.copy(params, prefix + ".pdiparams")
        try:
            layer = paddle.jit.load(prefix)
            npz = np.load(inputs_path)
            inputs = [paddle.to_tensor(npz[k]) for k in sorted(npz.files, key=lambda k: int(k[3:].split("_")[0]))]
            problem = compare_outputs(flatten(layer(*inputs)), meta["reference_output"])
        except Exception as e:  # a Paddle failure is a failed check, reported
            problem = "paddle: %s" % str(e).splitlines()[0][:200]
        if problem is None:
            print("PASS %s: %d changes, outputs match reference_output" % (name, changed))
            passed += 1
        else:
            print("FAIL %s: %s" % (name, problem))
            failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
