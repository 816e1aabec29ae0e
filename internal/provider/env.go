package provider

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
)

// Environment variables read when the matching attribute is not set: an
// attribute always wins over its variable. The names and value forms are
// those of the Mongey/kafka provider, so pipelines written for it work
// unchanged; the provider documentation lists where we differ.
const (
	bootstrapServersEnv    = "KAFKA_BOOTSTRAP_SERVERS"
	timeoutEnv             = "KAFKA_TIMEOUT"
	enableTLSEnv           = "KAFKA_ENABLE_TLS"
	caCertEnv              = "KAFKA_CA_CERT"
	clientCertEnv          = "KAFKA_CLIENT_CERT"
	clientKeyEnv           = "KAFKA_CLIENT_KEY"
	clientKeyPassphraseEnv = "KAFKA_CLIENT_KEY_PASSPHRASE"
	skipVerifyEnv          = "KAFKA_SKIP_VERIFY"
	saslMechanismEnv       = "KAFKA_SASL_MECHANISM"
	saslUsernameEnv        = "KAFKA_SASL_USERNAME"
	saslPasswordEnv        = "KAFKA_SASL_PASSWORD"
	saslTokenURLEnv        = "KAFKA_SASL_TOKEN_URL"
)

// setting is a string attribute's value or, when the attribute is null, an
// environment variable's; from says which, for diagnostics.
type setting struct {
	value string
	from  string // the attribute path, or the variable and the attribute it stands in for
}

func (s setting) isSet() bool { return s.value != "" }

// attrOrEnv reads attr, falling back to the variable env ("" for none).
func attrOrEnv(attr types.String, path string, getenv func(string) string, env string) setting {
	if !attr.IsNull() {
		return setting{value: attr.ValueString(), from: path}
	}
	if env != "" {
		if v := getenv(env); v != "" {
			return setting{value: v, from: fmt.Sprintf("%s (used because %s is not set)", env, path)}
		}
	}
	return setting{}
}

// envBool parses a boolean variable the way Mongey's provider does
// (strconv.ParseBool: true/false, 1/0, t/f in any case). set is false when
// the variable is empty or unset.
func envBool(getenv func(string) string, name string) (value, set bool, d diag.Diagnostic) {
	v := getenv(name)
	if v == "" {
		return false, false, nil
	}
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	if err != nil {
		return false, false, diagnostics.InvalidEnvironmentVariable(name, v, "true or false", err)
	}
	return b, true, nil
}
