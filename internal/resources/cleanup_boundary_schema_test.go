package resources_test

import (
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// TestCleanupBoundarySchemaIsReviewable: nothing of a boundary is
// sensitive (it holds no secret, and a reviewer must read its change), and
// every description is short; the details are on the resource's page.
func TestCleanupBoundarySchemaIsReviewable(t *testing.T) {
	s := acctest.ResourceSchema(t, "flinkagents_cleanup_boundary")
	if n := len(s.Block.Description); n > 300 {
		t.Errorf("the resource's description is %d characters (limit 300)", n)
	}
	for _, a := range acctest.Attributes(s, "timeouts") {
		if a.Sensitive {
			t.Errorf("%s is sensitive", a.Path)
		}
		if n := len(a.Description); n == 0 || n > 300 {
			t.Errorf("%s: description of %d characters (want 1 to 300)", a.Path, n)
		}
	}
}
