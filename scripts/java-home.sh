#!/usr/bin/env bash
# Prints a JAVA_HOME whose JDK is 21 or newer: $JAVA_HOME if it is one, else the newest JDK under
# /usr/lib/jvm. Exits non-zero with a message when there is none.
set -euo pipefail

major() { # java binary -> feature version
  "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}' | cut -d. -f1
}

if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ] && [ "$(major "$JAVA_HOME/bin/java")" -ge 21 ]; then
  echo "$JAVA_HOME"
  exit 0
fi
best=""; best_v=0
for d in /usr/lib/jvm/*/; do
  d=${d%/}
  [ -x "$d/bin/javac" ] || continue
  [ -L "$d" ] && continue
  v=$(major "$d/bin/java" || echo 0)
  if [ "${v:-0}" -gt "$best_v" ]; then best=$d; best_v=$v; fi
done
if [ "$best_v" -ge 21 ]; then
  echo "$best"
  exit 0
fi
echo "java-home: no JDK 21 or newer found (JAVA_HOME or /usr/lib/jvm); install one, e.g. openjdk-21-jdk" >&2
exit 1
