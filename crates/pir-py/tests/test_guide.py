"""The Python snippets of the user guide's Python chapter run, in order, as
the chapter says: from a folder holding the corpus at `tests/corpus`."""

import re
import shutil

import pytest

from conftest import REPO

GUIDE = REPO / "docs" / "guide" / "src" / "python.md"


def snippets():
    return re.findall(r"^```python\n(.*?)^```$", GUIDE.read_text(), re.S | re.M)


def test_the_guide_has_snippets():
    assert len(snippets()) > 10


def test_the_guides_snippets_run(tmp_path, monkeypatch):
    corpus = REPO / "tests" / "corpus"
    if not (corpus / "mlp_tiny.json").exists():
        pytest.skip("the corpus is not available")
    shutil.copytree(corpus, tmp_path / "tests" / "corpus")
    monkeypatch.chdir(tmp_path)
    scope = {}
    for i, code in enumerate(snippets()):
        exec(compile(code, f"{GUIDE.name} snippet {i + 1}", "exec"), scope)
