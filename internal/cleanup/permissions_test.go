package cleanup

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
)

func TestCheckPermissions(t *testing.T) {
	all := []kadm.ACLOperation{kadm.OpRead, kadm.OpWrite, kadm.OpDelete, kadm.OpDescribe}
	topic := func(name string, ops ...kadm.ACLOperation) kafkaops.Topic {
		return kafkaops.Topic{Name: name, AuthorizedOperations: ops}
	}
	if err := checkPermissions(topic("d", all...), topic("c", all...)); err != nil {
		t.Fatal(err)
	}
	if err := checkPermissions(topic("d"), topic("c")); err != nil {
		t.Fatalf("no authorizer information must not refuse: %v", err)
	}
	err := checkPermissions(topic("d", kadm.OpRead, kadm.OpDescribe), topic("c", all...))
	if !errors.Is(err, ErrNotAuthorized) || !strings.Contains(err.Error(), `DELETE on topic "d"`) {
		t.Fatalf("err = %v", err)
	}
	err = checkPermissions(topic("d", all...), topic("c", kadm.OpRead))
	if !errors.Is(err, ErrNotAuthorized) || !strings.Contains(err.Error(), `WRITE on topic "c"`) {
		t.Fatalf("err = %v", err)
	}
}

func TestExplainRefusal(t *testing.T) {
	pair := permissions.Input{ActionStateTopic: "d", ControlTopic: "c"}
	refused := fmt.Errorf("checking: %w", &kafkaops.OpError{Op: kafkaops.OpDescribeTopic, Topic: "d", Err: kerr.TopicAuthorizationFailed})
	err := explainRefusal(refused, pair, nothingChanged)
	for _, want := range []string{`the broker refused DESCRIBE on topic "d"`, "through DELETE on the action-state topic", "Nothing was written or deleted"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if !errors.Is(err, ErrNotAuthorized) || !errors.Is(err, kerr.TopicAuthorizationFailed) {
		t.Errorf("%v does not wrap both the refusal and the broker's error", err)
	}
	if again := explainRefusal(err, pair, nothingChanged); again != err {
		t.Errorf("explained twice: %v", again)
	}
	// An ACL the pair's table lists itself is named without a detour.
	direct := explainRefusal(&kafkaops.OpError{Op: kafkaops.OpDeleteRecords, Topic: "d", Err: kerr.TopicAuthorizationFailed}, pair, "later")
	if !strings.Contains(direct.Error(), `refused DELETE on topic "d" to the principal (delete records). later`) {
		t.Errorf("%v", direct)
	}
	for _, other := range []error{errors.New("boom"), &kafkaops.OpError{Op: kafkaops.OpDescribeTopic, Topic: "d", Err: kerr.UnknownTopicOrPartition}} {
		if got := explainRefusal(other, pair, nothingChanged); got != other {
			t.Errorf("%v changed to %v", other, got)
		}
	}
}

// A principal without DELETE on the action-state topic holds no ACL on it
// that includes DESCRIBE (DELETE does), so the first request refused is a
// Metadata request. The refusal names DELETE, the ACL to grant.
func TestMissingDeleteOnTheActionStateTopicIsNamed(t *testing.T) {
	e := newEnv(t, 2, 20)
	p := e.plan("chk-1", func(int32) int64 { return 5 })
	e.cluster.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Metadata}, Topic: e.data, Err: kerr.TopicAuthorizationFailed, Count: -1})
	k := e.newClient()
	_, previewErr := PreviewApply(context.Background(), k, p, e.control)
	_, applyErr := Apply(context.Background(), k, Request{Plan: p, ControlTopic: e.control})
	for name, err := range map[string]error{"preview": previewErr, "apply": applyErr} {
		pe, ok := errors.AsType[*PermissionError](err)
		if !ok || pe.Grant.Operation != permissions.Delete || pe.Grant.Name != e.data ||
			!strings.Contains(err.Error(), `the principal lacks DELETE on topic "`+e.data+`"`) {
			t.Errorf("%s: %v; want the missing DELETE named", name, err)
		}
	}
	if ops := e.history().Operations(); len(ops) != 0 {
		t.Fatalf("history = %+v, want nothing recorded", ops)
	}
}
