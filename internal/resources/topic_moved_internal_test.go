package resources

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// moveResponse is an empty response for the action-state topic, as the
// framework hands it to a mover.
func moveResponse(ctx context.Context) *resource.MoveStateResponse {
	s := actionStateTopicSchema()
	return &resource.MoveStateResponse{TargetState: tfsdk.State{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(ctx), nil)}}
}

// The mover takes only the Mongey provider's kafka_topic, from any
// registry host, and only the schema version it knows.
func TestMoveFromMongeyTopicPicksItsSource(t *testing.T) {
	ctx := context.Background()
	mover := moveFromMongeyTopic(&actionStateTopicSpec)
	for _, req := range []resource.MoveStateRequest{
		{SourceProviderAddress: "registry.terraform.io/confluentinc/confluent", SourceTypeName: "confluent_kafka_topic"},
		{SourceProviderAddress: "registry.terraform.io/someone/kafka", SourceTypeName: "kafka_topic"},
		{SourceProviderAddress: "registry.terraform.io/mongey/kafka", SourceTypeName: "kafka_acl"},
	} {
		resp := moveResponse(ctx)
		mover.StateMover(ctx, req, resp)
		if resp.Diagnostics.HasError() || !resp.TargetState.Raw.IsNull() {
			t.Errorf("%s %s: took it (%v)", req.SourceProviderAddress, req.SourceTypeName, resp.Diagnostics)
		}
	}
	for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		resp := moveResponse(ctx)
		mover.StateMover(ctx, resource.MoveStateRequest{SourceProviderAddress: host + "/mongey/kafka", SourceTypeName: "kafka_topic", SourceSchemaVersion: 1}, resp)
		if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), "schema version 1") {
			t.Errorf("%s, schema version 1: %v", host, resp.Diagnostics)
		}
	}
}
