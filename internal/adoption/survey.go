// Package adoption finds, on a cluster, the topics a team adopting the
// provider already has: action-state topics the runtime's store created and
// the control topics holding their boundaries. It is what the list
// resources (terraform query) stand on, and knows nothing about Terraform.
package adoption

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// Filter narrows a survey by topic name; the zero Filter matches every name.
type Filter struct {
	Prefix string
	Regex  *regexp.Regexp
}

// Set reports whether f narrows anything.
func (f Filter) Set() bool { return f.Prefix != "" || f.Regex != nil }

// Matches reports whether name passes both the prefix and the expression.
func (f Filter) Matches(name string) bool {
	return strings.HasPrefix(name, f.Prefix) && (f.Regex == nil || f.Regex.MatchString(name))
}

// Found is one topic that passed the filter, as it is now.
type Found struct {
	// Topic carries its replication factor as TopicReplication counts it.
	Topic   kafkaops.Topic
	Configs map[string]kafkaops.ConfigValue
	// HoldsControl: the topic has one partition holding a control record
	// (cleanupplan.IsControlRecord) at any offset the scan read.
	HoldsControl bool
	// Empty: the topic has one partition holding no committed record.
	Empty bool
	// Serves is, for a topic holding control records, the action-state
	// topic the first plan found in it is for.
	Serves string
	// Err is why this topic could not be read in full (its settings, its
	// replication); the others are listed all the same.
	Err error
}

// Untold is a topic that passed the filter but whose kind could not be
// told: a one-partition topic whose records could not be read (no READ
// ACL, its partition offline), or one Kafka could not describe. It is
// listed as neither kind, since guessing wrong either way changes a
// topic's cleanup.policy under a running job.
type Untold struct {
	Name string
	Err  error
}

// Survey is what Take found: the topics of the kind asked for, and those
// it could not sort.
type Survey struct {
	Found  []Found
	Untold []Untold
}

// SurveyScan is how much of a one-partition topic a survey reads looking
// for control records: a control topic is small (compacted, one record per
// plan), so its records are read whole; of a large topic, its first MiB and
// its last thousand offsets.
var SurveyScan = kafkaops.ScanBudget{HeadBytes: 1 << 20, TailOffsets: 1000}

// Kind is what a list asks for.
type Kind int

const (
	ActionStateTopics Kind = iota
	ControlTopics
)

// ErrNoDescribe is Take's error when the cluster lists no topic to this
// principal and a probe shows it may not describe topics at all (Kafka
// then leaves every topic out of the answer, silently).
var ErrNoDescribe = errors.New("the principal may not describe topics")

// Take lists the cluster's topics once and returns, ascending by name, the
// ones of kind that pass f. Kafka's internal topics are never listed.
//
// A control topic has one partition and holds control records anywhere in
// it (a tombstone keyed by a plan ID counts) or, when f is set, matches it
// and is empty: a new control topic is found by its name. Every other
// topic that passes f is an action-state topic, an empty one-partition
// topic included. A one-partition topic whose records cannot be read is
// neither: it is in Untold, with why.
func Take(ctx context.Context, k *kafkaops.Client, f Filter, kind Kind) (Survey, error) {
	listing, err := k.ListTopics(ctx)
	if err != nil {
		return Survey{}, err
	}
	if len(listing.Topics) == 0 && len(listing.Failed) == 0 {
		probe := f.Prefix + "flinkagents-describe-probe"
		switch ok, err := k.CanDescribe(ctx, probe); {
		case err != nil:
			return Survey{}, err
		case !ok:
			return Survey{}, fmt.Errorf("%w: the cluster listed no topic, and describing %q was refused (TOPIC_AUTHORIZATION_FAILED)", ErrNoDescribe, probe)
		}
	}
	var survey Survey
	for _, name := range slices.Sorted(maps.Keys(listing.Failed)) {
		if !f.Matches(name) {
			continue
		}
		if t, err := describeAgain(ctx, k, name, listing.Failed[name]); err != nil {
			survey.Untold = append(survey.Untold, Untold{name, err})
		} else {
			listing.Topics = append(listing.Topics, t)
		}
	}
	slices.SortFunc(listing.Topics, func(a, b kafkaops.Topic) int { return cmp.Compare(a.Name, b.Name) })
	var matching, single []kafkaops.Topic
	for _, t := range listing.Topics {
		if f.Matches(t.Name) {
			matching = append(matching, t)
			if len(t.Partitions) == 1 {
				single = append(single, t)
			}
		}
	}
	scans, scanFailed, err := scanForControl(ctx, k, single, SurveyScan)
	if err != nil {
		return Survey{}, err
	}
	var out []Found
	for _, t := range matching {
		found := Found{Topic: t}
		if len(t.Partitions) == 1 {
			if err := scanFailed[t.Name]; err != nil {
				survey.Untold = append(survey.Untold, Untold{t.Name, err})
				continue
			}
			scan := scans[t.Name]
			found.Empty = scan.Empty()
			found.HoldsControl = scan.Match != nil
			found.Serves = Serves(scan.Match)
		}
		control := found.HoldsControl || (f.Set() && found.Empty)
		if (kind == ControlTopics && !control) || (kind == ActionStateTopics && found.HoldsControl) {
			continue
		}
		out = append(out, found)
	}
	slices.SortFunc(survey.Untold, func(a, b Untold) int { return cmp.Compare(a.Name, b.Name) })
	names := make([]string, len(out))
	for i, found := range out {
		names[i] = found.Topic.Name
	}
	configs, configsFailed, err := k.TopicsConfigs(ctx, names)
	if err != nil {
		return Survey{}, err
	}
	for i := range out {
		found := &out[i]
		name := found.Topic.Name
		found.Configs = configs[name]
		found.Err = configsFailed[name]
		if rep, err := k.TopicReplication(ctx, found.Topic); err != nil {
			found.Err = cmp.Or(found.Err, err)
		} else {
			found.Topic.ReplicationFactor = rep.Factor
		}
	}
	survey.Found = out
	return survey, nil
}

// Serves is the action-state topic a control record's plan is for, or ""
// when it records none that decodes (a tombstone, a damaged record).
func Serves(r *kafkaops.Record) string {
	if r == nil || r.Value == nil {
		return ""
	}
	rec, err := cleanupplan.DecodeRecord(r.Key, r.Value)
	if err != nil {
		return ""
	}
	return rec.Plan.Topic
}
