package soak

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/soak/invariant"
)

// operatorUID is the agent operator's uid in every job's checkpoints, the
// module's default operator_uid.
const operatorUID = "action-execute-operator"

// point is a recovery point a job wrote and still retains.
type point struct {
	path    string   // s3://bucket/dir/chk-N, as the provider lists it
	dir     string   // its key prefix in the bucket
	files   []string // its keys, _metadata last
	topicID string
	markers []map[int32]int64
	damaged string
	expires int // savepoints: the night the team deletes it
}

// plan is the point's plan offsets: per partition, the lowest marker.
func (p *point) plan() map[int32]int64 {
	out := map[int32]int64{}
	for _, m := range p.markers {
		for part, off := range m {
			if cur, ok := out[part]; !ok || off < cur {
				out[part] = off
			}
		}
	}
	return out
}

// job is one operator's Flink job, as the soak plays it: it writes action
// state, completes checkpoints with recovery markers, retires old ones as
// state.checkpoints.num-retained says, and sometimes takes or copies a
// savepoint.
type job struct {
	index       int
	key         string
	topic       string
	control     string
	partitions  int32
	joins       int  // night it joins the fleet's configuration
	running     bool // its topics exist and it writes
	epoch       int
	jobID       string
	topicID     string
	end         []int64
	pos         []int64
	nextChk     int64
	retain      int
	parallelism int
	stateFiles  bool
	metadataV   int
	takesSaves  bool
	// savepointDirSet: the team names its savepoint directory in the
	// configuration once it holds a savepoint (on S3 a directory exists
	// only while it holds objects), and keeps its newest savepoint.
	savepointDirSet bool
	checkpoints     []*point // oldest first
	savepoints      []*point
	stoppedUntil    int // a job that stopped checkpointing for a while
}

func newJob(i int, partitions int32, seed uint64) *job {
	r := rand.New(rand.NewPCG(seed, 1000+uint64(i)))
	key := operatorName(i)
	return &job{index: i, key: key, topic: "soak-" + key + "-action-state", control: "soak-" + key + "-cleanup-control",
		partitions: partitions, jobID: hexID(r), retain: 1 + r.IntN(3), parallelism: 1 + r.IntN(3),
		stateFiles: r.Float64() < 0.3, metadataV: 4 + r.IntN(2), takesSaves: r.Float64() < 0.4, nextChk: 1}
}

func operatorName(i int) string { return fmt.Sprintf("agent-%02d", i) }

func hexID(r *rand.Rand) string { return fmt.Sprintf("%016x%016x", r.Uint64(), r.Uint64()) }

func (j *job) checkpointDir(s store) string { return s.uri("checkpoints/" + j.jobID) }
func (j *job) savepointDir(s store) string  { return s.uri("savepoints/" + j.key) }

// start makes the job run against its topic (new or recreated): it
// produces from offset 0 with a new record epoch.
func (j *job) start(topicID string) {
	j.running, j.topicID = true, topicID
	j.end, j.pos = make([]int64, j.partitions), make([]int64, j.partitions)
}

// night advances the job through one day: records into every partition
// (some idle), then one to three checkpoints, each retiring what falls out
// of the retained window, and the team's savepoint routine.
func (j *job) night(ctx context.Context, n int, seed uint64, cl *kgo.Client, st store, tmp string) error {
	if !j.running {
		return nil
	}
	r := rand.New(rand.NewPCG(seed, uint64(n)<<32|uint64(j.index)))
	if j.stoppedUntil < n && r.Float64() < 0.03 {
		j.stoppedUntil = n + 1 + r.IntN(3) // the job is down for a few nights: no records, no checkpoints
	}
	if j.stoppedUntil >= n {
		return nil
	}
	if err := j.produce(ctx, r, cl); err != nil {
		return err
	}
	for range 1 + r.IntN(3) {
		if err := j.checkpoint(ctx, r, st, tmp); err != nil {
			return err
		}
	}
	return j.savepointRoutine(ctx, n, r, st, tmp)
}

func (j *job) produce(ctx context.Context, r *rand.Rand, cl *kgo.Client) error {
	var recs []*kgo.Record
	for p := range j.partitions {
		if r.Float64() < 0.15 {
			continue // an idle partition
		}
		for i := range int64(r.IntN(40)) {
			off := j.end[p] + i
			recs = append(recs, &kgo.Record{Topic: j.topic, Partition: p, Key: fmt.Appendf(nil, "e%d-p%d-n%d", j.epoch, p, off),
				Value: fmt.Appendf(nil, "action state of %s, night record %d", j.key, off)})
		}
	}
	results := cl.ProduceSync(ctx, recs...)
	if err := results.FirstErr(); err != nil {
		return fmt.Errorf("%s: producing: %w", j.key, err)
	}
	for _, res := range results {
		want := j.end[res.Record.Partition]
		if res.Record.Offset != want {
			return fmt.Errorf("%s: record for offset %d of partition %d landed at %d", j.key, want, res.Record.Partition, res.Record.Offset)
		}
		j.end[res.Record.Partition]++
	}
	return nil
}

// checkpoint completes chk-N: subtask markers at or above the last
// checkpoint's and at most the end of each partition, then retires what
// num-retained no longer keeps (state files first, _metadata last, as
// Flink discards).
func (j *job) checkpoint(ctx context.Context, r *rand.Rand, st store, tmp string) error {
	markers := make([]map[int32]int64, j.parallelism)
	for p := range j.partitions {
		j.pos[p] += r.Int64N(j.end[p] - j.pos[p] + 1)
	}
	for s := range markers {
		markers[s] = map[int32]int64{}
		for p := range j.partitions {
			off := j.pos[p]
			if s > 0 {
				off += r.Int64N(j.end[p] - j.pos[p] + 1)
			}
			markers[s][p] = off
		}
	}
	dir := fmt.Sprintf("checkpoints/%s/chk-%d", j.jobID, j.nextChk)
	pt, err := j.write(ctx, st, tmp, dir, j.nextChk, markers)
	if err != nil {
		return err
	}
	j.nextChk++
	j.checkpoints = append(j.checkpoints, pt)
	for len(j.checkpoints) > j.retain {
		if err := retire(ctx, st, j.checkpoints[0]); err != nil {
			return err
		}
		j.checkpoints = j.checkpoints[1:]
	}
	return nil
}

// savepointRoutine: a team that keeps savepoints takes one now and then,
// sometimes copies one (cp -r: new file times, old markers), and deletes
// those past their time.
func (j *job) savepointRoutine(ctx context.Context, n int, r *rand.Rand, st store, tmp string) error {
	if !j.takesSaves {
		return nil
	}
	if r.Float64() < 0.3 && len(j.checkpoints) > 0 {
		last := j.checkpoints[len(j.checkpoints)-1]
		dir := fmt.Sprintf("savepoints/%s/savepoint-%s-%012x", j.key, j.jobID[:6], r.Uint64()>>16)
		pt, err := j.write(ctx, st, tmp, dir, j.nextChk-1, last.markers)
		if err != nil {
			return err
		}
		pt.expires = n + 2 + r.IntN(5)
		j.savepoints = append(j.savepoints, pt)
		j.savepointDirSet = true
	}
	if r.Float64() < 0.15 && len(j.savepoints) > 0 {
		src := j.savepoints[r.IntN(len(j.savepoints))]
		if src.damaged == "" {
			cp, err := copyPoint(ctx, st, src, fmt.Sprintf("savepoints/%s/savepoint-%s-%012x", j.key, j.jobID[:6], r.Uint64()>>16))
			if err != nil {
				return err
			}
			cp.expires = n + 1 + r.IntN(4)
			j.savepoints = append(j.savepoints, cp)
		}
	}
	kept := j.savepoints[:0]
	for i, sp := range j.savepoints {
		if sp.expires <= n && i < len(j.savepoints)-1 {
			if err := retire(ctx, st, sp); err != nil {
				return err
			}
			continue
		}
		kept = append(kept, sp)
	}
	j.savepoints = kept
	return nil
}

// write lays out a point with the checkpoint writer and uploads it.
func (j *job) write(ctx context.Context, st store, tmp, dir string, id int64, markers []map[int32]int64) (*point, error) {
	local, err := os.MkdirTemp(tmp, "point-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(local)
	subtasks := make([][]checkpoint.Marker, len(markers))
	for s, m := range markers {
		subtasks[s] = []checkpoint.Marker{{SchemaVersion: 1, Topic: j.topic, TopicID: j.topicID, Offsets: m}}
	}
	if err := checkpoint.WriteSavepoint(local, checkpoint.SavepointSpec{MetadataVersion: j.metadataV, CheckpointID: id,
		OperatorUID: operatorUID, OperatorName: operatorUID, Markers: subtasks, StateFiles: j.stateFiles}); err != nil {
		return nil, err
	}
	pt := &point{path: st.uri(dir), dir: dir, topicID: j.topicID, markers: markers}
	entries, err := os.ReadDir(local)
	if err != nil {
		return nil, err
	}
	// _metadata last: Flink writes it when the point completes.
	slices.SortFunc(entries, func(a, b os.DirEntry) int {
		return boolInt(a.Name() == "_metadata") - boolInt(b.Name() == "_metadata")
	})
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(local, e.Name()))
		if err != nil {
			return nil, err
		}
		key := dir + "/" + e.Name()
		if err := st.put(ctx, key, data); err != nil {
			return nil, err
		}
		pt.files = append(pt.files, key)
	}
	return pt, nil
}

func copyPoint(ctx context.Context, st store, src *point, dir string) (*point, error) {
	cp := &point{path: st.uri(dir), dir: dir, topicID: src.topicID, markers: src.markers}
	for _, key := range src.files {
		data, err := st.get(ctx, key)
		if err != nil {
			return nil, err
		}
		to := dir + strings.TrimPrefix(key, src.dir)
		if err := st.put(ctx, to, data); err != nil {
			return nil, err
		}
		cp.files = append(cp.files, to)
	}
	return cp, nil
}

// retire deletes a point: state files first, _metadata last.
func retire(ctx context.Context, st store, p *point) error {
	for _, key := range p.files {
		if err := st.remove(ctx, key); err != nil {
			return err
		}
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// points is every point the job retains, checkpoints then savepoints.
func (j *job) points() []*point { return append(slices.Clone(j.checkpoints), j.savepoints...) }

// oldest is the retained point whose plan is at or below every other's,
// the one the module follows; nil without points.
func (j *job) oldest() *point {
	var best *point
	for _, p := range j.points() {
		if best == nil || below(p.plan(), best.plan()) {
			best = p
		}
	}
	return best
}

func below(a, b map[int32]int64) bool {
	for p, off := range a {
		if off > b[p] {
			return false
		}
	}
	return true
}

// expectation is the boundary an apply without faults must reach: the
// oldest point's plan, when every retained point is readable (a damaged
// one makes the provider skip the job).
func (j *job) expectation() map[int32]int64 {
	if !j.running || len(j.points()) == 0 {
		return nil
	}
	for _, p := range j.points() {
		if p.damaged != "" {
			return nil
		}
	}
	return j.oldest().plan()
}

// forChecker is the job as the invariant checker sees it.
func (j *job) forChecker(rendered []invariant.Settings) invariant.Job {
	ij := invariant.Job{Operator: j.key, Topic: j.topic, ControlTopic: j.control, TopicID: j.topicID, Epoch: j.epoch,
		End: map[int32]int64{}, Rendered: rendered, Expect: j.expectation()}
	for p, e := range j.end {
		ij.End[int32(p)] = e
	}
	for _, p := range j.points() {
		ij.Points = append(ij.Points, invariant.Point{Path: p.path, TopicID: p.topicID, Markers: p.markers, Damaged: p.damaged})
	}
	return ij
}
