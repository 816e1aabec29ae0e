package diagnostics

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// FleetEntryProtected refuses, at plan time, removing an operator's entry
// (or its control topic) from flinkagents_action_state_topics while the
// fleet's deletion_protection is on: removing it deletes its topics.
func FleetEntryProtected(attr path.Path, key, what string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, fmt.Sprintf("Operator %q: Deletion Protection Is On", key),
		detail(fmt.Sprintf("planning, Terraform would delete %s of operator %q", what, key),
			"Removing an entry (or its control_topic) deletes its topics, and with them data the Flink Agents runtime needs to restore "+
				"without re-running actions, or the recorded cleanup boundaries. If that is really intended: set deletion_protection = false, "+
				"run terraform apply, then remove the entry. To stop managing the topics without deleting them, remove the whole resource with "+
				"a removed block (lifecycle { destroy = false }) and import the fleet again without the entry. If Terraform says the resource "+
				"is tainted (a first apply that failed part way), run terraform untaint on it: its topics are in state and nothing needs replacing.", nil))
}

// FleetTopicRenamed refuses renaming a topic of an existing entry: a new
// name is a new topic, and the old one, with every action's state, would
// be deleted.
func FleetTopicRenamed(attr path.Path, key, what, from, to string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, fmt.Sprintf("Operator %q: Topic Name Cannot Change", key),
		detail(fmt.Sprintf("planning operator %q, the name of its %s would change from %q to %q", key, what, from, to),
			"Kafka cannot rename a topic: a new name is a new, empty topic, and the old one holds the action state or the boundaries a "+
				"restore needs. The provider never replaces a topic. Set the name back; to move the operator to a new topic, add it under a "+
				"new key and migrate the job, then remove the old entry (with deletion_protection = false).", nil))
}

// FleetTopicNamedTwice refuses a topic name that two places of the fleet
// give: one topic cannot be two operators' (or both kinds).
func FleetTopicNamedTwice(attr path.Path, name, first, second string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Topic Named Twice",
		detail(fmt.Sprintf("validating flinkagents_action_state_topics, topic %q is both %s and %s", name, first, second),
			"Each topic belongs to one operator and is either its action-state topic or its control topic: a control topic that is also an "+
				"action-state topic would be compacted and retention-managed at once, and two operators sharing a topic overwrite each "+
				"other's state. Give each a topic of its own.", nil))
}

// InvalidFleetImportID refuses an import ID of flinkagents_action_state_topics.
func InvalidFleetImportID(id string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Invalid Import ID",
		detail(fmt.Sprintf("importing flinkagents_action_state_topics with ID %q", id),
			"Give each operator as key=action_state_topic or key=action_state_topic:control_topic, separated by commas, for example "+
				"\"orders=agents-orders:agents-orders-control,payments=agents-payments:agents-payments-control\". Nothing was imported.", err))
}

// FleetProtectedAtDelete refuses, at apply time, deleting a protected
// fleet. The usual way here past the plan's refusal is a replacement
// Terraform plans by itself: the resource is tainted because its first
// apply failed part way, and the topics that apply created are in state.
func FleetProtectedAtDelete(operators int) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Deletion Protection Is On",
		detail(fmt.Sprintf("deleting flinkagents_action_state_topics, which holds %d operators' topics: its state has deletion_protection = true, so nothing was deleted", operators),
			"If Terraform planned to replace the resource because it is tainted (\"is tainted, so must be replaced\": its first apply failed "+
				"part way), nothing needs replacing: the topics that apply created are in its state. Run terraform untaint "+
				"flinkagents_action_state_topics.<name>, then terraform apply creates what is still missing. Do not turn deletion_protection off "+
				"for this: the replacement would delete those topics. If destroying the topics is really intended: set deletion_protection = false, "+
				"run terraform apply, then destroy.", nil))
}

// FleetTopicsExist refuses, at plan time, a new flinkagents_action_state_topics
// whose topics exist already: managed by the single-topic resources or an
// earlier version of a module, or created by the runtime. Creating them
// would fail; importing the fleet adopts them, nothing created or deleted.
func FleetTopicsExist(taken []string, importID string) diag.Diagnostic {
	shown := taken
	if len(shown) > 5 {
		shown = shown[:5]
	}
	more := ""
	if len(taken) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(taken)-len(shown))
	}
	return diag.NewErrorDiagnostic("Fleet Topics Exist Already",
		detail(fmt.Sprintf("planning a new flinkagents_action_state_topics, %d of the topics it would create exist already (%s%s)",
			len(taken), strings.Join(shown, ", "), more),
			fmt.Sprintf("The provider never takes over a topic it did not create or import, and creating these would fail. "+
				"If they are this fleet's topics (managed until now by flinkagents_action_state_topic and flinkagents_cleanup_control_topic, "+
				"or by an earlier version of a module, whose old resources a removed block lets go of), import the fleet: add to the root "+
				"module\n\n  import {\n    to = <this resource's address>\n    id = %q\n  }\n\nand plan again: the plan then imports "+
				"every topic and shows only the settings the provider enforces. If instead Terraform says the resource \"is tainted, so must "+
				"be replaced\" (its first apply failed part way), the topics it created are in its state and nothing needs replacing: run "+
				"terraform untaint on it and apply again. If this fleet was in your state until a run was killed (with local state, Terraform "+
				"empties terraform.tfstate before writing it, so a run killed then leaves it empty), rather than importing, copy terraform.tfstate.backup "+
				"over terraform.tfstate and plan again. Nothing was created or changed.", importID), nil))
}

// FleetTopicTaken warns, at plan time, that a topic an existing fleet is
// to create exists already: that entry is held (the apply does not create,
// adopt or write the topic, and names it again as an error) and the other
// operators are applied. A warning, not an error, because Terraform plans
// again when it applies: a name taken between plan and apply must hold
// the one entry, not refuse the whole fleet's apply.
func FleetTopicTaken(attr path.Path, key, label, name string) diag.Diagnostic {
	return diag.NewAttributeWarningDiagnostic(attr, fmt.Sprintf("Operator %q: Topic Already Exists, Entry Held", key),
		fmt.Sprintf("Planning operator %q, its %s %q is to be created, but a topic of that name exists and is not in Terraform state. "+
			"The provider never takes over a topic it did not create or import, so the apply holds this operator: it creates nothing "+
			"for it, leaves the existing topic as it is, and reports it as an error; the other operators are applied and saved.\n\n"+
			"If the topic is a leftover, delete it and apply again. If it holds this operator's state, adopt it: remove "+
			"flinkagents_action_state_topics from state (a removed block with lifecycle { destroy = false }, or terraform state rm) "+
			"and import it again with an import block whose id lists every operator, this one included "+
			"(\"key=action_state_topic:control_topic,...\").", key, label, name))
}
