package org.flinkagents.interop;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RuntimeRulesTest {
    @Test
    void controlTopicPolicyIsComparedExactly() {
        assertDoesNotThrow(() -> RuntimeRules.checkControlTopic("ctl", Set.of(0), "compact"));
        for (String policy : new String[] {" compact", "compact ", "compact,compact", "compact,delete", "Compact", null}) {
            ValidationException e = assertThrows(ValidationException.class,
                    () -> RuntimeRules.checkControlTopic("ctl", Set.of(0), policy), String.valueOf(policy));
            assertEquals("Kafka cleanup control topic ctl must use cleanup.policy=compact without delete retention", e.getMessage());
        }
        assertThrows(ValidationException.class, () -> RuntimeRules.checkControlTopic("ctl", Set.of(0, 1), "compact"));
    }

    @Test
    void replicationFactorIsBetweenOneAndShortMax() {
        assertDoesNotThrow(() -> RuntimeRules.checkReplicationFactor(1));
        assertDoesNotThrow(() -> RuntimeRules.checkReplicationFactor(32767));
        for (int factor : new int[] {-1, 0, 32768, 65537}) {
            ValidationException e = assertThrows(ValidationException.class, () -> RuntimeRules.checkReplicationFactor(factor));
            assertEquals("Kafka cleanup control topic replication factor must be between 1 and 32767, but was " + factor,
                    e.getMessage());
        }
    }

    @Test
    void offsetsOutsideTheAvailableRangeAreNotCommitted() {
        Map<Integer, long[]> ranges = Map.of(0, new long[] {8, 10}, 1, new long[] {3, 10});
        assertDoesNotThrow(() -> RuntimeRules.checkOffsetsAvailable("data", Map.of(0, 8L, 1, 10L), ranges));
        ValidationException below = assertThrows(ValidationException.class,
                () -> RuntimeRules.checkOffsetsAvailable("data", Map.of(0, 5L), ranges));
        assertEquals("Cannot commit Kafka cleanup boundary for data-0 at offset 5 because the available range is [8, 10]",
                below.getMessage());
        ValidationException above = assertThrows(ValidationException.class,
                () -> RuntimeRules.checkOffsetsAvailable("data", Map.of(1, 11L), ranges));
        assertEquals("Cannot commit Kafka cleanup boundary for data-1 at offset 11 because the available range is [3, 10]",
                above.getMessage());
    }
}
