// Command createtopics is the Kafka floor of scripts/bench-fleet-topics.sh:
// what Kafka itself takes to create a fleet's topics, every operator's
// action-state topic and control topic, in one CreateTopics request (to the controller, as any admin client
// sends it), and to
// show them in its metadata with a leader for every partition. It prints
// the seconds that took, then deletes them and waits until they are gone.
//
//	createtopics -bootstrap HOST:PORT -prefix P -operators N -partitions K
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
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
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...))
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
	for !allLed(ctx, adm, all) {
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Printf("%.2f\n", time.Since(t0).Seconds())
	// Deleted, and waited for until the metadata lists none of them, so the
	// next run meets a broker with nothing left to clean up.
	if _, err := adm.DeleteTopics(ctx, all...); err != nil {
		return err
	}
	for {
		md, err := adm.Metadata(ctx)
		if err != nil {
			return err
		}
		left := 0
		for _, name := range all {
			if _, ok := md.Topics[name]; ok {
				left++
			}
		}
		if left == 0 {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// allLed reports whether the broker's metadata lists every topic of names
// with a leader for each partition: the topics are usable.
func allLed(ctx context.Context, adm *kadm.Client, names []string) bool {
	md, err := adm.Metadata(ctx, names...)
	if err != nil || len(md.Topics) != len(names) {
		return false
	}
	for _, t := range md.Topics {
		if t.Err != nil || len(t.Partitions) == 0 {
			return false
		}
		for _, p := range t.Partitions {
			if p.Err != nil || p.Leader < 0 {
				return false
			}
		}
	}
	return true
}
