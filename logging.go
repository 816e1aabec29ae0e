package main

import (
	"strings"

	"github.com/actionstate/terraform-provider-flinkagents/internal/provider"
)

// Terraform discards a provider's log lines unless TF_LOG or
// TF_LOG_PROVIDER asks for them, but terraform-plugin-log leaves the
// SDK's and the provider's loggers at TRACE when their own variables are
// unset: every RPC then writes JSON lines to stderr that Terraform reads
// and drops. On a 400-topic plan that was about 40% of the provider's CPU
// and a third of Terraform's (BENCHMARKS.md, "Rollout CPU").

// loggingVariables are the levels terraform-plugin-log reads; each is set
// to OFF only when nothing would display its output.
var loggingVariables = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER",
	// This provider's own logger (every tflog call of this code): its
	// level is read from TF_LOG_PROVIDER_<type>, not from TF_LOG_PROVIDER,
	// and left unset it logged at TRACE; a fleet's apply wrote and
	// Terraform dropped several JSON lines per operator.
	providerLoggerVariable,
	// The provider's franz-go subsystem (internal/provider/kgo_logger.go):
	// unset, it logged at TRACE too, and franz-go formats every line.
	providerLoggerVariable + "_KAFKA"}

// providerLoggerVariable is the variable terraform-plugin-go's server
// reads the provider logger's level from: TF_LOG_PROVIDER_ and the
// provider's type from its address, upper-cased, dashes as underscores.
var providerLoggerVariable = "TF_LOG_PROVIDER_" + strings.ToUpper(strings.ReplaceAll(provider.TypeName, "-", "_"))

// quietUnlessLogging turns the plugin's loggers off when Terraform would
// discard their lines; any logging variable set by the user wins.
func quietUnlessLogging(getenv func(string) string, setenv func(string, string) error) error {
	if getenv("TF_LOG") != "" || getenv("TF_LOG_PROVIDER") != "" {
		return nil
	}
	for _, v := range loggingVariables {
		if getenv(v) == "" {
			if err := setenv(v, "OFF"); err != nil {
				return err
			}
		}
	}
	return nil
}
