// Package resources holds the provider's managed resources, one file per
// resource. Each reaches Kafka through providerdata.Clients.
package resources

import (
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// All lists the constructors the provider registers. Add a resource here and
// the provider serves it; nothing else needs to change.
func All() []func() resource.Resource {
	return []func() resource.Resource{
		NewActionStateTopic,
		NewActionStateTopics,
		NewCleanupControlTopic,
		NewCleanupBoundary,
		NewCleanupBoundaries,
	}
}

// Lists lists the constructors of the list resources (terraform query),
// each named like the resource whose instances it finds.
func Lists() []func() list.ListResource {
	return []func() list.ListResource{
		NewActionStateTopicList,
		NewCleanupControlTopicList,
	}
}
