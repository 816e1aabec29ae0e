package io.github.actionstate.fixturegen;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.flink.agents.runtime.actionstate.KafkaActionStateRecoveryMarker;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.state.OperatorStateHandle;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.state.api.OperatorIdentifier;
import org.apache.flink.state.api.SavepointReader;
import org.apache.flink.state.api.runtime.OperatorIDGenerator;
import org.apache.flink.state.api.runtime.SavepointLoader;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.StringUtils;

/**
 * What Flink itself reads from a snapshot: the elements of the {@code recoveryMarker} union state
 * as returned by the State Processor API, in its order, rendered as the oracle JSON the Go reader
 * is tested against.
 */
final class Oracle {

    static final String STATE = KafkaActionStateRecoveryMarker.UNION_STATE_NAME;

    /** Elements read by the last {@link #read}; the reading job runs in this JVM with parallelism 1. */
    private static final List<Object> COLLECTED = Collections.synchronizedList(new ArrayList<>());

    private Oracle() {}

    private static boolean collect(Object element) {
        return COLLECTED.add(element);
    }

    /**
     * Reads the markers of one operator. {@code operator} is a uid, a 32-hex uid hash, or
     * {@code auto} (the only operator holding a {@code recoveryMarker} state).
     */
    static String read(String pointer, String snapshotPathForJson, String operator,
            String originalDir, Path tmpDir) throws Exception {
        CheckpointMetadata metadata = SavepointLoader.loadSavepointMetadata(pointer);
        String uid = "";
        OperatorID id;
        if (operator.equals("auto")) {
            id = findMarkerOperator(metadata);
        } else if (operator.matches("[0-9a-fA-F]{32}")) {
            id = new OperatorID(StringUtils.hexStringToByte(operator.toLowerCase()));
        } else {
            uid = operator;
            id = OperatorIDGenerator.fromUid(uid);
        }
        if (metadata.getOperatorStates().stream().noneMatch(s -> s.getOperatorID().equals(id))) {
            throw new IllegalStateException("operator " + id + " (" + operator + ") is not in " + pointer);
        }
        OperatorIdentifier identifier = uid.isEmpty()
                ? OperatorIdentifier.forUidHash(id.toHexString())
                : OperatorIdentifier.forUid(uid);

        Files.createDirectories(tmpDir);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                Configuration.fromMap(Loopback.settings(tmpDir)));
        env.setParallelism(1);
        // Collected into this JVM's memory rather than with executeAndCollect, whose fetcher
        // races the local cluster's shutdown and warns that data "might be lost".
        SavepointReader.read(env, pointer, new HashMapStateBackend())
                .readUnionState(identifier, STATE, TypeInformation.of(Object.class))
                .map(Oracle::collect)
                .returns(Types.BOOLEAN);
        COLLECTED.clear();
        env.execute("read " + STATE + " of " + pointer);
        List<Object> elements = new ArrayList<>(COLLECTED);

        Variant.Kind kind = Snapshots.kindOf(metadata);
        StringBuilder json = new StringBuilder("{\n");
        field(json, "flinkVersion", EnvironmentInformation.getVersion());
        field(json, "kind", kind.kind);
        field(json, "format", kind.format);
        field(json, "snapshotPath", snapshotPathForJson);
        field(json, "operatorUid", uid);
        field(json, "operatorUidHash", id.toHexString());
        if (originalDir != null) {
            field(json, "originalDir", originalDir);
        }
        json.append("  \"markers\": [");
        for (int i = 0; i < elements.size(); i++) {
            json.append(i == 0 ? "\n    " : ",\n    ").append(marker(elements.get(i)));
        }
        json.append(elements.isEmpty() ? "]\n}\n" : "\n  ]\n}\n");
        return json.toString();
    }

    /** The one operator whose managed operator state has a {@code recoveryMarker} entry. */
    static OperatorID findMarkerOperator(CheckpointMetadata metadata) {
        List<OperatorID> found = new ArrayList<>();
        for (OperatorState op : metadata.getOperatorStates()) {
            boolean holds = false;
            for (OperatorSubtaskState subtask : op.getStates()) {
                for (OperatorStateHandle h : subtask.getManagedOperatorState()) {
                    holds |= h.getStateNameToPartitionOffsets().containsKey(STATE);
                }
            }
            if (holds) {
                found.add(op.getOperatorID());
            }
        }
        if (found.size() != 1) {
            throw new IllegalStateException("expected exactly one operator with a " + STATE
                    + " state, found " + found);
        }
        return found.get(0);
    }

    private static String marker(Object element) {
        if (element instanceof KafkaActionStateRecoveryMarker) {
            KafkaActionStateRecoveryMarker m = (KafkaActionStateRecoveryMarker) element;
            return "{\"legacy\": false, \"schemaVersion\": " + m.getSchemaVersion()
                    + ", \"topic\": " + quote(m.getTopic()) + ", \"topicId\": " + quote(m.getTopicId())
                    + ", \"offsets\": " + offsets(m.getOffsets()) + "}";
        }
        if (element instanceof Map) {
            return "{\"legacy\": true, \"offsets\": " + offsets((Map<?, ?>) element) + "}";
        }
        throw new IllegalStateException("unexpected recoveryMarker element "
                + (element == null ? "null" : element.getClass().getName()) + ": " + element);
    }

    private static String offsets(Map<?, ?> offsets) {
        TreeMap<Integer, Long> sorted = new TreeMap<>();
        for (Map.Entry<?, ?> e : offsets.entrySet()) {
            sorted.put((Integer) e.getKey(), (Long) e.getValue());
        }
        StringBuilder s = new StringBuilder("{");
        sorted.forEach((p, o) -> s.append(s.length() == 1 ? "" : ", ")
                .append('"').append(p).append("\": ").append(o));
        return s.append('}').toString();
    }

    private static void field(StringBuilder json, String name, String value) {
        json.append("  \"").append(name).append("\": ").append(quote(value)).append(",\n");
    }

    static String quote(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder q = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"': q.append("\\\""); break;
                case '\\': q.append("\\\\"); break;
                case '\n': q.append("\\n"); break;
                case '\r': q.append("\\r"); break;
                case '\t': q.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        q.append(String.format("\\u%04x", (int) c));
                    } else {
                        q.append(c);
                    }
            }
        }
        return q.append('"').toString();
    }
}
