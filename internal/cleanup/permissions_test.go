package cleanup

import (
	"errors"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
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
