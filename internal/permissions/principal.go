package permissions

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// principalType is a KafkaPrincipal type ("User", "Group", a custom
// builder's type): the part before the first colon.
var principalType = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// CheckPrincipal refuses what is not one concrete principal in Kafka's
// form Type:name. A name of "*" is Kafka's wildcard (every principal), and
// a "*" anywhere else is a name no client has but reads as a pattern, so
// both are refused: the rendered ACLs allow deleting records and topics.
// Spaces around the name or control characters match no principal Kafka
// builds from a connection.
func CheckPrincipal(p string) error {
	typ, name, ok := strings.Cut(p, ":")
	switch {
	case !ok || !principalType.MatchString(typ):
		return fmt.Errorf("%q is not of Kafka's form Type:name, for example User:terraform", p)
	case name == "":
		return fmt.Errorf("%q has an empty name", p)
	case name == "*":
		return fmt.Errorf("%q is Kafka's wildcard principal: it matches every client, not one", p)
	case strings.Contains(name, "*"):
		return fmt.Errorf("%q holds a \"*\": Kafka principals have no patterns, name one principal exactly", p)
	case strings.TrimSpace(name) != name:
		return fmt.Errorf("%q has spaces around its name", p)
	case strings.ContainsFunc(name, unicode.IsControl):
		return fmt.Errorf("%q holds a control character", p)
	}
	return nil
}
