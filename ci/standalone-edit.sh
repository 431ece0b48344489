#!/usr/bin/env bash
# The walkthrough of a designer with one PuzzleScript file and the binary,
# in a folder that is no repository (no git, no levels/, no expectations/):
#
#   1. `check` before the first bless: every level new, none a failure,
#      exit 0, and the command that records them;
#   2. `bless` writes GAME.expectations.toml beside the game; `check` passes;
#   3. a comment added to the prelude stales nothing;
#   4. a level edited so that its par changes stales that level alone;
#      `review --list --json` lists it alone, `review --accept` takes it,
#      and `check` passes;
#   5. a level inserted is announced (the levels that moved) and listed as
#      new; `bless` moves the tables and records it; `check` passes;
#   6. the last level deleted: `check` fails on its table and names
#      `bless --prune`, which deletes it; `check` passes, and nothing is
#      left beside the game but the game and its expectations.
#
# Usage: bash ci/standalone-edit.sh   (from anywhere; a few seconds once built)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
# A designer's machine: not CI, so bless may write and changes are kept
# pending beside the expectations.
unset CI BLESS PUZZLE_QA_PENDING_DIR PUZZLE_QA_UPDATE
(cd "$repo" && cargo build --locked --release --quiet)
bin="$CARGO_TARGET_DIR/release/puzzle-qa"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
game=plate-warehouse.txt
expectations=plate-warehouse.expectations.toml
cp "$repo/tests/fixtures/standalone/$game" .
git rev-parse --git-dir >/dev/null 2>&1 && { echo "standalone-edit: $work is inside a repository" >&2; exit 1; }

fail() {
    echo "standalone-edit: $*" >&2
    exit 1
}

# run NAME EXPECTED-STATUS ARGS...: runs the binary, keeps its output in
# NAME.log and NAME.err, and fails unless it exits with EXPECTED-STATUS.
run() {
    local name=$1 expected=$2 status=0
    shift 2
    "$bin" "$@" >"$name.log" 2>"$name.err" || status=$?
    [ "$status" = "$expected" ] || {
        cat "$name.log" "$name.err"
        fail "\`puzzle-qa $*\` exited $status, not $expected"
    }
}

# replace FROM TO: replaces the text FROM (taken literally, one line or
# several) by TO in the game, or fails if it is not there.
replace() {
    python3 - "$game" "$1" "$2" <<'EOF' || fail "the game does not hold the text to replace"
import sys
path, old, new = sys.argv[1:]
text = open(path).read()
if text.count(old) != 1:
    sys.exit(1)
open(path, "w").write(text.replace(old, new))
EOF
}

# stale_levels: the levels `check --json` finds not ok, one per line.
stale_levels() {
    "$bin" check "$game" --json | python3 -c '
import json, sys
for line in sys.stdin:
    level = json.loads(line)
    if level["file"] and not all(check["ok"] for check in level["checks"].values()):
        print(level["level"])
'
}

echo "standalone-edit: check before the first bless"
run first 0 check "$game"
grep -q '^new levels (plate-warehouse.expectations.toml not written yet' first.log \
    || { cat first.log; fail "the levels are not reported as new"; }
grep -q '^failures:' first.log && fail "new levels are reported as failures"
grep -q '^to record them: `puzzle-qa bless plate-warehouse.txt`$' first.log \
    || fail "check does not name the command that records the new levels"
grep -q ', 0 failed, 25 new (what bless would record)$' first.log \
    || { tail -1 first.log; fail "the last line does not count the new checks"; }

echo "standalone-edit: bless"
run bless 0 bless "$game"
[ -f "$expectations" ] || fail "bless wrote no $expectations"
grep -q "^blessed (review $expectations):" bless.log || { cat bless.log; fail "bless does not name the file it wrote"; }
run blessed 0 check "$game"

echo "standalone-edit: a comment in the prelude stales nothing"
replace $'author puzzle-qa\n' $'author puzzle-qa\n(the warehouse opens at dawn)\n'
run comment 0 check "$game"
grep -Eq 'stale|FAIL' comment.log && { cat comment.log; fail "a comment staled a check"; }
[ ! -e "$expectations.pending" ] || fail "a comment left a pending change"

echo "standalone-edit: level 1 edited (par 3 → 2) stales level 1 alone"
replace $'#######\n#P.*.O#\n#######' $'#######\n#.P*.O#\n#######'
[ "$(stale_levels)" = 1 ] || { stale_levels; fail "not level 1 alone is stale"; }
run edited 1 check "$game"
grep -q 'the solver.s par is 2; the expectations say 3 (1 fewer: a shortcut)' edited.log \
    || fail "check does not say level 1's par changed"
run list 0 review --list --json
python3 - <<'EOF' || { cat list.log; fail "review --list --json does not list level 1 alone"; }
import json
changes = [json.loads(line) for line in open("list.log")]
assert [change["level"] for change in changes] == ["puzzlescript::plate-warehouse::1"], changes
assert {"key": "par", "owner": "machine", "before": 3, "after": 2, "regression": False} in changes[0]["changes"]
EOF
run accept 0 review --accept
grep -q '^accepted puzzlescript::plate-warehouse::1: plate-warehouse.expectations.toml: .*par: 3 → 2' accept.log \
    || { cat accept.log; fail "review --accept did not write level 1's par"; }
run accepted 0 check "$game"
[ ! -e "$expectations.pending" ] || fail "a pending file is left after the review"

echo "standalone-edit: a level inserted before level 2"
replace $'message A crate on the plate' $'message One more push.\n\n######\n#P*.O#\n######\n\nmessage A crate on the plate'
run inserted 1 check "$game"
grep -q 'levels 2–5 moved down by one (now 3–6). Run `puzzle-qa bless plate-warehouse.txt`' inserted.log \
    || { cat inserted.log; fail "the levels that moved are not announced"; }
grep -q '^    puzzlescript::plate-warehouse::2  solved, par 2: RR$' inserted.log \
    || fail "the inserted level is not listed as new"
run renumber 0 bless "$game"
grep -q 'renumbered: levels 2–5 moved down by one (now 3–6)' renumber.log \
    || { cat renumber.log; fail "bless does not say it moved the tables"; }
run renumbered 0 check "$game"

echo "standalone-edit: the last level deleted"
python3 - "$game" <<'EOF'
import sys
path = sys.argv[1]
text = open(path).read()
cut = text.index("message The gate stays open")
open(path, "w").write(text[:cut])
EOF
run deleted 1 check "$game"
grep -q 'table \[6\] belongs to no level (plate-warehouse.txt holds 5 levels): delete it, or run `puzzle-qa bless --prune plate-warehouse.txt`' deleted.log \
    || { cat deleted.log; fail "the deleted level's table is not reported"; }
run prune 0 bless --prune "$game"
grep -q '^pruned from plate-warehouse.expectations.toml: \[6\]' prune.log || { cat prune.log; fail "prune did not delete table [6]"; }
run pruned 0 check "$game"

left=$(ls -A | grep -Ev '\.(log|err)$' | sort | tr '\n' ' ')
[ "$left" = "$expectations $game " ] || fail "files are left beside the game: $left"
echo "standalone-edit: passed"
