package diagnostics

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
)

// requiredPermissionsHint points at where the whole set of ACLs is listed.
const requiredPermissionsHint = "data.flinkagents_required_permissions renders every ACL Terraform's principal and the Flink job's " +
	"principal need for a topic pair (guide: Required permissions)."

// missingPermission reports a request the broker refused for lack of the
// ACL need names: we are authenticated, and know which permission is
// missing.
func missingPermission(op string, need permissions.Need, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Missing Kafka Permission",
		detail(fmt.Sprintf("%s, the broker refused %s (the %s request) to the provider's principal", op, need, need.Request),
			fmt.Sprintf("Grant the principal %s on %s %q, then re-run; every operation of this provider converges when repeated. %s",
				need.GrantedByText(), need.ResourceType.Noun(), need.Name, requiredPermissionsHint), err))
}

// missingCleanupPermission is missingPermission for the cleanup core, which
// has already found the ACL to grant: where Kafka implies the refused
// operation from a broader one, the broader one the required permissions
// list (DELETE on the action-state topic, not the DESCRIBE it includes).
func missingCleanupPermission(op string, refused *cleanup.PermissionError, err error) diag.Diagnostic {
	grant := "Grant " + refused.Grant.String()
	if refused.Through != "" {
		grant += fmt.Sprintf(" (the %s; the broker refused %s, which %s includes)", refused.Through, refused.Refused.Operation, refused.Grant.Operation)
	}
	grant += " to the principal Terraform uses"
	return diag.NewErrorDiagnostic("Missing Kafka Permission For Cleanup",
		detail(op, grant+", then plan again. "+requiredPermissionsHint, err))
}

// InvalidMSKClusterARN refuses an msk_cluster_arn that names no single MSK
// cluster: one with IAM wildcards would grant on every cluster it matches.
func InvalidMSKClusterARN(attr path.Path, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Invalid MSK Cluster ARN",
		detail(fmt.Sprintf("rendering the MSK IAM policies, %s was refused", attr),
			fmt.Sprintf("Set %s to the ARN of one cluster, arn:aws:kafka:REGION:ACCOUNT:cluster/NAME/UUID "+
				"(aws_msk_cluster.<name>.arn, or `aws kafka list-clusters-v2`), without * or ?: the topic and transactional-ID ARNs "+
				"of the policies are built from its parts, and a wildcard would grant on every cluster it matches. Nothing was rendered.", attr), err))
}

// InvalidPrincipal refuses a principal that is not one concrete Kafka
// principal: "User:*" would give every Terraform ACL to every principal.
func InvalidPrincipal(attr path.Path, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Invalid Kafka Principal",
		detail(fmt.Sprintf("rendering the ACLs of a topic pair, %s was refused", attr),
			fmt.Sprintf("Set %s to the one principal that connects, in Kafka's form Type:name (User:terraform; on Confluent Cloud "+
				"User:sa-...), never a wildcard: these ACLs allow deleting records and topics, and \"User:*\" would grant that to "+
				"every client of the cluster. Nothing was rendered.", attr), err))
}

// RequiredPermissionsNotRendered reports inputs the permissions table
// cannot be rendered for (the schema's validators catch most before).
func RequiredPermissionsNotRendered(err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Required Permissions Not Rendered",
		detail("rendering the ACLs of a topic pair, the inputs were refused", "Fix the attribute the error names.", err))
}
