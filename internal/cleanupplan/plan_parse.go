package cleanupplan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// planFields is the exact field set of a plan object, in file order.
var planFields = []string{"schemaVersion", "planId", "sourceRecoveryPoint", "topic", "topicId", "offsets"}

// Parse strictly parses a plan file (or any JSON text holding exactly one
// plan object). It enforces every rule of the spec: exactly the six fields,
// no duplicate keys, JSON strings and integral numbers where required,
// canonical decimal partition keys, and a planId that matches the contents.
// Input above MaxPlanBytes is refused unread. A leading UTF-8 byte-order
// mark is skipped, as the Java tool's Jackson skips it.
func Parse(data []byte) (Plan, error) {
	if err := checkSize("plan", len(data), MaxPlanBytes); err != nil {
		return Plan{}, err
	}
	return parsePlan(data)
}

// parsePlan is Parse past the size check (benchmarks measure it above the
// limit, to show that parsing is linear).
func parsePlan(data []byte) (Plan, error) {
	root, err := parseSingleObject(data, skipBOM)
	if err != nil {
		return Plan{}, fmt.Errorf("%w: %w", ErrMalformedPlan, err)
	}
	p, _, err := planFromObject(root, "")
	return p, err
}

// planFromObject interprets a parsed plan object and returns it with its
// verified ID; where prefixes field names in errors ("plan." inside a
// control record).
func planFromObject(obj jsonValue, where string) (Plan, string, error) {
	fields, err := exactFields(obj, planFields, where)
	if err != nil {
		return Plan{}, "", err
	}
	if err := checkSchemaVersion(fields[0], where+"schemaVersion"); err != nil {
		return Plan{}, "", err
	}
	var str [4]string
	for i, v := range fields[1:5] {
		if v.kind != jsonString {
			return Plan{}, "", malformed(where+planFields[i+1], "must be a JSON string, got "+v.kind.String())
		}
		str[i] = v.text
	}
	offsets, err := offsetsFromObject(fields[5], where+"offsets")
	if err != nil {
		return Plan{}, "", err
	}
	p := Plan{SourceRecoveryPoint: str[1], Topic: str[2], TopicID: str[3], Offsets: offsets}
	if err := p.validate(); err != nil {
		return Plan{}, "", err
	}
	id := p.ID()
	if id != str[0] {
		return Plan{}, "", malformed(where+"planId", fmt.Sprintf("%q does not match the plan's contents (expected %s); the file was edited or corrupted", str[0], id))
	}
	return p, id, nil
}

// exactFields requires obj to be an object with exactly the named fields
// (any order, as Jackson's tree model does not care) and returns their
// values in the order of names. Duplicates were refused by the reader.
func exactFields(obj jsonValue, names []string, where string) ([]jsonValue, error) {
	if obj.kind != jsonObject {
		return nil, malformed(whereOr(where), "must be a JSON object")
	}
	out := make([]jsonValue, len(names))
	found := 0
	for _, m := range obj.members {
		i := slices.Index(names, m.key)
		if i < 0 {
			return nil, malformed(where+m.key, "is not a field of this object (expected exactly "+fmt.Sprint(names)+")")
		}
		out[i] = m.val
		found++
	}
	if found != len(names) {
		for _, n := range names {
			if !slices.ContainsFunc(obj.members, func(m jsonMember) bool { return m.key == n }) {
				return nil, malformed(where+n, "is missing")
			}
		}
	}
	return out, nil
}

func whereOr(where string) string {
	if where == "" {
		return "plan"
	}
	return where[:len(where)-1]
}

func checkSchemaVersion(v jsonValue, field string) error {
	n, err := integral(v, field)
	if err != nil {
		return err
	}
	if n != SchemaVersion {
		return malformed(field, fmt.Sprintf("is %d; only schema version %d is supported", n, SchemaVersion))
	}
	return nil
}

// integral accepts a JSON integer literal within int64: "1.0" or "1e3" are
// floating-point nodes to Jackson and are refused.
func integral(v jsonValue, field string) (int64, error) {
	if v.kind != jsonNumber {
		return 0, malformed(field, "must be an integer, got "+v.kind.String())
	}
	n, err := strconv.ParseInt(v.text, 10, 64)
	if err != nil {
		return 0, malformed(field, fmt.Sprintf("%s is not an integer within int64", v.text))
	}
	return n, nil
}

func offsetsFromObject(v jsonValue, field string) (Offsets, error) {
	if v.kind != jsonObject {
		return nil, malformed(field, "must be a JSON object of partition to offset")
	}
	out := make(Offsets, len(v.members))
	for _, m := range v.members {
		part, ok := canonicalPartition(m.key)
		if !ok {
			return nil, malformed(field, fmt.Sprintf("key %q is not a canonical decimal partition number", m.key))
		}
		off, ok := parseInt64(m.val)
		if !ok {
			// Build the field name only on the error path: this loop runs
			// for every partition of every record of a control log.
			_, err := integral(m.val, field+"["+m.key+"]")
			return nil, err
		}
		out[part] = off
	}
	return out, nil
}

// parseInt64 is integral without building an error.
func parseInt64(v jsonValue) (int64, bool) {
	if v.kind != jsonNumber {
		return 0, false
	}
	n, err := strconv.ParseInt(v.text, 10, 64)
	return n, err == nil
}

// canonicalPartition accepts exactly the text strconv would print for an
// int32: no sign other than '-', no leading zeros ("-0" included), no
// fraction.
func canonicalPartition(s string) (int32, bool) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || (digits[0] == '0' && (len(digits) > 1 || len(s) > 1)) {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, false
	}
	return int32(n), true
}
