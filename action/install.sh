#!/usr/bin/env bash
# How the beast-judge GitHub Action (action.yml) gets its `beast`:
#
#   install.sh key DIR         prints the cache key of the beast of the action's files in
#                              DIR: a hash of every file there (but .git and target), the
#                              runner's system and architecture (RUNNER_OS, RUNNER_ARCH)
#                              and the toolchain (`rustc -V`, or $RUSTC).
#   install.sh install DIR ROOT
#                              installs beast as ROOT/bin/beast: the release binary of the
#                              version in DIR/Cargo.toml (tag vX.Y.Z) when one exists for
#                              this runner, its SHA-256 checked against the release's
#                              SHA256SUMS; else built from DIR with `cargo install`
#                              ($CARGO). Records what it installed for `verify`.
#   install.sh verify ROOT     checks a beast restored from the cache before it runs: a
#                              release's archive (kept in ROOT) against its SHA256SUMS,
#                              downloaded again, and the binary taken from it afresh; a
#                              built binary against the SHA-256 recorded when it was built.
#
# The action's repository comes as ACTION_REPOSITORY (a composite action's run steps see
# it only through `env:`), or from the action's path on the runner
# (.../_actions/OWNER/REPO/REF). Whatever the ref (v1, main, a commit), the release is the
# one of the version in the action's own Cargo.toml, v0.2.0 for version 0.2.0: the
# version a checkout builds is the version the release was built from. With no such
# release (or no repository: a local `uses: ./`), beast is built from source.
# BEAST_RELEASES_URL replaces https://github.com/OWNER/REPO/releases/download.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=action/lib.sh
source "$here/lib.sh"

# The Rust target of the prebuilt binary for this runner, or nothing.
release_target() {
    local os=${RUNNER_OS:-$(uname -s)} arch=${RUNNER_ARCH:-$(uname -m)}
    case "$os/$arch" in
    Linux/X64 | Linux/x86_64) echo x86_64-unknown-linux-musl ;;
    Linux/ARM64 | Linux/aarch64) echo aarch64-unknown-linux-musl ;;
    macOS/X64 | Darwin/x86_64) echo x86_64-apple-darwin ;;
    macOS/ARM64 | Darwin/arm64) echo aarch64-apple-darwin ;;
    Windows/X64) echo x86_64-pc-windows-msvc ;;
    esac
}

# sha256sum, or macOS's shasum.
sha256=(sha256sum)
command -v sha256sum >/dev/null 2>&1 || sha256=(shasum -a 256)

sha256_of() {
    "${sha256[@]}" "$1" | cut -d' ' -f1
}

# The version in the [package] table of DIR/Cargo.toml.
package_version() {
    awk '/^\[/ { package = ($0 == "[package]") } package && /^version *=/ { gsub(/.*= *"|".*/, ""); print; exit }' "$1/Cargo.toml"
}

key() {
    local dir=$1 files toolchain
    files=$(cd "$dir" && find . \( -path ./.git -o -path ./target \) -prune -o -type f -print0 |
        LC_ALL=C sort -z | xargs -0 "${sha256[@]}" | "${sha256[@]}" | cut -c1-16)
    toolchain=$("${RUSTC:-rustc}" -V 2>/dev/null || echo "no rustc")
    toolchain=$(printf '%s' "$toolchain" | tr -cs 'A-Za-z0-9.' '-')
    toolchain=${toolchain%-}
    printf 'beast-%s-%s-%s-%s\n' "${RUNNER_OS:-$(uname -s)}" "${RUNNER_ARCH:-$(uname -m)}" "$toolchain" "$files"
}

# Downloads $1 to $2. Returns 0, or 3 when there is no such file (HTTP 404, or a missing
# file:// path), or 1 on another failure.
download() {
    local code status=0
    code=$(curl -sSL --retry 3 --connect-timeout 20 -o "$2" -w '%{http_code}' "$1") || status=$?
    case "$status/$code" in
    0/200 | 0/000) return 0 ;;
    0/404 | 37/*) return 3 ;;
    *) echo "download of $1 failed (curl exit $status, HTTP $code)" >&2; return 1 ;;
    esac
}

# Installs the release binary of tag $2 into ROOT $1/bin; returns 3 when there is none.
install_release() {
    local root=$1 tag=$2 repo=$3 target
    target=$(release_target)
    if [ -z "$target" ]; then
        echo "No prebuilt beast for ${RUNNER_OS:-this system} ${RUNNER_ARCH:-}."
        return 3
    fi
    local base=${BEAST_RELEASES_URL:-${GITHUB_SERVER_URL:-https://github.com}/$repo/releases/download}/$tag
    local name="beast-$tag-$target"
    local work
    work=$(mktemp -d)
    local status=0
    download "$base/SHA256SUMS" "$work/SHA256SUMS" || status=$?
    if [ "$status" -ne 0 ]; then
        [ "$status" -eq 3 ] && echo "No release $tag at $base."
        rm -rf "$work"
        return 3
    fi
    local want
    want=$(awk -v f="$name.tar.gz" '$2 == f || $2 == "*" f { print $1 }' "$work/SHA256SUMS")
    if [ -z "$want" ]; then
        echo "The release $tag has no $name.tar.gz."
        rm -rf "$work"
        return 3
    fi
    download "$base/$name.tar.gz" "$work/$name.tar.gz" || status=$?
    if [ "$status" -ne 0 ]; then
        rm -rf "$work"
        [ "$status" -eq 3 ] && { echo "::error title=beast-judge::$name.tar.gz is in SHA256SUMS of $tag but not in the release"; exit 1; }
        return 3
    fi
    local got
    got=$(sha256_of "$work/$name.tar.gz")
    if [ "$got" != "$want" ]; then
        rm -rf "$work"
        echo "::error title=beast-judge::$name.tar.gz of $tag has SHA-256 $got, not $want as its SHA256SUMS says: not installed"
        exit 1
    fi
    mkdir -p "$root/release"
    cp "$work/$name.tar.gz" "$root/release/$name.tar.gz"
    rm -rf "$work"
    # What verify downloads again and compares: the release's SHA256SUMS and the archive.
    printf '%s\n' "$base" "$name" >"$root/release/from.txt"
    extract "$root" "$name"
    echo "Installed beast $tag for $target from $base/$name.tar.gz (SHA-256 $got, checked)."
}

# ROOT/bin/beast (or beast.exe) afresh from the kept archive $2 of ROOT/release.
extract() {
    local root=$1 name=$2 work exe=beast
    work=$(mktemp -d)
    tar -xzf "$root/release/$name.tar.gz" -C "$work"
    [ -f "$work/$name/beast.exe" ] && exe=beast.exe
    mkdir -p "$root/bin"
    rm -f "$root/bin/$exe"
    cp "$work/$name/$exe" "$root/bin/$exe"
    chmod 755 "$root/bin/$exe"
    rm -rf "$work"
}

# Fails with an annotation: a restored beast that does not match what was installed.
refuse_restored() {
    echo "::error title=beast-judge::the beast restored from the cache $1: not run (delete the cache entry, or change the action's files, to install it again)"
    exit 1
}

verify() {
    local root=$1
    if [ -f "$root/release/from.txt" ]; then
        local base name work want got status=0
        { read -r base && read -r name; } <"$root/release/from.txt"
        work=$(mktemp -d)
        download "$base/SHA256SUMS" "$work/SHA256SUMS" || status=$?
        [ "$status" -eq 0 ] || { rm -rf "$work"; refuse_restored "cannot be checked: no SHA256SUMS at $base"; }
        want=$(awk -v f="$name.tar.gz" '$2 == f || $2 == "*" f { print $1 }' "$work/SHA256SUMS")
        rm -rf "$work"
        got=$(sha256_of "$root/release/$name.tar.gz" 2>/dev/null || echo none)
        [ -n "$want" ] && [ "$got" = "$want" ] || refuse_restored "is an archive with SHA-256 $got, not ${want:-none} as the release's SHA256SUMS says"
        extract "$root" "$name"
        echo "Restored beast from the cache: $name.tar.gz checked again (SHA-256 $got)."
        return 0
    fi
    local exe=beast
    [ -f "$root/bin/beast.exe" ] && exe=beast.exe
    [ -f "$root/built.sha256" ] || refuse_restored "has no record of its SHA-256"
    local want got
    want=$(cat "$root/built.sha256")
    got=$(sha256_of "$root/bin/$exe" 2>/dev/null || echo none)
    [ "$got" = "$want" ] || refuse_restored "has SHA-256 $got, not $want as recorded when it was built"
    echo "Restored beast from the cache: SHA-256 $got, as recorded when it was built."
}

install() {
    local dir=$1 root=$2 ref=${ACTION_REF:-} repo=${ACTION_REPOSITORY:-} version
    # The runner keeps a downloaded action at .../_actions/OWNER/REPO/REF.
    local path=${GITHUB_ACTION_PATH:-$dir}
    case "$path" in
    */_actions/*/*/*)
        local tail=${path##*/_actions/}
        [ -z "$ref" ] && ref=${tail#*/*/}
        [ -z "$repo" ] && repo=${tail%/"${tail#*/*/}"}
        ;;
    esac
    version=$(package_version "$dir")
    if [ -n "$repo" ] && [ -n "$version" ]; then
        local status=0
        echo "The action at '${ref:-?}' is beast $version: looking for the release v$version."
        install_release "$root" "v$version" "$repo" || status=$?
        [ "$status" -eq 0 ] && return 0
        [ "$status" -ne 3 ] && exit "$status"
    else
        echo "The action's repository is not known (a local action): no release to download."
    fi
    echo "Building beast from source (cargo install --locked --path $dir)."
    "${CARGO:-cargo}" install --locked --path "$dir" --root "$root"
    local exe=beast
    [ -f "$root/bin/beast.exe" ] && exe=beast.exe
    # What verify compares a restored binary with.
    if [ -f "$root/bin/$exe" ]; then sha256_of "$root/bin/$exe" >"$root/built.sha256"; fi
}

case "${1:-}" in
key) key "${2:?usage: install.sh key DIR}" ;;
install) install "${2:?usage: install.sh install DIR ROOT}" "${3:?usage: install.sh install DIR ROOT}" ;;
verify) verify "${2:?usage: install.sh verify ROOT}" ;;
*)
    echo "usage: install.sh key DIR | install.sh install DIR ROOT | install.sh verify ROOT" >&2
    exit 2
    ;;
esac
