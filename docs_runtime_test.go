package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// No Flink Agents release up to 0.3.1 holds the cleanup the provider
// follows (versioned recovery markers, the control topic): it is the
// plan/apply implementation proposed for Apache Flink Agents. Docs and
// diagnostics must not send an operator looking for "a release that writes
// versioned recovery markers", and the pages a new user starts from say
// which runtime code is followed and what adoption changes on a topic a
// released runtime created.
func TestDocsNameTheUnreleasedRuntime(t *testing.T) {
	promise := regexp.MustCompile(`(?i)release that writes|releases? before versioned markers|release without recovery markers|Flink Agents release this provider|created by older runtimes`)
	var files []string
	for _, root := range []string{"docs", "templates", "spec", "internal"} {
		err := filepath.WalkDir(root, func(file string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if strings.HasSuffix(file, ".md") || strings.HasSuffix(file, ".tmpl") || (strings.HasSuffix(file, ".go") && !strings.HasSuffix(file, "_test.go")) {
				files = append(files, file)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, file := range append(files, "README.md", "DESIGN.md") {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(b)), " ")
		if m := promise.FindString(text); m != "" {
			t.Errorf("%s says %q: no Flink Agents release up to 0.3.1 holds the cleanup; name the proposed plan/apply implementation instead", file, m)
		}
	}
	for _, page := range []string{"README.md", filepath.Join("docs", "guides", "first-cleanup.md")} {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(b)), " ")
		for _, want := range []string{"plan/apply", "proposed for Apache Flink Agents", "0.3.1", "`cleanup.policy=compact` only", "`compact,delete`"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s does not say %q: which runtime code the provider follows, and what adoption changes on a released runtime's topic", page, want)
			}
		}
	}
}
