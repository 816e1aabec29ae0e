package cleanupplan_test

import (
	"errors"
	"fmt"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// The worked example of spec/cleanup-protocol.md: if one of these outputs
// changes, the spec's numbers are wrong and must be updated with it.

func specPlan(source string, offsets cleanupplan.Offsets) cleanupplan.Plan {
	p, err := cleanupplan.New(source, "orders-agent-action-state", "T777oZ3_S3770WxeCDOv8A", offsets)
	if err != nil {
		panic(err)
	}
	return p
}

func ExamplePlan_ID() {
	p := specPlan("s3://ckpt/orders-agent/chk-42", cleanupplan.Offsets{0: 1200, 1: 1105, 2: 1290})
	fmt.Println(p.ID())
	// Output:
	// cb46aded392f6ae672e1bac6936a720420ffca1ae5d683a6698a3e55185d501b
}

func ExamplePlan_File() {
	p := specPlan("s3://ckpt/orders-agent/chk-42", cleanupplan.Offsets{0: 1200, 1: 1105, 2: 1290})
	fmt.Print(string(p.File()))
	// Output:
	// {
	//   "schemaVersion" : 1,
	//   "planId" : "cb46aded392f6ae672e1bac6936a720420ffca1ae5d683a6698a3e55185d501b",
	//   "sourceRecoveryPoint" : "s3://ckpt/orders-agent/chk-42",
	//   "topic" : "orders-agent-action-state",
	//   "topicId" : "T777oZ3_S3770WxeCDOv8A",
	//   "offsets" : {
	//     "0" : 1200,
	//     "1" : 1105,
	//     "2" : 1290
	//   }
	// }
}

func ExampleEncodeRecord() {
	p := specPlan("s3://ckpt/orders-agent/chk-42", cleanupplan.Offsets{0: 1200, 1: 1105, 2: 1290})
	key, value := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, p)
	fmt.Printf("key:   %s\nvalue: %s\n", key, value)
	// Output:
	// key:   cb46aded392f6ae672e1bac6936a720420ffca1ae5d683a6698a3e55185d501b
	// value: {"schemaVersion":1,"status":"COMMITTED","plan":{"schemaVersion":1,"planId":"cb46aded392f6ae672e1bac6936a720420ffca1ae5d683a6698a3e55185d501b","sourceRecoveryPoint":"s3://ckpt/orders-agent/chk-42","topic":"orders-agent-action-state","topicId":"T777oZ3_S3770WxeCDOv8A","offsets":{"0":1200,"1":1105,"2":1290}}}
}

func ExampleLog() {
	chk42 := specPlan("s3://ckpt/orders-agent/chk-42", cleanupplan.Offsets{0: 1200, 1: 1105, 2: 1290})
	chk57 := specPlan("s3://ckpt/orders-agent/chk-57", cleanupplan.Offsets{0: 1450, 1: 1310, 2: 1290})
	crossing := specPlan("s3://ckpt/orders-agent/chk-50", cleanupplan.Offsets{0: 1500, 1: 1200, 2: 1290})

	var log cleanupplan.Log
	for i, rec := range []struct {
		st cleanupplan.Status
		p  cleanupplan.Plan
	}{
		{cleanupplan.StatusCommitted, chk42},
		{cleanupplan.StatusApplied, chk42},
		{cleanupplan.StatusCommitted, chk57},
	} {
		key, value := cleanupplan.EncodeRecord(rec.st, rec.p)
		if err := log.Add(int64(i), key, value); err != nil {
			panic(err)
		}
	}
	for _, op := range log.Operations() {
		fmt.Printf("offset %d: %s %s\n", op.Offset, op.PlanID, op.Status)
	}
	fmt.Println("boundary:", log.Boundary(), "valid:", log.Validate() == nil)

	// APPLIED going back to COMMITTED is refused.
	key, value := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, chk42)
	fmt.Println("chk-42 COMMITTED again:", errors.Is(log.Add(3, key, value), cleanupplan.ErrCorruptControlLog))
	// A tombstone is refused.
	fmt.Println("tombstone:", errors.Is(log.Add(3, key, nil), cleanupplan.ErrTombstone))
	// chk-50 is ahead of chk-57 on partition 0 and behind it on partition 1.
	key, value = cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, crossing)
	if err := log.Add(3, key, value); err != nil {
		panic(err)
	}
	fmt.Println("crossing plan:", errors.Is(log.Validate(), cleanupplan.ErrIncomparablePlans))
	fmt.Println("backward from the boundary:", errors.Is(chk42.AdvancesOrEquals(cleanupplan.Offsets{0: 1450, 1: 1310, 2: 1290}), cleanupplan.ErrBackwardMove))
	// Output:
	// offset 0: cb46aded392f6ae672e1bac6936a720420ffca1ae5d683a6698a3e55185d501b APPLIED
	// offset 2: 3e260e35e1055bbc9fe6bd33d40a309f086a3528a080e6e040f6a8769a60b689 COMMITTED
	// boundary: map[0:1450 1:1310 2:1290] valid: true
	// chk-42 COMMITTED again: true
	// tombstone: true
	// crossing plan: true
	// backward from the boundary: true
}
