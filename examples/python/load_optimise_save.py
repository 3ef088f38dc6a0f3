"""Load a model with its parameters, optimise it, save it, and check that
the saved model reads back the same.

Run from anywhere: python examples/python/load_optimise_save.py
"""

import tempfile
from pathlib import Path

import numpy as np

import pir

MODEL = Path(__file__).resolve().parents[2] / "tests" / "corpus" / "mlp_tiny.json"


def main():
    # mlp_tiny.pdiparams beside the model is memory-mapped and bound by name.
    model = pir.load(MODEL)
    print(f"loaded {model.path}: {model.program.num_ops} ops, {len(model.params)} parameters")

    for record in model.opt("constant_folding,canonicalize,cse,dce"):
        state = "changed the program" if record["changed"] else "found nothing to do"
        print(f"  {record['pass']:<17} {state}")
    print(f"optimised: {model.program.num_ops} ops, {len(model.params)} parameters")

    with tempfile.TemporaryDirectory() as folder:
        prefix = Path(folder) / "out" / "mlp"
        model.save(prefix)                       # out/mlp.json + out/mlp.pdiparams
        print(f"saved {prefix}.json and {prefix}.pdiparams")

        back = pir.load(prefix.with_suffix(".json"))
        assert str(back.program) == str(model.program), "the program differs"
        assert list(back.params) == list(model.params), "the parameter names differ"
        for name in model.params:
            assert np.array_equal(back.params[name], model.params[name]), name
        print(f"reloaded: same program, same {len(back.params)} parameters")


if __name__ == "__main__":
    main()
