#!/usr/bin/env bash
# Builds interop/java (running its JUnit tests) into one jar, unless the jar
# is newer than its sources.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/require-tools.sh" java mvn
cd "$root/interop/java"
jar=target/flinkagents-interop.jar
if [[ -f $jar && -z $(find pom.xml src -newer "$jar" -print -quit) ]]; then
  exit 0
fi
echo "building interop/java (Jackson and Kafka client checks)..."
mvn -q -B package
test -f "$jar" || { echo "ERROR: $jar was not built" >&2; exit 1; }
