package io.github.actionstate.fixturegen;

import java.util.LinkedHashMap;
import java.util.Map;

/** The deterministic content the generator puts into the recovery-marker state. */
final class Markers {

    static final String TOPIC = "orders-agent-action-state";
    /** Kafka Uuid.toString() form: URL-safe base64 of 16 bytes, no padding. */
    static final String TOPIC_ID = "q1Yw3mZ7QGu3c8m0b7o5Zg";
    /** More than ten, so that numeric and lexical partition order differ (2 before 10). */
    static final int PARTITIONS = 12;

    private Markers() {}

    /**
     * Offsets of one subtask. Each partition has a base value (0, a value above 2^32 to exercise
     * multi-byte varlongs, small and medium numbers) plus a per-subtask shift that makes a
     * different subtask hold the minimum of each partition.
     */
    static Map<Integer, Long> offsets(int subtask, int parallelism) {
        Map<Integer, Long> offsets = new LinkedHashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            offsets.put(p, base(p) + 10L * ((subtask + p) % parallelism));
        }
        return offsets;
    }

    private static long base(int partition) {
        switch (partition) {
            case 0:
                return 150L;
            case 1:
                return 1_234_567_890_123L;
            case 2:
                return 0L;
            case 3:
                return 7L;
            default:
                return 1000L * partition + 3;
        }
    }
}
