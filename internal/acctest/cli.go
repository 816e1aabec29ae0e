package acctest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/actionstate/terraform-provider-flinkagents/internal/provider"
)

// RegistryHost is the registry host unqualified provider sources resolve
// to: registry.terraform.io, or TF_ACC_PROVIDER_HOST (registry.opentofu.org
// when the suite runs under OpenTofu).
func RegistryHost() string {
	if h := os.Getenv("TF_ACC_PROVIDER_HOST"); h != "" {
		return h
	}
	return "registry.terraform.io"
}

// ProviderAddress is the provider's registry address, as configurations
// require it (source = "actionstate/flinkagents").
func ProviderAddress() string { return RegistryHost() + "/actionstate/flinkagents" }

// Workdir is a Terraform working directory driven with the real CLI, the
// provider served in-process (reattached, so no build and no registry). It
// is for what terraform-plugin-testing cannot run: configurations that call
// modules, whose state its legacy state shim refuses, and state written by
// another provider.
type Workdir struct {
	t   *testing.T
	Dir string
	// others are further providers served beside ours, by address.
	others map[string]func() tfprotov6.ProviderServer
}

// Workdir returns an empty working directory removed by the test.
func (e *Env) Workdir() *Workdir {
	return &Workdir{t: e.t, Dir: e.t.TempDir()}
}

// Serve serves another provider in-process to every later command, under
// its registry address (host/namespace/type), for example a stand-in for a
// provider whose state a moved block takes over.
func (w *Workdir) Serve(address string, server func() tfprotov6.ProviderServer) {
	if w.others == nil {
		w.others = map[string]func() tfprotov6.ProviderServer{}
	}
	w.others[address] = server
}

// Write writes one configuration file into the directory.
func (w *Workdir) Write(name, content string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.Dir, name), []byte(content), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// Terraform runs one terraform command against a fresh in-process provider
// and returns its standard output; a failing command fails the test.
func (w *Workdir) Terraform(args ...string) []byte {
	w.t.Helper()
	out, err := w.run(nil, args...)
	if err != nil {
		w.t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// Output returns a root output decoded into v.
func (w *Workdir) Output(name string, v any) {
	w.t.Helper()
	if err := json.Unmarshal(w.Terraform("output", "-json", name), v); err != nil {
		w.t.Fatalf("output %s: %v", name, err)
	}
}

// TerraformErr runs one terraform command expected to fail and returns its
// standard output and how it ended (the error carries standard error).
func (w *Workdir) TerraformErr(args ...string) ([]byte, error) {
	return w.run(nil, args...)
}

// TerraformInterrupted runs one terraform command and interrupts it, as
// Ctrl-C at a terminal does, when interrupt is closed; it returns what the
// command wrote and how it ended (an error, normally).
func (w *Workdir) TerraformInterrupted(interrupt <-chan struct{}, args ...string) ([]byte, error) {
	return w.run(interrupt, args...)
}

// run runs one terraform command, sending it SIGINT if interrupt is closed
// before it exits (nil: never).
func (w *Workdir) run(interrupt <-chan struct{}, args ...string) ([]byte, error) {
	ctx, cancel := context.WithCancel(context.Background())
	servers := map[string]func() tfprotov6.ProviderServer{ProviderAddress(): providerserver.NewProtocol6(provider.New("test")())}
	maps.Copy(servers, w.others)
	reattach := map[string]any{}
	var stopped []chan struct{}
	defer func() {
		cancel()
		for _, closed := range stopped {
			<-closed
		}
	}()
	for addr, server := range servers {
		cfg, closed, err := w.serve(ctx, addr, server)
		if err != nil {
			return nil, err
		}
		stopped = append(stopped, closed)
		reattach[addr] = map[string]any{
			"Protocol": cfg.Protocol, "ProtocolVersion": cfg.ProtocolVersion, "Pid": cfg.Pid, "Test": true,
			"Addr": map[string]string{"Network": cfg.Addr.Network(), "String": cfg.Addr.String()},
		}
	}
	rc, err := json.Marshal(reattach)
	if err != nil {
		return nil, err
	}
	// -no-color goes right after the subcommand, before any positional
	// argument (terraform stops reading flags at the first one).
	cmd := exec.Command(terraformPath(), append([]string{args[0], "-no-color"}, args[1:]...)...)
	cmd.Dir = w.Dir
	cmd.Env = append(os.Environ(), "TF_REATTACH_PROVIDERS="+string(rc), "TF_IN_AUTOMATION=1", "TF_INPUT=0", "CHECKPOINT_DISABLE=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	defer close(exited)
	go func() {
		select {
		case <-interrupt:
			_ = cmd.Process.Signal(os.Interrupt)
		case <-exited:
		}
	}()
	if err := cmd.Wait(); err != nil {
		return stdout.Bytes(), fmt.Errorf("%w\n%s", err, stderr.String())
	}
	return stdout.Bytes(), nil
}

// serve starts one provider server in debug mode until ctx ends; closed is
// closed once it has stopped.
func (w *Workdir) serve(ctx context.Context, addr string, server func() tfprotov6.ProviderServer) (*plugin.ReattachConfig, chan struct{}, error) {
	reattach := make(chan *plugin.ReattachConfig, 1)
	closed := make(chan struct{})
	serveErr := make(chan error, 1)
	go func() {
		serveErr <- tf6server.Serve(addr, server,
			tf6server.WithDebug(ctx, reattach, closed),
			tf6server.WithGoPluginLogger(hclog.NewNullLogger()),
			// Provider logs follow TF_LOG_SDK* and go to the test log,
			// as under terraform-plugin-testing.
			tf6server.WithLoggingSink(w.t))
	}()
	select {
	case cfg := <-reattach:
		return cfg, closed, nil
	case err := <-serveErr:
		return nil, nil, errors.Join(fmt.Errorf("serving provider %s", addr), err)
	}
}

// SkipBelowCLI skips a test the CLI under test (terraform, or what
// TF_ACC_TERRAFORM_PATH names) is too old for: why names the feature.
func SkipBelowCLI(t *testing.T, major, minor int, why string) {
	t.Helper()
	requireTerraform(t)
	out, err := exec.Command(terraformPath(), "version", "-json").Output()
	if err != nil {
		t.Fatalf("%s version -json: %v", terraformPath(), err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if i := bytes.IndexByte(out, '{'); i < 0 || json.Unmarshal(out[i:], &v) != nil {
		t.Fatalf("%s version -json printed no version:\n%s", terraformPath(), out)
	}
	var gotMajor, gotMinor int
	if _, err := fmt.Sscanf(v.Version, "%d.%d", &gotMajor, &gotMinor); err != nil {
		t.Fatalf("%s reports version %q: %v", terraformPath(), v.Version, err)
	}
	if gotMajor < major || (gotMajor == major && gotMinor < minor) {
		t.Skipf("%s needs %d.%d or later; the CLI under test is %s", why, major, minor, v.Version)
	}
}

func terraformPath() string {
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	return "terraform"
}

// ModuleSource names the module in dir as a source for this workdir's
// configuration: a path relative to the workdir. Terraform copies a module
// named by an absolute path as a package of its own, so one that calls a
// sibling (../agent-fleet) would reach outside it and fail to install.
func (w *Workdir) ModuleSource(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		w.t.Fatal(err)
	}
	rel, err := filepath.Rel(w.Dir, abs)
	if err != nil {
		w.t.Fatal(err)
	}
	if !strings.HasPrefix(rel, "../") {
		rel = "./" + rel
	}
	return filepath.ToSlash(rel)
}
