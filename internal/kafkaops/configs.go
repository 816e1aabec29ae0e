package kafkaops

import (
	"context"
	"errors"
	"fmt"

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
