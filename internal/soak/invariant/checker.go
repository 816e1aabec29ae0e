package invariant

import (
	"context"
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Runtime option names the checker builds and reads job settings with
// (spec/cleanup-protocol.md, section 9).
const (
	OptionTopic        = "kafkaActionStateTopic"
	OptionControlTopic = "kafkaActionStateCleanupControlTopic"
	OptionTombstones   = "kafkaActionStateTombstoneEnabled"
)

// protectiveLabel names, in reports, the settings (a) restores under: the
// job's topic, and its control topic once that holds a boundary.
const protectiveLabel = "protective settings (the control topic named once it holds a boundary)"

// Point is one recovery point a job retains, as the soak wrote it.
type Point struct {
	Path    string
	TopicID string
	// Markers holds each subtask's offsets.
	Markers []map[int32]int64
	// Damaged says how the soak broke the point ("" when intact). A damaged
	// point is still retained: its markers bound what may be deleted.
	Damaged string
}

// Settings are job settings the module rendered, labelled for reports
// ("settings rendered by ...").
type Settings struct {
	Label  string
	Values map[string]string
}

// Job is one operator's job as the soak ran it.
type Job struct {
	Operator     string
	Topic        string
	ControlTopic string
	// TopicID is the ID of the topic the job writes to, in Kafka's string
	// form; Epoch and End say what it produced there: record n of partition
	// p has key e<Epoch>-p<p>-n<n> at offset n, and End[p] records exist.
	TopicID string
	Epoch   int
	End     map[int32]int64
	Points  []Point
	// Rendered are the settings the module renders for the job at the
	// night's end, which restores are checked under (CheckRendering checks
	// each apply's right after it).
	Rendered []Settings
	// Expect is the boundary a fault-free apply must have reached (its
	// oldest retained point's offsets); nil when none is owed (a job with
	// no point, or one the provider must skip).
	Expect map[int32]int64
}

// Night is what the checker is given after a night.
type Night struct {
	Number int
	Jobs   []Job
	// Settled says the night ended with an apply without faults (d).
	Settled bool
	// PlanExitCode is that of the plan -detailed-exitcode after it, and
	// Statuses the boundaries' status in Terraform's state.
	PlanExitCode int
	Statuses     map[string]string
}

// Violation is one broken invariant.
type Violation struct {
	Invariant string // "a" .. "f"
	Operator  string // "" when fleet-wide
	Detail    string
}

func (v Violation) String() string {
	if v.Operator == "" {
		return fmt.Sprintf("(%s) %s", v.Invariant, v.Detail)
	}
	return fmt.Sprintf("(%s) %s: %s", v.Invariant, v.Operator, v.Detail)
}

// Report is the outcome of one night's checks.
type Report struct {
	// Checks counts the individual checks made, by invariant.
	Checks     map[string]int
	Violations []Violation
	// Notes are observations that break nothing (an open transaction).
	Notes []string
}

func (r *Report) check(inv string, n int) { r.Checks[inv] += n }

func (r *Report) violate(inv, operator, format string, args ...any) {
	r.Violations = append(r.Violations, Violation{Invariant: inv, Operator: operator, Detail: fmt.Sprintf(format, args...)})
}

// Checker holds what the invariants compare across nights: each control
// topic's last boundary (by its topic ID, so a control topic recreated
// under its name starts a new history).
type Checker struct {
	kafka   kafkaView
	oracle  oracle
	secrets *SecretScan
	last    map[string]map[int32]int64
}

// NewChecker reads Kafka at bootstrap (PLAINTEXT) through a client of its
// own and runs the Java oracle from jar; its input and output files go to
// workdir. Close releases the client.
func NewChecker(bootstrap []string, jar, workdir string, secrets *SecretScan) (*Checker, error) {
	// Metadata is asked afresh every time (franz-go answers from a cache
	// for 5 s by default): topics are recreated under their names, and a
	// stale answer names the old topic ID.
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap...), kgo.MetadataMinAge(10*time.Millisecond))
	if err != nil {
		return nil, err
	}
	return &Checker{kafka: kafkaView{cl: cl, adm: kadm.NewClient(cl)},
		oracle:  oracle{jar: jar, bootstrap: strings.Join(bootstrap, ","), workdir: workdir},
		secrets: secrets, last: map[string]map[int32]int64{}}, nil
}

// Close releases the checker's Kafka client.
func (c *Checker) Close() { c.kafka.cl.Close() }

// Check runs every invariant for the night. An error means the checker
// itself could not look (the run stops as for a violation).
func (c *Checker) Check(ctx context.Context, n Night) (Report, error) {
	r := Report{Checks: map[string]int{}}
	histories := map[string]History{}
	for _, j := range n.Jobs {
		h, ok := c.history(ctx, j, &r)
		if ok {
			histories[j.Operator] = h
		}
		if err := c.data(ctx, j, &r); err != nil {
			return r, err
		}
	}
	if err := c.restores(ctx, n, histories, &r); err != nil {
		return r, err
	}
	if n.Settled {
		settled(n, histories, &r)
	}
	hits, files, err := c.secrets.Scan()
	if err != nil {
		return r, fmt.Errorf("scanning logs for secrets: %w", err)
	}
	r.check("f", files)
	for _, h := range hits {
		r.violate("f", "", "a secret appears in %s", h)
	}
	return r, nil
}

// history reads j's control topic raw and checks (c): readable,
// consistent, and no boundary lower than the last night's.
func (c *Checker) history(ctx context.Context, j Job, r *Report) (History, bool) {
	h, id, n, err := c.readHistory(ctx, j.ControlTopic)
	r.check("c", n)
	if err != nil {
		r.violate("c", j.Operator, "control topic %s: %v", j.ControlTopic, err)
		return h, false
	}
	if h.Open > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%s: %d control records in an open transaction", j.Operator, h.Open))
	}
	key := j.ControlTopic + "/" + id
	now := h.Boundary()
	for _, b := range Backward(c.last[key], now) {
		r.violate("c", j.Operator, "boundary of %s moved backward: %s", j.ControlTopic, b)
	}
	r.check("c", len(c.last[key]))
	c.last[key] = now
	return h, true
}

// readHistory reads a control topic raw and replays it; it returns the
// topic's ID and how many records it read.
func (c *Checker) readHistory(ctx context.Context, topic string) (History, string, int, error) {
	v, err := c.kafka.topic(ctx, topic)
	if err != nil {
		return History{}, "", 0, err
	}
	p0 := v.Partitions[0]
	raw, err := c.kafka.readRaw(ctx, topic, 0, p0.Start, p0.End)
	if err != nil {
		return History{}, "", 0, err
	}
	h, err := ReplayHistory(raw)
	return h, javaTopicID(v.ID), len(raw), err
}

// CheckRendering checks (e) for the settings one apply rendered, right
// after it (label names them: "settings rendered by ..."): each job's settings name its control topic exactly when the
// control topic holds a boundary. Left out, restores below the boundary
// are accepted (protection is off); named without one, the runtime
// refuses every restore.
func (c *Checker) CheckRendering(ctx context.Context, label string, jobs []Job, rendered map[string]map[string]string) Report {
	r := Report{Checks: map[string]int{}}
	for _, j := range jobs {
		settings, ok := rendered[j.Operator]
		if !ok {
			continue
		}
		h, _, _, err := c.readHistory(ctx, j.ControlTopic)
		if err != nil {
			// Check's (c) reports an unreadable history; whether it holds a
			// boundary is unknown here.
			r.Notes = append(r.Notes, fmt.Sprintf("%s: %s not checked: %v", j.Operator, label, err))
			continue
		}
		bounded := len(h.Plans) > 0
		named := settings[OptionControlTopic] == j.ControlTopic
		r.check("e", 1)
		switch {
		case bounded && !named:
			r.violate("e", j.Operator, "the %s leave %s out although it holds a boundary: restores below it would be accepted",
				label, j.ControlTopic)
		case named && !bounded:
			r.violate("e", j.Operator, "the %s name %s, which holds no committed boundary: the runtime refuses every restore",
				label, j.ControlTopic)
		}
	}
	return r
}

// data checks (b) for j: every partition starts at or below every retained
// point's marker, still ends where the job stopped producing, and holds,
// from its lowest marker on, every record the job wrote there.
func (c *Checker) data(ctx context.Context, j Job, r *Report) error {
	v, err := c.kafka.topic(ctx, j.Topic)
	if err != nil {
		r.violate("b", j.Operator, "action-state topic unreadable: %v", err)
		return nil
	}
	if id := javaTopicID(v.ID); id != j.TopicID {
		r.violate("b", j.Operator, "topic %s has ID %s, the job writes to %s", j.Topic, id, j.TopicID)
		return nil
	}
	for _, part := range slices.Sorted(maps.Keys(j.End)) {
		pv, ok := v.Partitions[part]
		if !ok {
			r.violate("b", j.Operator, "partition %d of %s is gone", part, j.Topic)
			continue
		}
		low := j.End[part]
		for _, pt := range j.Points {
			for sub, m := range pt.Markers {
				off, ok := m[part]
				if !ok {
					continue
				}
				r.check("b", 1)
				low = min(low, off)
				if pv.Start > off {
					r.violate("b", j.Operator, "%s (subtask %d) replays partition %d from offset %d, but it starts at %d: records it needs were deleted",
						pt.Path, sub, part, off, pv.Start)
				}
			}
		}
		r.check("b", 1)
		if pv.End != j.End[part] {
			r.violate("b", j.Operator, "partition %d ends at %d; the job wrote %d records", part, pv.End, j.End[part])
		}
		from := max(low, pv.Start)
		recs, err := c.kafka.readRaw(ctx, j.Topic, part, from, pv.End)
		if err != nil {
			return fmt.Errorf("reading %s partition %d: %w", j.Topic, part, err)
		}
		r.check("b", len(recs))
		next := from
		for _, rec := range recs {
			if want := fmt.Sprintf("e%d-p%d-n%d", j.Epoch, part, next); rec.Offset != next || string(rec.Key) != want {
				r.violate("b", j.Operator, "partition %d: expected record %d (key %s), found offset %d key %q", part, next, want, rec.Offset, rec.Key)
				break
			}
			next++
		}
		if next == from+int64(len(recs)) && next < pv.End {
			r.violate("b", j.Operator, "partition %d: records %d..%d are missing", part, next, pv.End-1)
		}
	}
	return nil
}

// restores asks the Java oracle about every retained point of every job:
// (a) under settings naming the control topic once it holds a boundary,
// accepted and replayable; (e) under each rendering of the module,
// accepted, and the rendering names the control topic once it holds a
// boundary. The oracle's boundary must be the raw reader's.
func (c *Checker) restores(ctx context.Context, n Night, histories map[string]History, r *Report) error {
	var in []oracleJob
	for _, j := range n.Jobs {
		h, readable := histories[j.Operator]
		bounded := !readable || len(h.Plans) > 0
		protective := map[string]string{OptionTopic: j.Topic, OptionTombstones: "false"}
		if bounded {
			protective[OptionControlTopic] = j.ControlTopic
		}
		oj := oracleJob{Operator: j.Operator, Topic: j.Topic, ControlTopic: j.ControlTopic}
		sets := append([]Settings{{Label: protectiveLabel, Values: protective}}, j.Rendered...)
		for _, pt := range j.Points {
			for sub, m := range pt.Markers {
				for _, s := range sets {
					oj.Checks = append(oj.Checks, oracleCheck{Label: fmt.Sprintf("%s|%d|%s", pt.Path, sub, s.Label),
						Settings: s.Values, TopicID: pt.TopicID, Marker: markerJSON(m)})
				}
			}
		}
		in = append(in, oj)
	}
	res, err := c.oracle.run(ctx, n.Number, in)
	if err != nil {
		return err
	}
	for i, jr := range res.Jobs {
		j := n.Jobs[i]
		if h, ok := histories[j.Operator]; ok {
			r.check("c", 1)
			if jr.Control.Error != "" {
				r.violate("c", j.Operator, "the runtime's reader refuses %s: %s", j.ControlTopic, jr.Control.Error)
			} else if java := markerFromJSON(jr.Control.Boundary); !maps.Equal(java, h.Boundary()) {
				r.violate("c", j.Operator, "the runtime's reader sees boundary %v in %s, the raw reader %v", java, j.ControlTopic, h.Boundary())
			}
		}
		for _, ch := range jr.Checks {
			point, setting := splitLabel(ch.Label)
			inv := "e"
			if setting == protectiveLabel {
				inv = "a"
			}
			r.check(inv, 1)
			switch {
			case ch.Restore != "accepted":
				r.violate(inv, j.Operator, "restore from %s refused under the %s: %s", point, setting, ch.Message)
			case inv == "a" && (ch.Replayable == nil || !*ch.Replayable):
				r.violate("a", j.Operator, "restore from %s cannot replay: %s", point, ch.Message)
			}
		}
	}
	return nil
}

// settled checks (d) after an apply without faults.
func settled(n Night, histories map[string]History, r *Report) {
	r.check("d", 1)
	if n.PlanExitCode != 0 {
		r.violate("d", "", "terraform plan -detailed-exitcode exited %d after an apply without faults", n.PlanExitCode)
	}
	for _, op := range slices.Sorted(maps.Keys(n.Statuses)) {
		r.check("d", 1)
		if s := n.Statuses[op]; s != "APPLIED" {
			r.violate("d", op, "Terraform's state reads boundary status %s", s)
		}
	}
	for _, j := range n.Jobs {
		h, ok := histories[j.Operator]
		if !ok {
			continue
		}
		r.check("d", 1)
		if ids := h.Committed(); len(ids) > 0 {
			r.violate("d", j.Operator, "plans still COMMITTED in %s: %s", j.ControlTopic, strings.Join(ids, ", "))
		}
		if j.Expect != nil {
			r.check("d", 1)
			if b := h.Boundary(); !maps.Equal(b, j.Expect) {
				r.violate("d", j.Operator, "boundary %v has not reached the oldest retained point's offsets %v", b, j.Expect)
			}
		}
	}
}

// splitLabel splits "path|subtask|settings" into "path subtask N" and
// the settings' label.
func splitLabel(label string) (point, setting string) {
	i := strings.LastIndex(label, "|")
	return strings.Replace(label[:i], "|", " subtask ", 1), label[i+1:]
}

// javaTopicID is a topic ID as Java's Uuid.toString prints it.
func javaTopicID(id [16]byte) string {
	return base64.RawURLEncoding.EncodeToString(id[:])
}
