package kafkaops

import (
	"context"
	"slices"
)

// LiveBrokers returns the IDs of the brokers the cluster's metadata lists,
// ascending: the brokers that can hold a replica now (KRaft leaves fenced
// brokers out, ZooKeeper mode the ones without a session).
func (c *Client) LiveBrokers(ctx context.Context) ([]int32, error) {
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
