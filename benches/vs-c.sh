#!/usr/bin/env bash
# Whole-process time of `beast` against the C golf answer (gcc -O2) on generated maps:
# 900x900, 99 beasts, 98 moves (`beast gen --generator 1 --seed N --size 900x900 --beasts 99 --moves 98`).
#
#   benches/vs-c.sh [ANSWER.c]
#
# The C answer is never kept in this repository. Without ANSWER.c it is extracted at run time
# from the challenge text in the seeds directory (SEEDS, default /work/shared/seeds): the first
# block of lines from one starting `#include` or `main(` up to a line ending in `}`. If no seed
# file quotes it, the script says so and stops; give the answer's source as ANSWER.c instead.
# Needs gcc and hyperfine; builds `beast` in release mode. Prints hyperfine's table per map and
# the ratio of the medians, beast / C.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${SEEDS:-/work/shared/seeds}
runs=${RUNS:-30}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ $# -ge 1 ]]; then
    cp "$1" "$work/answer.c"
else
    for f in "$seeds"/*; do
        awk '!found && /^[[:space:]]*(#include|main\()/ {on=1}
             on {print}
             on && /}[[:space:]]*$/ {found=1; on=0}' "$f" > "$work/answer.c"
        [[ -s "$work/answer.c" ]] && break
    done
    if [[ ! -s "$work/answer.c" ]]; then
        echo "vs-c: no seed file in $seeds quotes a C answer; run: benches/vs-c.sh ANSWER.c" >&2
        exit 2
    fi
fi
gcc -O2 -w -o "$work/answer" "$work/answer.c"
cargo build --release --quiet
beast=target/release/beast

for seed in 1 2 3; do
    map="$work/map$seed.txt"
    "$beast" gen --generator 1 --seed "$seed" --size 900x900 --beasts 99 --moves 98 > "$map"
    echo "== seed $seed: $(wc -c < "$map") bytes; beast says: $("$beast" "$map" | tr '\n' ' ')"
    # Both read the map on standard input, as golf answers do; hyperfine subtracts the shell.
    hyperfine --warmup 3 --runs "$runs" --export-json "$work/t$seed.json" \
        "$beast < $map" "$work/answer < $map"
    python3 - "$work/t$seed.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(f"ratio of medians, beast / C: {r[0]['median'] / r[1]['median']:.3f}x")
EOF
done
