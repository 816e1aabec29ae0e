// Package emulators runs the storage emulators and the policy engine that
// tests need as processes built from the tools module (tools/go.mod),
// the way Azurite runs from scripts/azurite.sh: their code and their
// dependencies stay out of the provider's module. Only tests import it.
package emulators

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Tools built from tools/go.mod, by package path.
const (
	gofakes3Pkg      = "github.com/johannesboyne/gofakes3/cmd/gofakes3"
	fakeGCSServerPkg = "github.com/fsouza/fake-gcs-server"
	// OPA is the policy engine's CLI, for the policy tests (opa eval).
	OPA = "github.com/open-policy-agent/opa"
)

var builds struct {
	mu   sync.Mutex
	dir  string
	bins map[string]string
}

// Binary builds (once per test process; Go's build cache makes later
// processes fast) the main package pkg of the tools module and returns
// its path. A failed build fails the test, naming what is missing.
func Binary(t testing.TB, pkg string) string {
	t.Helper()
	builds.mu.Lock()
	defer builds.mu.Unlock()
	if bin, ok := builds.bins[pkg]; ok {
		return bin
	}
	tools, err := toolsDir()
	if err != nil {
		t.Fatal(err)
	}
	if builds.dir == "" {
		if builds.dir, err = os.MkdirTemp("", "flinkagents-tools-"); err != nil {
			t.Fatal(err)
		}
		builds.bins = map[string]string{}
	}
	bin := filepath.Join(builds.dir, filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Dir = tools
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building %s from tools/go.mod (needs Go and the module proxy or a warm module cache): %v\n%s", pkg, err, out)
	}
	builds.bins[pkg] = bin
	return bin
}

// toolsDir finds tools/ above the working directory (a test runs in its
// package's directory).
func toolsDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "tools", "go.mod")); err == nil {
			return filepath.Join(dir, "tools"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no tools/go.mod above the test's directory: run the tests from within the repository")
		}
		dir = parent
	}
}

// freePort asks the kernel for a loopback port nobody listens on.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// start runs bin with args until the test ends and waits until it accepts
// connections on port.
func start(t testing.TB, name, bin string, port int, args ...string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, args...)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("starting %s: %v", name, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cancel(); <-exited })
	addr := "127.0.0.1:" + strconv.Itoa(port)
	for deadline := time.Now().Add(30 * time.Second); ; {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return
		}
		select {
		case <-exited:
			t.Fatalf("%s exited before listening on %s:\n%s", name, addr, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not listen on %s within 30s:\n%s", name, addr, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
