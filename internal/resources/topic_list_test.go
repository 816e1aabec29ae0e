package resources_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// adoptionCluster makes what a team adopting the provider has: topics the
// runtime's store created (compaction only, the broker's retention), a
// control topic holding an applied boundary and a new, empty one, and a
// topic of another team under the same prefix. It returns the prefix.
func adoptionCluster(t *testing.T, e *acctest.Env) string {
	t.Helper()
	prefix := e.Name("adopt") + "-"
	orders := e.CreateTopic(prefix+"orders", 16, map[string]string{"cleanup.policy": "compact"})
	e.CreateTopic(prefix+"payments", 8, map[string]string{"cleanup.policy": "compact"})
	e.CreateTopic(prefix+"orders-control", 1, map[string]string{"cleanup.policy": "compact"})
	e.CreateTopic(prefix+"payments-control", 1, map[string]string{"cleanup.policy": "compact"})
	e.CreateTopic(prefix+"billing-events", 3, map[string]string{"cleanup.policy": "delete", "retention.ms": "86400000"})
	e.Produce(prefix+"orders", 16, 2)
	plan, err := cleanupplan.New("s3://ckpt/orders/chk-12", prefix+"orders", orders, cleanupplan.Offsets{0: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, status := range []cleanupplan.Status{cleanupplan.StatusCommitted, cleanupplan.StatusApplied} {
		k, v := cleanupplan.EncodeRecord(status, plan)
		if _, err := e.AppendControl(context.Background(), prefix+"orders-control", k, v); err != nil {
			t.Fatal(err)
		}
	}
	return prefix
}

// adoptionQuery is the query file of the adoption guide for prefix.
func adoptionQuery(prefix string) string {
	return fmt.Sprintf(`
list "flinkagents_action_state_topic" "runtime" {
  provider         = flinkagents
  include_resource = true
  limit            = 1000
  config {
    name_prefix = %[1]q
    name_regex  = "^%[1]s(orders|payments)$"
  }
}

list "flinkagents_cleanup_control_topic" "runtime" {
  provider         = flinkagents
  include_resource = true
  config {
    name_prefix = %[1]q
    name_regex  = "-control$"
  }
}
`, prefix)
}

// TestAccAdoptClusterWithQuery is the adoption guide run through: terraform
// query writes resource and import blocks for the runtime's topics, and the
// plan that follows imports them all with only the enforced settings as
// in-place updates (never a create, a replace or a delete); after the apply
// the plan is empty.
func TestAccAdoptClusterWithQuery(t *testing.T) {
	acctest.SkipBelowCLI(t, 1, 14, "terraform query (list resources)")
	e := acctest.New(t)
	prefix := adoptionCluster(t, e)
	w := e.Workdir()
	w.Write("main.tf", e.CLIProvider())
	w.Write("adopt.tfquery.hcl", adoptionQuery(prefix))
	w.Terraform("init")
	listed := string(w.Terraform("query"))
	for _, want := range []string{prefix + "orders ", prefix + "payments ", prefix + "orders-control ", prefix + "payments-control "} {
		if !strings.Contains(listed, want) {
			t.Errorf("query did not list %q:\n%s", want, listed)
		}
	}
	if strings.Contains(listed, "billing-events") {
		t.Errorf("query listed a topic the filters exclude:\n%s", listed)
	}

	w.Terraform("query", "-generate-config-out=generated.tf")
	generated, err := os.ReadFile(filepath.Join(w.Dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	gen := string(generated)
	t.Logf("generated.tf:\n%s", gen)
	if n := strings.Count(gen, "identity = {"); n != 4 {
		t.Errorf("generated %d import blocks by identity, want 4:\n%s", n, gen)
	}
	// The control topic with a boundary learned its pairing from the record.
	if !regexp.MustCompile(`action_state_topic\s*=\s*"` + regexp.QuoteMeta(prefix+"orders") + `"`).MatchString(gen) {
		t.Errorf("the generated control topic does not name its action-state topic:\n%s", gen)
	}

	w.Terraform("plan", "-out=adopt.tfplan")
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				Actions   []string         `json:"actions"`
				Before    map[string]any   `json:"before"`
				After     map[string]any   `json:"after"`
				Importing *json.RawMessage `json:"importing"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal(w.Terraform("show", "-json", "adopt.tfplan"), &plan); err != nil {
		t.Fatal(err)
	}
	if len(plan.ResourceChanges) != 4 {
		t.Fatalf("plan has %d resource changes, want 4 imports", len(plan.ResourceChanges))
	}
	for _, rc := range plan.ResourceChanges {
		c := rc.Change
		var changed []string
		for k, v := range c.After {
			if fmt.Sprint(c.Before[k]) != fmt.Sprint(v) {
				changed = append(changed, fmt.Sprintf("%s: %v -> %v", k, c.Before[k], v))
			}
		}
		slices.Sort(changed)
		// The runtime's topics keep the broker's retention (7 days unless
		// the broker says otherwise); its control topics are compacted
		// already, so they import unchanged.
		want, actions := []string{"cleanup_policy: compact -> compact,delete", "retention_ms: 604800000 -> -1"}, []string{"update"}
		if strings.Contains(rc.Address, "cleanup_control_topic") {
			want, actions = nil, []string{"no-op"}
		}
		if c.Importing == nil || !slices.Equal(c.Actions, actions) || !slices.Equal(changed, want) {
			t.Errorf("%s: actions %v (importing: %v) changing %q; want an import with actions %v changing %q",
				rc.Address, c.Actions, c.Importing != nil, changed, actions, want)
		}
	}
	w.Terraform("apply", "adopt.tfplan")
	if out, err := w.TerraformErr("plan", "-detailed-exitcode"); err != nil {
		t.Fatalf("the plan after adopting is not empty: %v\n%s", err, out)
	}
	if got := e.TopicConfig(prefix+"orders", "cleanup.policy"); got != "compact,delete" {
		t.Errorf("adopted action-state topic has cleanup.policy %q", got)
	}
}

// TestAccQueryNamesTheMissingDescribeACL: on a cluster where the principal
// may not describe topics Kafka answers a listing with no topics at all;
// the query fails naming the ACL to grant instead of finding an empty
// cluster. A regular expression that does not compile is refused before
// any request.
func TestAccQueryNamesTheMissingDescribeACL(t *testing.T) {
	acctest.SkipBelowCLI(t, 1, 14, "terraform query (list resources)")
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.EnableSASL(), kfake.EnableACLs(),
		kfake.Superuser("PLAIN", "admin", "admin"), kfake.User("PLAIN", "terraform", "secret"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if err := c.CreateTopic("agents-orders", 4, map[string]string{"cleanup.policy": "compact"}); err != nil {
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
	w.Write("adopt.tfquery.hcl", `
list "flinkagents_action_state_topic" "runtime" {
  provider = flinkagents
  config {
    name_prefix = "agents-"
  }
}
`)
	w.Terraform("init")
	out, err := w.TerraformErr("query")
	msg := strings.Join(strings.Fields(string(out)+fmt.Sprint(err)), " ")
	if err == nil || !strings.Contains(msg, "Missing Kafka Permission") || !strings.Contains(msg, `--resource-pattern-type prefixed --topic "agents-"`) ||
		!strings.Contains(msg, "DESCRIBE") {
		t.Fatalf("query on a principal without DESCRIBE: %v\n%s", err, out)
	}
	if strings.Contains(msg, "secret") {
		t.Fatalf("the diagnostic shows the password:\n%s", msg)
	}

	w.Write("adopt.tfquery.hcl", `
list "flinkagents_action_state_topic" "runtime" {
  provider = flinkagents
  config {
    name_regex = "orders("
  }
}
`)
	out, err = w.TerraformErr("query")
	if msg := string(out) + fmt.Sprint(err); err == nil || !strings.Contains(msg, "Invalid Regular Expression") {
		t.Fatalf("query with a broken name_regex: %v\n%s", err, out)
	}
}
