package kafkaops

import (
	"context"
	"slices"
	"time"
)

// liveBrokersFresh is how long LiveBrokers answers from its last read: a
// plan checks each topic's replication factor against the live brokers,
// and a fleet's plan would otherwise send one Metadata request per topic.
const liveBrokersFresh = time.Second

// LiveBrokers returns the IDs of the brokers the cluster's metadata lists,
// ascending: the brokers that can hold a replica now (KRaft leaves fenced
// brokers out, ZooKeeper mode the ones without a session). Calls within
// liveBrokersFresh of a read share it.
func (c *Client) LiveBrokers(ctx context.Context) ([]int32, error) {
	c.brokersMu.Lock()
	defer c.brokersMu.Unlock()
	if c.brokers != nil && time.Since(c.brokersReadAt) < liveBrokersFresh {
		return slices.Clone(c.brokers), nil
	}
	ids, err := c.readLiveBrokers(ctx)
	if err == nil {
		c.brokers, c.brokersReadAt = ids, time.Now()
	}
	return slices.Clone(ids), err
}

func (c *Client) readLiveBrokers(ctx context.Context) ([]int32, error) {
	ctx, done, err := c.request(ctx, OpDescribeCluster, "")
	if err != nil {
		return nil, err
	}
	defer done()
	md, err := c.admin.BrokerMetadata(ctx)
	if err != nil {
		return nil, opErr(OpDescribeCluster, "", err)
	}
	ids := md.Brokers.NodeIDs()
	slices.Sort(ids)
	return ids, nil
}
