// Command fleetpoints prepares a fleet for scripts/bench-fleet.sh: for every
// operator of examples/rollout it fills the action-state topic with records
// and uploads checkpoints, written by checkpoint.WriteSavepoint with that
// topic's real name, ID and offsets, to ckpt/<prefix>/<operator>/ on an S3
// store (the bench's emulator), so each operator's `checkpoint_dir` in the agent-fleet
// module has points to follow.
//
//	fleetpoints -bootstrap HOST:PORT -s3 http://127.0.0.1:PORT -bucket B \
//	    -prefix P -operators N -records R -round K
//
// Round K keeps two checkpoints per job, chk-K and chk-K+1, with markers at
// K*R/4 and (K+1)*R/4 on every partition, and removes chk-K-1: so the oldest
// retained point, which the boundary follows, moves forward by R/4 records
// per round. Round 1 also produces R records into every partition (rounds
// are limited to 3 so markers stay below the end of the log).
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

type options struct {
	bootstrap, s3, bucket, prefix string
	operators, records, round     int
	workers                       int
}

func main() {
	var o options
	flag.StringVar(&o.bootstrap, "bootstrap", "", "Kafka bootstrap address (PLAINTEXT)")
	flag.StringVar(&o.s3, "s3", "", "S3 endpoint, path-style, no credentials (the bench's emulator)")
	flag.StringVar(&o.bucket, "bucket", "", "bucket holding ckpt/<prefix>/<operator>/chk-N")
	flag.StringVar(&o.prefix, "prefix", "", "topic prefix (examples/rollout's prefix variable)")
	flag.IntVar(&o.operators, "operators", 0, "operators agent-00 .. agent-<N-1>")
	flag.IntVar(&o.records, "records", 40, "records per partition (round 1 produces them)")
	flag.IntVar(&o.round, "round", 1, "1, 2 or 3: which checkpoints to keep")
	flag.IntVar(&o.workers, "workers", 16, "operators prepared concurrently")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "fleetpoints:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	if o.bootstrap == "" || o.s3 == "" || o.bucket == "" || o.prefix == "" || o.operators <= 0 {
		return errors.New("-bootstrap, -s3, -bucket, -prefix and -operators are required")
	}
	if o.round < 1 || o.round > 3 || o.records < 4 {
		return errors.New("-round must be 1..3 and -records at least 4")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(o.bootstrap, ",")...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(5*time.Millisecond),
		// Topics created a moment ago may not have a leader everywhere yet;
		// the context bounds the wait.
		kgo.UnknownTopicRetries(-1))
	if err != nil {
		return err
	}
	defer cl.Close()

	names := make([]string, o.operators)
	for i := range names {
		names[i] = fmt.Sprintf("agent-%02d", i)
	}
	topics := make([]string, len(names))
	for i, n := range names {
		topics[i] = o.prefix + "-" + n + "-action-state"
	}
	details, err := describe(ctx, kadm.NewClient(cl), topics)
	if err != nil {
		return err
	}

	work := make(chan int)
	errs := make(chan error, len(names))
	var wg sync.WaitGroup
	for range o.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if err := prepare(ctx, o, cl, names[i], details[topics[i]]); err != nil {
					errs <- fmt.Errorf("%s: %w", names[i], err)
				}
			}
		}()
	}
	for i := range names {
		work <- i
	}
	close(work)
	wg.Wait()
	close(errs)
	return errors.Join(collect(errs)...)
}

// describe lists the topics until every one has its metadata (a rollout
// of thousands of partitions a moment ago is still propagating), for at
// most two minutes.
func describe(ctx context.Context, adm *kadm.Client, topics []string) (kadm.TopicDetails, error) {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		details, err := adm.ListTopics(ctx, topics...)
		if err != nil {
			return nil, fmt.Errorf("describing the action-state topics: %w", err)
		}
		if details.Error() == nil || time.Now().After(deadline) {
			return details, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("describing the action-state topics: %w", ctx.Err())
		case <-time.After(time.Second):
		}
	}
}

func collect(errs <-chan error) []error {
	var all []error
	for err := range errs {
		all = append(all, err)
	}
	return all
}

// prepare fills one operator's topic (round 1) and lays out its checkpoints.
func prepare(ctx context.Context, o options, cl *kgo.Client, operator string, td kadm.TopicDetail) error {
	if td.Err != nil {
		return fmt.Errorf("topic %s: %w", td.Topic, td.Err)
	}
	if len(td.Partitions) == 0 {
		return fmt.Errorf("topic %s has no partitions", td.Topic)
	}
	if o.round == 1 {
		var recs []*kgo.Record
		for p := range td.Partitions {
			for n := range o.records {
				recs = append(recs, &kgo.Record{Topic: td.Topic, Partition: p,
					Key: fmt.Appendf(nil, "key-%d", n), Value: []byte("action state")})
			}
		}
		if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			return fmt.Errorf("producing into %s: %w", td.Topic, err)
		}
	}
	topicID := kafkaops.TopicID(td.ID).String()
	for _, id := range []int{o.round, o.round + 1} {
		offsets := map[int32]int64{}
		for p := range td.Partitions {
			offsets[p] = int64(id * o.records / 4)
		}
		marker := []checkpoint.Marker{{SchemaVersion: 1, Topic: td.Topic, TopicID: topicID, Offsets: offsets}}
		if err := upload(ctx, o, fmt.Sprintf("ckpt/%s/%s/chk-%d", o.prefix, operator, id), int64(id), marker); err != nil {
			return err
		}
	}
	if o.round > 1 {
		return remove(ctx, o, fmt.Sprintf("ckpt/%s/%s/chk-%d/_metadata", o.prefix, operator, o.round-1))
	}
	return nil
}

// upload writes a checkpoint into a scratch directory and puts its files
// (only _metadata: the markers are inline) under key.
func upload(ctx context.Context, o options, key string, id int64, marker []checkpoint.Marker) error {
	dir, err := os.MkdirTemp("", "fleetpoints-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := checkpoint.WriteSavepoint(dir, checkpoint.SavepointSpec{MetadataVersion: 5, CheckpointID: id,
		OperatorUID: "action-execute-operator", OperatorName: "action-execute-operator",
		Markers: [][]checkpoint.Marker{marker}}); err != nil {
		return err
	}
	return filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		return send(ctx, http.MethodPut, o.objectURL(key+"/"+filepath.ToSlash(rel)), data)
	})
}

func remove(ctx context.Context, o options, key string) error {
	return send(ctx, http.MethodDelete, o.objectURL(key), nil)
}

func (o options) objectURL(key string) string {
	return strings.TrimSuffix(o.s3, "/") + "/" + o.bucket + "/" + key
}

func send(ctx context.Context, method, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s", method, url, resp.Status)
	}
	return nil
}
