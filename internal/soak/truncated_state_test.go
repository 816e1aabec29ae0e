package soak

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A state file Terraform emptied (or cut short) when it was killed is
// replaced by its backup; a whole one, or none at all, is left alone; an
// empty one without a backup is an error, never silently kept.
func TestRestoreTruncatedState(t *testing.T) {
	const whole, backup = `{"version":4,"serial":14}`, `{"version":4,"serial":13}`
	for _, c := range []struct {
		name, state, backup string
		noState             bool
		want                string
		wantErr             bool
	}{
		{name: "emptied", state: "", backup: backup, want: backup},
		{name: "cut short", state: `{"version":4,"ser`, backup: backup, want: backup},
		{name: "whole", state: whole, backup: backup, want: whole},
		{name: "no state yet", noState: true, backup: backup},
		{name: "emptied, no backup", state: "", wantErr: true, want: ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			state := filepath.Join(dir, "terraform.tfstate")
			if !c.noState {
				if err := os.WriteFile(state, []byte(c.state), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if c.backup != "" {
				if err := os.WriteFile(state+".backup", []byte(c.backup), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			err := restoreTruncatedState(dir, io.Discard)
			if (err != nil) != c.wantErr {
				t.Fatalf("error = %v, want an error: %v", err, c.wantErr)
			}
			got, readErr := os.ReadFile(state)
			if c.noState {
				if !os.IsNotExist(readErr) {
					t.Fatalf("a state file appeared: %q (%v)", got, readErr)
				}
				return
			}
			if string(got) != c.want {
				t.Fatalf("terraform.tfstate = %q, want %q", got, c.want)
			}
		})
	}
}
