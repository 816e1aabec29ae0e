// Package opaeval runs the example policies' gate, data.main.deny, with the
// opa CLI: the one way the policy tests, the pipeline test and the soak
// evaluate a plan.
package opaeval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
)

// Result is one result of opa eval: the value of each of its expressions.
type Result [][]string

// Deny evaluates data.main.deny with `opa eval` (the binary opa) over the
// plan JSON in file input and the data files (policies, parameters,
// approvals), and returns its results in order. How many it accepts is the
// caller's: a test wants exactly one result of one expression, a gate
// takes the messages of all.
func Deny(ctx context.Context, opa, input string, data ...string) ([]Result, error) {
	args := []string{"eval", "--format", "json", "--input", input}
	for _, f := range data {
		args = append(args, "--data", f)
	}
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, opa, append(args, "data.main.deny")...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("opa eval: %w\n%s%s", err, out, stderr.Bytes())
	}
	var rs struct {
		Result []struct {
			Expressions []struct {
				Value []string `json:"value"`
			} `json:"expressions"`
		} `json:"result"`
	}
	if err := json.Unmarshal(out, &rs); err != nil {
		return nil, fmt.Errorf("opa eval output: %w\n%s", err, out)
	}
	results := make([]Result, len(rs.Result))
	for i, r := range rs.Result {
		for _, e := range r.Expressions {
			results[i] = append(results[i], e.Value)
		}
	}
	return results, nil
}
