package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// The install README and docs/index.md give, before the provider is on a
// registry: `make install`, then a configuration of the user's own, in an
// empty directory, that calls the agent-fleet module by a git:: address of
// a clone (and agent-operator by an absolute path), and plain `terraform
// init`, plan, apply and destroy. No
// dev_overrides, no reattached provider: Terraform runs the installed binary.
// HOME is a private directory, so the install lands in its
// ~/.terraform.d/plugins (the implied local mirror) and never in the
// user's; the CLI configuration is an empty file, so none of the user's
// settings (a plugin cache, overrides) takes part. The module comes from the
// repository at HEAD, as a clone would give it: uncommitted changes to the
// module are not what this test runs.
func TestAccInstallAndModuleFromGit(t *testing.T) {
	e := acctest.NewInProcess(t)
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(string(run(t, repo, nil, "git", "rev-parse", "HEAD")))
	home, env := privateHome(t)

	out := run(t, repo, env, "make", "--no-print-directory", "install")
	version := regexp.MustCompile(`installed actionstate/flinkagents (\S+) `).FindSubmatch(out)
	if version == nil {
		t.Fatalf("make install did not say what it installed:\n%s", out)
	}
	installed, _ := filepath.Glob(filepath.Join(home, ".terraform.d", "plugins", acctest.RegistryHost(),
		"actionstate", "flinkagents", string(version[1]), "*", "terraform-provider-flinkagents_v*"))
	if len(installed) != 1 {
		t.Fatalf("make install left %d binaries for %s under %s/.terraform.d/plugins, want 1:\n%s", len(installed), version[1], home, out)
	}

	prefix := e.Name("install")
	dir := t.TempDir()
	config := fmt.Sprintf(`terraform {
  required_providers {
    flinkagents = {
      source  = "actionstate/flinkagents"
      version = %q
    }
  }
}

provider "flinkagents" {
  bootstrap_servers = [%s]
}

module "fleet" {
  source = "git::file://%s//examples/modules/agent-fleet?ref=%s"

  prefix              = %q
  operators           = { orders = {} }
  partitions          = 2
  deletion_protection = false
  bootstrap_servers   = [%s]
}

# An absolute path works with "//" between the clone and the module: the
# clone is the package, so agent-operator's ../agent-fleet stays inside it.
module "payments" {
  source = "%s//examples/modules/agent-operator"

  prefix              = %q
  operator            = "payments"
  partitions          = 1
  deletion_protection = false
  bootstrap_servers   = [%s]
}
`, releaseLine(t, string(version[1])), e.BrokersHCL(), filepath.ToSlash(repo), head, prefix, e.BrokersHCL(),
		filepath.ToSlash(repo), prefix, e.BrokersHCL())
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	tf := func(args ...string) []byte {
		return run(t, dir, env, os.Getenv("TF_ACC_TERRAFORM_PATH"), append(args[:1:1], append([]string{"-no-color"}, args[1:]...)...)...)
	}

	tf("init")
	lock, err := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatalf("terraform init wrote no lock file: %v", err)
	}
	if !bytes.Contains(lock, fmt.Appendf(nil, "version     = %q", version[1])) {
		t.Fatalf("the lock file does not name the installed build %s:\n%s", version[1], lock)
	}
	tf("plan", "-out=tfplan")
	tf("apply", "tfplan")
	var topics []string
	for _, op := range []string{"orders", "payments"} {
		topics = append(topics, prefix+"-"+op+"-action-state", prefix+"-"+op+"-cleanup-control")
	}
	for _, name := range topics {
		if _, err := e.Admin.DescribeTopic(context.Background(), name); err != nil {
			t.Errorf("after apply: %v", err)
		}
	}
	tf("destroy", "-auto-approve")
	for _, name := range topics {
		if _, err := e.Admin.DescribeTopic(context.Background(), name); !errors.Is(err, kafkaops.ErrTopicNotFound) {
			t.Errorf("after destroy, topic %s: %v, want not found", name, err)
		}
	}
}

// privateHome is a new HOME directory and the environment that moves HOME
// there and reduces Terraform's configuration to an empty file; Go keeps
// its own caches, so make install builds from the warm cache.
func privateHome(t *testing.T) (string, []string) {
	t.Helper()
	home := t.TempDir()
	cliConfig := filepath.Join(home, "empty.tfrc")
	if err := os.WriteFile(cliConfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	keep := map[string]string{}
	for _, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOENV"} {
		keep[name] = strings.TrimSpace(string(run(t, ".", nil, "go", "env", name)))
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "HOME", "XDG_DATA_HOME", "TF_CLI_CONFIG_FILE", "TF_PLUGIN_CACHE_DIR", "TF_REATTACH_PROVIDERS", "GOCACHE", "GOMODCACHE", "GOPATH", "GOENV":
			continue
		}
		env = append(env, kv)
	}
	for name, value := range keep {
		env = append(env, name+"="+value)
	}
	return home, append(env, "HOME="+home, "TF_CLI_CONFIG_FILE="+cliConfig, "TF_IN_AUTOMATION=1", "TF_INPUT=0", "CHECKPOINT_DISABLE=1")
}

// releaseLine is the constraint a configuration would pin the installed
// version's release line with: "~> 0.1" for 0.1.0+local.1a2b3c4d.
func releaseLine(t *testing.T, version string) string {
	var major, minor int
	if _, err := fmt.Sscanf(version, "%d.%d.", &major, &minor); err != nil {
		t.Fatalf("installed version %q: %v", version, err)
	}
	return fmt.Sprintf("~> %d.%d", major, minor)
}

// run runs a command in dir and returns its standard output; env nil keeps
// the test's environment. A failure fails the test with both outputs.
func run(t *testing.T, dir string, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes()
}
