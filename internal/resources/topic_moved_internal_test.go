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

// A kafka_topic state without a name (and without an id to fall back on)
// is refused naming what is missing, instead of moving a topic called "".
func TestMoveFromMongeyTopicWithoutName(t *testing.T) {
	ctx := context.Background()
	for name, id := range map[string]tftypes.Value{
		"empty": tftypes.NewValue(tftypes.String, ""),
		"null":  tftypes.NewValue(tftypes.String, nil),
	} {
		resp := moveMongeyTopic(ctx, id, tftypes.NewValue(tftypes.String, ""))
		if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), "empty name and an empty id") {
			t.Errorf("id %s: %v", name, resp.Diagnostics)
		}
		if len(resp.Diagnostics.Warnings()) > 0 || !resp.TargetState.Raw.IsNull() {
			t.Errorf("id %s: moved anyway (%v, state %v)", name, resp.Diagnostics, resp.TargetState.Raw)
		}
	}
}

// moveMongeyTopic runs the mover on a Mongey kafka_topic state with id and
// name (3 partitions, replication factor 1, no config) into an empty
// action-state topic.
func moveMongeyTopic(ctx context.Context, id, name tftypes.Value) *resource.MoveStateResponse {
	src := tftypes.NewValue(mongeyTopicSchema.Type().TerraformType(ctx), map[string]tftypes.Value{
		"id":                 id,
		"name":               name,
		"partitions":         tftypes.NewValue(tftypes.Number, 3),
		"replication_factor": tftypes.NewValue(tftypes.Number, 1),
		"config":             tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, nil),
	})
	resp := moveResponse(ctx)
	moveFromMongeyTopic(&actionStateTopicSpec).StateMover(ctx, resource.MoveStateRequest{
		SourceProviderAddress: "registry.terraform.io/mongey/kafka", SourceTypeName: "kafka_topic",
		SourceState: &tfsdk.State{Schema: mongeyTopicSchema, Raw: src},
	}, resp)
	return resp
}
