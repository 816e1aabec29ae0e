package acctest

import "testing"

// secretAttributes are the provider attributes that hold secrets: the only
// ones that may be Sensitive.
var secretAttributes = map[string]bool{
	"sasl.password": true, "sasl.token": true, "sasl.client_secret": true,
	"sasl.aws_secret_access_key": true, "sasl.aws_session_token": true,
	"tls.key_pem": true, "tls.key_passphrase": true,
}

// TestSchemaDescriptionsAreShortAndOnlySecretsSensitive walks every schema
// the provider serves: each resource, data source and attribute has a
// description of at most 300 characters (attributes at least one) (details live on the pages and guides), and only secrets are
// Sensitive, so a plan never hides what a reviewer must read.
func TestSchemaDescriptionsAreShortAndOnlySecretsSensitive(t *testing.T) {
	resp := providerSchema(t)
	seen := map[string]bool{}
	check := func(kind, name string, attrs []SchemaAttribute, secrets map[string]bool) {
		for _, a := range attrs {
			seen[kind+" "+a.Path] = true
			if n := len(a.Description); n == 0 || n > 300 {
				t.Errorf("%s %s.%s: description of %d characters (want 1 to 300)", kind, name, a.Path, n)
			}
			if a.Sensitive != secrets[a.Path] {
				t.Errorf("%s %s.%s: Sensitive = %v; only secrets are sensitive", kind, name, a.Path, a.Sensitive)
			}
		}
	}
	check("provider", "flinkagents", Attributes(resp.Provider, "timeouts"), secretAttributes)
	short := func(kind, name string, desc string) {
		if n := len(desc); n > 300 {
			t.Errorf("%s %s: description of %d characters (limit 300)", kind, name, n)
		}
	}
	for name, s := range resp.ResourceSchemas {
		short("resource", name, s.Block.Description)
		check("resource", name, Attributes(s, "timeouts"), nil)
	}
	for name, s := range resp.DataSourceSchemas {
		short("data source", name, s.Block.Description)
		check("data source", name, Attributes(s, "timeouts"), nil)
	}
	// The walk must reach the secrets, or it proves nothing about them.
	for path := range secretAttributes {
		if !seen["provider "+path] {
			t.Errorf("provider attribute %s not found in the served schema", path)
		}
	}
}
