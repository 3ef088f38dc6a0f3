#!/usr/bin/env python3
"""`einsum_to_matmul`, judged by Paddle 3.3.1 on einsums the corpus lacks.

Builds with Paddle (dy2static, `paddle.jit.save`, in a temporary directory) a
model whose einsums cover the pass's cases:
  - `...qd,...kd->...qk`: batch dims through `...`, the second operand swapped
    (matmul's `transpose_y`);
  - `bhqk,bhkd->bqhd`: attention's output, a transpose after the matmul;
  - `qbk,kbd->bqd`: both operands transposed before the matmul;
  - `ij,jk->i`: a sum, which must stay an einsum;
then runs `pir opt MODEL.json -p einsum_to_matmul` and checks that the
rewritable einsums are gone, the sum is kept, and that Paddle's static
executor (`load_inference_model` + `Executor.run`) gives the original's
outputs for the result on random inputs (max |a - b| <= 1e-5).

Prints one line per output and `PASS` or `FAIL`; exit status 0 on PASS.
Needs `pip install paddlepaddle==3.3.1` and `cargo build --release -p pir-cli`
(`PIR_BIN` overrides the binary).

Usage: scripts/paddle_check_einsum.py
"""

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIR = os.environ.get("PIR_BIN", os.path.join(ROOT, "target", "release", "pir"))


def build(work):
    import numpy as np
    import paddle

    class Einsums(paddle.nn.Layer):
        def forward(self, q, k, v, m):
            scores = paddle.einsum("...qd,...kd->...qk", q, k)
            attn = paddle.nn.functional.softmax(scores, -1)
            out = paddle.einsum("bhqk,bhkd->bqhd", attn, v)
            both = paddle.einsum("qbk,kbd->bqd", q[0], paddle.transpose(q[0], [2, 1, 0]))
            summed = paddle.einsum("ij,jk->i", m, paddle.transpose(m, [1, 0]))
            return out, both, summed

    spec = [
        paddle.static.InputSpec([-1, 4, 5, 8], "float32", "q"),
        paddle.static.InputSpec([-1, 4, 6, 8], "float32", "k"),
        paddle.static.InputSpec([-1, 4, 6, 8], "float32", "v"),
        paddle.static.InputSpec([3, 7], "float32", "m"),
    ]
    layer = paddle.jit.to_static(Einsums(), input_spec=spec, full_graph=True)
    paddle.jit.save(layer, os.path.join(work, "model"))
    rng = np.random.default_rng(0)
    shapes = {"q": (2, 4, 5, 8), "k": (2, 4, 6, 8), "v": (2, 4, 6, 8), "m": (3, 7)}
    return {n: rng.standard_normal(s).astype("float32") for n, s in shapes.items()}


def run(prefix, inputs):
    import paddle

    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
    return exe.run(prog, feed={n: inputs[n] for n in feeds}, fetch_list=fetches)


def main():
    try:
        import numpy as np
        import paddle  # noqa: F401
    except ImportError:
        print("paddlepaddle is not installed: pip install paddlepaddle==3.3.1", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="einsum_check_") as work:
        inputs = build(work)
        src, dst = os.path.join(work, "model"), os.path.join(work, "rewritten")
        opt = subprocess.run([PIR, "opt", src + ".json", "-p", "einsum_to_matmul", "-o", dst + ".json"],
                             capture_output=True, text=True)
        if opt.returncode != 0:
            print("FAIL: pir opt: " + opt.stderr.strip())
            return 1
        text = subprocess.run([PIR, "print", dst + ".json"], capture_output=True, text=True).stdout
        left = text.count('"pd_op.einsum"')
        ok = left == 1
        print("einsums left: %d (the sum)" % left)
        for i, (a, b) in enumerate(zip(run(src, inputs), run(dst, inputs))):
            diff = float(np.abs(a - b).max()) if a.shape == b.shape else float("inf")
            print("output %d: shape %s, max |a - b| %g" % (i, a.shape, diff))
            ok &= diff <= 1e-5
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
