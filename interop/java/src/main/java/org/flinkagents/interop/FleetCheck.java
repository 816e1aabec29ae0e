package org.flinkagents.interop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The soak's nightly restore check of a whole fleet in one JVM ({@code scripts/soak.sh}): for every
 * job, every recovery marker it is given, under every set of job settings it is given, runs
 * {@link RestoreCheck} (the runtime's refusal rules) against the live control topic, and then asks
 * whether the restore could replay what it needs: every marker offset at or above its partition's
 * log start offset in the data topic (below it, the records the restore replays are gone).
 *
 * <p>Kafka-free so it can be unit-tested: {@link KafkaCommands} supplies control logs and start
 * offsets. Each control topic and each data topic is read once per run.
 *
 * <p>Input: {@code {"jobs": [{"operator", "topic", "controlTopic", "checks": [{"label", "settings":
 * {option: value}, "topicId", "marker": {"partition": offset}}]}]}}. Output, per job in input order:
 * {@code {"operator", "control": {"plans": [{"id", "status"}], "boundary": {...}} | {"error"},
 * "logStart": {...} | "logStartError", "checks": [{"label", "restore": "accepted" | "refused",
 * "message", "replayable"}]}}; {@code replayable} is absent when the restore was refused.
 */
final class FleetCheck {
    /** The log start offset of every partition of a topic. */
    interface StartOffsets {
        SortedMap<Integer, Long> read(String topic) throws Exception;
    }

    private final RestoreCheck.ControlLogSource logs;
    private final StartOffsets starts;
    private final Map<String, Object> controlCache = new HashMap<>();

    FleetCheck(RestoreCheck.ControlLogSource logs, StartOffsets starts) {
        this.logs = logs;
        this.starts = starts;
    }

    ObjectNode run(JsonNode input) throws ValidationException {
        JsonNode jobs = input.get("jobs");
        if (jobs == null || !jobs.isArray()) {
            throw new ValidationException("input must be an object with a \"jobs\" array");
        }
        ObjectNode out = PlanJson.MAPPER.createObjectNode();
        ArrayNode results = out.putArray("jobs");
        for (JsonNode job : jobs) {
            results.add(job(job));
        }
        return out;
    }

    private ObjectNode job(JsonNode job) throws ValidationException {
        ObjectNode out = PlanJson.MAPPER.createObjectNode();
        out.put("operator", text(job, "operator"));
        String control = text(job, "controlTopic");
        ObjectNode controlOut = out.putObject("control");
        try {
            ControlLog log = cachedLog(control);
            ArrayNode plans = controlOut.putArray("plans");
            for (ControlLog.Entry entry : log.entries()) {
                plans.addObject().put("id", entry.plan().id()).put("status", entry.status().name());
            }
            offsetsNode(controlOut.putObject("boundary"), log.effectiveBoundary());
        } catch (Exception e) {
            controlOut.removeAll();
            controlOut.put("error", Main.describe(e));
        }
        SortedMap<Integer, Long> logStart = null;
        try {
            logStart = starts.read(text(job, "topic"));
            offsetsNode(out.putObject("logStart"), logStart);
        } catch (Exception e) {
            out.put("logStartError", Main.describe(e));
        }
        ArrayNode checks = out.putArray("checks");
        JsonNode given = job.get("checks");
        if (given != null) {
            for (JsonNode check : given) {
                checks.add(check(text(job, "topic"), check, logStart));
            }
        }
        return out;
    }

    private ObjectNode check(String topic, JsonNode check, SortedMap<Integer, Long> logStart) throws ValidationException {
        ObjectNode out = PlanJson.MAPPER.createObjectNode();
        out.put("label", text(check, "label"));
        Map<String, String> settings = new HashMap<>();
        JsonNode given = check.get("settings");
        if (given == null || !given.isObject()) {
            throw new ValidationException("check " + text(check, "label") + " has no \"settings\" object");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = given.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            settings.put(e.getKey(), e.getValue().asText());
        }
        SortedMap<Integer, Long> offsets = new TreeMap<>();
        JsonNode marker = check.get("marker");
        if (marker == null || !marker.isObject()) {
            throw new ValidationException("check " + text(check, "label") + " has no \"marker\" object");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = marker.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            offsets.put(Integer.parseInt(e.getKey()), e.getValue().asLong());
        }
        try {
            RestoreCheck.check(settings, new RestoreCheck.Marker(topic, text(check, "topicId"), offsets), this::cachedLog,
                    FleetCheck::anyOffset);
        } catch (Exception e) {
            return out.put("restore", "refused").put("message", Main.describe(e));
        }
        out.put("restore", "accepted");
        if (logStart == null) {
            return out.put("message", "log start offsets unknown").put("replayable", false);
        }
        for (Map.Entry<Integer, Long> e : offsets.entrySet()) {
            Long start = logStart.get(e.getKey());
            if (start == null) {
                return out.put("message", "the data topic has no partition " + e.getKey()).put("replayable", false);
            }
            if (e.getValue() < start) {
                return out.put("message", "the restore replays partition " + e.getKey() + " from offset " + e.getValue()
                        + " but the data topic starts at " + start + ": those records were deleted")
                        .put("replayable", false);
            }
        }
        return out.put("replayable", true);
    }

    /**
     * The store's range check is left to "replayable" below (the marker at or above its partition's
     * log start), which says which partition fails, so the restore rules here are the rest.
     */
    private static Map<Integer, long[]> anyOffset(String topic) {
        return new AnyRange();
    }

    /** Every partition's range, unbounded. */
    private static final class AnyRange extends HashMap<Integer, long[]> {
        @Override
        public long[] get(Object partition) {
            return new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
        }
    }

    /** Each control topic once per run; a failed read fails every restore that needs it the same way. */
    private ControlLog cachedLog(String topic) throws Exception {
        Object cached = controlCache.get(topic);
        if (cached == null) {
            try {
                cached = logs.read(topic);
            } catch (Exception e) {
                cached = e;
            }
            controlCache.put(topic, cached);
        }
        if (cached instanceof Exception e) {
            throw e;
        }
        return (ControlLog) cached;
    }

    private static void offsetsNode(ObjectNode node, SortedMap<Integer, Long> offsets) {
        offsets.forEach((partition, offset) -> node.put(Integer.toString(partition), offset));
    }

    private static String text(JsonNode node, String field) throws ValidationException {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new ValidationException("fleet-check input: \"" + field + "\" must be a string");
        }
        return value.asText();
    }
}
