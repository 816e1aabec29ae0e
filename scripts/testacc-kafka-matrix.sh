#!/usr/bin/env bash
# The real-Kafka suites on every broker line the provider supports, one after
# another (one broker or cluster at a time: they share two cores).
# `make testacc-kafka-matrix` runs it (after `make interop-jar`).
#
# KAFKA_MATRIX lists version:mode entries, default
#   "3.6.2:zookeeper 3.9.1:kraft 4.4.0:kraft"
# TESTACC_KAFKA_MATRIX_SUBSET=1 runs, on every entry but 4.4.x (whose full
# suite is `make testacc-kafka`), only the lifecycle, boundary and fault
# subset: the topic and boundary acceptance tests plus the Java interop
# checks on PLAINTEXT, and on the three-node cluster the leader-kill tests
# and the plain replication-factor raise (the interrupted and out-of-band
# raises, 50 s more, run on 4.4 and in the full matrix: they exercise the
# provider's bookkeeping, which does not change with the broker line). Each entry's summary is printed with its times; the
# exit status is non-zero if any entry failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

matrix=${KAFKA_MATRIX:-"3.6.2:zookeeper 3.9.1:kraft 4.4.0:kraft"}
subset_run='TestActionStateTopic|TestCleanupControlTopic|TestCleanupBoundary|TestJavaClient|TestWeResume'
subset_cluster='TestClusterLeaderFailuresDuringApply|TestClusterReplicationFactorRaise$'
status=0
declare -a summary=()
for entry in $matrix; do
  version=${entry%%:*} mode=${entry#*:}
  [[ $mode == "$entry" ]] && mode=kraft
  t0=$SECONDS rc=0
  echo "=== testacc-kafka-matrix: Apache Kafka $version ($mode)"
  if [[ ${TESTACC_KAFKA_MATRIX_SUBSET:-0} == 1 && $version != 4.4.* ]]; then
    KAFKA_VERSION=$version KAFKA_METADATA_MODE=$mode TESTACC_KAFKA_PASSES="plaintext cluster" \
      TESTACC_KAFKA_RUN=$subset_run TESTACC_KAFKA_CLUSTER_RUN=$subset_cluster \
      scripts/testacc-kafka.sh || rc=$?
  else
    KAFKA_VERSION=$version KAFKA_METADATA_MODE=$mode scripts/testacc-kafka.sh || rc=$?
  fi
  ((rc == 0)) || status=1
  summary+=("$(printf '%-8s %-9s %s  %4ds' "$version" "$mode" "$( ((rc == 0)) && echo PASS || echo FAIL)" "$((SECONDS - t0))")")
done
echo
echo "=== testacc-kafka-matrix summary ($(nproc) cores)"
printf '  %s\n' "${summary[@]}"
exit "$status"
