"""Walk a model's ops, replace each `pd_op.relu` by a `pd_op.leaky_relu`
built through the API, change an attribute, verify and save.

Run from anywhere: python examples/python/custom_edit.py
"""

import tempfile
from pathlib import Path

import pir

MODEL = Path(__file__).resolve().parents[2] / "tests" / "corpus" / "mlp_tiny.json"


def main():
    model = pir.load(MODEL)
    program = model.program

    print("ops of the top-level block:")
    for op in program.ops:
        shapes = [value.shape for value in op.results]
        print(f"  {op.name:<20} results {shapes}")

    # Each relu becomes a leaky_relu of the same input, inserted just
    # before it; the relu's users then read the new result.
    for relu in program.walk("pd_op.relu"):
        (x,) = relu.operands
        leaky = relu.parent_block.create_op(
            "pd_op.leaky_relu",
            {"x": x},
            {"negative_slope": 0.1, "stop_gradient": [False]},
            [relu.results[0].type],
            before=relu,
        )
        relu.replace_with(leaky.results)
        print(f"replaced a pd_op.relu by {leaky}")

    # Attributes are read and written as Python values; the kind comes
    # from the op's definition (bias is a float32 scalar).
    scale = program.walk("pd_op.scale")[0]
    print(f"pd_op.scale bias: {scale.attr('bias')} -> 0.25")
    scale.set_attr("bias", 0.25)

    # Names the definition does not declare are refused.
    try:
        scale.set_attr("bais", 1.0)
    except pir.EditError as e:
        print(f"refused: {e}")

    program.verify()
    print("the edited program verifies")

    with tempfile.TemporaryDirectory() as folder:
        prefix = Path(folder) / "edited"
        model.save(prefix)
        back = pir.load(prefix)
        names = [op.name for op in back.program.walk()]
        assert "pd_op.relu" not in names and names.count("pd_op.leaky_relu") == 2
        print(f"saved and reloaded {prefix}.json: {names.count('pd_op.leaky_relu')} leaky_relu ops")


if __name__ == "__main__":
    main()
