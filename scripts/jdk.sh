# shellcheck shell=bash
# Sourced by every script of this project: selects a JDK >= 25 and exports JAVA_HOME and PATH.
# Order: $JAVA_HOME if it is >= 25; else the newest JDK >= 25 under /usr/lib/jvm; else fail with
# a message that says what to install. (The machine's default `java` is 17, so this matters.)

RUBIN_MIN_JAVA=25

# Prints the feature release of the JDK at $1 (e.g. 25), or nothing if $1 holds no JDK.
# With RUBIN_RUNTIME_ONLY=1 (the distribution's launcher) a Java runtime without javac counts too.
rubin_jdk_feature() {
  local home=$1 release
  [ -x "$home/bin/java" ] || return 0
  [ -n "${RUBIN_RUNTIME_ONLY:-}" ] || [ -x "$home/bin/javac" ] || return 0
  if [ -f "$home/release" ]; then
    release=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")
  fi
  if [ -z "${release:-}" ]; then
    release=$("$home/bin/java" -XshowSettings:properties -version 2>&1 |
      sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p')
  fi
  echo "${release:-}"
}

rubin_find_jdk() {
  local candidate feature best="" best_feature=0
  if [ -n "${JAVA_HOME:-}" ]; then
    feature=$(rubin_jdk_feature "$JAVA_HOME")
    if [ -n "$feature" ] && [ "$feature" -ge "$RUBIN_MIN_JAVA" ]; then
      echo "$JAVA_HOME"
      return 0
    fi
  fi
  for candidate in /usr/lib/jvm/*; do
    [ -d "$candidate" ] && [ ! -L "$candidate" ] || continue
    feature=$(rubin_jdk_feature "$candidate")
    if [ -n "$feature" ] && [ "$feature" -ge "$RUBIN_MIN_JAVA" ] && [ "$feature" -gt "$best_feature" ]; then
      best=$candidate
      best_feature=$feature
    fi
  done
  [ -n "$best" ] && echo "$best"
}

if ! RUBIN_JDK=$(rubin_find_jdk) || [ -z "$RUBIN_JDK" ]; then
  echo "error: rubin-orderer needs a JDK $RUBIN_MIN_JAVA or newer (found JAVA_HOME='${JAVA_HOME:-}' and nothing >= $RUBIN_MIN_JAVA under /usr/lib/jvm)." >&2
  echo "       Install one (e.g. the temurin-25-jdk package, or any OpenJDK 25 build) and set JAVA_HOME to it." >&2
  exit 1
fi
export JAVA_HOME=$RUBIN_JDK
export PATH="$JAVA_HOME/bin:$PATH"
