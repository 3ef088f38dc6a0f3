"""Apply a declarative rewrite rule (DRR) through `Model.opt`: each 2-D
matmul followed by the add of a bias becomes one `pd_op.fc`.

Run from anywhere: python examples/python/rewrite_rule.py
"""

import tempfile
from pathlib import Path

import numpy as np

import pir

MODEL = Path(__file__).resolve().parents[2] / "tests" / "corpus" / "mlp_tiny.json"

# The rule language is the one of `pir opt --rules` (and of the rules the
# fusion passes are written in): source ops, `where` conditions, then `=>`
# and the ops that replace them.
RULE = """\
// y = x·w + b with a 2-D weight: one pd_op.fc
rule matmul_add_to_fc {
    %m = pd_op.matmul(%x, %w) {transpose_x: false, transpose_y: false}
    %out = pd_op.add(%m, %b)
    where rank(%w) == 2 && rank(%x) >= 2 && dim(%x, -1) == dim(%w, 0)
    where rank(%b) == 1 && dim(%b, 0) == dim(%w, 1)
    =>
    %out = pd_op.fc(%x, %w, %b) {in_num_col_dims: rank(%x) - 1, activation_type: "", padding_weights: false}
}
"""


def main():
    model = pir.load(MODEL)
    count = lambda name: len(model.program.walk(name))  # noqa: E731
    print(f"before: {count('pd_op.matmul')} matmul, {count('pd_op.add')} add, "
          f"{count('pd_op.fc')} fc")

    with tempfile.TemporaryDirectory() as folder:
        rules = Path(folder) / "fc.drr"
        rules.write_text(RULE)
        records = model.opt("dce", rules=rules)   # the rules run first, then dce
        print("passes:", ", ".join(f"{r['pass']} ({'changed' if r['changed'] else 'unchanged'})"
                                   for r in records))
        print(f"after:  {count('pd_op.matmul')} matmul, {count('pd_op.add')} add, "
              f"{count('pd_op.fc')} fc")
        assert count("pd_op.fc") == 2 and count("pd_op.matmul") == 0
        model.verify()

        prefix = Path(folder) / "fused"
        model.save(prefix)
        back = pir.load(prefix)
        for name in model.params:
            assert np.array_equal(back.params[name], model.params[name]), name
        print(f"saved {prefix}.json with {len(back.params)} parameters")


if __name__ == "__main__":
    main()
