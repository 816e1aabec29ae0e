package org.flinkagents.interop;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The runtime's restore-time check of checkpoint-aligned cleanup, as {@code KafkaActionStateStore}
 * documents and performs it. The runtime's own class is not published on Maven Central, so this
 * restates it: the refusal messages are the runtime's, and the order of the checks is its order
 * (configuration first, then the control topic, then the marker against the boundary, then the
 * marker against the offsets Kafka still holds). Kafka-free so it can be unit-tested;
 * {@link KafkaCommands} supplies the control log and the offsets.
 */
final class RestoreCheck {
    static final String KEY_TOPIC = "kafkaActionStateTopic";
    static final String KEY_TOMBSTONES = "kafkaActionStateTombstoneEnabled";
    static final String KEY_CONTROL_TOPIC = "kafkaActionStateCleanupControlTopic";

    /** What the runtime throws when tombstones are enabled together with a control topic. */
    static final String TOMBSTONES_WITH_CLEANUP = "Per-key Kafka tombstones cannot be enabled with checkpoint-aligned cleanup";

    /** What the runtime throws when the control topic holds no COMMITTED or APPLIED plan. */
    static final String NO_COMMITTED_BOUNDARY = "Kafka cleanup control topic contains no committed boundary; "
            + "apply a cleanup plan before enabling checkpoint-aligned cleanup during recovery";

    /** Reads the control log, or fails as the runtime does when the topic is missing. */
    interface ControlLogSource {
        ControlLog read(String controlTopic) throws Exception;
    }

    /** The data topic's {beginning, end} by partition. */
    interface OffsetSource {
        Map<Integer, long[]> ranges(String topic) throws Exception;
    }

    /** The recovery marker of one checkpoint, as the runtime stores it per subtask. */
    record Marker(String topic, String topicId, SortedMap<Integer, Long> offsets) {}

    private RestoreCheck() {}

    /** The runtime's refusal of a start without a recovery marker once a boundary is committed. */
    static final String NO_MARKER_BELOW_BOUNDARY = "Cannot initialize Kafka action state store for topic %s without a "
            + "recovery marker because cleanup boundary %s is committed";

    /**
     * Returns the control topic's effective boundary the restore was checked against (empty when
     * the job has no control topic configured), or throws the runtime's refusal. A null marker is
     * a start without one (a job started fresh, or from a point taken before markers): with a
     * committed boundary the records it would replay from the start are gone, so it is refused.
     */
    static SortedMap<Integer, Long> check(Map<String, String> settings, Marker marker, ControlLogSource logs,
            OffsetSource offsets) throws Exception {
        String topic = settings.get(KEY_TOPIC);
        if (topic == null || topic.trim().isEmpty()) {
            throw new ValidationException(KEY_TOPIC + " is not set");
        }
        if (marker != null && !topic.equals(marker.topic())) {
            throw new ValidationException("recovery marker names topic " + marker.topic()
                    + " but the job is configured with " + KEY_TOPIC + "=" + topic);
        }
        String control = settings.get(KEY_CONTROL_TOPIC);
        if (control == null) {
            if (marker != null) {
                RuntimeRules.checkReplayable(topic, marker.offsets(), offsets.ranges(topic));
            }
            return new TreeMap<>();
        }
        if (control.trim().isEmpty()) {
            throw new ValidationException("Kafka action-state cleanup control topic must not be blank");
        }
        if (Boolean.parseBoolean(settings.get(KEY_TOMBSTONES))) {
            throw new ValidationException(TOMBSTONES_WITH_CLEANUP);
        }
        if (control.equals(topic)) {
            throw new ValidationException("Kafka action-state cleanup control topic must differ from the data topic");
        }
        ControlLog log;
        SortedMap<Integer, Long> boundary;
        try {
            log = logs.read(control);
            boundary = log.effectiveBoundary();
        } catch (ValidationException e) {
            throw new ValidationException("Kafka cleanup control topic " + control + ": " + e.getMessage(), e);
        }
        if (boundary.isEmpty()) {
            throw new IllegalStateException(NO_COMMITTED_BOUNDARY);
        }
        if (marker == null) {
            throw new IllegalStateException(String.format(NO_MARKER_BELOW_BOUNDARY, topic, boundary));
        }
        List<ControlLog.Entry> entries = log.entries();
        Plan recorded = entries.get(entries.size() - 1).plan();
        if (!recorded.topic().equals(marker.topic()) || !recorded.topicId().equals(marker.topicId())
                || !boundary.keySet().equals(marker.offsets().keySet())) {
            throw new IllegalStateException("Kafka cleanup control topic " + control + " records plans for topic "
                    + recorded.topic() + " (ID " + recorded.topicId() + ") partitions " + boundary.keySet()
                    + " but the recovery marker names topic " + marker.topic() + " (ID " + marker.topicId()
                    + ") partitions " + marker.offsets().keySet());
        }
        for (Map.Entry<Integer, Long> e : marker.offsets().entrySet()) {
            long floor = boundary.get(e.getKey());
            if (e.getValue() < floor) {
                throw new IllegalStateException("Cannot restore Kafka action state for " + topic + "-" + e.getKey()
                        + " from offset " + e.getValue() + " because the committed cleanup boundary is " + floor);
            }
        }
        RuntimeRules.checkReplayable(topic, marker.offsets(), offsets.ranges(topic));
        return boundary;
    }
}
