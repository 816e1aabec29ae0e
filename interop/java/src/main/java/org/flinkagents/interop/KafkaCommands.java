package org.flinkagents.interop;

import org.apache.kafka.common.PartitionInfo;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** The control-topic commands, on Kafka's own Java client. Everything goes to partition 0. */
final class KafkaCommands {
    /** What a raw record does inside a transaction, to exercise read_committed. */
    enum Transaction { NONE, COMMIT, ABORT }

    private static final int CONTROL_PARTITION = 0;

    private final Properties connection;
    private final Duration timeout;

    /**
     * @param securityFile Java properties (SASL/SSL) merged under {@code bootstrap.servers};
     *     the settings each command requires by contract are applied after it and win.
     */
    KafkaCommands(String bootstrap, Optional<Path> securityFile, Duration timeout) throws IOException {
        Properties props = new Properties();
        if (securityFile.isPresent()) {
            try (InputStream in = Files.newInputStream(securityFile.get())) {
                props.load(in);
            }
        }
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(CommonClientConfigs.CLIENT_ID_CONFIG, "flinkagents-interop");
        this.connection = props;
        this.timeout = timeout;
    }

    /**
     * Checks the control topic's shape as the runtime's coordinator does when it is created, then
     * reads partition 0 from its beginning to its read_committed end offset.
     */
    ControlLog readControl(String topic) throws Exception {
        try (ControlReader reader = controlReader()) {
            return reader.read(topic);
        }
    }

    /**
     * A reader of control topics that keeps one consumer for many reads, as a batch of restore
     * checks needs: a consumer's start costs more than a small control topic's read.
     */
    ControlReader controlReader() {
        Properties props = copyOfConnection();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        // A control topic is small and read to its end: a fetch that waits the default 500 ms for
        // more bytes only delays each read.
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "20");
        return new ControlReader(new KafkaConsumer<>(props), Admin.create(copyOfConnection()), timeout);
    }

    /**
     * One consumer reading control topics one after another, each after checking its shape as the
     * runtime's coordinator does whenever it is created (by the tool's apply and by every restore).
     */
    static final class ControlReader implements AutoCloseable {
        private final KafkaConsumer<String, String> consumer;
        private final Admin admin;
        private final Duration timeout;

        ControlReader(KafkaConsumer<String, String> consumer, Admin admin, Duration timeout) {
            this.consumer = consumer;
            this.admin = admin;
            this.timeout = timeout;
        }

        ControlLog read(String topic) throws Exception {
            RuntimeRules.checkControlTopic(topic, requireTopic(consumer, topic, timeout), cleanupPolicy(admin, topic, timeout));
            ControlLog log = new ControlLog();
            TopicPartition tp = new TopicPartition(topic, CONTROL_PARTITION);
            long deadline = System.nanoTime() + timeout.toNanos();
            consumer.assign(List.of(tp));
            long begin = consumer.beginningOffsets(List.of(tp), timeout).get(tp);
            // Under read_committed this is the last stable offset.
            long end = consumer.endOffsets(List.of(tp), timeout).get(tp);
            consumer.seek(tp, begin);
            // Aborted records and transaction markers are skipped, so the position can pass
            // offsets that are never returned; stop on position, not on the last record seen.
            while (consumer.position(tp, timeout) < end) {
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("reading " + tp + " up to offset " + end + " took longer than " + timeout);
                }
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200)).records(tp)) {
                    if (record.offset() >= end) {
                        break;
                    }
                    log.apply(record.offset(), record.key(), record.value());
                }
            }
            return log;
        }

        /**
         * A data topic's {beginning, end} by partition: the log start offset and the high
         * watermark, listed as the runtime's store lists them (read_uncommitted).
         */
        Map<Integer, long[]> ranges(String topic) throws Exception {
            Set<Integer> partitions = requireTopic(consumer, topic, timeout);
            Map<Integer, long[]> ranges = new TreeMap<>();
            Map<TopicPartition, ListOffsetsResultInfo> begins = listOffsets(topic, partitions, OffsetSpec.earliest());
            Map<TopicPartition, ListOffsetsResultInfo> ends = listOffsets(topic, partitions, OffsetSpec.latest());
            for (int p : partitions) {
                TopicPartition tp = new TopicPartition(topic, p);
                ranges.put(p, new long[] {begins.get(tp).offset(), ends.get(tp).offset()});
            }
            return ranges;
        }

        private Map<TopicPartition, ListOffsetsResultInfo> listOffsets(String topic, Set<Integer> partitions, OffsetSpec spec)
                throws Exception {
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            partitions.forEach(p -> request.put(new TopicPartition(topic, p), spec));
            return admin.listOffsets(request).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        /**
         * The log start offset of every partition of {@code topic} (ListOffsets, earliest), for
         * fleet-check, which reads a fleet's control topics and data topics through one consumer.
         */
        SortedMap<Integer, Long> startOffsets(String topic) throws Exception {
            List<TopicPartition> tps = partitionsOf(consumer, topic, timeout).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            SortedMap<Integer, Long> starts = new TreeMap<>();
            consumer.beginningOffsets(tps, timeout).forEach((tp, offset) -> starts.put(tp.partition(), offset));
            return starts;
        }

        @Override
        public void close() {
            try {
                consumer.close();
            } finally {
                admin.close();
            }
        }
    }

    /** Appends {@code record}, keyed by its plan ID, and waits for the acks=all acknowledgement. */
    RecordMetadata writeControlRecord(String topic, ControlRecord record) throws Exception {
        requireTopic(topic);
        Properties props = producerConfig(StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            ProducerRecord<String, String> message = new ProducerRecord<>(
                    topic, CONTROL_PARTITION, record.plan().id(), PlanJson.controlRecordValue(record));
            return await(producer.send(message), "the acknowledgement of the record");
        }
    }

    /** Appends any key/value (null for either), optionally inside a committed or aborted transaction. */
    RecordMetadata writeRaw(String topic, String key, byte[] value, Transaction transaction) throws Exception {
        requireTopic(topic);
        Properties props = producerConfig(ByteArraySerializer.class);
        if (transaction != Transaction.NONE) {
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "flinkagents-interop-" + UUID.randomUUID());
        }
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props)) {
            ProducerRecord<String, byte[]> message = new ProducerRecord<>(topic, CONTROL_PARTITION, key, value);
            if (transaction == Transaction.NONE) {
                return await(producer.send(message), "the acknowledgement of the record");
            }
            producer.initTransactions();
            producer.beginTransaction();
            RecordMetadata metadata = await(producer.send(message), "the acknowledgement of the record");
            if (transaction == Transaction.COMMIT) {
                producer.commitTransaction();
            } else {
                producer.abortTransaction();
            }
            return metadata;
        }
    }

    /**
     * Creates the control topic as the Java tool does when it is absent: one partition,
     * {@code cleanup.policy=compact} (no delete, so no retention can drop a boundary).
     *
     * @return false when the topic already existed (it is then left untouched)
     */
    boolean createControlTopic(String topic, short replicationFactor) throws Exception {
        NewTopic newTopic = new NewTopic(topic, 1, replicationFactor)
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        try (Admin admin = Admin.create(copyOfConnection())) {
            await(admin.createTopics(List.of(newTopic)).all(), "creating topic " + topic);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                return false;
            }
            throw e;
        }
    }

    /** The log start offset of every partition of {@code topic} (ListOffsets, earliest). */
    SortedMap<Integer, Long> startOffsets(String topic) throws Exception {
        try (ControlReader reader = controlReader()) {
            return reader.startOffsets(topic);
        }
    }

    /** The topic's ID in Kafka's string form, or null when the topic does not exist. */
    String topicId(String topic) throws Exception {
        try (Admin admin = Admin.create(copyOfConnection())) {
            TopicDescription description = await(admin.describeTopics(List.of(topic)).allTopicNames(),
                    "describing topic " + topic).get(topic);
            return description.topicId().toString();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return null;
            }
            throw e;
        }
    }

    /** DeleteRecords: every record of {@code topic} below the given offset of its partition. */
    void deleteBefore(String topic, Map<Integer, Long> offsets) throws Exception {
        Map<TopicPartition, RecordsToDelete> request = new HashMap<>();
        offsets.forEach((partition, offset) ->
                request.put(new TopicPartition(topic, partition), RecordsToDelete.beforeOffset(offset)));
        try (Admin admin = Admin.create(copyOfConnection())) {
            await(admin.deleteRecords(request).all(), "deleting records of " + topic);
        }
    }

    private Properties producerConfig(Class<?> valueSerializer) {
        Properties props = copyOfConnection();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, valueSerializer.getName());
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(timeout.toMillis()));
        return props;
    }

    /**
     * Fails when the topic is absent. A producer's metadata request would otherwise let a broker
     * with auto.create.topics.enable create it with default (non-compacted, multi-partition) settings.
     */
    private Set<Integer> requireTopic(String topic) throws Exception {
        // Metadata through a consumer's partitionsFor rather than Admin.describeTopics: the latter
        // uses DescribeTopicPartitions, which kfake (the embedded test broker) answers with a null
        // eligibleLeaderReplicas list that the Java client cannot parse.
        Properties props = copyOfConnection();
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            return requireTopic(consumer, topic, timeout);
        }
    }

    /** requireTopic through a consumer already open; returns the topic's partitions. */
    private static Set<Integer> requireTopic(KafkaConsumer<String, String> consumer, String topic, Duration timeout) throws Exception {
        List<PartitionInfo> partitions = partitionsOf(consumer, topic, timeout);
        if (partitions.stream().noneMatch(p -> p.partition() == CONTROL_PARTITION)) {
            throw new ValidationException("topic " + topic + " has no partition " + CONTROL_PARTITION);
        }
        return partitions.stream().map(PartitionInfo::partition).collect(Collectors.toSet());
    }

    /** The partitions of {@code topic}; refused as not existing when the broker knows none. */
    private static List<PartitionInfo> partitionsOf(KafkaConsumer<String, String> consumer, String topic, Duration timeout) throws Exception {
        List<PartitionInfo> partitions;
        try {
            partitions = consumer.partitionsFor(topic, timeout);
        } catch (UnknownTopicOrPartitionException e) {
            throw new ValidationException("topic " + topic + " does not exist");
        }
        if (partitions == null || partitions.isEmpty()) {
            throw new ValidationException("topic " + topic + " does not exist");
        }
        return partitions;
    }

    /** The topic's cleanup.policy exactly as the broker describes it; null when it reports none. */
    private static String cleanupPolicy(Admin admin, String topic, Duration timeout) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = admin.describeConfigs(List.of(resource)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(resource);
        ConfigEntry entry = config == null ? null : config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
        return entry == null ? null : entry.value();
    }

    /** A data topic's {beginning, end} by partition, as {@link ControlReader#ranges} lists them. */
    Map<Integer, long[]> offsetRanges(String topic) throws Exception {
        try (ControlReader reader = controlReader()) {
            return reader.ranges(topic);
        }
    }

    /** Future.get bounded by the command's timeout, with a message that says what did not answer. */
    private <T> T await(Future<T> future, String what) throws ExecutionException, InterruptedException, TimeoutException {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new TimeoutException("no answer within " + timeout.toMillis() + " ms while waiting for " + what
                    + " from " + connection.getProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)
                    + " (broker unreachable, or its listener expects other security settings)");
        }
    }

    private Properties copyOfConnection() {
        Properties copy = new Properties();
        copy.putAll(connection);
        return copy;
    }
}
