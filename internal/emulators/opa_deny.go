package emulators

import (
	"context"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/opaeval"
)

// OPADeny evaluates data.main.deny with opa eval over the plan JSON in
// file input and the data files (policies, parameters, approvals), and
// returns its messages. A failed eval fails the test with what opa printed,
// anything but one result with one expression with what it returned.
func OPADeny(t testing.TB, input string, data ...string) []string {
	t.Helper()
	results, err := opaeval.Deny(context.Background(), Binary(t, OPA), input, data...)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || len(results[0]) != 1 {
		t.Fatalf("data.main.deny: unexpected result %q", results)
	}
	return results[0][0]
}
