package org.flinkagents.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class FleetCheckTest {
    static String input(String settings, long p0, long p1) {
        return "{\"jobs\":[{\"operator\":\"a\",\"topic\":\"data\",\"controlTopic\":\"control\",\"checks\":["
                + "{\"label\":\"chk-1\",\"settings\":" + settings + ",\"topicId\":\"" + ControlLogTest.TOPIC_ID
                + "\",\"marker\":{\"0\":" + p0 + ",\"1\":" + p1 + "}}]}]}";
    }

    static final String PROTECTED = "{\"kafkaActionStateTopic\":\"data\",\"kafkaActionStateCleanupControlTopic\":\"control\"}";

    static JsonNode run(String input, Map<Integer, Long> logStart, Plan... plans) throws Exception {
        RestoreCheck.ControlLogSource logs = RestoreCheckTest.holding(plans);
        return new FleetCheck(logs, topic -> new TreeMap<>(logStart)).run(PlanJson.MAPPER.readTree(input));
    }

    @Test
    void acceptedAboveTheBoundaryAndTheLogStart() throws Exception {
        JsonNode job = run(input(PROTECTED, 5, 6), Map.of(0, 3L, 1, 4L), ControlLogTest.plan("chk-0", 3, 4)).get("jobs").get(0);
        assertEquals("{\"0\":3,\"1\":4}", job.get("control").get("boundary").toString());
        JsonNode check = job.get("checks").get(0);
        assertEquals("accepted", check.get("restore").asText());
        assertTrue(check.get("replayable").asBoolean());
    }

    @Test
    void refusedBelowTheBoundary() throws Exception {
        JsonNode check = run(input(PROTECTED, 2, 6), Map.of(0, 0L, 1, 0L), ControlLogTest.plan("chk-0", 3, 4))
                .get("jobs").get(0).get("checks").get(0);
        assertEquals("refused", check.get("restore").asText());
        assertTrue(check.get("message").asText().contains("because the committed cleanup boundary is 3"));
        assertFalse(check.has("replayable"));
    }

    @Test
    void acceptedWithoutControlTopicButRecordsGoneIsNotReplayable() throws Exception {
        JsonNode check = run(input("{\"kafkaActionStateTopic\":\"data\"}", 2, 6), Map.of(0, 3L, 1, 0L))
                .get("jobs").get(0).get("checks").get(0);
        assertEquals("accepted", check.get("restore").asText());
        assertFalse(check.get("replayable").asBoolean());
        assertTrue(check.get("message").asText().contains("partition 0 from offset 2"));
    }

    @Test
    void eachControlTopicIsReadOnce() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        RestoreCheck.ControlLogSource inner = RestoreCheckTest.holding(ControlLogTest.plan("chk-0", 1, 1));
        String two = "{\"jobs\":[{\"operator\":\"a\",\"topic\":\"data\",\"controlTopic\":\"control\",\"checks\":["
                + "{\"label\":\"x\",\"settings\":" + PROTECTED + ",\"topicId\":\"" + ControlLogTest.TOPIC_ID
                + "\",\"marker\":{\"0\":1,\"1\":1}},{\"label\":\"y\",\"settings\":" + PROTECTED + ",\"topicId\":\""
                + ControlLogTest.TOPIC_ID + "\",\"marker\":{\"0\":2,\"1\":2}}]}]}";
        JsonNode out = new FleetCheck(topic -> {
            reads.incrementAndGet();
            return inner.read(topic);
        }, topic -> new TreeMap<>(Map.of(0, 0L, 1, 0L))).run(PlanJson.MAPPER.readTree(two));
        assertEquals(1, reads.get());
        assertEquals(2, out.get("jobs").get(0).get("checks").size());
    }

    @Test
    void anUnreadableControlTopicIsReportedAndRefusesRestores() throws Exception {
        JsonNode job = new FleetCheck(topic -> {
            throw new ValidationException("control record at offset 3 is a tombstone");
        }, topic -> new TreeMap<>(Map.of(0, 0L, 1, 0L))).run(PlanJson.MAPPER.readTree(input(PROTECTED, 5, 5)))
                .get("jobs").get(0);
        assertTrue(job.get("control").get("error").asText().contains("tombstone"));
        assertEquals("refused", job.get("checks").get(0).get("restore").asText());
    }
}
