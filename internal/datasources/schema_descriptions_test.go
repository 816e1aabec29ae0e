package datasources_test

import (
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// TestPlanAndBoundarySchemasAreShort: every description of the cleanup
// plan and cleanup boundary data sources is short (the details are on
// their pages), nested attributes included, and none is sensitive.
// storage is documented in checkpoint_storage.go.
func TestPlanAndBoundarySchemasAreShort(t *testing.T) {
	for _, name := range []string{"flinkagents_cleanup_boundary", "flinkagents_cleanup_plan"} {
		s := acctest.DataSourceSchema(t, name)
		if n := len(s.Block.Description); n > 300 {
			t.Errorf("%s: description of %d characters (limit 300)", name, n)
		}
		for _, a := range acctest.Attributes(s, "timeouts", "storage") {
			if a.Sensitive {
				t.Errorf("%s.%s is sensitive", name, a.Path)
			}
			if n := len(a.Description); n == 0 || n > 300 {
				t.Errorf("%s.%s: description of %d characters (want 1 to 300)", name, a.Path, n)
			}
		}
	}
}
