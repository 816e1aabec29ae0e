package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The wire contract lives in spec/, inside the repository: whoever clones
// it has no workspace beside it. A link in spec/ must land on a file of
// the repository.
func TestSpecLinksResolveInTheRepository(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join("spec", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 2 {
		t.Fatalf("spec/ holds %v; expected cleanup-protocol.md and flink-checkpoint-format.md", docs)
	}
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range markdownLink.FindAllStringSubmatch(string(b), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") {
				continue
			}
			if _, err := os.Stat(filepath.Join("spec", filepath.FromSlash(target))); err != nil {
				t.Errorf("%s links to %q, which is not in the repository", doc, m[1])
			}
		}
	}
}

// No file may send a reader to a specification outside the repository.
func TestNoReferenceToAWireSpecOutsideTheRepository(t *testing.T) {
	outside := "shared/" + "spec/" // split so this file does not match itself
	err := filepath.WalkDir(".", func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == ".git" || name == "testdata" || name == "target" {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(file) {
		case ".go", ".md", ".tmpl", ".java", ".sh", ".tf", ".xml", ".yml", ".yaml":
		default:
			return nil
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), outside) {
			t.Errorf("%s refers to %s; the contract is spec/cleanup-protocol.md and spec/flink-checkpoint-format.md", file, outside)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
