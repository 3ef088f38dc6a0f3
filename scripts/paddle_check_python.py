#!/usr/bin/env python3
"""Checks the `pir` Python package against PaddlePaddle 3.3.1 itself.

Usage (from the repository root; Paddle in the system Python):

    pip install paddlepaddle==3.3.1
    python3 -m venv --system-site-packages target/paddle-check
    target/paddle-check/bin/pip install ./crates/pir-py
    target/paddle-check/bin/python scripts/paddle_check_python.py [CORPUS_DIR]

CORPUS_DIR defaults to ../shared/paddle-corpus beside the repository. When
``paddle`` or ``pir`` cannot be imported the script says so and exits 0.

For every model of the corpus (Paddle 3.3.1 files and the files of Paddle
3.0/3.1/3.2 under ``compat/``):

1. ``print``: ``str(pir.load(NAME.json).program)`` equals the print of the
   program Paddle itself reads from the same file
   (``core.deserialize_pir_program`` into a ``paddle.static.Program``, then
   ``str()``); for files of older releases Paddle upgrades them on reading,
   as pir does.
2. ``params``: for every model with a ``.pdiparams``, each array of
   ``pir.load(NAME.json).params`` is ``numpy.array_equal`` (same dtype and
   shape too) to the tensor Paddle's ``load_combine`` reads for that name
   (``core.load_combine_func``, what ``paddle.jit.load`` runs; bfloat16 is
   compared as its uint16 bits, as both hand it to numpy).
3. ``pickle``: every ``.pdparams`` / ``.pdopt`` gives with
   ``pir.load_state_dict`` exactly what ``paddle.load(path, return_numpy=True)`` returns (keys in order,
   arrays equal, other entries equal), and ``pir.load(NAME.json)`` binds the
   arrays ``paddle.load`` gives for each parameter.
4. ``legacy``: for every ``NAME.pdmodel``, ``pir.load`` prints what Paddle
   prints for its ``paddle.pir.translate_to_pir`` of the same ``ProgramDesc``
   once saved and read back (``serialize_pir_program`` then
   ``deserialize_pir_program``), and its parameters equal ``load_combine``'s.

Prints one line per check and ends with ``N passed, M failed``; exits 1 on any
failure.
"""

import glob
import json
import os
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, ".."))
CORPUS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "..", "shared", "paddle-corpus")
RESULTS = {}


def check(kind, ok, what):
    passed, total = RESULTS.get(kind, (0, 0))
    RESULTS[kind] = (passed + bool(ok), total + 1)
    print(("PASS " if ok else "FAIL ") + f"{kind}: {what}", flush=True)


def paddle_print(path):
    import paddle
    from paddle.base import core

    prog = paddle.static.Program()
    core.deserialize_pir_program(path, prog, -1)
    return str(prog)


def load_combine(path, names):
    """Paddle's combined-file loader: {name: numpy array}."""
    import paddle
    from paddle.base import core

    tensors = [paddle.empty([1], "float32") for _ in names]
    core.load_combine_func(path, list(names), [t.get_tensor() for t in tensors], False,
                           paddle.CPUPlace())
    out = {}
    for name, t in zip(names, tensors):
        if t.dtype == paddle.bfloat16:
            out[name] = t.view(paddle.uint16).numpy()
        else:
            out[name] = t.numpy()
    return out


def same(a, b):
    import numpy as np

    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


def same_value(a, b):
    import numpy as np

    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and same(a, b)
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return a == b


def check_params(kind, label, model, pdiparams):
    names = model.parameter_names()
    try:
        reference = load_combine(pdiparams, names)
    except Exception as e:  # Paddle refuses the file: a failure of ours to explain
        check(kind, False, f"{label}: Paddle's load_combine failed: {e}")
        return
    bad = [n for n in names if not same(model.params[n], reference[n])]
    check(kind, not bad and len(names) == len(model.params),
          f"{label}: {len(names)} tensors" + (f", differ: {bad[:5]}" if bad else ""))


def main():
    warnings.filterwarnings("ignore")
    try:
        import paddle  # noqa: F401
        import pir
    except ImportError as e:
        print(f"skipped: {e} (see the usage in this script's docstring)")
        return 0
    index = json.load(open(os.path.join(CORPUS, "index.json")))
    entries = index["models"] + index.get("compat", [])
    for entry in entries:
        name = entry["name"]
        label = f"{entry.get('saved_by')}/{name}" if entry.get("saved_by") else name
        json_file = next(os.path.join(CORPUS, f) for f in entry["files"]
                         if f.endswith(f"{name}.json") and not f.endswith(".upgraded.json"))
        model = pir.load(json_file)
        check("print", str(model.program) == paddle_print(json_file), label)
        pdiparams = json_file[: -len(".json")] + ".pdiparams"
        if os.path.exists(pdiparams) and not entry.get("saved_by"):
            check_params("params", label, model, pdiparams)

    for path in sorted(glob.glob(os.path.join(CORPUS, "*.pdparams"))
                       + glob.glob(os.path.join(CORPUS, "*.pdopt"))):
        ours = pir.load_state_dict(path)
        reference = paddle.load(path, return_numpy=True)
        check("pickle", same_value(ours, reference), os.path.basename(path))
    for path in sorted(glob.glob(os.path.join(CORPUS, "*.pdparams"))):
        prefix = path[: -len(".pdparams")]
        model = pir.load(prefix + ".json")
        reference = paddle.load(path, return_numpy=True)
        if os.path.exists(prefix + ".pdopt"):
            reference.update(paddle.load(prefix + ".pdopt", return_numpy=True))
        names = model.parameter_names()
        bad = [n for n in names if not same(model.params[n], reference[n])]
        check("pickle", not bad and names, f"{os.path.basename(prefix)}: {len(names)} bound tensors")

    from paddle.base import core

    for pdmodel in sorted(glob.glob(os.path.join(CORPUS, "*.pdmodel"))):
        label = os.path.basename(pdmodel)
        with open(pdmodel, "rb") as f:
            desc = core.ProgramDesc(f.read())
        # What Paddle holds after saving the translation and reading it back
        # (its in-memory translation orders some attributes differently).
        with tempfile.TemporaryDirectory() as tmp:
            saved = os.path.join(tmp, "translated.json")
            core.serialize_pir_program(paddle.pir.translate_to_pir(desc), saved, True, False, True)
            translated = paddle_print(saved)
        model = pir.load(pdmodel)
        check("legacy", str(model.program) == translated, label)
        pdiparams = pdmodel[: -len(".pdmodel")] + ".pdiparams"
        if os.path.exists(pdiparams):
            check_params("legacy", label, model, pdiparams)

    passed = sum(p for p, _ in RESULTS.values())
    total = sum(t for _, t in RESULTS.values())
    for kind, (p, t) in RESULTS.items():
        print(f"{kind}: {p}/{t}")
    print(f"{passed} passed, {total - passed} failed")
    return 0 if passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
