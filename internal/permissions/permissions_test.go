package permissions

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

var orders = Input{
	ActionStateTopic:   "orders-action-state",
	ControlTopic:       "orders-control",
	TerraformPrincipal: "User:terraform",
	JobPrincipal:       "User:orders-job",
}

// keys renders in and returns each ACL as its key, in order.
func keys(t *testing.T, in Input) []string {
	t.Helper()
	acls, err := Render(in)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(acls))
	for i, a := range acls {
		out[i] = a.Key()
	}
	return out
}

func TestRenderExactSet(t *testing.T) {
	want := []string{
		"User:terraform/TOPIC/orders-action-state/CREATE",
		"User:terraform/TOPIC/orders-action-state/DELETE",
		"User:terraform/TOPIC/orders-action-state/ALTER_CONFIGS",
		"User:terraform/TOPIC/orders-control/CREATE",
		"User:terraform/TOPIC/orders-control/READ",
		"User:terraform/TOPIC/orders-control/WRITE",
		"User:terraform/TOPIC/orders-control/ALTER_CONFIGS",
		"User:terraform/TRANSACTIONAL_ID/flinkagents-cleanup-orders-control/WRITE",
		"User:orders-job/TOPIC/orders-action-state/READ",
		"User:orders-job/TOPIC/orders-action-state/WRITE",
		"User:orders-job/TOPIC/orders-control/READ",
		"User:orders-job/TOPIC/orders-control/DESCRIBE_CONFIGS",
	}
	if got := keys(t, orders); !slices.Equal(got, want) {
		t.Fatalf("rendered\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	terraformOnly := orders
	terraformOnly.JobPrincipal = ""
	if got := keys(t, terraformOnly); !slices.Equal(got, want[:8]) {
		t.Fatalf("without a job principal:\n%s", strings.Join(got, "\n"))
	}
}

func TestRenderFields(t *testing.T) {
	in := orders
	in.Host = "10.0.0.7"
	acls, err := Render(in)
	if err != nil {
		t.Fatal(err)
	}
	txn := acls[7]
	if txn.Principal != "User:terraform" || txn.Host != "10.0.0.7" || txn.ResourceType != TransactionalID ||
		txn.ResourceName != "flinkagents-cleanup-orders-control" || txn.Operation != Write ||
		!slices.Equal(txn.Roles, []Role{Terraform}) || len(txn.Requests) != 1 {
		t.Fatalf("transactional ID ACL: %+v", txn)
	}
	if got, want := txn.Mongey(), (MongeyACL{
		ResourceName: "flinkagents-cleanup-orders-control", ResourceType: "TransactionalID", ResourcePatternTypeFilter: "Literal",
		ACLPrincipal: "User:terraform", ACLHost: "10.0.0.7", ACLOperation: "Write", ACLPermissionType: "Allow",
	}); got != want {
		t.Errorf("Mongey form %+v, want %+v", got, want)
	}
	if got, want := acls[2].Mongey().ACLOperation, "AlterConfigs"; got != want {
		t.Errorf("Mongey ALTER_CONFIGS is %q, want %q", got, want)
	}
	if got, want := acls[11].Mongey().ACLOperation, "DescribeConfigs"; got != want {
		t.Errorf("Mongey DESCRIBE_CONFIGS is %q, want %q", got, want)
	}
	if got, want := acls[0].Mongey().ResourceType, "Topic"; got != want {
		t.Errorf("Mongey topic type %q, want %q", got, want)
	}
	if got, want := acls[2].Confluent(), (ConfluentACL{
		ResourceType: "TOPIC", ResourceName: "orders-action-state", PatternType: "LITERAL",
		Principal: "User:terraform", Host: "10.0.0.7", Operation: "ALTER_CONFIGS", Permission: "ALLOW",
	}); got != want {
		t.Errorf("Confluent form %+v, want %+v", got, want)
	}
	if got := acls[0].Host; got != "10.0.0.7" {
		t.Errorf("host %q", got)
	}
	if acls, _ := Render(orders); acls[0].Host != "*" {
		t.Errorf("default host %q, want *", acls[0].Host)
	}
}

// TestRenderSharedPrincipal: one principal for both roles gets each binding
// once, for_each keys stay unique, and the merged ACL says who needs it.
func TestRenderSharedPrincipal(t *testing.T) {
	in := orders
	in.JobPrincipal = in.TerraformPrincipal
	acls, err := Render(in)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, a := range acls {
		if seen[a.Key()] {
			t.Fatalf("key %s twice", a.Key())
		}
		seen[a.Key()] = true
	}
	// Of the job's ACLs only READ on the control topic is also Terraform's.
	if len(acls) != 11 {
		t.Fatalf("%d ACLs, want 11 (12 less the shared READ on the control topic)", len(acls))
	}
	if r := acls[4]; r.Operation != Read || r.ResourceName != "orders-control" || !slices.Equal(r.Roles, []Role{Terraform, Job}) || len(r.Requests) != 2 {
		t.Fatalf("shared READ on the control topic: %+v", r)
	}
}

func TestRenderRefusesBadInput(t *testing.T) {
	for name, in := range map[string]Input{
		"same topic":         {ActionStateTopic: "t", ControlTopic: "t", TerraformPrincipal: "User:a"},
		"no topic":           {ControlTopic: "c", TerraformPrincipal: "User:a"},
		"bare principal":     {ActionStateTopic: "a", ControlTopic: "c", TerraformPrincipal: "terraform"},
		"bare job":           {ActionStateTopic: "a", ControlTopic: "c", TerraformPrincipal: "User:a", JobPrincipal: "job"},
		"empty principal":    {ActionStateTopic: "a", ControlTopic: "c"},
		"no name after one":  {ActionStateTopic: "a", ControlTopic: "c", TerraformPrincipal: "User:"},
		"wildcard terraform": {ActionStateTopic: "a", ControlTopic: "c", TerraformPrincipal: "User:*"},
		"wildcard job":       {ActionStateTopic: "a", ControlTopic: "c", TerraformPrincipal: "User:a", JobPrincipal: "User:*"},
		"topic named ..":     {ActionStateTopic: "..", ControlTopic: "c", TerraformPrincipal: "User:a"},
		"control named .":    {ActionStateTopic: "a", ControlTopic: ".", TerraformPrincipal: "User:a"},
	} {
		if _, err := Render(in); err == nil {
			t.Errorf("%s: rendered %+v", name, in)
		}
	}
}

// Only one concrete principal is accepted: a wildcard would give every
// Terraform ACL (deleting records and topics) to every client.
func TestCheckPrincipal(t *testing.T) {
	for _, ok := range []string{"User:terraform", "User:sa-abc123", "Group:ops", "User:CN=flink,OU=data", "User:a:b"} {
		if err := CheckPrincipal(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for p, want := range map[string]string{
		"User:*":      "wildcard principal",
		"Group:*":     "wildcard principal",
		"User:team-*": `holds a "*"`,
		"User:":       "empty name",
		"terraform":   "Type:name",
		":terraform":  "Type:name",
		"*:terraform": "Type:name",
		"User: t":     "spaces around",
		"User:t\n":    "spaces around",
		"User:a\x00b": "control character",
		"":            "Type:name",
	} {
		if err := CheckPrincipal(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", p, err, want)
		}
	}
}

// An ARN that names anything but one cluster is refused, with the part
// that is wrong; wildcards never reach a policy.
func TestParseMSKClusterARN(t *testing.T) {
	for _, ok := range []string{
		"arn:aws:kafka:eu-west-1:111122223333:cluster/agents/abcd1234-0123-abcd-5678-1234abcd-1",
		"arn:aws-us-gov:kafka:us-gov-west-1:111122223333:cluster/my_cluster-2/6357e0b2-0e6a-4b86-a0b4-70df934c2e31-s3",
	} {
		if _, err := ParseMSKClusterARN(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for arn, want := range map[string]string{
		"arn:aws:kafka:eu-west-1:111122223333:cluster/agents/*":          `wildcard "*" at byte 52`,
		"arn:aws:kafka:eu-west-1:111122223333:cluster/age?ts/u-1":        `wildcard "?" at byte 48`,
		"arn:aws:kafka:*:111122223333:cluster/agents/u-1":                `wildcard "*"`,
		"arn:aws:kafka:eu-west-1:111122223333:cluster/agents/u-1/extra":  `resource "cluster/agents/u-1/extra"`,
		"arn:aws:kafka:eu-west-1:111122223333:topic/agents/u/t":          `resource "topic/agents/u/t"`,
		"arn:aws:kafka:eu-west-1:1111:cluster/agents/u":                  `account "1111"`,
		"arn:aws:msk:eu-west-1:111122223333:cluster/agents/u":            `service "msk"`,
		"arn:aws:kafka:EU:111122223333:cluster/agents/u":                 `region "EU"`,
		"arn:gcp:kafka:eu-west-1:111122223333:cluster/agents/u":          `partition "gcp"`,
		"arn:aws:kafka:eu-west-1:111122223333:cluster/${aws:username}/u": `cluster name "${aws`,
		"arn:aws:kafka:eu-west-1:111122223333:cluster/agents/":           `cluster UUID ""`,
		"arn:aws:kafka:eu-west-1:111122223333:cluster//u":                `cluster name ""`,
		"": "not an ARN",
		"kafka:eu-west-1:111122223333:cluster/agents/u": "not an ARN",
	} {
		if _, err := ParseMSKClusterARN(arn); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", arn, err, want)
		}
		if _, err := MSKPolicy(orders, Terraform, arn); err == nil {
			t.Errorf("%q: a policy was rendered", arn)
		}
	}
}

// TestTableIsMinimal: no entry is implied by another entry of the same role
// and resource, so that removing any one is refused somewhere (which the
// real-broker test shows for each).
func TestTableIsMinimal(t *testing.T) {
	for i, a := range table {
		for j, b := range table {
			if i != j && a.Role == b.Role && a.Resource == b.Resource && b.Operation.Implies(a.Operation) {
				t.Errorf("%s %s on the %s is implied by %s", a.Role, a.Operation, a.Resource, b.Operation)
			}
		}
		if a.Requests == "" {
			t.Errorf("%s %s on the %s says nothing about what needs it", a.Role, a.Operation, a.Resource)
		}
		if len(mskActions[a.Resource.Type()][a.Operation]) == 0 {
			t.Errorf("%s %s on the %s has no MSK IAM action", a.Role, a.Operation, a.Resource)
		}
	}
}

func TestMSKPolicy(t *testing.T) {
	const cluster = "arn:aws:kafka:eu-west-1:111122223333:cluster/agents/abcd1234-0123-abcd-5678-1234abcd-1"
	topic := func(name string) string {
		return "arn:aws:kafka:eu-west-1:111122223333:topic/agents/abcd1234-0123-abcd-5678-1234abcd-1/" + name
	}
	type statement struct {
		Sid, Effect, Resource string
		Action                []string
	}
	decode := func(role Role) []statement {
		t.Helper()
		text, err := MSKPolicy(orders, role, cluster)
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Version   string
			Statement []statement
		}
		if err := json.Unmarshal([]byte(text), &p); err != nil || p.Version != "2012-10-17" {
			t.Fatalf("%v %q:\n%s", err, p.Version, text)
		}
		return p.Statement
	}
	want := []statement{
		{"Cluster", "Allow", cluster, []string{"kafka-cluster:Connect"}},
		{"ActionStateTopic", "Allow", topic("orders-action-state"), []string{
			"kafka-cluster:AlterTopicDynamicConfiguration", "kafka-cluster:CreateTopic", "kafka-cluster:DeleteTopic",
			"kafka-cluster:DescribeTopic", "kafka-cluster:DescribeTopicDynamicConfiguration"}},
		{"ControlTopic", "Allow", topic("orders-control"), []string{
			"kafka-cluster:AlterTopicDynamicConfiguration", "kafka-cluster:CreateTopic", "kafka-cluster:DescribeTopic",
			"kafka-cluster:DescribeTopicDynamicConfiguration", "kafka-cluster:ReadData", "kafka-cluster:WriteData"}},
		{"CleanupTransactionalId", "Allow",
			"arn:aws:kafka:eu-west-1:111122223333:transactional-id/agents/abcd1234-0123-abcd-5678-1234abcd-1/flinkagents-cleanup-orders-control",
			[]string{"kafka-cluster:AlterTransactionalId", "kafka-cluster:DescribeTransactionalId"}},
	}
	if got := decode(Terraform); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Terraform's policy\n%v\nwant\n%v", got, want)
	}
	wantJob := []statement{
		{"Cluster", "Allow", cluster, []string{"kafka-cluster:Connect", "kafka-cluster:WriteDataIdempotently"}},
		{"ActionStateTopic", "Allow", topic("orders-action-state"), []string{
			"kafka-cluster:DescribeTopic", "kafka-cluster:ReadData", "kafka-cluster:WriteData"}},
		{"ControlTopic", "Allow", topic("orders-control"), []string{
			"kafka-cluster:DescribeTopic", "kafka-cluster:DescribeTopicDynamicConfiguration", "kafka-cluster:ReadData"}},
	}
	if got := decode(Job); fmt.Sprint(got) != fmt.Sprint(wantJob) {
		t.Errorf("the job's policy\n%v\nwant\n%v", got, wantJob)
	}

	china, err := MSKPolicy(orders, Terraform, "arn:aws-cn:kafka:cn-north-1:111122223333:cluster/agents/u-1")
	if err != nil || !strings.Contains(china, `"arn:aws-cn:kafka:cn-north-1:111122223333:topic/agents/u-1/orders-control"`) {
		t.Errorf("aws-cn partition: %v\n%s", err, china)
	}
	for _, bad := range []string{"", "arn:aws:kafka:eu-west-1:111122223333:topic/agents/u/t", "arn:aws:kafka:eu-west-1:1111:cluster/agents/u",
		"arn:aws:kafka:eu-west-1:111122223333:cluster/agents/*", "arn:aws:msk:eu-west-1:111122223333:cluster/agents/u"} {
		if _, err := MSKPolicy(orders, Terraform, bad); err == nil {
			t.Errorf("%q accepted as a cluster ARN", bad)
		}
	}
}

func TestRefused(t *testing.T) {
	refused := func(op, topic string, code error) error {
		return fmt.Errorf("reading: %w", &kafkaops.OpError{Op: op, Topic: topic, Err: code})
	}
	for _, tt := range []struct {
		err  error
		want string
	}{
		{refused(kafkaops.OpDescribeTopic, "d", kerr.TopicAuthorizationFailed), `DESCRIBE on topic "d"`},
		{refused(kafkaops.OpListStartOffsets, "d", kerr.TopicAuthorizationFailed), `DESCRIBE on topic "d"`},
		{refused(kafkaops.OpDescribeConfigs, "d", kerr.TopicAuthorizationFailed), `DESCRIBE_CONFIGS on topic "d"`},
		{refused(kafkaops.OpAlterConfigs, "d", kerr.TopicAuthorizationFailed), `ALTER_CONFIGS on topic "d"`},
		{refused(kafkaops.OpCreateTopic, "d", kerr.TopicAuthorizationFailed), `CREATE on topic "d"`},
		{refused(kafkaops.OpDeleteRecords, "d", kerr.TopicAuthorizationFailed), `DELETE on topic "d"`},
		{refused(kafkaops.OpReadControlLog, "c", fmt.Errorf("fetch at offset 0: %w", kerr.TopicAuthorizationFailed)), `READ on topic "c"`},
		{refused(kafkaops.OpAppendControlRecord, "c", kerr.TopicAuthorizationFailed), `WRITE on topic "c"`},
		{refused(kafkaops.OpBeginControlTxn, "c", fmt.Errorf("unable to initialize a producer ID: %w", kerr.TransactionalIDAuthorizationFailed)),
			`WRITE on transactional ID "flinkagents-cleanup-c"`},
	} {
		need, ok := Refused(tt.err)
		if !ok || need.String() != tt.want {
			t.Errorf("Refused(%v) = %v %v, want %s", tt.err, need, ok, tt.want)
		}
	}
	for _, err := range []error{
		kerr.TopicAuthorizationFailed, // no request named
		refused(kafkaops.OpDescribeTopic, "d", kerr.UnknownTopicOrPartition),
		refused(kafkaops.OpDescribeTopic, "d", kerr.ClusterAuthorizationFailed),
		errors.New("boom"),
	} {
		if need, ok := Refused(err); ok {
			t.Errorf("Refused(%v) = %v", err, need)
		}
	}
}

func TestGranting(t *testing.T) {
	for _, tt := range []struct {
		role Role
		need Need
		want Operation // "" for none
	}{
		{Terraform, Need{ResourceType: Topic, Name: "orders-action-state", Operation: Describe}, Delete},
		{Terraform, Need{ResourceType: Topic, Name: "orders-action-state", Operation: DescribeConfigs}, AlterConfigs},
		{Terraform, Need{ResourceType: Topic, Name: "orders-control", Operation: Describe}, Read},
		{Terraform, Need{ResourceType: TransactionalID, Name: "flinkagents-cleanup-orders-control", Operation: Describe}, Write},
		{Terraform, Need{ResourceType: Topic, Name: "orders-action-state", Operation: Read}, ""},
		{Job, Need{ResourceType: Topic, Name: "orders-control", Operation: DescribeConfigs}, DescribeConfigs},
		{Job, Need{ResourceType: Topic, Name: "other", Operation: Describe}, ""},
	} {
		e, ok := orders.Granting(tt.role, tt.need)
		if got := map[bool]Operation{true: e.Operation}[ok]; got != tt.want {
			t.Errorf("%s %v: granted by %q, want %q", tt.role, tt.need, got, tt.want)
		}
	}
	if got := (Need{ResourceType: Topic, Name: "t", Operation: Describe}).GrantedByText(); got != "DESCRIBE (or READ, WRITE, DELETE, ALTER, which Kafka treats as including it)" {
		t.Errorf("GrantedByText: %s", got)
	}
	if got := (Need{ResourceType: Topic, Name: "t", Operation: Create}).GrantedByText(); got != "CREATE" {
		t.Errorf("GrantedByText: %s", got)
	}
}

// TestGuideIsCurrent: the committed guide template carries the table as it
// is (go generate rewrites it; make docs-check then compares docs/).
func TestGuideIsCurrent(t *testing.T) {
	const file = "../../templates/guides/required-permissions.md.tmpl"
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	updated, err := UpdateGuide(string(text))
	if err != nil {
		t.Fatal(err)
	}
	if updated != string(text) {
		t.Fatalf("%s does not carry the current table: run `go generate .` from the repository root and commit", file)
	}
	for _, e := range table {
		if !strings.Contains(updated, e.Requests) {
			t.Errorf("the guide lacks %s %s on the %s", e.Role, e.Operation, e.Resource)
		}
	}
	if _, err := UpdateGuide("no markers"); err == nil {
		t.Error("a template without markers was updated")
	}
}
