#!/usr/bin/env bash
# The designer's walkthrough, proved on a copy of this repository: edit one
# level of each game and one expectation file, then run the README's
# commands as a designer would.
#
#   1. plain `cargo test` reaches the level suite, shows each edited level's
#      diff, fails only the edited levels' trials, and keeps each one's
#      change as a pending file, naming `puzzle-qa review`;
#   2. every other test passes (`cargo test --no-fail-fast` fails in the
#      level suite alone);
#   3. once the designer drops the claim bless may not touch (the shortcut
#      makes a route marked `optimal` one move above par), `puzzle-qa
#      review` rejects the hand-edited par's change (the designer then
#      undoes the edit) and accepts the others, and plain `cargo test`
#      passes; `BLESS=1 cargo test` then changes nothing;
#   4. the copy's `git status` shows the edited levels and their accepted
#      expectations, nothing else, and no pending, .snap.new or temporary
#      file is left, ignored or not;
#   5. `BLESS` with a value it does not understand stops the suite.
#
# The copy shares this checkout's target folder (CARGO_TARGET_DIR), as a
# second clone sharing a cache would: the test binaries may be the ones
# built here, so the level suite must find the copy from cargo's run-time
# CARGO_MANIFEST_DIR, not from the path compiled into it.
#
# Usage: bash ci/designer-edit.sh   (from anywhere; takes a few minutes)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
# A designer's machine: not CI, so bless may write and changes are kept
# pending beside the expectations.
unset CI BLESS PUZZLE_QA_PENDING_DIR PUZZLE_QA_UPDATE
copy="$work/repository"
mkdir "$copy"
(cd "$repo" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$copy"
cd "$copy"
git init -q
git add -A
git -c user.name=ci -c user.email=ci@localhost commit -qm "the repository as cloned"

fail() {
    echo "designer-edit: $*" >&2
    exit 1
}

# edit FILE LINE FROM TO: replaces the text FROM (taken literally) by TO at
# the start of line LINE, or fails if the line does not start with FROM.
edit() {
    local file=$1 line=$2 from=$3 to=$4
    awk -v n="$line" -v from="$from" -v to="$to" '
        NR == n { if (index($0, from) != 1) { bad = 1 } else { $0 = to substr($0, length(from) + 1) } }
        { print }
        END { exit bad }
    ' "$file" >"$file.edited" || fail "$file:$line does not start with '$from'"
    mv "$file.edited" "$file"
}
# Bloxorz level 1: a tile next to the goal opens a shortcut (par 7 → 6).
edit levels/bloxorz/level01.txt 6 'x x x x x p' 'x x x x p p'
# Hug Maze level 1: a wall taken out of the middle (par 14 → 10).
edit levels/hugmaze/01-first-hug.txt 5 '#.###' '#.#.#'
# Snack Run level 1: a new snack beside the bears' start.
edit levels/snackrun/01-first-hops.txt 10 'B.D..' 'B.Do.'
# An expectation file edited by hand: Hug Maze level 2's par.
edit expectations/hugmaze/02-mouse-hole.toml 2 'par = 12' 'par = 13'
edited='bloxorz::level01:: hugmaze::01-first-hug:: hugmaze::02-mouse-hole:: snackrun::01-first-hops::'

echo "designer-edit: cargo test (expected to fail on the edited levels only)"
if cargo test >"$work/test.log" 2>&1; then
    fail "cargo test passed after the edits; see $work/test.log"
fi
grep -q 'Running tests/levels.rs' "$work/test.log" \
    || { tail -40 "$work/test.log"; fail "cargo test stopped before the level suite"; }
grep -q -- '-par = 7' "$work/test.log" && grep -q -- '+par = 6' "$work/test.log" \
    || fail "the level suite did not show level01's par diff"
# The failing trials, from libtest's summary of the level suite.
failing=$(sed -n '/^failures:$/,/^test result/p' "$work/test.log" | grep -E '^    [a-z]+::' | sed 's/^ *//' | sort -u)
[ -n "$failing" ] || fail "no failing trial was listed"
for trial in $failing; do
    ok=no
    for level in $edited; do
        case $trial in "$level"*) ok=yes ;; esac
    done
    [ $ok = yes ] || fail "trial $trial failed, but its level was not edited"
done
for level in $edited; do
    echo "$failing" | grep -q "^$level" || fail "no trial of $level failed"
done
echo "designer-edit: failing trials, all of edited levels:" $failing
grep -q 'pending: expectations/bloxorz/level01.toml.pending holds what bless would write; review it with `puzzle-qa review`' "$work/test.log" \
    || fail "the failure message does not name the pending file and \`puzzle-qa review\`"
pending=$(find expectations -name '*.pending' | sort)
expected_pending=$(printf '%s\n' \
    expectations/bloxorz/level01.toml.pending \
    expectations/hugmaze/01-first-hug.toml.pending \
    expectations/hugmaze/02-mouse-hole.toml.pending \
    expectations/snackrun/01-first-hops.toml.pending | sort)
[ "$pending" = "$expected_pending" ] || { echo "$pending"; fail "the pending files are not the edited levels'"; }

echo "designer-edit: cargo test --no-fail-fast (only the level suite may fail)"
cargo test --no-fail-fast >"$work/all.log" 2>&1 || true
failed_binaries=$(grep -c '^test result: FAILED' "$work/all.log" || true)
[ "$failed_binaries" = 1 ] || { grep -E '^test result|^error: test failed' "$work/all.log"; fail "$failed_binaries test binaries failed, not 1"; }
grep -q 'error: test failed, to rerun pass `-p puzzle-qa --test levels`' "$work/all.log" \
    || { grep -E '^error' "$work/all.log"; fail "a test other than the level suite failed"; }

echo "designer-edit: BLESS=maybe cargo test --test levels (refused)"
if BLESS=maybe cargo test --test levels >"$work/maybe.log" 2>&1; then
    fail "BLESS=maybe was accepted"
fi
grep -q 'BLESS=maybe is not understood' "$work/maybe.log" || fail "BLESS=maybe did not say why"

# The shortcut makes level 1's published route, marked `optimal = true`,
# one roll above par. That claim is the designer's: bless never rewrites
# it, and `routes` says what to do. Do it, as README's walkthrough says.
grep -q 'route `published` is 1 move above par (6), but it is marked `optimal = true`' "$work/test.log" \
    || fail "routes did not report level01's published route above par"
grep -q '^optimal = true$' expectations/bloxorz/level01.toml || fail "level01 has no optimal route"
sed -i '/^optimal = true$/d' expectations/bloxorz/level01.toml

review() {
    cargo run --locked --release --quiet -- review "$@"
}
echo "designer-edit: puzzle-qa review"
review --list >"$work/list.log" || fail "review --list failed"
[ "$(wc -l <"$work/list.log")" = 4 ] || { cat "$work/list.log"; fail "review --list does not list the 4 changes"; }
grep -q '^hugmaze::02-mouse-hole: a shortcut: par 13 → 12$' "$work/list.log" \
    || { cat "$work/list.log"; fail "review --list does not say the hand-edited par goes back"; }
# The hand edit was a mistake: reject the change, then undo the edit.
review --reject hugmaze::02-mouse-hole || fail "review --reject failed"
[ ! -e expectations/hugmaze/02-mouse-hole.toml.pending ] || fail "the rejected change is still pending"
grep -q '^par = 13' expectations/hugmaze/02-mouse-hole.toml || fail "rejecting changed the expectation file"
git checkout -q -- expectations/hugmaze/02-mouse-hole.toml
review --accept >"$work/accept.log" || { cat "$work/accept.log"; fail "review --accept failed"; }
grep -q '^accepted bloxorz::level01: expectations/bloxorz/level01.toml: par: 7 → 6' "$work/accept.log" \
    || { cat "$work/accept.log"; fail "review --accept did not write level01's par"; }
echo "designer-edit: cargo test"
cargo test >"$work/after.log" 2>&1 || { tail -60 "$work/after.log"; fail "cargo test failed after the review"; }
echo "designer-edit: BLESS=1 cargo test (nothing left to bless)"
BLESS=1 cargo test >"$work/bless.log" 2>&1 || { tail -60 "$work/bless.log"; fail "BLESS=1 cargo test failed"; }
grep -q '^blessed (' "$work/bless.log" && fail "bless found something the review left"

changed=$(git status --porcelain --untracked-files=all | sort)
expected=$(printf '%s\n' \
    ' M expectations/bloxorz/level01.toml' \
    ' M expectations/hugmaze/01-first-hug.toml' \
    ' M expectations/snackrun/01-first-hops.toml' \
    ' M levels/bloxorz/level01.txt' \
    ' M levels/hugmaze/01-first-hug.txt' \
    ' M levels/snackrun/01-first-hops.txt' | sort)
[ "$changed" = "$expected" ] || { echo "$changed"; fail "git status is not just the edits and their accepted expectations"; }
leftover=$(git status --porcelain --ignored --untracked-files=all -- levels expectations | grep '^!!' || true)
[ -z "$leftover" ] || { echo "$leftover"; fail "files are left beside the levels or expectations"; }
grep -q '^par = 6' expectations/bloxorz/level01.toml || fail "review did not write par 6 for level01"
echo "designer-edit: passed"
