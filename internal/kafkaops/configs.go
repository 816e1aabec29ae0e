package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
)

// ConfigValue is one topic config as the broker reports it.
type ConfigValue struct {
	Value string
	// Null is set when the broker reports no value (sensitive or unset).
	Null bool
}

// TopicConfigs returns every config of a topic. UNKNOWN_TOPIC_OR_PARTITION
// is asked again after the pauses DescribeTopic's missing-topic rule uses
// (topic_missing.go): the broker asked may trail the one that knew the
// topic a moment ago. It still fails after them, never reporting a missing
// topic as ErrTopicNotFound: that verdict is DescribeTopic's.
func (c *Client) TopicConfigs(ctx context.Context, name string) (map[string]ConfigValue, error) {
	cfg, err := c.configs.do(ctx, name)
	for _, pause := range missingRecheckPauses[1:] {
		if !errors.Is(err, kerr.UnknownTopicOrPartition) {
			break
		}
		if serr := sleep(ctx, pause); serr != nil {
			return nil, opErr(OpDescribeConfigs, name, serr)
		}
		cfg, err = c.configs.do(ctx, name)
	}
	return cfg, err
}

// describeTopicConfigs sends one DescribeConfigs request for names
// (TopicConfigs' batchRequest).
func (c *Client) describeTopicConfigs(ctx context.Context, names []string) (func(string) (map[string]ConfigValue, error), error) {
	rcs, err := c.admin.DescribeTopicConfigs(ctx, names...)
	if err != nil {
		return nil, err
	}
	return func(name string) (map[string]ConfigValue, error) {
		rc, err := rcs.On(name, nil)
		if err != nil {
			return nil, opErr(OpDescribeConfigs, name, err)
		}
		if rc.Err != nil {
			return nil, opErr(OpDescribeConfigs, name, errWithMessage(rc.Err, rc.ErrMessage))
		}
		out := make(map[string]ConfigValue, len(rc.Configs))
		for _, cfg := range rc.Configs {
			v := ConfigValue{Null: cfg.Value == nil}
			if cfg.Value != nil {
				v.Value = *cfg.Value
			}
			out[cfg.Key] = v
		}
		return out, nil
	}, nil
}

// AlterTopicConfigs incrementally sets and removes topic-level overrides,
// leaving every other key as it is (never the non-incremental AlterConfigs,
// which would wipe keys we do not manage).
func (c *Client) AlterTopicConfigs(ctx context.Context, name string, set map[string]string, remove []string) error {
	if len(set) == 0 && len(remove) == 0 {
		return nil
	}
	ctx, done, err := c.request(ctx, OpAlterConfigs, name)
	if err != nil {
		return err
	}
	defer done()
	alters := make([]kadm.AlterConfig, 0, len(set)+len(remove))
	for k, v := range set {
		alters = append(alters, kadm.AlterConfig{Op: kadm.SetConfig, Name: k, Value: &v})
	}
	for _, k := range remove {
		alters = append(alters, kadm.AlterConfig{Op: kadm.DeleteConfig, Name: k})
	}
	resps, err := c.admin.AlterTopicConfigs(ctx, alters, name)
	if err != nil {
		return opErr(OpAlterConfigs, name, err)
	}
	resp, err := resps.On(name, nil)
	if err != nil {
		return opErr(OpAlterConfigs, name, err)
	}
	if resp.Err != nil {
		return opErr(OpAlterConfigs, name, errWithMessage(resp.Err, resp.ErrMessage))
	}
	return nil
}

func errWithMessage(err error, msg string) error {
	if msg == "" || msg == err.Error() {
		return err
	}
	return errors.Join(err, fmt.Errorf("broker said: %s", msg))
}

// configsLagBound bounds how long DescribeTopicWithConfigs asks again for
// the settings of a topic Metadata shows but DescribeConfigs does not know.
const configsLagBound = 10 * time.Second

// DescribeTopicWithConfigs describes topic name and reads its settings,
// side by side. Right after a burst of creates a broker can show a topic
// in Metadata while its DescribeConfigs still answers
// UNKNOWN_TOPIC_OR_PARTITION: seen on Apache Kafka 4.4 for 49 of 2,000
// topics a fleet had just created, for longer than TopicConfigs' own second
// of rechecks, when the next plan read them all at once. A topic Metadata
// shows exists, so its settings are asked again, every 250 ms for up to
// configsLagBound, instead of failing the read.
func (c *Client) DescribeTopicWithConfigs(ctx context.Context, name string) (Topic, map[string]ConfigValue, error) {
	var cfg map[string]ConfigValue
	var cfgErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		cfg, cfgErr = c.TopicConfigs(ctx, name)
	}()
	t, err := c.DescribeTopic(ctx, name)
	<-done
	if err != nil {
		return t, nil, err
	}
	for deadline := time.Now().Add(configsLagBound); errors.Is(cfgErr, kerr.UnknownTopicOrPartition) && time.Now().Before(deadline); {
		if serr := sleep(ctx, 250*time.Millisecond); serr != nil {
			return t, nil, opErr(OpDescribeConfigs, name, serr)
		}
		cfg, cfgErr = c.configs.do(ctx, name)
	}
	return t, cfg, cfgErr
}
