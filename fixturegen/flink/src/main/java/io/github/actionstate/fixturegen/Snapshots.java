package io.github.actionstate.fixturegen;

import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.checkpoint.CheckpointProperties;
import org.apache.flink.runtime.checkpoint.SavepointType;
import org.apache.flink.runtime.checkpoint.SnapshotType;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;

/** Tells checkpoints, canonical and native savepoints apart from what `_metadata` records. */
final class Snapshots {

    private Snapshots() {}

    static Variant.Kind kindOf(CheckpointMetadata metadata) {
        CheckpointProperties props = metadata.getCheckpointProperties();
        if (props == null) {
            throw new IllegalStateException("_metadata records no checkpoint properties (metadata version < 4)");
        }
        SnapshotType type = props.getCheckpointType();
        if (!type.isSavepoint()) {
            return Variant.Kind.CHECKPOINT;
        }
        SavepointFormatType format = ((SavepointType) type).getFormatType();
        return format == SavepointFormatType.NATIVE
                ? Variant.Kind.NATIVE_SAVEPOINT
                : Variant.Kind.CANONICAL_SAVEPOINT;
    }
}
