package diagnostics

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
)

// A refused request whose ACL is known names it, the operations that
// include it, and where the whole set is listed.
func TestMissingPermission(t *testing.T) {
	for _, tt := range []struct {
		err   error
		names string
	}{
		{&kafkaops.OpError{Op: kafkaops.OpAlterConfigs, Topic: "orders", Err: kerr.TopicAuthorizationFailed},
			`ALTER_CONFIGS on topic "orders" (the alter topic configs request)`},
		{&kafkaops.OpError{Op: kafkaops.OpDescribeTopic, Topic: "orders", Err: kerr.TopicAuthorizationFailed},
			`Grant the principal DESCRIBE (or READ, WRITE, DELETE, ALTER, which Kafka treats as including it) on topic "orders"`},
		{&kafkaops.OpError{Op: kafkaops.OpBeginControlTxn, Topic: "c", Err: fmt.Errorf("init: %w", kerr.TransactionalIDAuthorizationFailed)},
			`WRITE on transactional ID "flinkagents-cleanup-c"`},
	} {
		d := FromKafkaErrorVia(op, tt.err, "k1:9092 over TLS with SASL SCRAM-SHA-512 as user terraform")
		assertShapeOf(t, d, op, "Missing Kafka Permission", tt.names, nil)
		for _, want := range []string{"data.flinkagents_required_permissions", "Connection: k1:9092"} {
			if !strings.Contains(d.Detail(), want) {
				t.Errorf("detail lacks %q:\n%s", want, d.Detail())
			}
		}
	}
	// An authorization failure no request names keeps the general advice.
	if d := FromKafkaErrorVia(op, kerr.TopicAuthorizationFailed, ""); d.Summary() != "Kafka Authorization Failed" ||
		!strings.Contains(d.Detail(), "data.flinkagents_required_permissions") {
		t.Errorf("%s:\n%s", d.Summary(), d.Detail())
	}
}

// The cleanup core names the refused ACL itself; the diagnostic keeps its
// words and adds the advice.
func TestMissingPermissionForCleanup(t *testing.T) {
	err := fmt.Errorf("%w: the broker refused DESCRIBE on topic \"d\" to the principal (describe topic); the required permissions grant it "+
		"through DELETE on the action-state topic. Nothing was written or deleted: %w", cleanup.ErrNotAuthorized,
		&kafkaops.OpError{Op: kafkaops.OpDescribeTopic, Topic: "d", Err: kerr.TopicAuthorizationFailed})
	d := FromCleanupErrorVia(op, err, "")
	assertShape(t, d, "Missing Kafka Permission For Cleanup", "data.flinkagents_required_permissions", err)
}

func TestRequiredPermissionsDiagnostics(t *testing.T) {
	arnErr := errors.New(`"arn:aws:kafka:x" is not an ARN`)
	assertShapeOf(t, InvalidMSKClusterARN(path.Root("msk_cluster_arn"), arnErr), "rendering the MSK IAM policies, msk_cluster_arn was refused",
		"Invalid MSK Cluster ARN", "Set msk_cluster_arn to the ARN of one cluster, arn:aws:kafka:REGION:ACCOUNT:cluster/NAME/UUID", arnErr)
	principalErr := errors.New(`"User:*" is Kafka's wildcard principal`)
	assertShapeOf(t, InvalidPrincipal(path.Root("job_principal"), principalErr), "rendering the ACLs of a topic pair, job_principal was refused",
		"Invalid Kafka Principal", "Set job_principal to the one principal that connects", principalErr)
	err := fmt.Errorf("bad principal")
	assertShapeOf(t, RequiredPermissionsNotRendered(err), "rendering the ACLs", "Required Permissions Not Rendered", "Fix the attribute", err)
}

// A principal without DELETE on the action-state topic is first refused
// the DESCRIBE that DELETE includes; the diagnostic names DELETE, the ACL
// to grant, not DESCRIBE.
func TestMissingDeleteIsNamedAsDelete(t *testing.T) {
	err := &cleanup.PermissionError{
		Refused: permissions.Need{ResourceType: permissions.Topic, Name: "d", Operation: permissions.Describe, Request: kafkaops.OpDescribeTopic},
		Grant:   permissions.Need{ResourceType: permissions.Topic, Name: "d", Operation: permissions.Delete, Request: kafkaops.OpDescribeTopic},
		Through: "action-state topic", Outcome: "Nothing was written or deleted",
		Err: &kafkaops.OpError{Op: kafkaops.OpDescribeTopic, Topic: "d", Err: kerr.TopicAuthorizationFailed},
	}
	wrapped := fmt.Errorf("previewing: %w", err)
	d := FromCleanupErrorVia(op, wrapped, "")
	assertShape(t, d, "Missing Kafka Permission For Cleanup",
		`Grant DELETE on topic "d" (the action-state topic; the broker refused DESCRIBE, which DELETE includes) to the principal Terraform uses`, wrapped)
}
