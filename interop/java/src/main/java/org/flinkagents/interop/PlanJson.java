package org.flinkagents.interop;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Plan files and control-record values, read strictly and written exactly as the Java tool
 * writes them: an ObjectMapper with default write settings, so non-ASCII is raw UTF-8 and
 * {@code < > &} are not escaped.
 */
final class PlanJson {
    static final List<String> PLAN_FIELDS =
            List.of("schemaVersion", "planId", "sourceRecoveryPoint", "topic", "topicId", "offsets");
    static final List<String> RECORD_FIELDS = List.of("schemaVersion", "status", "plan");

    /** Decimal without sign, leading zeros, fraction or exponent. */
    private static final Pattern CANONICAL_PARTITION = Pattern.compile("0|[1-9][0-9]*");

    // STRICT_DUPLICATE_DETECTION is JsonParser.Feature.STRICT_DUPLICATE_DETECTION under its
    // non-deprecated name; it rejects a repeated key at any depth while parsing.
    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private PlanJson() {}

    // ---- reading ----

    /**
     * Reads a plan file as the tool's {@code apply} does: {@code Files.readString(path, UTF_8)}, which
     * refuses bytes that are not UTF-8, then Jackson over that String, which (unlike Jackson over
     * bytes) does not skip a leading byte-order mark.
     */
    static Plan parsePlanFile(byte[] json) throws ValidationException {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(json))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new ValidationException("plan file is not UTF-8: " + e, e);
        }
        try {
            return parsePlan(MAPPER.readTree(text), "plan");
        } catch (JsonProcessingException e) {
            throw new ValidationException("not a single JSON document: " + e.getOriginalMessage(), e);
        }
    }

    static ControlRecord parseControlRecord(byte[] json) throws ValidationException {
        return parseControlRecord(readTree(json));
    }

    static ControlRecord parseControlRecord(String json) throws ValidationException {
        try {
            return parseControlRecord(MAPPER.readTree(json));
        } catch (JsonProcessingException e) {
            throw new ValidationException("control record is not a single JSON document: " + e.getOriginalMessage(), e);
        }
    }

    private static JsonNode readTree(byte[] json) throws ValidationException {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new ValidationException("not a single JSON document: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new ValidationException("cannot read JSON: " + e.getMessage(), e);
        }
    }

    private static ControlRecord parseControlRecord(JsonNode node) throws ValidationException {
        requireFields(node, RECORD_FIELDS, "control record");
        requireSchemaVersion(node.get("schemaVersion"), "control record");
        JsonNode statusNode = node.get("status");
        if (!statusNode.isTextual()) {
            throw new ValidationException("control record status must be a JSON string, got " + statusNode);
        }
        Status status;
        try {
            status = Status.valueOf(statusNode.textValue());
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    "control record status must be COMMITTED or APPLIED, got " + statusNode);
        }
        return new ControlRecord(status, parsePlan(node.get("plan"), "control record plan"));
    }

    private static Plan parsePlan(JsonNode node, String what) throws ValidationException {
        requireFields(node, PLAN_FIELDS, what);
        requireSchemaVersion(node.get("schemaVersion"), what);
        String planId = requireString(node, "planId", what);
        String source = requireString(node, "sourceRecoveryPoint", what);
        String topic = requireString(node, "topic", what);
        String topicId = requireString(node, "topicId", what);
        Plan plan = Plan.of(source, topic, topicId, parseOffsets(node.get("offsets"), what));
        String expected = plan.id();
        if (!expected.equals(planId)) {
            throw new ValidationException(
                    what + " planId " + planId + " does not match its contents, which hash to " + expected);
        }
        return plan;
    }

    private static Map<Integer, Long> parseOffsets(JsonNode node, String what) throws ValidationException {
        if (!node.isObject()) {
            throw new ValidationException(what + " offsets must be a JSON object, got " + node.getNodeType());
        }
        Map<Integer, Long> offsets = new TreeMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String key = entry.getKey();
            JsonNode value = entry.getValue();
            if (!value.isIntegralNumber() || !value.canConvertToLong()) {
                throw new ValidationException(what + " offset of partition \"" + key
                        + "\" must be an integer within int64, got " + value);
            }
            offsets.put(parsePartitionKey(key, what), value.longValue());
        }
        return offsets;
    }

    /** A partition key as the Java tool writes it ({@code Integer.toString}), nothing else. */
    private static int parsePartitionKey(String key, String what) throws ValidationException {
        // At most 10 digits keeps parseLong safe; the range check then catches 2147483648..9999999999.
        if (!CANONICAL_PARTITION.matcher(key).matches() || key.length() > 10 || Long.parseLong(key) > Integer.MAX_VALUE) {
            throw new ValidationException(what + " offsets key \"" + key
                    + "\" is not a canonical decimal partition number (0..2147483647, no sign, no leading zeros)");
        }
        return Integer.parseInt(key);
    }

    private static void requireFields(JsonNode node, List<String> expected, String what) throws ValidationException {
        if (node == null || !node.isObject()) {
            throw new ValidationException(what + " must be a JSON object, got "
                    + (node == null ? "nothing" : node.getNodeType()));
        }
        List<String> actual = new ArrayList<>();
        node.fieldNames().forEachRemaining(actual::add);
        if (!actual.equals(expected)) {
            // Order is checked too: the Java tool always writes this order, and the Go side is
            // compared byte for byte against it.
            throw new ValidationException(what + " must have exactly the fields " + expected
                    + " in this order, found " + actual);
        }
    }

    private static void requireSchemaVersion(JsonNode node, String what) throws ValidationException {
        if (!node.isIntegralNumber()) {
            throw new ValidationException(what + " schemaVersion must be an integer, got " + node);
        }
        if (!node.canConvertToInt() || node.intValue() != Plan.SCHEMA_VERSION) {
            throw new ValidationException(what + " schemaVersion must be " + Plan.SCHEMA_VERSION + ", got " + node);
        }
    }

    private static String requireString(JsonNode object, String field, String what) throws ValidationException {
        JsonNode node = object.get(field);
        if (!node.isTextual()) {
            throw new ValidationException(what + " " + field + " must be a JSON string, got " + node.getNodeType());
        }
        return node.textValue();
    }

    // ---- writing ----

    static ObjectNode planNode(Plan plan) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("schemaVersion", Plan.SCHEMA_VERSION);
        node.put("planId", plan.id());
        node.put("sourceRecoveryPoint", plan.sourceRecoveryPoint());
        node.put("topic", plan.topic());
        node.put("topicId", plan.topicId());
        ObjectNode offsets = node.putObject("offsets");
        plan.offsets().forEach((partition, offset) -> offsets.put(Integer.toString(partition), offset.longValue()));
        return node;
    }

    /** The plan file: default pretty printer, then one {@code System.lineSeparator()}. */
    static String planFileText(Plan plan) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(planNode(plan)) + System.lineSeparator();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize plan " + plan, e);
        }
    }

    /** The control-record value: compact, no trailing newline. */
    static String controlRecordValue(ControlRecord record) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("schemaVersion", Plan.SCHEMA_VERSION);
        node.put("status", record.status().name());
        node.set("plan", planNode(record.plan()));
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize control record " + record, e);
        }
    }
}
