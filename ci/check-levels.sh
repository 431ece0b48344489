#!/usr/bin/env bash
# ci/check-levels.sh [--shards N] [--base REV]
#
# The merge gate of ci/level-gate.yml, locally, in one command:
#   1. lists the tests twice with cargo-nextest and checks the two lists are
#      identical (sharding by hash needs a stable list);
#   2. runs the suite with the `ci` nextest profile: all at once, or with
#      --shards N as N partitions (`--partition hash:K/N`, K = 1..N), one
#      after the other, as the workflow's matrix jobs would;
#   3. reads each run's JUnit report (target/nextest/ci/junit.xml) and checks
#      that every listed test, each (level, check) trial included, ran
#      exactly once across the partitions;
#   4. runs `puzzle-qa report` against REV (default: the merge-base with the
#      default branch, else the previous commit), which fails on stale
#      expectations and failing checks.
# Exit status: 0 all passed; 1 a test, the accounting or the report failed;
# 2 bad usage or cargo-nextest missing. Needs bash, git, cargo-nextest and
# POSIX tools (grep, sed, sort, uniq, comm, cmp).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    sed -n '2,3p' "$0" | sed 's/^# \{0,1\}//'
}

SHARDS=""
BASE=""
while [ $# -gt 0 ]; do
    case "$1" in
    --shards) SHARDS="${2-}"; shift $(( $# > 1 ? 2 : 1 )) ;;
    --shards=*) SHARDS="${1#*=}"; shift ;;
    --base) BASE="${2-}"; shift $(( $# > 1 ? 2 : 1 )) ;;
    --base=*) BASE="${1#*=}"; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "error: unknown argument \`$1\`" >&2; usage >&2; exit 2 ;;
    esac
done
if [ -n "$SHARDS" ] && ! [[ $SHARDS =~ ^[1-9][0-9]*$ ]]; then
    echo "error: --shards needs a whole number of 1 or more, not \`$SHARDS\`" >&2
    exit 2
fi
if ! cargo nextest --version >/dev/null 2>&1; then
    echo "error: cargo-nextest is not installed" >&2
    echo "  = hint: cargo install cargo-nextest --locked (or see https://nexte.st)" >&2
    exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# nextest keeps its reports under the workspace root, whatever CARGO_TARGET_DIR says.
junit=target/nextest/ci/junit.xml
failed=0
started=$SECONDS

# 1. Two listings, byte for byte the same (the first one builds the tests).
cargo nextest list --locked --message-format oneline >"$work/list-1"
cargo nextest list --locked --message-format oneline >"$work/list-2"
if ! cmp -s "$work/list-1" "$work/list-2"; then
    echo "error: two \`cargo nextest list\` runs differ, so hash partitions would not be stable:" >&2
    diff "$work/list-1" "$work/list-2" >&2 || true
    exit 1
fi
sort "$work/list-1" >"$work/listed"
listed=$(wc -l <"$work/listed")
echo "listed $listed tests, twice, identically"

# `<binary-id> <test name>` for every <testcase> of a JUnit report.
testcases() {
    grep -o '<testcase [^>]*' "$1" >"$work/cases" || true
    sed -n 's/^.* classname="\([^"]*\)".*$/\1/p' "$work/cases" >"$work/classes"
    sed -n 's/^.* name="\([^"]*\)".*$/\1/p' "$work/cases" >"$work/names"
    paste -d ' ' "$work/classes" "$work/names" |
        sed -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' -e "s/&apos;/'/g" -e 's/&amp;/\&/g'
}

# 2. The runs: the whole suite, or each partition in turn.
parts=${SHARDS:-1}
: >"$work/ran"
for SHARD in $(seq 1 "$parts"); do
    rm -f "$junit"
    if [ -z "$SHARDS" ]; then
        echo "== the whole suite"
        cargo nextest run --locked --profile ci || failed=1
    else
        echo "== shard $SHARD/$SHARDS"
        cargo nextest run --locked --profile ci --partition "hash:$SHARD/$SHARDS" || failed=1
    fi
    if [ ! -f "$junit" ]; then
        echo "error: the run wrote no JUnit report at $junit (is [profile.ci.junit] in .config/nextest.toml?)" >&2
        exit 1
    fi
    testcases "$junit" >"$work/ran-$SHARD"
    echo "   $(wc -l <"$work/ran-$SHARD") tests ran, $(grep -c '::levels ' "$work/ran-$SHARD" || true) of them level trials"
    cat "$work/ran-$SHARD" >>"$work/ran"
done

# 3. Every listed test ran exactly once.
sort "$work/ran" >"$work/ran-sorted"
uniq -d "$work/ran-sorted" >"$work/twice"
uniq "$work/ran-sorted" >"$work/ran-once"
comm -23 "$work/listed" "$work/ran-once" >"$work/never"
comm -13 "$work/listed" "$work/ran-once" >"$work/unlisted"
if [ -s "$work/twice" ] || [ -s "$work/never" ] || [ -s "$work/unlisted" ]; then
    failed=1
    [ -s "$work/twice" ] && { echo "error: ran more than once:"; cat "$work/twice"; } >&2
    [ -s "$work/never" ] && { echo "error: listed but never ran:"; cat "$work/never"; } >&2
    [ -s "$work/unlisted" ] && { echo "error: ran but not listed:"; cat "$work/unlisted"; } >&2
else
    echo "every one of the $listed listed tests ran exactly once across $parts run(s)" \
        "($(grep -c '::levels ' "$work/listed" || true) level trials)"
fi
tests_done=$SECONDS

# 4. The change report, against the merge-base with the default branch or
#    the previous commit.
if [ -z "$BASE" ]; then
    head=$(git rev-parse HEAD)
    default=$(git symbolic-ref --quiet --short refs/remotes/origin/HEAD 2>/dev/null || true)
    for branch in $default origin/main main origin/master master; do
        if git rev-parse --verify --quiet "$branch^{commit}" >/dev/null; then
            fork=$(git merge-base HEAD "$branch" || true)
            if [ -n "$fork" ] && [ "$fork" != "$head" ]; then
                BASE=$fork
                echo "== report against the merge-base with $branch (${fork:0:10})"
            fi
            break
        fi
    done
fi
if [ -z "$BASE" ] && git rev-parse --verify --quiet 'HEAD~1^{commit}' >/dev/null; then
    BASE=HEAD~1
    echo "== report against the previous commit"
fi
if [ -z "$BASE" ]; then
    echo "report skipped: no earlier commit to compare with (a first commit, or a shallow clone:" \
        "\`git fetch --deepen 1\`), or pass --base REV"
else
    cargo run --locked --release --quiet -- report --base "$BASE" || failed=1
fi

echo
echo "tests: $((tests_done - started)) s; report: $((SECONDS - tests_done)) s"
if [ "$failed" -ne 0 ]; then
    echo "check-levels: FAILED (see above)"
    exit 1
fi
echo "check-levels: all passed"
