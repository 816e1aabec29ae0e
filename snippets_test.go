package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// Every HCL block a user may copy, from the README, the provider's page and
// the guides, passes terraform validate: each block on its own, with the
// provider served in-process. What a block refers to without declaring it
// (a variable, or the topic pair "orders" another step of its guide
// created) is declared beside it by the test, and resources of other
// providers the guides combine ours with (Mongey's kafka_acl, Confluent's,
// AWS IAM) come from stand-ins with those arguments. A block naming a
// module by this repository's Git address gets the module from this
// checkout. A CLI configuration block (provider_installation) is checked
// by the CLI reading it instead.
func TestAccSnippetsValidate(t *testing.T) {
	acctest.NewInProcess(t) // skips without TF_ACC, and against an external broker
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	pages := []string{"README.md", filepath.Join("docs", "index.md")}
	guides, err := filepath.Glob(filepath.Join("docs", "guides", "*.md"))
	if err != nil || len(guides) == 0 {
		t.Fatalf("no guides in docs/guides: %v", err)
	}
	count := 0
	for _, page := range append(pages, guides...) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, snippet := range hclSnippets(string(b)) {
			count++
			t.Run(fmt.Sprintf("%s#%d", filepath.Base(page), i+1), func(t *testing.T) {
				if strings.Contains(snippet, "provider_installation") {
					checkCLIConfig(t, snippet)
					return
				}
				validateSnippet(t, acctest.NewInProcess(t), repo, snippet)
			})
		}
	}
	if count < 20 {
		t.Errorf("found %d snippets; the pages hold more: is the fence syntax still ```terraform or ```hcl?", count)
	}
}

var fence = regexp.MustCompile("(?ms)^([ \t]*)```(?:terraform|hcl|tf)[ \t]*\n(.*?)^[ \t]*```[ \t]*$")

// hclSnippets returns a page's HCL blocks, unindented when they sit in a
// list item.
func hclSnippets(page string) []string {
	var out []string
	for _, m := range fence.FindAllStringSubmatch(page, -1) {
		var b strings.Builder
		for _, line := range strings.SplitAfter(m[2], "\n") {
			b.WriteString(strings.TrimPrefix(line, m[1]))
		}
		out = append(out, b.String())
	}
	return out
}

// checkCLIConfig has the CLI read a CLI configuration block.
func checkCLIConfig(t *testing.T, snippet string) {
	file := filepath.Join(t.TempDir(), "cli.tfrc")
	if err := os.WriteFile(file, []byte(snippet), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), "version")
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+file, "CHECKPOINT_DISABLE=1")
	out, err := cmd.CombinedOutput()
	if err != nil || bytes.Contains(out, []byte("problems with the CLI configuration")) {
		t.Errorf("the CLI configuration does not read cleanly (%v):\n%s\n%s", err, out, snippet)
	}
}

// modulesHere is this repository's Git address as the docs give it.
var modulesHere = regexp.MustCompile(`"git::https://github\.com/actionstate/terraform-provider-flinkagents\.git//([^"?]+)(\?[^"]*)?"`)

func validateSnippet(t *testing.T, e *acctest.Env, repo, snippet string) {
	w := e.Workdir()
	for _, s := range standIns {
		w.Serve(acctest.RegistryHost()+"/"+s.source, s.server())
	}
	config := modulesHere.ReplaceAllString(snippet, fmt.Sprintf("%q", filepath.ToSlash(repo)+"//$1"))
	file, diags := hclsyntax.ParseConfig([]byte(config), "snippet.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("does not parse: %s\n%s", diags, snippet)
	}
	body := file.Body.(*hclsyntax.Body)
	validate := []string{"validate"}
	if feature := newerTerraformFeature(body, snippet); feature != "" {
		acctest.SkipBelowCLI(t, 1, 14, feature)
	}
	if hasBlock(body, "list") {
		// list blocks live in query files, which validate reads with -query.
		w.Write("snippet.tfquery.hcl", config)
		validate = append(validate, "-query")
	} else {
		w.Write("snippet.tf", config)
	}
	w.Write("declared_elsewhere.tf", declaredElsewhere(t, body, snippet))
	w.Terraform("init", "-backend=false")
	if out, err := w.TerraformErr(validate...); err != nil {
		t.Errorf("terraform validate: %v\n%s\n%s", err, out, snippet)
	}
}

// newerTerraformFeature names what a snippet uses that needs Terraform 1.14
// or later (the suite also runs under 1.15.9, where it is validated): a
// list block (terraform query), an action or action_trigger, an import by
// identity.
func newerTerraformFeature(body *hclsyntax.Body, snippet string) string {
	switch {
	case hasBlock(body, "list"):
		return "a list block (terraform query)"
	case hasBlock(body, "action") || strings.Contains(snippet, "action_trigger"):
		return "an action"
	case strings.Contains(snippet, "identity = {"):
		return "an import block by identity"
	}
	return ""
}

// hasBlock reports whether body has a top-level block of type typ.
func hasBlock(body *hclsyntax.Body, typ string) bool {
	for _, b := range body.Blocks {
		if b.Type == typ {
			return true
		}
	}
	return false
}

// declaredElsewhere declares what the snippet uses without declaring: the
// providers' sources, variables, and the "orders" topic pair; and a user of
// a provider block that has none. Anything else undeclared fails the test.
func declaredElsewhere(t *testing.T, body *hclsyntax.Body, snippet string) string {
	declared := map[string]bool{}
	required := map[string]bool{}
	for _, b := range body.Blocks {
		switch b.Type {
		case "variable":
			declared["var."+b.Labels[0]] = true
		case "module":
			declared["module."+b.Labels[0]] = true
		case "resource":
			declared[b.Labels[0]+"."+b.Labels[1]] = true
		case "data":
			declared["data."+b.Labels[0]+"."+b.Labels[1]] = true
		case "locals":
			for name := range b.Body.Attributes {
				declared["local."+name] = true
			}
		case "terraform":
			for _, rp := range b.Body.Blocks {
				if rp.Type == "required_providers" {
					for name := range rp.Body.Attributes {
						required[name] = true
					}
				}
			}
		}
	}

	var out strings.Builder
	var providers []string
	for _, p := range append([]standIn{{name: "flinkagents", source: "actionstate/flinkagents"}}, standIns...) {
		if !required[p.name] && (p.name == "flinkagents" || strings.Contains(snippet, p.name+"_")) {
			providers = append(providers, fmt.Sprintf("    %s = { source = %q }\n", p.name, p.source))
		}
	}
	if len(providers) > 0 {
		fmt.Fprintf(&out, "terraform {\n  required_providers {\n%s  }\n}\n\n", strings.Join(providers, ""))
	}
	// Terraform validates a provider block only when something uses the
	// provider: a snippet of provider blocks alone gets a user.
	if slices.ContainsFunc(body.Blocks, func(b *hclsyntax.Block) bool { return b.Type == "provider" && b.Labels[0] == "flinkagents" }) &&
		!strings.Contains(snippet, "flinkagents_") {
		out.WriteString("resource \"flinkagents_action_state_topic\" \"provider_in_use\" {\n  name       = \"provider-in-use\"\n  partitions = 1\n}\n")
	}
	for _, ref := range references(body) {
		if declared[ref] {
			continue
		}
		declared[ref] = true
		kind, name, _ := strings.Cut(ref, ".")
		switch {
		case kind == "var":
			fmt.Fprintf(&out, "variable %q {}\n", name)
		case kind == "flinkagents_action_state_topic":
			fmt.Fprintf(&out, "resource %q %q {\n  name       = \"%s-agent-action-state\"\n  partitions = 1\n}\n", kind, name, name)
		case kind == "flinkagents_cleanup_control_topic":
			fmt.Fprintf(&out, "resource %q %q {\n  name               = \"%s-agent-cleanup-control\"\n  action_state_topic = \"%s-agent-action-state\"\n}\n", kind, name, name, name)
		case slices.ContainsFunc(standIns, func(s standIn) bool { return s.stub(kind) }):
			fmt.Fprintf(&out, "resource %q %q {}\n", kind, name)
		default:
			t.Errorf("the snippet uses %s without declaring it, and the test declares nothing of the kind:\n%s", ref, snippet)
		}
	}
	return out.String()
}

// references lists what the snippet's expressions refer to: var.x,
// local.x, module.x, data.type.name and type.name for resource types of
// the providers here. The addresses a moved or removed block moves from
// are not references: they name what is no longer in the configuration.
func references(body *hclsyntax.Body) []string {
	var refs []string
	var visit func(b *hclsyntax.Body, skip string)
	visit = func(b *hclsyntax.Body, skip string) {
		for name, attr := range b.Attributes {
			if name == skip {
				continue
			}
			for _, tr := range attr.Expr.Variables() {
				if ref := reference(tr); ref != "" {
					refs = append(refs, ref)
				}
			}
		}
		for _, inner := range b.Blocks {
			s := ""
			if inner.Type == "moved" || inner.Type == "removed" {
				s = "from"
			}
			visit(inner.Body, s)
		}
	}
	visit(body, "")
	slices.Sort(refs)
	return slices.Compact(refs)
}

func reference(tr hcl.Traversal) string {
	var parts []string
	for _, step := range tr {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			parts = append(parts, s.Name)
		case hcl.TraverseAttr:
			parts = append(parts, s.Name)
		}
	}
	switch {
	case len(parts) >= 2 && (parts[0] == "var" || parts[0] == "local" || parts[0] == "module"):
		return parts[0] + "." + parts[1]
	case len(parts) >= 3 && parts[0] == "data":
		return strings.Join(parts[:3], ".")
	case len(parts) >= 2 && strings.HasPrefix(parts[0], "flinkagents_"):
		return parts[0] + "." + parts[1]
	case len(parts) >= 2 && slices.ContainsFunc(standIns, func(s standIn) bool { return strings.HasPrefix(parts[0], s.name+"_") }):
		return parts[0] + "." + parts[1]
	}
	return ""
}
