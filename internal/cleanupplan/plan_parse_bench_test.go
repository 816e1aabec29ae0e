package cleanupplan

import (
	"fmt"
	"testing"
)

// benchPartitions spans three decades and then some: parsing is linear, so
// each step must cost about ten times the one before it (BENCHMARKS.md has
// the slope, and the quadratic one it replaced).
var benchPartitions = []int{1_000, 10_000, 60_000, 100_000, 1_000_000}

// benchPlan builds a plan of n partitions with ten-digit offsets, as a busy
// topic has. It skips New, whose size limit the larger sizes exceed: these
// benchmarks measure the parser, not the limit.
func benchPlan(n int) Plan {
	offs := make(Offsets, n)
	for p := 0; p < n; p++ {
		offs[int32(p)] = 1_000_000_000 + int64(p)*7
	}
	return Plan{SourceRecoveryPoint: "file:/var/flink/checkpoints/7f3a/chk-42", Topic: "orders-agent-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets: offs}
}

// BenchmarkParsePlanFile parses a plan file (the pretty form) strictly,
// planId check included; above MaxPlanBytes, Parse itself refuses unread.
func BenchmarkParsePlanFile(b *testing.B) {
	for _, n := range benchPartitions {
		file := benchPlan(n).File()
		b.Run(fmt.Sprintf("%d-partitions", n), func(b *testing.B) {
			b.SetBytes(int64(len(file)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parsePlan(file); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecodeControlRecord decodes a control record (the compact form)
// as a control-log read does for each plan's first record.
func BenchmarkDecodeControlRecord(b *testing.B) {
	for _, n := range benchPartitions {
		key, value := EncodeRecord(StatusCommitted, benchPlan(n))
		b.Run(fmt.Sprintf("%d-partitions", n), func(b *testing.B) {
			b.SetBytes(int64(len(value)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeRecord(key, value); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
