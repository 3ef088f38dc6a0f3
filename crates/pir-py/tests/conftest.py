"""Shared helpers of the pytest suite: the corpus of files Paddle wrote, and
a reference decoder of Paddle's parameter streams written from the format
description (spec §7.1-7.3), independent of the Rust readers."""

import json
import os
import struct
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[3]


def corpus_dir() -> Path:
    """``$PIR_CORPUS``, else ``../shared/paddle-corpus`` beside the
    repository, else the small copy in ``tests/corpus`` (as ``pir-corpus``)."""
    env = os.environ.get("PIR_CORPUS")
    if env:
        return Path(env)
    shared = REPO.parent / "shared" / "paddle-corpus"
    if (shared / "index.json").exists():
        return shared
    return REPO / "tests" / "corpus"


CORPUS = corpus_dir()


class CorpusModel:
    def __init__(self, entry, folder):
        self.name = entry["name"]
        self.files = entry["files"]
        self.saved_by = entry.get("saved_by")
        self.folder = folder

    def file(self, suffix):
        stem = self.name + suffix
        for f in self.files:
            if f == stem or f.endswith("/" + stem):
                return self.folder / f
        return None

    @property
    def json(self):
        return self.file(".json") or self.folder / (self.name + ".json")

    @property
    def label(self):
        return f"{self.saved_by}/{self.name}" if self.saved_by else self.name

    def meta(self):
        path = self.file(".meta.json")
        return json.loads(path.read_text()) if path else {}


def _index(section):
    path = CORPUS / "index.json"
    if not path.exists():
        return []
    return [CorpusModel(m, CORPUS) for m in json.loads(path.read_text()).get(section, [])]


MODELS = _index("models")
COMPAT = _index("compat")


def model(name):
    for m in MODELS:
        if m.name == name:
            return m
    pytest.skip(f"corpus model {name} is not available")


# Paddle's VarType codes (spec §7.2) -> numpy dtypes as Paddle hands them to
# numpy (bfloat16 as uint16 bits, float8 as uint8 bits).
VAR_TYPES = {
    0: "|b1", 1: "<i2", 2: "<i4", 3: "<i8", 4: "<f2", 5: "<f4", 6: "<f8",
    20: "|u1", 21: "|i1", 22: "<u2", 23: "<c8", 24: "<c16", 32: "|u1",
    33: "|u1", 36: "<u2", 37: "<u4", 38: "<u8",
}


def _varint(buf, pos):
    shift = value = 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def decode_pdiparams(path):
    """The arrays of a ``.pdiparams`` file, in file order (spec §7.1-7.3)."""
    buf = Path(path).read_bytes()
    pos, out = 0, []
    while pos < len(buf):
        (version,) = struct.unpack_from("<I", buf, pos)
        assert version == 0
        (levels,) = struct.unpack_from("<Q", buf, pos + 4)
        pos += 12
        for _ in range(levels):
            (size,) = struct.unpack_from("<Q", buf, pos)
            pos += 8 + size
        tensor_version, desc_size = struct.unpack_from("<Ii", buf, pos)
        assert tensor_version == 0
        pos += 8
        desc, end = buf[pos:pos + desc_size], pos + desc_size
        pos = end
        code, dims, p = None, [], 0
        while p < len(desc):
            tag, p = _varint(desc, p)
            value, p = _varint(desc, p)
            if tag == 0x08:
                code = value
            elif tag == 0x10:
                dims.append(value - (1 << 64) if value >= 1 << 63 else value)
        dtype = np.dtype(VAR_TYPES[code])
        count = int(np.prod(dims, dtype=np.int64)) if dims else 1
        nbytes = count * dtype.itemsize
        out.append(np.frombuffer(buf[pos:pos + nbytes], dtype=dtype).reshape(dims))
        pos += nbytes
    return out
