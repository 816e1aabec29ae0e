package cleanupplan

import "fmt"

// MaxPlanBytes bounds a plan file or plan_json, checked before parsing.
//
// 4 MiB: a plan takes at most 40 bytes per partition in its largest (pretty)
// form, so the limit holds a plan of over 100,000 partitions, more than any
// Kafka topic has (the runtime creates 64; Kafka's own guidance is a few
// thousand partitions per broker). It is also four times what a control
// topic with Kafka's default max.message.bytes (1 MiB per uncompressed
// batch, as both tools write) can hold, so no record the Java tool can write
// there is refused. Parsing is linear, and 4 MiB takes tens of
// milliseconds; the bound keeps a hostile plan or record from costing more
// time or memory than that.
const MaxPlanBytes = 4 << 20

// recordEnvelopeBytes is what a control record adds around its compact plan,
// with the longer of the two statuses.
const recordEnvelopeBytes = len(`{"schemaVersion":1,"status":"COMMITTED","plan":}`)

// maxRecordBytes bounds a control record's value, checked before parsing.
// The compact plan inside a record is never longer than the plan_json it was
// parsed from, so with room for the envelope every plan accepted as
// plan_json can be recorded and read back.
const maxRecordBytes = MaxPlanBytes + recordEnvelopeBytes

// checkSize refuses input of n bytes above limit without reading it.
func checkSize(what string, n, limit int) error {
	if n <= limit {
		return nil
	}
	return malformed(what, fmt.Sprintf("is %d bytes, more than the limit of %d bytes; it was refused unread. "+
		"A plan takes at most 40 bytes per partition, so the limit holds over 100,000 partitions: this is not a cleanup plan", n, limit))
}
