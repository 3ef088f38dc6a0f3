"""Stubs of `pir.ops`: the op functions are made from Paddle's op
definitions on first use (`pir.ops.names()` lists them;
`inspect.signature` gives each one's arguments)."""

from types import TracebackType
from typing import Any, Callable, Optional, Sequence

from ._pir import Block, Op, Value

class InsertionPoint:
    block: Block
    def __init__(self, block: Block) -> None: ...
    @classmethod
    def before(cls, op: Op) -> InsertionPoint: ...
    @classmethod
    def after(cls, op: Op) -> InsertionPoint: ...
    @staticmethod
    def current() -> Optional[InsertionPoint]: ...
    def create_op(
        self,
        name: str,
        operands: Any,
        attributes: Any,
        result_types: Optional[Sequence[Any]] = None,
    ) -> Op: ...
    def __enter__(self) -> InsertionPoint: ...
    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> bool: ...

def names() -> list[str]: ...
def parameter(
    name: str, shape: Sequence[int], dtype: str = "float32", *, trainable: bool = True
) -> Value: ...
def __getattr__(name: str) -> Callable[..., Any]: ...
