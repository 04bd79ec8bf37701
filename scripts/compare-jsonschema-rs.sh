#!/usr/bin/env bash
# Measures jsonschema-rs (from PyPI, in a virtual environment under .build/) and this package's
# validator on the same create-request schema and payload, one line each.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/venv-jsonschema-rs
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet jsonschema-rs
fi
seconds=${1:-2}
"$venv/bin/python" scripts/jsonschema_rs_bench.py Contracts/schemas/create-request.schema.json "$seconds"
swift run -c release petspot-contracts bench --filter validator --seconds "$seconds" 2>/dev/null
