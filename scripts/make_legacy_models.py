#!/usr/bin/env python3
"""Build the legacy (Paddle 2.x `.pdmodel`) models of `tests/corpus/legacy/`.

Users' Paddle 2.x models (PaddleOCR, PaddleDetection, PaddleClas, PaddleNLP...) hold many
more legacy op types than `../shared/legacy-corpus`. This script builds small models that
together cover the common ones, with Paddle **2.6.2** itself, and records Paddle **3.3.1**'s
translation of each, with the conventions of `../shared/legacy-corpus/README.md`:

| file | what it is |
|---|---|
| `NAME.pdmodel`, `NAME.pdiparams` | built with Paddle 2.6.2's static-graph API (`paddle.static`, `paddle.static.nn`, `paddle.nn`, `paddle.nn.functional`; a few legacy ops without a 2.x Python API are appended with `Block.append_op`; models in legacy_models_ops.py and legacy_models_domain.py), saved with `paddle.static.save_inference_model`, or exported from dygraph layers by `paddle.jit.save` as published models are (`lg_jit_*`, legacy_exported_models.py); random weights after `paddle.seed(2024)` |
| `NAME.inputs.npz` | inputs (`arg<i>_<feed name>`, `numpy.random.default_rng(0)`; batch 2 where a dim is -1) |
| `NAME.ref.npz` | what Paddle 2.6.2's executor computes from those inputs with the saved inference program (`arr_0`, `arr_1`, ... in fetch order) |
| `NAME.legacy.json` | Paddle version, feed names, the legacy op types of the top block, and the LoD of the feeds that have one (`lod`: feed name → offsets per level, as `set_lod` takes them; `NAME.inputs.npz` holds the data only) |
| `NAME.translated.json` | Paddle 3.3.1: `paddle.pir.translate_to_pir(core.ProgramDesc(bytes))`, then `core.serialize_pir_program(prog, path, True, False, True)` |
| `NAME.translated.txt` | Paddle 3.3.1's print of `NAME.translated.json` read back with `core.deserialize_pir_program` |

Two Paddle releases cannot share a Python environment, so the work is split:

    # 1. build, save and run the models with Paddle 2.6.2 (its own venv):
    /work/venv-paddle26/bin/python scripts/make_legacy_models.py build [--out DIR] [--only a,b]
    # 2. translate them with Paddle 3.3.1 (system python3), check that Paddle 3.3.1 runs
    #    each translation to the 2.6.2 reference (rtol 1e-4, atol 1e-5):
    python3 scripts/make_legacy_models.py translate [--out DIR] [--only a,b]
    # or both, the first in a child process (`--paddle26` names its python):
    python3 scripts/make_legacy_models.py all [--paddle26 /work/venv-paddle26/bin/python]

The 2.6.2 venv: `python3 -m venv /work/venv-paddle26 && /work/venv-paddle26/bin/pip install
paddlepaddle==2.6.2 numpy`. A model that Paddle 3.3.1 fails to translate, or whose
translation it fails to run to the reference, is removed from the output (with its files)
and reported; `translate` exits 1 then. Each model is built, translated and run in a child
process of its own, so a crash in Paddle is that model's failure. `translate` also rewrites
`README.md`'s model table from the `NAME.legacy.json` files present. Running the script
again gives the same files (Paddle's writers are deterministic for a fixed seed, and the
`op_callstack` kept counts lines from the model function's start, so editing one model
leaves the others' files alone).
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "tests", "corpus", "legacy")
DEFAULT_PADDLE26 = "/work/venv-paddle26/bin/python"
SEED = 2024
BATCH = 2

# ---------------------------------------------------------------------------------------
# Models (built with Paddle 2.6.2), defined in legacy_models_ops.py,
# legacy_models_domain.py (with the ops Paddle 3.3.1 cannot translate, `UNSUPPORTED`:
# one tiny model each in `unsupported/`) and legacy_exported_models.py.
# ---------------------------------------------------------------------------------------

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import legacy_exported_models as exported_m  # noqa: E402
import legacy_models_domain as dom_m  # noqa: E402
import legacy_models_ops as ops_m  # noqa: E402

EXPORTED = exported_m.EXPORTED
UNSUPPORTED = dom_m.UNSUPPORTED
MODELS = {
    "lg_elementwise": ops_m.m_elementwise,
    "lg_activations": ops_m.m_activations,
    "lg_conv_norm": ops_m.m_conv_norm,
    "lg_pool_interp_pad": ops_m.m_pool_interp_pad,
    "lg_matmul": ops_m.m_matmul,
    "lg_shape_ops": ops_m.m_shape_ops,
    "lg_index_ops": ops_m.m_index_ops,
    "lg_reduce_sort": ops_m.m_reduce_sort,
    "lg_creation": ops_m.m_creation,
    "lg_rnn": dom_m.m_rnn,
    "lg_cond_nested": ops_m.m_cond_nested,
    "lg_while_array": ops_m.m_while_array,
    "lg_detection": dom_m.m_detection,
    "lg_v1_ops": dom_m.m_v1_ops,
    "lg_dynamic_attrs": ops_m.m_dynamic_attrs,
    "lg_nlp": dom_m.m_nlp,
    "lg_vision_misc": dom_m.m_vision_misc,
    "lg_control_more": ops_m.m_control_more,
    "lg_detection_post": dom_m.m_detection_post,
    "lg_quant": dom_m.m_quant,
    "lg_layouts_attrs": ops_m.m_layouts_attrs,
    "lg_misc": ops_m.m_misc,
    "lg_sequence": dom_m.m_sequence,
    "lg_beam_search": dom_m.m_beam_search,
    "lg_math_more": ops_m.m_math_more,
    "lg_linalg": ops_m.m_linalg,
    "lg_search_signal": ops_m.m_search_signal,
    "lg_losses_misc": ops_m.m_losses_misc,
    "lg_ops_more": ops_m.m_ops_more,
    "lg_decode": dom_m.m_decode,
    "lg_detection_more": dom_m.m_detection_more,
    "lg_linalg_more": ops_m.m_linalg_more,
    "lg_random": ops_m.m_random,
    "lg_quant_fake": dom_m.m_quant_fake,
    "lg_rnn_v1": dom_m.m_rnn_v1,
    "lg_fusion_rnn": dom_m.m_fusion_rnn,
}


# ---------------------------------------------------------------------------------------
# build (Paddle 2.6.2)
# ---------------------------------------------------------------------------------------

BUILD_CHILD = r"""
import os, sys, json, warnings
os.environ["GLOG_minloglevel"] = "2"
warnings.filterwarnings("ignore")
sys.path.insert(0, sys.argv[1])
import make_legacy_models as M
M.build_one(sys.argv[2], sys.argv[3])
"""


def _inputs(feeds, lod=None, fixed=None):
    """Inputs of `feeds`: `fixed` arrays where given, else random ones whose first dim
    is the rows of the feed's LoD (`lod`), else BATCH where the dim is -1."""
    import numpy as np

    rng = np.random.default_rng(0)
    arrays = {}
    for i, var in enumerate(feeds):
        if fixed and var.name in fixed:
            arrays["arg%d_%s" % (i, var.name)] = fixed[var.name]
            continue
        shape = [BATCH if d < 0 else d for d in var.shape]
        if lod and var.name in lod:
            shape[0] = lod[var.name][-1][-1]
        dtype = str(var.dtype).split(".")[-1]
        dtype = {"fp32": "float32", "int64": "int64", "int32": "int32"}.get(dtype, dtype)
        if "int" in dtype:
            if var.name == "boxes_num":
                a = np.full(shape, 1, dtype)
            elif var.name == "img_size":
                a = np.full(shape, 16, dtype)
            elif var.name == "n":
                a = np.full(shape, 3, dtype)
            else:
                a = rng.integers(0, 10, size=shape).astype(dtype)
        elif var.name == "boxes":
            corner = rng.uniform(0.0, 3.0, size=shape[:-1] + [2])
            a = np.concatenate([corner, corner + 2.0], axis=-1).astype(dtype)
        else:
            a = rng.standard_normal(shape).astype(dtype)
        arrays["arg%d_%s" % (i, var.name)] = a
    return arrays


def feed_of(paddle, arrays, lod=None):
    """The feed dict of an `.inputs.npz` (`arg<i>_<name>` keys): the arrays, and a tensor
    with its LoD for each feed `lod` names (Paddle 2.6.2 and 3.3.1 alike)."""
    feed = {}
    for key in (arrays.files if hasattr(arrays, "files") else arrays):
        name = key.split("_", 1)[1]
        feed[name] = arrays[key]
        if lod and name in lod:
            tensor = paddle.base.core.LoDTensor()
            tensor.set(arrays[key], paddle.CPUPlace())
            tensor.set_lod(lod[name])
            feed[name] = tensor
    return feed


def _keep_own_frames():
    """Paddle records the whole Python stack of every op (`op_callstack`); keep only the
    model function's own line, with its file relative to the repository and its line
    counted from the function's first line, so the files are small, do not depend on
    where the repository or the venv is, and stay the same when other models change."""
    import traceback

    real_extract_stack = traceback.extract_stack
    modules = {os.path.abspath(m.__file__): m for m in (ops_m, dom_m, exported_m)}

    def model_frames(*a, **k):
        frames = []
        for f in real_extract_stack(*a, **k):
            module = modules.get(os.path.abspath(f.filename))
            function = getattr(module, f.name, None) if module else None
            if not f.name.startswith(("m_", "u_", "e_")) or not hasattr(function, "__code__"):
                continue
            frames.append(traceback.FrameSummary(
                os.path.relpath(os.path.abspath(f.filename), ROOT),
                f.lineno - function.__code__.co_firstlineno, f.name, line=f.line))
        return frames[-1:]

    traceback.extract_stack = model_frames


def _reference(paddle, prefix, lod=None, fixed=None, shapes=None):
    """Runs the saved inference program at `prefix` with Paddle 2.6.2 on generated inputs;
    writes `NAME.inputs.npz` and `NAME.ref.npz`. Returns the program, feed names and the
    number of outputs."""
    import types

    import numpy as np

    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feed_names, fetch_vars = paddle.static.load_inference_model(prefix, exe)
    feeds = [prog.global_block().var(n) for n in feed_names]
    if shapes:  # dynamic dims of the feeds filled in
        feeds = [types.SimpleNamespace(name=v.name, shape=s, dtype=v.dtype)
                 for v, s in zip(feeds, shapes)]
    arrays = _inputs(feeds, lod, fixed)
    np.savez(prefix + ".inputs.npz", **arrays)
    results = exe.run(prog, feed=feed_of(paddle, arrays, lod), fetch_list=fetch_vars,
                      return_numpy=False)
    np.savez(prefix + ".ref.npz", *[np.asarray(r) for r in results])
    return prog, feed_names, len(results)


def _write_meta(paddle, prefix, name, prog, feed_names, description, lod=None):
    ops = [op.type for op in prog.global_block().ops if op.type not in ("feed", "fetch")]
    sub_ops = sorted({op.type for blk in prog.blocks[1:] for op in blk.ops})
    meta = {"name": name, "paddle_version": paddle.__version__, "feeds": feed_names,
            "ops": ops, "sub_block_ops": sub_ops, "description": description}
    if lod:
        meta["lod"] = lod
    with open(prefix + ".legacy.json", "w") as f:
        json.dump(meta, f, indent=1)
    return ops


def build_exported(name, out):
    """Builds model `name` of legacy_exported_models.py with Paddle 2.6.2: a dygraph layer
    converted by dy2static and saved by `paddle.jit.save`, as published models are."""
    import numpy as np
    import paddle

    paddle.disable_static()
    paddle.seed(SEED)
    np.random.seed(SEED)
    description, layer, specs, shapes = EXPORTED[name](paddle)
    layer.eval()
    prefix = os.path.join(out, name)
    paddle.jit.save(layer, prefix, input_spec=specs)
    info = prefix + ".pdiparams.info"  # dygraph parameter names; not part of the model
    if os.path.exists(info):
        os.remove(info)
    prog, feed_names, n_out = _reference(paddle, prefix, shapes=shapes)
    ops = _write_meta(paddle, prefix, name, prog, feed_names, description)
    print("built %s: %d ops, %d outputs" % (name, len(ops), n_out))


def build_one(name, out):
    """Builds model `name` with Paddle 2.6.2 and writes its files into `out`."""
    import numpy as np
    import paddle

    assert paddle.__version__ == "2.6.2", "build needs Paddle 2.6.2, not " + paddle.__version__
    _keep_own_frames()
    if name in EXPORTED:
        return build_exported(name, out)
    paddle.enable_static()
    paddle.seed(SEED)
    np.random.seed(SEED)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        description, feeds, fetches, *extra = (MODELS.get(name) or UNSUPPORTED[name])(paddle)
    extra = extra[0] if extra else {}
    lod = extra.get("lod", {})
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    prefix = os.path.join(out, name)
    paddle.static.save_inference_model(prefix, feeds, fetches, exe, program=main,
                                       clip_extra=extra.get("clip_extra", True))
    if name in UNSUPPORTED:
        ops = [op.type for op in main.global_block().ops]
        print("built %s (expected to fail in Paddle 3.3.1): %s" % (name, ", ".join(ops)))
        return
    prog, feed_names, n_out = _reference(paddle, prefix, lod, extra.get("inputs"))
    ops = _write_meta(paddle, prefix, name, prog, feed_names, description, lod)
    print("built %s: %d ops, %d outputs" % (name, len(ops), n_out))


def build(args):
    os.makedirs(args.out, exist_ok=True)
    failed = []
    for name in _selected(args):
        out = _dir_of(args.out, name)
        os.makedirs(out, exist_ok=True)
        for suffix in ("pdmodel", "pdiparams"):
            path = os.path.join(out, "%s.%s" % (name, suffix))
            if os.path.exists(path):
                os.remove(path)
        # Paddle 2.6.2 lists some op inputs (a while loop's `X`) from a Python set: a fixed
        # hash seed makes the order, and so the files, the same on every run.
        env = dict(os.environ, PYTHONHASHSEED="0")
        res = subprocess.run([sys.executable, "-c", BUILD_CHILD, os.path.dirname(__file__), name,
                              out], capture_output=True, text=True, env=env)
        if res.returncode != 0:
            failed.append(name)
            print("FAIL build %s: %s" % (name, res.stderr.strip()[-1500:]))
        else:
            print(res.stdout.strip())
    return 1 if failed else 0


# ---------------------------------------------------------------------------------------
# translate (Paddle 3.3.1)
# ---------------------------------------------------------------------------------------

TRANSLATE_CHILD = r"""
import json, os, sys, shutil, tempfile, warnings
os.environ["GLOG_minloglevel"] = "2"
warnings.filterwarnings("ignore")
import numpy as np
import paddle
from paddle.base import core
prefix = sys.argv[1]
with open(prefix + ".pdmodel", "rb") as f:
    desc = core.ProgramDesc(f.read())
prog = paddle.pir.translate_to_pir(desc)
core.serialize_pir_program(prog, prefix + ".translated.json", True, False, True)
loaded = paddle.static.Program()
core.deserialize_pir_program(prefix + ".translated.json", loaded, -1)
if sys.argv[2] == "expect-failure":
    print("Paddle 3.3.1 translated it")
    sys.exit(0)
with open(prefix + ".translated.txt", "w") as f:
    f.write(str(loaded))
paddle.enable_static()
with tempfile.TemporaryDirectory() as work:
    name = os.path.basename(prefix)
    shutil.copy(prefix + ".translated.json", os.path.join(work, name + ".json"))
    if os.path.exists(prefix + ".pdiparams"):
        shutil.copy(prefix + ".pdiparams", os.path.join(work, name + ".pdiparams"))
    exe = paddle.static.Executor(paddle.CPUPlace())
    p, feeds, fetches = paddle.static.load_inference_model(os.path.join(work, name), exe)
    arrays = np.load(prefix + ".inputs.npz")
    with open(prefix + ".legacy.json") as f:
        lod = json.load(f).get("lod")
    sys.path.insert(0, sys.argv[3])
    from make_legacy_models import feed_of
    outs = exe.run(p, feed=feed_of(paddle, arrays, lod), fetch_list=fetches, return_numpy=False)
expected = np.load(prefix + ".ref.npz")
if len(outs) != len(expected.files):
    print("%d outputs, reference has %d" % (len(outs), len(expected.files)))
    sys.exit(1)
for i, out in enumerate(outs):
    want = expected["arr_%d" % i]
    out = np.asarray(out)
    if out.shape != want.shape or not np.allclose(out, want, rtol=1e-4, atol=1e-5, equal_nan=True):
        print("output %d differs (shape %s vs %s)" % (i, out.shape, want.shape))
        sys.exit(1)
print("%d outputs match" % len(outs))
"""

OUR_FILES = ("pdmodel", "pdiparams", "inputs.npz", "ref.npz", "legacy.json", "translated.json",
             "translated.txt")


def translate(args):
    import paddle

    assert paddle.__version__.startswith("3.3"), "translate needs Paddle 3.3.x"
    dropped = []
    for name in _selected(args, present_in=args.out):
        prefix = os.path.join(_dir_of(args.out, name), name)
        expect_failure = name in UNSUPPORTED
        with tempfile.TemporaryDirectory() as work:
            # An expected failure writes nothing beside the model.
            target = os.path.join(work, name) if expect_failure else prefix
            if expect_failure:
                shutil.copy(prefix + ".pdmodel", target + ".pdmodel")
            res = subprocess.run([sys.executable, "-c", TRANSLATE_CHILD, target,
                                  "expect-failure" if expect_failure else "run",
                                  os.path.dirname(os.path.abspath(__file__))],
                                 capture_output=True, text=True, timeout=600)
        lines = (res.stdout.strip() or res.stderr.strip()[-600:]).splitlines()
        message = lines[-1].strip() if lines else "exit %d" % res.returncode
        if expect_failure:
            if res.returncode == 0:
                dropped.append(name)
                print("UNEXPECTED %s: %s" % (name, message))
                os.remove(prefix + ".pdmodel")
            else:
                print("fails as expected %s: %s" % (name, message))
                with open(prefix + ".paddle_error.txt", "w") as f:
                    f.write(message + "\n")
            continue
        if res.returncode == 0:
            print("ok %s: %s" % (name, message))
            continue
        dropped.append(name)
        print("DROPPED %s: Paddle 3.3.1 fails: %s" % (name, message))
        for suffix in OUR_FILES:
            path = "%s.%s" % (prefix, suffix)
            if os.path.exists(path):
                os.remove(path)
    _write_table(args.out)
    return 1 if dropped else 0


def _write_table(out):
    """Rewrites the model table between the markers of `README.md` in `out`."""
    readme = os.path.join(out, "README.md")
    if not os.path.exists(readme):
        return
    rows = ["| model | legacy ops (top block) | what it covers |", "|---|---|---|"]
    for path in sorted(glob.glob(os.path.join(out, "*.legacy.json"))):
        with open(path) as f:
            meta = json.load(f)
        ops = sorted(set(meta["ops"]))
        rows.append("| `%s` | %d: %s | %s |" % (meta["name"], len(ops), ", ".join(ops),
                                                meta.get("description", "")))
    with open(readme) as f:
        text = f.read()
    start, end = "<!-- models -->", "<!-- /models -->"
    if start not in text or end not in text:
        return
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    with open(readme, "w") as f:
        f.write(head + start + "\n" + "\n".join(rows) + "\n" + end + tail)


def _dir_of(out, name):
    """Where model `name` lives: `out`, or `out/unsupported` for an expected failure."""
    return os.path.join(out, "unsupported") if name in UNSUPPORTED else out


def _selected(args, present_in=None):
    names = list(MODELS) + list(EXPORTED) + list(UNSUPPORTED)
    if args.only:
        wanted = set(args.only.split(","))
        names = [n for n in names if n in wanted]
    if present_in is not None:
        names = [n for n in names
                 if os.path.exists(os.path.join(_dir_of(present_in, n), n + ".pdmodel"))]
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=["build", "translate", "all"])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", default="")
    ap.add_argument("--paddle26", default=DEFAULT_PADDLE26,
                    help="python of the Paddle 2.6.2 venv (for `all`)")
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)
    if args.step == "build":
        return build(args)
    if args.step == "translate":
        return translate(args)
    cmd = [args.paddle26, os.path.abspath(__file__), "build", "--out", args.out]
    if args.only:
        cmd += ["--only", args.only]
    code = subprocess.run(cmd).returncode
    return translate(args) or code


if __name__ == "__main__":
    sys.exit(main())
