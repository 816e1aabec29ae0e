package io.github.actionstate.fixturegen;

import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.flink.agents.runtime.actionstate.KafkaActionStateRecoveryMarker;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Plays the Flink Agents action-execute operator: keyed state per key, plus the operator's union
 * list states as the runtime registers them ({@code recoveryMarker} and {@code
 * currentProcessingKeys} with Kryo, {@code identifier_state} with Flink's String serializer).
 * Every snapshot stores exactly one marker per subtask, computed from the subtask index only, so
 * the union content does not depend on timing.
 */
final class ActionExecuteFunction extends KeyedProcessFunction<Long, Long, Long>
        implements CheckpointedFunction {

    /** Records processed in this JVM; the generator waits for all of them before snapshotting. */
    static final AtomicLong PROCESSED = new AtomicLong();

    private final boolean legacyMarkers;

    private transient ListState<Object> recoveryMarker;
    private transient ListState<Object> currentProcessingKeys;
    private transient ListState<String> identifierState;
    private transient ValueState<Long> actionCount;

    ActionExecuteFunction(boolean legacyMarkers) {
        this.legacyMarkers = legacyMarkers;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        recoveryMarker = context.getOperatorStateStore().getUnionListState(
                new ListStateDescriptor<>(KafkaActionStateRecoveryMarker.UNION_STATE_NAME,
                        TypeInformation.of(Object.class)));
        currentProcessingKeys = context.getOperatorStateStore().getUnionListState(
                new ListStateDescriptor<>("currentProcessingKeys", TypeInformation.of(Object.class)));
        identifierState = context.getOperatorStateStore().getUnionListState(
                new ListStateDescriptor<>("identifier_state", Types.STRING));
        actionCount = context.getKeyedStateStore().getState(
                new ValueStateDescriptor<>("actionCount", Types.LONG));
    }

    @Override
    public void processElement(Long value, Context ctx, Collector<Long> out) throws Exception {
        Long count = actionCount.value();
        actionCount.update(count == null ? 1L : count + 1);
        PROCESSED.incrementAndGet();
        out.collect(value);
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        int parallelism = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        HashMap<Integer, Long> offsets = new HashMap<>(Markers.offsets(subtask, parallelism));
        Object marker = legacyMarkers
                ? offsets
                : new KafkaActionStateRecoveryMarker(Markers.TOPIC, Markers.TOPIC_ID, offsets);
        recoveryMarker.update(List.of(marker));
        // Even subtasks have a key in flight, odd ones none: element counts differ per subtask.
        currentProcessingKeys.update(subtask % 2 == 0 ? List.of((long) subtask) : List.of());
        identifierState.update(List.of("agent-plan-7d1c4f0e"));
    }
}
