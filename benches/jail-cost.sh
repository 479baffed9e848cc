#!/usr/bin/env bash
# What `beast check` costs a case, by sandbox, against the same answer run in a plain shell
# loop: `--jobs 1`, N random cases (default 300) of seed S (default 1), a C answer.
#
#   benches/jail-cost.sh [N] [S]
#
# The answer is a C program made here that passes every one of the N cases: it hashes the
# puzzle on its standard input and prints the output the judge expects for it, from a table
# built from `beast cases`. So no case fails, no diagnosis runs, and what is left of the
# judge's time is what running and containing a process costs (the generation of the cases
# and the comparison of outputs are in every run, the loop's included: it reads them too).
# Needs gcc and python3; builds `beast` in release mode. Prints the median cost a case of
# each sandbox, over the loop and over `none`. RUNS (default 15) and
# SANDBOXES (default "bwrap none basic auto user") change what is run: `bwrap` is the same
# shell loop with each case in bubblewrap (`--unshare-all`, the system read-only, a fresh
# /tmp: what bubblewrap needs to run the answer; left out where `bwrap` is missing), `user`
# is `--sandbox auto` run as the normal user BENCH_USER (default `beast-judge-test`, which
# the tests make with a subordinate range; left out unless root and the user exists),
# through `setpriv`. The commands run in interleaved rounds, each once a round, so every row
# meets the same load.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-300}
seed=${2:-1}
runs=${RUNS:-15}
sandboxes=${SANDBOXES:-bwrap none basic auto user}
user=${BENCH_USER:-beast-judge-test}
work=$(mktemp -d)
chmod 755 "$work" # basic runs the answer as a uid of its own
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet
# A copy in the work directory, so the normal user can run it too.
cp target/release/beast "$work/beast"
beast=$work/beast
"$beast" cases --no-builtin --random "$n" --seed "$seed" --out "$work/cases" >/dev/null

python3 - "$work/cases" > "$work/answer.c" <<'EOF'
import pathlib, sys

def fnv(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h

rows = []
for case in sorted(pathlib.Path(sys.argv[1]).glob("*.in")):
    out = case.with_suffix(".out").read_bytes()
    text = "".join(f"\\x{b:02x}" for b in out)
    rows.append(f'  {{0x{fnv(case.read_bytes()):016x}ULL, "{text}", {len(out)}}},')
print("#include <stdio.h>\n#include <unistd.h>")
print("static const struct { unsigned long long h; const char *out; int len; } table[] = {")
print("\n".join(rows))
print("};")
print("""int main(void) {
  unsigned long long h = 0xCBF29CE484222325ULL;
  unsigned char buf[65536];
  ssize_t got;
  while ((got = read(0, buf, sizeof buf)) > 0)
    for (ssize_t i = 0; i < got; i++) h = (h ^ buf[i]) * 0x100000001B3ULL;
  for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++)
    if (table[i].h == h) { fwrite(table[i].out, 1, table[i].len, stdout); return 0; }
  return 1;
}""")
EOF
gcc -O2 -o "$work/answer" "$work/answer.c"

check="$beast check --no-builtin --random $n --seed $seed --jobs 1 --shrink none"
# The answer must pass every case, or the runs below would time the diagnosis too.
$check --sandbox none -- "$work/answer" > "$work/first.txt" || {
    cat "$work/first.txt" >&2
    echo "jail-cost: the table answer does not pass every case" >&2
    exit 1
}
cat > "$work/loop.sh" <<EOF
for f in "$work"/cases/*.in; do "$work/answer" < "\$f" > /dev/null; done
EOF

# bubblewrap: the least it needs to run the answer contained (every namespace, the system
# directories read-only, a fresh /proc, /dev and /tmp), one process a case, from the loop.
cat > "$work/bwrap.sh" <<EOF
for f in "$work"/cases/*.in; do
  bwrap --unshare-all --die-with-parent --new-session --ro-bind /usr /usr \
    --symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/bin /bin \
    --ro-bind "$work/answer" /answer --proc /proc --dev /dev --tmpfs /tmp \
    /answer < "\$f" > /dev/null
done
EOF

commands=("bash $work/loop.sh")
names=()
for s in $sandboxes; do
    case $s in
        bwrap)
            if ! command -v bwrap >/dev/null || ! bash "$work/bwrap.sh"; then
                echo "jail-cost: bwrap missing or not working here, its row left out" >&2
                continue
            fi
            commands+=("bash $work/bwrap.sh")
            ;;
        user)
            if [ "$(id -u)" != 0 ] || ! id "$user" >/dev/null 2>&1; then
                echo "jail-cost: not root or no user $user, the normal user's row left out" >&2
                continue
            fi
            as_user="setpriv --reuid=$(id -u "$user") --regid=$(id -g "$user") --clear-groups"
            as_user+=" env HOME=$work"
            if ! $as_user $check -- "$work/answer" > "$work/user.txt"; then
                cat "$work/user.txt" >&2
                echo "jail-cost: the normal user's check fails, its row left out" >&2
                continue
            fi
            head -1 "$work/user.txt" >&2
            commands+=("$as_user $check -- $work/answer")
            ;;
        *) commands+=("$check --sandbox $s -- $work/answer") ;;
    esac
    names+=("$s")
done
# Interleaved: each round runs every command once, in turn, so that a change of load
# falls on every row alike (hyperfine runs one command's runs, then the next's). The
# medians of the rounds, after one warm-up round.
python3 - "$runs" "$n" "${names[@]}" -- "${commands[@]}" <<'EOF'
import shlex, statistics, subprocess, sys, time
args = sys.argv[1:]
runs, n = int(args[0]), int(args[1])
cut = args.index("--")
names, commands = ["loop"] + args[2:cut], args[cut + 1:]
times = {name: [] for name in names}
for round in range(runs + 1):
    for name, command in zip(names, commands):
        start = time.perf_counter()
        subprocess.run(shlex.split(command), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        took = time.perf_counter() - start
        if round > 0:
            times[name].append(took)
median = {name: statistics.median(t) for name, t in times.items()}
loop, none = median["loop"], median.get("none")
print(f"{runs} interleaved rounds of {n} cases, medians a case:")
print(f"  loop: {loop / n * 1e3:.2f} ms")
for name in names[1:]:
    m = median[name]
    line = f"  {name}: {m / n * 1e3:.2f} ms a case, {(m - loop) / n * 1e3:.2f} ms over the loop"
    if none is not None and name != "none":
        line += f", {(m - none) / n * 1e3:.2f} ms over none"
    print(line)
root = median.get("auto")
if root is not None and "user" in median:
    print(f"  the normal user's jail is {median['user'] / root:.2f}x root's")
EOF
