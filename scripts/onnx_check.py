#!/usr/bin/env python3
"""`pir export X -o Y.onnx` judged by onnxruntime against Paddle 3.3.1's outputs.

Run with a Python that has onnxruntime, onnx and numpy (e.g.
`python3 -m venv /work/venv-onnx && /work/venv-onnx/bin/pip install onnxruntime onnx numpy`):

    /work/venv-onnx/bin/python scripts/onnx_check.py [--sets corpus,legacy,cf,zoo]
        [--pir target/debug/pir] [--paddle-python /work/venv-paddle/bin/python]
        [--paddle2onnx] [--out /tmp/pir_onnx_check] [--only NAME,...]

For each model with inputs it exports X with the `pir` binary (`--opset`, default 17),
runs `onnx.checker.check_model(Y, full_check=True)`, runs Y in onnxruntime (CPU) and
compares every output with the reference: same shape, integers and bools exactly,
floats within rtol 1e-3 and atol 1e-4 x the reference's largest magnitude. Two
exceptions, both reported per model: an output that depends on a random node of the
ONNX file (RandomUniform(Like), RandomNormal(Like), Multinomial, Bernoulli) is judged
by shape, dtype and where it is finite when its values differ (ONNX's generator is not
Paddle's: equal values are possible only for degenerate draws, which must then match);
and the outputs listed in NOISE_FLOORS, whose exact value is 0 so that both sides are
float rounding noise, get the stated absolute tolerance. Sets:

- `corpus`: /work/shared/paddle-corpus (top level) and tests/corpus (models with
  `NAME.inputs.npz`); references computed by Paddle 3.3.1 (`load_inference_model` +
  `Executor.run`, CPU, in `--paddle-python`, cached in `--out/refs`), at the saved
  batch and at batch 1 and 3 (the inputs the saved model leaves batched cut to their
  first sample, and that sample tiled three times).
- `cf`: tests/corpus/control_flow, as `corpus`.
- `legacy`: /work/shared/legacy-corpus and tests/corpus/legacy: X is `NAME.pdmodel`
  (pir translates it), the reference `NAME.ref.npz` (Paddle 2.6.2's executor).
- `ops`: tests/corpus/onnx_ops, one op per model (made by
  scripts/make_onnx_op_models.py and scripts/make_onnx_decode_models.py), references computed by Paddle 3.3.1 as for
  `corpus` on `NAME.inputs.npz` and on each `NAME.bK.inputs.npz` beside it.
- `zoo`: the networks of scripts/paddle_check_zoo.py in /tmp/pir_zoo (made by that
  script): references `NAME.bK.off.outputs.npz` (Paddle's predictor, IR optimisation
  off) on `NAME.bK.inputs.npz`, for every batch K there, and batch 3 (b1 tiled) with
  the reference computed by Paddle 3.3.1 as for `corpus`.

`--paddle2onnx` converts the same files with paddle2onnx (in `--paddle-python`) and
judges its files the same way (with `--p2o-from 3.2`, the files `pir downgrade --to 3.2`
writes of them: what paddle2onnx makes of a model handed to it in the 3.2 encoding): models converted, models correct, conversion time
(median of interleaved runs with pir's, `--repeat` each), and onnxruntime latency of
both files where both are correct. Prints N/N per set and every failure with its reason.
The conversion times here are not like for like (pir is timed as a process, startup
included, paddle2onnx in-process): bench/compare_paddle2onnx.py times both sides the
same way.
"""

import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import threading
import time

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = "/work/shared"
RUN_TIMEOUT = 60.0

PADDLE_WORKER = r'''
import sys, json, numpy as np, paddle
paddle.set_device("cpu")
jobs = json.load(open(sys.argv[1]))
for job in jobs:
    try:
        if job["kind"] == "ref":
            paddle.enable_static()
            exe = paddle.static.Executor(paddle.CPUPlace())
            prog, feeds, fetches = paddle.static.load_inference_model(job["prefix"], exe)
            data = np.load(job["inputs"])
            by_name = {k.split("_", 1)[1]: data[k] for k in data.files}
            feed = {n: by_name[n] for n in feeds}
            try:
                flat = exe.run(prog, feed=feed, fetch_list=fetches)
            except RuntimeError as e:
                # Detection ops give outputs with LoD (per-image row counts):
                # fetched as tensors, their values are the rows.
                if "LoD" not in str(e):
                    raise
                flat = [np.array(t) for t in exe.run(prog, feed=feed, fetch_list=fetches, return_numpy=False)]
            paddle.disable_static()
            np.savez(job["out"], *flat)
            print(json.dumps({"ok": True}), flush=True)
        else:
            import paddle2onnx, time as t
            t0 = t.perf_counter()
            paddle2onnx.export(job["model"], job["params"], job["out"], opset_version=job["opset"],
                               enable_onnx_checker=False, verbose=False)
            dt = t.perf_counter() - t0
            ok = os.path.exists(job["out"]) and os.path.getsize(job["out"]) > 0
            print(json.dumps({"ok": ok, "seconds": dt}), flush=True)
    except BaseException as e:
        print(json.dumps({"ok": False, "error": (type(e).__name__ + ": " + str(e))[:300]}), flush=True)
'''


def models(sets):
    """(set, name, model file, params file or None, [(batch label, inputs npz, ref npz or None)])."""
    out = []
    if "corpus" in sets or "cf" in sets:
        dirs = []
        if "corpus" in sets:
            dirs += [f"{SHARED}/paddle-corpus", f"{REPO}/tests/corpus"]
        if "cf" in sets:
            dirs += [f"{REPO}/tests/corpus/control_flow"]
        seen = set()
        for d in dirs:
            for inp in sorted(glob.glob(f"{d}/*.inputs.npz")):
                name = os.path.basename(inp)[: -len(".inputs.npz")]
                label = "cf" if d.endswith("control_flow") else "corpus"
                if (label, name) in seen:
                    continue
                seen.add((label, name))
                model = f"{d}/{name}.json"
                params = f"{d}/{name}.pdiparams"
                out.append((label, name, model, params if os.path.exists(params) else None,
                            [("saved", inp, None)]))
    if "ops" in sets:
        # One op per model (scripts/make_onnx_op_models.py): the saved
        # inputs and the batches drawn beside them (`NAME.bK.inputs.npz`).
        d = f"{REPO}/tests/corpus/onnx_ops"
        for inp in sorted(glob.glob(f"{d}/*.inputs.npz")):
            name = os.path.basename(inp)[: -len(".inputs.npz")]
            if "." in name:
                continue
            extra = [(p.split(".")[-3], p, None) for p in sorted(glob.glob(f"{d}/{name}.b*.inputs.npz"))]
            params = f"{d}/{name}.pdiparams"
            out.append(("ops", name, f"{d}/{name}.json", params if os.path.exists(params) else None,
                        [("saved", inp, None)] + extra))
    if "legacy" in sets:
        for d in [f"{SHARED}/legacy-corpus", f"{REPO}/tests/corpus/legacy"]:
            for ref in sorted(glob.glob(f"{d}/*.ref.npz")):
                name = os.path.basename(ref)[: -len(".ref.npz")]
                params = f"{d}/{name}.pdiparams"
                out.append(("legacy", name, f"{d}/{name}.pdmodel",
                            params if os.path.exists(params) else None,
                            [("b2", f"{d}/{name}.inputs.npz", ref)]))
    if "zoo" in sets:
        for model in sorted(glob.glob("/tmp/pir_zoo/*.json")):
            if ".opt." in model:
                continue
            name = os.path.basename(model)[:-5]
            runs = []
            for inp in sorted(glob.glob(f"/tmp/pir_zoo/{name}.b*.inputs.npz")):
                b = inp.split(".")[-3]
                ref = f"/tmp/pir_zoo/{name}.{b}.off.outputs.npz"
                if os.path.exists(ref):
                    runs.append((b, inp, ref))
            params = f"/tmp/pir_zoo/{name}.pdiparams"
            if runs:
                out.append(("zoo", name, model, params if os.path.exists(params) else None, runs))
    return out


def load_npz(path):
    d = np.load(path)
    return [d[k] for k in d.files]


class Feeds(dict):
    """Inputs by feed name (`arg<i>_<name>` in the npz files)."""


def load_inputs(path):
    d = np.load(path)
    return Feeds((k.split("_", 1)[1] if k.startswith("arg") else k, d[k]) for k in d.files)


class MetaReference(list):
    """Outputs known by shape, sum and first 8 values only (`NAME.meta.json`)."""


def compare_meta(outs, refs):
    if len(outs) != len(refs):
        return f"{len(outs)} outputs, reference has {len(refs)}"
    for i, (o, r) in enumerate(zip(outs, refs)):
        o = np.asarray(o, dtype=np.float64)
        if list(o.shape) != list(r["shape"]):
            return f"output {i}: shape {list(o.shape)}, reference {r['shape']}"
        first = np.asarray(r["first8"], dtype=np.float64)
        scale = max(float(np.max(np.abs(first))) if first.size else 0.0, 1e-30)
        if not np.allclose(o.ravel()[: first.size], first, rtol=1e-3, atol=1e-4 * scale):
            return f"output {i}: first values differ"
        if not np.isclose(o.sum(), r["sum"], rtol=1e-3, atol=1e-4 * max(abs(r["abs_sum"]), 1e-30)):
            return f"output {i}: sum {o.sum():.6g}, reference {r['sum']:.6g}"
    return None


# (set, model) -> {output index: (absolute tolerance, why)}: outputs whose exact
# value is 0, so that Paddle's and onnxruntime's results are both rounding noise.
NOISE_FLOORS = {
    ("legacy", "lg_embed_attention"): {
        0: (1e-5, "the sum of 96 layer_norm outputs (scale 1, bias 0: exactly 0) of "
                  "magnitude ~80 in all; float32 rounding leaves ~1e-6 on either side"),
    },
}

RANDOM_OPS = {"RandomUniform", "RandomUniformLike", "RandomNormal", "RandomNormalLike",
              "Multinomial", "Bernoulli"}


def random_outputs(model):
    """Indices of the graph outputs of `model` that depend on a random node
    (nested graphs included: a node whose subgraphs draw or read a random
    value is random)."""
    def names_in(graph):
        for node in graph.node:
            yield from node.input
            for attr in node.attribute:
                for g in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                    yield from names_in(g)

    def draws(graph):
        return any(node.op_type in RANDOM_OPS or any(
            draws(g) for attr in node.attribute
            for g in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs))
            for node in graph.node)

    tainted = set()
    for node in model.graph.node:
        subgraphs = [g for attr in node.attribute
                     for g in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs)]
        if (node.op_type in RANDOM_OPS or any(i in tainted for i in node.input)
                or any(draws(g) or any(n in tainted for n in names_in(g)) for g in subgraphs)):
            tainted.update(node.output)
    return {i for i, out in enumerate(model.graph.output) if out.name in tainted}


def compare_random(o, r):
    """A random output: same shape and dtype kind, finite where the reference is."""
    if o.dtype.kind != r.dtype.kind and not (o.dtype.kind in "iu" and r.dtype.kind in "iu"):
        return f"dtype {o.dtype}, reference {r.dtype}"
    if r.dtype.kind in "fc" and not np.array_equal(np.isfinite(o), np.isfinite(r)):
        return "finite where the reference is not (or not where it is)"
    return None


def compare(outs, refs, random=frozenset(), floors=None):
    if isinstance(refs, MetaReference):
        return compare_meta(outs, refs)
    if len(outs) != len(refs):
        return f"{len(outs)} outputs, reference has {len(refs)}"
    floors = floors or {}
    for i, (o, r) in enumerate(zip(outs, refs)):
        o = np.asarray(o)
        r = np.asarray(r)
        if o.shape != r.shape:
            if o.size == r.size and o.size == 1:
                o = o.reshape(r.shape)
            else:
                return f"output {i}: shape {o.shape}, reference {r.shape}"
        if i in random:
            exact = compare([o], [r])
            why = exact and compare_random(o, r)
            if why:
                return f"output {i} (random): {why}"
            continue
        if r.dtype.kind in "biu" or o.dtype.kind in "biu":
            if not np.array_equal(o.astype(np.float64), r.astype(np.float64)):
                bad = int(np.sum(o.astype(np.float64) != r.astype(np.float64)))
                return f"output {i}: {bad} of {r.size} integer elements differ"
            continue
        o64 = o.astype(np.complex128 if np.iscomplexobj(o) else np.float64)
        r64 = r.astype(np.complex128 if np.iscomplexobj(r) else np.float64)
        scale = float(np.max(np.abs(r64))) if r64.size else 0.0
        atol = max(1e-4 * scale, floors[i][0] if i in floors else 0.0)
        if not np.allclose(o64, r64, rtol=1e-3, atol=atol, equal_nan=True):
            err = float(np.nanmax(np.abs(o64 - r64))) if r64.size else 0.0
            return f"output {i}: max abs error {err:.3g} (largest |ref| {scale:.3g})"
    return None


def tile_batch(arrays, k):
    return [np.concatenate([a] * k, axis=0) if a.ndim > 0 else a for a in arrays]


def run_paddle(python, jobs, workdir, timeout=90):
    path = os.path.join(workdir, "jobs.json")
    with open(path, "w") as f:
        json.dump(jobs, f)
    worker = os.path.join(workdir, "worker.py")
    with open(worker, "w") as f:
        f.write("import os\n" + PADDLE_WORKER)
    try:
        p = subprocess.run(["nice", python, worker, path], capture_output=True, text=True,
                           timeout=timeout)
        stdout, stderr = p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        stderr = f"no answer after {timeout} s (killed)"
    results = []
    for line in stdout.splitlines():
        try:
            results.append(json.loads(line))
        except ValueError:
            pass
    # A crash (paddle2onnx aborts on ops it cannot convert) leaves no JSON
    # line: its own error lines say why.
    said = [ln for ln in stderr.splitlines() if "[ERROR]" in ln or "Error:" in ln]
    why = (said[0] if said else stderr[-300:]).strip()[:300]
    while len(results) < len(jobs):
        results.append({"ok": False, "error": "process died: " + why})
    return results


def ort_run(path, feeds, session_cache):
    import onnxruntime as ort
    sess = session_cache.get(path)
    if sess is None:
        opts = ort.SessionOptions()
        opts.log_severity_level = 3
        opts.intra_op_num_threads = 1
        sess = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
        session_cache[path] = sess
    names = [i.name for i in sess.get_inputs()]
    if isinstance(feeds, Feeds):
        missing = [n for n in names if n not in feeds]
        if missing:
            raise ValueError(f"no input data for {missing}")
        feeds = [feeds[n] for n in names]
    # A loop that never ends (a wrong condition) is stopped after a while.
    options = ort.RunOptions()
    timer = threading.Timer(RUN_TIMEOUT, lambda: setattr(options, "terminate", True))
    timer.start()
    try:
        return sess.run(None, dict(zip(names, feeds)), options), sess, names
    finally:
        timer.cancel()


def judge(path, runs, session_cache, full_check=True, floors=None):
    import onnx
    try:
        model = onnx.load(path)
        onnx.checker.check_model(model, full_check=full_check)
    except Exception as e:  # noqa: BLE001 - any checker failure is a verdict
        return f"checker: {str(e).splitlines()[0][:200]}"
    random = random_outputs(model)
    for label, feeds, refs in runs:
        try:
            outs, _, _ = ort_run(path, feeds, session_cache)
        except Exception as e:  # noqa: BLE001
            return f"onnxruntime ({label}): {str(e).splitlines()[0][:200]}"
        why = compare(outs, refs, random, floors)
        if why:
            return f"{label}: {why}"
    return None


def latency_pair(a, b, feeds, session_cache, n=60):
    """Median onnxruntime latencies of files `a` and `b`, runs alternating
    (so load on the machine touches both alike)."""
    calls = []
    for path in (a, b):
        # The session and its feeds as they are run: no per-run timer thread
        # or dict building in the timed part.
        _, sess, names = ort_run(path, feeds, session_cache)
        fd = dict(zip(names, [feeds[n] for n in names] if isinstance(feeds, Feeds) else feeds))
        calls.append((sess, fd))
    for sess, fd in calls:
        for _ in range(5):
            sess.run(None, fd)
    times = ([], [])
    for _ in range(n):
        for k, (sess, fd) in enumerate(calls):
            t0 = time.perf_counter()
            sess.run(None, fd)
            times[k].append(time.perf_counter() - t0)
    return statistics.median(times[0]), statistics.median(times[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default="corpus,cf,legacy,zoo")
    ap.add_argument("--pir", default=f"{REPO}/target/debug/pir")
    ap.add_argument("--paddle-python", default="/work/venv-paddle/bin/python")
    ap.add_argument("--paddle2onnx", action="store_true")
    ap.add_argument("--opset", type=int, default=17)
    ap.add_argument("--p2o-from", default=None, metavar="RELEASE",
                    help="paddle2onnx converts `pir downgrade MODEL --to RELEASE` of each JSON model "
                         "(e.g. 3.2) instead of the model itself")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default="/tmp/pir_onnx_check")
    ap.add_argument("--only", default=None)
    args = ap.parse_args()
    sets = args.sets.split(",")
    os.makedirs(f"{args.out}/refs", exist_ok=True)
    todo = models(sets)
    if args.only:
        only = set(args.only.split(","))
        todo = [m for m in todo if m[1] in only]

    # References from Paddle 3.3.1 for the sets that have none on disk.
    jobs, job_keys = [], []

    def derived(s, name, src, batched, k):
        """`src`'s inputs with the batched ones cut to their first sample and
        tiled `k` times (the others as they are)."""
        path = f"{args.out}/refs/{s}.{name}.b{k}.inputs.npz"
        if not os.path.exists(path) or os.path.getmtime(path) < os.path.getmtime(src):
            d = np.load(src)
            np.savez(path, **{key: (np.concatenate([d[key][:1]] * k, axis=0)
                                    if key.split("_", 1)[1] in batched else d[key])
                              for key in d.files})
        return path

    for s, name, model, params, runs in todo:
        variants = []
        if s == "zoo":
            # Batch 3 beside the saved b1/b2 runs: the inputs whose first
            # dim differs between b1 and b2 are batched.
            b1 = [inp for label, inp, _ in runs if label == "b1"]
            b2 = [inp for label, inp, _ in runs if label == "b2"]
            if b1 and b2:
                d1, d2 = np.load(b1[0]), np.load(b2[0])
                batched = {k.split("_", 1)[1] for k in d1.files
                           if d1[k].ndim > 0 and d1[k].shape[0] != d2[k].shape[0]}
                if batched:
                    variants.append(("b3", derived(s, name, b1[0], batched, 3)))
        for label, inp, ref in runs:
            if ref is not None:
                continue
            variants.append((label, inp))
            if s == "ops":
                continue  # its batches are drawn whole, beside it
            # Batch 1 and 3: the inputs whose first dim the saved model
            # leaves dynamic, cut to one sample and tiled.
            meta_path = model[:-5] + ".meta.json"
            specs = json.load(open(meta_path)).get("input_specs", []) if os.path.exists(meta_path) else []
            dynamic = {sp.get("name") for sp in specs if sp.get("shape") and sp["shape"][0] == -1}
            if dynamic:
                variants.append(("b1", derived(s, name, inp, dynamic, 1)))
                variants.append(("b3", derived(s, name, inp, dynamic, 3)))
        for vlabel, vinp in variants:
            out = f"{args.out}/refs/{s}.{name}.{vlabel}.ref.npz"
            # A cached reference older than its model or inputs is stale.
            stale = not os.path.exists(out) or os.path.getmtime(out) < max(
                os.path.getmtime(model), os.path.getmtime(vinp))
            if stale:
                jobs.append({"kind": "ref", "prefix": model[:-5], "params": params or "",
                             "inputs": vinp, "out": out})
            job_keys.append((s, name, vlabel, vinp, out))
    if jobs:
        print(f"computing {len(jobs)} references with Paddle ...", file=sys.stderr)
        # One process per model: a model Paddle crashes on takes no other down.
        by_model = {}
        for job in jobs:
            by_model.setdefault(job["prefix"], []).append(job)
        for group in by_model.values():
            run_paddle(args.paddle_python, group, args.out)

    cases = []
    for s, name, model, params, runs in todo:
        expanded = []
        for label, inp, ref in runs:
            if ref is not None:
                expanded.append((label, load_inputs(inp), load_npz(ref)))
        for (ks, kname, vlabel, vinp, out) in job_keys:
            if ks == s and kname == name and os.path.exists(out):
                expanded.append((vlabel, load_inputs(vinp), load_npz(out)))
        meta_path = model[:-5] + ".meta.json"
        if not expanded and os.path.exists(meta_path):
            # Paddle cannot run the saved file (infer_untrainable): the
            # figures its generator recorded before saving.
            ref = json.load(open(meta_path)).get("reference_output", {}).get("outputs")
            if ref:
                expanded.append(("meta", load_inputs(runs[0][1]), MetaReference(ref)))
        cases.append((s, name, model, params, expanded))

    results = {}
    cache = {}
    for s, name, model, params, runs in cases:
        y = f"{args.out}/{s}.{name}.pir.onnx"
        times = []
        err = None
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            p = subprocess.run([args.pir, "export", model, "-o", y, "-f", "--opset", str(args.opset)],
                               capture_output=True, text=True)
            times.append(time.perf_counter() - t0)
            if p.returncode != 0:
                err = "export: " + p.stderr.strip().splitlines()[-1][:400] if p.stderr.strip() else "export failed"
                break
        r = {"set": s, "name": name, "pir_time": statistics.median(times), "runs": len(runs)}
        if not runs:
            r["pir"] = "no reference"
        elif err:
            r["pir"] = err
        else:
            r["pir"] = judge(y, runs, cache, floors=NOISE_FLOORS.get((s, name))) or "ok"
            try:
                import onnx
                drawn = sorted(random_outputs(onnx.load(y)))
            except Exception:  # noqa: BLE001 - an unreadable file was judged above
                drawn = []
            if drawn:
                r["random_outputs"] = drawn
            if (s, name) in NOISE_FLOORS:
                r["noise_floors"] = {i: why for i, (_, why) in NOISE_FLOORS[(s, name)].items()}
        if args.paddle2onnx:
            y2 = f"{args.out}/{s}.{name}.p2o.onnx"
            p2o_model, p2o_params, p2o_err = model, params, None
            if args.p2o_from and model.endswith(".json"):
                p2o_model = f"{args.out}/{s}.{name}.to{args.p2o_from}.json"
                d = subprocess.run([args.pir, "downgrade", model, p2o_model, "--to", args.p2o_from, "-f"],
                                   capture_output=True, text=True)
                if d.returncode != 0:
                    p2o_err = "downgrade: " + (d.stderr.strip().splitlines() or ["failed"])[-1][:400]
                beside = p2o_model[:-len(".json")] + ".pdiparams"
                p2o_params = beside if params and os.path.exists(beside) else None
            if p2o_err:
                r["p2o"] = "convert: " + p2o_err
            elif p2o_model.endswith(".json") or p2o_model.endswith(".pdmodel"):
                jobs = [{"kind": "p2o", "model": p2o_model, "params": p2o_params or "", "out": y2,
                         "opset": args.opset}
                        for _ in range(args.repeat)]
                if os.path.exists(y2):
                    os.remove(y2)
                res = run_paddle(args.paddle_python, jobs, args.out)
                if res[0].get("ok"):
                    r["p2o_time"] = statistics.median([x.get("seconds", 0.0) for x in res])
                    r["p2o"] = (judge(y2, runs, cache, floors=NOISE_FLOORS.get((s, name))) or "ok"
                                if runs else "no reference")
                else:
                    r["p2o"] = "convert: " + res[0].get("error", "no file written")
            if r["pir"] == "ok" and r.get("p2o") == "ok" and runs:
                feeds = runs[0][1]
                r["pir_latency"], r["p2o_latency"] = latency_pair(y, y2, feeds, cache)
        results[(s, name)] = r
        print(json.dumps(r), flush=True)

    print("\n| set | pir exported+correct | paddle2onnx converted | paddle2onnx correct |")
    print("|---|---:|---:|---:|")
    for s in sets:
        rs = [r for r in results.values() if r["set"] == s]
        ok = sum(r["pir"] == "ok" for r in rs)
        line = f"| {s} | {ok}/{len(rs)} |"
        if args.paddle2onnx:
            conv = sum(not str(r.get("p2o", "")).startswith("convert") for r in rs)
            good = sum(r.get("p2o") == "ok" for r in rs)
            line += f" {conv}/{len(rs)} | {good}/{len(rs)} |"
        else:
            line += " - | - |"
        print(line)
    if args.paddle2onnx:
        both = [r for r in results.values() if "p2o_time" in r]
        if both:
            pt = sum(r["pir_time"] for r in both)
            qt = sum(r["p2o_time"] for r in both)
            print(f"\nconversion time over {len(both)} models both convert: pir {pt:.3f} s (a process), "
                  f"paddle2onnx {qt:.3f} s (in-process) ({qt / pt:.1f}x; like for like: bench/compare_paddle2onnx.py)")
        lat = [r for r in results.values() if "pir_latency" in r]
        if lat:
            ratios = [r["pir_latency"] / r["p2o_latency"] for r in lat]
            print(f"onnxruntime latency pir/paddle2onnx over {len(lat)} models: median {statistics.median(ratios):.3f}, max {max(ratios):.3f}")
    print("\nfailures:")
    for r in results.values():
        if r["pir"] != "ok":
            print(f"  pir {r['set']}/{r['name']}: {r['pir']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
