package cleanupplan

import "fmt"

// OffsetsFromKeys reads offsets keyed by partition text, as Terraform maps
// and the plan file's offsets object key them, under the plan file's rule
// for keys: the canonical decimal form of a partition number ("01", "+1",
// "1.0" and " 1" are refused). Offsets and partitions are otherwise left to
// New's validation.
func OffsetsFromKeys(byKey map[string]int64) (Offsets, error) {
	out := make(Offsets, len(byKey))
	for key, off := range byKey {
		part, ok := canonicalPartition(key)
		if !ok {
			return nil, malformed("offsets", fmt.Sprintf("key %q is not a canonical decimal partition number", key))
		}
		out[part] = off
	}
	return out, nil
}
