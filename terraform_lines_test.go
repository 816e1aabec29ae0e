package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// make test with a Terraform 1.14 or later on PATH needs nothing beside the
// clone: its second pass finds the 1.14+ tests already run by the first and
// asks for no Terraform 1.15.9 (TERRAFORM_115_GZ unset, its cache empty).
func TestTerraform114OnPathNeedsNoOtherTerraform(t *testing.T) {
	env := scriptEnv(t, "1.14.3", "")
	out, err := runScript(t, env, "scripts/testacc-terraform114.sh")
	if err != nil {
		t.Fatalf("with Terraform 1.14.3 on PATH and no 1.15.9: %v\n%s", err, out)
	}
	if !strings.Contains(out, "ran in the pass above") {
		t.Errorf("the second pass did not say the first one ran the 1.14+ tests:\n%s", out)
	}
	// make generate's tfplugindocs: the terraform on PATH.
	dir, err := runScript(t, env, "scripts/terraform114.sh")
	if err != nil || strings.TrimSpace(dir) != filepath.Dir(pathOf(t, env)) {
		t.Errorf("scripts/terraform114.sh = %q, %v; want the PATH terraform's directory %s", dir, err, filepath.Dir(pathOf(t, env)))
	}
}

// Below 1.14 the 1.14+ tests skip in make test's first pass, so the second
// must run them under 1.15.9 or fail naming where that comes from: make test
// skips no suite.
func TestTerraformBelow114FailsNamingTerraform115(t *testing.T) {
	for _, gz := range []string{"", filepath.Join(t.TempDir(), "missing", "terraform.gz")} {
		out, err := runScript(t, scriptEnv(t, "1.11.4", gz), "scripts/testacc-terraform114.sh")
		if err == nil {
			t.Fatalf("TERRAFORM_115_GZ=%q: the second pass succeeded without Terraform 1.15.9:\n%s", gz, out)
		}
		if !strings.Contains(out, "ERROR: Terraform 1.15.9 not found: TERRAFORM_115_GZ") || !strings.Contains(out, gz) {
			t.Errorf("TERRAFORM_115_GZ=%q: the failure does not name it:\n%s", gz, out)
		}
	}
}

// Only .ci/run names the team's copy of Terraform 1.15.9 outside the clone;
// make test and its scripts call the 1.14-aware pass.
func TestOnlyCINamesTheSharedTerraform(t *testing.T) {
	files, err := filepath.Glob("scripts/*.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(files, "GNUmakefile", "generate.go") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("shared/tools")) {
			t.Errorf("%s names ../shared/tools: only .ci/run may", f)
		}
	}
	out, err := exec.Command("make", "-n", "test").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n test: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "scripts/testacc-terraform114.sh") || strings.Contains(string(out), "testacc-terraform115") {
		t.Errorf("make test does not end with the 1.14-aware pass (scripts/testacc-terraform114.sh):\n%s", out)
	}
}

// scriptEnv is this environment with a fake terraform of version first on
// PATH, TERRAFORM_115_GZ set to gz (unset when empty) and an empty cache for
// Terraform 1.15.9.
func scriptEnv(t *testing.T, version, gz string) []string {
	t.Helper()
	bin := t.TempDir()
	fake := "#!/bin/sh\nif [ \"$2\" = -json ]; then printf '{\"terraform_version\": \"" + version + "\"}\\n'; else echo 'Terraform v" + version + "'; fi\n"
	if err := os.WriteFile(filepath.Join(bin, "terraform"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name != "PATH" && name != "TERRAFORM_115_GZ" && name != "TERRAFORM_115_CACHE" {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "TERRAFORM_115_CACHE="+t.TempDir())
	if gz != "" {
		env = append(env, "TERRAFORM_115_GZ="+gz)
	}
	return env
}

func pathOf(t *testing.T, env []string) string {
	t.Helper()
	for _, kv := range env {
		if path, ok := strings.CutPrefix(kv, "PATH="); ok {
			return filepath.Join(filepath.SplitList(path)[0], "terraform")
		}
	}
	t.Fatal("no PATH")
	return ""
}

func runScript(t *testing.T, env []string, script string) (string, error) {
	t.Helper()
	cmd := exec.Command(script)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	return string(out), err
}
