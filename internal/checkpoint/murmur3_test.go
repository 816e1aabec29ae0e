package checkpoint

import (
	"encoding/hex"
	"testing"
)

func TestOperatorIDFromUID(t *testing.T) {
	// spec/flink-checkpoint-format.md, section 6; the IDs of CheckpointingSource2
	// and second appear verbatim in Flink's own test snapshots.
	cases := map[string]string{
		"hello":                   "029bbd41b3a7d8cb191dae486a901e5b",
		"CheckpointingSource2":    "1f2b5df5a66154aca61fcb26193792be",
		"second":                  "6730ef7375fb60f9d9bbdfdfd174d803",
		"action-execute-operator": "5957a8f59332436746a9d052223172e4",
	}
	for uid, want := range cases {
		id := OperatorIDFromUID(uid)
		if got := hex.EncodeToString(id[:]); got != want {
			t.Errorf("OperatorIDFromUID(%q) = %s, want %s", uid, got, want)
		}
	}
}

// The empty input and a 43-byte input (two blocks plus an 11-byte tail)
// exercise the paths the uid vectors above do not.
func TestMurmur3EdgeVectors(t *testing.T) {
	// The second value is the vector Guava's own tests use for murmur3_128.
	if got := OperatorIDFromUID(""); hex.EncodeToString(got[:]) != "00000000000000000000000000000000" {
		t.Errorf("empty input: %x", got)
	}
	if got := OperatorIDFromUID("The quick brown fox jumps over the lazy dog"); hex.EncodeToString(got[:]) != "6c1b07bc7bbc4be347939ac4a93c437a" {
		t.Errorf("quick brown fox: %x", got)
	}
}
