package org.flinkagents.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PlanJsonTest {
    static final String SPEC_SOURCE = "file:/var/flink/checkpoints/7f3a/chk-42";
    static final String SPEC_TOPIC = "orders-agent-action-state";
    static final String SPEC_TOPIC_ID = "q1Yw3mZ7QGu3c8m0b7o5Zg";
    static final String SPEC_PLAN_ID = "a5440177c24ca86c94163d0a3254bca95d7c4e4d3cc3671b267c8e68797adac4";

    static Plan specPlan() throws ValidationException {
        return Plan.of(SPEC_SOURCE, SPEC_TOPIC, SPEC_TOPIC_ID, Map.of(0, 150L, 1, 100L, 2, 0L));
    }

    /** A plan file for the spec's plan with the offsets object replaced by {@code offsetsJson}. */
    static String specFileWithOffsets(String offsetsJson) {
        return "{\"schemaVersion\":1,\"planId\":\"" + SPEC_PLAN_ID + "\",\"sourceRecoveryPoint\":\"" + SPEC_SOURCE
                + "\",\"topic\":\"" + SPEC_TOPIC + "\",\"topicId\":\"" + SPEC_TOPIC_ID + "\",\"offsets\":"
                + offsetsJson + "}";
    }

    static Plan parse(String json) throws ValidationException {
        return PlanJson.parsePlanFile(json.getBytes(StandardCharsets.UTF_8));
    }

    static ValidationException rejects(String json) {
        return assertThrows(ValidationException.class, () -> parse(json));
    }

    @Test
    void specVectorPlanId() throws Exception {
        assertEquals(SPEC_PLAN_ID, specPlan().id());
    }

    @Test
    void planFileBytesAreJacksonDefaultPrettyPrinter() throws Exception {
        String nl = System.lineSeparator();
        String expected = "{" + nl
                + "  \"schemaVersion\" : 1," + nl
                + "  \"planId\" : \"" + SPEC_PLAN_ID + "\"," + nl
                + "  \"sourceRecoveryPoint\" : \"" + SPEC_SOURCE + "\"," + nl
                + "  \"topic\" : \"" + SPEC_TOPIC + "\"," + nl
                + "  \"topicId\" : \"" + SPEC_TOPIC_ID + "\"," + nl
                + "  \"offsets\" : {" + nl
                + "    \"0\" : 150," + nl
                + "    \"1\" : 100," + nl
                + "    \"2\" : 0" + nl
                + "  }" + nl
                + "}" + nl;
        assertEquals(expected, PlanJson.planFileText(specPlan()));
    }

    @Test
    void parsesWhatItWritesAndCompactSpecFormToo() throws Exception {
        Plan plan = specPlan();
        assertEquals(plan, parse(PlanJson.planFileText(plan)));
        assertEquals(plan, parse(specFileWithOffsets("{\"0\":150,\"1\":100,\"2\":0}")));
        assertEquals(plan, parse(specFileWithOffsets("{\"0\":150,\"1\":100,\"2\":0}") + " \n\t"));
    }

    @Test
    void duplicateKeysAreRejectedAtAnyDepth() {
        String file = specFileWithOffsets("{\"0\":150,\"1\":100,\"2\":0}");
        // Each of these would collapse into a valid tree without strict duplicate detection.
        for (String duplicated : List.of(
                specFileWithOffsets("{\"0\":150,\"1\":100,\"2\":0,\"1\":100}"),
                file.replace("{\"schemaVersion\":1,", "{\"schemaVersion\":1,\"schemaVersion\":1,"),
                file.replace("\"offsets\":", "\"topic\":\"" + SPEC_TOPIC + "\",\"offsets\":"))) {
            ValidationException e = rejects(duplicated);
            assertTrue(e.getMessage().contains("Duplicate field"), e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"01", "+1", "1.0", "-1", " 1", "1 ", "", "1e0", "0x1", "١", "2147483648", "99999999999999999999"})
    void nonCanonicalPartitionKeysAreRejected(String key) {
        ValidationException e = rejects(specFileWithOffsets("{\"0\":150,\"" + key + "\":100,\"2\":0}"));
        assertTrue(e.getMessage().contains("canonical"), e.getMessage());
    }

    @Test
    void largestPartitionIsAccepted() throws Exception {
        Plan plan = Plan.of("s", "t", SPEC_TOPIC_ID, Map.of(Integer.MAX_VALUE, Long.MAX_VALUE));
        assertEquals(plan, parse(PlanJson.planFileText(plan)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"100.0", "1e2", "\"100\"", "null", "true", "-1", "9223372036854775808", "[100]", "{}"})
    void offsetValuesMustBeNonNegativeInt64(String value) {
        rejects(specFileWithOffsets("{\"0\":150,\"1\":" + value + ",\"2\":0}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {" {}", " x", " 1", "]", " \"a\"", "{"})
    void trailingTokensAreRejected(String trailer) {
        rejects(specFileWithOffsets("{\"0\":150,\"1\":100,\"2\":0}") + trailer);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "null", "[]", "\"plan\"", "42"})
    void documentMustBeOneObject(String json) {
        rejects(json);
    }

    @Test
    void wrongPlanIdIsRejected() {
        String good = specFileWithOffsets("{\"0\":150,\"1\":100,\"2\":0}");
        ValidationException e = rejects(good.replace(SPEC_PLAN_ID, "0" + SPEC_PLAN_ID.substring(1)));
        assertTrue(e.getMessage().contains(SPEC_PLAN_ID), e.getMessage());
        rejects(good.replace(SPEC_PLAN_ID, SPEC_PLAN_ID.toUpperCase()));
        // Contents changed, ID kept.
        rejects(specFileWithOffsets("{\"0\":151,\"1\":100,\"2\":0}"));
    }

    @Test
    void fieldsMustBeExactlyTheSixInOrder() {
        String good = specFileWithOffsets("{\"0\":150,\"1\":100,\"2\":0}");
        rejects(good.replace("\"topic\":\"" + SPEC_TOPIC + "\",", ""));
        rejects(good.replace("{\"schemaVersion\":1,", "{\"schemaVersion\":1,\"extra\":null,"));
        rejects(good.replace("{\"schemaVersion\":1,\"planId\":\"" + SPEC_PLAN_ID + "\",",
                "{\"planId\":\"" + SPEC_PLAN_ID + "\",\"schemaVersion\":1,"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2", "0", "1.0", "\"1\"", "null", "4294967297"})
    void schemaVersionMustBeIntegerOne(String version) {
        rejects(specFileWithOffsets("{\"0\":150,\"1\":100,\"2\":0}").replace("\"schemaVersion\":1", "\"schemaVersion\":" + version));
    }

    @Test
    void stringFieldsMustBeJsonStrings() {
        String good = specFileWithOffsets("{\"0\":150,\"1\":100,\"2\":0}");
        rejects(good.replace("\"topicId\":\"" + SPEC_TOPIC_ID + "\"", "\"topicId\":null"));
        rejects(good.replace("\"planId\":\"" + SPEC_PLAN_ID + "\"", "\"planId\":[\"" + SPEC_PLAN_ID + "\"]"));
    }

    @Test
    void planRulesAreEnforcedEvenWithAMatchingPlanId() throws Exception {
        assertPlanRuleRejected(" ", SPEC_TOPIC, SPEC_TOPIC_ID, Map.of(0, 1L));
        assertPlanRuleRejected("s", "\t", SPEC_TOPIC_ID, Map.of(0, 1L));
        assertPlanRuleRejected("s", SPEC_TOPIC, "", Map.of(0, 1L));
        assertPlanRuleRejected("s", SPEC_TOPIC, Plan.ZERO_TOPIC_ID, Map.of(0, 1L));
        assertPlanRuleRejected("s", SPEC_TOPIC, SPEC_TOPIC_ID, Map.of());
        assertPlanRuleRejected("s", SPEC_TOPIC, SPEC_TOPIC_ID, Map.of(0, -1L));
    }

    private static void assertPlanRuleRejected(String source, String topic, String topicId, Map<Integer, Long> offsets)
            throws Exception {
        TreeMap<Integer, Long> sorted = new TreeMap<>(offsets);
        StringBuilder json = new StringBuilder();
        sorted.forEach((p, o) -> json.append(json.length() == 0 ? "" : ",").append('"').append(p).append("\":").append(o));
        var node = PlanJson.MAPPER.createObjectNode();
        node.put("schemaVersion", 1);
        node.put("planId", PlanId.compute(source, topic, topicId, sorted));
        node.put("sourceRecoveryPoint", source);
        node.put("topic", topic);
        node.put("topicId", topicId);
        node.set("offsets", PlanJson.MAPPER.readTree("{" + json + "}"));
        rejects(PlanJson.MAPPER.writeValueAsString(node));
        assertThrows(ValidationException.class, () -> Plan.of(source, topic, topicId, offsets));
    }

    @Test
    void tenOrMorePartitionsAreOrderedNumerically() throws Exception {
        Map<Integer, Long> offsets = new TreeMap<>();
        for (int p = 0; p < 12; p++) {
            offsets.put(p, 1000L + p);
        }
        Plan plan = Plan.of(SPEC_SOURCE, SPEC_TOPIC, SPEC_TOPIC_ID, offsets);

        StringBuilder numeric = new StringBuilder("1\n" + SPEC_SOURCE + "\n" + SPEC_TOPIC + "\n" + SPEC_TOPIC_ID + "\n");
        for (int p = 0; p < 12; p++) {
            numeric.append(p).append('=').append(1000 + p).append('\n');
        }
        assertEquals(sha256Hex(numeric.toString()), plan.id());

        String text = PlanJson.planFileText(plan);
        List<Integer> keyPositions = new java.util.ArrayList<>();
        for (int p = 0; p < 12; p++) {
            keyPositions.add(text.indexOf("\"" + p + "\" : " + (1000 + p)));
        }
        assertEquals(keyPositions.stream().sorted().toList(), keyPositions, text);
        assertTrue(text.indexOf("\"2\" :") < text.indexOf("\"10\" :"), text);

        // Keys may arrive in any order; the reprint is numeric.
        String shuffled = text.replace("\"10\" : 1010,", "").replace("\"0\" : 1000,", "\"10\" : 1010, \"0\" : 1000,");
        assertEquals(text, PlanJson.planFileText(parse(shuffled)));
    }

    @Test
    void nonAsciiAndHtmlCharactersAreWrittenRaw() throws Exception {
        String source = "s3://bücket/チェックポイント/<a&b>/\"q\"/back\\slash/tab\t/😀";
        Plan plan = Plan.of(source, SPEC_TOPIC, SPEC_TOPIC_ID, Map.of(0, 1L));
        byte[] bytes = PlanJson.planFileText(plan).getBytes(StandardCharsets.UTF_8);
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertTrue(text.contains("\"sourceRecoveryPoint\" : \"s3://bücket/チェックポイント/<a&b>/\\\"q\\\"/back\\\\slash/tab\\t/😀\""), text);
        assertTrue(!text.contains("\\u"), text);
        assertEquals(plan, PlanJson.parsePlanFile(bytes));
        // The escaped spelling parses to the same plan and reprints raw.
        String escaped = text.replace("bücket", "b\\u00fccket").replace("<a&b>", "\\u003ca\\u0026b\\u003e");
        assertArrayEquals(bytes, PlanJson.planFileText(parse(escaped)).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void planFileIsReadAsTheToolReadsIt() throws Exception {
        byte[] file = PlanJson.planFileText(specPlan()).getBytes(StandardCharsets.UTF_8);
        // Files.readString then Jackson over the String: a byte-order mark is a character, not skipped.
        byte[] withMark = new byte[file.length + 3];
        withMark[0] = (byte) 0xEF;
        withMark[1] = (byte) 0xBB;
        withMark[2] = (byte) 0xBF;
        System.arraycopy(file, 0, withMark, 3, file.length);
        assertThrows(ValidationException.class, () -> PlanJson.parsePlanFile(withMark));
        // ... and bytes that are not UTF-8 are refused before any JSON is read.
        byte[] notUtf8 = file.clone();
        notUtf8[file.length - 3] = (byte) 0xFF;
        ValidationException e = assertThrows(ValidationException.class, () -> PlanJson.parsePlanFile(notUtf8));
        assertTrue(e.getMessage().contains("not UTF-8"), e.getMessage());
    }

    static String sha256Hex(String text) throws Exception {
        byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        return java.util.HexFormat.of().formatHex(digest);
    }
}
