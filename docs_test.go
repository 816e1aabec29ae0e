package main

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// markdownLink is an inline Markdown link's target.
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// The Registry serves docs/ as pages without the .md suffix
// (docs/guides/first-cleanup.md is .../docs/guides/first-cleanup), so a
// relative link must name the page, not the file, and must land on a page
// that exists: a sibling guide as "first-cleanup", another kind as
// "../guides/first-cleanup". Repository paths have no page there; they are
// code spans, not links.
func TestDocsLinksResolveOnTheRegistry(t *testing.T) {
	err := filepath.WalkDir("docs", func(file string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(file, ".md") {
			return err
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		page := path.Dir(filepath.ToSlash(file)) // docs/guides
		for _, m := range markdownLink.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			if strings.HasSuffix(target, ".md") {
				t.Errorf("%s links to %q: the Registry serves pages without .md; link %q", file, m[1], strings.TrimSuffix(m[1], ".md"))
				continue
			}
			if file == filepath.Join("docs", "index.md") {
				t.Errorf("%s links to %q: the index page's relative links resolve differently on the Registry; use an absolute URL", file, m[1])
				continue
			}
			if _, err := os.Stat(path.Join(page, target) + ".md"); err != nil {
				t.Errorf("%s links to %q, which is no page of docs/", file, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Every resource and data source page lists its attributes: a template
// without {{ .SchemaMarkdown }} leaves readers only the example.
func TestDocsEveryResourcePageHasASchema(t *testing.T) {
	for _, kind := range []string{"resources", "data-sources"} {
		pages, err := filepath.Glob(filepath.Join("docs", kind, "*.md"))
		if err != nil || len(pages) == 0 {
			t.Fatalf("no pages in docs/%s: %v", kind, err)
		}
		for _, page := range pages {
			b, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "\n## Schema\n") {
				t.Errorf("%s has no Schema section: add {{ .SchemaMarkdown | trimspace }} to its template", page)
			}
		}
	}
}
