// Package functions holds the provider-defined functions (Terraform 1.8
// and later, OpenTofu 1.7 and later), one file per function. They are thin
// translations to the plan model in internal/cleanupplan: a plan read or
// identified in the configuration language follows the same rules, and
// fails with the same errors, as one read by a resource or by the runtime.
package functions

import "github.com/hashicorp/terraform-plugin-framework/function"

// All lists the constructors the provider registers.
func All() []func() function.Function {
	return []func() function.Function{
		NewDecodePlan,
		NewPlanID,
	}
}
