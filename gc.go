package main

import (
	"runtime/debug"
)

// A provider process lives for one Terraform command and its heap stays
// small (tens of MiB), while a plan of many resources allocates briskly:
// at Go's default GOGC=100 the collector took about a fifth of the
// provider's CPU on a 400-topic plan (BENCHMARKS.md, "Rollout at scale").
// Collecting at 4x the live heap instead of 2x trades a little memory for
// that CPU. A GOGC set by the user wins.
const gcPercent = 400

func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}
