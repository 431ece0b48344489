#!/usr/bin/env bash
# Regenerates README's table of the example games: `puzzle-qa solve --json`
# on every PuzzleScript file of a folder, one game at a time (each game's
# levels run in parallel inside the process), then one Markdown row a game.
# Not part of .ci/run: on 2 cores the 188 levels take tens of minutes.
#
#   ci/example-games.sh DIR [SECONDS] [-- SOLVE-FLAGS…]
#
# SECONDS (default 1800) bounds one game's wall time; a game cut short is
# named in the "not run to the end" column, with the seconds it had. SOLVE-FLAGS go to every `solve` (for example `--memory 1GiB`).
# The raw JSON lines are kept in target/example-games/ for a later look.
set -euo pipefail
dir=${1:?usage: ci/example-games.sh DIR [SECONDS] [-- SOLVE-FLAGS…]}
shift
seconds=1800
if [ $# -gt 0 ] && [ "$1" != "--" ]; then seconds=$1; shift; fi
[ "${1:-}" = "--" ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin=$root/target/release/puzzle-qa
out=$root/target/example-games
mkdir -p "$out"
for game in "$dir"/*.txt; do
  name=$(basename "$game" .txt)
  start=$(date +%s)
  # A game cut short by the timeout keeps the lines it printed.
  rc=0
  timeout "$seconds" "$bin" solve "$game" --json "$@" >"$out/$name.jsonl" 2>"$out/$name.err" || rc=$?
  echo "$rc" >"$out/$name.rc"
  echo "$name: $(( $(date +%s) - start )) s" >&2
done
python3 - "$dir" "$out" <<'PY'
import json, pathlib, re, sys
games, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
print("| game | levels | solved | limit | random | realtime | not run to the end | pars, level by level (`-`: no par) |")
print("|---|---|---|---|---|---|---|---|")
total = dict(levels=0, solved=0, limit=0, random=0, realtime=0, cut=0)
for game in sorted(games.glob("*.txt")):
    lines = [json.loads(l) for l in (out / f"{game.stem}.jsonl").read_text().splitlines() if l.strip()]
    # `timeout` exits 124 when it stopped the game; solve's own exits are 0 and 1.
    rc = int((out / f"{game.stem}.rc").read_text())
    if rc not in (0, 1, 124):
        sys.exit(f"{game.stem}: solve exited {rc}; see {out / (game.stem + '.err')}")
    cut = f"cut after {len(lines)} levels" if rc == 124 else ""
    count = {s: sum(1 for l in lines if l["status"] == s) for s in ("solved", "limit", "random", "realtime")}
    pars = " ".join(str(l["par"]) if l["par"] is not None else "-" for l in lines)
    print(f"| `{game.stem}` | {len(lines)} | {count['solved']} | {count['limit']} | {count['random']} | {count['realtime']} | {cut} | {pars} |")
    total["levels"] += len(lines)
    for s in ("solved", "limit", "random", "realtime"):
        total[s] += count[s]
    total["cut"] += 1 if cut else 0
print(f"| **all** | {total['levels']} | {total['solved']} | {total['limit']} | {total['random']} | {total['realtime']} | {total['cut']} | |")
PY
