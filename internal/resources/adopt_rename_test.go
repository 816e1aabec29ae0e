package resources_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// TestAccAdoptGuideRenames runs the renames of the adoption guide's "Name
// the resources" step, from the generated page, on topics the runtime
// created: the renamed resource and import blocks import both topics under
// the names the first-cleanup guide uses; after an apply with the generated
// names, moved blocks alone fail with "Moved object still exists" (import
// blocks still name the old addresses), and with the import blocks deleted
// the guide's moved blocks rename the topics with nothing else changed.
func TestAccAdoptGuideRenames(t *testing.T) {
	acctest.SkipBelowCLI(t, 1, 14, "terraform query (list resources) and import by identity")
	query, renamed, moved := adoptionGuideSnippets(t)
	want := []string{"flinkagents_action_state_topic.orders", "flinkagents_cleanup_control_topic.orders"}
	e := acctest.New(t)

	// Before the first apply: the guide's renamed blocks, nothing else.
	w, prefix := runtimeTopics(t, e)
	w.Write("adopt.tf", strings.ReplaceAll(renamed, "agents-", prefix))
	w.Terraform("apply", "-auto-approve")
	assertAdopted(t, w, want)

	// After an apply with the generated names.
	{
		w, prefix := runtimeTopics(t, e)
		w.Write("adopt.tfquery.hcl", strings.ReplaceAll(query, "agents-", prefix))
		listed := w.Terraform("query", "-generate-config-out=generated.tf")
		b, err := os.ReadFile(filepath.Join(w.Dir, "generated.tf"))
		if err != nil {
			t.Fatal(err)
		}
		generated := string(b)
		w.Terraform("apply", "-auto-approve")

		resourcesRenamed := strings.ReplaceAll(generated, `"runtime_0"`, `"orders"`)
		w.Write("generated.tf", resourcesRenamed+"\n"+moved)
		if out, err := w.TerraformErr("plan"); err == nil || !strings.Contains(err.Error(), "Moved object still exists") {
			t.Errorf("moved blocks with the import blocks left naming runtime_0: %v, want the guide's *Moved object still exists*\n%s", err, out)
		}

		importBlock := regexp.MustCompile(`(?ms)^import \{.*?^\}\n`)
		w.Write("generated.tf", importBlock.ReplaceAllString(resourcesRenamed, "")+"\n"+moved)
		out := string(w.Terraform("apply", "-auto-approve"))
		for _, address := range want {
			if !strings.Contains(out, "has moved to "+address) {
				t.Errorf("the apply did not move a topic to %s:\n%s\n(terraform query listed:\n%s)", address, out, listed)
			}
		}
		if !strings.Contains(out, "0 added, 0 changed, 0 destroyed") {
			t.Errorf("the rename changed something besides addresses:\n%s", out)
		}
		assertAdopted(t, w, want)
	}
}

// runtimeTopics is one job's topics as a released runtime and the Java tool
// create them (compaction only) under a prefix of their own, and a workdir
// with the provider configured.
func runtimeTopics(t *testing.T, e *acctest.Env) (*acctest.Workdir, string) {
	t.Helper()
	prefix := e.Name("agents") + "-"
	e.CreateTopic(prefix+"orders-action-state", 64, map[string]string{"cleanup.policy": "compact"})
	e.CreateTopic(prefix+"orders-cleanup-control", 1, map[string]string{"cleanup.policy": "compact"})
	w := e.Workdir()
	w.Write("main.tf", e.CLIProvider())
	w.Terraform("init")
	return w, prefix
}

// assertAdopted: state holds exactly the addresses, and the next plan is empty.
func assertAdopted(t *testing.T, w *acctest.Workdir, addresses []string) {
	t.Helper()
	var shown struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string `json:"address"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(w.Terraform("show", "-json"), &shown); err != nil {
		t.Fatal(err)
	}
	var state []string
	for _, r := range shown.Values.RootModule.Resources {
		state = append(state, r.Address)
	}
	slices.Sort(state)
	if !slices.Equal(state, addresses) {
		t.Errorf("state holds %q, want %q", state, addresses)
	}
	if out, err := w.TerraformErr("plan", "-detailed-exitcode"); err != nil {
		t.Errorf("the plan after the rename is not empty: %v\n%s", err, out)
	}
}

// adoptionGuideSnippets returns the generated adoption guide's query file
// (its first HCL block) and the two HCL blocks of its "Name the resources"
// step: the renamed resource and import blocks, and the moved blocks.
func adoptionGuideSnippets(t *testing.T) (query, renamed, moved string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "guides", "adopting-with-terraform-query.md"))
	if err != nil {
		t.Fatal(err)
	}
	fence := regexp.MustCompile("(?ms)^```terraform\n(.*?)^```")
	page := string(b)
	all := fence.FindAllStringSubmatch(page, -1)
	_, step, ok := strings.Cut(page, "\n## 4. Name the resources\n")
	step, _, _ = strings.Cut(step, "\n## ")
	blocks := fence.FindAllStringSubmatch(step, -1)
	if !ok || len(all) == 0 || len(blocks) != 2 {
		t.Fatalf("the adoption guide has no query block, or no \"## 4. Name the resources\" step with two HCL blocks (renamed resources and imports; moved blocks)")
	}
	return all[0][1], blocks[0][1], blocks[1][1]
}
