package io.github.actionstate.fixturegen;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * A second stateful operator chained after the agent operator. Its union state {@code
 * auditMarkers} holds Kryo HashMaps that look like legacy markers, so a reader that picks the
 * wrong operator or state name returns plausible but wrong data; {@code pendingAudit} is a
 * split-distribute (non-union) list state.
 */
final class AuditFunction extends ProcessFunction<Long, Long> implements CheckpointedFunction {

    static final String UID = "audit-operator";
    static final String UNION_STATE = "auditMarkers";

    private transient ListState<Object> auditMarkers;
    private transient ListState<Long> pendingAudit;

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        auditMarkers = context.getOperatorStateStore().getUnionListState(
                new ListStateDescriptor<>(UNION_STATE, TypeInformation.of(Object.class)));
        pendingAudit = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>("pendingAudit", Types.LONG));
    }

    @Override
    public void processElement(Long value, Context ctx, Collector<Long> out) {
        // Stateless per record: only the snapshot content matters.
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        Map<Integer, Long> audit = new HashMap<>();
        audit.put(subtask, 99L);
        auditMarkers.update(List.of(audit));
        pendingAudit.update(List.of(1000L + subtask));
    }
}
