#!/usr/bin/env python3
"""Build the control-flow / in-place models of `tests/corpus/control_flow/` with Paddle 3.3.1.

What it makes: small `nn.Layer`s converted with `paddle.jit.to_static` and saved with
`paddle.jit.save` (PIR, the default of Paddle 3.3.1), chosen to trap passes that ignore
regions, loop-carried values or in-place writes (CSE, canonicalize, DCE, future
inplace / value-semantics passes):

| model | structure |
|---|---|
| `while_in_if` | `pd_op.while` loops inside a `pd_op.if` branch, the loop condition computed twice the same way before the first loop, a second loop starting the same way (the reported `cse` bug) |
| `while_in_if_single` | the control: one `while` inside an `if`, its condition computed three times before it (dy2static twice, the user once) |
| `while_shared_init` | two consecutive top-level loops whose counters start from identical `full` ops (different conditions) |
| `while_shared_cond` | two consecutive `while c:` loops whose pre-loop conditions are identical expressions (the condition is also loop-carried) |
| `if_in_while` | a `pd_op.if` inside a `while` body, the same sub-expression in both branches |
| `while_carried_used_after` | loop-carried results used after the loop, the carried initial value used before the loop, and the initial value's expression computed again after the loop |
| `while_captures` | the body reads values captured from the enclosing block (not carried): parameters, a data input, values computed before the loop, and recomputes a loop-invariant expression |
| `while_decoder` | a decoder loop that recomputes loop-invariant projections of its encoder states every step (`[batch, 16, 64]`, 8 steps) |
| `inplace_in_loop` | real in-place ops (`pd_op.add_`, `relu_`, `scale_`, `set_value_`, `set_value_with_tensor_`, `increment_`, `assign_out_`) inside a loop body on carried values, and outside loops on intermediate values |
| `inplace_views` | view ops (reshape, unsqueeze, squeeze, flatten, transpose) whose results or sources are written in place (`set_value_`), identical computations whose results are then written in place differently |
| `nested_deep` | `if` inside `while` inside `if` inside `while` (region depth 4), duplicated expressions at every level |

Files per model `NAME`, with the conventions of `../shared/paddle-corpus/README.md`:
`NAME.json` (as `jit.save` wrote it), `NAME.pdiparams` (when the model has parameters),
`NAME.txt` (Paddle's print of the JSON read back with `deserialize_pir_program`),
`NAME.meta.json` (the shared corpus meta schema: name, description, versions, base_code,
files, op counts, histogram, params, input specs, reference_input, reference_output with
`max_abs_diff_vs_dygraph_layer`, reserialize, save_seconds, legacy (not attempted); plus
`structure` (the nesting checked, e.g. `pd_op.if > pd_op.while`), `inplace_ops` (the
in-place op names present), `deterministic_runs` and `generator`), `NAME.inputs.npz`
(`arg<i>_<feed name>`); and `index.json` (same structure as `tests/corpus/index.json`).
Running it again gives byte-identical files, `save_seconds` in the metas aside.

Every model is checked while it is built: the structure its name promises is found in the
saved program, the loaded model (`paddle.jit.load`) gives the same outputs on 3 runs, and
its outputs are compared with the dygraph layer (recorded, not required: see
`max_abs_diff_vs_dygraph_layer`).

Things Paddle 3.3.1 does that shaped these models (more in
`tests/corpus/control_flow/README.md`):
- dy2static turns the in-place tensor methods (`x.add_`, `F.relu_`, `x.scale_`...) into
  their out-of-place op, and `jit.save` drops an in-place op whose result is unused; real
  in-place ops come from item assignment (`set_value_`, `set_value_with_tensor_`),
  `paddle.increment` (`increment_`), `paddle.assign(x, output=y)` (`assign_out_`) and
  `paddle._C_ops.<op>_` (`add_`, `relu_`, `scale_`), always used through their results;
- a program that reads a value again after an in-place write to it through another
  SSA name (`paddle._C_ops` or `assign(output=)` results ignored) runs nondeterministically
  in Paddle, so no model does that;
- a value given to `pd_op.while` as a loop-carried input must not be read after the loop:
  Paddle 3.3.1 fails on its own saved program then ("Tensor holds no memory").

Run (needs `pip install paddlepaddle==3.3.1`, CPU; takes about a minute):

    python3 scripts/make_control_flow_models.py [--out tests/corpus/control_flow] [--only a,b]

It overwrites the files of the models it builds and rewrites `index.json` from the
`NAME.meta.json` files present in the output folder.
"""

import argparse
import hashlib
import json
import os
import platform
import shutil
import sys
import tempfile
import time
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("GLOG_minloglevel", "2")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "tests", "corpus", "control_flow")
SEED = 2024

# Inputs of every model: x [-1, 4] float32 (batch 2), n [1] int64 in [3, 6).
X_SPEC = ("x", [-1, 4], "float32", [2, 4], "normal")
N_SPEC = ("n", [1], "int64", [1], "int:3:6")
ENC_SPEC = ("enc", [-1, 16, 64], "float32", [4, 16, 64], "normal")
STEPS_SPEC = ("n", [1], "int64", [1], "int:8:9")


def define_models():
    """Model classes, defined after `import paddle` (name -> (description, class, specs, structure, ...))."""
    import paddle
    import paddle.nn.functional as F

    C = paddle._C_ops  # the in-place kernels themselves (pd_op.add_, relu_, scale_)

    class WhileInIf(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)

        def forward(self, x, n):
            if paddle.sum(x) > 0:
                i = paddle.zeros([1], dtype="int64")
                c0 = i < n  # the loop condition, computed separately before the loop
                h = x * paddle.cast(c0, "float32")
                while i < n:  # dy2static computes `i < n` twice more before the loop
                    h = paddle.tanh(self.fc(h))
                    i = i + 1
                j = paddle.zeros([1], dtype="int64")  # a second loop starting the same way
                g = h  # (h, carried into this loop, must not be read after it: see the module doc)
                while j < n:
                    g = g * 0.5 + 1.0
                    j = j + 1
                y = g
            else:
                y = x * 2.0
            return y

    class WhileInIfSingle(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)

        def forward(self, x, n):
            if paddle.sum(x) > 0:
                i = paddle.zeros([1], dtype="int64")
                c0 = i < n
                h = x * paddle.cast(c0, "float32")
                while i < n:
                    h = paddle.tanh(self.fc(h))
                    i = i + 1
                y = h
            else:
                y = x * 2.0
            return y

    class WhileSharedInit(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)

        def forward(self, x, n):
            m = n + 1
            i = paddle.zeros([1], dtype="int64")
            h = x
            while i < n:
                h = paddle.tanh(self.fc(h))
                i = i + 1
            j = paddle.zeros([1], dtype="int64")  # the same `full` as i's: CSE merges the two
            g = h
            while j < m:
                g = g * 0.5 + 1.0
                j = j + 1
            return g, i + j

    class WhileSharedCond(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)

        def forward(self, x, n):
            i = paddle.zeros([1], dtype="int64")
            c = i < n
            h = x
            while c:  # c is the condition and a loop-carried value
                h = paddle.tanh(self.fc(h))
                i = i + 1
                c = i < n
            k = paddle.full([1], 0.0, "float32")
            g = h
            c2 = paddle.zeros([1], dtype="int64") < n  # the same expression as c's first value
            while c2:
                g = g * 0.5 + 1.0
                k = k + 1.0
                c2 = paddle.cast(k, "int64") < n
            return g, k

    class IfInWhile(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)

        def forward(self, x, n):
            i = paddle.zeros([1], dtype="int64")
            h = x * 0.5
            while i < n:
                if paddle.mean(h) > 0.0:
                    h = paddle.tanh(self.fc(h)) - 0.3
                else:
                    h = h * 0.5 + paddle.tanh(self.fc(h)) + 0.2
                i = i + 1
            return h, i

    class WhileCarriedUsedAfter(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)

        def forward(self, x, n):
            w, b = self.fc.weight, self.fc.bias
            h0 = F.linear(x, w, b)  # the carried initial value
            pre = paddle.tanh(h0)  # ... used before the loop
            i = paddle.zeros([1], dtype="int64")
            s = paddle.zeros([1], dtype="float32")
            h = h0
            while i < n:
                h = paddle.tanh(F.linear(h, w, b)) + pre
                s = s + paddle.mean(h)
                i = i + 1
            again = F.linear(x, w, b)  # the same expression as h0, after the loop
            return h * 2.0 + s, i + 1, again + h, s

    class WhileCaptures(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)
            self.gain = self.create_parameter([1], default_initializer=paddle.nn.initializer.Constant(0.75))

        def forward(self, x, n):
            w, b = self.fc.weight, self.fc.bias
            a = F.linear(x, w, b)  # captured by the body
            k = paddle.exp(-paddle.abs(x))  # captured by the body
            i = paddle.zeros([1], dtype="int64")
            h = x * 1.0
            while i < n:
                e = F.linear(x, w, b)  # loop-invariant: the same expression as `a`
                h = paddle.tanh(paddle.matmul(h, w) + b) * k + a * self.gain
                h = h - e * 0.5 + x * 0.1
                i = i + 1
            return h, a

    class InplaceInLoop(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)

        def forward(self, x, n):
            t = F.linear(x, self.fc.weight, self.fc.bias)
            t = C.add_(t, x)  # pd_op.add_ on an intermediate value
            t = C.relu_(t)  # pd_op.relu_
            t = C.scale_(t, 0.5, 0.1, True)  # pd_op.scale_
            t[0] = 1.0  # pd_op.set_value_
            u = t.add_(x)  # the tensor method: pd_op.add under to_static
            h = u * 1.0
            i = paddle.zeros([1], dtype="int64")
            while i < n:
                h = C.add_(h, t)  # in place on the loop-carried block argument
                h = C.relu_(h)
                h = C.scale_(h, 0.9, 0.0, True)
                h[0] = h[1]  # pd_op.set_value_with_tensor_
                r = paddle.tanh(h)
                h = paddle.assign(r, output=h)  # pd_op.assign_out_
                i = paddle.increment(i, 1.0)  # pd_op.increment_ on the carried counter
            return h, t, i

    class InplaceViews(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)

        def forward(self, x, n):
            t = F.linear(x, self.fc.weight, self.fc.bias)
            v = t.reshape([-1])
            v[0] = 5.0  # set_value_ on a reshape result
            a = paddle.exp(v)
            w = t.unsqueeze(0)
            w[0, 1] = w[0, 0]  # set_value_with_tensor_ on an unsqueeze result
            f = t.flatten()
            q = t.transpose([1, 0])
            q[0] = 0.5  # set_value_ on a transpose result
            p1 = x * 2.0
            p2 = x * 2.0  # identical to p1; each is then written in place differently
            p1 = paddle._C_ops.relu_(p1)
            p2[0] = -1.0
            r1 = t.reshape([4, 2])
            r2 = t.reshape([4, 2])  # identical views; r1 is written, r2 is not
            r1[1] = 7.0
            s = t.squeeze()
            t[1] = 3.0  # the source of all the views, written last
            e = paddle.exp(t)
            return a, w, f, q, t, p1, p2, r1, r2 + paddle.cast(n, "float32"), s, e

    class NestedDeep(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)

        def forward(self, x, n):
            base = paddle.tanh(x) * 0.5  # duplicated at every level below
            i = paddle.zeros([1], dtype="int64")
            h = x * 1.0
            while i < n:  # level 1: while
                d1 = paddle.tanh(x) * 0.5
                if paddle.mean(h) > 0.0:  # level 2: if
                    j = paddle.zeros([1], dtype="int64")
                    g = h
                    while j < 2:  # level 3: while
                        d3 = paddle.tanh(x) * 0.5
                        if paddle.sum(g) > 1.0:  # level 4: if
                            d4 = paddle.tanh(x) * 0.5
                            g = paddle.tanh(self.fc(g)) + d4 - d3
                        else:
                            g = g * 0.5 + d3
                        j = j + 1
                    h = g + d1
                else:
                    h = h + d1 + 0.25
                i = i + 1
            return h + base, i

    class WhileDecoder(paddle.nn.Layer):
        """A greedy attention decoder written as users write one: the keys and values
        of the encoder states are projected inside the loop, every step."""

        def __init__(self):
            super().__init__()
            self.key = paddle.nn.Linear(64, 64)
            self.value = paddle.nn.Linear(64, 64)
            self.cell = paddle.nn.Linear(128, 64)

        def forward(self, enc, n):
            h = paddle.mean(enc, axis=1)
            i = paddle.zeros([1], dtype="int64")
            while i < n:
                k = self.key(enc)  # loop-invariant: [batch, 16, 64]
                v = paddle.tanh(self.value(enc))  # loop-invariant
                scores = paddle.matmul(k, paddle.unsqueeze(h, -1))  # [batch, 16, 1]
                attn = F.softmax(scores * 0.125, axis=1)
                context = paddle.sum(v * attn, axis=1)
                h = paddle.tanh(self.cell(paddle.concat([h, context], axis=-1)))
                i = i + 1
            return h

    both = [X_SPEC, N_SPEC]
    return {
        "while_in_if": (
            "pd_op.while loops inside a pd_op.if branch: the loop condition i < n computed twice the same way before "
            "the first loop (by the user and by dy2static), then a second loop starting the same way (j = 0, j < n) "
            "fed by the first (the reported cse bug)",
            WhileInIf, both, [["pd_op.if", "pd_op.while"]]),
        "while_in_if_single": (
            "one pd_op.while inside a pd_op.if branch, its condition i < n computed three times before it "
            "(once by the user, twice by dy2static): the control case for while_in_if",
            WhileInIfSingle, both, [["pd_op.if", "pd_op.while"]]),
        "while_shared_init": (
            "two consecutive top-level pd_op.while loops, the second fed by the first, whose counters start from "
            "identical pd_op.full ops (conditions differ): merging the two makes one value the carried input of both loops",
            WhileSharedInit, both, [["pd_op.while"]]),
        "while_shared_cond": (
            "two consecutive `while c:` loops (the condition is also a loop-carried value) whose pre-loop conditions "
            "are the same expression: merging them gives both loops one condition value, which the first loop overwrites",
            WhileSharedCond, both, [["pd_op.while"]]),
        "if_in_while": (
            "a pd_op.if inside a pd_op.while body (branch on the mean of the carried tensor), "
            "the same sub-expression tanh(fc(h)) in both branches",
            IfInWhile, both, [["pd_op.while", "pd_op.if"]]),
        "while_carried_used_after": (
            "loop-carried results (tensor, counter, accumulator) used after the loop; the carried initial value is "
            "used before the loop and captured by the body, and its expression is computed again after the loop",
            WhileCarriedUsedAfter, both, [["pd_op.while"]]),
        "while_captures": (
            "a pd_op.while body reading values captured from the enclosing block (not carried): parameters "
            "(weight, bias, a scalar gain), the data input x and values computed before the loop; the body "
            "recomputes a loop-invariant expression identical to one before the loop",
            WhileCaptures, both, [["pd_op.while"]]),
        "while_decoder": (
            "a greedy attention decoder loop over encoder states [batch, 16, 64] that projects the keys and values "
            "of the states inside the loop, every step (two loop-invariant linear layers and a tanh)",
            WhileDecoder, [ENC_SPEC, STEPS_SPEC], [["pd_op.while"]]),
        "inplace_in_loop": (
            "in-place ops outside a loop on intermediate values (pd_op.add_, relu_, scale_, set_value_) and inside a "
            "while body on the loop-carried values (add_, relu_, scale_, set_value_with_tensor_, assign_out_, increment_)",
            InplaceInLoop, both, [["pd_op.while"]]),
        "inplace_views": (
            "view ops (reshape, unsqueeze, squeeze, flatten, transpose) whose results and source are written in place "
            "(set_value_, set_value_with_tensor_), identical computations (x * 2, two equal reshapes) whose results are "
            "then written in place differently",
            InplaceViews, both, []),
        "nested_deep": (
            "if inside while inside if inside while (region depth 4), the expression tanh(x) * 0.5 duplicated at the "
            "top level and at every nesting level",
            NestedDeep, both, [["pd_op.while", "pd_op.if", "pd_op.while", "pd_op.if"]]),
    }


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def dtype_name(dt):
    s = str(dt)
    return s.split(".")[-1]


def walk(block, depth, path, out):
    """(op, depth, path of enclosing region ops) for every op, nested regions included."""
    for op in block.ops:
        out.append((op, depth, path))
        if op.num_regions() > 0:
            for b in op.blocks():
                walk(b, depth + 1, path + [op.name()], out)
    return out


def has_chain(paths, chain):
    """Whether some op is nested in region ops whose names contain `chain` in order (outermost first)."""
    for p in paths:
        k = 0
        for name in p:
            if k < len(chain) and name == chain[k]:
                k += 1
        if k == len(chain):
            return True
    return False


def stats(value):
    import numpy as np

    a = np.asarray(value)
    flat = a.reshape(-1)
    if flat.dtype == np.bool_:
        s = int(flat.sum())
        return {"shape": list(a.shape), "dtype": "bool", "sum": s, "first8": [bool(v) for v in flat[:8]]}
    if np.issubdtype(flat.dtype, np.integer):
        return {"shape": list(a.shape), "dtype": str(flat.dtype), "sum": int(flat.astype("int64").sum()),
                "abs_sum": int(np.abs(flat.astype("int64")).sum()), "first8": [int(v) for v in flat[:8]]}
    f64 = flat.astype("float64")
    return {"shape": list(a.shape), "dtype": str(flat.dtype), "sum": float(f64.sum()),
            "abs_sum": float(np.abs(f64).sum()), "first8": [float(v) for v in flat[:8]]}


def make_inputs(specs):
    import numpy as np

    rng = np.random.default_rng(0)
    arrays = []
    for _name, _shape, dtype, shape, gen in specs:
        if gen == "normal":
            arrays.append(rng.standard_normal(shape).astype(dtype))
        elif gen.startswith("int:"):
            lo, hi = (int(v) for v in gen.split(":")[1:])
            arrays.append(rng.integers(lo, hi, size=shape).astype(dtype))
        elif gen == "bool":
            arrays.append(rng.random(shape) < 0.5)
        else:
            raise ValueError(gen)
    return arrays


def flatten(out):
    if isinstance(out, (list, tuple)):
        return [y for x in out for y in flatten(x)]
    return [out]


def sort_attr_lists(v):
    if isinstance(v, dict):
        return {k: sort_attr_lists(x) for k, x in v.items()}
    if isinstance(v, list):
        items = [sort_attr_lists(x) for x in v]
        if items and all(isinstance(x, dict) and "N" in x for x in items):
            items = sorted(items, key=lambda x: str(x["N"]))
        return items
    return v


def build_one(name, spec, out_dir, work):
    import numpy as np
    import paddle
    from paddle.base import core, framework
    from paddle.static import InputSpec

    description, cls, specs, chains = spec
    t0 = time.time()
    paddle.disable_static()
    paddle.seed(SEED)
    framework._name_struct = framework.NameStruct()  # struct_name independent of earlier models
    with paddle.utils.unique_name.guard():
        layer = cls()
        layer.eval()
        input_spec = [InputSpec(shape, dtype, nm) for nm, shape, dtype, _s, _g in specs]
        static = paddle.jit.to_static(layer, input_spec=input_spec, full_graph=True)
        prefix = os.path.join(work, name)
        paddle.jit.save(static, prefix)
    save_seconds = round(time.time() - t0, 3)

    dst = os.path.join(out_dir, name)
    shutil.copy(prefix + ".json", dst + ".json")
    has_params = os.path.exists(prefix + ".pdiparams") and os.path.getsize(prefix + ".pdiparams") > 0
    if has_params:
        shutil.copy(prefix + ".pdiparams", dst + ".pdiparams")
    elif os.path.exists(dst + ".pdiparams"):
        os.remove(dst + ".pdiparams")

    # Paddle's print of the file read back.
    prog = paddle.static.Program()
    core.deserialize_pir_program(dst + ".json", prog)
    text = str(prog)
    with open(dst + ".txt", "w") as f:
        f.write(text)

    ops = walk(prog.global_block(), 0, [], [])
    paths = [p for _op, _d, p in ops]
    for chain in chains:
        if not has_chain(paths, chain):
            raise SystemExit("%s: the saved program has no op nested in %s" % (name, " > ".join(chain)))
    hist = {}
    for op, _d, _p in ops:
        hist[op.name()] = hist.get(op.name(), 0) + 1
    params = []
    for op, _d, _p in ops:
        if op.name() == "builtin.parameter":
            r = op.result(0)
            params.append({"name": op.str_attr("parameter_name"), "shape": list(r.shape), "dtype": dtype_name(r.dtype)})
    itemsize = {"float32": 4, "float64": 8, "int64": 8, "int32": 4, "float16": 2, "bfloat16": 2, "bool": 1}
    elements = sum(int(np.prod(p["shape"])) for p in params)
    nbytes = sum(int(np.prod(p["shape"])) * itemsize[p["dtype"]] for p in params)
    inplace = sorted({op.name() for op, _d, _p in ops if op.name().endswith("_")})

    doc = json.load(open(dst + ".json"))
    base_code = doc["base_code"]

    # Re-serialization by Paddle itself.
    tmp = os.path.join(work, name + ".reser.json")
    core.serialize_pir_program(prog, tmp, True, False, True)
    a, b = open(dst + ".json", "rb").read(), open(tmp, "rb").read()
    ja, jb = json.loads(a), json.loads(b)
    reserialize = {
        "how": "deserialize_pir_program(NAME.json) then serialize_pir_program(prog, tmp, True, readable=False, "
               "trainable=True) with this Paddle; compare bytes",
        "identical": a == b,
        "size": len(a),
        "identical_as_json_value": ja == jb,
        "identical_after_sorting_attr_lists": sort_attr_lists(ja) == sort_attr_lists(jb),
    }

    # Reference inputs and outputs.
    arrays = make_inputs(specs)
    np.savez(dst + ".inputs.npz", **{"arg%d_%s" % (i, s[0]): arr for i, (s, arr) in enumerate(zip(specs, arrays))})
    loaded = paddle.jit.load(prefix)
    runs = []
    for _ in range(3):
        outs = flatten(loaded(*[paddle.to_tensor(arr.copy()) for arr in arrays]))
        runs.append([o.numpy().copy() for o in outs])
    for r in runs[1:]:
        if any(not np.array_equal(p, q) for p, q in zip(runs[0], r)):
            raise SystemExit("%s: the loaded model gives different outputs on repeated runs" % name)
    dy = [o.numpy() for o in flatten(layer(*[paddle.to_tensor(arr.copy()) for arr in arrays]))]
    diffs = []
    for p, q in zip(runs[0], dy):
        if p.shape != q.shape:
            diffs.append(None)
        else:
            diffs.append(float(np.max(np.abs(p.astype("float64") - q.astype("float64")))) if p.size else 0.0)

    files = {"json": {"bytes": os.path.getsize(dst + ".json"), "sha256": sha256(dst + ".json")}}
    if has_params:
        files["pdiparams"] = {"bytes": os.path.getsize(dst + ".pdiparams"), "sha256": sha256(dst + ".pdiparams")}
    files["txt"] = {"bytes": os.path.getsize(dst + ".txt"), "sha256": sha256(dst + ".txt")}
    inputs_meta = []
    for s, arr in zip(specs, arrays):
        m = stats(arr)
        m.update({"name": s[0], "gen": s[4]})
        inputs_meta.append(m)

    meta = {
        "name": name,
        "description": description,
        "paddle_version": paddle.__version__,
        "paddle_commit": paddle.version.commit,
        "numpy_version": np.__version__,
        "python_version": platform.python_version(),
        "pir_version": base_code["version"],
        "base_code": base_code,
        "save_api": "paddle.jit.save(paddle.jit.to_static(layer, input_spec=[...], full_graph=True), prefix)",
        "files": files,
        "op_count": len(ops),
        "top_level_op_count": len(list(prog.global_block().ops)),
        "max_region_depth": max(d for _op, d, _p in ops),
        "op_histogram": dict(sorted(hist.items())),
        "num_params": len(params),
        "param_elements": elements,
        "param_bytes": nbytes,
        "params": params,
        "input_specs": [{"name": s[0], "shape": s[1], "dtype": s[2]} for s in specs],
        "reference_input": {
            "generator": "numpy.random.default_rng(0); inputs drawn in feed order: normal -> "
                         "standard_normal(shape).astype(dtype); int:LO:HI -> integers(LO, HI, size=shape); "
                         "bool -> random(shape) < 0.5",
            "seed": 0,
            "file": name + ".inputs.npz",
            "inputs": inputs_meta,
        },
        "reference_output": {
            "how": "paddle.jit.load(prefix) run in dygraph mode (CPU) on the reference inputs; outputs flattened in "
                   "return order",
            "outputs": [stats(o) for o in runs[0]],
            "max_abs_diff_vs_dygraph_layer": diffs,
        },
        "reserialize": reserialize,
        "save_seconds": save_seconds,
        "legacy": {"error": "not attempted: Paddle 3.3.1 cannot export control flow as a legacy ProgramDesc "
                            "(see ../shared/paddle-corpus/README.md)"},
        "structure": [" > ".join(c) for c in chains],
        "inplace_ops": inplace,
        "deterministic_runs": len(runs),
        "generator": "scripts/make_control_flow_models.py",
    }
    with open(dst + ".meta.json", "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    print("%-26s ops %3d  depth %d  params %d  in-place %s  dygraph diff %s" % (
        name, len(ops), meta["max_region_depth"], len(params), ",".join(inplace) or "-",
        ",".join("%.2g" % d if d is not None else "shape" for d in diffs)))


def write_index(out_dir):
    models = []
    for fname in sorted(os.listdir(out_dir)):
        if not fname.endswith(".meta.json"):
            continue
        meta = json.load(open(os.path.join(out_dir, fname)))
        name = meta["name"]
        files = [name + ext for ext in (".json", ".pdiparams", ".txt", ".meta.json", ".inputs.npz")
                 if os.path.exists(os.path.join(out_dir, name + ext))]
        models.append({
            "name": name,
            "description": meta["description"],
            "paddle_version": meta["paddle_version"],
            "pir_version": meta["pir_version"],
            "trainable": meta["base_code"]["trainable"],
            "op_count": meta["op_count"],
            "num_params": meta["num_params"],
            "json_bytes": meta["files"]["json"]["bytes"],
            "files": files,
        })
    with open(os.path.join(out_dir, "index.json"), "w") as f:
        json.dump({"models": models, "compat": []}, f, indent=1)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", default="", help="comma-separated model names (default: all)")
    args = ap.parse_args()
    try:
        import paddle
    except ImportError:
        print("paddlepaddle is not installed: pip install paddlepaddle==3.3.1", file=sys.stderr)
        return 2
    if paddle.__version__ != "3.3.1":
        print("warning: Paddle %s, the shipped files were made with 3.3.1" % paddle.__version__, file=sys.stderr)
    models = define_models()
    names = [n for n in args.only.split(",") if n] or list(models)
    unknown = [n for n in names if n not in models]
    if unknown:
        print("unknown model(s): %s (known: %s)" % (", ".join(unknown), ", ".join(models)), file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="cf_models_")
    try:
        for name in names:
            build_one(name, models[name], args.out, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    write_index(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
