#!/usr/bin/env bash
# The whole test suite (README "Run the tests"): formatting, Checkstyle, architecture rules and
# every module's tests (mvn verify), then the Helm chart checks (helm/test.sh). Ends with one
# summary line over both. Extra arguments go to Maven, e.g. ./test.sh -Plong or -pl ledger -am.
set -uo pipefail
cd "$(dirname "$0")"
source scripts/jdk.sh
echo "test.sh: JDK $JAVA_HOME" >&2

log=$(mktemp -t rubin-test.XXXXXX)
trap 'rm -f "$log"' EXIT

mvn -B -ntp -Dstyle.color=never -Drubin.commit="$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
  verify "$@" 2>&1 | tee "$log"
maven_status=${PIPESTATUS[0]}

# Per-module Surefire totals are the lines without " -- in <class>".
read -r run failed < <(grep -E '^\[(INFO|ERROR|WARNING)\] Tests run: [0-9]+, ' "$log" \
  | grep -v ' -- in ' \
  | sed -E 's/.*Tests run: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+), Skipped: ([0-9]+).*/\1 \2 \3 \4/' \
  | awk '{r += $1 - $4; f += $2 + $3} END {print r + 0, f + 0}')

helm_status=0
if [ $# -eq 0 ]; then
  helm/test.sh | tee -a "$log"
  helm_status=${PIPESTATUS[0]}
  read -r hp hf < <(sed -nE 's/^helm: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$log" | tail -1)
  run=$((run + ${hp:-0} + ${hf:-0}))
  failed=$((failed + ${hf:-0}))
fi

passed=$((run - failed))
if [ "$maven_status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "test.sh: the Maven build failed before or outside the tests (see above)" >&2
  failed=1
fi
echo "tests: $passed passed, $failed failed"
[ "$maven_status" -eq 0 ] && [ "$helm_status" -eq 0 ]
