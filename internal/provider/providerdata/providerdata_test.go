package providerdata

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/saslauth"
)

func TestBuildsOnceAndRemembersTheError(t *testing.T) {
	calls := 0
	clients := New([]string{"kafka:9092"}, func(context.Context) (*kafkaops.Client, error) {
		calls++
		return nil, errors.New("dial tcp kafka:9092: connect: connection refused")
	})
	for range 3 {
		if _, err := clients.Kafka(context.Background()); err == nil {
			t.Fatal("want the build error")
		}
	}
	if calls != 1 {
		t.Errorf("build ran %d times, want once", calls)
	}
	_, diags := clients.KafkaClient(context.Background(), "reading topic \"orders\"")
	if len(diags) != 1 || diags[0].Summary() != "Unexpected Kafka Error" ||
		!strings.Contains(diags[0].Detail(), "connection refused") {
		t.Errorf("diagnostics %v; want the memoized error as one diagnostic", diags)
	}
}

func TestSharesOneClient(t *testing.T) {
	clients := New([]string{"127.0.0.1:1"}, func(context.Context) (*kafkaops.Client, error) {
		return kafkaops.New(kafkaops.Config{Brokers: []string{"127.0.0.1:1"}})
	})
	t.Cleanup(clients.Close)
	first, diags := clients.KafkaClient(context.Background(), "test")
	if diags.HasError() {
		t.Fatal(diags)
	}
	second, _ := clients.KafkaClient(context.Background(), "test")
	if first != second {
		t.Error("two clients for one provider instance")
	}
}

func TestUnavailable(t *testing.T) {
	clients := Unavailable("no bootstrap servers")
	_, err := clients.Kafka(context.Background())
	var unavailable *UnavailableError
	if !errors.As(err, &unavailable) || unavailable.Reason != "no bootstrap servers" {
		t.Fatalf("error %v; want *UnavailableError", err)
	}
	_, diags := clients.KafkaClient(context.Background(), "creating topic \"orders\"")
	if len(diags) != 1 || diags[0].Summary() != "Provider Configuration Incomplete" ||
		!strings.Contains(diags[0].Detail(), "no bootstrap servers") {
		t.Errorf("diagnostics %v", diags)
	}
}

func TestFromProviderData(t *testing.T) {
	if clients, diags := FromProviderData(nil); clients != nil || diags.HasError() {
		t.Errorf("nil provider data: %v, %v; want nil without error", clients, diags)
	}
	want := Unavailable("x")
	if clients, diags := FromProviderData(want); clients != want || diags.HasError() {
		t.Errorf("got %v, %v", clients, diags)
	}
	if _, diags := FromProviderData("not clients"); !diags.HasError() {
		t.Error("wrong type accepted")
	}
}

// TestAuthenticationFailuresHaveTheirOwnDiagnostics: a token endpoint that
// cannot be reached fails with a dial error inside, which the Kafka
// classification alone would report as an unreachable broker.
func TestAuthenticationFailuresHaveTheirOwnDiagnostics(t *testing.T) {
	tokenErr := &saslauth.TokenEndpointError{
		TokenURL: "https://idp.example.com/token", ClientID: "terraform",
		Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")},
	}
	clients := New([]string{"kafka:9093"}, func(context.Context) (*kafkaops.Client, error) { return nil, tokenErr }).
		WithConnection("kafka:9093 over TLS with SASL OAUTHBEARER")
	_, diags := clients.KafkaClient(context.Background(), "reading topic \"orders\"")
	if len(diags) != 1 || diags[0].Summary() != "OAuth Token Request Failed" ||
		!strings.Contains(diags[0].Detail(), "Connection: kafka:9093 over TLS with SASL OAUTHBEARER.") {
		t.Errorf("diagnostics %v; want the token endpoint named, with the connection", diags)
	}
	for name, d := range map[string]diag.Diagnostic{
		"KafkaDiag":   clients.KafkaDiag("reading topic \"orders\"", tokenErr),
		"CleanupDiag": clients.CleanupDiag("applying the boundary", fmt.Errorf("commit: %w", tokenErr)),
	} {
		if d.Summary() != "OAuth Token Request Failed" {
			t.Errorf("%s: %q, want OAuth Token Request Failed", name, d.Summary())
		}
	}
}

// TestBrokerTooOldNamesTheRelease: a diagnostic for a request the brokers
// lack names each broker's release, which only the cluster can tell, and
// the feature that needed the request.
func TestBrokerTooOldNamesTheRelease(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(2), kfake.MaxVersions(kversion.V2_3_0()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	clients := New(c.ListenAddrs(), func(context.Context) (*kafkaops.Client, error) {
		return kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: 10 * time.Second})
	})
	t.Cleanup(clients.Close)
	kafka, diags := clients.KafkaClient(context.Background(), "test")
	if diags.HasError() {
		t.Fatal(diags)
	}
	if _, err := kafka.CreateTopic(context.Background(), "orders", 1, 1, nil); err != nil {
		t.Fatal(err)
	}
	err = kafka.RaiseReplicationFactor(context.Background(), "orders", 2, nil)
	d := clients.KafkaDiag(`raising the replication factor of action-state topic "orders" from 1 to 2`, err)
	for _, want := range []string{"broker 0 Apache Kafka ", "broker 1 Apache Kafka ", "raising replication_factor in place", "Apache Kafka 2.4"} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("%s: detail lacks %q:\n%s", d.Summary(), want, d.Detail())
		}
	}
}

// One control topic, one boundary: a second claim clashes when its plan or
// its resource differs; the same boundary planned again does not.
func TestClaimControlTopic(t *testing.T) {
	fleet := diagnostics.BoundaryRef{Who: `entry "orders" of a flinkagents_cleanup_boundaries`, PlanID: "p1", Source: "chk-1"}
	single := diagnostics.BoundaryRef{Who: "a flinkagents_cleanup_boundary", PlanID: "p1", Source: "chk-1"}
	other := diagnostics.BoundaryRef{Who: `entry "payments" of a flinkagents_cleanup_boundaries`, PlanID: "p1", Source: "chk-1"}
	later := diagnostics.BoundaryRef{Who: fleet.Who, PlanID: "p2", Source: "chk-2"}
	for name, c := range map[string]struct {
		second diagnostics.BoundaryRef
		clash  bool
	}{
		"the same entry planned again":     {fleet, false},
		"a boundary with the same plan":    {single, true},
		"another entry with the same plan": {other, true},
		"the same entry with another plan": {later, true},
	} {
		clients := New(nil, nil)
		if _, clash := clients.ClaimControlTopic("ctl", fleet); clash {
			t.Fatalf("%s: the first claim clashed", name)
		}
		first, clash := clients.ClaimControlTopic("ctl", c.second)
		if clash != c.clash || (clash && first != fleet) {
			t.Errorf("%s: clash %v with %+v, want %v with the first claim", name, clash, first, c.clash)
		}
		if _, clash := clients.ClaimControlTopic("other-ctl", c.second); clash {
			t.Errorf("%s: a claim on another control topic clashed", name)
		}
	}
}
