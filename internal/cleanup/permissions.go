package cleanup

import (
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// checkPermissions refuses, before anything is committed, an apply whose
// principal could record a boundary but not delete below it (or the
// reverse): a COMMITTED boundary that cannot be applied blocks every
// restore below it while deleting nothing. Brokers report authorized
// operations with Metadata (KIP-430); a broker that reports none (no
// authorizer, or too old) is not second-guessed.
func checkPermissions(data, control kafkaops.Topic) error {
	var missing []string
	need := func(t kafkaops.Topic, op kadm.ACLOperation, why string) {
		if len(t.AuthorizedOperations) == 0 || slices.Contains(t.AuthorizedOperations, op) || slices.Contains(t.AuthorizedOperations, kadm.OpAll) {
			return
		}
		missing = append(missing, fmt.Sprintf("%s on topic %q (%s)", strings.ToUpper(op.String()), t.Name, why))
	}
	need(data, kadm.OpDelete, "DeleteRecords")
	need(control, kadm.OpRead, "reading recorded boundaries")
	need(control, kadm.OpWrite, "recording COMMITTED and APPLIED")
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("%w: the principal lacks %s. Grant these ACLs (and WRITE and DESCRIBE on the transactional ID %q) and retry; nothing was written or deleted",
		ErrNotAuthorized, strings.Join(missing, ", "), kafkaops.TransactionalID(control.Name))
}
