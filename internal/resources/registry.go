// Package resources holds the provider's managed resources, one file per
// resource. Each reaches Kafka through providerdata.Clients.
package resources

import "github.com/hashicorp/terraform-plugin-framework/resource"

// All lists the constructors the provider registers. Add a resource here and
// the provider serves it; nothing else needs to change.
func All() []func() resource.Resource {
	return []func() resource.Resource{
		NewActionStateTopic,
		NewCleanupControlTopic,
		NewCleanupBoundary,
		NewCleanupBoundaries,
	}
}
