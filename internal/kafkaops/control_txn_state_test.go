package kafkaops_test

import (
	"context"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// ControlTxnState tells a fenced apply whether another applier is at work:
// an appended, uncommitted record is an open transaction; a commit closes
// it; a new registration changes what it reports even with nothing open; a
// control topic never registered for is reported as no transaction, not an
// error.
func TestControlTxnState(t *testing.T) {
	eachTxnProtocol(t, func(t *testing.T, client func(*kfake.Cluster, kafkaops.Config) *kafkaops.Client) {
		ctx := context.Background()
		c := newHangCluster(t)
		k := client(c, kafkaops.Config{})
		state := func() kafkaops.TxnState {
			t.Helper()
			st, err := k.ControlTxnState(ctx, hangControl)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		if st := state(); st.Open() || st != (kafkaops.TxnState{}) {
			t.Fatalf("before any registration: %+v, want no transaction", st)
		}
		txn, err := k.BeginControlTxn(ctx, hangControl)
		if err != nil {
			t.Fatal(err)
		}
		defer txn.Close()
		registered := state()
		if registered.Open() || registered.ProducerID < 0 {
			t.Fatalf("registered, nothing appended: %+v, want a registration with no transaction open", registered)
		}
		if err := txn.Append(ctx, []byte("k"), []byte("v")); err != nil {
			t.Fatal(err)
		}
		if st := state(); !st.Open() {
			t.Fatalf("a record appended, not committed: %+v, want an open transaction", st)
		}
		if err := txn.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if st := state(); st.Open() {
			t.Fatalf("committed: %+v, want no open transaction", st)
		}
		newer, err := client(c, kafkaops.Config{}).BeginControlTxn(ctx, hangControl)
		if err != nil {
			t.Fatal(err)
		}
		defer newer.Close()
		if st := state(); st.Open() || st == registered {
			t.Fatalf("a newer registration: %+v, the first was %+v; want it to differ", st, registered)
		}
	})
}
