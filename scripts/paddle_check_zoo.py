#!/usr/bin/env python3
"""`pir opt -p inference` on the networks users deploy, judged by Paddle 3.3.1's predictor.

The corpus holds narrow toy versions of the standard networks; this builds the real ones
(scripts/paddle_zoo_models.py: paddle.vision.models' resnet18/50, resnext50,
mobilenet v1/v2/v3, shufflenet v2, squeezenet, densenet121, googlenet, inception_v3,
vgg11 and alexnet; networks of Paddle's nn layers: Transformer encoders with an
attention mask input, LSTM and GRU text models, a UNet, an MLP-Mixer, a ViT, a greedy
seq2seq decoder in a while loop, detection heads; and
`edge_*` models of the near misses of each pass: fusions that must not fire, views and
broadcasts an in-place op must not write, a while loop, dynamic lengths, values computed
from constants) with Paddle 3.3.1, random-initialised from a fixed seed (norm scales,
biases and batch-norm statistics drawn too — the statistics from a batch, as training
leaves them — so that folding them is tested), in eval mode, and saves each with
`paddle.jit.save` (batch dim -1) into `--out` (default /tmp/pir_zoo, kept between runs;
`--rebuild` makes them again), with random inputs (fixed seeds) at every batch size of
`--batches` and the outputs of the same layer in float64 on them (the exact outputs, as
near as float64 gets).

For each model X: `pir opt X.json -p PIPELINE -o X.opt.json` (Y; default pipeline
`inference`), then one predictor process per batch size (bench/compare_paddle_predictor.py's
`measure`) runs, on the same inputs, CPU, oneDNN off, one thread:
  X with Paddle's IR optimisation on (`switch_ir_optim(True)`),
  X with it off (the reference: `switch_ir_optim(False)` and the optional passes deleted,
    since on CPU in 3.3.1 `switch_ir_optim(False)` alone still runs them all),
  Y with it off,
each twice, inputs copied in afresh (so a pass that made an op write a parameter in
place shows as a second run that differs). Y's outputs must match the reference: same
shapes and dtypes, other dtypes than floats exactly, floats within rtol 1e-4 and an
atol per output of the larger of 1e-5 x its largest magnitude and twice the reference's
own largest distance from the float64 outputs. Why: folding a batch norm into a
convolution's weights rounds differently, and through resnet50 or inception_v3 that
moves outputs by up to 5e-5 of their largest value, while the reference itself is
3e-5 of it away from the float64 outputs (and Y as far: the `f64` column); a correct
program rounding differently can be that far on the other side, a wrong one is
further off by orders of magnitude. X with Paddle's optimisation is held to the same
test, and reported, but its failures are Paddle's.

Prints a markdown table: model, kind (as the bench says), compute ops in X, after
Paddle's CPU pipeline (the last program print of a predictor with `switch_ir_debug`,
counted as scripts/paddle_inference_ops.py counts) and in Y, pass/fail, then for Y
and for Paddle's optimised run the worst error over batch sizes and outputs (|d| /
(atol + rtol |ref|), below 1 passes) and `f64`: the run's largest distance from the
float64 outputs over the reference's (about 1: as exact as Paddle's own program; n/a
where the layer does not run in float64). Then a line per failure. Exit 1 if Y fails
on any model (or `pir opt` fails), 2 on a usage error.

`--time` adds paired predictor latencies (the bench's `--paired` measurement, run it
when nothing else is busy): X with Paddle's optimisation against Y without, at the
first batch size, and their geometric mean.

Needs `pip install paddlepaddle==3.3.1` and `cargo build --release -p pir-cli`
(`PIR_BIN` overrides the binary).

Usage:
  scripts/paddle_check_zoo.py [--models a,b] [--out DIR] [--rebuild] [--pipeline P]
                              [--batches 2,1,3] [--no-counts] [--timeout S]
                              [--time [--rounds 3] [--blocks 8] [--min-ms 200]]
  --list   the model names
"""

import argparse
import math
import os
import statistics
import sys
import types
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import paddle_inference_ops  # noqa: E402
from paddle_inference_ops import PIR, json_counts, summarise  # noqa: E402
from compare_paddle_predictor import kind_of, measure, optimise  # noqa: E402

RTOL = 1e-4
ATOL_SCALE = 1e-5
SEED = 2024
DEFAULT_OUT = "/tmp/pir_zoo"


def zoo():
    os.environ.setdefault("GLOG_minloglevel", "2")
    import warnings
    warnings.filterwarnings("ignore")  # Paddle warns on import
    from paddle_zoo_models import ZOO
    return ZOO


# ---------------------------------------------------------------------------------------
# building the models


def randomise(layer, rng, batch):
    """Draw what Paddle initialises to constants (norm scales and shifts, biases, embedded
    tokens), then set every batch norm's running statistics to those of `batch` (one
    forward pass in training mode with momentum 0), as training would leave them: folding
    passes that mishandle any of these change the outputs, and the activations of deep
    networks keep a sane scale."""
    import paddle
    norms = []
    for sub in layer.sublayers(include_self=True):
        is_bn = isinstance(sub, (paddle.nn.layer.norm._BatchNormBase, paddle.nn.BatchNorm))
        is_norm = is_bn or "Norm" in type(sub).__name__
        if is_bn:
            norms.append(sub)
        for pname, p in sub.named_parameters(include_sublayers=False):
            if is_bn and pname in ("_mean", "_variance"):
                continue
            a = p.numpy()
            if a.size > 1 and a.min() != a.max():
                continue  # drawn by its initialiser already
            if is_norm and pname == "weight":
                a = rng.uniform(0.5, 1.5, a.shape)
            else:
                a = a + rng.normal(0, 0.2 if is_norm else 0.1, a.shape)
            p.set_value(a.astype(p.numpy().dtype))
    if norms:
        momenta = [bn._momentum for bn in norms]
        for bn in norms:
            bn._momentum = 0.0
        layer.train()
        with paddle.no_grad():
            layer(*[paddle.to_tensor(a) for a in batch])
        for bn, m in zip(norms, momenta):
            bn._momentum = m
    layer.eval()


def input_array(rng, shape, kind, batch):
    import numpy as np
    if kind.startswith("count:"):
        return np.full(shape, int(kind.split(":")[1]), "int64")
    full = [batch] + [3 + 2 * batch if d == -1 else d for d in shape]
    if kind == "float":
        return rng.standard_normal(full).astype("float32")
    if kind.startswith("tokens:"):
        return rng.integers(1, int(kind.split(":")[1]), full).astype("int64")
    if kind == "mask":  # padding: each sequence keeps its first `keep` keys
        mask = np.zeros(full, "float32")
        for i in range(batch):
            keep = int(rng.integers(full[-1] // 2, full[-1] + 1))
            mask[i, ..., keep:] = -1e4
        return mask
    raise ValueError("unknown input kind %r" % kind)


def paths(out, name):
    return types.SimpleNamespace(
        json=os.path.join(out, name + ".json"), params=os.path.join(out, name + ".pdiparams"),
        inputs=lambda b: os.path.join(out, "%s.b%d.inputs.npz" % (name, b)),
        exact=lambda b: os.path.join(out, "%s.b%d.exact.npz" % (name, b)))


def flat(outputs):
    if isinstance(outputs, (list, tuple)):
        return [t for o in outputs for t in flat(o)]
    return [outputs]


def float64_twin(make, layer):
    """The layer in float64 with the same values: made anew with float64 as the default
    dtype (`Layer.to` misses the flat weight buffer of Paddle's RNNs), else, for layers
    that ask for float32 themselves (`paddle.nn.BatchNorm`), the layer itself converted."""
    import paddle
    paddle.set_default_dtype("float64")
    try:
        twin = make()
        twin.set_state_dict({k: v.numpy().astype("float64") if v.dtype == paddle.float32 else v.numpy()
                             for k, v in layer.state_dict().items()})
    except Exception:  # a dtype mismatch; Paddle's error types vary
        twin = layer.to(dtype="float64") or layer
    finally:
        paddle.set_default_dtype("float32")
    twin.eval()
    return twin


def build(name, entry, out, batches, rebuild):
    """Save the model, its inputs and its float64 outputs unless they are there; None, or
    what went wrong. Everything is drawn from seeds of the model's name (and the batch
    size), so a partial cache is simply made again."""
    import numpy as np
    p = paths(out, name)
    make, inputs = entry
    files = [p.json, p.params] + [f(b) for b in batches for f in (p.inputs, p.exact)]
    if not rebuild and all(os.path.exists(f) for f in files):
        return None
    import paddle
    from paddle.static import InputSpec
    paddle.seed(SEED)
    seed = zlib.crc32(name.encode())
    try:
        layer = make()
        rng = np.random.default_rng(seed)
        randomise(layer, rng, [input_array(rng, shape, kind, 8) for _, shape, kind in inputs])
        specs = [InputSpec(list(shape) if kind.startswith("count") else [-1] + list(shape),
                           "float32" if kind in ("float", "mask") else "int64", n)
                 for n, shape, kind in inputs]
        paddle.jit.save(layer, os.path.join(out, name), input_spec=specs)
    except Exception as e:  # a model Paddle cannot save is reported, not the end of the run
        return "paddle.jit.save: %s" % (str(e).strip().splitlines() or [type(e).__name__])[-1][:200]
    batch_inputs = {}
    for b in batches:
        rng = np.random.default_rng([seed, b])
        batch_inputs[b] = [input_array(rng, shape, kind, b) for _, shape, kind in inputs]
        np.savez(p.inputs(b), **{"arg%d_%s" % (i, spec[0]): a
                                 for i, (spec, a) in enumerate(zip(inputs, batch_inputs[b]))})
    # The exact outputs, as near as float64 gets: how far float32 itself is from them.
    try:
        layer = float64_twin(make, layer)
        with paddle.no_grad():
            for b in batches:
                args = [paddle.to_tensor(a.astype("float64") if a.dtype == np.float32 else a)
                        for a in batch_inputs[b]]
                np.savez(p.exact(b), **{"out%d" % i: t.numpy() for i, t in enumerate(flat(layer(*args)))})
    except Exception as e:  # the check then goes without: say so in the file
        for b in batches:
            np.savez(p.exact(b), unavailable=np.array(str(e)[:200] or type(e).__name__))
    return None


# ---------------------------------------------------------------------------------------
# checking


def paddle_compute_ops(p):
    """Compute ops of the program Paddle's CPU pipeline makes of X, or None."""
    paddle_inference_ops.REPEATS = 1  # one timed create_predictor: only the count is used here
    entry, _problem = paddle_inference_ops.run_paddle(p.json, p.params)
    return entry["compute_ops"] if entry else None


def exact_outputs(path):
    """The float64 outputs saved with the model, or None when it could not run in float64."""
    import numpy as np
    exact = np.load(path)
    return None if "unavailable" in exact.files else exact


def errors(ref_path, got_path, exact):
    """(largest normalised error, problem or None, distance ratio) of one run's outputs
    against the reference run's. The atol of an output is 1e-5 x its largest magnitude
    and at least twice the reference's own distance from the float64 outputs `exact`
    (a correct program rounding differently is as far from them on the other side);
    the ratio is the run's largest distance from `exact` over the reference's (None
    without `exact`)."""
    import numpy as np
    ref, got = np.load(ref_path), np.load(got_path)
    if sorted(ref.files) != sorted(got.files):
        return math.inf, "%d outputs, expected %d" % (len(got.files), len(ref.files)), None
    worst, problem, ratio = 0.0, None, None
    for k in sorted(ref.files, key=lambda k: int(k[3:])):
        a, b = ref[k], got[k]
        if a.shape != b.shape or a.dtype != b.dtype:
            return math.inf, "%s: %s %s, expected %s %s" % (k, b.dtype, b.shape, a.dtype, a.shape), None
        if a.dtype.kind not in "fc":
            if not np.array_equal(a, b):
                return math.inf, "%s: %d elements differ" % (k, int(np.sum(a != b))), None
            continue
        if a.size == 0:
            continue
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        if not np.array_equal(np.isfinite(a64), np.isfinite(b64)):
            return math.inf, "%s: non-finite values where the reference has none (or the reverse)" % k, None
        finite = np.isfinite(a64)
        atol = ATOL_SCALE * float(np.max(np.abs(a64[finite]), initial=0.0))
        if exact is not None and k in exact.files and exact[k].shape == a.shape:
            x = exact[k][finite]
            ref_off = float(np.max(np.abs(a64[finite] - x), initial=0.0))
            got_off = float(np.max(np.abs(b64[finite] - x), initial=0.0))
            atol = max(atol, 2 * ref_off)
            if ref_off > 0:
                ratio = max(ratio or 0.0, got_off / ref_off)
        diff = np.abs(b64 - a64)[finite]
        e = float(np.max(diff / (atol + RTOL * np.abs(a64[finite])), initial=0.0)) if atol > 0 or diff.any() else 0.0
        worst = max(worst, e)
        if e > 1 and problem is None:
            problem = "%s: max abs difference %.3g (atol %.3g)" % (k, float(np.max(diff)), atol)
    return worst, problem, ratio


def check(name, p, batches, y, work, timeout):
    """Per side ("y": ours, "paddle": Paddle's optimisation) its (worst error, first
    problem, worst distance ratio) over the batch sizes; a failed run is Y's problem."""
    args = types.SimpleNamespace(onednn=False, warmup=0, runs=1, min_ms=0.0, blocks=1,
                                 timeout=timeout, stat="median")
    result = {"y": [0.0, None, None], "paddle": [0.0, None, None]}
    for b in batches:
        outs = {s: os.path.join(work, "%s.b%d.%s.outputs.npz" % (name, b, s)) for s in ("on", "off", "y")}
        sides = [(p.json, p.params, True, outs["on"]), (p.json, p.params, False, outs["off"]),
                 (y[0], y[1], False, outs["y"])]
        _ms, problem = measure(sides, p.inputs(b), args)
        if problem:
            result["y"] = [math.inf, "batch %d: predictors: %s" % (b, problem), None]
            return result
        exact = exact_outputs(p.exact(b))
        for side, run in (("y", "y"), ("paddle", "on")):
            e, prob, ratio = errors(outs["off"], outs[run], exact)
            acc = result[side]
            acc[0] = max(acc[0], e)
            if prob and not acc[1]:
                acc[1] = "batch %d: %s" % (b, prob)
            if ratio is not None:
                acc[2] = max(acc[2] or 0.0, ratio)
    return result


def timing(name, p, y, batch, args):
    """Median over rounds of paired X(optimised) and Y(not) latencies, or a problem."""
    margs = types.SimpleNamespace(onednn=False, warmup=3, runs=10, min_ms=args.min_ms,
                                  blocks=args.blocks, timeout=args.timeout, stat="median")
    xs, ys = [], []
    for r in range(args.rounds):
        outs = [os.path.join(args.out, "%s.time.%s.npz" % (name, s)) for s in "xy"]
        ms, problem = measure([(p.json, p.params, True, outs[0]), (y[0], y[1], False, outs[1])],
                              p.inputs(batch), margs)
        if problem:
            return None, problem
        xs.append(ms[0])
        ys.append(ms[1])
    return (statistics.median(xs), statistics.median(ys)), None


def fmt_err(e):
    return "inf" if math.isinf(e) else "%.2g" % e


def fmt_ratio(r):
    return "n/a" if r is None else "%.2f" % r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="", help="comma-separated model names (default: all; --list)")
    ap.add_argument("--list", action="store_true", help="print the model names and exit")
    ap.add_argument("--out", default=DEFAULT_OUT, help="where the models, inputs and outputs are kept")
    ap.add_argument("--rebuild", action="store_true", help="save the models and inputs again")
    ap.add_argument("--pipeline", default="inference")
    ap.add_argument("--batches", default="2,1,3", help="batch sizes the outputs are compared at")
    ap.add_argument("--no-counts", action="store_true", help="skip Paddle's optimised op count")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds one predictor process may take")
    ap.add_argument("--time", action="store_true", help="paired latencies X(optimised) vs Y")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--blocks", type=int, default=8)
    ap.add_argument("--min-ms", type=float, default=200.0)
    args = ap.parse_args()
    try:
        batches = [int(b) for b in args.batches.split(",") if b.strip()]
    except ValueError:
        ap.error("--batches: comma-separated integers")
    if not batches or min(batches) < 1 or min(args.rounds, args.blocks) < 1:
        ap.error("--batches, --rounds and --blocks must be at least 1")
    try:
        models = zoo()
    except ImportError as e:
        print("error: %s (pip install paddlepaddle==3.3.1)" % e, file=sys.stderr)
        return 2
    if args.list:
        print("\n".join(models))
        return 0
    if not os.path.exists(PIR):
        print("error: %s not found: run `cargo build --release -p pir-cli` or set PIR_BIN" % PIR,
              file=sys.stderr)
        return 2
    wanted = [m for m in args.models.split(",") if m]
    unknown = [m for m in wanted if m not in models]
    if unknown:
        print("error: unknown model(s) %s; --list names them" % ", ".join(unknown), file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)

    rows, notes, failed, speedups = [], [], 0, []
    load_start = os.getloadavg()[0]
    for name in wanted or list(models):
        p = paths(args.out, name)
        problem = build(name, models[name], args.out, batches, args.rebuild)
        x_ops = paddle_ops = y_ops = "n/a"
        y, x_counts = None, {}
        if problem is None:
            x_counts = json_counts(p.json)
            x_ops = summarise(x_counts)["compute_ops"]
            y, problem = optimise(name, p.json, p.params, args.pipeline, args.out)
        if problem is None:
            y_ops = summarise(json_counts(y[0]))["compute_ops"]
            if not args.no_counts:
                paddle_ops = paddle_compute_ops(p) or "n/a"
            res = check(name, p, batches, y, args.out, args.timeout)
            (y_err, problem, y_ratio), (paddle_err, paddle_problem, paddle_ratio) = res["y"], res["paddle"]
            if paddle_problem:
                notes.append("%s: Paddle's own pipeline: %s" % (name, paddle_problem))
        else:
            y_err, y_ratio, paddle_err, paddle_ratio = math.inf, None, math.nan, None
        row = [name, kind_of(x_counts) if y else "", x_ops, paddle_ops, y_ops,
               "**FAIL**" if problem else "pass", fmt_err(y_err), fmt_ratio(y_ratio),
               "n/a" if math.isnan(paddle_err) else fmt_err(paddle_err), fmt_ratio(paddle_ratio)]
        if problem:
            failed += 1
            notes.append("%s: %s" % (name, problem))
        elif args.time:
            t, tproblem = timing(name, p, y, batches[0], args)
            if t:
                speedups.append(t[0] / t[1])
                row += ["%.3f" % t[0], "%.3f" % t[1], "%.2f" % (t[0] / t[1])]
            else:
                notes.append("%s: timing: %s" % (name, tproblem))
        if args.time and len(row) < 13:
            row += ["n/a"] * 3
        rows.append(row)
        print("%-26s %s" % (name, " ".join(str(c) for c in row[1:])), file=sys.stderr, flush=True)

    print("pipeline `%s`; Paddle Inference 3.3.1, CPU, oneDNN off, 1 thread; batches %s; "
          "outputs against X without Paddle's optimisation at rtol %g, atol per output the larger "
          "of %g x its largest magnitude and twice its distance from the float64 outputs "
          "(err: worst |d| / (atol + rtol |ref|), pass below 1; f64: largest distance from the "
          "float64 outputs over X's)%s\n"
          % (args.pipeline, ",".join(map(str, batches)), RTOL, ATOL_SCALE,
             "; load average %.1f at the start, %.1f at the end" % (load_start, os.getloadavg()[0])
             if args.time else ""))
    head = ["model", "kind", "ops X", "ops Paddle", "ops Y", "Y", "Y err", "Y f64", "Paddle err", "Paddle f64"]
    if args.time:
        head += ["X ms (optim)", "Y ms", "speedup"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")
    if speedups:
        print("\ngeomean speedup X/Y over %d models: %.3f"
              % (len(speedups), math.exp(sum(map(math.log, speedups)) / len(speedups))))
    for n in notes:
        print("- " + n)
    print("\n%d models, %d failed" % (len(rows), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
