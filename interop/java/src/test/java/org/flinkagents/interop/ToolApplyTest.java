package org.flinkagents.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ToolApplyTest {
    /** A control topic and a two-partition data topic in memory. */
    static final class FakeKafka implements ToolApply.Kafka {
        final List<ControlRecord> control = new ArrayList<>();
        final SortedMap<Integer, Long> starts = new TreeMap<>(Map.of(0, 0L, 1, 0L));
        String topicId = ControlLogTest.TOPIC_ID;

        @Override
        public ControlLog readControl(String controlTopic) throws Exception {
            ControlLog log = new ControlLog();
            for (int i = 0; i < control.size(); i++) {
                ControlRecord r = control.get(i);
                log.apply(i, r.plan().id(), PlanJson.controlRecordValue(r));
            }
            return log;
        }

        @Override
        public void append(String controlTopic, ControlRecord record) {
            control.add(record);
        }

        @Override
        public String topicId(String topic) {
            return topicId;
        }

        @Override
        public SortedMap<Integer, Long> startOffsets(String topic) {
            return new TreeMap<>(starts);
        }

        @Override
        public void deleteBefore(String topic, Map<Integer, Long> offsets) {
            offsets.forEach((p, o) -> starts.merge(p, o, Math::max));
        }
    }

    @Test
    void commitsDeletesAndRecordsApplied() throws Exception {
        FakeKafka kafka = new FakeKafka();
        Plan plan = ControlLogTest.plan("chk-2", 3, 4);
        assertEquals("Cleanup plan " + plan.id() + " is APPLIED", ToolApply.apply(kafka, "control", plan));
        assertEquals(List.of(new ControlRecord(Status.COMMITTED, plan), new ControlRecord(Status.APPLIED, plan)), kafka.control);
        assertEquals(Map.of(0, 3L, 1, 4L), kafka.starts);
    }

    @Test
    void aRecordedPlanIsResumedWithoutASecondCommit() throws Exception {
        FakeKafka kafka = new FakeKafka();
        Plan plan = ControlLogTest.plan("chk-2", 3, 4);
        kafka.control.add(new ControlRecord(Status.COMMITTED, plan));
        ToolApply.apply(kafka, "control", plan);
        assertEquals(List.of(new ControlRecord(Status.COMMITTED, plan), new ControlRecord(Status.APPLIED, plan)), kafka.control);
    }

    @Test
    void aBackwardPlanChangesNothing() throws Exception {
        FakeKafka kafka = new FakeKafka();
        kafka.control.add(new ControlRecord(Status.APPLIED, ControlLogTest.plan("chk-3", 5, 5)));
        ValidationException e = assertThrows(ValidationException.class,
                () -> ToolApply.apply(kafka, "control", ControlLogTest.plan("chk-2", 3, 9)));
        assertTrue(e.getMessage().contains("does not advance or equal"));
        assertEquals(1, kafka.control.size());
        assertEquals(Map.of(0, 0L, 1, 0L), kafka.starts);
    }

    @Test
    void aRecreatedTopicChangesNothing() {
        FakeKafka kafka = new FakeKafka();
        kafka.topicId = "zzzzzzzzzzzzzzzzzzzzzw";
        assertThrows(ValidationException.class, () -> ToolApply.apply(kafka, "control", ControlLogTest.plan("chk-2", 3, 4)));
        assertTrue(kafka.control.isEmpty());
        assertEquals(Map.of(0, 0L, 1, 0L), kafka.starts);
    }
}
