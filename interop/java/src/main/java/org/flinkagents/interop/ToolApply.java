package org.flinkagents.interop;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The runtime's {@code KafkaActionStateCleanupTool apply}, restated on Kafka's Java client the way
 * the spec (section 9) describes the tool: one record at a time, idempotent, without a transaction,
 * so it is not fenced by the provider's transactional ID. The soak runs it as a second applier on a
 * control topic the provider applies to at the same moment.
 *
 * <p>Steps: read the control topic ({@code read_committed}); refuse a plan for another topic, topic
 * ID or partition set, and a plan not recorded yet that does not advance or equal the effective
 * boundary; check the data topic still has the plan's topic ID; append COMMITTED unless the plan is
 * recorded; delete the data topic's records below the plan's offsets where they start lower; check
 * every partition now starts at or above them; append APPLIED. Kafka-free: {@link Kafka} is the
 * tool's view of the cluster.
 */
final class ToolApply {
    /** What the tool asks of Kafka. */
    interface Kafka {
        ControlLog readControl(String controlTopic) throws Exception;

        void append(String controlTopic, ControlRecord record) throws Exception;

        /** The data topic's topic ID in Kafka's string form, or null when it does not exist. */
        String topicId(String topic) throws Exception;

        SortedMap<Integer, Long> startOffsets(String topic) throws Exception;

        void deleteBefore(String topic, Map<Integer, Long> offsets) throws Exception;
    }

    private ToolApply() {}

    /** Applies {@code plan} through {@code controlTopic}; returns the line the tool prints. */
    static String apply(Kafka kafka, String controlTopic, Plan plan) throws Exception {
        ControlLog log = kafka.readControl(controlTopic);
        SortedMap<Integer, Long> boundary = log.effectiveBoundary();
        boolean recorded = false;
        for (ControlLog.Entry entry : log.entries()) {
            Plan other = entry.plan();
            if (!other.topic().equals(plan.topic()) || !other.topicId().equals(plan.topicId())
                    || !other.offsets().keySet().equals(plan.offsets().keySet())) {
                throw new ValidationException("control topic " + controlTopic + " records plans for topic " + other.topic()
                        + " (ID " + other.topicId() + ") partitions " + other.offsets().keySet() + ", not for this plan's");
            }
            recorded |= other.id().equals(plan.id());
        }
        if (!recorded && !plan.advancesOrEquals(boundary)) {
            throw new ValidationException("plan " + plan.id() + " " + plan.offsets()
                    + " does not advance or equal the boundary " + boundary + " recorded in " + controlTopic);
        }
        String liveId = kafka.topicId(plan.topic());
        if (!plan.topicId().equals(liveId)) {
            throw new ValidationException("topic " + plan.topic() + " has topic ID " + liveId + ", not the plan's "
                    + plan.topicId() + ": it was recreated");
        }
        if (!recorded) {
            kafka.append(controlTopic, new ControlRecord(Status.COMMITTED, plan));
        }
        SortedMap<Integer, Long> starts = kafka.startOffsets(plan.topic());
        Map<Integer, Long> below = new TreeMap<>();
        plan.offsets().forEach((partition, offset) -> {
            if (starts.getOrDefault(partition, Long.MAX_VALUE) < offset) {
                below.put(partition, offset);
            }
        });
        if (!below.isEmpty()) {
            kafka.deleteBefore(plan.topic(), below);
        }
        SortedMap<Integer, Long> after = kafka.startOffsets(plan.topic());
        for (Map.Entry<Integer, Long> e : plan.offsets().entrySet()) {
            Long start = after.get(e.getKey());
            if (start == null || start < e.getValue()) {
                throw new ValidationException("partition " + e.getKey() + " of " + plan.topic() + " starts at " + start
                        + " after deleting below " + e.getValue());
            }
        }
        kafka.append(controlTopic, new ControlRecord(Status.APPLIED, plan));
        return "Cleanup plan " + plan.id() + " is APPLIED";
    }
}
