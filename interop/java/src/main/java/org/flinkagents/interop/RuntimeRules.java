package org.flinkagents.interop;

import java.util.Map;
import java.util.Set;

/**
 * The checks the runtime's newest cleanup code makes outside the plan and record readers, restated
 * with its messages (its {@code KafkaActionStateCleanupCoordinator} and {@code KafkaActionStateStore}
 * are not published on Maven Central). Kafka-free so they can be unit-tested; {@link KafkaCommands}
 * supplies what Kafka says.
 */
final class RuntimeRules {
    /** The largest replication factor a Kafka topic can have, the runtime's upper bound. */
    static final int MAX_REPLICATION_FACTOR = Short.MAX_VALUE;

    private RuntimeRules() {}

    /**
     * The control topic's shape, as the coordinator checks it whenever it is created (by the tool's
     * {@code apply} and by every restore): exactly partition 0, and {@code cleanup.policy} exactly the
     * string {@code compact}, compared without trimming or splitting.
     */
    static void checkControlTopic(String topic, Set<Integer> partitions, String cleanupPolicy) throws ValidationException {
        if (!partitions.equals(Set.of(0))) {
            throw new ValidationException("Kafka cleanup control topic " + topic + " must have exactly one partition");
        }
        if (!"compact".equals(cleanupPolicy)) {
            throw new ValidationException("Kafka cleanup control topic " + topic
                    + " must use cleanup.policy=compact without delete retention");
        }
    }

    /** The replication factor the tool creates a missing control topic with. */
    static void checkReplicationFactor(int replicationFactor) throws ValidationException {
        if (replicationFactor <= 0 || replicationFactor > MAX_REPLICATION_FACTOR) {
            throw new ValidationException("Kafka cleanup control topic replication factor must be between 1 and "
                    + MAX_REPLICATION_FACTOR + ", but was " + replicationFactor);
        }
    }

    /**
     * The coordinator's check before it appends COMMITTED for a plan not recorded yet: every offset
     * within its partition's [beginning, end] (log start offset, high watermark).
     *
     * @param ranges partition to {beginning, end}
     */
    static void checkOffsetsAvailable(String topic, Map<Integer, Long> offsets, Map<Integer, long[]> ranges)
            throws ValidationException {
        for (Map.Entry<Integer, Long> e : offsets.entrySet()) {
            long[] range = ranges.get(e.getKey());
            if (range == null || e.getValue() < range[0] || e.getValue() > range[1]) {
                throw new ValidationException("Cannot commit Kafka cleanup boundary for " + topic + "-" + e.getKey()
                        + " at offset " + e.getValue() + " because the available range is ["
                        + (range == null ? "null" : range[0]) + ", " + (range == null ? "null" : range[1]) + "]");
            }
        }
    }

    /** The store's check before it replays from a recovery marker: the same range, its own message. */
    static void checkReplayable(String topic, Map<Integer, Long> offsets, Map<Integer, long[]> ranges) {
        for (Map.Entry<Integer, Long> e : offsets.entrySet()) {
            long[] range = ranges.get(e.getKey());
            if (range == null) {
                throw new IllegalStateException("Kafka did not return beginning and end offsets for " + topic + "-" + e.getKey());
            }
            if (e.getValue() < range[0] || e.getValue() > range[1]) {
                throw new IllegalStateException("Cannot rebuild Kafka action state for " + topic + "-" + e.getKey()
                        + ": requested offset " + e.getValue() + " is outside the available range [" + range[0] + ", "
                        + range[1] + "]");
            }
        }
    }
}
