"""Every model of tests/corpus that has inputs, exported to ONNX and run by
onnxruntime: `onnx.checker.check_model(full_check=True)` passes and each
output equals the reference Paddle computed (`NAME.outputs.npz`, made by
`scripts/make_onnx_refs.py` with Paddle 3.3.1; for the legacy models
`NAME.ref.npz`, Paddle 2.6.2's), with the tolerance of
`scripts/onnx_check.py`. Models the exporter refuses on purpose are listed
in `REFUSED` with the reason, and must be refused with it (a model that
starts to export must leave the list).

Needs `onnx` and `onnxruntime` (`scripts/precommit.sh` installs them)."""

from pathlib import Path

import numpy as np
import pytest

import pir

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

CORPUS = Path(__file__).resolve().parents[3] / "tests" / "corpus"

UNMAPPED = "no ONNX mapping"

# Refused on purpose, with the words of the error: ops that have no ONNX
# form (or none written yet), named in the comments.
REFUSED = {
    # A training program: optimizer and gradient ops.
    "train_mlp_adam": UNMAPPED,
    # beam_search.
    "lg_beam_search": UNMAPPED,
    # fusion_gru, fusion_lstm (oneDNN fusions of the legacy executor).
    "lg_fusion_rnn": UNMAPPED,
    # eig, eigvals (general eigen-decomposition, complex outputs).
    "lg_linalg_more": UNMAPPED,
    # the version-1 gru and lstm ops (on LoD sequences).
    "lg_rnn_v1": UNMAPPED,
    # LoD sequence ops (sequence_pool, sequence_conv, im2sequence, ...).
    "lg_sequence": UNMAPPED,
}

# Exported, but onnxruntime cannot run the file: name -> words of its error.
RUNTIME_REFUSED = {}

# Outputs drawn at random (ONNX's generator is not Paddle's): judged by
# shape and dtype only.
RANDOM = {"lg_random"}

# Known bugs, each failing until it is fixed (strict: a fixed one must
# leave the list).
KNOWN_BUGS = {}


def cases():
    out = []
    for d in (CORPUS, CORPUS / "control_flow"):
        for model in sorted(d.glob("*.json")):
            name = model.name[: -len(".json")]
            if "." in name:
                continue
            outputs = d / f"{name}.outputs.npz"
            if outputs.exists() or name in REFUSED:
                out.append(pytest.param(model, d / f"{name}.inputs.npz", outputs, id=name))
    # One op per model: sequence decoding and signal ops (`op_*`,
    # scripts/make_onnx_decode_models.py), decompositions and detection ops
    # (scripts/make_onnx_op_models.py).
    for model in sorted((CORPUS / "onnx_ops").glob("*.json")):
        name = model.name[: -len(".json")]
        if "." in name:
            continue
        outputs = model.with_name(f"{name}.outputs.npz")
        if outputs.exists():
            out.append(pytest.param(model, model.with_name(f"{name}.inputs.npz"), outputs, id=name))
    for model in sorted((CORPUS / "legacy").glob("*.pdmodel")):
        name = model.name[: -len(".pdmodel")]
        ref = model.with_name(f"{name}.ref.npz")
        if ref.exists():
            marks = [pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[name])] if name in KNOWN_BUGS else []
            out.append(pytest.param(model, model.with_name(f"{name}.inputs.npz"), ref, id=name, marks=marks))
    return out


def load_inputs(path):
    data = np.load(path)
    return {k.split("_", 1)[1]: data[k] for k in data.files}


def mismatch(outs, refs):
    """Why `outs` differ from `refs`, or None."""
    if len(outs) != len(refs):
        return f"{len(outs)} outputs, {len(refs)} expected"
    for i, (o, r) in enumerate(zip(outs, refs)):
        o, r = np.asarray(o), np.asarray(r)
        if o.shape != r.shape:
            return f"output {i}: shape {o.shape}, expected {r.shape}"
        if r.dtype.kind in "biu":
            if not np.array_equal(o, r):
                return f"output {i}: integers differ"
            continue
        scale = float(np.max(np.abs(r))) if r.size else 0.0
        if not np.allclose(o, r, rtol=1e-3, atol=1e-4 * max(scale, 1e-6), equal_nan=True):
            return f"output {i}: max difference {float(np.max(np.abs(o - r)))}"
    return None


@pytest.mark.parametrize("model,inputs,outputs", cases())
def test_export_runs_in_onnxruntime_as_paddle(model, inputs, outputs, tmp_path):
    name = model.name.rsplit(".", 1)[0]
    out = tmp_path / f"{name}.onnx"
    m = pir.load(model)
    if name in REFUSED:
        with pytest.raises(pir.WriteError, match=REFUSED[name]):
            m.export_onnx(out)
        assert not out.exists()
        return
    m.export_onnx(out)
    onnx.checker.check_model(str(out), full_check=True)
    if name in RUNTIME_REFUSED:
        with pytest.raises(Exception, match=RUNTIME_REFUSED[name]):
            ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
        return
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    feeds = load_inputs(inputs)
    got = session.run(None, {i.name: feeds[i.name] for i in session.get_inputs()})
    refs = np.load(outputs)
    refs = [refs[k] for k in refs.files]
    if name in RANDOM:
        assert [(np.shape(o), np.asarray(o).dtype.kind) for o in got] == [
            (r.shape, r.dtype.kind) for r in refs
        ], name
        return
    why = mismatch(got, refs)
    assert why is None, f"{name}: {why}"


def test_external_data_runs_as_the_single_file(tmp_path):
    model = CORPUS / "lenet.json"
    m = pir.load(model)
    single, split = tmp_path / "one.onnx", tmp_path / "two.onnx"
    m.export_onnx(single)
    m.export_onnx(split, external_data=True)
    data = tmp_path / "two.onnx.data"
    assert data.exists() and split.stat().st_size < 20_000 < data.stat().st_size
    onnx.checker.check_model(str(split), full_check=True)
    feeds = load_inputs(CORPUS / "lenet.inputs.npz")
    runs = []
    for path in (single, split):
        s = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        runs.append(s.run(None, {i.name: feeds[i.name] for i in s.get_inputs()}))
    assert all(np.array_equal(a, b) for a, b in zip(*runs))
    with pytest.raises(pir.WriteError):
        m.export_onnx(split, external_data=True)  # both exist
