package datasources_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
)

// expectedACL is one ACL as the test spells it out, independently of the
// table it checks.
type expectedACL struct{ principal, resourceType, name, operation, mongeyType, mongeyOperation string }

// ordersACLs is the exact set for the orders pair: the principal Terraform
// uses, then the job's.
var ordersACLs = []expectedACL{
	{"User:terraform", "TOPIC", "orders-action-state", "CREATE", "Topic", "Create"},
	{"User:terraform", "TOPIC", "orders-action-state", "DELETE", "Topic", "Delete"},
	{"User:terraform", "TOPIC", "orders-action-state", "ALTER_CONFIGS", "Topic", "AlterConfigs"},
	{"User:terraform", "TOPIC", "orders-control", "CREATE", "Topic", "Create"},
	{"User:terraform", "TOPIC", "orders-control", "READ", "Topic", "Read"},
	{"User:terraform", "TOPIC", "orders-control", "WRITE", "Topic", "Write"},
	{"User:terraform", "TOPIC", "orders-control", "ALTER_CONFIGS", "Topic", "AlterConfigs"},
	{"User:terraform", "TRANSACTIONAL_ID", "flinkagents-cleanup-orders-control", "WRITE", "TransactionalID", "Write"},
	{"User:orders-job", "TOPIC", "orders-action-state", "READ", "Topic", "Read"},
	{"User:orders-job", "TOPIC", "orders-action-state", "WRITE", "Topic", "Write"},
	{"User:orders-job", "TOPIC", "orders-control", "READ", "Topic", "Read"},
	{"User:orders-job", "TOPIC", "orders-control", "DESCRIBE_CONFIGS", "Topic", "DescribeConfigs"},
}

func (a expectedACL) key() string {
	return a.principal + "/" + a.resourceType + "/" + a.name + "/" + a.operation
}

const ordersPermissions = `
data "flinkagents_required_permissions" "orders" {
  action_state_topic  = "orders-action-state"
  control_topic       = "orders-control"
  terraform_principal = "User:terraform"
  job_principal       = "User:orders-job"
  host                = "10.1.2.3"
}

# What for_each over kafka_acls would see (the test harness cannot hold
# for_each resources in state, and kafka_acl is not installed here).
output "acl_operations" {
  value = { for key, acl in data.flinkagents_required_permissions.orders.kafka_acls : key => acl.acl_operation }
}
`

// TestAccRequiredPermissions checks every rendered form against the exact
// set, and that the Mongey map is known at plan time, as for_each needs.
func TestAccRequiredPermissions(t *testing.T) {
	acctest.New(t)
	mongey := map[string]knownvalue.Check{}
	confluent := map[string]knownvalue.Check{}
	operations := map[string]knownvalue.Check{}
	list := make([]knownvalue.Check, len(ordersACLs))
	for i, a := range ordersACLs {
		operations[a.key()] = knownvalue.StringExact(a.mongeyOperation)
		mongey[a.key()] = knownvalue.ObjectExact(map[string]knownvalue.Check{
			"resource_name":                knownvalue.StringExact(a.name),
			"resource_type":                knownvalue.StringExact(a.mongeyType),
			"resource_pattern_type_filter": knownvalue.StringExact("Literal"),
			"acl_principal":                knownvalue.StringExact(a.principal),
			"acl_host":                     knownvalue.StringExact("10.1.2.3"),
			"acl_operation":                knownvalue.StringExact(a.mongeyOperation),
			"acl_permission_type":          knownvalue.StringExact("Allow"),
		})
		confluent[a.key()] = knownvalue.ObjectExact(map[string]knownvalue.Check{
			"resource_type": knownvalue.StringExact(a.resourceType),
			"resource_name": knownvalue.StringExact(a.name),
			"pattern_type":  knownvalue.StringExact("LITERAL"),
			"principal":     knownvalue.StringExact(a.principal),
			"host":          knownvalue.StringExact("10.1.2.3"),
			"operation":     knownvalue.StringExact(a.operation),
			"permission":    knownvalue.StringExact("ALLOW"),
		})
		role := "terraform"
		if a.principal == "User:orders-job" {
			role = "job"
		}
		list[i] = knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"key":           knownvalue.StringExact(a.key()),
			"principal":     knownvalue.StringExact(a.principal),
			"host":          knownvalue.StringExact("10.1.2.3"),
			"resource_type": knownvalue.StringExact(a.resourceType),
			"resource_name": knownvalue.StringExact(a.name),
			"pattern_type":  knownvalue.StringExact("LITERAL"),
			"operation":     knownvalue.StringExact(a.operation),
			"permission":    knownvalue.StringExact("ALLOW"),
			"roles":         knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(role)}),
			"needed_for":    knownvalue.ListSizeExact(1),
		})
	}
	ds := "data.flinkagents_required_permissions.orders"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: unreachableProvider + ordersPermissions,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("kafka_acls"), knownvalue.MapExact(mongey)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("confluent_kafka_acls"), knownvalue.MapExact(confluent)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("acls"), knownvalue.ListExact(list)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("transactional_id"), knownvalue.StringExact("flinkagents-cleanup-orders-control")),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("terraform_msk_iam_policy"), knownvalue.Null()),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("job_msk_iam_policy"), knownvalue.Null()),
			},
			// for_each needs its keys at plan time: the data source is read
			// while planning, so they are known.
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownOutputValue("acl_operations", knownvalue.MapExact(operations)),
			}},
		}},
	})
}

// TestAccRequiredPermissionsDefaultsAndMSK: without job_principal only
// Terraform's ACLs, any host; with an MSK cluster ARN, both policies as
// the core renders them.
func TestAccRequiredPermissionsDefaultsAndMSK(t *testing.T) {
	acctest.New(t)
	const arn = "arn:aws:kafka:eu-west-1:111122223333:cluster/agents/abcd1234-0123-abcd-5678-1234abcd-1"
	in := permissions.Input{ActionStateTopic: "orders-action-state", ControlTopic: "orders-control", TerraformPrincipal: "User:terraform"}
	tfPolicy, err := permissions.MSKPolicy(in, permissions.Terraform, arn)
	if err != nil {
		t.Fatal(err)
	}
	jobPolicy, err := permissions.MSKPolicy(in, permissions.Job, arn)
	if err != nil {
		t.Fatal(err)
	}
	ds := "data.flinkagents_required_permissions.msk"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: unreachableProvider + `
data "flinkagents_required_permissions" "msk" {
  action_state_topic  = "orders-action-state"
  control_topic       = "orders-control"
  terraform_principal = "User:terraform"
  msk_cluster_arn     = "` + arn + `"
}

output "job_actions_on_cluster" {
  value = jsondecode(data.flinkagents_required_permissions.msk.job_msk_iam_policy).Statement[0].Action
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("kafka_acls"), knownvalue.MapSizeExact(8)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("host"), knownvalue.StringExact("*")),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("acls").AtSliceIndex(0).AtMapKey("host"), knownvalue.StringExact("*")),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("terraform_msk_iam_policy"), knownvalue.StringExact(tfPolicy)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("job_msk_iam_policy"), knownvalue.StringExact(jobPolicy)),
				statecheck.ExpectKnownOutputValue("job_actions_on_cluster", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("kafka-cluster:Connect"), knownvalue.StringExact("kafka-cluster:WriteDataIdempotently"),
				})),
			},
		}},
	})
}

// TestAccRequiredPermissionsRefusals: inputs that cannot name a pair or a
// principal are refused at validate time.
func TestAccRequiredPermissionsRefusals(t *testing.T) {
	acctest.New(t)
	for name, tc := range map[string]struct{ body, want string }{
		"one topic for both": {`
  action_state_topic  = "a"
  control_topic       = "a"
  terraform_principal = "User:t"
`, `Control Topic Equals Action-State Topic`},
		"principal without type": {`
  action_state_topic  = "a"
  control_topic       = "c"
  terraform_principal = "terraform"
`, `(?s)Invalid Kafka Principal.*terraform_principal.*not of Kafka's form Type:name`},
		"wildcard terraform principal": {`
  action_state_topic  = "a"
  control_topic       = "c"
  terraform_principal = "User:*"
`, `(?s)Invalid Kafka Principal.*terraform_principal.*wildcard principal`},
		"wildcard job principal": {`
  action_state_topic  = "a"
  control_topic       = "c"
  terraform_principal = "User:t"
  job_principal       = "User:*"
`, `(?s)Invalid Kafka Principal.*job_principal.*wildcard principal`},
		"principal pattern": {`
  action_state_topic  = "a"
  control_topic       = "c"
  terraform_principal = "User:team-*"
`, `(?s)Invalid Kafka Principal.*holds a "\*"`},
		"job principal without type": {`
  action_state_topic  = "a"
  control_topic       = "c"
  terraform_principal = "User:t"
  job_principal       = "job"
`, `(?s)Invalid Kafka Principal.*job_principal`},
		"topic name": {`
  action_state_topic  = "a/b"
  control_topic       = "c"
  terraform_principal = "User:t"
`, `(?s)Invalid Kafka Topic Name.*'/' at byte 1`},
		"topic named .": {`
  action_state_topic  = "a"
  control_topic       = "."
  terraform_principal = "User:t"
`, `(?s)Invalid Kafka Topic Name.*control_topic.*"\." is refused by Kafka`},
		"ARN with a wildcard": {`
  action_state_topic  = "a"
  control_topic       = "c"
  terraform_principal = "User:t"
  msk_cluster_arn     = "arn:aws:kafka:eu-west-1:111122223333:cluster/agents/*"
`, `(?s)Invalid MSK Cluster ARN.*IAM wildcard "\*"`},
		"ARN with a ? wildcard": {`
  action_state_topic  = "a"
  control_topic       = "c"
  terraform_principal = "User:t"
  msk_cluster_arn     = "arn:aws:kafka:eu-west-1:111122223333:cluster/agent?/u-1"
`, `(?s)Invalid MSK Cluster ARN.*IAM wildcard "\?"`},
		"not a cluster ARN": {`
  action_state_topic  = "a"
  control_topic       = "c"
  terraform_principal = "User:t"
  msk_cluster_arn     = "arn:aws:kafka:eu-west-1:111122223333:topic/agents/u/a"
`, `Invalid MSK Cluster ARN`},
	} {
		t.Run(name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories,
				Steps: []resource.TestStep{{
					Config:      unreachableProvider + "data \"flinkagents_required_permissions\" \"x\" {" + tc.body + "}\n",
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(tc.want),
				}},
			})
		})
	}
}
