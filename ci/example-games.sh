#!/usr/bin/env bash
# Regenerates README's table of the example games: `puzzle-qa solve --json
# --level N` on every level of every PuzzleScript file of a folder, one
# level at a time, then one Markdown row a game.
# Not part of .ci/run: on 2 cores the 188 levels take tens of minutes.
#
#   ci/example-games.sh DIR [SECONDS] [-- SOLVE-FLAGS…]
#
# SECONDS (default 1800) bounds one level's wall time; a level cut short
# counts in the "not run to the end" column, its par shown as `?`. SOLVE-FLAGS go to every `solve` (for example `--memory 1GiB`).
# The raw JSON lines are kept in target/example-games/ for a later look,
# each with the level's wall time (`wall_ms`). PUZZLE_QA names another
# binary to run (say, an older build kept for a before-and-after table);
# without it the script builds this checkout's.
set -euo pipefail
dir=${1:?usage: ci/example-games.sh DIR [SECONDS] [-- SOLVE-FLAGS…]}
shift
seconds=1800
if [ $# -gt 0 ] && [ "$1" != "--" ]; then seconds=$1; shift; fi
[ "${1:-}" = "--" ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${PUZZLE_QA:-}" ]; then
  bin=$PUZZLE_QA
else
  cargo build --release --quiet --manifest-path "$root/Cargo.toml"
  bin=$root/target/release/puzzle-qa
fi
out=$root/target/example-games
mkdir -p "$out"
for game in "$dir"/*.txt; do
  name=$(basename "$game" .txt)
  start=$(date +%s)
  : >"$out/$name.jsonl"
  n=1
  while :; do
    rc=0
    began=$(date +%s%N)
    timeout "$seconds" "$bin" solve "$game" --level "$n" --json "$@" >"$out/$name.$n.json" 2>"$out/$name.$n.err" || rc=$?
    # Exit 2 past the last level ("there is no level N"); 124: timed out.
    if [ "$rc" = 2 ] && grep -q "there is no level" "$out/$name.$n.err"; then break; fi
    wall_ms=$(( ($(date +%s%N) - began) / 1000000 ))
    if [ "$rc" = 124 ]; then
      echo "{\"level\": $n, \"status\": \"cut\", \"par\": null, \"wall_ms\": $wall_ms}" >>"$out/$name.jsonl"
    elif [ "$rc" = 0 ] || [ "$rc" = 1 ]; then
      python3 -c 'import json, sys; line = json.load(open(sys.argv[1])); line["wall_ms"] = int(sys.argv[2]); print(json.dumps(line))' \
        "$out/$name.$n.json" "$wall_ms" >>"$out/$name.jsonl"
    else
      echo "$name level $n: solve exited $rc; see $out/$name.$n.err" >&2
      exit 1
    fi
    n=$((n + 1))
  done
  echo "$name: $(( $(date +%s) - start )) s" >&2
done
python3 - "$dir" "$out" <<'PY'
import json, pathlib, sys
games, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
print("| game | levels | solved | limit | random | realtime | not run to the end | wall time | pars, level by level (`-`: no par) |")
print("|---|---|---|---|---|---|---|---|---|")
total = dict(levels=0, solved=0, limit=0, random=0, realtime=0, cut=0, wall_ms=0)
for game in sorted(games.glob("*.txt")):
    lines = [json.loads(l) for l in (out / f"{game.stem}.jsonl").read_text().splitlines() if l.strip()]
    cut = sum(1 for l in lines if l["status"] == "cut")
    count = {s: sum(1 for l in lines if l["status"] == s) for s in ("solved", "limit", "random", "realtime")}
    pars = " ".join("?" if l["status"] == "cut" else str(l["par"]) if l["par"] is not None else "-" for l in lines)
    wall_ms = sum(l.get("wall_ms", 0) for l in lines)
    print(f"| `{game.stem}` | {len(lines)} | {count['solved']} | {count['limit']} | {count['random']} | {count['realtime']} | {cut or ''} | {wall_ms / 1000:.2f} s | {pars} |")
    total["levels"] += len(lines)
    total["wall_ms"] += wall_ms
    for s in ("solved", "limit", "random", "realtime"):
        total[s] += count[s]
    total["cut"] += cut
print(f"| **all** | {total['levels']} | {total['solved']} | {total['limit']} | {total['random']} | {total['realtime']} | {total['cut']} | {total['wall_ms'] / 1000:.1f} s | |")
PY
