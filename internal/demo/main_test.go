package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The demo after the README's quick start, in the same shell: the quick
// start's exports (a savepoint of another broker's topic, that broker's
// address) and the provider's KAFKA_* fallbacks must not reach the demo's
// Terraform runs. Before the demo cleared them, its first apply read the
// inherited savepoint and failed.
func TestAccDemoIgnoresTheQuickStartsVariables(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs terraform and builds the provider: set TF_ACC=1")
	}
	t.Setenv("TF_VAR_checkpoint_path", "file:/nonexistent/flinkagents-quickstart/savepoints/first")
	t.Setenv("TF_VAR_bootstrap_servers", `["127.0.0.1:1"]`)
	t.Setenv("TF_VAR_deletion_protection", "not-a-bool")
	t.Setenv("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:1")
	t.Setenv("KAFKA_SASL_MECHANISM", "PLAIN")
	t.Setenv("TF_CLI_ARGS_apply", "-var=checkpoint_path=file:/nonexistent")
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if err := run(repo); err != nil {
		t.Fatalf("the demo failed with the quick start's variables set: %v", err)
	}
}

// A failing step's error carries what Terraform wrote to standard error,
// not only "exit status 1": the demo prints that error last.
func TestFailedStepCarriesTerraformsError(t *testing.T) {
	if _, err := exec.LookPath("terraform"); err != nil {
		t.Skip("needs terraform on PATH")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("variable \"n\" {\n  type = number\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := sh(dir, nil, nil, "terraform", "plan", "-no-color", "-input=false", "-var", "n=x")
	if err == nil {
		t.Fatal("terraform plan with a non-number for a number variable succeeded")
	}
	for _, want := range []string{"exit status 1", "Error: Invalid value for input variable", "a number is required"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the step's error has no %q:\n%v", want, err)
		}
	}
}
