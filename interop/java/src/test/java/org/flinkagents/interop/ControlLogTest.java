package org.flinkagents.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ControlLogTest {
    static final String TOPIC_ID = PlanJsonTest.SPEC_TOPIC_ID;

    static Plan plan(String source, long p0, long p1) throws ValidationException {
        return Plan.of(source, "data", TOPIC_ID, Map.of(0, p0, 1, p1));
    }

    static String value(Status status, Plan plan) {
        return PlanJson.controlRecordValue(new ControlRecord(status, plan));
    }

    @Test
    void controlRecordValueIsCompactInFieldOrder() throws Exception {
        Plan plan = PlanJsonTest.specPlan();
        String expected = "{\"schemaVersion\":1,\"status\":\"COMMITTED\",\"plan\":{\"schemaVersion\":1,\"planId\":\""
                + PlanJsonTest.SPEC_PLAN_ID + "\",\"sourceRecoveryPoint\":\"" + PlanJsonTest.SPEC_SOURCE
                + "\",\"topic\":\"" + PlanJsonTest.SPEC_TOPIC + "\",\"topicId\":\"" + TOPIC_ID
                + "\",\"offsets\":{\"0\":150,\"1\":100,\"2\":0}}}";
        assertEquals(expected, value(Status.COMMITTED, plan));
        assertEquals(new ControlRecord(Status.COMMITTED, plan), PlanJson.parseControlRecord(expected));
    }

    @Test
    void controlRecordRulesAreStrict() throws Exception {
        String good = value(Status.APPLIED, PlanJsonTest.specPlan());
        for (String bad : List.of(
                good.replace("\"APPLIED\"", "\"applied\""),
                good.replace("\"APPLIED\"", "\"DELETED\""),
                good.replace("{\"schemaVersion\":1,\"status\"", "{\"schemaVersion\":2,\"status\""),
                good.replace("{\"schemaVersion\":1,\"status\"", "{\"status\""),
                good.replace("{\"schemaVersion\":1,\"status\":\"APPLIED\",", "{\"status\":\"APPLIED\",\"schemaVersion\":1,"),
                good.replace("\"status\":\"APPLIED\",", "\"status\":\"APPLIED\",\"status\":\"APPLIED\","),
                good.substring(0, good.length() - 1) + ",\"extra\":1}",
                good + "{}",
                good.replace("\"offsets\":{\"0\"", "\"offsets\":{\"00\""))) {
            assertThrows(ValidationException.class, () -> PlanJson.parseControlRecord(bad), bad);
        }
    }

    @Test
    void trailingContentAfterTheRecordIsRefusedAsTheRuntimeRefusesIt() throws Exception {
        String good = value(Status.COMMITTED, PlanJsonTest.specPlan());
        for (String tail : List.of("{}", "null", "garbage", " x", "}")) {
            assertThrows(ValidationException.class, () -> PlanJson.parseControlRecord(good + tail), tail);
        }
        assertEquals(PlanJson.parseControlRecord(good), PlanJson.parseControlRecord(good + " \t\r\n"));
    }

    @Test
    void lastStatusWinsInOrderOfFirstAppearance() throws Exception {
        Plan first = plan("chk-1", 10, 20);
        Plan second = plan("chk-2", 30, 40);
        ControlLog log = new ControlLog();
        log.apply(0, first.id(), value(Status.COMMITTED, first));
        log.apply(1, second.id(), value(Status.COMMITTED, second));
        log.apply(2, first.id(), value(Status.APPLIED, first));
        log.apply(3, first.id(), value(Status.APPLIED, first));
        assertEquals(List.of(new ControlLog.Entry(first, Status.APPLIED), new ControlLog.Entry(second, Status.COMMITTED)),
                log.entries());
        assertEquals(new TreeMap<>(Map.of(0, 30L, 1, 40L)), log.effectiveBoundary());
    }

    @Test
    void emptyLogHasEmptyBoundary() throws Exception {
        assertTrue(new ControlLog().effectiveBoundary().isEmpty());
    }

    @Test
    void tombstoneIsAnError() throws Exception {
        Plan plan = plan("chk-1", 10, 20);
        ControlLog log = new ControlLog();
        log.apply(0, plan.id(), value(Status.COMMITTED, plan));
        ValidationException e = assertThrows(ValidationException.class, () -> log.apply(1, plan.id(), null));
        assertTrue(e.getMessage().contains("tombstone"), e.getMessage());
    }

    @Test
    void keyMustEqualPlanId() throws Exception {
        Plan plan = plan("chk-1", 10, 20);
        ControlLog log = new ControlLog();
        assertThrows(ValidationException.class, () -> log.apply(0, "other", value(Status.COMMITTED, plan)));
        assertThrows(ValidationException.class, () -> log.apply(0, null, value(Status.COMMITTED, plan)));
        assertThrows(ValidationException.class, () -> log.apply(0, plan.id().toUpperCase(), value(Status.COMMITTED, plan)));
    }

    @Test
    void malformedValueIsAnError() {
        ControlLog log = new ControlLog();
        ValidationException e = assertThrows(ValidationException.class, () -> log.apply(7, "k", "{not json"));
        assertTrue(e.getMessage().contains("offset 7"), e.getMessage());
    }

    @Test
    void appliedNeverGoesBackToCommitted() throws Exception {
        Plan plan = plan("chk-1", 10, 20);
        ControlLog log = new ControlLog();
        log.apply(0, plan.id(), value(Status.APPLIED, plan));
        assertThrows(ValidationException.class, () -> log.apply(1, plan.id(), value(Status.COMMITTED, plan)));
    }

    @Test
    void samePlanIdMustCarryIdenticalPlan() throws Exception {
        // The ID string joins fields with "\n", so moving a newline between fields keeps the ID.
        Plan a = Plan.of("chk\ndata", "x", TOPIC_ID, Map.of(0, 1L));
        Plan b = Plan.of("chk", "data\nx", TOPIC_ID, Map.of(0, 1L));
        assertEquals(a.id(), b.id());
        ControlLog log = new ControlLog();
        log.apply(0, a.id(), value(Status.COMMITTED, a));
        ValidationException e = assertThrows(ValidationException.class,
                () -> log.apply(1, b.id(), value(Status.COMMITTED, b)));
        assertTrue(e.getMessage().contains("different plan"), e.getMessage());
    }

    @Test
    void incomparablePlansFailClosed() throws Exception {
        Plan a = plan("chk-1", 10, 50);
        Plan b = plan("chk-2", 20, 40);
        ControlLog log = new ControlLog();
        log.apply(0, a.id(), value(Status.APPLIED, a));
        log.apply(1, b.id(), value(Status.COMMITTED, b));
        assertThrows(ValidationException.class, log::effectiveBoundary);
    }

    @Test
    void plansForAnotherTopicOrPartitionSetFailClosed() throws Exception {
        Plan a = plan("chk-1", 10, 20);
        for (Plan other : List.of(
                Plan.of("chk-2", "other", TOPIC_ID, Map.of(0, 30L, 1, 40L)),
                Plan.of("chk-2", "data", "AAAAAAAAAAAAAAAAAAAAAQ", Map.of(0, 30L, 1, 40L)),
                Plan.of("chk-2", "data", TOPIC_ID, Map.of(0, 30L, 1, 40L, 2, 0L)))) {
            ControlLog log = new ControlLog();
            log.apply(0, a.id(), value(Status.COMMITTED, a));
            log.apply(1, other.id(), value(Status.COMMITTED, other));
            assertThrows(ValidationException.class, log::effectiveBoundary, other.toString());
        }
    }

    @Test
    void boundaryIsPerPartitionMaximumOverCommittedAndApplied() throws Exception {
        Plan older = plan("chk-1", 10, 20);
        Plan equalOnOne = plan("chk-2", 10, 25);
        Plan newest = plan("chk-3", 15, 25);
        ControlLog log = new ControlLog();
        log.apply(0, newest.id(), value(Status.COMMITTED, newest));
        log.apply(1, older.id(), value(Status.APPLIED, older));
        log.apply(2, equalOnOne.id(), value(Status.APPLIED, equalOnOne));
        assertEquals(new TreeMap<>(Map.of(0, 15L, 1, 25L)), log.effectiveBoundary());
        assertEquals("0=15,1=25", Main.formatOffsets(log.effectiveBoundary()));
    }
}
