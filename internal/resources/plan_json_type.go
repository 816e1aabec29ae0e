package resources

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// planJSONType is plan_json's type: a string compared as the plan it holds,
// so the same plan written with other whitespace (a Java-tool file, the
// jsonencode() that -generate-config-out writes) plans no change.
type planJSONType struct {
	basetypes.StringType
}

var (
	_ basetypes.StringTypable                    = planJSONType{}
	_ basetypes.StringValuableWithSemanticEquals = planJSONValue{}
)

func (t planJSONType) Equal(o attr.Type) bool {
	_, ok := o.(planJSONType)
	return ok
}

func (t planJSONType) String() string { return "planJSONType" }

func (t planJSONType) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return planJSONValue{StringValue: in}, nil
}

func (t planJSONType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	v, err := t.StringType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	s, ok := v.(basetypes.StringValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type %T", v)
	}
	return planJSONValue{StringValue: s}, nil
}

func (t planJSONType) ValueType(context.Context) attr.Value { return planJSONValue{} }

// planJSONValue is a plan_json value.
type planJSONValue struct {
	basetypes.StringValue
}

func newPlanJSON(s string) planJSONValue {
	return planJSONValue{StringValue: basetypes.NewStringValue(s)}
}

func (v planJSONValue) Equal(o attr.Value) bool {
	other, ok := o.(planJSONValue)
	return ok && v.StringValue.Equal(other.StringValue)
}

func (v planJSONValue) Type(context.Context) attr.Type { return planJSONType{} }

// StringSemanticEquals: two texts are the same plan when both parse to
// plans with one plan ID (which covers every field). Text that does not
// parse is compared as written, so an invalid plan still reaches the
// parser's error.
func (v planJSONValue) StringSemanticEquals(_ context.Context, newValuable basetypes.StringValuable) (bool, diag.Diagnostics) {
	other, ok := newValuable.(planJSONValue)
	if !ok {
		return false, nil
	}
	if v.ValueString() == other.ValueString() {
		return true, nil // the usual case, without parsing two plans (a fleet's resource holds a thousand)
	}
	a, errA := cleanupplan.Parse([]byte(v.ValueString()))
	b, errB := cleanupplan.Parse([]byte(other.ValueString()))
	if errA != nil || errB != nil {
		return v.ValueString() == other.ValueString(), nil
	}
	return a.ID() == b.ID() && a.Equal(b), nil
}
