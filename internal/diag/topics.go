package diag

import (
	"errors"
	"fmt"

	fwdiag "github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/twmb/franz-go/pkg/kerr"
)

// DeletionProtected refuses destroying (or replacing) a protected topic.
func DeletionProtected(kind, name string) fwdiag.Diagnostic {
	return fwdiag.NewErrorDiagnostic("Deletion Protection Is On",
		detail(fmt.Sprintf("planning, Terraform would destroy %s %q", kind, name),
			"Destroying it deletes data the Flink Agents runtime needs to restore without re-running actions. "+
				"If that is really intended: set deletion_protection = false, run terraform apply, then destroy or remove the block. "+
				"If the block was renamed or moved, use a moved block or terraform state mv instead.", nil))
}

// TopicShapeChange refuses changing partitions or replication factor.
func TopicShapeChange(attr, topic string, old, planned int64) fwdiag.Diagnostic {
	return fwdiag.NewErrorDiagnostic("Topic Shape Cannot Change",
		detail(fmt.Sprintf("planning topic %q, %s would change from %d to %d", topic, attr, old, planned),
			"The provider never replaces a topic that holds action state, and changing partitions would break the key-to-partition "+
				"mapping the runtime and every recorded cleanup boundary rely on. Set "+attr+" back to "+fmt.Sprint(old)+
				". To really move to a new shape, create a new topic under a new name and migrate the job.", nil))
}

// TopicCreateFailed explains a failed creation, with the import hint when
// the topic already exists.
func TopicCreateFailed(op, resourceType, name string, err error, conn string) fwdiag.Diagnostic {
	if errors.Is(err, kerr.TopicAlreadyExists) {
		return fwdiag.NewErrorDiagnostic("Topic Already Exists",
			detail(op, fmt.Sprintf("The topic exists but is not in Terraform state. Adopt it instead of creating it:\n\n"+
				"  terraform import %s.<name> %s\n\nor an import block with id = %q.", resourceType, name, name), err))
	}
	return FromKafkaErrorVia(op, err, conn)
}
