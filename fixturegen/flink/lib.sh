# Shared by generate.sh and read.sh: which Flink lines exist, building one, running Java on it.

ALL_LINES=(1.20 2.0 2.1 2.2 2.3)
NEWEST_2X=2.3

check_line() {
  local l
  for l in "${ALL_LINES[@]}"; do
    if [[ "$1" == "$l" ]]; then
      echo "$1"
      return 0
    fi
  done
  if [[ "$1" == "2.x" ]]; then echo "$NEWEST_2X"; return 0; fi
  echo "unknown Flink line '$1' (known: ${ALL_LINES[*]} 2.x)" >&2
  return 1
}

# Compiles the project against one Flink line (profile flink-LINE) into target/LINE and prints
# the runtime classpath. Maven output goes to stderr so that failures are visible.
build_line() {
  local line="$1" dir="$here/target/$1"
  (cd "$here" && mvn -q -B -Pflink-"$line" package dependency:build-classpath \
      -Dmdep.outputFile="$dir/classpath.txt") >&2
  echo "$dir/classes:$(cat "$dir/classpath.txt")"
}

# The module opens Flink's own launch scripts pass on Java 17 (Kryo and the closure cleaner
# reflect into java.base).
run_java() {
  local cp="$1"
  shift
  java -Xmx2g \
    --add-opens=java.base/java.lang=ALL-UNNAMED \
    --add-opens=java.base/java.util=ALL-UNNAMED \
    --add-opens=java.base/java.lang.reflect=ALL-UNNAMED \
    --add-opens=java.base/java.io=ALL-UNNAMED \
    --add-opens=java.base/java.nio=ALL-UNNAMED \
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED \
    --add-opens=java.base/java.net=ALL-UNNAMED \
    --add-opens=java.base/java.text=ALL-UNNAMED \
    --add-opens=java.base/java.time=ALL-UNNAMED \
    --add-opens=java.base/java.util.concurrent=ALL-UNNAMED \
    --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED \
    -Dorg.slf4j.simpleLogger.defaultLogLevel="${FIXTUREGEN_LOG_LEVEL:-warn}" \
    -Dorg.slf4j.simpleLogger.logFile=System.err \
    -cp "$cp" "$@"
}
