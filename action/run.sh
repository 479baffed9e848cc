#!/usr/bin/env bash
# The logic of the beast-judge GitHub Action (action.yml): runs `beast check` on the
# answer, writes the report to $GITHUB_STEP_SUMMARY and the paths of the JUnit file (and of
# a shard's JSON) to $GITHUB_OUTPUT, and fails on a failed case.
#
# Inputs come as INPUT_* variables, as action.yml passes them:
#   INPUT_COMMAND   the answer's command, split on whitespace (no quoting): python3 a.py
#   INPUT_ANSWERS   or an answers file (beast check --answers)
#   INPUT_MERGE     or shard outputs to merge, a glob (beast check --merge)
#   INPUT_RANDOM    random puzzles (default 1000); INPUT_SEED their seed (default 1)
#   INPUT_SHARDS, INPUT_SHARD   run shard SHARD of SHARDS (default 1 of 1)
#   INPUT_FORMAT    text (the report), markdown (the leaderboard table) or json (a shard's
#                   output, for --merge); default text, or json for a shard
#   INPUT_ARGS      more beast check flags, split on whitespace
#   INPUT_FAIL      false: a failed case does not fail the step (default true)
# BEAST is the beast binary (default: beast on PATH).
#
# `run.sh --key DIR` prints the cache key of the beast built from the checkout DIR.
set -euo pipefail

if [ "${1:-}" = "--key" ]; then
    dir=${2:?usage: run.sh --key DIR}
    (cd "$dir" && find Cargo.toml Cargo.lock src crates -type f -print0 | sort -z |
        xargs -0 sha256sum | sha256sum | cut -c1-16)
    exit 0
fi

beast=${BEAST:-beast}
summary=${GITHUB_STEP_SUMMARY:-/dev/null}
output=${GITHUB_OUTPUT:-/dev/null}
temp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
random=${INPUT_RANDOM:-1000}
seed=${INPUT_SEED:-1}
shards=${INPUT_SHARDS:-1}
shard=${INPUT_SHARD:-1}
fail=${INPUT_FAIL:-true}

# A usage error: an annotation, and exit 2 as beast's own usage errors.
refuse() {
    echo "::error title=beast-judge::$1"
    exit 2
}

case "$shards" in '' | *[!0-9]* | 0) refuse "shards must be a whole number from 1, not '$shards'" ;; esac
case "$shard" in '' | *[!0-9]* | 0) refuse "shard must be a whole number from 1, not '$shard'" ;; esac
[ "$shard" -le "$shards" ] || refuse "shard $shard is past the $shards shards"
default_format=text
[ "$shards" -gt 1 ] && default_format=json
format=${INPUT_FORMAT:-$default_format}
case "$format" in text | markdown | json) ;; *) refuse "format must be text, markdown or json, not '$format'" ;; esac

args=(check)
sources=0
if [ -n "${INPUT_MERGE:-}" ]; then
    sources=$((sources + 1))
    # The glob is the user's: expanded here, on purpose.
    # shellcheck disable=SC2206
    files=($INPUT_MERGE)
    [ -e "${files[0]}" ] || refuse "no shard output matches '$INPUT_MERGE'"
    args+=(--merge "${files[@]}")
else
    args+=(--random "$random" --seed "$seed")
    [ "$shards" -gt 1 ] && args+=(--shard "$shard/$shards")
fi
if [ -n "${INPUT_ANSWERS:-}" ]; then
    sources=$((sources + 1))
    args+=(--answers "$INPUT_ANSWERS")
fi
if [ -n "${INPUT_COMMAND:-}" ]; then
    sources=$((sources + 1))
    read -r -a command <<<"$INPUT_COMMAND"
fi
[ "$sources" -eq 1 ] || refuse "give exactly one of command, answers and merge"

junit="$temp/beast-junit.xml"
[ "$shards" -gt 1 ] && junit="$temp/beast-junit-$shard.xml"
args+=(--format "$format" --junit "$junit")
if [ -n "${INPUT_ARGS:-}" ]; then
    read -r -a extra <<<"$INPUT_ARGS"
    args+=("${extra[@]}")
fi
[ -n "${INPUT_COMMAND:-}" ] && args+=(-- "${command[@]}")

report="$temp/beast-report.$format"
[ "$shards" -gt 1 ] && report="$temp/shard-$shard.json"
echo "beast ${args[*]}"
status=0
"$beast" "${args[@]}" >"$report" 2>"$temp/beast-stderr.txt" || status=$?
cat "$temp/beast-stderr.txt" >&2

{
    case "$format" in
    markdown) cat "$report" ;;
    text)
        echo '### beast check'
        echo
        echo '```text'
        cat "$report"
        echo '```'
        ;;
    json)
        echo "### beast check, shard $shard/$shards"
        echo
        echo '```text'
        cat "$temp/beast-stderr.txt"
        echo '```'
        ;;
    esac
} >>"$summary"
{
    [ -f "$junit" ] && echo "junit=$junit"
    echo "report=$report"
    echo "status=$status"
} >>"$output"

case "$status" in
0) exit 0 ;;
1)
    echo "::error title=beast-judge::a case failed (see the job summary)"
    [ "$fail" = false ] && exit 0
    exit 1
    ;;
*) exit "$status" ;;
esac
