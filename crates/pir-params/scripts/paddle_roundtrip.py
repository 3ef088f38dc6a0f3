#!/usr/bin/env python3
"""Checks that parameter files written by pir-params load in PaddlePaddle 3.3.1.

Usage (from the repository root):

    pip install paddlepaddle==3.3.1      # brings numpy
    python3 crates/pir-params/scripts/paddle_roundtrip.py [CORPUS_DIR]

CORPUS_DIR defaults to ../shared/paddle-corpus beside the repository. When
``paddle`` cannot be imported the script says so and exits 0.

The Rust side runs through
``cargo run --release -p pir-params --example params_rewrite -- ...``.
For every model of the corpus with a ``.pdiparams`` (Paddle 3.3.1 files):

1. ``combined``: pir-params reads the file (with the names of ``meta.params``
   sorted like Python, or blind when the meta leaves them out) and writes it
   back; the bytes must equal the original.
2. Paddle's own loader (``core.load_combine_func``, what ``paddle.jit.load``
   uses) reads the re-written file; every tensor must equal the original's.
3. ``to-pdparams``: the tensors go to a ``.pdparams`` pickle written by
   pir-params; ``paddle.load`` must return the same arrays, keys in program order.
4. ``to-pdiparams``: that pickle goes back to a ``.pdiparams``, which must be
   byte-identical to the original.
5. The model (``NAME.json`` + that converted ``.pdiparams``, or the re-written
   one when the meta leaves the names out) is loaded with
   ``paddle.jit.load`` and run on ``NAME.inputs.npz``; the outputs must match
   ``meta.reference_output`` (shape, sum, abs_sum, first8; relative tolerance
   1e-5). ``infer_untrainable`` is skipped: Paddle 3.3.1 cannot run its own file.

Then ``train_mlp_adam.pdparams``/``.pdopt`` are re-written by pir-params (same
bytes, same ``paddle.load`` result) and converted to ``.pdiparams`` (Paddle's
loader reads them), and a bfloat16 ``paddle.save`` file is converted to a
``.pdiparams`` whose tensor Paddle loads as bfloat16.

Prints one line per check and ends with ``N passed, M failed``; exits 1 on
any failure.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CORPUS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "..", "shared", "paddle-corpus")
RESULTS = {"passed": 0, "failed": 0}


def check(ok, what):
    RESULTS["passed" if ok else "failed"] += 1
    print(("PASS " if ok else "FAIL ") + what, flush=True)
    return ok


def rewrite(*args):
    cmd = ["cargo", "run", "--release", "-q", "-p", "pir-params", "--example", "params_rewrite", "--"]
    res = subprocess.run(cmd + list(args), cwd=REPO, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"params_rewrite {' '.join(args)} failed: {res.stderr.strip()}")
    return res.stdout


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def load_combine(path, count):
    """Paddle's combined-file loader; returns numpy arrays in file order."""
    import paddle
    from paddle.base import core

    tensors = [paddle.empty([1], "float32") for _ in range(count)]
    names = [f"v{i:05d}" for i in range(count)]
    core.load_combine_func(path, names, [t.get_tensor() for t in tensors], False, paddle.CPUPlace())
    return [(t.dtype, as_numpy(t)) for t in tensors]


def as_numpy(t):
    import paddle

    if t.dtype == paddle.bfloat16:
        return t.view(paddle.uint16).numpy() if hasattr(t, "view") else t.numpy()
    return t.numpy()


def same_arrays(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def flatten(out):
    if isinstance(out, (list, tuple)):
        return [y for x in out for y in flatten(x)]
    return [out]


def close(a, b, rel=1e-5, abs_=1e-5):
    return abs(a - b) <= max(abs_, rel * max(abs(a), abs(b)))


def compare_outputs(outputs, reference):
    import numpy as np
    import paddle

    refs = reference["outputs"]
    if len(outputs) != len(refs):
        return f"{len(outputs)} outputs, reference has {len(refs)}"
    for i, (t, ref) in enumerate(zip(outputs, refs)):
        if t.dtype == paddle.bfloat16:
            t = t.astype("float32")
        a = t.numpy()
        if list(a.shape) != list(ref["shape"]):
            return f"output {i}: shape {list(a.shape)} vs {ref['shape']}"
        flat = a.reshape(-1)
        if np.iscomplexobj(flat):
            total = [float(flat.real.astype("float64").sum()), float(flat.imag.astype("float64").sum())]
            first = [[float(x.real), float(x.imag)] for x in flat[:8]]
            ok = all(close(x, y) for x, y in zip(total, ref["sum"]))
            ok = ok and all(close(p, q) for x, y in zip(first, ref["first8"]) for p, q in zip(x, y))
        else:
            f64 = flat.astype("float64")
            ok = close(float(f64.sum()), ref["sum"]) and close(float(np.abs(f64).sum()), ref["abs_sum"])
            ok = ok and all(close(float(x), float(y)) for x, y in zip(f64[:8], ref["first8"]))
        if not ok:
            return f"output {i}: sum {float(flat.astype('float64').sum()) if not np.iscomplexobj(flat) else '?'} vs {ref['sum']}"
    return None


def run_model(json_path, pdiparams, meta, workdir):
    import numpy as np
    import paddle

    prefix = os.path.join(workdir, "model")
    shutil.copy(json_path, prefix + ".json")
    shutil.copy(pdiparams, prefix + ".pdiparams")
    layer = paddle.jit.load(prefix)
    npz = np.load(os.path.join(CORPUS, meta["name"] + ".inputs.npz"))
    inputs = [paddle.to_tensor(npz[k]) for k in sorted(npz.files, key=lambda k: int(k[3:].split("_")[0]))]
    outputs = flatten(layer(*inputs))
    return compare_outputs(outputs, meta["reference_output"])


def model_checks(meta, work):
    name = meta["name"]
    src = os.path.join(CORPUS, name + ".pdiparams")
    params = [p for p in meta.get("params") or [] if not p["name"].endswith("_non_persistable")]
    names_args = []
    if params:
        names_file = os.path.join(work, name + ".names")
        with open(names_file, "w") as f:
            f.writelines(f"{p['name']} {p['dtype']}\n" for p in params)
        names_args = ["--names", names_file]
    out = os.path.join(work, name + ".pdiparams")
    rewrite("combined", src, out, *names_args)
    check(sha(out) == sha(src), f"{name}: re-written .pdiparams is byte-identical")
    count = len(params) if params else sum(1 for _ in rewrite("info", src).splitlines())
    orig = load_combine(src, count)
    ours = load_combine(out, count)
    check(
        all(d1 == d2 and same_arrays(a, b) for (d1, a), (d2, b) in zip(orig, ours)),
        f"{name}: Paddle's load_combine reads the {count} re-written tensors identically",
    )
    back = out
    if params:
        pkl_checks(name, src, params, orig, names_args, work)
        back = os.path.join(work, name + ".back.pdiparams")
    if name == "infer_untrainable":
        print(f"SKIP {name}: Paddle 3.3.1 cannot run this file (see corpus README)")
        return
    run_dir = os.path.join(work, name + ".run")
    os.makedirs(run_dir)
    try:
        problem = run_model(os.path.join(CORPUS, name + ".json"), back, meta, run_dir)
    except Exception as e:  # report and continue with the other models
        problem = f"{type(e).__name__}: {str(e).strip().splitlines()[-1][:200] if str(e).strip() else ''}"
    check(problem is None, f"{name}: paddle.jit.load + run with the pir-params file matches reference_output"
          + ("" if problem is None else f" ({problem})"))


def pkl_checks(name, src, params, orig, names_args, work):
    import paddle

    pkl = os.path.join(work, name + ".pdparams")
    rewrite("to-pdparams", src, pkl, *names_args)
    loaded = paddle.load(pkl, return_numpy=True)
    by_sorted = dict(zip(sorted(p["name"] for p in params), orig))
    ok = list(loaded.keys()) == [p["name"] for p in params]
    ok = ok and all(same_arrays(loaded[k], by_sorted[k][1]) for k in loaded)
    check(ok, f"{name}: paddle.load reads the pir-params .pdparams (program key order, same arrays)")
    back = os.path.join(work, name + ".back.pdiparams")
    rewrite("to-pdiparams", pkl, back, *names_args)
    check(sha(back) == sha(src), f"{name}: .pdparams -> .pdiparams gives the original bytes")


def pickle_checks(work):
    import numpy as np
    import paddle

    for ext in ("pdparams", "pdopt"):
        src = os.path.join(CORPUS, f"train_mlp_adam.{ext}")
        out = os.path.join(work, f"train_mlp_adam.{ext}")
        rewrite("pickle", src, out)
        check(sha(out) == sha(src), f"train_mlp_adam.{ext}: re-written pickle is byte-identical")
        a, b = paddle.load(src, return_numpy=True), paddle.load(out, return_numpy=True)
        check(list(a) == list(b) and all(same_arrays(a[k], b[k]) for k in a),
              f"train_mlp_adam.{ext}: paddle.load gives the same {len(a)} arrays")
        comb = os.path.join(work, f"train_mlp_adam.{ext}.pdiparams")
        rewrite("to-pdiparams", src, comb)
        loaded = load_combine(comb, len(a))
        check(all(same_arrays(arr, a[k]) for (_, arr), k in zip(loaded, sorted(a))),
              f"train_mlp_adam.{ext}: converted .pdiparams loads in Paddle with the same arrays")
    bf = os.path.join(REPO, "crates", "pir-params", "tests", "data", "paddle_bf16_p4.pdparams")
    names = os.path.join(work, "bf16.names")
    with open(names, "w") as f:
        f.write("bf16 bfloat16\n")
    comb = os.path.join(work, "bf16.pdiparams")
    rewrite("to-pdiparams", bf, comb, "--names", names)
    [(dtype, arr)] = load_combine(comb, 1)
    values = paddle.to_tensor(arr).view(paddle.bfloat16).astype("float32").numpy().tolist() if hasattr(paddle.Tensor, "view") else None
    check(dtype == paddle.bfloat16 and values == [1.0, -2.0, 0.5],
          f"bf16: uint16 pickle -> .pdiparams loads in Paddle as {dtype} {values}")
    pkl = os.path.join(work, "bf16.pdparams")
    rewrite("to-pdparams", comb, pkl, "--names", names)
    d = paddle.load(pkl, return_numpy=True)
    check(d["bf16"].dtype == np.uint16 and d["bf16"].tolist() == [16256, 49152, 16128],
          "bf16: .pdiparams -> .pdparams stores uint16 like Paddle")


def main():
    try:
        import paddle  # noqa: F401
    except ImportError:
        print("paddle is not importable (pip install paddlepaddle==3.3.1); nothing checked")
        return 0
    import paddle

    paddle.disable_static()
    print(f"paddle {paddle.__version__}, corpus {os.path.abspath(CORPUS)}", flush=True)
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "pir-params", "--example", "params_rewrite"],
                   cwd=REPO, check=True)
    with open(os.path.join(CORPUS, "index.json")) as f:
        index = json.load(f)
    with tempfile.TemporaryDirectory() as work:
        for model in index["models"]:
            if not any(f.endswith(".pdiparams") for f in model["files"]):
                continue
            with open(os.path.join(CORPUS, model["name"] + ".meta.json")) as f:
                meta = json.load(f)
            try:
                model_checks(meta, work)
            except Exception as e:
                check(False, f"{model['name']}: {type(e).__name__}: {e}")
        try:
            pickle_checks(work)
        except Exception as e:
            check(False, f"pickles: {type(e).__name__}: {e}")
    print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
