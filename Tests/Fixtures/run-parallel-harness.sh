#!/usr/bin/env bash
# Builds Tests/Fixtures/ParallelHarness (an app team's test package: several suites in several files, each
# test with its own AppConnectHarness) and runs it RUNS times (default 20) with plain `swift test`, timing
# each run; exits 1 at the first failed run. `swift test` on this package runs it 3 times (ParallelFixtureTests).
set -euo pipefail
cd "$(dirname "$0")/ParallelHarness"
runs=${1:-20}
scratch=../../../.build/fixtures/ParallelHarness
start=$(date +%s)
swift build --build-tests --scratch-path "$scratch" >/dev/null
echo "built in $(($(date +%s) - start)) s"
for run in $(seq 1 "$runs"); do
    begin=$(date +%s.%N)
    if ! swift test --scratch-path "$scratch" >/tmp/parallel-harness-run.log 2>&1; then
        echo "run $run of $runs FAILED:"
        cat /tmp/parallel-harness-run.log
        exit 1
    fi
    echo "run $run of $runs passed in $(echo "$(date +%s.%N) - $begin" | bc) s"
done
echo "$runs of $runs runs passed"
