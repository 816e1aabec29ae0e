package diagnostics

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// ControlTopicPairingNotLearned warns that an imported control topic's
// history could not say which action-state topic it serves.
func ControlTopicPairingNotLearned(name string, err error) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Control Topic Pairing Not Learned",
		detail(fmt.Sprintf("importing cleanup control topic %q, its recorded plans could not be read, so action_state_topic was not learned from them", name),
			"The topic is imported. If the configuration sets action_state_topic, the next plan shows it as an in-place change that only "+
				"records it in state. No boundary can be applied on this control topic until its history is readable: "+
				"the flinkagents_cleanup_boundary resource and data source report what is wrong and where.", err))
}

// ImportedTopicNotFound refuses importing a topic Kafka does not list.
func ImportedTopicNotFound(label, name string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic(titleCase(label)+" Not Found",
		detail(fmt.Sprintf("importing %s %q, Kafka answered that no topic of that name exists", label, name),
			"Nothing was imported. Check the name and the provider's bootstrap_servers. A topic created a moment ago may "+
				"not be known to every broker yet: run the import again.", err))
}
