package emulators

import (
	"encoding/json"
	"os/exec"
	"testing"
)

// OPADeny evaluates data.main.deny with opa eval over the plan JSON in
// file input and the data files (policies, parameters, approvals), and
// returns its messages. Anything but one result with one expression fails
// the test with what opa printed.
func OPADeny(t testing.TB, input string, data ...string) []string {
	t.Helper()
	args := []string{"eval", "--format", "json", "--input", input}
	for _, f := range data {
		args = append(args, "--data", f)
	}
	out, err := exec.Command(Binary(t, OPA), append(args, "data.main.deny")...).CombinedOutput()
	if err != nil {
		t.Fatalf("opa eval: %v\n%s", err, out)
	}
	var rs struct {
		Result []struct {
			Expressions []struct {
				Value []string `json:"value"`
			} `json:"expressions"`
		} `json:"result"`
	}
	if err := json.Unmarshal(out, &rs); err != nil {
		t.Fatalf("opa eval output: %v\n%s", err, out)
	}
	if len(rs.Result) != 1 || len(rs.Result[0].Expressions) != 1 {
		t.Fatalf("data.main.deny: unexpected result %s", out)
	}
	return rs.Result[0].Expressions[0].Value
}
