// Package kafkaops is the Kafka half of the cleanup protocol: topic
// identity, topic configs, offsets, DeleteRecords and the control log. It
// knows nothing about Terraform; the provider and tests drive it directly.
package kafkaops

import (
	"crypto/tls"
	"errors"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl"
)

// Config says how to reach the cluster. The zero value of every optional
// field is a working default.
type Config struct {
	// Brokers are the bootstrap addresses (host:port). Required.
	Brokers []string
	// ClientID is sent with every request; default "terraform-provider-flinkagents"
	// so broker logs and quotas name us.
	ClientID string
	// TLS enables TLS when non-nil.
	TLS *tls.Config
	// SASL enables SASL authentication when non-nil.
	SASL sasl.Mechanism
	// Timeout bounds each Kafka operation (one admin request, one produce,
	// one read of the control log); default 30s. It is not a retry budget
	// for the whole apply.
	Timeout time.Duration
	// Logger receives franz-go's logs; nil discards them.
	Logger kgo.Logger
	// Hooks are passed to franz-go (request counting in benchmarks and tests).
	Hooks []kgo.Hook
	// Coalesce merges the DescribeTopic, TopicConfigs, StartOffsets,
	// EndOffsets and CreateTopic calls that arrive while a request of their
	// kind is in flight into one request per kind, each caller still
	// getting its own topic's answer and error (coalesce.go). It saves one
	// request per concurrent caller; worth it when many resources refresh or
	// are created side by side.
	// Default off: every call sends its own request, as a single caller (a
	// test, a CLI) wants.
	Coalesce bool
	// CoalesceWindow, with Coalesce, also holds a batch this long when a
	// request of its kind was sent less than this long ago (a burst of
	// reads), so more callers join it: fewer requests, for at most this
	// much latency, and none for a read after a quiet spell. Default 0.
	CoalesceWindow time.Duration
	// CoalesceMaxTopics bounds the topics of one coalesced request; default
	// 500, far below any broker's request size limit even with 255-character
	// names, yet enough that a coalesced batch is rarely split.
	CoalesceMaxTopics int
	// MaxInFlight bounds the Kafka operations this client runs at once;
	// default 16. Terraform's -parallelism can exceed what a small cluster
	// (or its quotas) should take from one client; the excess waits.
	MaxInFlight int
}

// Client is one connection pool to the cluster, shared by every resource of
// a provider instance. It connects lazily: constructing it dials nothing.
type Client struct {
	cfg   Config
	opts  []kgo.Opt // connection options shared by every kgo client we build
	kgo   *kgo.Client
	admin *kadm.Client

	slots chan struct{} // one per in-flight operation; see acquire

	// Topics this client created whose first read has not yet waited for
	// every broker to see them (settle, topic.go).
	unsettled sync.Map
	// Every topic this client created (CreatedHere).
	created sync.Map

	// Coalescers of the per-topic reads (coalesce.go).
	topics        *coalescer[Topic]
	configs       *coalescer[map[string]ConfigValue]
	startOffsets  *coalescer[map[int32]int64]
	endOffsets    *coalescer[map[int32]int64]
	committedEnds *coalescer[map[int32]int64]
	// Every broker's own answer about a topic (broker_views.go).
	brokerViews *coalescer[[]brokerAnswer]

	// Creates: the coalescer, and each waiting create's settings by topic
	// name (topic_create.go).
	creates     *coalescer[kadm.CreateTopicResponse]
	createSpecs sync.Map

	// Deletes: the coalescer, and each waiting delete's topic ID by topic
	// name (topic_delete.go).
	deletes   *coalescer[struct{}]
	deleteIDs sync.Map

	// DeleteRecords: the coalescer, and each waiting deletion by topic
	// name (delete_records.go, records_deletion.go).
	recordsDeletions *coalescer[map[int32]int64]
	deletionSpecs    sync.Map

	// Control-log fetches: the coalescer, and each waiting reader's
	// fetch by topic name (control_log_batch.go).
	controlReads   *coalescer[*kmsg.FetchResponseTopicPartition]
	controlFetches sync.Map

	// The client every control-topic transaction goes through, made at
	// the first, and whether it speaks KIP-890's transactions
	// (control_txn.go, txn_client.go).
	txnMu      sync.Mutex
	txnCl      *kgo.Client
	txnV2      bool
	txnClosed  bool
	txnClassic bool // tests: the classic protocol even where KIP-890's is on

	// The live brokers, as LiveBrokers last read them (brokers.go).
	brokersMu     sync.Mutex
	brokers       []int32
	brokersReadAt time.Time
}

const defaultClientID = "terraform-provider-flinkagents"

// New builds a Client. No network traffic happens until the first request.
func New(cfg Config) (*Client, error) {
	if len(cfg.Brokers) == 0 {
		return nil, errors.New("no Kafka bootstrap servers configured")
	}
	if cfg.ClientID == "" {
		cfg.ClientID = defaultClientID
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.CoalesceMaxTopics <= 0 {
		cfg.CoalesceMaxTopics = 500
	}
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = 16
	}
	opts := []kgo.Opt{
		kgo.SeedBrokers(cfg.Brokers...),
		kgo.ClientID(cfg.ClientID),
		// Every operation also runs under context.WithTimeout(Timeout); the
		// dial and retry bounds keep one unreachable broker from using it all.
		kgo.DialTimeout(min(cfg.Timeout, 10*time.Second)),
		kgo.RetryTimeout(cfg.Timeout),
	}
	if cfg.TLS != nil {
		opts = append(opts, kgo.DialTLSConfig(cfg.TLS))
	}
	if cfg.SASL != nil {
		opts = append(opts, kgo.SASL(cfg.SASL))
	}
	if cfg.Logger != nil {
		opts = append(opts, kgo.WithLogger(cfg.Logger))
	}
	if len(cfg.Hooks) > 0 {
		opts = append(opts, kgo.WithHooks(cfg.Hooks...))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, err
	}
	admin := kadm.NewClient(cl)
	admin.SetTimeoutMillis(int32(cfg.Timeout / time.Millisecond))
	c := &Client{cfg: cfg, opts: opts, kgo: cl, admin: admin, slots: make(chan struct{}, cfg.MaxInFlight)}
	c.topics = newCoalescer(c, OpDescribeTopic, c.describeTopics)
	c.configs = newCoalescer(c, OpDescribeConfigs, c.describeTopicConfigs)
	c.startOffsets = newOffsetsCoalescer(c, OpListStartOffsets, admin.ListStartOffsets)
	c.endOffsets = newOffsetsCoalescer(c, OpListEndOffsets, admin.ListEndOffsets)
	c.committedEnds = newOffsetsCoalescer(c, OpListCommittedEnd, admin.ListCommittedOffsets)
	c.brokerViews = newCoalescer(c, OpDescribeTopic, c.askEveryBrokerAbout)
	c.brokerViews.beforeSettle = true // settle itself asks it
	c.creates = newCoalescer(c, OpCreateTopic, c.createTopics)
	c.creates.maxBatch, c.creates.cost, c.creates.maxCost = maxCreateTopics, c.createRecords, maxCreateRecords
	c.deletes = newCoalescer(c, OpDeleteTopic, c.deleteTopics)
	c.recordsDeletions = newCoalescer(c, OpDeleteRecords, c.deleteRecordsBatch)
	c.controlReads = newCoalescer(c, OpReadControlLog, c.fetchControlBatch)
	return c, nil
}

// Close releases the connections.
func (c *Client) Close() {
	c.kgo.Close()
	c.txnMu.Lock()
	defer c.txnMu.Unlock()
	c.txnClosed = true
	if c.txnCl != nil {
		c.txnCl.Close()
	}
}

// Timeout is the per-operation bound from Config.
func (c *Client) Timeout() time.Duration { return c.cfg.Timeout }
