package kafkaops

import (
	"context"
	"errors"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Created is what CreateTopic learned about a new topic.
type Created struct {
	Topic   Topic // Leaders and AuthorizedOperations are not known yet
	Configs map[string]ConfigValue
}

// createSpec is one topic's entry in a CreateTopics request.
type createSpec struct {
	partitions        int32
	replicationFactor int16
	configs           map[string]string
}

// CreateTopic creates a topic with the given settings and returns its
// identity, partitions, replication factor and configs as the broker's
// CreateTopics response reports them (v5+, Apache Kafka 2.4; the ID since
// v7, Kafka 2.8), without a read-back, which would be most of a large
// rollout's requests. A broker too old to report them, or a response
// without one of the requested configs, gets the read-back instead.
//
// With Config.Coalesce, creates that arrive together go in one CreateTopics
// request (coalesce.go): the controller handles the topics of one request
// together, while single-topic requests wait for each other, one controller
// round each, which is most of a large rollout's wall time. Each caller
// still gets its own topic's answer and error: a topic that already exists
// or breaks a policy fails that caller only.
//
// The broker answers CreateTopics once the controller has recorded the
// topic, but serves Metadata from a cache that catches up a moment later;
// the first read of the topic through this client therefore waits until
// every broker sees it (settle), so a boundary created in the same apply
// as its topics does not find them missing.
func (c *Client) CreateTopic(ctx context.Context, name string, partitions int32, replicationFactor int16, configs map[string]string) (Created, error) {
	resp, err := c.createTopic(ctx, name, createSpec{partitions: partitions, replicationFactor: replicationFactor, configs: configs})
	if err != nil {
		return Created{}, err
	}
	c.unsettled.Store(name, time.Now())
	c.created.Store(name, true)
	if created, ok := createdFromResponse(resp, configs); ok {
		return created, nil
	}
	t, err := c.DescribeTopic(ctx, name)
	if err != nil {
		return Created{}, err
	}
	cfg, err := c.TopicConfigs(ctx, name)
	if err != nil {
		return Created{}, err
	}
	return Created{Topic: t, Configs: cfg}, nil
}

// A rollout's creates go in as few CreateTopics requests as the controller
// takes: Apache Kafka 4.4 showed 2,000 topics created in one request with
// leaders 0.06 s after it returned, but worked through the same topics
// sent 500 (1,000) at a time for 7 (3.8) s more, so the next command found
// hundreds of them missing: the broker publishes the next request's topics
// only once it has made the logs of the last one's partitions. The
// controller refuses, with POLICY_VIOLATION, a request that would write
// more than 10,000 metadata records at once (a record per topic, per
// partition and per setting: Kafka 4.4 took 2,000 topics of 5 records on
// average, exactly 10,000 records, and refused 3,000), so a batch stays
// within it.
const (
	maxCreateRecords = 10000
	maxCreateTopics  = 10000
)

// ExpectCreates announces n CreateTopic calls about to be made side by
// side (a fleet's rollout): with Config.Coalesce they go together, in as
// few CreateTopics requests as maxCreateRecords allows, instead of the
// first alone and the rest in whatever batches their arrival makes.
// release ends the wait for calls that will not come; call it when the
// creates are done.
func (c *Client) ExpectCreates(n int) (release func()) {
	if !c.cfg.Coalesce || n <= 1 {
		return func() {}
	}
	return c.creates.expectCallers(n)
}

// createRecords is the metadata records creating name writes, by its
// waiting spec: the topic, each partition, each setting.
func (c *Client) createRecords(name string) int {
	spec, ok := c.createSpecs.Load(name)
	if !ok {
		return 1
	}
	s := spec.(createSpec)
	return 1 + int(max(s.partitions, 1)) + len(s.configs)
}

// createTopic sends name's create, in a coalesced request unless another
// create of the same name is waiting: the coalescer would merge the two
// callers into one entry and tell both they created the topic, where the
// broker must tell the second that it already exists.
func (c *Client) createTopic(ctx context.Context, name string, spec createSpec) (kadm.CreateTopicResponse, error) {
	if _, twin := c.createSpecs.LoadOrStore(name, spec); twin {
		ctx, done, err := c.request(ctx, OpCreateTopic, name)
		if err != nil {
			return kadm.CreateTopicResponse{}, err
		}
		defer done()
		answer, err := c.sendCreateTopics(ctx, map[string]createSpec{name: spec})
		if err != nil {
			return kadm.CreateTopicResponse{}, opErr(OpCreateTopic, name, err)
		}
		return answer(name)
	}
	defer c.createSpecs.Delete(name)
	return c.creates.do(ctx, name)
}

// createTopics sends one CreateTopics request for names (the create
// coalescer's batchRequest). A caller that gave up before its batch went has
// taken its entry back and is left out: nothing it no longer waits for is
// created.
func (c *Client) createTopics(ctx context.Context, names []string) (func(string) (kadm.CreateTopicResponse, error), error) {
	specs := make(map[string]createSpec, len(names))
	for _, name := range names {
		if spec, ok := c.createSpecs.Load(name); ok {
			specs[name] = spec.(createSpec)
		}
	}
	return c.sendCreateTopics(ctx, specs)
}

func (c *Client) sendCreateTopics(ctx context.Context, specs map[string]createSpec) (func(string) (kadm.CreateTopicResponse, error), error) {
	responses := make(map[string]kadm.CreateTopicResponse, len(specs))
	if len(specs) > 0 {
		req := kmsg.NewPtrCreateTopicsRequest()
		req.TimeoutMillis = int32(c.cfg.Timeout / time.Millisecond)
		for name, spec := range specs {
			t := kmsg.NewCreateTopicsRequestTopic()
			t.Topic = name
			t.NumPartitions = spec.partitions
			t.ReplicationFactor = spec.replicationFactor
			for k, v := range spec.configs {
				cfg := kmsg.NewCreateTopicsRequestTopicConfig()
				cfg.Name = k
				cfg.Value = kmsg.StringPtr(v)
				t.Configs = append(t.Configs, cfg)
			}
			req.Topics = append(req.Topics, t)
		}
		resp, err := req.RequestWith(ctx, c.kgo)
		if err != nil {
			return nil, err
		}
		for _, t := range resp.Topics {
			responses[t.Topic] = createTopicResponse(t)
		}
	}
	return func(name string) (kadm.CreateTopicResponse, error) {
		resp, ok := responses[name]
		switch {
		case !ok:
			return resp, opErr(OpCreateTopic, name, errors.New("the broker's CreateTopics response did not include the topic"))
		case resp.Err != nil:
			return resp, opErr(OpCreateTopic, name, errWithMessage(resp.Err, resp.ErrMessage))
		}
		return resp, nil
	}, nil
}

// createTopicResponse reads one topic of a CreateTopics response as kadm
// does (kadm's own CreateTopics gives every topic the same settings).
func createTopicResponse(t kmsg.CreateTopicsResponseTopic) kadm.CreateTopicResponse {
	r := kadm.CreateTopicResponse{
		Topic:             t.Topic,
		ID:                t.TopicID,
		Err:               kerr.ErrorForCode(t.ErrorCode),
		NumPartitions:     t.NumPartitions,
		ReplicationFactor: t.ReplicationFactor,
		Configs:           make(map[string]kadm.Config, len(t.Configs)),
	}
	if t.ErrorMessage != nil {
		r.ErrMessage = *t.ErrorMessage
	}
	for _, cfg := range t.Configs {
		r.Configs[cfg.Name] = kadm.Config{Key: cfg.Name, Value: cfg.Value, Source: kmsg.ConfigSource(cfg.Source), Sensitive: cfg.IsSensitive}
	}
	return r
}

// createdFromResponse reads a CreateTopics answer; ok is false when it lacks
// anything a read-back would give.
func createdFromResponse(resp kadm.CreateTopicResponse, requested map[string]string) (Created, bool) {
	if resp.NumPartitions < 0 || resp.ReplicationFactor < 0 || resp.ID == (kadm.TopicID{}) {
		return Created{}, false
	}
	cfg := make(map[string]ConfigValue, len(resp.Configs))
	for k, v := range resp.Configs {
		cfg[k] = ConfigValue{Null: v.Value == nil}
		if v.Value != nil {
			cfg[k] = ConfigValue{Value: *v.Value}
		}
	}
	for k := range requested {
		if _, ok := cfg[k]; !ok {
			return Created{}, false
		}
	}
	t := Topic{Name: resp.Topic, ID: TopicID(resp.ID), ReplicationFactor: int(resp.ReplicationFactor)}
	for p := range resp.NumPartitions {
		t.Partitions = append(t.Partitions, p)
	}
	return Created{Topic: t, Configs: cfg}, true
}

// CreatedHere reports whether this client created topic name: in the
// provider, whether this Terraform command (one provider process) did. A
// topic created moments ago may still have partitions whose leaders do not
// answer yet (LeadersNotReady), which callers may wait out; a topic that
// was there before is not waited for.
func (c *Client) CreatedHere(name string) bool {
	_, ok := c.created.Load(name)
	return ok
}
