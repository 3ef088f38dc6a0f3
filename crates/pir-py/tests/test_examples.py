"""The scripts of examples/python run and say what they did."""

import subprocess
import sys

import pytest

from conftest import REPO

EXAMPLES = REPO / "examples" / "python"

# Each script and a line its output must hold.
EXPECTED = {
    "load_optimise_save.py": "reloaded: same program, same 4 parameters",
    "custom_edit.py": "the edited program verifies",
    "rewrite_rule.py": "after:  0 matmul, 0 add, 2 fc",
}


def test_every_example_is_run():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(EXPECTED)


@pytest.mark.parametrize("script", sorted(EXPECTED))
def test_example_runs(script, tmp_path):
    # Run from an empty folder: the scripts find the corpus by their own
    # path and write only to temporary folders.
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert EXPECTED[script] in done.stdout, done.stdout
    assert list(tmp_path.iterdir()) == []
