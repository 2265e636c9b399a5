#!/usr/bin/env bash
# The suite's check that no test depends on the machine's speed or the real clock (CONTRIBUTING.md):
# the tab and server tests five runs in a row while another process keeps one core busy. It stops
# at the first run that fails, says how long each run took, and always stops the busy process.
# Run `npm run build` first. Arguments name other test folders or files; RUNS sets how many runs.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$#" -eq 0 ]; then set -- test/tab test/server; fi
runs=${RUNS:-5}

node -e 'for (;;) {}' &
busy=$!
stop_busy() { kill "$busy" 2>/dev/null || true; }
trap stop_busy EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

summary=()
status=0
for run in $(seq 1 "$runs"); do
  started=$SECONDS
  if npx vitest run "$@"; then outcome=passed; else outcome=failed; status=1; fi
  summary+=("run $run of $runs: $outcome in $((SECONDS - started)) s")
  [ "$status" -eq 0 ] || break
done

echo
echo "With one core kept busy ($*):"
printf '  %s\n' "${summary[@]}"
exit "$status"
