"""Every model of the corpus through the Python package: the print equals
Paddle's, the parameters equal what Paddle wrote, files round-trip."""

import hashlib
import pickle

import numpy as np
import pytest

import pir
from conftest import COMPAT, CORPUS, MODELS, decode_pdiparams, model


def test_the_corpus_is_there():
    assert MODELS, f"no corpus index in {CORPUS}"


@pytest.mark.parametrize("m", MODELS + COMPAT, ids=lambda m: m.label)
def test_print_equals_paddles_text(m):
    txt = m.file(".txt")
    if txt is None:
        pytest.skip("no print of this model in the corpus")
    loaded = pir.load(m.json)
    assert str(loaded.program) == txt.read_text()
    assert str(loaded) == str(loaded.program)


@pytest.mark.parametrize("m", MODELS, ids=lambda m: m.label)
def test_lowered_program_equals_paddles_print(m):
    # The shared corpus's index does not list these files.
    lowered = m.folder / (m.name + ".lowered.txt")
    if not lowered.exists():
        pytest.skip("no lowered print of this model in the corpus")
    program = pir.load(m.json, params=False).program
    assert program.lower() == lowered.read_text()
    assert "pd_kernel.phi_kernel" in program.lower(typed=True)


@pytest.mark.parametrize("m", MODELS, ids=lambda m: m.label)
def test_symbolic_shapes_equal_paddles_print(m):
    symshape = m.folder / (m.name + ".symshape.txt")
    if not symshape.exists():
        pytest.skip("no symbolic shapes of this model in the corpus")
    program = pir.load(m.json, params=False).program
    assert program.shapes() == symshape.read_text()


@pytest.mark.parametrize("m", MODELS, ids=lambda m: m.label)
def test_typed_text_reads_back_to_the_same_file(m):
    program = pir.load(m.json, params=False).program
    back = pir.parse(program.to_text(typed=True))
    assert back.to_json() == program.to_json() == m.json.read_text()


def with_params():
    return [m for m in MODELS if m.file(".pdiparams")]


@pytest.mark.parametrize("m", with_params(), ids=lambda m: m.label)
def test_parameters_equal_the_files_tensors(m):
    loaded = pir.load(m.json)
    reference = decode_pdiparams(m.file(".pdiparams"))
    names = loaded.parameter_names()
    assert names == sorted(names)
    declared = {p["name"]: p for p in m.meta().get("params", [])}
    assert list(loaded.params) == names
    assert len(names) == len(reference)
    for name, ref in zip(names, reference):
        array = loaded.params[name]
        assert array.dtype == ref.dtype and array.shape == ref.shape, name
        if name in declared:
            assert list(array.shape) == declared[name]["shape"], name
            assert loaded.params.dtype(name) == declared[name]["dtype"], name
        assert np.array_equal(array, ref, equal_nan=array.dtype.kind in "fc"), name
        assert not array.flags.writeable
        assert loaded.params.is_mapped(name)


@pytest.mark.parametrize("m", with_params(), ids=lambda m: m.label)
def test_save_writes_paddles_bytes(m, tmp_path):
    loaded = pir.load(m.json)
    loaded.save(tmp_path / "out")
    assert (tmp_path / "out.json").read_bytes() == m.json.read_bytes()
    original = m.file(".pdiparams").read_bytes()
    written = (tmp_path / "out.pdiparams").read_bytes()
    assert hashlib.sha256(written).digest() == hashlib.sha256(original).digest()


@pytest.mark.parametrize("suffix", [".pdparams", ".pdopt"])
def test_pickles_equal_pythons_own_reading(suffix):
    path = model("train_mlp_adam").file(suffix)
    if path is None:
        pytest.skip("no pickle in the corpus")
    ours = pir.load_state_dict(path)
    # The corpus is trusted: Python's pickle (what paddle.load runs) is the
    # reference here; pir's reader never executes anything.
    with open(path, "rb") as f:
        reference = pickle.load(f)
    assert list(ours) == list(reference)
    for key, value in reference.items():
        if isinstance(value, np.ndarray):
            assert ours[key].dtype == value.dtype and np.array_equal(ours[key], value), key
        else:
            assert ours[key] == value, key


def test_pickle_parameters_bind_to_their_program():
    m = model("train_mlp_adam")
    files = [m.file(".pdparams"), m.file(".pdopt")]
    loaded = pir.load(m.json, params=files)
    reference = {}
    for path in files:
        with open(path, "rb") as f:
            reference.update(pickle.load(f))
    assert set(loaded.params) <= set(reference)
    assert list(loaded.params) == loaded.parameter_names()
    # Beside the program, both pickles are found.
    assert list(pir.load(m.json).params) == list(loaded.params)
    for name in loaded.params:
        assert np.array_equal(loaded.params[name], reference[name])


@pytest.mark.parametrize("m", [m for m in MODELS if m.file(".pdmodel")], ids=lambda m: m.label)
def test_legacy_models_translate_as_paddle_does(m):
    translated = m.json.with_name(m.name + ".translated.txt")
    loaded = pir.load(m.file(".pdmodel"))
    assert str(loaded.program) == translated.read_text()
    if m.file(".pdiparams"):
        reference = decode_pdiparams(m.file(".pdiparams"))
        for name, ref in zip(loaded.parameter_names(), reference):
            assert np.array_equal(loaded.params[name], ref), name


@pytest.mark.parametrize("m", COMPAT, ids=lambda m: m.label)
def test_upgrade_gives_what_paddle_prints(m, tmp_path):
    out = tmp_path / "up.json"
    version = pir.upgrade(m.json, out)
    assert version == m.meta()["pir_version"]
    upgraded = pir.load(out, params=False)
    assert upgraded.program.version == pir.PIR_VERSION
    assert str(upgraded.program) == m.file(".txt").read_text()
