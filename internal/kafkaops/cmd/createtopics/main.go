// Command createtopics is the Kafka floor of scripts/bench-fleet-topics.sh:
// what Kafka itself takes to create a fleet's topics, every operator's
// action-state topic and control topic, in one CreateTopics request (to the controller, as any admin client
// sends it), and to
// show them in its metadata. It prints the seconds that took, then deletes
// them.
//
//	createtopics -bootstrap HOST:PORT -prefix P -operators N -partitions K
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func main() {
	bootstrap := flag.String("bootstrap", "127.0.0.1:9092", "a broker address")
	prefix := flag.String("prefix", "floor", "topic name prefix")
	operators := flag.Int("operators", 1000, "operators (two topics each)")
	partitions := flag.Int("partitions", 3, "partitions of each action-state topic")
	flag.Parse()
	if err := run(*bootstrap, *prefix, *operators, int32(*partitions)); err != nil {
		fmt.Fprintln(os.Stderr, "createtopics:", err)
		os.Exit(1)
	}
}

func run(bootstrap, prefix string, operators int, partitions int32) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap))
	if err != nil {
		return err
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	ctx := context.Background()
	var data, control []string
	for i := range operators {
		data = append(data, fmt.Sprintf("%s-%05d-action-state", prefix, i))
		control = append(control, fmt.Sprintf("%s-%05d-cleanup-control", prefix, i))
	}
	req := kmsg.NewPtrCreateTopicsRequest()
	req.TimeoutMillis = 600_000
	add := func(name string, partitions int32, configs map[string]string) {
		t := kmsg.NewCreateTopicsRequestTopic()
		t.Topic, t.NumPartitions, t.ReplicationFactor = name, partitions, -1
		for k, v := range configs {
			c := kmsg.NewCreateTopicsRequestTopicConfig()
			c.Name, c.Value = k, kmsg.StringPtr(v)
			t.Configs = append(t.Configs, c)
		}
		req.Topics = append(req.Topics, t)
	}
	for i := range operators {
		add(data[i], partitions, map[string]string{"cleanup.policy": "compact,delete", "retention.ms": "-1", "retention.bytes": "-1"})
		add(control[i], 1, map[string]string{"cleanup.policy": "compact"})
	}
	t0 := time.Now()
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return err
	}
	for _, t := range resp.Topics {
		if err := kerr.ErrorForCode(t.ErrorCode); err != nil {
			return fmt.Errorf("creating %s: %w", t.Topic, err)
		}
	}
	all := append(data, control...)
	for {
		md, err := adm.Metadata(ctx, all...)
		if err != nil {
			return err
		}
		if len(md.Topics.Names()) == len(all) && md.Topics.Error() == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Printf("%.2f\n", time.Since(t0).Seconds())
	_, err = adm.DeleteTopics(ctx, all...)
	return err
}
