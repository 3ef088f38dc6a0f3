#!/usr/bin/env python3
"""`pir convert X Y.pdmodel`, judged by Paddle 2.6.2 and Paddle 3.3.1.

Sets of models X:
  corpus  every top-level model of ../shared/paddle-corpus (its index) with
          NAME.inputs.npz: X = NAME.json; the reference outputs are what
          Paddle 3.3.1 computes from X (`load_inference_model` + run).
  legacy  every NAME.pdmodel of ../shared/legacy-corpus (reference NAME.ref.npz,
          Paddle 2.6.2's) and of ../shared/paddle-corpus (reference: Paddle
          3.3.1 running NAME.json): X = NAME.pdmodel, taken .pdmodel -> PIR ->
          .pdmodel by `pir convert`.
          (Where Paddle 3.3.1 cannot run X itself, the figures of
          NAME.meta.json's `reference_output` are the reference.)
  control the control-flow models of tests/corpus/control_flow (reference:
          Paddle 3.3.1 running X).
  zoo     the networks scripts/paddle_check_zoo.py builds and saves (its
          --out, /tmp/pir_zoo: NAME.json with NAME.b1.inputs.npz; reference:
          Paddle 3.3.1 running X); `--sets zoo`, not run by default.

For each X: `pir convert X OUT/NAME.pdmodel` (writes OUT/NAME.pdiparams beside
it); a refusal is listed with pir's message (the ops with no Paddle 2.6 form).
Then
  run    Paddle 2.6.2 (/work/venv-paddle262: paddlepaddle==2.6.2,
         numpy==1.26.4) loads OUT/NAME with `paddle.static.load_inference_model`,
         runs it on NAME.inputs.npz and compares with the reference (rtol 1e-4,
         atol 1e-5);
  print  Paddle 3.3.1 (/work/venv-paddle) translates OUT/NAME.pdmodel
         (`paddle.pir.translate_to_pir(core.ProgramDesc(bytes))`, saved with
         `serialize_pir_program` and read back, as the corpus' prints were made) and its print
         is compared with X's (NAME.txt for a JSON X, NAME.translated.txt for a
         .pdmodel X); a difference is listed with its first differing line.
         Also counted: prints equal once what the legacy format cannot hold
         is left out of both (`normalized`: parameter ops, whose order and
         `need_clip` it loses, and feeds, `pd_op.data` being a `feed` op
         there, both kept as names; the `persistable`/`stop_gradient` flags;
         `struct_name`, which Paddle's translation drops).
Prints one line per model and N/N per set and check.

Usage: /work/venv-paddle/bin/python scripts/paddle_check_pdmodel.py [--sets corpus,legacy,control,zoo] [--models a,b] [--zoo DIR]
  PIR_BIN (default target/release/pir, else target/debug/pir),
  PADDLE262 (default /work/venv-paddle262/bin/python),
  PADDLE331 (default /work/venv-paddle/bin/python).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared")
PIR = os.environ.get("PIR_BIN") or next(
    (p for p in (os.path.join(ROOT, "target", t, "pir") for t in ("release", "debug")) if os.path.exists(p)),
    "pir")
PADDLE262 = os.environ.get("PADDLE262", "/work/venv-paddle262/bin/python")
PADDLE331 = os.environ.get("PADDLE331", "/work/venv-paddle/bin/python")

# Runs a model (prefix) on inputs and saves its outputs (arr_0, ...): the
# same for both Paddle releases.
RUN = r"""
import os, sys
os.environ["GLOG_minloglevel"] = "3"
import warnings; warnings.filterwarnings("ignore")
import numpy as np
import paddle
paddle.enable_static()
prefix, inputs, out = sys.argv[1:4]
arrays = np.load(inputs)
feed = {k.split("_", 1)[1]: arrays[k] for k in arrays.files}
exe = paddle.static.Executor(paddle.CPUPlace())
prog, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
feed = {n: feed[n] for n in feeds}
outs = exe.run(prog, feed=feed, fetch_list=fetches)
np.savez(out, *[np.asarray(o) for o in outs])
"""

# Paddle 3.3.1's translation of a .pdmodel, printed.
PRINT = r"""
import os, sys
os.environ["GLOG_minloglevel"] = "3"
import paddle
from paddle.base import core
paddle.enable_static()
with open(sys.argv[1], "rb") as f:
    desc = core.ProgramDesc(f.read())
prog = paddle.pir.translate_to_pir(desc)
# Saved and read back, as the corpus' prints were made.
path = sys.argv[1] + ".translated.json"
core.serialize_pir_program(prog, path, True, False, True)
back = paddle.static.Program()
core.deserialize_pir_program(path, back)
sys.stdout.write(str(back))
"""


def run_child(python, script, args, timeout=600):
    res = subprocess.run([python, "-c", script] + args, capture_output=True, text=True, timeout=timeout)
    if res.returncode != 0:
        lines = [l.strip() for l in (res.stderr or res.stdout).splitlines() if l.strip()]
        errs = [l for l in lines if "Error" in l or "error" in l] or lines[-1:] or ["failed"]
        return None, errs[-1][:300]
    return res.stdout, None


def meta_reference(meta_path, out):
    """`reference_output` of a corpus meta file as `{"meta": outputs}` (shape,
    sum, first8 per output), or None."""
    if not os.path.exists(meta_path):
        return None
    outputs = json.load(open(meta_path)).get("reference_output", {}).get("outputs")
    return {"meta": outputs} if outputs else None


def compare_meta(got_npz, outputs):
    import numpy as np
    got = np.load(got_npz)
    if len(got.files) != len(outputs):
        return "%d outputs, the reference has %d" % (len(got.files), len(outputs))
    for i, ref in enumerate(outputs):
        g = got["arr_%d" % i].astype(np.float64)
        if list(g.shape) != list(ref["shape"]):
            return "output %d: shape %s, reference %s" % (i, g.shape, ref["shape"])
        first = g.reshape(-1)[:len(ref["first8"])]
        if not np.allclose(first, ref["first8"], rtol=1e-4, atol=1e-5) or \
                not np.isclose(g.sum(), ref["sum"], rtol=1e-4, atol=1e-4):
            return "output %d differs from the recorded sum/first8" % i
    return None


def compare(got_npz, want_npz):
    import numpy as np
    if isinstance(want_npz, dict):
        return compare_meta(got_npz, want_npz["meta"])
    got, want = np.load(got_npz), np.load(want_npz)
    if len(got.files) != len(want.files):
        return "%d outputs, the reference has %d" % (len(got.files), len(want.files))
    worst = 0.0
    for i in range(len(got.files)):
        g, w = got["arr_%d" % i], want["arr_%d" % i]
        if g.shape != w.shape:
            return "output %d: shape %s, reference %s" % (i, g.shape, w.shape)
        if g.dtype == np.bool_ or w.dtype == np.bool_:
            g, w = g.astype(np.int8), w.astype(np.int8)
        if g.size and not np.allclose(g, w, rtol=1e-4, atol=1e-5, equal_nan=True):
            return "output %d differs (max abs %g)" % (i, float(np.abs(g.astype(np.float64) - w).max()))
        if g.size:
            worst = max(worst, float(np.abs(g.astype(np.float64) - w).max()))
    return None


PARAM = re.compile(r'^\s*\((%\d+)\) = "builtin\.parameter" \(\) \{.*parameter_name:"([^"]*)"')
FEED = re.compile(r'^\s*\((%\d+)\) = "pd_op\.(?:data|feed)" \(\) \{.*?\bname:"([^"]*)"')
FLAGS = re.compile(r'(,)?\b(?:persistable|stop_gradient):\[[^\]]*\]|(,)?\bstruct_name:"[^"]*"')
VALUE = re.compile(r'%(?:arg_)?\d+')


def normalized(text):
    """The print with what the legacy format cannot hold left out: parameter
    ops (their order and `need_clip`), feeds (`pd_op.data` is a `feed` op
    there) both read by name, the `persistable`/`stop_gradient` result
    flags and `struct_name` (an attribute no op declares, which Paddle's
    translation drops); the other values renumbered in order of
    appearance."""
    names, lines = {}, []
    for line in text.splitlines():
        m = PARAM.match(line) or FEED.match(line)
        if m:
            names[m.group(1)] = "@" + m.group(2)
            continue
        line = FLAGS.sub("", line).replace("{,", "{")
        lines.append(line)
    out, numbers = [], {}
    for line in lines:
        def rename(m):
            v = m.group(0)
            if v in names:
                return names[v]
            return numbers.setdefault(v, "%%v%d" % len(numbers))
        out.append(VALUE.sub(rename, line))
    return "\n".join(out)


def first_difference(got, want):
    g, w = got.rstrip().splitlines(), want.rstrip().splitlines()
    for i, (a, b) in enumerate(zip(g, w)):
        if a != b:
            return "line %d: got %s | want %s" % (i + 1, a.strip()[:160], b.strip()[:160])
    return "lengths differ: %d lines, want %d" % (len(g), len(w))


def models(sets, only, zoo):
    corpus = os.path.join(SHARED, "paddle-corpus")
    legacy = os.path.join(SHARED, "legacy-corpus")
    out = []
    if "corpus" in sets and os.path.exists(os.path.join(corpus, "index.json")):
        index = json.load(open(os.path.join(corpus, "index.json")))
        for m in index.get("models", []):
            name = m["name"]
            inputs = os.path.join(corpus, name + ".inputs.npz")
            if os.path.exists(inputs):
                out.append(("corpus", name, os.path.join(corpus, name + ".json"), inputs, None,
                            os.path.join(corpus, name + ".txt")))
    if "legacy" in sets:
        for d in (legacy, corpus):
            if not os.path.isdir(d):
                continue
            for f in sorted(os.listdir(d)):
                if not f.endswith(".pdmodel"):
                    continue
                name = f[:-len(".pdmodel")]
                inputs = os.path.join(d, name + ".inputs.npz")
                ref = os.path.join(d, name + ".ref.npz")
                if not os.path.exists(inputs):
                    continue
                out.append(("legacy", name, os.path.join(d, f), inputs,
                            ref if os.path.exists(ref) else os.path.join(d, name + ".json"),
                            os.path.join(d, name + ".translated.txt")))
    if "control" in sets:
        d = os.path.join(ROOT, "tests", "corpus", "control_flow")
        if os.path.exists(os.path.join(d, "index.json")):
            for m in json.load(open(os.path.join(d, "index.json"))).get("models", []):
                name = m["name"]
                inputs = os.path.join(d, name + ".inputs.npz")
                if os.path.exists(inputs):
                    out.append(("control", name, os.path.join(d, name + ".json"), inputs, None,
                                os.path.join(d, name + ".txt")))
    if "zoo" in sets and os.path.isdir(zoo):
        for f in sorted(os.listdir(zoo)):
            if not f.endswith(".json") or f.endswith(".opt.json"):
                continue
            name = f[:-len(".json")]
            inputs = os.path.join(zoo, name + ".b1.inputs.npz")
            if os.path.exists(inputs):
                out.append(("zoo", name, os.path.join(zoo, f), inputs, None, None))
    if only:
        out = [m for m in out if m[1] in only]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default="corpus,legacy,control")
    ap.add_argument("--models", default="")
    ap.add_argument("--zoo", default="/tmp/pir_zoo",
                    help="the networks scripts/paddle_check_zoo.py saved (its --out)")
    args = ap.parse_args()
    sets = set(args.sets.split(","))
    only = set(filter(None, args.models.split(",")))
    counts = {}
    unexpressed = []
    with tempfile.TemporaryDirectory() as work:
        for kind, name, x, inputs, ref, print_ref in models(sets, only, args.zoo):
            c = counts.setdefault(kind, {"models": 0, "written": 0, "run": 0, "print": 0, "normalized": 0, "printable": 0})
            c["models"] += 1
            out_dir = os.path.join(work, kind)
            os.makedirs(out_dir, exist_ok=True)
            y = os.path.join(out_dir, name + ".pdmodel")
            res = subprocess.run([PIR, "convert", x, y, "--force"], capture_output=True, text=True)
            if res.returncode != 0:
                msg = res.stderr.strip().splitlines()[-1] if res.stderr.strip() else "failed"
                print("%-8s %-26s not written: %s" % (kind, name, msg[:400]))
                unexpressed.append((kind, name, msg))
                continue
            c["written"] += 1
            # The reference outputs.
            if ref is None or ref.endswith(".json"):
                prefix_x = (ref or x)[:-len(".json")]
                want = os.path.join(out_dir, name + ".want.npz")
                _, err = run_child(PADDLE331, RUN, [prefix_x, inputs, want])
                if err:
                    # Paddle cannot run every file it wrote (a trainable=false
                    # save): the figures of NAME.meta.json are the reference.
                    want = meta_reference(prefix_x + ".meta.json", want)
                if err and not want:
                    print("%-8s %-26s reference run by Paddle 3.3.1 failed: %s" % (kind, name, err))
                    continue
            else:
                want = ref
            got = os.path.join(out_dir, name + ".got.npz")
            _, err = run_child(PADDLE262, RUN, [y[:-len(".pdmodel")], inputs, got])
            run_note = err and ("Paddle 2.6.2: " + err)
            if not err:
                run_note = compare(got, want)
            if not run_note:
                c["run"] += 1
            if print_ref and os.path.exists(print_ref):
                c["printable"] += 1
            printed, perr = run_child(PADDLE331, PRINT, [y])
            print_note = None
            if perr:
                print_note = "Paddle 3.3.1 cannot translate it: " + perr
            elif print_ref is None:
                print_note = "no print of X to compare with"
            elif os.path.exists(print_ref):
                want_print = open(print_ref).read()
                if printed.rstrip() != want_print.rstrip():
                    print_note = first_difference(printed, want_print)
            else:
                print_note = "no print of X to compare with"
            if not print_note:
                c["print"] += 1
            if not perr and print_ref and os.path.exists(print_ref):
                want_print = open(print_ref).read()
                if normalized(printed) == normalized(want_print):
                    c["normalized"] += 1
                elif print_note:
                    print_note += " (also after normalizing: %s)" % first_difference(
                        normalized(printed), normalized(want_print))
            print("%-8s %-26s run: %s; print: %s" % (kind, name, run_note or "ok", print_note or "equal"))
            sys.stdout.flush()
    print()
    for kind, c in counts.items():
        print("%-8s written %d/%d, Paddle 2.6.2 runs to the reference %d/%d, Paddle 3.3.1 prints equal %d/%d"
              " (%d/%d leaving out what the legacy format cannot hold)"
              % (kind, c["written"], c["models"], c["run"], c["written"], c["print"], c["printable"],
                 c["normalized"], c["printable"]))
    if unexpressed:
        print("\nnot expressible in Paddle 2.6:")
        for kind, name, msg in unexpressed:
            print("  %s/%s: %s" % (kind, name, msg[:600]))


if __name__ == "__main__":
    main()
