#!/usr/bin/env python3
"""Checks that a model built from scratch by pir-rs loads and runs in Paddle.

Builds the save/load design's fc example with `cargo run -p pir --example fc_model`
(parameter -> data -> matmul -> add -> relu -> full -> scale -> fetch, random weights),
loads PREFIX.json + PREFIX.pdiparams with Paddle 3.3.1 (`paddle.static.load_inference_model`),
runs it on a random input and compares with numpy's relu(x @ w + b) computed from the
parameter file read back by Paddle itself.

Needs `pip install paddlepaddle==3.3.1`. Usage: scripts/paddle_check_fc.py
"""

import os
import subprocess
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("GLOG_minloglevel", "2")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    try:
        import numpy as np
        import paddle
    except ImportError:
        print("paddlepaddle is not installed: pip install paddlepaddle==3.3.1", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp()
    prefix = os.path.join(tmp, "fc")
    subprocess.run(["cargo", "run", "--quiet", "--release", "-p", "pir", "--example", "fc_model", "--", prefix],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
    print("paddle", paddle.__version__, "loaded", prefix + ".json", "feeds", feeds)
    x = np.random.default_rng(0).standard_normal((4, 30)).astype("float32")
    (out,) = exe.run(program, feed={feeds[0]: x}, fetch_list=fetches)
    scope = paddle.static.global_scope()
    w = np.array(scope.find_var("fc_0.w_0").get_tensor())
    b = np.array(scope.find_var("fc_0.b_0").get_tensor())
    expected = np.maximum(x @ w + b, 0.0)
    diff = float(np.abs(out - expected).max())
    print("output", out.shape, "sum %.6f" % float(out.sum()), "max |paddle - numpy| = %.3g" % diff)
    ok = out.shape == (4, 30) and diff < 1e-5
    print("OK" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
