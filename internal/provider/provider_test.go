package provider

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
)

// unknown stands for a value known only after apply in test configurations.
type unknown struct{}

// tfValue builds a Terraform value of typ from plain Go values: string,
// bool, []string, map[string]any for a block, nil for null, unknown{}.
func tfValue(t *testing.T, typ tftypes.Type, v any) tftypes.Value {
	t.Helper()
	if v == nil {
		return tftypes.NewValue(typ, nil)
	}
	if _, ok := v.(unknown); ok {
		return tftypes.NewValue(typ, tftypes.UnknownValue)
	}
	switch typ := typ.(type) {
	case tftypes.Object:
		given := v.(map[string]any)
		values := make(map[string]tftypes.Value, len(typ.AttributeTypes))
		for name, attrType := range typ.AttributeTypes {
			values[name] = tfValue(t, attrType, given[name])
			delete(given, name)
		}
		for name := range given {
			t.Fatalf("test configuration sets %q, which the schema does not have", name)
		}
		return tftypes.NewValue(typ, values)
	case tftypes.List:
		var elems []tftypes.Value
		for _, s := range v.([]string) {
			elems = append(elems, tftypes.NewValue(typ.ElementType, s))
		}
		return tftypes.NewValue(typ, elems)
	default:
		return tftypes.NewValue(typ, v)
	}
}

func providerSchema(t *testing.T) provider.SchemaResponse {
	t.Helper()
	var resp provider.SchemaResponse
	New("test")().Schema(context.Background(), provider.SchemaRequest{}, &resp)
	return resp
}

// configValue is the whole provider block as Terraform would send it.
func configValue(t *testing.T, values map[string]any) tftypes.Value {
	t.Helper()
	typ := providerSchema(t).Schema.Type().TerraformType(context.Background())
	return tfValue(t, typ, values)
}

// validate runs the framework's full provider validation (attribute
// validators and ConfigValidators) through the protocol 6 server.
func validate(t *testing.T, values map[string]any) []*tfprotov6.Diagnostic {
	t.Helper()
	server, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	config := configValue(t, values)
	dv, err := tfprotov6.NewDynamicValue(config.Type(), config)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.ValidateProviderConfig(context.Background(), &tfprotov6.ValidateProviderConfigRequest{Config: &dv})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Diagnostics
}

// configure runs Configure with env as the whole environment and returns
// what resources would receive.
func configure(t *testing.T, env map[string]string, values map[string]any) (*providerdata.Clients, diag.Diagnostics) {
	t.Helper()
	p := &flinkAgentsProvider{version: "test", getenv: func(k string) string { return env[k] }}
	req := provider.ConfigureRequest{Config: tfsdk.Config{Schema: providerSchema(t).Schema, Raw: configValue(t, values)}}
	var resp provider.ConfigureResponse
	p.Configure(context.Background(), req, &resp)
	clients, _ := resp.ResourceData.(*providerdata.Clients)
	if clients != nil {
		t.Cleanup(clients.Close)
		if resp.DataSourceData != resp.ResourceData {
			t.Error("data sources and resources must share one *providerdata.Clients")
		}
	}
	return clients, resp.Diagnostics
}

// blockObject decodes a tls or sasl block the way Configure receives it.
func blockObject(t *testing.T, name string, values map[string]any) types.Object {
	t.Helper()
	ctx := context.Background()
	blockType := providerSchema(t).Schema.Blocks[name].Type()
	var given any = values // a nil map must become a null block, not an empty one
	if values == nil {
		given = nil
	}
	v, err := blockType.ValueFromTerraform(ctx, tfValue(t, blockType.TerraformType(ctx), given))
	if err != nil {
		t.Fatal(err)
	}
	return v.(types.Object)
}

func TestSchemaIsValid(t *testing.T) {
	resp := providerSchema(t)
	if resp.Diagnostics.HasError() {
		t.Fatalf("Schema: %v", resp.Diagnostics)
	}
	if diags := resp.Schema.ValidateImplementation(context.Background()); diags.HasError() {
		t.Fatalf("ValidateImplementation: %v", diags)
	}
	sensitive := map[string][]string{
		"tls":  {"key_pem", "key_passphrase"},
		"sasl": {"password", "token", "client_secret", "aws_secret_access_key", "aws_session_token"},
	}
	for block, names := range sensitive {
		attrs := resp.Schema.Blocks[block].GetNestedObject().GetAttributes()
		for _, name := range names {
			if !attrs[name].IsSensitive() {
				t.Errorf("%s.%s must be Sensitive", block, name)
			}
		}
	}
}

func TestValidateConfig(t *testing.T) {
	scram := func(extra map[string]any) map[string]any {
		block := map[string]any{"mechanism": "SCRAM-SHA-512", "username": "tf", "password": "pw"}
		for k, v := range extra {
			block[k] = v
		}
		return map[string]any{"sasl": block}
	}
	tests := []struct {
		name         string
		config       map[string]any
		wantSummary  string                       // empty: valid
		wantSeverity tfprotov6.DiagnosticSeverity // default: error
		wantPath     *tftypes.AttributePath
	}{
		{name: "empty block", config: map[string]any{}},
		{name: "everything", config: map[string]any{
			"bootstrap_servers": []string{"kafka-1.example.com:9093", "[::1]:9092"},
			"client_id":         "ops",
			"timeout":           "2m",
			"tls":               map[string]any{"enabled": true, "ca_pem": "/etc/ssl/kafka-ca.pem", "server_name": "kafka"},
			"sasl":              map[string]any{"mechanism": "SCRAM-SHA-256", "username": "tf", "password": "pw"},
		}},
		{name: "unknown values wait for apply", config: map[string]any{
			"bootstrap_servers": unknown{},
			"sasl":              map[string]any{"mechanism": "PLAIN", "username": unknown{}, "password": unknown{}},
		}},
		{name: "AWS credentials from the environment", config: map[string]any{
			"sasl": map[string]any{"mechanism": "AWS_MSK_IAM"},
		}},
		{name: "timeout in whole seconds", config: map[string]any{"timeout": "30"}},
		{
			name:        "timeout that would wrap around",
			config:      map[string]any{"timeout": "18446744074"},
			wantSummary: "Invalid Timeout", wantPath: at("timeout"),
		},
		{
			name:        "timeout of zero seconds",
			config:      map[string]any{"timeout": "0"},
			wantSummary: "Invalid Timeout", wantPath: at("timeout"),
		},
		{
			name:        "negative timeout",
			config:      map[string]any{"timeout": "-1s"},
			wantSummary: "Invalid Timeout", wantPath: at("timeout"),
		},
		{
			name:        "server without port",
			config:      map[string]any{"bootstrap_servers": []string{"kafka.example.com"}},
			wantSummary: "Invalid Bootstrap Server", wantPath: at("bootstrap_servers", 0),
		},
		{
			name:        "empty server list",
			config:      map[string]any{"bootstrap_servers": []string{}},
			wantSummary: "Invalid Attribute Value", wantPath: at("bootstrap_servers"),
		},
		{
			name:        "unknown mechanism",
			config:      map[string]any{"sasl": map[string]any{"mechanism": "GSSAPI"}},
			wantSummary: "Invalid Attribute Value Match", wantPath: at("sasl", "mechanism"),
		},
		// What a mechanism needs may come from the environment, which
		// validation does not read: Configure checks it
		// (TestSASLConfigureTimeRules), so `terraform validate` passes in a
		// pipeline without the secrets.
		{name: "SCRAM without password", config: scram(map[string]any{"password": nil})},
		{name: "sasl block without mechanism", config: map[string]any{"sasl": map[string]any{"username": "tf"}}},
		{name: "certificate without key", config: map[string]any{"tls": map[string]any{"cert_pem": "client.pem"}}},
		{name: "OAuth client credentials", config: map[string]any{"sasl": map[string]any{
			"mechanism": "OAUTHBEARER", "token_url": "https://idp.example.com/oauth2/token", "client_id": "tf",
			"client_secret": "s", "scopes": []string{"kafka"},
		}}},
		{name: "role assumption", config: map[string]any{"sasl": map[string]any{
			"mechanism": "AWS_MSK_IAM", "aws_role_arn": "arn:aws:iam::1:role/x", "aws_role_external_id": "e",
			"aws_role_session_name": "tf", "aws_region": "eu-west-1",
		}}},
		{
			name: "token and token_url",
			config: map[string]any{"sasl": map[string]any{"mechanism": "OAUTHBEARER", "token": "t",
				"token_url": "https://idp.example.com/token"}},
			wantSummary: "Invalid Attribute Combination", wantPath: at("sasl", "token"),
		},
		{name: "http token_url on this machine", config: map[string]any{"sasl": map[string]any{
			"mechanism": "OAUTHBEARER", "token_url": "http://127.0.0.1:8080/token", "client_id": "tf", "client_secret": "s",
		}}},
		{
			name: "http token_url elsewhere",
			config: map[string]any{"sasl": map[string]any{"mechanism": "OAUTHBEARER", "token_url": "http://idp.example.com/token",
				"client_id": "tf", "client_secret": "s"}},
			wantSummary: "Token Endpoint Without TLS", wantSeverity: tfprotov6.DiagnosticSeverityWarning, wantPath: at("sasl", "token_url"),
		},
		{
			name:        "token_url that is not a URL",
			config:      map[string]any{"sasl": map[string]any{"mechanism": "OAUTHBEARER", "token_url": "idp.example.com/token"}},
			wantSummary: "Invalid Token URL", wantPath: at("sasl", "token_url"),
		},
		{
			name:        "external ID without a role",
			config:      map[string]any{"sasl": map[string]any{"mechanism": "AWS_MSK_IAM", "aws_role_external_id": "e"}},
			wantSummary: "Invalid Attribute Combination", wantPath: at("sasl", "aws_role_external_id"),
		},
		{
			name: "profile and static keys",
			config: map[string]any{"sasl": map[string]any{"mechanism": "AWS_MSK_IAM", "aws_profile": "p",
				"aws_access_key_id": "AKIA", "aws_secret_access_key": "s"}},
			wantSummary: "Invalid Attribute Combination", wantPath: at("sasl", "aws_profile"),
		},
		{
			name:        "client secret under SCRAM",
			config:      scram(map[string]any{"client_secret": "s"}),
			wantSummary: "SASL Attribute Not Used By Mechanism", wantPath: at("sasl", "client_secret"),
		},
		{
			name:        "token under SCRAM",
			config:      scram(map[string]any{"token": "t"}),
			wantSummary: "SASL Attribute Not Used By Mechanism", wantPath: at("sasl", "token"),
		},
		{
			name:        "access key without secret",
			config:      map[string]any{"sasl": map[string]any{"mechanism": "AWS_MSK_IAM", "aws_access_key_id": "AKIA"}},
			wantSummary: "Invalid Attribute Combination", wantPath: at("sasl", "aws_access_key_id"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diags := validate(t, tt.config)
			if tt.wantSummary == "" {
				for _, d := range diags {
					t.Errorf("unexpected diagnostic: %s: %s", d.Summary, d.Detail)
				}
				return
			}
			if len(diags) != 1 {
				for _, d := range diags {
					t.Logf("diagnostic: %s at %v: %s", d.Summary, d.Attribute, d.Detail)
				}
				t.Fatalf("got %d diagnostics, want 1 (%s)", len(diags), tt.wantSummary)
			}
			d := diags[0]
			wantSeverity := tt.wantSeverity
			if wantSeverity == 0 {
				wantSeverity = tfprotov6.DiagnosticSeverityError
			}
			if d.Severity != wantSeverity || d.Summary != tt.wantSummary {
				t.Errorf("got %v %q, want %v %q (detail: %s)", d.Severity, d.Summary, wantSeverity, tt.wantSummary, d.Detail)
			}
			if !d.Attribute.Equal(tt.wantPath) {
				t.Errorf("diagnostic at %s, want %s", d.Attribute, tt.wantPath)
			}
		})
	}
}

func TestConfigureDoesNotConnect(t *testing.T) {
	// A port nothing listens on: Configure must succeed anyway, and so must
	// building the client, because neither dials.
	clients, diags := configure(t, nil, map[string]any{
		"bootstrap_servers": []string{closedAddress(t)},
		"timeout":           "1s",
	})
	if diags.HasError() {
		t.Fatalf("Configure: %v", diags)
	}
	kafka, err := clients.Kafka(context.Background())
	if err != nil || kafka == nil {
		t.Fatalf("Kafka() = %v, %v; want a client that has not dialed yet", kafka, err)
	}
	if again, _ := clients.Kafka(context.Background()); again != kafka {
		t.Error("Kafka() built a second client; one per provider instance is the contract")
	}
	if got := kafka.Timeout().String(); got != "1s" {
		t.Errorf("client timeout %s, want 1s", got)
	}
}

func TestConfigureBootstrapServers(t *testing.T) {
	env := map[string]string{bootstrapServersEnv: " kafka-1:9092, kafka-2:9092,"}
	t.Run("from environment", func(t *testing.T) {
		clients, diags := configure(t, env, map[string]any{})
		if diags.HasError() {
			t.Fatal(diags)
		}
		if want := []string{"kafka-1:9092", "kafka-2:9092"}; !slices.Equal(clients.Brokers(), want) {
			t.Errorf("brokers %q, want %q", clients.Brokers(), want)
		}
	})
	t.Run("attribute wins", func(t *testing.T) {
		clients, diags := configure(t, env, map[string]any{"bootstrap_servers": []string{"other:9093"}})
		if diags.HasError() {
			t.Fatal(diags)
		}
		if want := []string{"other:9093"}; !slices.Equal(clients.Brokers(), want) {
			t.Errorf("brokers %q, want %q", clients.Brokers(), want)
		}
	})
	t.Run("none is an error only at first use", func(t *testing.T) {
		clients, diags := configure(t, nil, map[string]any{})
		if diags.HasError() {
			t.Fatalf("Configure: %v", diags)
		}
		_, diags = clients.KafkaClient(context.Background(), "reading topic \"orders\"")
		assertSingleError(t, diags, "Provider Configuration Incomplete", bootstrapServersEnv, "reading topic \"orders\"")
	})
}

func TestConfigureWithUnknownValues(t *testing.T) {
	clients, diags := configure(t, nil, map[string]any{"bootstrap_servers": unknown{}})
	if diags.HasError() {
		t.Fatalf("Configure: %v", diags)
	}
	_, diags = clients.KafkaClient(context.Background(), "planning")
	assertSingleError(t, diags, "Provider Configuration Incomplete", "known only after apply")
}

func TestConfigureReportsBadTLSAtConfigure(t *testing.T) {
	_, diags := configure(t, nil, map[string]any{
		"bootstrap_servers": []string{"localhost:9093"},
		"tls":               map[string]any{"ca_pem": "/nonexistent/ca.pem"},
	})
	assertSingleError(t, diags, "Invalid TLS Configuration", "tls.ca_pem", "/nonexistent/ca.pem")
}

// assertSingleError checks there is exactly one diagnostic, an error with
// this summary whose detail mentions every one of mentions.
func assertSingleError(t *testing.T, diags diag.Diagnostics, summary string, mentions ...string) {
	t.Helper()
	if len(diags) != 1 {
		t.Fatalf("got %d diagnostics %v, want one %q", len(diags), diags, summary)
	}
	d := diags[0]
	if d.Severity() != diag.SeverityError || d.Summary() != summary {
		t.Errorf("got %v %q, want error %q", d.Severity(), d.Summary(), summary)
	}
	for _, m := range mentions {
		if !strings.Contains(d.Detail(), m) {
			t.Errorf("detail does not mention %q:\n%s", m, d.Detail())
		}
	}
}

// attributePath returns where a diagnostic points, or "" when nowhere.
func attributePath(d diag.Diagnostic) string {
	if withPath, ok := d.(diag.DiagnosticWithPath); ok {
		return withPath.Path().String()
	}
	return ""
}

// at builds the attribute path of a protocol diagnostic from attribute
// names and list indexes.
func at(steps ...any) *tftypes.AttributePath {
	p := tftypes.NewAttributePath()
	for _, step := range steps {
		switch step := step.(type) {
		case string:
			p = p.WithAttributeName(step)
		case int:
			p = p.WithElementKeyInt(step)
		}
	}
	return p
}
