// Package checkpoint reads Flink Agents recovery markers natively from a Flink
// checkpoint or savepoint, without a JVM.
//
// It parses the `_metadata` file (format versions 3 to 7: Flink 1.11 to 1.15 write 3, 1.16 to 1.20 write 4,
// 2.0 writes 5, 2.1 to 2.3 write 6, and 7 is read ahead of its release),
// finds the agent operator, opens its managed operator-state streams (inline,
// relative file, absolute file or file-merging segment; optionally
// snappy-compressed) and decodes each element of the UNION list state
// "recoveryMarker" with the Kryo dialect the writing Flink used (Kryo 2.24
// for metadata version <= 4, Kryo 5 otherwise).
//
// WriteSavepoint is the other direction, for tests and demos: it writes a
// canonical savepoint that Flink's State Processor API reads
// (scripts/check-writer-with-flink.sh runs real Flink 1.20 and 2.0 on it).
//
// The byte-level format is described in spec/flink-checkpoint-format.md at the
// repository root.
// File access goes through Storage so that remote object stores can be added
// without touching the parser. The package imports nothing from Terraform.
package checkpoint
