package permissions

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// Need is one permission the broker checks: Operation on the resource of
// ResourceType named Name.
type Need struct {
	ResourceType ResourceType
	Name         string
	Operation    Operation
	// Request is the refused request, as kafkaops names it in OpError.Op.
	Request string
}

func (n Need) String() string {
	return fmt.Sprintf("%s on %s %q", n.Operation, n.ResourceType.Noun(), n.Name)
}

// GrantedBy lists the operations whose ACL allows n.Operation: itself, then
// those Kafka implies it from.
func (n Need) GrantedBy() []Operation {
	out := []Operation{n.Operation}
	for _, o := range []Operation{Read, Write, Delete, alter, AlterConfigs} {
		if o != n.Operation && o.Implies(n.Operation) {
			out = append(out, o)
		}
	}
	return out
}

// GrantedByText is GrantedBy for a sentence: "DESCRIBE (or READ, WRITE,
// DELETE, ALTER, which imply it)".
func (n Need) GrantedByText() string {
	ops := n.GrantedBy()
	if len(ops) == 1 {
		return string(ops[0])
	}
	rest := make([]string, len(ops)-1)
	for i, o := range ops[1:] {
		rest[i] = string(o)
	}
	return fmt.Sprintf("%s (or %s, which Kafka treats as including it)", ops[0], strings.Join(rest, ", "))
}

// requestOperations maps each kafkaops request on a topic to the operation
// the broker checks for it.
var requestOperations = map[string]Operation{
	kafkaops.OpCreateTopic:         Create,
	kafkaops.OpDeleteTopic:         Delete,
	kafkaops.OpDescribeTopic:       Describe,
	kafkaops.OpDescribeConfigs:     DescribeConfigs,
	kafkaops.OpAlterConfigs:        AlterConfigs,
	kafkaops.OpListStartOffsets:    Describe,
	kafkaops.OpListEndOffsets:      Describe,
	kafkaops.OpListCommittedEnd:    Describe,
	kafkaops.OpDeleteRecords:       Delete,
	kafkaops.OpReadControlLog:      Read,
	kafkaops.OpAppendControlRecord: Write,
}

// controlTxnRequests are the requests of a control transaction, which the
// broker authorizes by WRITE on the transactional ID.
var controlTxnRequests = []string{kafkaops.OpBeginControlTxn, kafkaops.OpAppendControlRecord, kafkaops.OpCommitControlTxn}

// Refused returns the permission whose absence made the broker refuse the
// request err reports: err must hold a *kafkaops.OpError and the broker's
// TOPIC_AUTHORIZATION_FAILED or TRANSACTIONAL_ID_AUTHORIZATION_FAILED.
func Refused(err error) (Need, bool) {
	var op *kafkaops.OpError
	if !errors.As(err, &op) {
		return Need{}, false
	}
	switch {
	case errors.Is(err, kerr.TransactionalIDAuthorizationFailed) && slices.Contains(controlTxnRequests, op.Op):
		return Need{ResourceType: TransactionalID, Name: kafkaops.TransactionalID(op.Topic), Operation: Write, Request: op.Op}, true
	case errors.Is(err, kerr.TopicAuthorizationFailed):
		if o, ok := requestOperations[op.Op]; ok {
			return Need{ResourceType: Topic, Name: op.Topic, Operation: o, Request: op.Op}, true
		}
	}
	return Need{}, false
}

// Granting returns the entry of role's table that grants n on in's pair,
// directly or by implication.
func (in Input) Granting(role Role, n Need) (Entry, bool) {
	for _, e := range table {
		if e.Role == role && e.Resource.Type() == n.ResourceType && in.Name(e.Resource) == n.Name && e.Operation.Implies(n.Operation) {
			return e, true
		}
	}
	return Entry{}, false
}
