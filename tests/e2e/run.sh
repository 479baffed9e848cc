#!/usr/bin/env bash
# Browser tests of the pages: the Ring Collector page (`beast ring --html`, compared step by
# step with `beast ring --json`) and the beast replay pages (`beast --html`, compared turn by
# turn with `beast --trace` and `--json`; `--compare`'s first difference), in headless
# Chromium (Debian's package) with playwright-core. Screenshots land in tests/e2e/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

if [ ! -x /usr/bin/chromium ]; then
    echo "e2e: /usr/bin/chromium is missing; installing Debian's chromium package"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends chromium
fi

(cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)

cargo build --quiet --bin beast
target_dir="${CARGO_TARGET_DIR:-$root/target}"
artifacts="$root/tests/e2e/artifacts"
mkdir -p "$artifacts"
"$target_dir/debug/beast" ring --html > "$artifacts/ring.html"

BEAST="$target_dir/debug/beast" PAGE="$artifacts/ring.html" ARTIFACTS="$artifacts" \
    CHROMIUM=/usr/bin/chromium node tests/e2e/ring.mjs

sample="$root/examples/beast/wikipedia.txt"
compare_flags="--target after"
"$target_dir/debug/beast" --html "$sample" > "$artifacts/replay.html"
"$target_dir/debug/beast" --html --compare "$compare_flags" "$sample" > "$artifacts/compare.html"
"$target_dir/debug/beast" gen --seed 7 | "$target_dir/debug/beast" --html - > "$artifacts/piped.html"
python3 tests/e2e/sealed_map.py 1000 1000 1000 2000 | "$target_dir/debug/beast" --html - > "$artifacts/big.html"
BEAST="$target_dir/debug/beast" SAMPLE="$sample" COMPARE_FLAGS="$compare_flags" \
    REPLAY="$artifacts/replay.html" COMPARE="$artifacts/compare.html" PIPED="$artifacts/piped.html" BIG="$artifacts/big.html" \
    ARTIFACTS="$artifacts" CHROMIUM=/usr/bin/chromium node tests/e2e/replay.mjs
