package org.flinkagents.interop;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Many restore checks in one JVM, against one connection: a test checking every retained point of
 * a fleet after each apply would otherwise start a JVM per point. Each check is the runtime's
 * restore check ({@link RestoreCheck}); a refusal is a result, printed, not a failure of the run.
 */
final class RestoreBatch {
    private RestoreBatch() {}

    /**
     * Runs the checks of a JSON array of {"name", "settings": {option: value}, "markerTopic",
     * "markerTopicId", "marker": {"partition": offset} or null} and prints, per check, one line
     * "NAME accepted" or "NAME refused: MESSAGE", in order.
     */
    static void run(JsonNode checks, RestoreCheck.ControlLogSource source, RestoreCheck.OffsetSource offsetSource, PrintStream out)
            throws Exception {
        if (!checks.isArray()) {
            throw new ValidationException("the checks file must hold a JSON array");
        }
        // Each control topic is read once per batch: the checks of one job's points share it.
        Map<String, ControlLog> read = new HashMap<>();
        RestoreCheck.ControlLogSource logs = topic -> {
            ControlLog log = read.get(topic);
            if (log == null) {
                log = source.read(topic);
                read.put(topic, log);
            }
            return log;
        };
        // Each data topic's offsets once too: nothing changes them during a batch.
        Map<String, Map<Integer, long[]>> listed = new HashMap<>();
        RestoreCheck.OffsetSource ranges = topic -> {
            Map<Integer, long[]> got = listed.get(topic);
            if (got == null) {
                got = offsetSource.ranges(topic);
                listed.put(topic, got);
            }
            return got;
        };
        for (JsonNode c : checks) {
            String name = c.path("name").asText();
            Map<String, String> settings = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = c.path("settings").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                settings.put(e.getKey(), e.getValue().asText());
            }
            RestoreCheck.Marker marker = null;
            JsonNode m = c.path("marker");
            if (m.isObject()) {
                SortedMap<Integer, Long> offsets = new TreeMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    offsets.put(Integer.parseInt(e.getKey()), e.getValue().asLong());
                }
                marker = new RestoreCheck.Marker(c.path("markerTopic").asText(), c.path("markerTopicId").asText(), offsets);
            }
            try {
                RestoreCheck.check(settings, marker, logs, ranges);
                out.println(name + " accepted");
            } catch (IllegalStateException | ValidationException e) {
                out.println(name + " refused: " + e.getMessage());
            }
        }
    }
}
