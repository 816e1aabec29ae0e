package main

import (
	"maps"
	"testing"
)

func TestQuietUnlessLogging(t *testing.T) {
	for _, tt := range []struct {
		name string
		env  map[string]string
		want map[string]string
	}{
		{"nothing asked: every logger off", map[string]string{},
			map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF", "TF_LOG_PROVIDER": "OFF", "TF_LOG_PROVIDER_FLINKAGENTS": "OFF", "TF_LOG_PROVIDER_FLINKAGENTS_KAFKA": "OFF"}},
		{"TF_LOG set: untouched", map[string]string{"TF_LOG": "DEBUG"}, map[string]string{"TF_LOG": "DEBUG"}},
		{"TF_LOG_PROVIDER set: untouched", map[string]string{"TF_LOG_PROVIDER": "TRACE"}, map[string]string{"TF_LOG_PROVIDER": "TRACE"}},
		{"a subsystem set by hand wins", map[string]string{"TF_LOG_SDK_PROTO": "WARN"},
			map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "WARN", "TF_LOG_SDK_FRAMEWORK": "OFF", "TF_LOG_PROVIDER": "OFF", "TF_LOG_PROVIDER_FLINKAGENTS": "OFF", "TF_LOG_PROVIDER_FLINKAGENTS_KAFKA": "OFF"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := maps.Clone(tt.env)
			err := quietUnlessLogging(func(k string) string { return env[k] }, func(k, v string) error { env[k] = v; return nil })
			if err != nil || !maps.Equal(env, tt.want) {
				t.Fatalf("env %v (err %v), want %v", env, err, tt.want)
			}
		})
	}
}
