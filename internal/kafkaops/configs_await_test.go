package kafkaops_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// TestAwaitTopicConfigsOutlastsAStaleBroker: a broker that still answers
// with the settings from before an alter (as Apache Kafka 4.4 does for a
// moment under load) is read again until it shows the new ones.
func TestAwaitTopicConfigsOutlastsAStaleBroker(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if err := c.CreateTopic("orders", 3, map[string]string{"retention.ms": "-1"}); err != nil {
		t.Fatal(err)
	}
	var stale atomic.Int32
	stale.Store(3)
	c.ControlKey(int16(kmsg.DescribeConfigs), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		if stale.Add(-1) < 0 {
			return nil, nil, false
		}
		r := req.(*kmsg.DescribeConfigsRequest)
		resp := r.ResponseKind().(*kmsg.DescribeConfigsResponse)
		for _, rr := range r.Resources {
			res := kmsg.NewDescribeConfigsResponseResource()
			res.ResourceName, res.ResourceType = rr.ResourceName, rr.ResourceType
			cfg := kmsg.NewDescribeConfigsResponseResourceConfig()
			cfg.Name, cfg.Value = "retention.ms", kmsg.StringPtr("604800000")
			res.Configs = append(res.Configs, cfg)
			resp.Resources = append(resp.Resources, res)
		}
		return resp, nil, true
	})
	k, err := kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	cfg, err := k.AwaitTopicConfigs(context.Background(), "orders", func(cfg map[string]kafkaops.ConfigValue) bool {
		return cfg["retention.ms"].Value == "-1"
	}, 10*time.Second)
	if err != nil || cfg["retention.ms"].Value != "-1" || stale.Load() >= 0 {
		t.Fatalf("read %v (%v) with %d stale answers left", cfg["retention.ms"], err, stale.Load())
	}
}
