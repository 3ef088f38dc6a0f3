#!/usr/bin/env python3
"""Networks written with `pir.ops` (no type written anywhere) run by Paddle 3.3.1.

Two networks are built twice from the same random weights:
- with `pir.ops` at a `pir.InsertionPoint`, every result type inferred, saved with its
  parameters (`pir.Model.save`: NAME.json + NAME.pdiparams);
- with Paddle's own functional API in dynamic mode (the reference).
Paddle then loads pir's files (`paddle.jit.load`), runs them on a random input and the
outputs must equal the reference's (relative tolerance 1e-5, absolute 1e-6). Also the
types pir inferred must equal those Paddle gives when it builds the same program
(`paddle._pir_ops` under `program_guard`): the printed programs are compared op by op.

The networks:
- `cnn`: conv2d + bias, batch_norm (inference), relu, max pool, depthwise conv2d,
  hardswish, adaptive average pool, flatten, linear, softmax (NCHW, batch dynamic);
- `transformer`: a pre-norm transformer encoder block: layer_norm, q/k/v projections,
  reshape + transpose into heads, scaled matmul, softmax, attention output, residuals,
  a GELU feed-forward (batch and sequence dynamic).

Needs `pip install paddlepaddle==3.3.1` and `pir` importable in the same interpreter
(`pip install ./crates/pir-py`, or PYTHONPATH=crates/pir-py/python after
`maturin develop`). Prints one PASS/FAIL line per network and exits 1 on any failure.

Usage: scripts/paddle_check_ops.py [--keep DIR] [--seed N]
"""

import argparse
import os
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("GLOG_minloglevel", "2")

import numpy as np  # noqa: E402


def weights_cnn(rng):
    f = lambda *s: (rng.standard_normal(s) * 0.2).astype(np.float32)  # noqa: E731
    return {
        "conv1.w": f(8, 3, 3, 3), "conv1.b": f(8),
        "bn.scale": (1 + f(8)).astype(np.float32), "bn.bias": f(8),
        "bn.mean": f(8), "bn.var": (np.abs(f(8)) + 0.5).astype(np.float32),
        "dw.w": f(8, 1, 3, 3),
        "fc.w": f(8, 10), "fc.b": f(10),
    }


def build_cnn(pir, w):
    program = pir.Program()
    ops = pir.ops
    with pir.InsertionPoint(program.block):
        p = {name: ops.parameter(name, arr.shape) for name, arr in w.items()}
        x = ops.data("image", [-1, 3, 16, 16], "float32")
        y = ops.conv2d(x, p["conv1.w"], [1, 1], [1, 1], "EXPLICIT", [1, 1], 1, "NCHW")
        y = ops.add(y, ops.reshape(p["conv1.b"], [1, 8, 1, 1]))
        y = ops.batch_norm(y, p["bn.mean"], p["bn.var"], p["bn.scale"], p["bn.bias"], True, 0.9,
                           1e-5, "NCHW", False, False)[0]
        y = ops.relu(y)
        y = ops.pool2d(y, [2, 2], [2, 2], [0, 0], False, True, "NCHW", "max", False, False,
                       "EXPLICIT")
        y = ops.depthwise_conv2d(y, p["dw.w"], [1, 1], [1, 1], "EXPLICIT", 8, [1, 1], "NCHW")
        y = ops.hardswish(y)
        y = ops.pool2d(y, [1, 1], [1, 1], [0, 0], False, True, "NCHW", "avg", False, True,
                       "EXPLICIT")
        y = ops.flatten(y, 1, 3)
        y = ops.add(ops.matmul(y, p["fc.w"], False, False), p["fc.b"])
        out = ops.softmax(y, -1)
        ops.fetch(out, "probs", 0)
    return program


def reference_cnn(paddle, w, x):
    F = paddle.nn.functional
    t = {k: paddle.to_tensor(v) for k, v in w.items()}
    y = F.conv2d(paddle.to_tensor(x), t["conv1.w"], t["conv1.b"], padding=1)
    y = F.batch_norm(y, t["bn.mean"], t["bn.var"], t["bn.scale"], t["bn.bias"], training=False,
                     epsilon=1e-5)
    y = F.max_pool2d(F.relu(y), 2, 2)
    y = F.hardswish(F.conv2d(y, t["dw.w"], padding=1, groups=8))
    y = paddle.flatten(F.adaptive_avg_pool2d(y, 1), 1)
    return F.softmax(paddle.matmul(y, t["fc.w"]) + t["fc.b"], -1).numpy()


D, HEADS, FF = 16, 2, 32


def weights_transformer(rng):
    f = lambda *s: (rng.standard_normal(s) * 0.2).astype(np.float32)  # noqa: E731
    w = {"ln1.w": (1 + f(D)).astype(np.float32), "ln1.b": f(D),
         "ln2.w": (1 + f(D)).astype(np.float32), "ln2.b": f(D),
         "ff1.w": f(D, FF), "ff1.b": f(FF), "ff2.w": f(FF, D), "ff2.b": f(D)}
    for n in "qkvo":
        w[n + ".w"], w[n + ".b"] = f(D, D), f(D)
    return w


def build_transformer(pir, w):
    program = pir.Program()
    ops = pir.ops
    with pir.InsertionPoint(program.block):
        p = {name: ops.parameter(name, arr.shape) for name, arr in w.items()}
        x = ops.data("tokens", [-1, -1, D], "float32")

        def linear(v, n):
            return ops.add(ops.matmul(v, p[n + ".w"], False, False), p[n + ".b"])

        def heads(v):  # [b, s, D] -> [b, h, s, D/h]
            return ops.transpose(ops.reshape(v, [0, 0, HEADS, D // HEADS]), [0, 2, 1, 3])

        h = ops.layer_norm(x, p["ln1.w"], p["ln1.b"], 1e-5, 2)
        q, k, v = (heads(linear(h, n)) for n in "qkv")
        scores = ops.scale(ops.matmul(q, k, False, True), 1.0 / np.sqrt(D // HEADS), 0.0, True)
        attn = ops.matmul(ops.softmax(scores, -1), v, False, False)
        attn = ops.reshape(ops.transpose(attn, [0, 2, 1, 3]), [0, 0, D])
        x = ops.add(x, linear(attn, "o"))
        h = ops.layer_norm(x, p["ln2.w"], p["ln2.b"], 1e-5, 2)
        h = linear(ops.gelu(linear(h, "ff1"), False), "ff2")
        out = ops.add(x, h)
        ops.fetch(out, "hidden", 0)
    return program


def reference_transformer(paddle, w, x):
    F = paddle.nn.functional
    t = {k: paddle.to_tensor(v) for k, v in w.items()}
    x = paddle.to_tensor(x)
    lin = lambda v, n: paddle.matmul(v, t[n + ".w"]) + t[n + ".b"]  # noqa: E731
    heads = lambda v: v.reshape([0, 0, HEADS, D // HEADS]).transpose([0, 2, 1, 3])  # noqa: E731
    h = F.layer_norm(x, [D], t["ln1.w"], t["ln1.b"], 1e-5)
    q, k, v = (heads(lin(h, n)) for n in "qkv")
    scores = paddle.matmul(q, k, transpose_y=True) * (1.0 / np.sqrt(D // HEADS))
    attn = paddle.matmul(F.softmax(scores, -1), v).transpose([0, 2, 1, 3]).reshape([0, 0, D])
    x = x + lin(attn, "o")
    h = F.layer_norm(x, [D], t["ln2.w"], t["ln2.b"], 1e-5)
    return (x + lin(F.gelu(lin(h, "ff1")), "ff2")).numpy()


SKIPPED = ("pd_op.data", "pd_op.full", "pd_op.full_int_array", "builtin.parameter")


def op_types(printed):
    """(op name, result types) of each op of a printed program, constants and inputs aside."""
    out = []
    for line in printed.splitlines():
        quoted = line.split('"')
        if len(quoted) < 3 or quoted[1] in SKIPPED or " -> " not in line:
            continue
        out.append((quoted[1], line.rsplit(" -> ", 1)[1].strip()))
    return out


class PaddleOps:
    """`pir.ops`' calls made on Paddle's own builders (`paddle._pir_ops`)."""

    def __init__(self, paddle):
        self.paddle = paddle

    def parameter(self, name, shape):
        return self.paddle.static.create_parameter(list(shape), "float32", name=name)

    def data(self, name, shape, dtype):
        return self.paddle.static.data(name, shape, dtype)

    def __getattr__(self, name):
        return getattr(self.paddle._pir_ops, name)


class PaddleBuild:
    """Stands for `pir` in a build function: the program Paddle builds."""

    def __init__(self, paddle):
        self.paddle = paddle
        self.ops = PaddleOps(paddle)

    def Program(self):
        return self.paddle.static.Program()

    def InsertionPoint(self, program):
        return self.paddle.static.program_guard(program, self.paddle.static.Program())


class PaddleProgram:
    def __init__(self, program):
        self.block = program


def paddle_types(paddle, build, w):
    paddle.enable_static()
    try:
        shim = PaddleBuild(paddle)
        real_program = shim.Program
        made = []
        shim.Program = lambda: made.append(real_program()) or PaddleProgram(made[-1])
        shim.InsertionPoint = lambda block: paddle.static.program_guard(block, paddle.static.Program())
        build(shim, w)
        return op_types(str(made[0]))
    finally:
        paddle.disable_static()


NETWORKS = {
    "cnn": (weights_cnn, build_cnn, reference_cnn, (2, 3, 16, 16)),
    "transformer": (weights_transformer, build_transformer, reference_transformer, (2, 5, D)),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", default=None, help="folder to keep the saved models in")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    try:
        import paddle
        import pir
    except ImportError as e:
        print("needs paddlepaddle==3.3.1 and pir in one interpreter: %s" % e, file=sys.stderr)
        return 2
    work = args.keep or tempfile.mkdtemp(prefix="paddle_check_ops_")
    os.makedirs(work, exist_ok=True)
    failed = 0
    for name, (weights, build, reference, shape) in NETWORKS.items():
        rng = np.random.default_rng(args.seed)
        w = weights(rng)
        x = rng.standard_normal(shape).astype(np.float32)
        try:
            program = build(pir, w)
            program.verify()
            ours, theirs = op_types(str(program)), paddle_types(paddle, build, w)
            if ours != theirs:
                diff = next(((a, b) for a, b in zip(ours, theirs) if a != b), (len(ours), len(theirs)))
                print("FAIL %s: inferred types differ from Paddle's builders: %s vs %s" % (name, *diff))
                failed += 1
                continue
            model = pir.Model(program)
            for k, v in w.items():
                model.params[k] = v
            prefix = os.path.join(work, name)
            model.save(prefix, overwrite=True)
            paddle.disable_static()
            layer = paddle.jit.load(prefix)
            got = layer(paddle.to_tensor(x))
            got = (got[0] if isinstance(got, (list, tuple)) else got).numpy()
            want = reference(paddle, w, x)
            ops = sum(1 for op in program.ops if op.name.startswith("pd_op."))
            if got.shape != want.shape or not np.allclose(got, want, rtol=1e-5, atol=1e-6):
                err = np.abs(got - want).max() if got.shape == want.shape else "shape"
                print("FAIL %s: outputs differ (%s vs %s, max abs diff %s)" % (name, got.shape, want.shape, err))
                failed += 1
            else:
                print("PASS %s: %d pd_op ops built with no written type, each typed as Paddle's "
                      "builders type it (%d compared); Paddle runs the saved model to the reference "
                      "(max abs diff %.2e)" % (name, ops, len(ours), np.abs(got - want).max()))
        except Exception as e:  # a failure of either side is a failed check, reported
            print("FAIL %s: %s: %s" % (name, type(e).__name__, str(e).splitlines()[0][:300]))
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
