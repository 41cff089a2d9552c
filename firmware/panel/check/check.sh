#!/bin/sh
# Runs the panel firmware's scripted session (scenario.py) under real MicroPython (the
# WebAssembly port, from npm) and under CPython, and compares the transcripts byte for byte.
# Needs node and npm; the MicroPython package is cached outside the repository.
# Usage, from anywhere: firmware/panel/check/check.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
cache=${MICROPYTHON_WASM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tabletop/micropython-wasm}
package=@micropython/micropython-webassembly-pyscript@1.27.0
python=${PYTHON:-$repo/.venv/bin/python}

if [ ! -d "$cache/node_modules/@micropython/micropython-webassembly-pyscript" ]; then
    mkdir -p "$cache"
    npm install --prefix "$cache" --no-save --no-audit --no-fund "$package" >/dev/null
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cp "$here/run_micropython.mjs" "$cache/"
node "$cache/run_micropython.mjs" "$here/scenario.py" \
    "$repo/device/panel_protocol.py" "$repo/firmware/panel/panel_logic.py" \
    "$repo/firmware/panel/config.py" "$repo/firmware/panel/main.py" > "$out/micropython.txt"
PYTHONPATH="$repo/device:$repo/firmware/panel" "$python" "$here/scenario.py" > "$out/cpython.txt"
if diff -u "$out/cpython.txt" "$out/micropython.txt"; then
    echo "MicroPython and CPython agree: $(wc -l < "$out/cpython.txt") transcript lines"
else
    echo "MicroPython and CPython differ (diff above)" >&2
    exit 1
fi
