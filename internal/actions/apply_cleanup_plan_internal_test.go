package actions

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
)

// TestInvokeStoppedByTerraform: Terraform stops the provider (Ctrl-C) while
// the action runs. As terraform-plugin-framework's proto6server does once
// terraform-plugin-go has ended the stream, nothing reads progress after the
// stop: the invocation must still return, with an error saying whether the
// plan is COMMITTED and the command that finishes it, not the resources'
// "re-run terraform apply" (Terraform does not show it today; the test
// holds what the provider returns).
func TestInvokeStoppedByTerraform(t *testing.T) {
	for _, tc := range []struct {
		name      string
		stopAt    string // the progress message at which Terraform stops the provider
		wantState string
	}{
		{"after COMMITTED", "COMMITTED: the runtime now refuses restores", "is COMMITTED and not APPLIED"},
		{"while committing", "recording plan", "before plan %s was known to be COMMITTED"},
		// The apply is over when the stop comes: no error, and the last
		// line, which nothing reads now, is not sent.
		{"after APPLIED", "APPLIED recorded", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clients, plan := invokeKafka(t)
			a := &applyCleanupPlan{clients: clients}
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			var mu sync.Mutex
			var afterStop []string
			resp := &action.InvokeResponse{SendProgress: func(ev action.InvokeProgressEvent) {
				mu.Lock()
				stopped := ctx.Err() != nil
				if stopped {
					afterStop = append(afterStop, ev.Message)
				}
				mu.Unlock()
				if stopped {
					select {} // the stream has ended: no one reads this event, ever
				}
				if strings.HasPrefix(ev.Message, tc.stopAt) {
					stop()
				}
			}}
			done := make(chan struct{})
			go func() {
				defer close(done)
				a.Invoke(ctx, action.InvokeRequest{Config: invokeConfig(t, a, plan, "ctl")}, resp)
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				mu.Lock()
				defer mu.Unlock()
				t.Fatalf("Invoke did not return after the stop; progress sent after it: %q", afterStop)
			}
			if len(afterStop) > 0 {
				t.Errorf("progress sent after the stop: %q", afterStop)
			}
			if tc.wantState == "" {
				if resp.Diagnostics.HasError() {
					t.Errorf("an apply finished before the stop failed: %v", resp.Diagnostics)
				}
				return
			}
			if n := resp.Diagnostics.ErrorsCount(); n != 1 {
				t.Fatalf("want one error, got %d: %v", n, resp.Diagnostics)
			}
			d := resp.Diagnostics.Errors()[0]
			detail := strings.Join(strings.Fields(d.Detail()), " ")
			want := tc.wantState
			if strings.Contains(want, "%s") {
				want = fmt.Sprintf(want, plan.ID())
			}
			for _, w := range []string{want, plan.ID(), "terraform apply -invoke=action.flinkagents_apply_cleanup_plan.<name>"} {
				if !strings.Contains(detail, w) {
					t.Errorf("the error does not say %q:\n%s: %s", w, d.Summary(), detail)
				}
			}
			if d.Summary() != "Cleanup Plan Interrupted" || strings.Contains(detail, "re-run terraform apply") {
				t.Errorf("the stop is reported as %s: %s", d.Summary(), detail)
			}
		})
	}
}

// invokeKafka is an in-process broker with topic "orders" (one partition,
// 10 records) and an empty control topic "ctl", and a plan deleting below
// offset 5.
func invokeKafka(t *testing.T) (*providerdata.Clients, cleanupplan.Plan) {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	connect := func(context.Context) (*kafkaops.Client, error) {
		return kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: 10 * time.Second})
	}
	ctx := context.Background()
	k, err := connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	data, err := k.CreateTopic(ctx, "orders", 1, 1, cleanup.DataTopicSettings)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.CreateTopic(ctx, "ctl", 1, 1, map[string]string{cleanup.ConfigCleanupPolicy: cleanup.ControlTopicPolicy}); err != nil {
		t.Fatal(err)
	}
	producer, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.DefaultProduceTopic("orders"))
	if err != nil {
		t.Fatal(err)
	}
	defer producer.Close()
	for i := range 10 {
		if err := producer.ProduceSync(ctx, &kgo.Record{Value: fmt.Appendf(nil, "state-%d", i)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	plan, err := cleanupplan.New("s3://ckpt/orders/chk-5", "orders", data.Topic.ID.String(), cleanupplan.Offsets{0: 5})
	if err != nil {
		t.Fatal(err)
	}
	clients := providerdata.New(c.ListenAddrs(), connect)
	t.Cleanup(clients.Close)
	return clients, plan
}

// invokeConfig is the action's configuration with plan and control topic.
func invokeConfig(t *testing.T, a *applyCleanupPlan, plan cleanupplan.Plan, control string) tfsdk.Config {
	t.Helper()
	var s action.SchemaResponse
	a.Schema(context.Background(), action.SchemaRequest{}, &s)
	ty := s.Schema.Type().TerraformType(context.Background())
	return tfsdk.Config{Schema: s.Schema, Raw: tftypes.NewValue(ty, map[string]tftypes.Value{
		"plan_json":     tftypes.NewValue(tftypes.String, string(plan.File())),
		"control_topic": tftypes.NewValue(tftypes.String, control),
	})}
}
