#!/usr/bin/env bash
# The whole test suite (README "Run the tests"): formatting, Checkstyle, architecture rules and
# every module's tests (mvn verify, --fail-at-end: a failing module stops only the ones built on it), then the Helm chart checks (helm/test.sh), then rdma-net's
# real-verbs tests in the Soft-RoCE guest (scripts/rdma-vm-tests.sh; a machine that cannot run
# the guest fails here, saying why). Ends with one summary line over all three. Extra arguments
# go to Maven and leave out the Helm and VM stages, e.g. ./test.sh -Plong or -pl ledger (a module
# chosen with -pl is built with the modules it needs).
set -uo pipefail
cd "$(dirname "$0")"
source scripts/jdk.sh
echo "test.sh: JDK $JAVA_HOME" >&2

log=$(mktemp -t rubin-test.XXXXXX)
trap 'rm -f "$log" "${vmlog:-}"' EXIT

# A module chosen with -pl is built with the modules it needs (the test data module, for one, is
# not installed anywhere), and a -Dtest filter then matches nothing in those without failing.
maven_args=("$@")
if [[ " $* " == *" -pl "* ]]; then
  [[ " $* " == *" -am "* ]] || maven_args+=(-am)
  maven_args+=(-Dsurefire.failIfNoSpecifiedTests=false)
fi

mvn -B -ntp -fae -Dstyle.color=never -Drubin.commit="$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
  verify "${maven_args[@]}" 2>&1 | tee "$log"
maven_status=${PIPESTATUS[0]}

# Per-module Surefire totals are the lines without " -- in <class>".
read -r run failed < <(grep -E '^\[(INFO|ERROR|WARNING)\] Tests run: [0-9]+, ' "$log" \
  | grep -v ' -- in ' \
  | sed -E 's/.*Tests run: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+), Skipped: ([0-9]+).*/\1 \2 \3 \4/' \
  | awk '{r += $1 - $4; f += $2 + $3} END {print r + 0, f + 0}')

helm_status=0
vm_status=0
if [ $# -eq 0 ]; then
  helm/test.sh | tee -a "$log"
  helm_status=${PIPESTATUS[0]}
  read -r hp hf < <(sed -nE 's/^helm: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$log" | tail -1)
  run=$((run + ${hp:-0} + ${hf:-0}))
  failed=$((failed + ${hf:-0}))

  vmlog=$(mktemp -t rubin-rdma-vm.XXXXXX)
  RDMA_VM_REQUIRED=1 scripts/rdma-vm-tests.sh 2>&1 | tee "$vmlog"
  vm_status=${PIPESTATUS[0]}
  # The JUnit console launcher's summary: "[  25 tests successful  ]", "[  0 tests failed  ]"
  # (through the guest's console, so lines end in CR LF).
  vp=$(sed -nE 's/^\[ *([0-9]+) tests successful *\][[:space:]]*$/\1/p' "$vmlog" | tail -1)
  vf=$(sed -nE 's/^\[ *([0-9]+) tests failed *\][[:space:]]*$/\1/p' "$vmlog" | tail -1)
  rm -f "$vmlog"
  if [ "$vm_status" -ne 0 ] && [ "${vf:-0}" -eq 0 ]; then
    echo "test.sh: the rdma-vm suite did not complete (exit status $vm_status, see above)" >&2
    vf=1
  fi
  run=$((run + ${vp:-0} + ${vf:-0}))
  failed=$((failed + ${vf:-0}))
fi

# Name every failed test class and its first lines of cause, so that a CI log cut to its last
# page still says what failed.
if [ "$failed" -gt 0 ]; then
  for report in */target/surefire-reports/*.txt; do
    [ -f "$report" ] || continue
    grep -qE '<<< (FAILURE|ERROR)!' "$report" || continue
    echo "test.sh: failed in $report:" >&2
    grep -E -A3 '<<< (FAILURE|ERROR)!' "$report" | grep -v -- '^--$' | cut -c1-400 | head -24 >&2
  done
fi

passed=$((run - failed))
if [ "$maven_status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "test.sh: the Maven build failed before or outside the tests (see above)" >&2
  failed=1
fi
echo "tests: $passed passed, $failed failed"
[ "$maven_status" -eq 0 ] && [ "$helm_status" -eq 0 ] && [ "$vm_status" -eq 0 ]
