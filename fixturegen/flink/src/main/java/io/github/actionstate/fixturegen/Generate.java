package io.github.actionstate.fixturegen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.state.api.runtime.OperatorIDGenerator;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Runs a small job on a MiniCluster for each {@link Variant}, takes the snapshot, and writes it
 * with its oracle.json (and fixture.json) to {@code <out>/<line>-<variant>/}.
 *
 * <p>Usage: {@code Generate --out DIR --staging DIR [--quick] [--only name,name]}. Snapshots are
 * first written under the staging directory (a fixed path, so that the absolute paths Flink
 * records stay the same from run to run), read back there, then copied into the output; the
 * staging copy is deleted afterwards.
 */
public final class Generate {

    static final String AGENT_UID = "action-execute-operator";
    /** Records the job processes before the snapshot; the source then keeps running idle. */
    static final long RECORDS = 160;
    static final int KEYS = 16;

    private Generate() {}

    public static void main(String[] args) throws Exception {
        Path out = null;
        Path staging = null;
        boolean quick = false;
        List<String> only = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out": out = Path.of(args[++i]); break;
                case "--staging": staging = Path.of(args[++i]); break;
                case "--quick": quick = true; break;
                case "--only": only = Arrays.asList(args[++i].split(",")); break;
                default:
                    System.err.println("unknown argument " + args[i]);
                    System.exit(2);
            }
        }
        if (out == null || staging == null) {
            System.err.println("usage: Generate --out DIR --staging DIR [--quick] [--only name,name]");
            System.exit(2);
        }
        String version = EnvironmentInformation.getVersion();
        String line = version.substring(0, version.indexOf('.', version.indexOf('.') + 1));
        List<Variant> variants = new ArrayList<>();
        for (Variant v : Variant.ALL) {
            if ((only == null || only.contains(v.name())) && (!quick || v.quick())) {
                variants.add(v);
            }
        }
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("no variant selected by " + only);
        }
        for (Variant v : variants) {
            long start = System.nanoTime();
            String fixture = line + "-" + v.name();
            generate(v, fixture, staging.resolve(fixture).toAbsolutePath(), out.resolve(fixture).toAbsolutePath());
            System.out.printf("%s: %s written in %.1f s%n", version, fixture, (System.nanoTime() - start) / 1e9);
        }
        System.exit(0);
    }

    static void generate(Variant v, String fixture, Path staging, Path target) throws Exception {
        deleteRecursively(staging);
        Path checkpoints = staging.resolve("checkpoints");
        Path savepoints = staging.resolve("savepoints");
        Path tmp = staging.resolve("tmp");
        Files.createDirectories(tmp);
        JobID jobId = jobIdFor(fixture);
        Configuration conf = Configuration.fromMap(settings(v, checkpoints, savepoints, tmp, jobId));

        String pointer;
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(v.parallelism())
                .build());
        cluster.start();
        try {
            ActionExecuteFunction.PROCESSED.set(0);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            pipeline(env, v);
            JobGraph job = env.getStreamGraph().getJobGraph(Generate.class.getClassLoader(), jobId);
            cluster.submitJob(job).get(1, TimeUnit.MINUTES);
            progress(fixture, "submitted");
            awaitProcessed();
            progress(fixture, "records processed");
            pointer = snapshot(cluster, jobId, v, savepoints);
            progress(fixture, "snapshot " + pointer);
            cluster.cancelJob(jobId).get(1, TimeUnit.MINUTES);
            cluster.requestJobResult(jobId).get(1, TimeUnit.MINUTES);
            progress(fixture, "cancelled");
        } finally {
            cluster.close();
        }

        // The directory whose content becomes the fixture directory.
        Path snapshot = Path.of(pointer.replaceFirst("^file:", "")).toAbsolutePath().normalize();
        Path original = v.kind() == Variant.Kind.CHECKPOINT ? snapshot.getParent() : savepoints;
        String snapshotPath = original.relativize(snapshot).toString();
        progress(fixture, "cluster closed");
        String oracle = Oracle.read(snapshot.toString(), snapshotPath,
                v.withUid() ? AGENT_UID : "auto", original.toString(), tmp);
        progress(fixture, "read back");

        deleteRecursively(target);
        copyTree(original, target);
        if (!v.fileMerging()) {
            // Everything Flink needs for this state sits beside _metadata: prove the moved copy reads the same.
            String moved = Oracle.read(target.resolve(snapshotPath).toString(), snapshotPath,
                    v.withUid() ? AGENT_UID : "auto", original.toString(), tmp);
            // Flink does not return union elements in a stable order (seen with state in files),
            // so the two reads are compared as multisets.
            if (!sortedLines(moved).equals(sortedLines(oracle))) {
                throw new IllegalStateException("moved copy of " + fixture + " reads differently:\n" + oracle + "\n" + moved);
            }
        }
        Files.writeString(target.resolve("oracle.json"), oracle, StandardCharsets.UTF_8);
        Files.writeString(target.resolve("fixture.json"), describe(v, jobId), StandardCharsets.UTF_8);
        // Leave nothing at the original absolute paths, so no test passes by following them by accident.
        deleteRecursively(staging);
    }

    private static final long T0 = System.nanoTime();

    private static void progress(String fixture, String what) {
        System.err.printf("[%7.1f s] %s: %s%n", (System.nanoTime() - T0) / 1e9, fixture, what);
    }

    private static List<String> sortedLines(String json) {
        List<String> lines = new ArrayList<>();
        for (String l : json.split("\n")) {
            lines.add(l.endsWith(",") ? l.substring(0, l.length() - 1) : l);
        }
        lines.sort(null);
        return lines;
    }

    static void pipeline(StreamExecutionEnvironment env, Variant v) {
        GeneratorFunction<Long, Long> identity = i -> i;
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(
                identity, Long.MAX_VALUE, RateLimiterStrategy.perSecond(1000), Types.LONG);
        SingleOutputStreamOperator<Long> agent = env
                .fromSource(source, WatermarkStrategy.noWatermarks(), "sequence")
                .uid("sequence-source")
                .setParallelism(1)
                .filter(i -> i < RECORDS)
                .uid("first-records")
                .setParallelism(1)
                .keyBy(i -> i % KEYS, Types.LONG)
                .process(new ActionExecuteFunction(v.legacyMarkers()))
                .name(AGENT_UID)
                .setParallelism(v.parallelism());
        if (v.withUid()) {
            agent.uid(AGENT_UID);
        }
        agent.process(new AuditFunction())
                .uid(AuditFunction.UID)
                .name(AuditFunction.UID)
                .setParallelism(v.parallelism());
    }

    static Map<String, String> settings(Variant v, Path checkpoints, Path savepoints, Path tmp, JobID jobId) {
        Map<String, String> s = new HashMap<>(Loopback.settings(tmp));
        s.put("$internal.pipeline.job-id", jobId.toHexString());
        s.put("state.backend.type", v.stateBackend());
        s.put("state.backend.rocksdb.localdir", tmp.resolve("rocksdb").toString());
        // 1.20 knows both spellings; 2.x only the execution.checkpointing.* ones.
        s.put("execution.checkpointing.dir", checkpoints.toUri().toString());
        s.put("state.checkpoints.dir", checkpoints.toUri().toString());
        s.put("execution.checkpointing.savepoint-dir", savepoints.toUri().toString());
        s.put("state.savepoints.dir", savepoints.toUri().toString());
        // Periodic checkpoints only so that retention applies; the snapshot itself is triggered.
        s.put("execution.checkpointing.interval", "1 h");
        s.put("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION");
        s.put("execution.checkpointing.num-retained", "1");
        s.put("state.checkpoints.num-retained", "1");
        s.put("execution.checkpointing.incremental", Boolean.toString(v.incremental()));
        s.put("state.backend.incremental", Boolean.toString(v.incremental()));
        if (v.stateInFiles()) {
            s.put("execution.checkpointing.data-inline-threshold", "0 b");
            s.put("state.storage.fs.memory-threshold", "0 b");
        }
        s.put("execution.checkpointing.file-merging.enabled", Boolean.toString(v.fileMerging()));
        s.put("execution.checkpointing.snapshot-compression", Boolean.toString(v.compression()));
        s.put("taskmanager.memory.managed.size", "64 mb");
        s.put("taskmanager.memory.network.min", "64 mb");
        s.put("taskmanager.memory.network.max", "64 mb");
        return s;
    }

    /** The job ID is derived from the fixture name, so savepoint names and paths are stable. */
    static JobID jobIdFor(String fixture) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(fixture.getBytes(StandardCharsets.UTF_8));
        return new JobID(Arrays.copyOf(digest, 16));
    }

    private static void awaitProcessed() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (ActionExecuteFunction.PROCESSED.get() < RECORDS) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("job processed only " + ActionExecuteFunction.PROCESSED.get()
                        + " of " + RECORDS + " records");
            }
            Thread.sleep(50);
        }
    }

    /** Triggers the snapshot, retrying while tasks are still being deployed. */
    private static String snapshot(MiniCluster cluster, JobID jobId, Variant v, Path savepoints) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                switch (v.kind()) {
                    case CHECKPOINT:
                        return cluster.triggerCheckpoint(jobId).get(2, TimeUnit.MINUTES);
                    case NATIVE_SAVEPOINT:
                        return cluster.triggerSavepoint(jobId, savepoints.toUri().toString(), false,
                                SavepointFormatType.NATIVE).get(2, TimeUnit.MINUTES);
                    default:
                        return cluster.triggerSavepoint(jobId, savepoints.toUri().toString(), false,
                                SavepointFormatType.CANONICAL).get(2, TimeUnit.MINUTES);
                }
            } catch (ExecutionException e) {
                if (attempt >= 30) {
                    throw e;
                }
                System.err.println("snapshot attempt " + attempt + " failed, retrying: " + e.getCause());
                Thread.sleep(1000);
            }
        }
    }

    private static String describe(Variant v, JobID jobId) {
        return "{\n"
                + "  \"variant\": " + Oracle.quote(v.name()) + ",\n"
                + "  \"covers\": " + Oracle.quote(v.covers()) + ",\n"
                + "  \"jobId\": " + Oracle.quote(jobId.toHexString()) + ",\n"
                + "  \"parallelism\": " + v.parallelism() + ",\n"
                + "  \"stateBackend\": " + Oracle.quote(v.stateBackend()) + ",\n"
                + "  \"incremental\": " + v.incremental() + ",\n"
                + "  \"stateInFiles\": " + v.stateInFiles() + ",\n"
                + "  \"fileMerging\": " + v.fileMerging() + ",\n"
                + "  \"snapshotCompression\": " + v.compression() + ",\n"
                + "  \"legacyMarkers\": " + v.legacyMarkers() + ",\n"
                + "  \"agentOperatorHasUid\": " + v.withUid() + ",\n"
                + "  \"otherUnionStates\": [\n"
                + "    {\"operatorUid\": " + Oracle.quote(AGENT_UID) + ", \"state\": \"currentProcessingKeys\", \"serializer\": \"kryo\"},\n"
                + "    {\"operatorUid\": " + Oracle.quote(AGENT_UID) + ", \"state\": \"identifier_state\", \"serializer\": \"string\"},\n"
                + "    {\"operatorUid\": " + Oracle.quote(AuditFunction.UID) + ", \"operatorUidHash\": "
                + Oracle.quote(OperatorIDGenerator.fromUid(AuditFunction.UID).toHexString())
                + ", \"state\": " + Oracle.quote(AuditFunction.UNION_STATE) + ", \"serializer\": \"kryo\"}\n"
                + "  ]\n"
                + "}\n";
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        // Flink's shutdown hooks may still be deleting their own temp dirs: tolerate vanishing files.
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                Files.deleteIfExists(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
