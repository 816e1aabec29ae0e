package permissions

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// Input names a topic pair and the principals that get its ACLs.
type Input struct {
	ActionStateTopic string
	ControlTopic     string
	// TerraformPrincipal is the principal the provider connects as, in
	// Kafka's "Type:name" form ("User:terraform").
	TerraformPrincipal string
	// JobPrincipal is the Flink job's principal; empty renders Terraform's
	// ACLs only.
	JobPrincipal string
	// Host is the host the ACLs allow; empty means "*", any host.
	Host string
}

// AnyHost is Kafka's wildcard host, the default.
const AnyHost = "*"

// Name is the name of resource r in this pair.
func (in Input) Name(r Resource) string {
	switch r {
	case ActionStateTopic:
		return in.ActionStateTopic
	case ControlTopic:
		return in.ControlTopic
	}
	return kafkaops.TransactionalID(in.ControlTopic)
}

func (in Input) host() string {
	if in.Host == "" {
		return AnyHost
	}
	return in.Host
}

func (in Input) principal(r Role) string {
	if r == Terraform {
		return in.TerraformPrincipal
	}
	return in.JobPrincipal
}

// Validate refuses a pair the runtime refuses (one topic for both, a name
// Kafka refuses) and principals that are not one concrete principal.
func (in Input) Validate() error {
	errs := in.topicErrors()
	principal := func(what, p string) {
		if err := CheckPrincipal(p); err != nil {
			errs = append(errs, fmt.Errorf("the %s: %w", what, err))
		}
	}
	principal("terraform principal", in.TerraformPrincipal)
	if in.JobPrincipal != "" {
		principal("job principal", in.JobPrincipal)
	}
	return errors.Join(errs...)
}

// topicErrors refuses topic names Kafka refuses and one topic for both.
func (in Input) topicErrors() []error {
	var errs []error
	for _, r := range []Resource{ActionStateTopic, ControlTopic} {
		if err := kafkaops.CheckTopicName(in.Name(r)); err != nil {
			errs = append(errs, fmt.Errorf("the %s: %w", r, err))
		}
	}
	if in.ActionStateTopic != "" && in.ActionStateTopic == in.ControlTopic {
		errs = append(errs, fmt.Errorf("the control topic must differ from the action-state topic (both are %q)", in.ControlTopic))
	}
	return errs
}

// Pattern type and permission of every rendered ACL: each names one
// resource exactly and allows.
const (
	PatternLiteral  = "LITERAL"
	PermissionAllow = "ALLOW"
)

// ACL is one rendered binding: Principal may Operation on the resource
// named ResourceName, from Host.
type ACL struct {
	Principal    string
	Host         string
	ResourceType ResourceType
	ResourceName string
	Operation    Operation
	// Roles lists who needs it: both when Terraform and the job share a
	// principal.
	Roles []Role
	// Requests says, per role, what needs it.
	Requests []string
}

// Render lists the ACLs of in's pair: Terraform's entries, then the job's
// when in names its principal, merged where both roles share a principal
// and need the same binding.
func Render(in Input) ([]ACL, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	var out []ACL
	for _, e := range table {
		p := in.principal(e.Role)
		if p == "" {
			continue
		}
		a := ACL{Principal: p, Host: in.host(), ResourceType: e.Resource.Type(), ResourceName: in.Name(e.Resource), Operation: e.Operation}
		if i := slices.IndexFunc(out, func(o ACL) bool { return o.Key() == a.Key() }); i >= 0 {
			out[i].Roles = append(out[i].Roles, e.Role)
			out[i].Requests = append(out[i].Requests, e.Requests)
			continue
		}
		a.Roles, a.Requests = []Role{e.Role}, []string{e.Requests}
		out = append(out, a)
	}
	return out, nil
}

// Key identifies the binding, for Terraform's for_each: unique within a
// rendering and stable while its parts are (principal/TYPE/name/OPERATION;
// topic names and transactional IDs hold no slash, so the parts read back
// unambiguously from the right).
func (a ACL) Key() string {
	return strings.Join([]string{a.Principal, string(a.ResourceType), a.ResourceName, string(a.Operation)}, "/")
}

// Noun names a resource type in a sentence: "topic", "transactional ID".
func (t ResourceType) Noun() string {
	if t == TransactionalID {
		return "transactional ID"
	}
	return "topic"
}

// MongeyACL is a binding as the Mongey provider's kafka_acl resource takes
// it, field for attribute.
type MongeyACL struct {
	ResourceName              string
	ResourceType              string
	ResourcePatternTypeFilter string
	ACLPrincipal              string
	ACLHost                   string
	ACLOperation              string
	ACLPermissionType         string
}

// mongeyResourceTypes are the resource type names that provider parses.
var mongeyResourceTypes = map[ResourceType]string{Topic: "Topic", TransactionalID: "TransactionalID"}

// Mongey is a in the Mongey provider's spelling: Kafka's names in
// UpperCamelCase ("AlterConfigs", "TransactionalID", "Literal", "Allow").
func (a ACL) Mongey() MongeyACL {
	return MongeyACL{
		ResourceName:              a.ResourceName,
		ResourceType:              mongeyResourceTypes[a.ResourceType],
		ResourcePatternTypeFilter: camel(PatternLiteral),
		ACLPrincipal:              a.Principal,
		ACLHost:                   a.Host,
		ACLOperation:              camel(string(a.Operation)),
		ACLPermissionType:         camel(PermissionAllow),
	}
}

// camel turns Kafka's SNAKE_CASE name into UpperCamelCase.
func camel(s string) string {
	var b strings.Builder
	for _, w := range strings.Split(s, "_") {
		if w != "" {
			b.WriteString(w[:1] + strings.ToLower(w[1:]))
		}
	}
	return b.String()
}

// ConfluentACL is a binding as Confluent's confluent_kafka_acl resource
// takes it, field for attribute; Confluent uses Kafka's names as they are.
type ConfluentACL struct {
	ResourceType string
	ResourceName string
	PatternType  string
	Principal    string
	Host         string
	Operation    string
	Permission   string
}

// Confluent is a in Confluent's spelling.
func (a ACL) Confluent() ConfluentACL {
	return ConfluentACL{
		ResourceType: string(a.ResourceType),
		ResourceName: a.ResourceName,
		PatternType:  PatternLiteral,
		Principal:    a.Principal,
		Host:         a.Host,
		Operation:    string(a.Operation),
		Permission:   PermissionAllow,
	}
}
