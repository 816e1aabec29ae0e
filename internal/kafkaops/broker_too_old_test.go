package kafkaops_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// oldCluster is kfake answering ApiVersions as Apache Kafka 2.3 does (no
// partition reassignment: that came in 2.4), two brokers, topic "orders"
// with one replica.
func oldCluster(t *testing.T) *kafkaops.Client {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(2), kfake.MaxVersions(kversion.V2_3_0()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	answerApiVersionsAs(c, kversion.V2_3_0())
	k, err := kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	if _, err := k.CreateTopic(context.Background(), "orders", 2, 1, nil); err != nil {
		t.Fatal(err)
	}
	return k
}

// answerApiVersionsAs makes every broker of c list exactly the requests and
// versions of release, inter-broker ones included, as a real broker of that
// release does (kfake lists only the requests it implements).
func answerApiVersionsAs(c *kfake.Cluster, release *kversion.Versions) {
	c.ControlKey(int16(kmsg.ApiVersions), func(kreq kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		resp := kreq.ResponseKind().(*kmsg.ApiVersionsResponse)
		release.EachMaxKeyVersion(func(key, max int16) {
			k := kmsg.NewApiVersionsResponseApiKey()
			k.ApiKey, k.MaxVersion = key, max
			resp.ApiKeys = append(resp.ApiKeys, k)
		})
		return resp, nil, true
	})
}

// TestExplainBrokerTooOld: a request a broker lacks fails as too old, and
// the explanation names each broker's release from its ApiVersions answer.
func TestExplainBrokerTooOld(t *testing.T) {
	k := oldCluster(t)
	ctx := context.Background()
	err := k.RaiseReplicationFactor(ctx, "orders", 2, nil)
	if !kafkaops.IsBrokerTooOld(err) {
		t.Fatalf("raising the replication factor on Kafka 2.3: %v, want a broker-too-old error", err)
	}
	explained := k.ExplainBrokerTooOld(ctx, err)
	tooOld, ok := errors.AsType[*kafkaops.BrokerTooOldError](explained)
	if !ok || !errors.Is(explained, err) {
		t.Fatalf("ExplainBrokerTooOld: %v, want a BrokerTooOldError wrapping the error", explained)
	}
	if len(tooOld.Releases) != 2 {
		t.Fatalf("releases %+v, want one per broker", tooOld.Releases)
	}
	for i, r := range tooOld.Releases {
		if r.Broker != int32(i) || r.Release != "v2.3" {
			t.Errorf("broker %d: %+v, want broker %d release v2.3", i, r, i)
		}
	}
	if again := k.ExplainBrokerTooOld(ctx, explained); again != explained {
		t.Errorf("explaining twice changed the error: %v", again)
	}
	if other := errors.New("something else"); k.ExplainBrokerTooOld(ctx, other) != other {
		t.Error("an error that is not too-old was changed")
	}
}
