package kafkaops

import (
	"errors"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
)

// TestNotEnoughReplicas: what metadata and configs say about a partition's
// acks=all writes, including the cases that leave the verdict to the broker.
func TestNotEnoughReplicas(t *testing.T) {
	topic := Topic{Name: "control", Replicas: map[int32][]int32{0: {1, 2, 3}}, ISR: map[int32][]int32{0: {1}}}
	minISR := func(v string) map[string]ConfigValue {
		return map[string]ConfigValue{"min.insync.replicas": {Value: v}}
	}
	for _, tc := range []struct {
		name      string
		topic     Topic
		cfg       map[string]ConfigValue
		want      bool
		wantNever bool
	}{
		{"in sync enough", topic, minISR("1"), false, false},
		{"out of sync", topic, minISR("2"), true, false},
		{"fewer replicas than the setting", topic, minISR("4"), true, true},
		{"no setting reported", topic, map[string]ConfigValue{}, false, false},
		{"setting hidden", topic, map[string]ConfigValue{"min.insync.replicas": {Null: true}}, false, false},
		{"no metadata for the partition", Topic{Name: "control"}, minISR("2"), false, false},
	} {
		ner := notEnoughReplicas(tc.topic, tc.cfg, 0, kerr.NotEnoughReplicas)
		if (ner != nil) != tc.want {
			t.Errorf("%s: %v, want an error: %t", tc.name, ner, tc.want)
			continue
		}
		if ner != nil && (ner.Never() != tc.wantNever || !errors.Is(ner, kerr.NotEnoughReplicas)) {
			t.Errorf("%s: Never() %t, want %t; wraps the broker's error: %t", tc.name, ner.Never(), tc.wantNever, errors.Is(ner, kerr.NotEnoughReplicas))
		}
	}
}
