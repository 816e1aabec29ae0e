package org.flinkagents.interop;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The control topic's history, folded record by record with the spec's reading rules.
 * Kafka-free so the rules can be unit-tested; {@link KafkaCommands} feeds it.
 */
final class ControlLog {
    /** One plan and its latest status. */
    record Entry(Plan plan, Status status) {}

    // LinkedHashMap.put on an existing key keeps its position: order of first appearance.
    private final Map<String, Entry> entries = new LinkedHashMap<>();

    /**
     * Applies the record at {@code offset}. A null value is a tombstone, which would erase a
     * boundary, so it is an error rather than a deletion.
     */
    void apply(long offset, String key, String value) throws ValidationException {
        if (value == null) {
            throw new ValidationException("control record at offset " + offset + " (key " + key
                    + ") is a tombstone; boundaries cannot be deleted");
        }
        ControlRecord record;
        try {
            record = PlanJson.parseControlRecord(value);
        } catch (ValidationException e) {
            throw new ValidationException("control record at offset " + offset + ": " + e.getMessage(), e);
        }
        String planId = record.plan().id();
        if (!planId.equals(key)) {
            throw new ValidationException("control record at offset " + offset + " has key " + key
                    + " but carries plan " + planId);
        }
        Entry previous = entries.get(planId);
        if (previous != null) {
            // The ID is a hash of a newline-joined string, so two different plans can share one
            // (a source path containing "\n"); compare the contents, not just the ID.
            if (!previous.plan().equals(record.plan())) {
                throw new ValidationException("control record at offset " + offset + " reuses plan ID " + planId
                        + " for a different plan: recorded " + previous.plan() + ", now " + record.plan());
            }
            if (previous.status() == Status.APPLIED && record.status() == Status.COMMITTED) {
                throw new ValidationException("control record at offset " + offset + " moves plan " + planId
                        + " from APPLIED back to COMMITTED");
            }
        }
        entries.put(planId, new Entry(record.plan(), record.status()));
    }

    /** Plans in order of first appearance, each with its last status. */
    List<Entry> entries() {
        return List.copyOf(entries.values());
    }

    /**
     * Per partition, the maximum offset over all recorded plans, COMMITTED and APPLIED alike;
     * empty when nothing is recorded. Fails closed when the plans disagree on topic, topic ID
     * or partition set, or when two plans are incomparable.
     */
    SortedMap<Integer, Long> effectiveBoundary() throws ValidationException {
        List<Plan> plans = new ArrayList<>();
        for (Entry entry : entries.values()) {
            plans.add(entry.plan());
        }
        SortedMap<Integer, Long> boundary = new TreeMap<>();
        if (plans.isEmpty()) {
            return boundary;
        }
        Plan first = plans.get(0);
        for (Plan plan : plans) {
            if (!plan.topic().equals(first.topic()) || !plan.topicId().equals(first.topicId())
                    || !plan.offsets().keySet().equals(first.offsets().keySet())) {
                throw new ValidationException("control topic holds plans for different data topics: plan "
                        + first.id() + " names " + describeTarget(first) + ", plan " + plan.id() + " names "
                        + describeTarget(plan));
            }
        }
        for (int i = 0; i < plans.size(); i++) {
            for (int j = i + 1; j < plans.size(); j++) {
                Plan a = plans.get(i);
                Plan b = plans.get(j);
                if (!a.advancesOrEquals(b.offsets()) && !b.advancesOrEquals(a.offsets())) {
                    throw new ValidationException("control topic holds incomparable plans " + a.id() + " "
                            + a.offsets() + " and " + b.id() + " " + b.offsets());
                }
            }
        }
        for (Plan plan : plans) {
            plan.offsets().forEach((partition, offset) -> boundary.merge(partition, offset, Math::max));
        }
        return boundary;
    }

    private static String describeTarget(Plan plan) {
        return "topic " + plan.topic() + " (ID " + plan.topicId() + ") partitions " + plan.offsets().keySet();
    }
}
