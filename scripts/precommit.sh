#!/usr/bin/env bash
# The checks every change passes: formatting, lints, tests, docs.
# Usage: scripts/precommit.sh   (CI runs it through .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy (deny warnings)"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== cargo test"
cargo test --workspace --locked

echo "== python: build the pir package from the repository, install it, run pytest"
# A fresh virtual environment; pip fetches maturin, numpy and pytest, and
# onnx and onnxruntime for the ONNX export test (test_onnx_export.py: the
# corpus exported, checked and run against Paddle's outputs). The
# wheel is built with the dev profile, reusing what `cargo test` compiled
# (README's command builds the release wheel).
PY_ENV=target/python-ci
python3 -m venv --clear "$PY_ENV"
"$PY_ENV/bin/pip" install -q "maturin>=1.9.4,<2" "numpy>=1.21" "pytest>=7" \
    "onnx==1.23.2" "onnxruntime==1.32.0"
PATH="$PWD/$PY_ENV/bin:$PATH" MATURIN_PEP517_ARGS="--profile dev --locked" \
    "$PY_ENV/bin/pip" install -q --no-build-isolation ./crates/pir-py
"$PY_ENV/bin/python" -m pytest -q -rs -p no:cacheprovider crates/pir-py/tests

echo "== cargo doc (deny warnings)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet

echo "== the guide: mdBook build and link check"
scripts/check_docs.sh
