package kafkaops

import (
	"testing"
	"time"
)

// CoalescedWaiting is, for tests outside the package, how many callers
// wait in the open batch of op's coalescer (OpDescribeTopic,
// OpDescribeConfigs, OpListStartOffsets, OpListEndOffsets, OpCreateTopic): a test holding a
// request at the broker can wait until every caller has joined the next one,
// instead of sleeping and hoping.
func (c *Client) CoalescedWaiting(op string) int {
	switch op {
	case OpDescribeTopic:
		return waiting(c.topics)
	case OpDescribeConfigs:
		return waiting(c.configs)
	case OpListStartOffsets:
		return waiting(c.startOffsets)
	case OpListEndOffsets:
		return waiting(c.endOffsets)
	case OpCreateTopic:
		return waiting(c.creates)
	}
	panic("no coalescer for " + op)
}

// waiting is how many callers wait in co's open batch.
func waiting[R any](co *coalescer[R]) int {
	co.mu.Lock()
	defer co.mu.Unlock()
	if co.open == nil {
		return 0
	}
	return co.open.callers
}

// Eventually waits until cond holds, failing t after a minute: a test waits
// for an event instead of sleeping and hoping the scheduler was quick, and
// a regression fails it instead of hanging it.
func Eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for give := time.Now().Add(time.Minute); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(give) {
			t.Fatalf("still waiting, after a minute, for %s", what)
		}
	}
}

// ClassicTxns makes c's control-topic transactions speak the classic
// protocol even on a cluster that offers KIP-890's, so tests cover both on
// one in-process broker. Call it before c's first transaction.
func (c *Client) ClassicTxns() { c.txnClassic = true }

// TxnV2 is whether c's transactions speak KIP-890's protocol; false before the first.
func (c *Client) TxnV2() bool {
	c.txnMu.Lock()
	defer c.txnMu.Unlock()
	return c.txnV2
}
