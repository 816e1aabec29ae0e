package acctest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/actionstate/terraform-provider-flinkagents/internal/provider"
)

// ProviderAddress is the provider's registry address, as configurations
// require it (source = "actionstate/flinkagents").
const ProviderAddress = "registry.terraform.io/actionstate/flinkagents"

// Workdir is a Terraform working directory driven with the real CLI, the
// provider served in-process (reattached, so no build and no registry). It
// is for what terraform-plugin-testing cannot run: configurations that call
// modules, whose state its legacy state shim refuses.
type Workdir struct {
	t   *testing.T
	Dir string
}

// Workdir returns an empty working directory removed by the test.
func (e *Env) Workdir() *Workdir {
	return &Workdir{t: e.t, Dir: e.t.TempDir()}
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
	reattach := make(chan *plugin.ReattachConfig, 1)
	closed := make(chan struct{})
	serveErr := make(chan error, 1)
	go func() {
		serveErr <- tf6server.Serve(ProviderAddress, providerserver.NewProtocol6(provider.New("test")()),
			tf6server.WithDebug(ctx, reattach, closed),
			tf6server.WithGoPluginLogger(hclog.NewNullLogger()),
			// Provider logs follow TF_LOG_SDK* and go to the test log,
			// as under terraform-plugin-testing.
			tf6server.WithLoggingSink(w.t))
	}()
	defer func() {
		cancel()
		<-closed
	}()
	var cfg *plugin.ReattachConfig
	select {
	case cfg = <-reattach:
	case err := <-serveErr:
		return nil, errors.Join(errors.New("serving the provider"), err)
	}
	rc, err := json.Marshal(map[string]any{ProviderAddress: map[string]any{
		"Protocol": cfg.Protocol, "ProtocolVersion": cfg.ProtocolVersion, "Pid": cfg.Pid, "Test": true,
		"Addr": map[string]string{"Network": cfg.Addr.Network(), "String": cfg.Addr.String()},
	}})
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

func terraformPath() string {
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	return "terraform"
}
