package kafkaops_test

import (
	"context"
	"errors"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// One registration carries an apply's two transactions (COMMITTED, then
// APPLIED): the second commits through Again, and the fencing still holds,
// since an applier that registered in between fences it. That is what makes
// reusing the producer safe: a newer applier always wins, exactly as when
// every transaction registered anew.
func TestControlTxnAgain(t *testing.T) {
	eachTxnProtocol(t, func(t *testing.T, client func(*kfake.Cluster, kafkaops.Config) *kafkaops.Client) {
		ctx := context.Background()
		c := newHangCluster(t)
		newClient := func() *kafkaops.Client { return client(c, kafkaops.Config{}) }
		k := newClient()
		txn, err := k.BeginControlTxn(ctx, hangControl)
		if err != nil {
			t.Fatal(err)
		}
		defer txn.Close()
		appendCommit := func(value string) error {
			if err := txn.Append(ctx, []byte("k"), []byte(value)); err != nil {
				return err
			}
			return txn.Commit(ctx)
		}
		if err := appendCommit("first"); err != nil {
			t.Fatal(err)
		}
		if err := txn.Again(ctx); err != nil {
			t.Fatal(err)
		}
		if err := appendCommit("second"); err != nil {
			t.Fatal(err)
		}

		// Another applier of the same control topic registers: the next
		// transaction on the old registration must not land.
		newer, err := newClient().BeginControlTxn(ctx, hangControl)
		if err != nil {
			t.Fatal(err)
		}
		defer newer.Close()
		err = txn.Again(ctx)
		if err == nil {
			err = appendCommit("fenced")
		}
		if !errors.Is(err, kafkaops.ErrFenced) {
			t.Fatalf("a transaction on a registration a newer applier replaced: %v, want ErrFenced", err)
		}
		if err := txn.Again(ctx); err == nil {
			t.Fatal("Again after a fenced commit succeeded; a given-up producer must be replaced")
		}

		if seen := committedValues(t, k, hangControl); len(seen) != 2 || seen[0] != "first" || seen[1] != "second" {
			t.Fatalf("read_committed sees %q, want first and second only", seen)
		}
	})
}
