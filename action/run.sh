#!/usr/bin/env bash
# The logic of the beast-judge GitHub Action (action.yml): runs `beast check` on the
# answer, prints the report to the log and writes it to $GITHUB_STEP_SUMMARY, writes the
# paths of the JUnit file and the report to $GITHUB_OUTPUT, and fails on a failed case.
#
# Inputs come as INPUT_* variables, as action.yml passes them:
#   INPUT_COMMAND   the answer's command, split as a shell splits words (python3 "my a.py"),
#                   nothing expanded or run; or a YAML list (["python3", "my a.py"])
#   INPUT_ANSWERS   or an answers file (beast check --answers)
#   INPUT_MERGE     or shard outputs to merge, a glob (beast check --merge)
#   INPUT_RANDOM    random puzzles (default 1000); INPUT_SEED their seed (default 1)
#   INPUT_SHARDS, INPUT_SHARD   run shard SHARD of SHARDS (default 1 of 1)
#   INPUT_FORMAT    text (the report), markdown (the leaderboard table) or json (a shard's
#                   output, for --merge); passed as --format only when given (beast's
#                   default is text), or json for a shard
#   INPUT_ARGS      more beast check flags, split as INPUT_COMMAND; none that an input
#                   gives (--seed, --random, --shard, --format, --answers, --merge, --junit)
#   INPUT_FAIL      false: a failed case does not fail the step, and is a warning (default
#                   true: an error)
#   INPUT_ID        the name of this use's files (RUNNER_TEMP/beast-check-ID/); default
#                   the first free number, so that two uses in one job keep their own
# BEAST is the beast binary (default: beast on PATH); its directory is put first on PATH,
# so that answers that call `beast` find it, and written to GITHUB_PATH, so that later
# steps do. No input holding a line break reaches the log (only command and args, which
# may be YAML lists, hold several lines, and none of their words may).
#
# What the answer printed is data: it reaches the summary inside a code block no line of it
# can close, and the log with the runner's workflow commands stopped.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=action/lib.sh
source "$here/lib.sh"

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
    echo "::error title=beast-judge::$(annotation_text "$1")"
    exit 2
}

# An input is one line, but command and args (which may be YAML lists): a line break
# would put the rest of the value on a line of its own in the log, where the runner reads
# it as a workflow command, before the log's commands are stopped. Nothing of the input is
# printed before this check.
for name in ANSWERS MERGE RANDOM SEED SHARDS SHARD FORMAT FAIL ID; do
    var="INPUT_$name"
    case "${!var:-}" in
    *$'\n'* | *$'\r'*) refuse "the input $(printf '%s' "$name" | tr 'A-Z' 'a-z') holds a line break: give it on one line" ;;
    esac
done
# The words of command or args: no line break in any (a YAML list's items are its lines).
refuse_line_breaks() {
    local word
    for word in "${WORDS[@]}"; do
        case "$word" in
        *$'\n'* | *$'\r'*) refuse "$1: a word holds a line break, which the log would show as a line of its own: give each word on one line" ;;
        esac
    done
}

case "$shards" in '' | *[!0-9]* | 0) refuse "shards must be a whole number from 1, not '$shards'" ;; esac
case "$shard" in '' | *[!0-9]* | 0) refuse "shard must be a whole number from 1, not '$shard'" ;; esac
[ "$shard" -le "$shards" ] || refuse "shard $shard is past the $shards shards"
# --format is passed only when the input asks for it (or a shard, whose JSON the merge
# reads), so that args such as --post and -q, which take no --format, work.
format=${INPUT_FORMAT:-}
[ -z "$format" ] && [ "$shards" -gt 1 ] && format=json
case "$format" in '' | text | markdown | json) ;; *) refuse "format must be text, markdown or json, not '$format'" ;; esac
id=${INPUT_ID:-}
case "$id" in
'' | [A-Za-z0-9_]*) ;;
*) refuse "id must start with a letter, a digit or _, not '$id'" ;;
esac
case "$id" in *[!A-Za-z0-9_.-]*) refuse "id may have letters, digits, '_', '.' and '-' only, not '$id'" ;; esac

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
command=()
if [ -n "${INPUT_COMMAND:-}" ]; then
    sources=$((sources + 1))
    split_command "$INPUT_COMMAND" || refuse "command: $ERROR"
    [ "${#WORDS[@]}" -gt 0 ] || refuse "command: no program in '$INPUT_COMMAND'"
    refuse_line_breaks command
    command=("${WORDS[@]}")
fi
[ "$sources" -eq 1 ] || refuse "give exactly one of command, answers and merge"

# args: more flags, but none that an input gives (beast would refuse it as used twice).
extra=()
if [ -n "${INPUT_ARGS:-}" ]; then
    split_command "$INPUT_ARGS" || refuse "args: $ERROR"
    refuse_line_breaks args
    extra=("${WORDS[@]}")
fi
for word in "${extra[@]}"; do
    case "$word" in
    --random | --random=*) refuse "args: $word is the input random: give it as 'random:'" ;;
    --seed | --seed=*) refuse "args: $word is the input seed: give it as 'seed:'" ;;
    --shard | --shard=*) refuse "args: $word is the inputs shard and shards: give them as 'shard:' and 'shards:'" ;;
    --format | --format=*) refuse "args: $word is the input format: give it as 'format:'" ;;
    --answers | --answers=*) refuse "args: $word is the input answers: give it as 'answers:'" ;;
    --merge | --merge=*) refuse "args: $word is the input merge: give it as 'merge:'" ;;
    --junit | --junit=*) refuse "args: $word is written by the action itself: read its path from the output 'junit'" ;;
    --) refuse "args: the answer's command is the input command, not a '--' in args" ;;
    esac
done

# This use's own directory: the id given, or the first free number.
if [ -n "$id" ]; then
    dir="$temp/beast-check-$id"
    mkdir "$dir" 2>/dev/null || refuse "id '$id' is already used by another beast-judge step of this job"
else
    id=1
    while ! mkdir "$temp/beast-check-$id" 2>/dev/null; do
        id=$((id + 1))
        [ "$id" -le 1000 ] || refuse "cannot make a directory $temp/beast-check-N for this step's files"
    done
    dir="$temp/beast-check-$id"
fi

junit="$dir/junit.xml"
[ "$shards" -gt 1 ] && junit="$dir/junit-$shard.xml"
[ -n "$format" ] && args+=(--format "$format")
args+=(--junit "$junit")
[ "${#extra[@]}" -gt 0 ] && args+=("${extra[@]}")
[ "${#command[@]}" -gt 0 ] && args+=(-- "${command[@]}")

case "$format" in
'' | text) report="$dir/report.txt" ;;
markdown) report="$dir/report.md" ;;
json) report="$dir/report.json" ;;
esac
[ "$shards" -gt 1 ] && report="$dir/shard-$shard.json"
errors="$dir/stderr.txt"

# The line that runs, quoted as a shell reads it: what is echoed is what runs.
ran="beast $(quote_words "${args[@]}")"
echo "$ran"
case "$beast" in
*/*)
    bin="$(cd "$(dirname "$beast")" && pwd)"
    PATH="$bin:$PATH"
    # Later steps of the job find beast on their PATH too.
    [ -n "${GITHUB_PATH:-}" ] && printf '%s\n' "$bin" >>"$GITHUB_PATH"
    ;;
esac
export PATH
status=0
# The runner's command files (outputs, summary, environment and PATH of later steps) are
# not named to beast, nor so to the answers it runs.
env -u GITHUB_OUTPUT -u GITHUB_STEP_SUMMARY -u GITHUB_ENV -u GITHUB_PATH -u GITHUB_STATE \
    "$beast" "${args[@]}" >"$report" 2>"$errors" || status=$?

# The log: what beast printed, as data.
case "$format" in
json) print_as_data "$errors" ;;
*) print_as_data "$errors" "$report" ;;
esac

# The summary: the line that ran and the report in code blocks; Markdown only where beast
# wrote it (the leaderboard table).
title="### beast check"
[ "$shards" -gt 1 ] && title+=", shard $shard/$shards"
[ "$id" != 1 ] && title+=" ($id)"
printf '%s\n' "$ran" >"$dir/command.txt"
{
    echo "$title"
    echo
    code_block "$dir/command.txt"
    echo
    if [ "$status" -ge 2 ]; then
        echo "beast check stopped with exit status $status:"
        echo
        code_block "$errors"
        echo
    fi
    # The report, also the part of one that an interrupted run printed.
    if [ "$status" -lt 2 ] || [ -s "$report" ]; then
        case "$format" in
        '' | text) code_block "$report" ;;
        markdown) cat "$report" ;;
        json) [ "$status" -lt 2 ] && code_block "$errors" ;;
        esac
    fi
    echo
} >>"$summary"
{
    [ -f "$junit" ] && echo "junit=$junit"
    echo "report=$report"
    echo "status=$status"
    echo "dir=$dir"
    echo "id=$id"
} >>"$output"

case "$status" in
0) exit 0 ;;
1)
    # fail: false (a shard a merge judges): a warning, not an error, and the step passes.
    if [ "$fail" = false ]; then
        echo "::warning title=beast-judge::a case failed (see the job summary)"
        exit 0
    fi
    echo "::error title=beast-judge::a case failed (see the job summary)"
    exit 1
    ;;
*)
    message=$(cat "$errors")
    [ -n "$message" ] || message="beast check stopped with exit status $status and no message"
    echo "::error title=beast-judge (exit $status)::$(annotation_text "$message")"
    exit "$status"
    ;;
esac
