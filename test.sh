#!/usr/bin/env bash
# The whole test suite: formatting, Checkstyle, architecture rules and every module's tests.
# Usage: ./test.sh [extra Maven arguments]      (README.md "Run the tests")
set -euo pipefail
cd "$(dirname "$0")"
source scripts/jdk.sh
echo "test.sh: JDK $JAVA_HOME" >&2
exec mvn -B -ntp -Dstyle.color=never verify "$@"
