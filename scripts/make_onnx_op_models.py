#!/usr/bin/env python3
"""Small per-op models of decompositions, detection and other ops for the `ops` set of
`scripts/onnx_check.py`, built with Paddle 3.3.1 in PIR static mode (the other
models of that folder, `op_*`, come from scripts/make_onnx_decode_models.py).

Each model is one op (or a short chain, when the op needs an input of a
particular form) on `paddle.static.data` inputs, saved with
`paddle.static.save_inference_model` into `tests/corpus/onnx_ops/`:

| models | op |
|---|---|
| `qr_{reduced,complete,r}_{4x3,3x5}` | `qr`, tall and wide matrices, batched |
| `lu_{4x4,5x3,3x5}` | `lu` with pivots and infos |
| `lu_unpack_{4x4,5x3,3x5}` | `lu` then `lu_unpack` (P, L, U) |
| `lstsq` | `lstsq` (`gelsy`, the CPU default): solution and rank |
| `cholesky_solve_{lower,upper}` | `cholesky_solve` given the factor |
| `eigh_{L_4,U_5,L_16}`, `eigvalsh_U_3` | eigenvalues of one triangle (the other one not its mirror) |
| `eigh_function_4`, `eigh_diag_5` | eigenvectors in `V f(w) Vᵀ` (signs cancel), batched and not |
| `svd_{4x3,3x5,16x16}`, `svd_full_3x5` | singular values, `full_matrices` off and on |
| `svd_vectors_{5x3,3x5,4x4}` | `U` and `VH` in `U diag(S) VH` and (square) the polar factor `U VH` |
| `generate_proposals[_offset,_empty]` | `generate_proposals` (v2), `pixel_offset` off and on, every second image left without boxes |
| `distribute_fpn_proposals[_offset]` | `distribute_fpn_proposals` with `rois_num` |
| `collect_fpn_proposals` | `collect_fpn_proposals` of three levels with `rois_num` |
| `bipartite_match_{bipartite,per_prediction}` | `bipartite_match` of one distance matrix |
| `matrix_nms[_gaussian]` | `matrix_nms`, linear and Gaussian decay |
| `repeat_interleave`, `repeat_interleave_tensor` | `repeat_interleave` by one count, by a tensor of counts |
| `index_put[_accumulate,_mask]` | `index_put` at integer index pairs (negative ones too), adding, by a bool mask |
| `empty`, `print_share_data` | `empty` (its shape), `print` and `share_data` (the input) |
| `matmul_with_flatten`, `norm` | `matmul_with_flatten` (two `num_col_dims`), `norm` along two axes |
| `partial_concat`, `partial_sum` | built as legacy programs and translated by Paddle (no PIR Python API) |
| `complex_arith` | `+ - * /` and `abs` on complex tensors, with real operands cast by Paddle |

The models after `matrix_nms` cover the ops paddle2onnx converts that pir
once did not (scripts/onnx_op_coverage.py lists both sides).

Files per model `NAME`:

- `NAME.json` (and `NAME.pdiparams` when the model has parameters),
- `NAME.inputs.npz`: the inputs (`arg<i>_<feed name>`) at batch 2, or at the
  one size the op takes,
- `NAME.b1.inputs.npz`, `NAME.b3.inputs.npz`: the same model at batch 1 and 3,
  for models whose inputs have a batch dim (each batch drawn whole, so that
  inputs that must agree - boxes and their per-image counts - do),
- `NAME.outputs.npz`: Paddle's outputs on `NAME.inputs.npz` (`arr_0`, ... in
  fetch order; outputs carrying a LoD are taken as their rows), for the
  pytest suite, which runs without Paddle,
- `NAME.meta.json`: the op it tests, the feed names and the input shapes.

`onnx_check.py --sets ops` exports each model with `pir export`, computes
Paddle's outputs for every inputs file and compares (the tolerance of the
other sets). Running the script again rewrites the files; the inputs come
from a fixed seed per model.

    /work/venv-paddle/bin/python scripts/make_onnx_op_models.py [--only a,b]

Models are registered in `MODELS` (name -> builder); a builder declares its
inputs with `data()` and returns the fetched values and an input maker
`inputs(rng, batch)`.
"""

import argparse
import json
import os

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = f"{REPO}/tests/corpus/onnx_ops"
MODELS = {}


def model(name, op, batches=(2, 1, 3), legacy=False):
    """Registers a builder for model `name` testing `op`; `batches` are the
    batch sizes its inputs are drawn at (the first is the saved one). With
    `legacy`, the builder runs in a legacy (pre-PIR) program that Paddle then
    translates (ops the PIR Python API does not build)."""
    def wrap(fn):
        MODELS[name] = (op, batches, fn, legacy)
        return fn
    return wrap


def data(name, shape, dtype="float32"):
    import paddle
    return paddle.static.data(name, shape, dtype)


# --- Linear algebra -------------------------------------------------------

def triangular_factor(rng, b, n, upper):
    """Triangular factors with a positive diagonal, well conditioned."""
    a = np.tril(rng.standard_normal((b, n, n)) * 0.3, -1) + np.eye(n) * (1.0 + rng.random((b, n, 1)))
    return np.swapaxes(a, -1, -2).astype("float32") if upper else a.astype("float32")


def normal(shape):
    return lambda rng, b: {"x": rng.standard_normal((b, *shape)).astype("float32")}


for _mode in ["reduced", "complete", "r"]:
    for _shape in [(4, 3), (3, 5)]:
        def _qr(mode=_mode, shape=_shape):
            import paddle
            x = data("x", [-1, *shape])
            out = paddle.linalg.qr(x, mode=mode)
            outs = list(out) if isinstance(out, (tuple, list)) else [out]
            return outs, normal(shape)
        model(f"qr_{_mode}_{_shape[0]}x{_shape[1]}", "qr")(_qr)


for _shape in [(4, 4), (5, 3), (3, 5)]:
    def _lu(shape=_shape):
        import paddle
        x = data("x", [-1, *shape])
        lu, piv, info = paddle.linalg.lu(x, pivot=True, get_infos=True)
        return [lu, piv, info], normal(shape)
    model(f"lu_{_shape[0]}x{_shape[1]}", "lu")(_lu)

    def _lu_unpack(shape=_shape):
        import paddle
        x = data("x", [-1, *shape])
        lu, piv = paddle.linalg.lu(x, pivot=True)
        p, l, u = paddle.linalg.lu_unpack(lu, piv)
        return [p, l, u], normal(shape)
    model(f"lu_unpack_{_shape[0]}x{_shape[1]}", "lu_unpack")(_lu_unpack)


@model("lstsq", "lstsq")
def _lstsq():
    import paddle
    x = data("x", [-1, 6, 3])
    y = data("y", [-1, 6, 2])
    sol, _res, rank, _sv = paddle.linalg.lstsq(x, y)
    return [sol, rank], lambda rng, b: {"x": rng.standard_normal((b, 6, 3)).astype("float32"),
                                        "y": rng.standard_normal((b, 6, 2)).astype("float32")}


for _upper in [False, True]:
    def _cholesky_solve(upper=_upper):
        import paddle
        b_ = data("b", [-1, 4, 2])
        f = data("f", [-1, 4, 4])
        out = paddle.linalg.cholesky_solve(b_, f, upper=upper)
        return [out], lambda rng, b: {"b": rng.standard_normal((b, 4, 2)).astype("float32"),
                                      "f": triangular_factor(rng, b, 4, upper)}
    model(f"cholesky_solve_{'upper' if _upper else 'lower'}", "cholesky_solve")(_cholesky_solve)


# Eigenvalues read from one triangle of a matrix that is not symmetric (the
# other triangle must not matter), and singular values of tall, wide and
# square matrices: the values only (their vectors' signs follow LAPACK's
# path, which the export refuses to guess).
for _op, _uplo, _n in [("eigh", "L", 4), ("eigh", "U", 5), ("eigvalsh", "U", 3), ("eigh", "L", 16)]:
    def _eig(op=_op, uplo=_uplo, n=_n):
        import paddle
        x = data("x", [-1, n, n])
        if op == "eigh":
            w, _v = paddle.linalg.eigh(x, UPLO=uplo)
        else:
            w = paddle.linalg.eigvalsh(x, UPLO=uplo)
        return [w], normal((n, n))
    model(f"{_op}_{_uplo}_{_n}", _op)(_eig)


# Eigenvectors where their signs cancel: a matrix function V f(w) V^T, batched
# (columns scaled by a broadcast row) and unbatched (`diag`).
@model("eigh_function_4", "eigh")
def _eigh_function():
    import paddle
    x = data("x", [-1, 4, 4])
    w, v = paddle.linalg.eigh(x)
    y = paddle.matmul(v * paddle.exp(w * 0.5).unsqueeze(-2), v, transpose_y=True)
    return [y, w], normal((4, 4))


@model("eigh_diag_5", "eigh", batches=(1,))
def _eigh_diag():
    import paddle
    x = data("x", [5, 5])
    w, v = paddle.linalg.eigh(x, UPLO="U")
    y = paddle.matmul(paddle.matmul(v, paddle.diag(paddle.tanh(w))), v.T)
    return [y], lambda rng, b: {"x": rng.standard_normal((5, 5)).astype("float32")}


for _shape, _full in [((4, 3), False), ((3, 5), False), ((3, 5), True), ((16, 16), False)]:
    def _svd(shape=_shape, full=_full):
        import paddle
        x = data("x", [-1, *shape])
        _u, s, _vh = paddle.linalg.svd(x, full_matrices=full)
        return [s], normal(shape)
    model(f"svd{'_full' if _full else ''}_{_shape[0]}x{_shape[1]}", "svd")(_svd)


# Singular vectors where their signs cancel: the reconstruction U diag(S) VH
# of tall and wide matrices, and the polar factor U VH.
for _shape in [(5, 3), (3, 5), (4, 4)]:
    def _svd_vectors(shape=_shape):
        import paddle
        x = data("x", [-1, *shape])
        u, s, vh = paddle.linalg.svd(x)
        outs = [paddle.matmul(u * s.unsqueeze(-2), vh)]
        if shape[0] == shape[1]:
            outs.append(paddle.matmul(u, vh))
        return outs, normal(shape)
    model(f"svd_vectors_{_shape[0]}x{_shape[1]}", "svd")(_svd_vectors)


# --- Detection ------------------------------------------------------------

def boxes(rng, shape, size=32.0):
    """Boxes [x1, y1, x2, y2] inside a `size` square, of varied areas."""
    xy = rng.random((*shape, 2)) * size * 0.7
    wh = rng.random((*shape, 2)) * size * 0.5 + 1.0
    return np.concatenate([xy, xy + wh], axis=-1).astype("float32")


for _offset, _empty in [(False, False), (True, False), (False, True)]:
    def _generate_proposals(offset=_offset, empty=_empty):
        import paddle
        a, h, w = 3, 4, 4
        scores = data("scores", [-1, a, h, w])
        deltas = data("deltas", [-1, 4 * a, h, w])
        im = data("im_shape", [-1, 2])
        anchors = data("anchors", [h, w, a, 4])
        var = data("variances", [h, w, a, 4])
        rois, probs, num = paddle.vision.ops.generate_proposals(
            scores, deltas, im, anchors, var, pre_nms_top_n=20, post_nms_top_n=8,
            nms_thresh=0.6, min_size=3.0 if empty else 1.0, eta=1.0, pixel_offset=offset,
            return_rois_num=True)

        def inputs(rng, b):
            # With `empty`, every second image is 2x2: all its boxes are
            # clipped below min_size.
            sizes = [[2.0, 2.0] if empty and i % 2 else [30.0, 28.0] for i in range(b)]
            return {"scores": rng.random((b, a, h, w)).astype("float32"),
                    "deltas": (rng.standard_normal((b, 4 * a, h, w)) * 0.3).astype("float32"),
                    "im_shape": np.array(sizes, "float32"),
                    "anchors": boxes(rng, (h, w, a), 32.0),
                    "variances": np.full((h, w, a, 4), 1.0, "float32")}
        return [rois, probs, num], inputs
    _suffix = "_offset" if _offset else "_empty" if _empty else ""
    model(f"generate_proposals{_suffix}", "generate_proposals")(_generate_proposals)


def rois_batch(rng, b, per=(5, 3, 4), size=400.0):
    """RoIs for `b` images (`per[i]` of image i) and their counts."""
    counts = [per[i % len(per)] for i in range(b)]
    return boxes(rng, (sum(counts),), size), np.array(counts, "int32")


for _offset in [False, True]:
    def _distribute(offset=_offset):
        import paddle
        rois = data("rois", [-1, 4])
        num = data("rois_num", [-1], "int32")
        multi, restore, nums = paddle.vision.ops.distribute_fpn_proposals(
            rois, min_level=2, max_level=4, refer_level=3, refer_scale=48,
            pixel_offset=offset, rois_num=num)

        def inputs(rng, b):
            r, n = rois_batch(rng, b)
            return {"rois": r, "rois_num": n}
        return [*multi, restore, *nums], inputs
    model(f"distribute_fpn_proposals{'_offset' if _offset else ''}", "distribute_fpn_proposals")(_distribute)


@model("collect_fpn_proposals", "collect_fpn_proposals")
def _collect():
    import paddle
    levels = 3
    rois = [data(f"rois{i}", [-1, 4]) for i in range(levels)]
    scores = [data(f"scores{i}", [-1, 1]) for i in range(levels)]
    nums = [data(f"num{i}", [-1], "int32") for i in range(levels)]
    out, num = paddle._C_ops.collect_fpn_proposals(rois, scores, nums, 6)

    def inputs(rng, b):
        d = {}
        for i in range(levels):
            r, n = rois_batch(rng, b, per=((4, 2, 3), (3, 5, 1), (2, 2, 6))[i])
            d[f"rois{i}"], d[f"num{i}"] = r, n
            d[f"scores{i}"] = rng.random((len(r), 1)).astype("float32")
        # Every image keeps at least one RoI: Paddle's kernel leaves the
        # count of an image that keeps none unset (its output varies by run).
        for i in range(b):
            d["scores0"][int(d["num0"][:i].sum())] = 1.0 - 0.01 * i
        return d
    return [out, num], inputs


for _kind in ["bipartite", "per_prediction"]:
    def _bipartite(kind=_kind):
        import paddle
        dist = data("dist", [5, 7])
        idx, d = paddle._C_ops.bipartite_match(dist, kind, 0.4)

        def inputs(rng, b):
            dist = rng.random((5, 7)).astype("float32")
            dist[dist < 0.15] = 0.0  # pairs that never match
            return {"dist": dist}
        return [idx, d], inputs
    model(f"bipartite_match_{_kind}", "bipartite_match", batches=(1,))(_bipartite)


for _gauss in [False, True]:
    def _matrix_nms(gauss=_gauss):
        import paddle
        bb = data("bboxes", [-1, 10, 4])
        sc = data("scores", [-1, 3, 10])
        out, index, num = paddle.vision.ops.matrix_nms(
            bb, sc, score_threshold=0.2, post_threshold=0.1, nms_top_k=6, keep_top_k=5,
            use_gaussian=gauss, gaussian_sigma=2.0, background_label=0, normalized=False,
            return_index=True, return_rois_num=True)
        return [out, index, num], lambda rng, b: {
            "bboxes": boxes(rng, (b, 10), 40.0), "scores": rng.random((b, 3, 10)).astype("float32")}
    model(f"matrix_nms{'_gaussian' if _gauss else ''}", "matrix_nms")(_matrix_nms)

# --- Ops paddle2onnx converts (scripts/onnx_op_coverage.py) -----------------

@model("repeat_interleave", "repeat_interleave")
def _repeat_interleave():
    import paddle
    x = data("x", [-1, 3, 4])
    return [paddle.repeat_interleave(x, 2, axis=1), paddle.repeat_interleave(x, 3, axis=-1)], normal((3, 4))


@model("repeat_interleave_tensor", "repeat_interleave_with_tensor_index")
def _repeat_interleave_tensor():
    import paddle
    x = data("x", [-1, 4, 2])
    r = data("repeats", [4], "int64")
    return [paddle.repeat_interleave(x, r, axis=1)], \
        lambda rng, b: {"x": rng.standard_normal((b, 4, 2)).astype("float32"),
                        "repeats": rng.integers(0, 4, 4).astype("int64")}


def index_rows(rng, b, n=3, cols=5):
    """`n` distinct (row, column) pairs of a `b` x `cols` matrix, some negative."""
    flat = rng.permutation(b * cols)[:n]
    rows, col = flat // cols, flat % cols
    col = np.where(rng.random(n) < 0.5, col - cols, col)
    return rows.astype("int64"), col.astype("int64")


for _acc in [False, True]:
    def _index_put(acc=_acc):
        import paddle
        x = data("x", [-1, 5])
        i0 = data("i0", [-1], "int64")
        i1 = data("i1", [-1], "int64")
        v = data("v", [-1])
        out = paddle.index_put(x, (i0, i1), v, accumulate=acc)

        def inputs(rng, b):
            r, c = index_rows(rng, b, n=min(3, b * 5))
            if acc:  # repeated tuples add up
                r, c = np.concatenate([r, r[:1]]), np.concatenate([c, c[:1]])
            return {"x": rng.standard_normal((b, 5)).astype("float32"), "i0": r, "i1": c,
                    "v": rng.standard_normal(len(r)).astype("float32")}
        return [out], inputs
    model(f"index_put{'_accumulate' if _acc else ''}", "index_put")(_index_put)


@model("index_put_mask", "index_put")
def _index_put_mask():
    import paddle
    x = data("x", [-1, 4])
    m = data("mask", [-1, 4], "bool")
    v = data("v", [1])
    return [paddle.index_put(x, (m,), v)], lambda rng, b: {
        "x": rng.standard_normal((b, 4)).astype("float32"), "mask": rng.random((b, 4)) < 0.4,
        "v": rng.standard_normal(1).astype("float32")}


@model("empty", "empty")
def _empty():
    import paddle
    x = data("x", [-1, 3])
    e = paddle.empty(paddle.shape(x))
    # Paddle leaves the elements unset: only the shape is compared.
    return [paddle.shape(e), paddle.where(paddle.isfinite(x), x, e)], normal((3,))


@model("print_share_data", "print")
def _print_share_data():
    import paddle
    x = data("x", [-1, 3])
    y = paddle.static.Print(x * 2.0, message="x2")
    z = paddle._C_ops.share_data(y)
    return [z + 1.0], normal((3,))


@model("matmul_with_flatten", "matmul_with_flatten")
def _matmul_with_flatten():
    import paddle
    x = data("x", [-1, 2, 3, 4])
    w = paddle.create_parameter([12, 5], "float32")
    w2 = paddle.create_parameter([6, 4, 5], "float32")
    a = paddle._C_ops.matmul_with_flatten(x, w, 2, 1)
    b = paddle._C_ops.matmul_with_flatten(x, w2, 1, 2)
    return [a, b], normal((2, 3, 4))


@model("norm", "norm")
def _norm():
    import paddle
    x = data("x", [-1, 3, 4])
    # Paddle's executor leaves the second output (the norms) unset when it
    # is fetched: the normalized values only.
    out, _ = paddle._C_ops.norm(x, 1, 1e-10, True)
    out2, _ = paddle._C_ops.norm(x, -1, 1e-6, True)
    return [out, out2], normal((3, 4))


def _partial(kind):
    """Legacy `partial_concat` / `partial_sum` (no PIR Python API): built as a
    legacy program and translated by Paddle."""
    def fn():
        import paddle
        from paddle.incubate.layers import nn as inn
        x = data("x", [-1, 6])
        y = data("y", [-1, 6])
        op = getattr(inn, kind)
        # Paddle's partial_sum reads outside its inputs for a negative start
        # (pir refuses one): a start counted from the end for partial_concat only.
        start = -4 if kind == "partial_concat" else 2
        return [op([x, y], 1, 3), op([x, y], start, -1), op([x, y])], lambda rng, b: {
            "x": rng.standard_normal((b, 6)).astype("float32"),
            "y": rng.standard_normal((b, 6)).astype("float32")}
    return fn


model("partial_concat", "partial_concat", legacy=True)(_partial("partial_concat"))
model("partial_sum", "partial_sum", legacy=True)(_partial("partial_sum"))


@model("complex_arith", "multiply")
def _complex_arith():
    import paddle
    x = data("x", [-1, 5])
    y = data("y", [-1, 5])
    z = paddle.complex(x, y)
    w = z * z - z / (z + x)
    v = z * x + y
    return [paddle.abs(w), paddle.real(w), paddle.imag(v), paddle.abs(z)], lambda rng, b: {
        "x": rng.standard_normal((b, 5)).astype("float32"),
        "y": rng.standard_normal((b, 5)).astype("float32")}


def translated(fn):
    """`fn` built as a legacy program and translated to PIR by Paddle: the
    program and the fetched values, as `fn` returns them."""
    import paddle
    with paddle.pir_utils.OldIrGuard():
        old_main, old_startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(old_main, old_startup):
            outs, make_inputs = fn()
        names = [v.name for v in outs]
        main, values = paddle.pir.translate_to_pir_with_param_map(old_main.desc)
    return main, [values[n][-1] for n in names], make_inputs


def build(name, op, batches, fn, exe, legacy=False):
    import paddle
    if legacy:
        main, outs, make_inputs = translated(fn)
    else:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            outs, make_inputs = fn()
        exe.run(startup)
    feeds = [v for v in main.global_block().ops if v.name() == "pd_op.data"]
    feed_names = [op_.attrs()["name"] for op_ in feeds]
    feed_vars = [op_.result(0) for op_ in feeds]
    prefix = f"{OUT}/{name}"
    paddle.static.save_inference_model(prefix, feed_vars, outs, exe, program=main)
    seed = sum(map(ord, name))
    for i, b in enumerate(batches):
        rng = np.random.default_rng(seed + b)
        arrays = make_inputs(rng, b)
        path = f"{prefix}.inputs.npz" if i == 0 else f"{prefix}.b{b}.inputs.npz"
        np.savez(path, **{f"arg{k}_{n}": arrays[n] for k, n in enumerate(feed_names)})
    # Paddle's outputs on the saved inputs, from the saved file.
    prog, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
    data_ = np.load(f"{prefix}.inputs.npz")
    feed = {k.split("_", 1)[1]: data_[k] for k in data_.files}
    flat = [np.array(t) for t in exe.run(prog, feed=feed, fetch_list=fetches, return_numpy=False)]
    np.savez(f"{prefix}.outputs.npz", *flat)
    meta = {"name": name, "op": f"pd_op.{op}", "paddle_version": paddle.__version__,
            "generator": "scripts/make_onnx_op_models.py", "feeds": feed_names,
            "batches": list(batches),
            "input_specs": [{"name": n, "shape": list(v.shape), "dtype": str(v.dtype).split(".")[-1].lower()}
                            for n, v in zip(feed_names, feed_vars)]}
    with open(f"{prefix}.meta.json", "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default=None)
    args = ap.parse_args()
    import paddle
    paddle.set_device("cpu")
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    os.makedirs(OUT, exist_ok=True)
    only = set(args.only.split(",")) if args.only else None
    for name, (op, batches, fn, legacy) in MODELS.items():
        if only and name not in only:
            continue
        build(name, op, batches, fn, exe, legacy)
        print(name)


if __name__ == "__main__":
    main()
