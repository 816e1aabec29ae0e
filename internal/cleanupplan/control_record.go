package cleanupplan

import (
	"errors"
	"fmt"
	"strconv"
)

// Status of a plan in the control topic.
type Status string

const (
	// StatusCommitted: the boundary is durably recorded; deletion may be in
	// progress. The runtime already refuses restores below it.
	StatusCommitted Status = "COMMITTED"
	// StatusApplied: every partition's start offset is at or above the plan.
	StatusApplied Status = "APPLIED"
)

var recordFields = []string{"schemaVersion", "status", "plan"}

// Record is one decoded control-topic record.
type Record struct {
	Status Status
	Plan   Plan
	// PlanID is Plan.ID(), verified against the record key.
	PlanID string
}

// EncodeRecord returns the key (the plan ID) and the compact JSON value the
// Java tool writes: {"schemaVersion":1,"status":"...","plan":{...}}.
func EncodeRecord(status Status, p Plan) (key, value []byte) {
	value = make([]byte, 0, 256+24*len(p.Offsets))
	value = append(value, `{"schemaVersion":`...)
	value = strconv.AppendInt(value, SchemaVersion, 10)
	value = append(value, `,"status":`...)
	value = appendJacksonString(value, string(status))
	value = append(value, `,"plan":`...)
	value = p.appendJSON(value, false)
	value = append(value, '}')
	return []byte(p.ID()), value
}

// DecodeRecord strictly decodes a control record. A nil value is a tombstone
// and is always an error: boundaries cannot be deleted. A value above
// MaxPlanBytes plus the record's envelope is refused unread.
func DecodeRecord(key, value []byte) (Record, error) {
	if value == nil {
		return Record{}, fmt.Errorf("%w: record with key %q has a null value", ErrTombstone, key)
	}
	if err := checkSize("control record value", len(value), maxRecordBytes); err != nil {
		return Record{}, err
	}
	return decodeRecord(key, value)
}

// decodeRecord is DecodeRecord past the checks that need no parsing
// (benchmarks measure it above the size limit, to show that it is linear).
// A record with content after its object is refused, as the runtime refuses
// it (FAIL_ON_TRAILING_TOKENS); what the object holds is kept in the
// *TrailingContentError, so the operator learns which plan it records.
func decodeRecord(key, value []byte) (Record, error) {
	root, err := parseSingleObject(value, refuseBOM)
	if trailing, ok := errors.AsType[*TrailingContentError](err); ok {
		if rec, recErr := recordFromObject(key, root); recErr == nil {
			trailing.Record = &rec
		}
	}
	if err != nil {
		return Record{}, fmt.Errorf("%w: control record %q: %w", ErrMalformedPlan, key, err)
	}
	return recordFromObject(key, root)
}

// recordFromObject interprets a parsed control-record object.
func recordFromObject(key []byte, root jsonValue) (Record, error) {
	fields, err := exactFields(root, recordFields, "")
	if err != nil {
		return Record{}, err
	}
	if err := checkSchemaVersion(fields[0], "schemaVersion"); err != nil {
		return Record{}, err
	}
	st := fields[1]
	if st.kind != jsonString || (Status(st.text) != StatusCommitted && Status(st.text) != StatusApplied) {
		return Record{}, malformed("status", fmt.Sprintf("must be %q or %q", StatusCommitted, StatusApplied))
	}
	p, id, err := planFromObject(fields[2], "plan.")
	if err != nil {
		return Record{}, err
	}
	if string(key) != id {
		return Record{}, &KeyMismatchError{Key: key, PlanID: id}
	}
	return Record{Status: Status(st.text), Plan: p, PlanID: id}, nil
}
