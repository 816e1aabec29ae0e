package cleanupplan

import (
	"bytes"
	"encoding/json"
)

// IsControlRecord reports whether a record is one a control topic holds: a
// valid control record, a tombstone keyed by a plan ID (which readers
// refuse, but which only a control topic has), or a JSON object carrying a
// control record's three members that does not decode (a record of a newer
// schema, or a damaged one). A topic holding one is a control topic, and
// changing its settings to an action-state topic's would make the runtime
// refuse every restore of its job; so this errs toward yes.
func IsControlRecord(key, value []byte) bool {
	if value == nil {
		return IsPlanID(string(key))
	}
	if _, err := DecodeRecord(key, value); err == nil {
		return true
	}
	if !bytes.HasPrefix(bytes.TrimSpace(value), []byte("{")) {
		return false
	}
	var members map[string]json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(value)).Decode(&members); err != nil {
		return false
	}
	for _, name := range []string{"schemaVersion", "status", "plan"} {
		if _, ok := members[name]; !ok {
			return false
		}
	}
	return true
}
