package soak

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// cluster is the soak's 3-node Kafka cluster as the harness (not the
// provider) reaches it: PLAINTEXT, and scripts/kafka for the nodes.
type cluster struct {
	cl      *kgo.Client
	adm     *kadm.Client
	dir     string // scripts/kafka workdir
	scripts string // scripts/kafka
}

func javaTopicID(id [16]byte) string { return base64.RawURLEncoding.EncodeToString(id[:]) }

// describe waits (up to a minute) until the topic has a leader for every
// partition, and returns its ID and partitions' leaders.
func (c cluster) describe(ctx context.Context, topic string) (kadm.TopicDetail, error) {
	deadline := time.Now().Add(time.Minute)
	for {
		details, err := c.adm.ListTopics(ctx, topic)
		if err == nil {
			d := details[topic]
			err = d.Err
			if err == nil && len(d.Partitions) > 0 {
				led := true
				for _, p := range d.Partitions {
					led = led && p.Leader >= 0 && p.Err == nil
				}
				if led {
					return d, nil
				}
				err = fmt.Errorf("topic %s has a partition without a leader", topic)
			}
		}
		if time.Now().After(deadline) {
			return kadm.TopicDetail{}, err
		}
		select {
		case <-ctx.Done():
			return kadm.TopicDetail{}, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func (c cluster) leader(ctx context.Context, topic string, partition int32) (int32, error) {
	d, err := c.describe(ctx, topic)
	if err != nil {
		return -1, err
	}
	return d.Partitions[partition].Leader, nil
}

// script runs one of scripts/kafka against the cluster's workdir.
func (c cluster) script(ctx context.Context, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, filepath.Join(c.scripts, name), append([]string{c.dir}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %v: %v\n%s", name, args, err, out)
	}
	return nil
}

func (c cluster) killNode(ctx context.Context, id int32) error {
	return c.script(ctx, "kill-node.sh", strconv.Itoa(int(id)))
}

// restartNode starts a killed node again. restart-node.sh can fail at once
// on a loaded machine (it may look at the new JVM's command line before the
// shell has exec'd java, and take it for a node that exited); the script
// cleans up after itself, so it is run again, up to three times.
func (c cluster) restartNode(ctx context.Context, id int32) error {
	var errs []error
	for range 3 {
		err := c.script(ctx, "restart-node.sh", strconv.Itoa(int(id)))
		if err == nil {
			return nil
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// recreate deletes a topic and creates it again under its name with the
// same partitions, replication and dynamic settings: a new topic ID, no
// records. It returns the new ID.
func (c cluster) recreate(ctx context.Context, topic string) (string, error) {
	d, err := c.describe(ctx, topic)
	if err != nil {
		return "", err
	}
	rcs, err := c.adm.DescribeTopicConfigs(ctx, topic)
	if err != nil {
		return "", err
	}
	rc, err := rcs.On(topic, nil)
	if err != nil {
		return "", err
	}
	configs := map[string]*string{}
	for _, cfg := range rc.Configs {
		if cfg.Source == 1 { // DYNAMIC_TOPIC_CONFIG: set on the topic itself
			configs[cfg.Key] = cfg.Value
		}
	}
	if _, err := c.adm.DeleteTopics(ctx, topic); err != nil {
		return "", err
	}
	for {
		resp, err := c.adm.CreateTopic(ctx, int32(len(d.Partitions)), int16(d.Partitions.NumReplicas()), configs, topic)
		if err == nil && resp.Err == nil {
			if _, err := c.describe(ctx, topic); err != nil {
				return "", err
			}
			return javaTopicID(resp.ID), nil
		}
		if err == nil {
			err = resp.Err
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("recreating %s: %w", topic, err)
		case <-time.After(500 * time.Millisecond): // the deletion is still under way
		}
	}
}
