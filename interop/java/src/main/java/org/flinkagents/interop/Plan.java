package org.flinkagents.interop;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A validated cleanup plan. Construction enforces the spec's rules, so an instance is always
 * something the Java tool could have written.
 */
record Plan(String sourceRecoveryPoint, String topic, String topicId, SortedMap<Integer, Long> offsets) {
    static final int SCHEMA_VERSION = 1;
    /** Kafka's {@code Uuid.ZERO_UUID.toString()}: never a real topic ID. */
    static final String ZERO_TOPIC_ID = "AAAAAAAAAAAAAAAAAAAAAA";

    Plan {
        offsets = Collections.unmodifiableSortedMap(new TreeMap<>(offsets));
    }

    /** Builds a plan, or names the first rule it breaks. */
    static Plan of(String sourceRecoveryPoint, String topic, String topicId, Map<Integer, Long> offsets)
            throws ValidationException {
        requireNonBlank("sourceRecoveryPoint", sourceRecoveryPoint);
        requireNonBlank("topic", topic);
        requireNonBlank("topicId", topicId);
        if (ZERO_TOPIC_ID.equals(topicId)) {
            throw new ValidationException("topicId must not be the zero UUID " + ZERO_TOPIC_ID);
        }
        if (offsets.isEmpty()) {
            throw new ValidationException("offsets must name at least one partition");
        }
        for (Map.Entry<Integer, Long> entry : offsets.entrySet()) {
            if (entry.getKey() < 0) {
                throw new ValidationException("partition " + entry.getKey() + " must be >= 0");
            }
            if (entry.getValue() < 0) {
                throw new ValidationException(
                        "offset " + entry.getValue() + " of partition " + entry.getKey() + " must be >= 0");
            }
        }
        return new Plan(sourceRecoveryPoint, topic, topicId, new TreeMap<>(offsets));
    }

    String id() {
        return PlanId.compute(sourceRecoveryPoint, topic, topicId, offsets);
    }

    /**
     * True when this plan may follow {@code boundary}: the boundary is empty, or both name the
     * same partitions and this plan's offset is >= the boundary's on every one.
     */
    boolean advancesOrEquals(SortedMap<Integer, Long> boundary) {
        if (boundary.isEmpty()) {
            return true;
        }
        if (!offsets.keySet().equals(boundary.keySet())) {
            return false;
        }
        return offsets.entrySet().stream().allMatch(e -> e.getValue() >= boundary.get(e.getKey()));
    }

    private static void requireNonBlank(String field, String value) throws ValidationException {
        // The runtime's requireText: trim().isEmpty(), so a value made only of chars <= U+0020
        // (controls included) is blank, and U+00A0 or U+2003 are not (this is not String.isBlank).
        if (value == null || value.trim().isEmpty()) {
            throw new ValidationException(field + " must not be blank");
        }
    }
}
