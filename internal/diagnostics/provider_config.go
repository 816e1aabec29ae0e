package diagnostics

import (
	"fmt"

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
