package cleanup

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
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
	return fmt.Errorf("%w: the principal lacks %s. Grant these ACLs (and WRITE on the transactional ID %q) and retry; nothing was written or deleted",
		ErrNotAuthorized, strings.Join(missing, ", "), kafkaops.TransactionalID(control.Name))
}

// explainRefusal turns an error for a request the broker refused for lack of
// an ACL into a *PermissionError naming the ACL to grant: the entry of the
// required permissions (internal/permissions) that allows the refused
// operation on pair, which is broader than it where Kafka implies one from
// the other (a principal without DELETE on the action-state topic is first
// refused the DESCRIBE that DELETE includes). outcome says what the refused
// operation left behind. Other errors pass unchanged.
func explainRefusal(err error, pair permissions.Input, outcome string) error {
	need, ok := permissions.Refused(err)
	if !ok || errors.Is(err, ErrNotAuthorized) {
		return err
	}
	pe := &PermissionError{Refused: need, Grant: need, Outcome: outcome, Err: err}
	if e, ok := pair.Granting(permissions.Terraform, need); ok && e.Operation != need.Operation {
		pe.Grant.Operation, pe.Through = e.Operation, e.Resource.String()
	}
	return pe
}

// PermissionError is a request the broker refused for lack of an ACL. It
// matches ErrNotAuthorized and the broker's error.
type PermissionError struct {
	// Refused is the permission the broker checked and refused.
	Refused permissions.Need
	// Grant is the ACL to grant: Refused, or the broader one the required
	// permissions list for it (Through names its resource then).
	Grant   permissions.Need
	Through string
	// Outcome says what the refused operation left behind.
	Outcome string
	Err     error
}

func (e *PermissionError) Error() string {
	if e.Through == "" {
		return fmt.Sprintf("%v: the broker refused %s to the principal (%s). %s: %v", ErrNotAuthorized, e.Refused, e.Refused.Request, e.Outcome, e.Err)
	}
	return fmt.Sprintf("%v: the principal lacks %s, the required permissions' ACL on the %s: the broker refused %s to the principal (%s), "+
		"which the required permissions grant through %s on the %s. %s: %v",
		ErrNotAuthorized, e.Grant, e.Through, e.Refused, e.Refused.Request, e.Grant.Operation, e.Through, e.Outcome, e.Err)
}

func (e *PermissionError) Unwrap() []error { return []error{ErrNotAuthorized, e.Err} }
