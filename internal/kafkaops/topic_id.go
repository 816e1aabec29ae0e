package kafkaops

import "encoding/base64"

// TopicID is a Kafka topic ID. Its String form is Kafka's Java
// Uuid.toString(): URL-safe base64 without padding (22 characters). Plans,
// control records and comparisons use this form only; kadm.TopicID.String()
// (standard alphabet, "==" padding) must never reach them.
type TopicID [16]byte

// String returns the Java form.
func (id TopicID) String() string { return base64.RawURLEncoding.EncodeToString(id[:]) }

// IsZero reports whether id is Uuid.ZERO_UUID (a broker without topic IDs).
func (id TopicID) IsZero() bool { return id == TopicID{} }
