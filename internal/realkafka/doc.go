// Package realkafka holds tests that need real Apache Kafka: TLS, SASL and
// ACLs on a single broker, and leader failures during an apply on a
// three-node cluster. They are built only with the realkafka tag, which
// scripts/testacc-kafka.sh sets after starting the broker it points them at
// (KAFKA_ENV_FILE, the env.sh of scripts/kafka). Without a broker they fail;
// they never skip.
package realkafka
