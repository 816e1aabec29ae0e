package acctest

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// SchemaAttribute is one attribute of a served schema, by its path
// ("operations.status").
type SchemaAttribute struct {
	Path string
	*tfprotov6.SchemaAttribute
}

func providerSchema(t *testing.T) *tfprotov6.GetProviderSchemaResponse {
	t.Helper()
	server, err := Factories["flinkagents"]()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// Attributes lists every attribute of s, nested ones included, skipping the
// subtrees named in skip (blocks or attributes another file documents).
func Attributes(s *tfprotov6.Schema, skip ...string) []SchemaAttribute {
	var out []SchemaAttribute
	skipped := map[string]bool{}
	for _, name := range skip {
		skipped[name] = true
	}
	var walk func(prefix string, attrs []*tfprotov6.SchemaAttribute)
	walk = func(prefix string, attrs []*tfprotov6.SchemaAttribute) {
		for _, a := range attrs {
			if skipped[prefix+a.Name] {
				continue
			}
			out = append(out, SchemaAttribute{Path: prefix + a.Name, SchemaAttribute: a})
			if a.NestedType != nil {
				walk(prefix+a.Name+".", a.NestedType.Attributes)
			}
		}
	}
	walk("", s.Block.Attributes)
	for _, b := range s.Block.BlockTypes {
		if !skipped[b.TypeName] {
			walk(b.TypeName+".", b.Block.Attributes)
		}
	}
	return out
}
