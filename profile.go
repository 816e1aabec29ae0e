package main

// A CPU profile of a provider process, for BENCHMARKS.md's rollout work.
// Terraform starts the provider several times per command, each process
// under its own name, so the variable names a directory and every process
// writes cpu-<pid>.pprof into it (go tool pprof merges them).

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
)

const profileDirVariable = "FLINKAGENTS_CPUPROFILE_DIR"

// startProfile starts a CPU profile when FLINKAGENTS_CPUPROFILE_DIR is set
// and returns what stops it; with the variable unset it costs nothing.
func startProfile() (stop func(), err error) {
	dir := os.Getenv(profileDirVariable)
	if dir == "" {
		return func() {}, nil
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("cpu-%d.pprof", os.Getpid())))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", profileDirVariable, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("%s: %w", profileDirVariable, err)
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}, nil
}
