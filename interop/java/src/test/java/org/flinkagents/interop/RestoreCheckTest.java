package org.flinkagents.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RestoreCheckTest {
    static final Map<String, String> WITH_CONTROL = Map.of(
            RestoreCheck.KEY_TOPIC, "data", RestoreCheck.KEY_TOMBSTONES, "false",
            RestoreCheck.KEY_CONTROL_TOPIC, "control");

    static RestoreCheck.Marker marker(long p0, long p1) {
        return new RestoreCheck.Marker("data", ControlLogTest.TOPIC_ID, new TreeMap<>(Map.of(0, p0, 1, p1)));
    }

    static RestoreCheck.ControlLogSource holding(Plan... plans) throws Exception {
        ControlLog log = new ControlLog();
        long offset = 0;
        for (Plan plan : plans) {
            log.apply(offset++, plan.id(), ControlLogTest.value(Status.APPLIED, plan));
        }
        return topic -> log;
    }

    @Test
    void withoutControlTopicAnyMarkerRestores() throws Exception {
        Map<String, String> plain = Map.of(RestoreCheck.KEY_TOPIC, "data");
        assertTrue(RestoreCheck.check(plain, marker(0, 0), topic -> {
            throw new AssertionError("the control topic must not be read");
        }).isEmpty());
    }

    @Test
    void emptyControlTopicRefusesWithTheRuntimesMessage() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> RestoreCheck.check(WITH_CONTROL, marker(5, 5), holding()));
        assertEquals(RestoreCheck.NO_COMMITTED_BOUNDARY, e.getMessage());
    }

    @Test
    void markerAtOrAboveTheBoundaryRestores() throws Exception {
        assertEquals(Map.of(0, 3L, 1, 4L),
                RestoreCheck.check(WITH_CONTROL, marker(3, 9), holding(ControlLogTest.plan("chk-1", 3, 4))));
    }

    @Test
    void markerBelowTheBoundaryIsRefused() {
        assertThrows(IllegalStateException.class,
                () -> RestoreCheck.check(WITH_CONTROL, marker(2, 9), holding(ControlLogTest.plan("chk-1", 3, 4))));
    }

    @Test
    void boundaryOfAnotherTopicIdIsRefused() {
        RestoreCheck.Marker other = new RestoreCheck.Marker("data", "zzzzzzzzzzzzzzzzzzzzzw", new TreeMap<>(Map.of(0, 9L, 1, 9L)));
        assertThrows(IllegalStateException.class,
                () -> RestoreCheck.check(WITH_CONTROL, other, holding(ControlLogTest.plan("chk-1", 3, 4))));
    }

    @Test
    void tombstonesWithControlTopicAreRefused() {
        Map<String, String> both = Map.of(RestoreCheck.KEY_TOPIC, "data", RestoreCheck.KEY_TOMBSTONES, "true",
                RestoreCheck.KEY_CONTROL_TOPIC, "control");
        assertThrows(ValidationException.class, () -> RestoreCheck.check(both, marker(9, 9), holding()));
    }

    @Test
    void startWithoutMarkerIsRefusedOnceABoundaryIsCommitted() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> RestoreCheck.check(WITH_CONTROL, null, holding(ControlLogTest.plan("chk-1", 3, 4))));
        assertEquals(String.format(RestoreCheck.NO_MARKER_BELOW_BOUNDARY, "data", new TreeMap<>(Map.of(0, 3L, 1, 4L))), e.getMessage());
    }

    @Test
    void startWithoutMarkerOrControlTopicIsAccepted() throws Exception {
        assertTrue(RestoreCheck.check(Map.of(RestoreCheck.KEY_TOPIC, "data"), null, topic -> {
            throw new AssertionError("the control topic must not be read");
        }).isEmpty());
    }
}
