// Package datasources holds the provider's data sources, one file per data
// source. Each reaches Kafka through providerdata.Clients.
package datasources

import "github.com/hashicorp/terraform-plugin-framework/datasource"

// All lists the constructors the provider registers. Add a data source here
// and the provider serves it; nothing else needs to change.
func All() []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewCleanupPlan,
		NewCleanupPlans,
		NewCleanupBoundary,
		NewRecoveryPoints,
		NewAgentConfig,
		NewAgentConfigs,
		NewRequiredPermissions,
	}
}
