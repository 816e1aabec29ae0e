package diagnostics

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// ListNoDescribe reports a listing that found nothing because the
// principal may not describe topics: Kafka leaves every topic the
// principal may not describe out of the answer, so without this the
// operator would see an empty cluster.
func ListNoDescribe(listing, prefix string, err error) diag.Diagnostic {
	pattern := `--resource-pattern-type literal --topic '*'`
	if prefix != "" {
		pattern = fmt.Sprintf("--resource-pattern-type prefixed --topic %q", prefix)
	}
	return diag.NewErrorDiagnostic("Missing Kafka Permission",
		detail(fmt.Sprintf("listing %s, Kafka listed no topic at all, and refused to describe one by name", listing),
			fmt.Sprintf("The provider's principal may not DESCRIBE the cluster's topics, so Kafka leaves each of them out of its answer "+
				"instead of refusing it. Grant the principal DESCRIBE on the topics to adopt (kafka-acls.sh --add --allow-principal <principal> "+
				"--operation Describe --operation DescribeConfigs --operation Read %s; Read lets the listing tell control topics by their records), "+
				"then run terraform query again. Nothing was listed or changed. %s", pattern, requiredPermissionsHint), err))
}

// ListTopicNotRead warns that one listed topic could not be read in full:
// it is listed all the same, from what Kafka's metadata gave.
func ListTopicNotRead(label, name string, err error) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Topic Not Read In Full",
		detail(fmt.Sprintf("listing %s %q", label, name),
			"The topic is listed from its metadata alone (partitions, replication factor); its settings or its first record could not be read. "+
				"Importing it reads it again: fix what the error names first (usually a missing DESCRIBE_CONFIGS or READ ACL).", err))
}

// InvalidNameRegex refuses a list block's name_regex that is not a Go
// regular expression.
func InvalidNameRegex(attr path.Path, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Invalid Regular Expression",
		detail(fmt.Sprintf("reading %s", attr),
			"Give a regular expression in Go's RE2 syntax (https://golang.org/s/re2syntax), for example \"-action-state$\"; "+
				"it matches anywhere in a topic's name unless anchored with ^ and $. Nothing was listed.", err))
}
