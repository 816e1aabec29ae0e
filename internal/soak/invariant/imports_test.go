package invariant

import (
	"os/exec"
	"strings"
	"testing"
)

// The invariants are worth something only if they are checked by code
// that does not share the provider's logic: neither this package nor the
// soak's driver may import the provider's core or its Terraform layers.
func TestSharesNoLogicWithTheProvider(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	const module = "github.com/actionstate/terraform-provider-flinkagents/"
	forbidden := []string{"internal/cleanup", "internal/cleanupplan", "internal/recoveryplan", "internal/resources",
		"internal/datasources", "internal/kafkaops", "internal/provider", "internal/checkpointstore"}
	for _, pkg := range []string{".", "../", "../cmd/soak"} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, f := range forbidden {
				if dep == module+f || strings.HasPrefix(dep, module+f+"/") {
					t.Errorf("%s imports %s", pkg, dep)
				}
			}
			if pkg == "." && strings.HasPrefix(dep, module) && !strings.HasPrefix(dep, module+"internal/soak/invariant") {
				t.Errorf("the checker imports %s: it must read what Kafka and the soak hold by itself", dep)
			}
		}
	}
}
