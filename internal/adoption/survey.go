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
	"regexp"
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
	// HoldsControl: the topic has one partition whose first committed
	// record is a control record (or a tombstone keyed by a plan ID).
	HoldsControl bool
	// Empty: the topic has one partition holding no committed record.
	Empty bool
	// Serves is, for a topic holding control records, the action-state
	// topic its first recorded plan is for.
	Serves string
	// Err is why this topic could not be read in full; the others are
	// listed all the same.
	Err error
}

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
// A control topic has one partition and holds control records (its first
// committed record decodes as one; a tombstone keyed by a plan ID counts)
// or, when f is set, matches it and is empty: a new control topic is found
// by its name. A one-partition topic holding other records is never a
// control topic, since adopting it as one would compact it. Every matching
// topic that holds no control records is an action-state topic.
func Take(ctx context.Context, k *kafkaops.Client, f Filter, kind Kind) ([]Found, error) {
	listing, err := k.ListTopics(ctx)
	if err != nil {
		return nil, err
	}
	if len(listing.Topics) == 0 && len(listing.Failed) == 0 {
		probe := f.Prefix + "flinkagents-describe-probe"
		switch ok, err := k.CanDescribe(ctx, probe); {
		case err != nil:
			return nil, err
		case !ok:
			return nil, fmt.Errorf("%w: the cluster listed no topic, and describing %q was refused (TOPIC_AUTHORIZATION_FAILED)", ErrNoDescribe, probe)
		}
	}
	var matching, single []kafkaops.Topic
	for _, t := range listing.Topics {
		if f.Matches(t.Name) {
			matching = append(matching, t)
			if len(t.Partitions) == 1 {
				single = append(single, t)
			}
		}
	}
	first, firstFailed, err := k.FirstRecords(ctx, single)
	if err != nil {
		return nil, err
	}
	var out []Found
	for _, t := range matching {
		found := Found{Topic: t}
		if len(t.Partitions) == 1 {
			r := first[t.Name]
			found.Empty = !r.Found && firstFailed[t.Name] == nil
			found.Serves, found.HoldsControl = controlRecord(r)
			found.Err = firstFailed[t.Name]
		}
		// With a filter, a one-partition topic whose first record could not
		// be read is listed with why, as it may be the control topic asked for.
		control := found.HoldsControl || (f.Set() && (found.Empty || found.Err != nil))
		switch {
		case kind == ControlTopics && !control:
			continue
		case kind == ActionStateTopics && found.HoldsControl:
			continue
		case kind == ActionStateTopics:
			found.Err = nil // its first record matters only to a control topic
		}
		out = append(out, found)
	}
	names := make([]string, len(out))
	for i, found := range out {
		names[i] = found.Topic.Name
	}
	configs, configsFailed, err := k.TopicsConfigs(ctx, names)
	if err != nil {
		return nil, err
	}
	for i := range out {
		found := &out[i]
		name := found.Topic.Name
		found.Configs = configs[name]
		found.Err = cmp.Or(found.Err, configsFailed[name])
		if rep, err := k.TopicReplication(ctx, found.Topic); err != nil {
			found.Err = cmp.Or(found.Err, err)
		} else {
			found.Topic.ReplicationFactor = rep.Factor
		}
	}
	return out, nil
}

// controlRecord tells whether r is a control record and, when it records
// a plan, the action-state topic that plan is for. A tombstone is not a
// valid control record, but one keyed by a plan ID still marks a control
// topic (one Read and apply refuse, naming the tombstone).
func controlRecord(r kafkaops.FirstRecord) (serves string, holds bool) {
	if !r.Found {
		return "", false
	}
	if r.Value == nil {
		return "", cleanupplan.IsPlanID(string(r.Key))
	}
	rec, err := cleanupplan.DecodeRecord(r.Key, r.Value)
	if err != nil {
		return "", false
	}
	return rec.Plan.Topic, true
}
