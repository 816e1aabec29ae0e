// Package providerdata is the value the flinkagents provider hands to every
// resource and data source through ProviderData. It lives apart from package
// provider so that resources and data sources can import it while provider
// imports their registries: provider → resources → providerdata, no cycle.
//
// A resource picks it up in Configure and asks for the Kafka client only in
// the method that talks to Kafka:
//
//	func (r *topicResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
//		r.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
//	}
//
//	func (r *topicResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
//		...
//		kafka, diags := r.clients.KafkaClient(ctx, "reading topic "+name)
//		resp.Diagnostics.Append(diags...)
//		if resp.Diagnostics.HasError() {
//			return
//		}
//		...
//		if err != nil {
//			resp.Diagnostics.Append(r.clients.KafkaDiag("reading topic "+name, err))
//		}
//	}
package providerdata

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// Clients is shared by every resource and data source of one provider
// instance. It builds the Kafka client on first use, never in the provider's
// Configure, so that validating and planning a configuration that needs no
// Kafka call works without a reachable broker. The client, or the error from
// building it, is kept for the life of the provider instance: one connection
// pool per Terraform command, one error reported the same way everywhere.
type Clients struct {
	brokers []string
	build   func(context.Context) (*kafkaops.Client, error)
	conn    string // how the client connects, for diagnostics; no secrets
	timeout time.Duration

	once  sync.Once
	kafka *kafkaops.Client
	err   error

	claimsMu sync.Mutex
	claims   map[string]diagnostics.BoundaryRef // control topic -> the first boundary planned into it
}

// UnavailableError says why the provider block cannot produce a Kafka client
// at all (values unknown until apply, no bootstrap servers), as opposed to a
// client that was built and then failed to reach the cluster.
type UnavailableError struct {
	Reason string
}

func (e *UnavailableError) Error() string { return "Kafka client unavailable: " + e.Reason }

// New returns Clients that call build once, on the first Kafka or KafkaClient
// call, with that call's context (franz-go keeps it for logging). brokers are
// kept for diagnostics.
func New(brokers []string, build func(context.Context) (*kafkaops.Client, error)) *Clients {
	return &Clients{brokers: brokers, build: build}
}

// Unavailable returns Clients whose every use fails with an
// *UnavailableError carrying reason. The provider uses it when its block is
// valid but not enough to connect, so the failure surfaces only where a
// resource actually needs Kafka.
func Unavailable(reason string) *Clients {
	err := &UnavailableError{Reason: reason}
	return New(nil, func(context.Context) (*kafkaops.Client, error) { return nil, err })
}

// FromProviderData recovers the *Clients from a resource's or data source's
// ConfigureRequest.ProviderData. Terraform configures resources before the
// provider in some commands (validate, for one) and passes nil then; that is
// not an error and yields nil Clients, which the resource must not use.
func FromProviderData(data any) (*Clients, diag.Diagnostics) {
	if data == nil {
		return nil, nil
	}
	clients, ok := data.(*Clients)
	if !ok {
		return nil, diag.Diagnostics{diagnostics.UnexpectedProviderData(data)}
	}
	return clients, nil
}

// WithConnection records a description of how the client connects
// (brokers, TLS, SASL mechanism and user; never a secret) for diagnostics.
func (c *Clients) WithConnection(desc string) *Clients {
	c.conn = desc
	return c
}

// KafkaDiag turns a Kafka error into a diagnostic naming this connection
// when the failure is about reaching or authenticating to the brokers.
func (c *Clients) KafkaDiag(op string, err error) diag.Diagnostic {
	return diagnostics.FromKafkaErrorVia(op, c.askCluster(err), c.conn)
}

// CleanupDiag is KafkaDiag for errors of the cleanup core met by a resource
// or data source.
func (c *Clients) CleanupDiag(op string, err error) diag.Diagnostic {
	return diagnostics.FromCleanupErrorFor(diagnostics.CleanupByResource, op, c.askCluster(err), c.conn)
}

// ActionCleanupDiag is CleanupDiag for the action, whose advice differs:
// it has no timeouts block, and runs again when invoked again.
func (c *Clients) ActionCleanupDiag(op string, err error) diag.Diagnostic {
	return diagnostics.FromCleanupErrorFor(diagnostics.CleanupByAction, op, c.askCluster(err), c.conn)
}

// askCluster adds to err what only the cluster can tell: for a broker too
// old for a request, each broker's release. A client exists whenever that
// error does, so this never builds one.
func (c *Clients) askCluster(err error) error {
	if !kafkaops.IsBrokerTooOld(err) {
		return err
	}
	kafka, buildErr := c.Kafka(context.Background())
	if buildErr != nil {
		return err
	}
	return kafka.ExplainBrokerTooOld(context.Background(), err)
}

// WithTimeout records the provider's timeout, which also bounds each
// checkpoint storage request of the data sources that read checkpoints.
func (c *Clients) WithTimeout(d time.Duration) *Clients {
	c.timeout = d
	return c
}

// Timeout is the provider's timeout, or 0 when the provider was not
// configured (nil Clients) or set none, for the callee's own default.
func (c *Clients) Timeout() time.Duration {
	if c == nil {
		return 0
	}
	return c.timeout
}

// Connection is the description given to WithConnection.
func (c *Clients) Connection() string { return c.conn }

// Brokers returns the bootstrap servers the client uses, for messages.
func (c *Clients) Brokers() []string { return c.brokers }

// Kafka returns the shared client, building it on the first call. A build
// error is returned on this and every later call.
func (c *Clients) Kafka(ctx context.Context) (*kafkaops.Client, error) {
	c.once.Do(func() { c.kafka, c.err = c.build(ctx) })
	return c.kafka, c.err
}

// KafkaClient is Kafka with the error already turned into a diagnostic; op
// completes "While ..." in it (for example "reading topic \"orders\"").
func (c *Clients) KafkaClient(ctx context.Context, op string) (*kafkaops.Client, diag.Diagnostics) {
	kafka, err := c.Kafka(ctx)
	if err == nil {
		return kafka, nil
	}
	var unavailable *UnavailableError
	if errors.As(err, &unavailable) {
		return nil, diag.Diagnostics{diagnostics.ProviderConfigIncomplete(op, unavailable.Reason)}
	}
	return nil, diag.Diagnostics{c.KafkaDiag(op, err)}
}

// ClaimControlTopic records that boundary b of this configuration plans
// into control, and returns the first boundary that did when the two clash:
// another plan, or the same plan from another boundary (a fleet entry and a
// flinkagents_cleanup_boundary, or entries of different keys). A control
// topic holds one boundary history, so two boundaries on it would apply
// their plans in turn and fence each other's transactions.
//
// Terraform plans every resource of one configuration through one provider
// instance, so a clash is seen here, and its diagnostic can name the first
// boundary instead of a transaction fenced at apply time. Boundaries
// configured through different provider aliases are planned by different
// instances and cannot be compared: that limit is documented with the
// resources. Two boundaries of one kind and plan (two
// flinkagents_cleanup_boundary with one plan_json) look like one boundary
// planned twice, and are not refused either.
func (c *Clients) ClaimControlTopic(control string, b diagnostics.BoundaryRef) (first diagnostics.BoundaryRef, clash bool) {
	c.claimsMu.Lock()
	defer c.claimsMu.Unlock()
	if prev, ok := c.claims[control]; ok {
		return prev, prev != b
	}
	if c.claims == nil {
		c.claims = map[string]diagnostics.BoundaryRef{}
	}
	c.claims[control] = b
	return diagnostics.BoundaryRef{}, false
}

// Close releases the client if one was built. Terraform ends the provider
// process after each command, so the provider itself never needs to call
// this; tests that build many providers do.
func (c *Clients) Close() {
	if c.kafka != nil {
		c.kafka.Close()
	}
}
