#!/usr/bin/env bash
# Compares a benchmark run with the stored baseline, using Google Benchmark's
# compare.py (Debian: libbenchmark-tools; needs python3-numpy python3-scipy).
#
#   bench/compare.sh [BASELINE [CONTENDER]]
#     BASELINE   default bench/baseline.json
#     CONTENDER  default build/bench/results.json, written by
#                ./build/bench/wk_bench --benchmark_out=build/bench/results.json --benchmark_out_format=json
#
# Prints compare.py's table (Time/CPU columns: relative change, negative is
# faster). Exit status is compare.py's, unless WK_BENCH_MAX_SLOWDOWN is set
# (e.g. 0.25): then it is 1 when any benchmark's real time grew by more than
# that fraction. Absolute times drift on shared machines; compare runs taken
# on the same machine, quiet, and rerun a flagged benchmark before trusting it.
# PYTHON overrides the interpreter (default: /usr/bin/python3, which sees the
# Debian packages, else python3).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

baseline="${1:-bench/baseline.json}"
contender="${2:-build/bench/results.json}"
compare_py=/usr/share/benchmark/compare.py

if [[ -z "${PYTHON:-}" ]]; then
  if [[ -x /usr/bin/python3 ]]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi

for f in "$compare_py" "$baseline" "$contender"; do
  if [[ ! -f "$f" ]]; then
    echo "compare.sh: $f not found" >&2
    exit 2
  fi
done
if ! "$PYTHON" -c 'import numpy, scipy' 2>/dev/null; then
  echo "compare.sh: $PYTHON cannot import numpy and scipy (apt-get install python3-numpy python3-scipy)" >&2
  exit 2
fi

color=()
[[ -t 1 ]] || color=(--no-color)

if [[ -z "${WK_BENCH_MAX_SLOWDOWN:-}" ]]; then
  exec "$PYTHON" "$compare_py" "${color[@]}" benchmarks "$baseline" "$contender"
fi

dump="$(mktemp)"
trap 'rm -f "$dump"' EXIT
"$PYTHON" "$compare_py" "${color[@]}" -d "$dump" benchmarks "$baseline" "$contender"
"$PYTHON" - "$dump" "$WK_BENCH_MAX_SLOWDOWN" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
limit = float(sys.argv[2])
slow = []
for row in rows:
    if row.get("run_type") == "aggregate":
        continue
    for m in row.get("measurements", []):
        if m.get("time", 0.0) > limit:
            slow.append((row["name"], m["time"]))
for name, change in slow:
    print(f"REGRESSION {name}: real time +{change * 100:.1f}% (limit +{limit * 100:.0f}%)")
sys.exit(1 if slow else 0)
PY
