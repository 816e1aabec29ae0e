package io.github.actionstate.fixturegen;

import java.util.List;

/**
 * One fixture to write: which snapshot to take and which knobs of Flink to turn while taking it.
 * Every fixture also carries keyed state, the extra union states of the agent operator and a
 * second operator with its own union state (see {@link ActionExecuteFunction} and
 * {@link AuditFunction}).
 */
record Variant(
        String name,
        Kind kind,
        int parallelism,
        String stateBackend,
        boolean incremental,
        boolean stateInFiles,
        boolean fileMerging,
        boolean compression,
        boolean legacyMarkers,
        boolean withUid,
        boolean quick,
        String covers) {

    enum Kind {
        CANONICAL_SAVEPOINT("savepoint", "canonical"),
        NATIVE_SAVEPOINT("savepoint", "native"),
        CHECKPOINT("checkpoint", "checkpoint");

        final String kind;
        final String format;

        Kind(String kind, String format) {
            this.kind = kind;
            this.format = format;
        }
    }

    /** The covering set written for every Flink line; `quick` marks the one CI writes. */
    static final List<Variant> ALL = List.of(
            new Variant("savepoint-canonical-p1", Kind.CANONICAL_SAVEPOINT, 1, "hashmap",
                    false, false, false, false, false, true, false,
                    "smallest case: one subtask, one marker, state inline in _metadata"),
            new Variant("savepoint-canonical-p4", Kind.CANONICAL_SAVEPOINT, 4, "hashmap",
                    false, false, false, false, false, true, true,
                    "four markers whose per-partition minimum comes from different subtasks; inline"),
            new Variant("savepoint-canonical-p4-files", Kind.CANONICAL_SAVEPOINT, 4, "hashmap",
                    false, true, false, false, false, true, false,
                    "operator state in files next to _metadata (inline threshold 0 -> relative handles)"),
            new Variant("savepoint-canonical-p4-legacy", Kind.CANONICAL_SAVEPOINT, 4, "hashmap",
                    false, false, false, false, true, true, false,
                    "legacy markers: bare java.util.HashMap<Integer,Long> elements"),
            new Variant("savepoint-canonical-p4-nouid", Kind.CANONICAL_SAVEPOINT, 4, "hashmap",
                    false, false, false, false, false, false, false,
                    "agent operator without .uid() (like flink-agents itself): only the generated hash"),
            new Variant("savepoint-native-p4-rocksdb", Kind.NATIVE_SAVEPOINT, 4, "rocksdb",
                    false, false, false, false, false, true, false,
                    "native savepoint of the RocksDB backend: keyed state as SST files"),
            new Variant("checkpoint-p4", Kind.CHECKPOINT, 4, "hashmap",
                    false, false, false, false, false, true, false,
                    "retained checkpoint chk-N, state inline"),
            new Variant("checkpoint-p4-files", Kind.CHECKPOINT, 4, "hashmap",
                    false, true, false, false, false, true, false,
                    "retained checkpoint, operator state in relative files inside chk-N"),
            new Variant("checkpoint-p4-compressed", Kind.CHECKPOINT, 4, "hashmap",
                    false, false, false, true, false, true, false,
                    "snapshot compression (snappy framing inside the operator-state stream)"),
            new Variant("checkpoint-p4-filemerging", Kind.CHECKPOINT, 4, "hashmap",
                    false, false, true, false, false, true, false,
                    "file merging: segment handles with ABSOLUTE paths under taskowned/ (see originalDir)"),
            new Variant("checkpoint-p4-rocksdb-incremental", Kind.CHECKPOINT, 4, "rocksdb",
                    true, false, false, false, false, true, false,
                    "incremental RocksDB checkpoint: keyed handles with SSTs in shared/ (absolute paths)"),
            new Variant("checkpoint-p64", Kind.CHECKPOINT, 64, "hashmap",
                    false, false, false, false, false, true, false,
                    "64 subtasks: 64 markers, subtasks without keyed state"));
}
