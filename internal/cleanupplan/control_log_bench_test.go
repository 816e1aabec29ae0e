package cleanupplan

import (
	"strconv"
	"testing"
)

// BenchmarkLogReplay measures the pure decoding and validation cost of a
// control log of n records (n/2 plans on 8 partitions, COMMITTED then
// APPLIED), without Kafka.
func BenchmarkLogReplay(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		type rec struct{ k, v []byte }
		recs := make([]rec, 0, n)
		for i := 0; i < n/2; i++ {
			offs := Offsets{}
			for p := int32(0); p < 8; p++ {
				offs[p] = int64(i)
			}
			plan := mustPlan(b, "file:/checkpoints/job/chk-"+strconv.Itoa(i), offs)
			for _, st := range []Status{StatusCommitted, StatusApplied} {
				k, v := EncodeRecord(st, plan)
				recs = append(recs, rec{k, v})
			}
		}
		b.Run(strconv.Itoa(n)+"-records", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var l Log
				for off, r := range recs {
					if err := l.Add(int64(off), r.k, r.v); err != nil {
						b.Fatal(err)
					}
				}
				if err := l.Validate(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
