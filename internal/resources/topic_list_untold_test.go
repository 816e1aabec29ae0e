package resources_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// TestAccQueryListsUnreadableTopicsAsNeither: a principal that may describe
// the topics but not READ them cannot tell a control topic from a
// one-partition action-state topic. terraform query lists such a topic as
// neither kind, with a warning naming it and the ACL to grant, and lists
// the rest; a topic whose settings it may not describe is listed with a
// warning instead of failing the listing. An empty name_regex is no filter;
// a name_prefix no topic name can start with is refused.
func TestAccQueryListsUnreadableTopicsAsNeither(t *testing.T) {
	acctest.SkipBelowCLI(t, 1, 14, "terraform query (list resources)")
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.EnableSASL(), kfake.EnableACLs(),
		kfake.Superuser("PLAIN", "admin", "admin"), kfake.User("PLAIN", "terraform", "secret"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	for name, partitions := range map[string]int32{"agents-orders": 4, "agents-orders-control": 1, "agents-payments": 2, "agents-new": 1} {
		if err := c.CreateTopic(name, partitions, map[string]string{"cleanup.policy": "compact"}); err != nil {
			t.Fatal(err)
		}
	}
	admin, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.SASL(plain.Auth{User: "admin", Pass: "admin"}.AsMechanism()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(admin.Close)
	ctx := context.Background()
	p, err := cleanupplan.New("s3://ckpt/chk-2", "agents-orders", "AAAAAAAAAAAAAAAAAAAAAQ", cleanupplan.Offsets{0: 1})
	if err != nil {
		t.Fatal(err)
	}
	k, v := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, p)
	if err := admin.ProduceSync(ctx, &kgo.Record{Topic: "agents-orders-control", Key: k, Value: v}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	grant := func(pattern kadm.ACLPattern, topic string, ops ...kadm.ACLOperation) {
		b := kadm.NewACLs().Allow("User:terraform").AllowHosts("*").Topics(topic).ResourcePatternType(pattern).Operations(ops...)
		res, err := kadm.NewClient(admin).CreateACLs(ctx, b)
		if err == nil {
			for _, r := range res {
				err = r.Err
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	grant(kadm.ACLPatternPrefixed, "agents-", kadm.OpDescribe, kadm.OpRead)
	grant(kadm.ACLPatternLiteral, "agents-orders", kadm.OpDescribeConfigs)
	grant(kadm.ACLPatternLiteral, "agents-new", kadm.OpDescribeConfigs)
	grant(kadm.ACLPatternLiteral, "agents-orders-control", kadm.OpDescribeConfigs)
	// agents-orders-control: no READ. The prefixed READ above cannot be
	// taken back for one topic, so deny it.
	deny := kadm.NewACLs().Deny("User:terraform").DenyHosts("*").Topics("agents-orders-control").ResourcePatternType(kadm.ACLPatternLiteral).Operations(kadm.OpRead)
	if _, err := kadm.NewClient(admin).CreateACLs(ctx, deny); err != nil {
		t.Fatal(err)
	}

	e := acctest.NewInProcess(t)
	w := e.Workdir()
	w.Write("main.tf", fmt.Sprintf(`
terraform {
  required_providers {
    flinkagents = { source = "actionstate/flinkagents" }
  }
}
provider "flinkagents" {
  bootstrap_servers = [%q]
  sasl {
    mechanism = "PLAIN"
    username  = "terraform"
    password  = "secret"
  }
}
`, c.ListenAddrs()[0]))
	query := func(kind, filters string) string {
		return fmt.Sprintf("list %q \"runtime\" {\n  provider = flinkagents\n  config {\n%s\n  }\n}\n", kind, filters)
	}
	w.Write("adopt.tfquery.hcl", query("flinkagents_action_state_topic", `    name_prefix = "agents-"`)+
		strings.Replace(query("flinkagents_cleanup_control_topic", `    name_regex = ""`), `"runtime"`, `"control"`, 1))
	w.Terraform("init")
	out, err := w.TerraformErr("query")
	listed := strings.Join(strings.Fields(string(out)), " ")
	if err != nil {
		t.Fatalf("query failed: %v\n%s", err, out)
	}
	for _, want := range []string{
		"Topic Kind Unknown: Listed As Neither", `--operation Read --topic "agents-orders-control"`,
		"agents-orders (4 partitions", "agents-new (1 partition",
		"agents-payments (2 partitions, replication factor 1, settings not readable)",
	} {
		if !strings.Contains(listed, want) {
			t.Errorf("query output lacks %q:\n%s", want, out)
		}
	}
	// Listed as neither kind; and with name_regex = "" (no filter) the
	// empty agents-new is no control topic.
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "agents-orders-control (") || strings.Contains(line, "list.flinkagents_cleanup_control_topic.control") && strings.Contains(line, "agents-new") {
			t.Errorf("listed: %s", line)
		}
	}
	if strings.Contains(listed, "secret") {
		t.Fatalf("the output shows the password:\n%s", out)
	}

	// One topic whose settings may not be described is a warning too, not
	// a failed listing, when it is the only one listed.
	w.Write("adopt.tfquery.hcl", query("flinkagents_action_state_topic", `    name_prefix = "agents-pay"`))
	out, err = w.TerraformErr("query")
	if msg := strings.Join(strings.Fields(string(out)), " "); err != nil || !strings.Contains(msg, "agents-payments (2 partitions, replication factor 1, settings not readable)") ||
		!strings.Contains(msg, "Topic Not Read In Full") {
		t.Fatalf("query of one topic without DESCRIBE_CONFIGS: %v\n%s", err, out)
	}

	w.Write("adopt.tfquery.hcl", query("flinkagents_action_state_topic", `    name_prefix = "agents/"`))
	out, err = w.TerraformErr("query")
	if msg := string(out) + fmt.Sprint(err); err == nil || !strings.Contains(msg, "Invalid Kafka Topic Name Prefix") {
		t.Fatalf("query with a prefix no topic can have: %v\n%s", err, out)
	}
}
