package cleanupplan

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// ID is the canonical plan ID: lowercase hex SHA-256 of
// "1\n" + source + "\n" + topic + "\n" + topicId + "\n" + "<p>=<o>\n"... with
// partitions in ascending numeric order. The Java tool derives the same
// string, so the same inputs give the same ID on both sides.
func (p Plan) ID() string {
	h := sha256.New()
	buf := make([]byte, 0, 64+len(p.SourceRecoveryPoint)+len(p.Topic)+len(p.TopicID)+24*len(p.Offsets))
	buf = strconv.AppendInt(buf, SchemaVersion, 10)
	buf = append(buf, '\n')
	buf = append(buf, p.SourceRecoveryPoint...)
	buf = append(buf, '\n')
	buf = append(buf, p.Topic...)
	buf = append(buf, '\n')
	buf = append(buf, p.TopicID...)
	buf = append(buf, '\n')
	for _, part := range p.Offsets.Partitions() {
		buf = strconv.AppendInt(buf, int64(part), 10)
		buf = append(buf, '=')
		buf = strconv.AppendInt(buf, p.Offsets[part], 10)
		buf = append(buf, '\n')
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil))
}

// IsPlanID reports whether s has the form of a plan ID: 64 lowercase hex
// digits.
func IsPlanID(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
