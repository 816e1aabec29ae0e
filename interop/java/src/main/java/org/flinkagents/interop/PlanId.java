package org.flinkagents.interop;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.SortedMap;

/**
 * The plan ID of the spec: lowercase hex SHA-256 over
 * {@code "1\n" + source + "\n" + topic + "\n" + topicId + "\n" + ("<p>=<o>\n" per partition, numeric order)}.
 *
 * <p>Deliberately does no validation, so tests can craft an invalid plan whose ID still matches
 * (and so prove a reader rejects it for the right reason).
 */
final class PlanId {
    private PlanId() {}

    static String compute(String sourceRecoveryPoint, String topic, String topicId, SortedMap<Integer, Long> offsets) {
        // SortedMap<Integer, ...> iterates in numeric order: 2 before 10.
        StringBuilder text = new StringBuilder()
                .append(Plan.SCHEMA_VERSION).append('\n')
                .append(sourceRecoveryPoint).append('\n')
                .append(topic).append('\n')
                .append(topicId).append('\n');
        for (Map.Entry<Integer, Long> entry : offsets.entrySet()) {
            text.append(entry.getKey()).append('=').append(entry.getValue()).append('\n');
        }
        return HexFormat.of().formatHex(sha256().digest(text.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
    }
}
