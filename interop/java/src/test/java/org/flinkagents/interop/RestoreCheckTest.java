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

    /** Both partitions of "data" hold offsets 0 to 20. */
    static final RestoreCheck.OffsetSource FULL = topic -> Map.of(0, new long[] {0, 20}, 1, new long[] {0, 20});

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
        }, FULL).isEmpty());
    }

    @Test
    void emptyControlTopicRefusesWithTheRuntimesMessage() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> RestoreCheck.check(WITH_CONTROL, marker(5, 5), holding(), FULL));
        assertEquals(RestoreCheck.NO_COMMITTED_BOUNDARY, e.getMessage());
    }

    @Test
    void markerAtOrAboveTheBoundaryRestores() throws Exception {
        assertEquals(Map.of(0, 3L, 1, 4L),
                RestoreCheck.check(WITH_CONTROL, marker(3, 9), holding(ControlLogTest.plan("chk-1", 3, 4)), FULL));
    }

    @Test
    void markerBelowTheBoundaryIsRefused() {
        assertThrows(IllegalStateException.class,
                () -> RestoreCheck.check(WITH_CONTROL, marker(2, 9), holding(ControlLogTest.plan("chk-1", 3, 4)), FULL));
    }

    @Test
    void boundaryOfAnotherTopicIdIsRefused() {
        RestoreCheck.Marker other = new RestoreCheck.Marker("data", "zzzzzzzzzzzzzzzzzzzzzw", new TreeMap<>(Map.of(0, 9L, 1, 9L)));
        assertThrows(IllegalStateException.class,
                () -> RestoreCheck.check(WITH_CONTROL, other, holding(ControlLogTest.plan("chk-1", 3, 4)), FULL));
    }

    @Test
    void tombstonesWithControlTopicAreRefused() {
        Map<String, String> both = Map.of(RestoreCheck.KEY_TOPIC, "data", RestoreCheck.KEY_TOMBSTONES, "true",
                RestoreCheck.KEY_CONTROL_TOPIC, "control");
        ValidationException e = assertThrows(ValidationException.class, () -> RestoreCheck.check(both, marker(9, 9), holding(), FULL));
        assertEquals(RestoreCheck.TOMBSTONES_WITH_CLEANUP, e.getMessage());
    }

    @Test
    void markerBelowTheBoundaryNamesItAsTheRuntimeDoes() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> RestoreCheck.check(WITH_CONTROL, marker(2, 9), holding(ControlLogTest.plan("chk-1", 3, 4)), FULL));
        assertEquals("Cannot restore Kafka action state for data-0 from offset 2 because the committed cleanup boundary is 3",
                e.getMessage());
    }

    @Test
    void markerOutsideWhatKafkaHoldsIsRefused() {
        RestoreCheck.OffsetSource trimmed = topic -> Map.of(0, new long[] {5, 20}, 1, new long[] {0, 20});
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> RestoreCheck.check(Map.of(RestoreCheck.KEY_TOPIC, "data"), marker(4, 9), holding(), trimmed));
        assertEquals("Cannot rebuild Kafka action state for data-0: requested offset 4 is outside the available range [5, 20]",
                e.getMessage());
    }

    @Test
    void controlTopicEqualToTheDataTopicIsRefused() {
        Map<String, String> same = Map.of(RestoreCheck.KEY_TOPIC, "data", RestoreCheck.KEY_CONTROL_TOPIC, "data");
        assertThrows(ValidationException.class, () -> RestoreCheck.check(same, marker(9, 9), holding(), FULL));
    }

    @Test
    void startWithoutMarkerIsRefusedOnceABoundaryIsCommitted() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> RestoreCheck.check(WITH_CONTROL, null, holding(ControlLogTest.plan("chk-1", 3, 4)), FULL));
        assertEquals(String.format(RestoreCheck.NO_MARKER_BELOW_BOUNDARY, "data", new TreeMap<>(Map.of(0, 3L, 1, 4L))), e.getMessage());
    }

    @Test
    void startWithoutMarkerOrControlTopicIsAccepted() throws Exception {
        assertTrue(RestoreCheck.check(Map.of(RestoreCheck.KEY_TOPIC, "data"), null, topic -> {
            throw new AssertionError("the control topic must not be read");
        }, topic -> {
            throw new AssertionError("nothing is replayed without a marker");
        }).isEmpty());
    }
}
