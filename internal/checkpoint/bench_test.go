package checkpoint

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// benchSavepoint writes a 4,096-subtask savepoint whose operator-state
// streams are files behind relative handles, one marker of 64 partitions
// (flink-agents' default topic size) per subtask.
func benchSavepoint(b *testing.B) (dir string, totalBytes int64) {
	b.Helper()
	dir = b.TempDir()
	markers := make([][]Marker, 4096)
	for i := range markers {
		offsets := make(map[int32]int64, 64)
		for p := int32(0); p < 64; p++ {
			offsets[p] = int64(i)*1000 + int64(p)*7919
		}
		markers[i] = []Marker{{SchemaVersion: 1, Topic: "orders-agent-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets: offsets}}
	}
	if err := WriteSavepoint(dir, SavepointSpec{MetadataVersion: 5, OperatorUID: "agent", Markers: markers, StateFiles: true}); err != nil {
		b.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			b.Fatal(err)
		}
		totalBytes += info.Size()
	}
	return dir, totalBytes
}

func BenchmarkReadRecoveryMarkers4096(b *testing.B) {
	dir, total := benchSavepoint(b)
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		res, err := ReadRecoveryMarkers(context.Background(), LocalStorage{}, dir, Selector{UID: "agent"})
		if err != nil || len(res.Markers) != 4096 {
			b.Fatalf("%v, %d markers", err, len(res.Markers))
		}
	}
}

// BenchmarkReadRawBytes4096 only reads every file of the same savepoint: the
// floor set by the filesystem for ReadRecoveryMarkers4096.
func BenchmarkReadRawBytes4096(b *testing.B) {
	dir, total := benchSavepoint(b)
	b.SetBytes(total)
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		var n int64
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				b.Fatal(err)
			}
			n += int64(len(data))
		}
		if n != total {
			b.Fatalf("read %d bytes, want %d", n, total)
		}
	}
}
