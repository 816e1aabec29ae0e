package diagnostics

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// InvalidEnvironmentVariable reports a variable the provider reads in place
// of an attribute whose value it cannot use. Only for variables whose
// values are not secret: the value is quoted.
func InvalidEnvironmentVariable(name, value, expected string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Invalid "+name,
		detail(fmt.Sprintf("configuring the provider, the environment variable %s=%q is not %s", name, value, expected),
			"Fix or unset the variable, or set the provider attribute it stands in for: an attribute always wins over "+
				"its environment variable.", err))
}

// MissingProviderSetting reports something the provider block needs that
// neither an attribute nor its environment variable supplies. what
// completes "... needs"; set says where it can come from.
func MissingProviderSetting(attr path.Path, summary, what, set string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, summary,
		detail("configuring the provider, "+what+" is not set", "Set "+set+".", nil))
}

// PrivateKeyNotDecrypted reports an encrypted client key the provider
// could not decrypt: no passphrase, a wrong one, or an encryption it does
// not read. attr names the attribute to change.
func PrivateKeyNotDecrypted(attr path.Path, keyFrom, problem string, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Private Key Not Decrypted",
		detail("reading the client private key from "+keyFrom+", "+problem,
			"Set tls.key_passphrase (or KAFKA_CLIENT_KEY_PASSPHRASE) to the passphrase the key was encrypted with. "+
				"To check a passphrase: openssl pkey -in <key file> -noout. Keys encrypted as PKCS#8 with PBES2 "+
				"(openssl pkcs8 -topk8 -v2 aes-256-cbc) and legacy PEM keys (Proc-Type: 4,ENCRYPTED) are read.", err))
}

// InvalidBootstrapServer refuses a bootstrap server that is not host:port.
func InvalidBootstrapServer(attr path.Path, value string, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Invalid Bootstrap Server",
		fmt.Sprintf("While validating %s, %q is not host:port.\n\nWrite each server as host:port, "+
			"for example \"kafka-1.example.com:9093\" or \"[::1]:9092\".\n\nOriginal error: %s", attr, value, err))
}

// InvalidTimeout refuses a timeout that is neither whole seconds nor a
// positive duration.
func InvalidTimeout(attr path.Path, value string, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Invalid Timeout",
		fmt.Sprintf("While validating %s, %q is neither a positive number of seconds nor a positive duration.\n\n"+
			"Use whole seconds, such as 120, or a number with a unit, such as \"30s\", \"90s\" or \"2m\".\n\n"+
			"Original error: %s", attr, value, err))
}

// TokenEndpointWithoutTLS warns that an OAuth token endpoint on another
// machine is plain http; from is the attribute or the variable it came from.
func TokenEndpointWithoutTLS(attr path.Path, from, value string) diag.Diagnostic {
	return diag.NewAttributeWarningDiagnostic(attr, "Token Endpoint Without TLS",
		fmt.Sprintf("While validating %s, %q is plain http: the client secret and every token cross the network "+
			"in the clear, where anyone on the path can take them.\n\nUse the identity provider's https:// "+
			"endpoint.", from, value))
}

// InvalidTokenURL refuses a token URL that is not an absolute http(s) URL;
// from is the attribute or the variable it came from.
func InvalidTokenURL(attr path.Path, from, value string, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Invalid Token URL",
		fmt.Sprintf("While validating %s, %q is not an absolute http(s) URL.\n\nSet it to the identity "+
			"provider's token endpoint, such as \"https://login.example.com/oauth2/token\" (its OpenID "+
			"configuration lists it as token_endpoint).\n\nOriginal error: %s", from, value, err))
}

// UnexpectedProviderData is a bug: a resource got provider data of
// another type.
func UnexpectedProviderData(data any) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Unexpected Provider Data",
		fmt.Sprintf("While configuring a resource, the provider handed it %T instead of *providerdata.Clients.\n\n"+
			"This is a bug in the provider; please report it.", data))
}

// SASLAttributeNotUsed refuses a sasl attribute the chosen mechanism
// ignores (almost always a mistake: a token under SCRAM, a password under
// AWS_MSK_IAM); usedBy lists the mechanisms that use it.
func SASLAttributeNotUsed(attr path.Path, name, mechanism, mechanismFrom string, usedBy []string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "SASL Attribute Not Used By Mechanism",
		fmt.Sprintf("While validating the sasl block, sasl.%s is set but mechanism %s (from %s) does not use it "+
			"(it is used by %s).\n\nRemove sasl.%s or correct the mechanism.",
			name, mechanism, mechanismFrom, strings.Join(usedBy, ", "), name))
}

// ScopesWithoutTokenURL refuses OAuth scopes with nothing to request them
// from.
func ScopesWithoutTokenURL(attr path.Path, tokenURLEnv string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "SASL Attribute Not Used",
		"While validating the sasl block, sasl.scopes is set but there is no token_url to request them from.\n\n"+
			"Set sasl.token_url (or "+tokenURLEnv+") or remove sasl.scopes.")
}

// AWSConfigNotLoaded reports shared AWS configuration that cannot be read.
func AWSConfigNotLoaded(attr path.Path, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "AWS Configuration Not Loaded",
		"While configuring AWS_MSK_IAM authentication, the AWS configuration (shared config and credentials "+
			"files, AWS_* environment variables) could not be read.\n\nCheck the profile named by "+
			"sasl.aws_profile or AWS_PROFILE exists in AWS_CONFIG_FILE (~/.aws/config) or "+
			"AWS_SHARED_CREDENTIALS_FILE (~/.aws/credentials), and that those files parse.\n\nOriginal error: "+err.Error())
}

// BrokerCertificatesNotVerified warns that TLS verification is off.
func BrokerCertificatesNotVerified(attr path.Path, skipVerifyEnv string) diag.Diagnostic {
	return diag.NewAttributeWarningDiagnostic(attr, "Broker Certificates Not Verified",
		"While configuring TLS, insecure_skip_verify = true (or "+skipVerifyEnv+") turned off verification of "+
			"the broker certificates, so anyone on the network path can impersonate the cluster and receive the "+
			"SASL credentials.\n\nSet tls.ca_pem to the CA that signed the brokers and remove "+
			"insecure_skip_verify once the connection works.")
}

// TLSBlockSwitchedOff reports a tls block that an environment variable
// (enableTLSEnv=false) turned off. With a mechanism that sends its secret
// as it is (PLAIN's password, OAUTHBEARER's token) the connection would
// hand it to anyone on the path, so that is an error; otherwise a warning.
func TLSBlockSwitchedOff(attr path.Path, enableTLSEnv, mechanism string, secretInClear bool) diag.Diagnostic {
	doing := "configuring the provider, the tls block is present but " + enableTLSEnv + "=false turns TLS off, so " +
		"the block's settings are ignored and the brokers are reached in plaintext"
	if !secretInClear {
		return diag.NewAttributeWarningDiagnostic(attr, "TLS Block Ignored",
			detail(doing, "Unset "+enableTLSEnv+" if the listener uses TLS. If it really is plaintext, write "+
				"enabled = false in the tls block (or remove the block) so the configuration says so.", nil))
	}
	return diag.NewAttributeErrorDiagnostic(attr, "TLS Switched Off Under SASL "+mechanism,
		detail(doing+", and SASL "+mechanism+" would send its secret (the password or token itself) across the "+
			"network in the clear",
			"Nothing was sent. Unset "+enableTLSEnv+" (a leftover from another shell or pipeline?) to connect with "+
				"TLS as the block says. If the listener really is SASL_PLAINTEXT, write enabled = false in the tls "+
				"block, or remove the block, so that sending the secret in plaintext is written in the configuration "+
				"rather than decided by a variable.", nil))
}
