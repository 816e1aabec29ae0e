package org.flinkagents.interop;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Command-line oracle for the Go test-suite: every output is produced the way the Java Flink
 * Agents runtime and its cleanup tool produce it. Exit 0 ok, 1 validation or runtime failure
 * (message on stderr), 2 usage.
 */
public final class Main {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    static final String USAGE_TEXT = String.join(System.lineSeparator(),
            "usage: java -jar flinkagents-interop.jar COMMAND ARGS",
            "",
            "  reprint-plan FILE          validate a plan file; print it as the Java tool writes it",
            "  reprint-record FILE        validate a control-record value; print it compact, no newline",
            "  plan-id SOURCE TOPIC TOPIC_ID [P=O ...]",
            "                             print the plan ID (no plan validation)",
            "  write-plan --source S --topic T --topic-id ID --offsets P=O[,P=O...] --out FILE",
            "                             write a plan file; never overwrites; prints the plan ID",
            "  read-control --bootstrap HOST:PORT --topic TOPIC [KAFKA OPTIONS]",
            "                             print 'PLAN_ID STATUS' per plan, then 'boundary P=O,...' ('boundary none')",
            "  create-control-topic --bootstrap HOST:PORT --topic TOPIC [--replication-factor N] [KAFKA OPTIONS]",
            "                             create it as the Java tool does (1 partition, cleanup.policy=compact;",
            "                             N between 1 and 32767);",
            "                             prints 'created' or 'exists' (an existing topic is left as it is)",
            "  write-committed --bootstrap HOST:PORT --topic TOPIC --plan FILE [--status COMMITTED|APPLIED] [KAFKA OPTIONS]",
            "                             append a control record; prints 'offset N'",
            "  write-raw --bootstrap HOST:PORT --topic TOPIC (--key K | --null-key) (--value-file F | --tombstone)",
            "            [--transaction commit|abort] [KAFKA OPTIONS]",
            "                             append any record to partition 0; prints 'offset N'",
            "  restore-check --bootstrap HOST:PORT --settings FILE --marker-topic T --marker-topic-id ID --marker P=O[,P=O...]",
            "            [KAFKA OPTIONS]",
            "                             the runtime's restore check of a job configured by FILE (its agent: options as a",
            "                             JSON object) from a checkpoint holding that marker; prints 'restore accepted ...'",
            "  restore-check-batch --bootstrap HOST:PORT --checks FILE [KAFKA OPTIONS]",
            "                             the same for each check of FILE (a JSON array of {name, settings, markerTopic,",
            "                             markerTopicId, marker: {P: O} or null for a start without one}); prints",
            "                             'NAME accepted' or 'NAME refused: MESSAGE' per check",
            "  check-offsets --bootstrap HOST:PORT --plan FILE [KAFKA OPTIONS]",
            "                             the runtime's check before it commits a plan: every offset within its partition's",
            "                             [log start, high watermark]; prints 'offsets available P=O,...'",
            "  fleet-check --bootstrap HOST:PORT --input FILE [--security-file PROPERTIES] [--timeout-ms N]",
            "                             restore-check for many jobs and markers (FILE: JSON, see FleetCheck), plus whether each",
            "                             marker is at or above its partition's log start offset; prints the results as JSON",
            "  tool-apply --bootstrap HOST:PORT --topic CONTROL_TOPIC --plan FILE [KAFKA OPTIONS]",
            "                             apply a plan as the runtime's cleanup tool does (no transaction); prints",
            "                             'Cleanup plan ID is APPLIED'",
            "",
            "  KAFKA OPTIONS: --security-file PROPERTIES (merged into the client config), --timeout-ms N (default 60000)",
            "  exit status: 0 ok, 1 validation or runtime failure (stderr says why), 2 usage",
            "");

    private static final Set<String> KAFKA_OPTIONS = Set.of("--bootstrap", "--topic", "--security-file", "--timeout-ms");

    private Main() {}

    public static void main(String[] args) {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        int status = run(args, out, err);
        out.flush();
        System.exit(status);
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.print(USAGE_TEXT);
            return USAGE;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        try {
            switch (args[0]) {
                case "reprint-plan" -> reprintPlan(rest, out);
                case "reprint-record" -> reprintRecord(rest, out);
                case "plan-id" -> planId(rest, out);
                case "write-plan" -> writePlan(rest, out);
                case "read-control" -> readControl(rest, out);
                case "create-control-topic" -> createControlTopic(rest, out);
                case "write-committed" -> writeCommitted(rest, out);
                case "write-raw" -> writeRaw(rest, out);
                case "restore-check" -> restoreCheck(rest, out);
                case "restore-check-batch" -> restoreCheckBatch(rest, out);
                case "check-offsets" -> checkOffsets(rest, out);
                case "fleet-check" -> fleetCheck(rest, out);
                case "tool-apply" -> toolApply(rest, out);
                case "-h", "--help", "help" -> out.print(USAGE_TEXT);
                default -> throw new UsageException("unknown command " + args[0]);
            }
            out.flush();
            return OK;
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            err.print(USAGE_TEXT);
            return USAGE;
        } catch (ValidationException e) {
            err.println("error: " + e.getMessage());
            return FAILED;
        } catch (Exception e) {
            err.println("error: " + describe(e));
            return FAILED;
        }
    }

    private static void reprintPlan(List<String> args, PrintStream out) throws Exception {
        Plan plan = PlanJson.parsePlanFile(readFile(single(args, "reprint-plan FILE")));
        out.write(PlanJson.planFileText(plan).getBytes(StandardCharsets.UTF_8));
    }

    private static void reprintRecord(List<String> args, PrintStream out) throws Exception {
        ControlRecord record = PlanJson.parseControlRecord(readFile(single(args, "reprint-record FILE")));
        out.write(PlanJson.controlRecordValue(record).getBytes(StandardCharsets.UTF_8));
    }

    private static void planId(List<String> args, PrintStream out) throws UsageException {
        if (args.size() < 3) {
            throw new UsageException("plan-id needs SOURCE TOPIC TOPIC_ID [P=O ...]");
        }
        SortedMap<Integer, Long> offsets = Options.partitionOffsets(args.subList(3, args.size()));
        out.println(PlanId.compute(args.get(0), args.get(1), args.get(2), offsets));
    }

    private static void writePlan(List<String> args, PrintStream out) throws Exception {
        Options options = Options.parse(args, Set.of("--source", "--topic", "--topic-id", "--offsets", "--out"), Set.of());
        requireNoPositional(options);
        SortedMap<Integer, Long> offsets = Options.partitionOffsets(
                Arrays.asList(options.required("--offsets").split(",", -1)));
        Plan plan = Plan.of(options.required("--source"), options.required("--topic"),
                options.required("--topic-id"), offsets);
        Path target = Path.of(options.required("--out"));
        try {
            Files.write(target, PlanJson.planFileText(plan).getBytes(StandardCharsets.UTF_8),
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
            throw new ValidationException("refusing to overwrite existing file " + target);
        }
        out.println(plan.id());
    }

    private static void readControl(List<String> args, PrintStream out) throws Exception {
        Options options = Options.parse(args, KAFKA_OPTIONS, Set.of());
        requireNoPositional(options);
        ControlLog log = kafka(options).readControl(options.required("--topic"));
        SortedMap<Integer, Long> boundary = log.effectiveBoundary();
        for (ControlLog.Entry entry : log.entries()) {
            out.println(entry.plan().id() + " " + entry.status());
        }
        out.println("boundary " + (boundary.isEmpty() ? "none" : formatOffsets(boundary)));
    }

    private static void createControlTopic(List<String> args, PrintStream out) throws Exception {
        Options options = Options.parse(args, union(KAFKA_OPTIONS, Set.of("--replication-factor")), Set.of());
        requireNoPositional(options);
        int replicationFactor;
        try {
            replicationFactor = Integer.parseInt(options.optional("--replication-factor").orElse("1"));
        } catch (NumberFormatException e) {
            throw new UsageException("--replication-factor must be an integer");
        }
        RuntimeRules.checkReplicationFactor(replicationFactor);
        boolean created = kafka(options).createControlTopic(options.required("--topic"), (short) replicationFactor);
        out.println(created ? "created" : "exists");
    }

    private static void writeCommitted(List<String> args, PrintStream out) throws Exception {
        Options options = Options.parse(args, union(KAFKA_OPTIONS, Set.of("--plan", "--status")), Set.of());
        requireNoPositional(options);
        Status status = parseEnum(Status.class, options.optional("--status").orElse("COMMITTED"), "--status");
        Plan plan = PlanJson.parsePlanFile(readFile(options.required("--plan")));
        RecordMetadata metadata = kafka(options)
                .writeControlRecord(options.required("--topic"), new ControlRecord(status, plan));
        out.println("offset " + metadata.offset());
    }

    private static void writeRaw(List<String> args, PrintStream out) throws Exception {
        Options options = Options.parse(args, union(KAFKA_OPTIONS, Set.of("--key", "--value-file", "--transaction")),
                Set.of("--null-key", "--tombstone"));
        requireNoPositional(options);
        Optional<String> key = options.optional("--key");
        if (key.isPresent() == options.flag("--null-key")) {
            throw new UsageException("write-raw needs exactly one of --key K and --null-key");
        }
        Optional<String> valueFile = options.optional("--value-file");
        if (valueFile.isPresent() == options.flag("--tombstone")) {
            throw new UsageException("write-raw needs exactly one of --value-file F and --tombstone");
        }
        byte[] value = valueFile.isPresent() ? readFile(valueFile.get()) : null;
        KafkaCommands.Transaction transaction = parseEnum(KafkaCommands.Transaction.class,
                options.optional("--transaction").orElse("none"), "--transaction");
        RecordMetadata metadata = kafka(options)
                .writeRaw(options.required("--topic"), key.orElse(null), value, transaction);
        out.println("offset " + metadata.offset());
    }

    private static void checkOffsets(List<String> args, PrintStream out) throws Exception {
        Options options = Options.parse(args, Set.of("--bootstrap", "--security-file", "--timeout-ms", "--plan"), Set.of());
        requireNoPositional(options);
        Plan plan = PlanJson.parsePlanFile(readFile(options.required("--plan")));
        Map<Integer, long[]> ranges = kafka(options).offsetRanges(plan.topic());
        RuntimeRules.checkOffsetsAvailable(plan.topic(), plan.offsets(), ranges);
        out.println("offsets available " + formatOffsets(plan.offsets()));
    }

    private static void restoreCheck(List<String> args, PrintStream out) throws Exception {
        Options options = Options.parse(args, union(KAFKA_OPTIONS,
                Set.of("--settings", "--marker-topic", "--marker-topic-id", "--marker")), Set.of());
        requireNoPositional(options);
        Map<String, String> settings = PlanJson.MAPPER.readValue(readFile(options.required("--settings")),
                new com.fasterxml.jackson.core.type.TypeReference<Map<String, String>>() {});
        RestoreCheck.Marker marker = new RestoreCheck.Marker(options.required("--marker-topic"),
                options.required("--marker-topic-id"),
                Options.partitionOffsets(Arrays.asList(options.required("--marker").split(",", -1))));
        KafkaCommands kafka = kafka(options);
        SortedMap<Integer, Long> boundary = RestoreCheck.check(settings, marker, kafka::readControl, kafka::offsetRanges);
        out.println("restore accepted" + (boundary.isEmpty()
                ? " (no cleanup control topic configured)" : " above boundary " + formatOffsets(boundary)));
    }

    private static void restoreCheckBatch(List<String> args, PrintStream out) throws Exception {
        Options options = Options.parse(args, union(KAFKA_OPTIONS, Set.of("--checks")), Set.of());
        requireNoPositional(options);
        try (KafkaCommands.ControlReader reader = kafka(options).controlReader()) {
            RestoreBatch.run(PlanJson.MAPPER.readTree(readFile(options.required("--checks"))), reader::read, reader::ranges, out);
        }
    }

    private static void fleetCheck(List<String> args, PrintStream out) throws Exception {
        Options options = Options.parse(args, Set.of("--bootstrap", "--input", "--security-file", "--timeout-ms"), Set.of());
        requireNoPositional(options);
        com.fasterxml.jackson.databind.JsonNode input;
        try {
            input = PlanJson.MAPPER.readTree(readFile(options.required("--input")));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ValidationException("fleet-check input is not JSON: " + e.getOriginalMessage(), e);
        }
        try (KafkaCommands.ControlReader reader = kafka(options).controlReader()) {
            out.println(PlanJson.MAPPER.writeValueAsString(new FleetCheck(reader::read, reader::startOffsets).run(input)));
        }
    }

    private static void toolApply(List<String> args, PrintStream out) throws Exception {
        Options options = Options.parse(args, union(KAFKA_OPTIONS, Set.of("--plan")), Set.of());
        requireNoPositional(options);
        Plan plan = PlanJson.parsePlanFile(readFile(options.required("--plan")));
        KafkaCommands kafka = kafka(options);
        out.println(ToolApply.apply(new ToolApply.Kafka() {
            @Override
            public ControlLog readControl(String controlTopic) throws Exception {
                return kafka.readControl(controlTopic);
            }

            @Override
            public void append(String controlTopic, ControlRecord record) throws Exception {
                kafka.writeControlRecord(controlTopic, record);
            }

            @Override
            public String topicId(String topic) throws Exception {
                return kafka.topicId(topic);
            }

            @Override
            public SortedMap<Integer, Long> startOffsets(String topic) throws Exception {
                return kafka.startOffsets(topic);
            }

            @Override
            public void deleteBefore(String topic, Map<Integer, Long> offsets) throws Exception {
                kafka.deleteBefore(topic, offsets);
            }
        }, options.required("--topic"), plan));
    }

    private static KafkaCommands kafka(Options options) throws UsageException, IOException {
        long timeoutMs;
        try {
            timeoutMs = Long.parseLong(options.optional("--timeout-ms").orElse("60000"));
        } catch (NumberFormatException e) {
            throw new UsageException("--timeout-ms must be a number of milliseconds");
        }
        if (timeoutMs <= 0) {
            throw new UsageException("--timeout-ms must be positive");
        }
        return new KafkaCommands(options.required("--bootstrap"),
                options.optional("--security-file").map(Path::of), Duration.ofMillis(timeoutMs));
    }

    static String formatOffsets(Map<Integer, Long> offsets) {
        StringJoiner joined = new StringJoiner(",");
        offsets.forEach((partition, offset) -> joined.add(partition + "=" + offset));
        return joined.toString();
    }

    private static <E extends Enum<E>> E parseEnum(Class<E> type, String value, String option) throws UsageException {
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(value)) {
                return constant;
            }
        }
        throw new UsageException(option + " must be one of " + Arrays.stream(type.getEnumConstants())
                .map(Enum::name).collect(Collectors.joining(", ")) + ", got " + value);
    }

    private static String single(List<String> args, String usage) throws UsageException {
        if (args.size() != 1) {
            throw new UsageException("expected " + usage);
        }
        return args.get(0);
    }

    private static void requireNoPositional(Options options) throws UsageException {
        if (!options.positional().isEmpty()) {
            throw new UsageException("unexpected arguments " + options.positional());
        }
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).collect(Collectors.toUnmodifiableSet());
    }

    private static byte[] readFile(String path) throws IOException {
        return Files.readAllBytes(Path.of(path));
    }

    /** The message chain without stack traces, e.g. an ExecutionException's Kafka cause. */
    static String describe(Throwable e) {
        Throwable shown = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        StringBuilder text = new StringBuilder(shown.getClass().getSimpleName() + ": " + shown.getMessage());
        for (Throwable cause = shown.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            text.append(" (caused by ").append(cause.getClass().getSimpleName()).append(": ")
                    .append(cause.getMessage()).append(')');
        }
        return text.toString();
    }
}
