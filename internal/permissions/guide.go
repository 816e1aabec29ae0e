package permissions

import (
	"errors"
	"fmt"
	"strings"
)

// The markers around the part of the "Required permissions" guide template
// (templates/guides/required-permissions.md.tmpl) that UpdateGuide writes.
const (
	guideBegin = "<!-- BEGIN generated from internal/permissions by `go generate`; edit the table there, not here -->\n"
	guideEnd   = "<!-- END generated from internal/permissions -->\n"
)

// UpdateGuide returns the guide template text with its generated part
// replaced by the table as it is now.
func UpdateGuide(text string) (string, error) {
	before, rest, ok := strings.Cut(text, guideBegin)
	if !ok {
		return "", errors.New("the guide template has no BEGIN marker")
	}
	_, after, ok := strings.Cut(rest, guideEnd)
	if !ok {
		return "", errors.New("the guide template has no END marker")
	}
	return before + guideBegin + guideTables() + guideEnd + after, nil
}

// guideTables renders the table for people: per role, each ACL with what
// needs it; then how each maps to AWS MSK IAM actions.
func guideTables() string {
	var b strings.Builder
	for _, role := range []Role{Terraform, Job} {
		title := "Terraform's principal (`terraform_principal`)"
		if role == Job {
			title = "The Flink job's principal (`job_principal`)"
		}
		fmt.Fprintf(&b, "\n### %s\n\n| resource | operation | what needs it |\n|---|---|---|\n", title)
		for _, e := range table {
			if e.Role == role {
				fmt.Fprintf(&b, "| %s | `%s` | %s |\n", guideResource(e.Resource), e.Operation, e.Requests)
			}
		}
	}
	b.WriteString("\n### AWS MSK IAM actions\n\nWith IAM access control, each operation above becomes these actions on the resource's ARN " +
		"(with the actions AWS requires beside it), and every policy allows `kafka-cluster:Connect` on the cluster:\n\n" +
		"| resource | operation | IAM actions |\n|---|---|---|\n")
	seen := map[string]bool{}
	for _, e := range table {
		key := fmt.Sprint(e.Resource.Type(), e.Operation)
		if seen[key] {
			continue
		}
		seen[key] = true
		actions := mskActions[e.Resource.Type()][e.Operation]
		fmt.Fprintf(&b, "| %s | `%s` | `%s` |\n", e.Resource.Type().Noun(), e.Operation, strings.Join(actions, "`, `"))
	}
	b.WriteString("\nThe job's idempotent producer also needs `kafka-cluster:WriteDataIdempotently` on the cluster: " +
		"MSK IAM does not apply KIP-679, under which WRITE on a topic is enough.\n\n")
	return b.String()
}

func guideResource(r Resource) string {
	if r == CleanupTransactionalID {
		return "transactional ID `flinkagents-cleanup-<control topic>`"
	}
	return r.String()
}
