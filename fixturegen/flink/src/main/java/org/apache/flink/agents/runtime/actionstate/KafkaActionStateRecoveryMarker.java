package org.apache.flink.agents.runtime.actionstate;

import java.io.Serializable;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Stand-in for the Flink Agents runtime class of the same name: no flink-agents release that
 * Maven Central serves here ships it, so this file reproduces its Kryo-visible shape exactly.
 *
 * <p>Kryo's FieldSerializer writes the non-static, non-transient fields sorted by name
 * ({@code offsets}, {@code schemaVersion}, {@code topic}, {@code topicId}) and nothing else, so
 * the FQCN, field names, field types and the {@code HashMap} copy are what must match the runtime.
 * There is deliberately no no-arg constructor: Flink's Kryo falls back to Objenesis, and the
 * fixtures prove that reading back works without one.
 */
public final class KafkaActionStateRecoveryMarker implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final int CURRENT_SCHEMA_VERSION = 1;
    public static final String UNION_STATE_NAME = "recoveryMarker";

    private final int schemaVersion;
    private final String topic;
    private final String topicId;
    private final Map<Integer, Long> offsets;

    public KafkaActionStateRecoveryMarker(String topic, String topicId, Map<Integer, Long> offsets) {
        this(CURRENT_SCHEMA_VERSION, topic, topicId, offsets);
    }

    public KafkaActionStateRecoveryMarker(
            int schemaVersion, String topic, String topicId, Map<Integer, Long> offsets) {
        this.schemaVersion = schemaVersion;
        this.topic = topic;
        this.topicId = topicId;
        this.offsets = new HashMap<>(offsets);
    }

    public int getSchemaVersion() {
        return schemaVersion;
    }

    public String getTopic() {
        return topic;
    }

    public String getTopicId() {
        return topicId;
    }

    public Map<Integer, Long> getOffsets() {
        return offsets == null ? null : Collections.unmodifiableMap(offsets);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof KafkaActionStateRecoveryMarker)) {
            return false;
        }
        KafkaActionStateRecoveryMarker that = (KafkaActionStateRecoveryMarker) o;
        return schemaVersion == that.schemaVersion
                && Objects.equals(topic, that.topic)
                && Objects.equals(topicId, that.topicId)
                && Objects.equals(offsets, that.offsets);
    }

    @Override
    public int hashCode() {
        return Objects.hash(schemaVersion, topic, topicId, offsets);
    }

    @Override
    public String toString() {
        return "KafkaActionStateRecoveryMarker{schemaVersion=" + schemaVersion + ", topic=" + topic
                + ", topicId=" + topicId + ", offsets=" + offsets + "}";
    }
}
