package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// conformanceTable is the table of the runtime's rules, each with the
// tests that prove the provider applies it.
const conformanceTable = "spec/conformance.md"

var (
	// conformanceRow is a rule's row: | ID | rule | runtime | provider | tests | difference |.
	conformanceRow = regexp.MustCompile(`^\|\s*([A-Z][0-9]+)\s*\|(.*)\|\s*$`)
	// goTestName is a Go test or example, optionally in the interop suite.
	goTestName = regexp.MustCompile(`^(?:interop\.)?((?:Test|Example)[A-Za-z0-9_]*)$`)
	// javaTestName is one of the Java oracle's JUnit tests: Class.method.
	javaTestName = regexp.MustCompile(`^([A-Z][A-Za-z0-9]*Test)\.([a-z][A-Za-z0-9]*)$`)
	backticked   = regexp.MustCompile("`([^`]+)`")
)

// Every rule of the conformance table names at least one test, and every
// test it names exists: a Go test or example function anywhere in the
// repository (any build tag), or a JUnit method of the Java oracle.
func TestConformanceTableNamesExistingTests(t *testing.T) {
	b, err := os.ReadFile(conformanceTable)
	if err != nil {
		t.Fatal(err)
	}
	goTests, javaTests := existingTests(t)
	seen := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		m := conformanceRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		id, cells := m[1], strings.Split(m[2], "|")
		if seen[id] {
			t.Errorf("%s: rule %s appears twice", conformanceTable, id)
		}
		seen[id] = true
		if len(cells) != 5 {
			t.Errorf("%s: rule %s has %d columns after its ID, want 5 (rule, runtime, provider, tests, difference)", conformanceTable, id, len(cells))
			continue
		}
		if strings.TrimSpace(cells[0]) == "" || strings.TrimSpace(cells[1]) == "" || strings.TrimSpace(cells[2]) == "" {
			t.Errorf("%s: rule %s does not say what the rule is, how the runtime applies it, or where the provider does", conformanceTable, id)
		}
		named := 0
		for _, name := range backticked.FindAllStringSubmatch(cells[3], -1) {
			named++
			switch g, j := goTestName.FindStringSubmatch(name[1]), javaTestName.FindStringSubmatch(name[1]); {
			case g != nil:
				if !goTests[g[1]] {
					t.Errorf("%s: rule %s names %s, which is no Go test or example in the repository", conformanceTable, id, name[1])
				}
			case j != nil:
				if !javaTests[j[1]+"."+j[2]] {
					t.Errorf("%s: rule %s names %s, which is no test of the Java oracle (interop/java/src/test)", conformanceTable, id, name[1])
				}
			default:
				t.Errorf("%s: rule %s names %q in its tests column, which is neither a Go test nor Class.method", conformanceTable, id, name[1])
			}
		}
		if named == 0 {
			t.Errorf("%s: rule %s names no test", conformanceTable, id)
		}
	}
	if len(seen) < 40 {
		t.Errorf("%s holds %d rules; its tables were not read", conformanceTable, len(seen))
	}
}

// existingTests collects the Go test and example functions of every
// _test.go file and the @Test methods of the Java oracle.
func existingTests(t *testing.T) (goTests, javaTests map[string]bool) {
	t.Helper()
	goTests, javaTests = map[string]bool{}, map[string]bool{}
	goFunc := regexp.MustCompile(`(?m)^func ((?:Test|Example)[A-Za-z0-9_]*)\(`)
	javaMethod := regexp.MustCompile(`\bvoid\s+([a-z][A-Za-z0-9]*)\s*\(`)
	err := filepath.WalkDir(".", func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == ".git" || name == "testdata" || name == "target" || name == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(file, "_test.go"):
			b, err := os.ReadFile(file)
			if err != nil {
				return err
			}
			for _, m := range goFunc.FindAllStringSubmatch(string(b), -1) {
				goTests[m[1]] = true
			}
		case strings.HasSuffix(file, "Test.java") && strings.Contains(filepath.ToSlash(file), "interop/java/src/test/"):
			b, err := os.ReadFile(file)
			if err != nil {
				return err
			}
			// A method is a test when @Test or @ParameterizedTest annotates
			// it (other annotations, such as its values, may come between).
			class, annotated := strings.TrimSuffix(filepath.Base(file), ".java"), false
			for _, line := range strings.Split(string(b), "\n") {
				line = strings.TrimSpace(line)
				if line == "@Test" || line == "@ParameterizedTest" {
					annotated = true
				} else if m := javaMethod.FindStringSubmatch(line); m != nil {
					javaTests[class+"."+m[1]] = javaTests[class+"."+m[1]] || annotated
					annotated = false
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return goTests, javaTests
}
