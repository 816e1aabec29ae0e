package main

import "strings"

// environ is the environment the demo runs its commands in: the caller's,
// without what would change the quick start's configuration or where the
// provider connects. `make demo` is often run in the shell that just followed
// the README's quick start, which exports TF_VAR_checkpoint_path for a
// savepoint of a topic the demo's broker has never seen: inherited, it made
// the demo's first apply read that savepoint and fail. The demo sets every
// variable it needs on the command line; the provider's KAFKA_* fallbacks
// (TLS, SASL) would point its client at another cluster's settings.
func environ(inherited []string) []string {
	var env []string
	for _, kv := range inherited {
		name, _, _ := strings.Cut(kv, "=")
		if dropped(name) {
			continue
		}
		env = append(env, kv)
	}
	return env
}

func dropped(name string) bool {
	for _, prefix := range []string{"TF_VAR_", "TF_CLI_ARGS", "KAFKA_"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	switch name {
	case "TF_WORKSPACE", "TF_DATA_DIR", "TF_REATTACH_PROVIDERS", "TF_CLI_CONFIG_FILE", "TF_PLUGIN_CACHE_DIR":
		return true
	}
	return false
}
