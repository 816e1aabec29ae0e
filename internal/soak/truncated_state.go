package soak

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// restoreTruncatedState does what docs/guides/scheduled-cleanup.md tells an
// operator whose terraform was killed with local state: Terraform writes
// terraform.tfstate in place (it truncates the file, then writes), so a
// SIGKILL between the two leaves it empty (or cut short), and the next plan would create
// the whole fleet (refused: Fleet Topics Exist Already). The backup
// Terraform wrote before its first write of the run is the state the
// killed run read; with it the run looks like one killed before it saved
// anything, which the provider converges from.
func restoreTruncatedState(dir string, out io.Writer) error {
	state := filepath.Join(dir, "terraform.tfstate")
	data, err := os.ReadFile(state)
	if err != nil || json.Valid(data) {
		return nil // no local state yet, or a whole one
	}
	backup, err := os.ReadFile(state + ".backup")
	if err != nil {
		return fmt.Errorf("terraform.tfstate was left empty or cut short by the SIGKILL and its backup is unreadable: %w", err)
	}
	if err := os.WriteFile(state, backup, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(out, "    remediated: terraform.tfstate left empty or cut short by the SIGKILL (Terraform truncates local state before writing it): restored terraform.tfstate.backup\n")
	return nil
}
