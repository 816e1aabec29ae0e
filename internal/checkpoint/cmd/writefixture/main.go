// Command writefixture writes savepoints with checkpoint.WriteSavepoint and
// compares what Flink's State Processor API reads from them (the oracle
// JSON printed by fixturegen/flink/read.sh) with what was written. It is the
// Go half of scripts/check-writer-with-flink.sh.
//
//	writefixture write -version 4|5 -variant NAME -out DIR
//	    writes DIR/savepoint/ and DIR/expected.json (same shape as the oracle)
//	    and prints the operator's uid
//	writefixture compare -flink-line LINE EXPECTED ORACLE
//	    exits 1 unless ORACLE came from Flink LINE, names the operator written,
//	    and holds exactly the expected markers (as a multiset)
//	writefixture variants
//	    prints the variant names
package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

const operatorUID = "action-execute-operator-uid"

// variant is one savepoint layout to prove against Flink.
type variant struct {
	name string
	spec func(version int) checkpoint.SavepointSpec
}

var variants = []variant{
	{"inline", inlineSpec},
	{"files-compressed", filesCompressedSpec},
}

// inlineSpec exercises the marker encoding: several markers per subtask, a
// subtask without state, the legacy map element, strings in every Kryo
// string form (empty, short ASCII, ASCII longer than Kryo 5's 32 and Kryo
// 2's 63 character limits, non-ASCII) and offsets needing every varint
// length.
func inlineSpec(version int) checkpoint.SavepointSpec {
	return checkpoint.SavepointSpec{
		MetadataVersion: version, CheckpointID: 7, OperatorUID: operatorUID, OperatorName: "action-execute-operator",
		Markers: [][]checkpoint.Marker{
			{{SchemaVersion: 1, Topic: "orders-agent-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg",
				Offsets: map[int32]int64{0: 100, 1: 200, 2: 0}}},
			{
				{SchemaVersion: 1, Topic: strings.Repeat("long-topic-name.", 5), TopicID: "AAAAAAAAAAAAAAAAAAAAAA",
					Offsets: map[int32]int64{0: 1234567890123, 1000: 1 << 62, 7: 127, 8: 128, 9: 16384}},
				{Legacy: true, Offsets: map[int32]int64{0: 7, 3: 150}},
				{SchemaVersion: 2, Topic: "tópico-ü-€", TopicID: "", Offsets: map[int32]int64{}},
			},
			nil,
			{{Legacy: true, Offsets: map[int32]int64{}}},
		},
	}
}

// filesCompressedSpec exercises the stream layout: state files next to
// _metadata behind relative handles and snappy-framed elements, one of them
// larger than a 64 KiB snappy block.
func filesCompressedSpec(version int) checkpoint.SavepointSpec {
	wide := make(map[int32]int64, 12000)
	for p := int32(0); p < 12000; p++ {
		wide[p] = int64(p) * 1000003
	}
	markers := make([][]checkpoint.Marker, 2)
	for i := range markers {
		markers[i] = []checkpoint.Marker{
			{SchemaVersion: 1, Topic: "orders-agent-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg",
				Offsets: map[int32]int64{0: int64(100 + i), 1: int64(200 + i)}},
		}
	}
	markers[1] = append(markers[1], checkpoint.Marker{SchemaVersion: 1, Topic: "wide", TopicID: "w1Yw3mZ7QGu3c8m0b7o5Zg", Offsets: wide})
	return checkpoint.SavepointSpec{
		MetadataVersion: version, CheckpointID: 8, OperatorUID: operatorUID, OperatorName: "action-execute-operator",
		Markers: markers, StateFiles: true, SnapshotCompression: true,
	}
}

// oracle is the JSON read.sh prints; expected.json uses the same shape.
type oracle struct {
	FlinkVersion    string         `json:"flinkVersion,omitempty"`
	OperatorUID     string         `json:"operatorUid"`
	OperatorUIDHash string         `json:"operatorUidHash"`
	Markers         []oracleMarker `json:"markers"`
}

type oracleMarker struct {
	Legacy        bool             `json:"legacy"`
	SchemaVersion int32            `json:"schemaVersion,omitempty"`
	Topic         string           `json:"topic,omitempty"`
	TopicID       string           `json:"topicId,omitempty"`
	Offsets       map[string]int64 `json:"offsets"`
}

// key renders a marker canonically, so marker lists compare as multisets.
func (m oracleMarker) key() string {
	parts := make([]string, 0, len(m.Offsets))
	for p, o := range m.Offsets {
		parts = append(parts, p+"="+strconv.FormatInt(o, 10))
	}
	sort.Strings(parts)
	offsets := "{" + strings.Join(parts, ",") + "}"
	if m.Legacy {
		return "legacy " + offsets
	}
	return fmt.Sprintf("v%d topic=%q topicId=%q %s", m.SchemaVersion, m.Topic, m.TopicID, offsets)
}

// shorten keeps messages about markers with thousands of partitions readable.
func shorten(key string) string {
	if len(key) <= 300 {
		return key
	}
	return fmt.Sprintf("%s... (%d bytes)", key[:300], len(key))
}

func toOracle(m checkpoint.Marker) oracleMarker {
	o := oracleMarker{Legacy: m.Legacy, Offsets: make(map[string]int64, len(m.Offsets))}
	if !m.Legacy {
		o.SchemaVersion, o.Topic, o.TopicID = m.SchemaVersion, m.Topic, m.TopicID
	}
	for p, off := range m.Offsets {
		o.Offsets[strconv.Itoa(int(p))] = off
	}
	return o
}

func write(args []string) error {
	fs := flag.NewFlagSet("write", flag.ContinueOnError)
	version := fs.Int("version", 0, "metadata version: 4 (Flink 1.20) or 5 (Flink 2.0)")
	name := fs.String("variant", "", "savepoint variant (see 'writefixture variants')")
	out := fs.String("out", "", "output directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("write: -out is required")
	}
	var v *variant
	for i := range variants {
		if variants[i].name == *name {
			v = &variants[i]
		}
	}
	if v == nil {
		return fmt.Errorf("write: unknown variant %q", *name)
	}
	spec := v.spec(*version)
	if err := checkpoint.WriteSavepoint(filepath.Join(*out, "savepoint"), spec); err != nil {
		return err
	}
	id := checkpoint.OperatorIDFromUID(spec.OperatorUID)
	exp := oracle{OperatorUID: spec.OperatorUID, OperatorUIDHash: hex.EncodeToString(id[:]), Markers: []oracleMarker{}}
	for _, sub := range spec.Markers {
		for _, m := range sub {
			exp.Markers = append(exp.Markers, toOracle(m))
		}
	}
	b, err := json.MarshalIndent(exp, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "expected.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Println(spec.OperatorUID)
	return nil
}

func readOracle(path string) (*oracle, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var o oracle
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &o, nil
}

func compare(args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	line := fs.String("flink-line", "", "Flink line the oracle must come from, e.g. 1.20")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 || *line == "" {
		return errors.New("compare: want -flink-line LINE EXPECTED ORACLE")
	}
	exp, err := readOracle(fs.Arg(0))
	if err != nil {
		return err
	}
	got, err := readOracle(fs.Arg(1))
	if err != nil {
		return err
	}
	var problems []string
	if !strings.HasPrefix(got.FlinkVersion, *line+".") && got.FlinkVersion != *line {
		problems = append(problems, fmt.Sprintf("oracle comes from Flink %q, want line %s", got.FlinkVersion, *line))
	}
	if !strings.EqualFold(got.OperatorUIDHash, exp.OperatorUIDHash) {
		problems = append(problems, fmt.Sprintf("Flink read operator %s, written %s", got.OperatorUIDHash, exp.OperatorUIDHash))
	}
	counts := map[string]int{}
	for _, m := range exp.Markers {
		counts[m.key()]++
	}
	for _, m := range got.Markers {
		counts[m.key()]--
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch n := counts[k]; {
		case n > 0:
			problems = append(problems, fmt.Sprintf("written but not read by Flink (x%d): %s", n, shorten(k)))
		case n < 0:
			problems = append(problems, fmt.Sprintf("read by Flink but not written (x%d): %s", -n, shorten(k)))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s vs %s:\n  %s", fs.Arg(0), fs.Arg(1), strings.Join(problems, "\n  "))
	}
	fmt.Printf("OK: Flink %s read all %d markers written (operator %s)\n", got.FlinkVersion, len(exp.Markers), got.OperatorUIDHash)
	return nil
}

func main() {
	var err error
	switch {
	case len(os.Args) >= 2 && os.Args[1] == "write":
		err = write(os.Args[2:])
	case len(os.Args) >= 2 && os.Args[1] == "compare":
		err = compare(os.Args[2:])
	case len(os.Args) == 2 && os.Args[1] == "variants":
		for _, v := range variants {
			fmt.Println(v.name)
		}
	default:
		err = errors.New("usage: writefixture write|compare|variants (see package doc)")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "writefixture:", err)
		os.Exit(1)
	}
}
