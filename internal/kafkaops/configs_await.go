package kafkaops

import (
	"context"
	"time"
)

// awaitConfigsPause is how long AwaitTopicConfigs waits between reads.
const awaitConfigsPause = 100 * time.Millisecond

// AwaitTopicConfigs reads name's configs until shows accepts them or limit
// passes, and returns the last read. Kafka answers IncrementalAlterConfigs
// once the controller has committed the change, and each broker applies it
// from the metadata log afterwards, so a DescribeConfigs right after an
// alter may still show the old values (seen on Apache Kafka 4.4 under load:
// a refresh after the write then reported the topic unchanged). limit
// bounds the wait; a read that still shows old values after it is
// returned as it is, for the caller to report.
func (c *Client) AwaitTopicConfigs(ctx context.Context, name string, shows func(map[string]ConfigValue) bool, limit time.Duration) (map[string]ConfigValue, error) {
	deadline := time.Now().Add(limit)
	for {
		cfg, err := c.TopicConfigs(ctx, name)
		if err != nil || shows(cfg) || time.Now().After(deadline) {
			return cfg, err
		}
		if err := sleep(ctx, awaitConfigsPause); err != nil {
			return cfg, nil
		}
	}
}
