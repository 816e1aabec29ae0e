package tfconv_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

type inner struct {
	Name types.String `tfsdk:"name"`
	N    types.Int64  `tfsdk:"n"`
}

type entry struct {
	A   types.String `tfsdk:"a"`
	M   types.Map    `tfsdk:"m"`
	In  inner        `tfsdk:"in"`
	Opt *inner       `tfsdk:"opt"`
}

var innerType = types.ObjectType{AttrTypes: map[string]attr.Type{"name": types.StringType, "n": types.Int64Type}}

var entryType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"a": types.StringType, "m": types.MapType{ElemType: types.Int64Type}, "in": innerType, "opt": innerType,
}}

func fleet(n int) map[string]entry {
	out := map[string]entry{}
	for i := range n {
		e := entry{
			A:  types.StringValue(fmt.Sprint("a", i)),
			M:  types.MapValueMust(types.Int64Type, map[string]attr.Value{"0": types.Int64Value(int64(i))}),
			In: inner{Name: types.StringValue("in"), N: types.Int64Unknown()},
		}
		switch i % 3 {
		case 0:
			e.Opt = &inner{Name: types.StringNull(), N: types.Int64Value(7)}
		case 1:
			e.A = types.StringUnknown()
		}
		out[fmt.Sprint("op", i)] = e
	}
	return out
}

// TestStructMapIsTheFrameworks: the fast conversions give exactly what the
// framework's reflection gives, both ways, nulls, unknowns and absent
// optional objects included.
func TestStructMapIsTheFrameworks(t *testing.T) {
	ctx := context.Background()
	entries := fleet(30)
	want, diags := types.MapValueFrom(ctx, entryType, entries)
	if diags.HasError() {
		t.Fatal(diags)
	}
	got, diags := tfconv.MapOfStructs(ctx, entryType, entries)
	if diags.HasError() || !got.Equal(want) {
		t.Fatalf("MapOfStructs = %v (%v), want the framework's %v", got, diags, want)
	}
	var fromFramework map[string]entry
	if diags := want.ElementsAs(ctx, &fromFramework, false); diags.HasError() {
		t.Fatal(diags)
	}
	decoded, diags := tfconv.StructMap[entry](ctx, want)
	if diags.HasError() || !reflect.DeepEqual(decoded, fromFramework) || !reflect.DeepEqual(decoded, entries) {
		t.Fatalf("StructMap = %v (%v), want the framework's %v", decoded, diags, fromFramework)
	}
}

// TestStructMapLeavesTheRestToTheFramework: a value the fast path does not
// handle (an unknown object where the struct needs one) gets the
// framework's own answer, its diagnostics included.
func TestStructMapLeavesTheRestToTheFramework(t *testing.T) {
	ctx := context.Background()
	m := types.MapValueMust(entryType, map[string]attr.Value{
		"op": types.ObjectValueMust(entryType.AttrTypes, map[string]attr.Value{
			"a": types.StringValue("a"), "m": types.MapNull(types.Int64Type), "in": types.ObjectUnknown(innerType.AttrTypes), "opt": types.ObjectNull(innerType.AttrTypes),
		}),
	})
	var fromFramework map[string]entry
	want := m.ElementsAs(ctx, &fromFramework, false)
	_, got := tfconv.StructMap[entry](ctx, m)
	if !want.HasError() || !got.Equal(want) {
		t.Errorf("StructMap of an unknown nested object: %v, want the framework's %v", got, want)
	}
}

func BenchmarkStructMap(b *testing.B) {
	ctx := context.Background()
	m, _ := types.MapValueFrom(ctx, entryType, fleet(1000))
	b.Run("framework", func(b *testing.B) {
		for b.Loop() {
			var out map[string]entry
			m.ElementsAs(ctx, &out, false)
		}
	})
	b.Run("tfconv", func(b *testing.B) {
		for b.Loop() {
			tfconv.StructMap[entry](ctx, m)
		}
	})
}
