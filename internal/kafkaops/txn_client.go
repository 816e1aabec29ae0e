package kafkaops

import (
	"context"
	"errors"
	"slices"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// txnClient is the client every control-topic transaction of this process
// goes through (control_txn.go): its connections, once made, carry the
// registrations, appends and commits of every operator of a fleet. It is
// made at the first transaction, after one ApiVersions request has told
// which transaction protocol the cluster speaks: v2 is KIP-890's (Kafka
// 4.0 on with transaction.version 2 finalized), otherwise the classic one.
// A failed probe makes nothing, so the next transaction asks again.
func (c *Client) txnClient(ctx context.Context) (cl *kgo.Client, v2 bool, err error) {
	c.txnMu.Lock()
	defer c.txnMu.Unlock()
	switch {
	case c.txnClosed:
		return nil, false, errors.New("the Kafka client was closed")
	case c.txnCl != nil:
		return c.txnCl, c.txnV2, nil
	}
	resp, err := c.kgo.Request(ctx, kmsg.NewPtrApiVersionsRequest())
	if err != nil {
		return nil, false, err
	}
	v2 = !c.txnClassic && speaksKIP890(resp.(*kmsg.ApiVersionsResponse))
	cl, err = kgo.NewClient(append(slices.Clone(c.opts),
		kgo.MaxVersions(txnVersions(v2)),
		// kgo rewrites a raw Produce's acks to the client's.
		kgo.RequiredAcks(kgo.AllISRAcks()),
		// The client metrics it would push (KIP-714) say nothing the
		// provider's own client does not.
		kgo.DisableClientMetrics(),
	)...)
	if err != nil {
		return nil, false, err
	}
	c.txnCl, c.txnV2 = cl, v2
	return cl, v2, nil
}

// speaksKIP890 is whether the cluster finalized transaction.version 2 and
// the broker answering takes the requests that carry it: Produce 12 (the
// leader adds the partition to the transaction) and EndTxn 5 (the commit
// answers with the producer's next epoch).
func speaksKIP890(r *kmsg.ApiVersionsResponse) bool {
	finalized := slices.ContainsFunc(r.FinalizedFeatures, func(f kmsg.ApiVersionsResponseFinalizedFeature) bool {
		return f.Name == "transaction.version" && f.MaxVersionLevel >= 2
	})
	takes := func(key kmsg.Key, version int16) bool {
		return slices.ContainsFunc(r.ApiKeys, func(k kmsg.ApiVersionsResponseApiKey) bool {
			return k.ApiKey == int16(key) && k.MaxVersion >= version
		})
	}
	return finalized && takes(kmsg.Produce, 12) && takes(kmsg.EndTxn, 5)
}

// txnVersions caps the transaction's requests at the protocol chosen:
// classic, below Produce 12 and EndTxn 5 (which a broker takes as KIP-890's
// transactions); KIP-890's, at them. Produce 13 would give topic IDs
// where these requests name the control topic.
func txnVersions(v2 bool) *kversion.Versions {
	v := kversion.Stable()
	if v2 {
		v.SetMaxKeyVersion(int16(kmsg.Produce), 12)
		v.SetMaxKeyVersion(int16(kmsg.EndTxn), 5)
	} else {
		v.SetMaxKeyVersion(int16(kmsg.Produce), 11)
		v.SetMaxKeyVersion(int16(kmsg.EndTxn), 4)
	}
	return v
}
