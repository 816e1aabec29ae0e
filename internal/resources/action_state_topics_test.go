package resources_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// fleetTopics renders a flinkagents_action_state_topics block: entries are
// HCL bodies of operators by key.
func fleetTopics(e *acctest.Env, protected bool, entries map[string]string) string {
	return fleetTopicsWith(e, protected, "", entries)
}

// fleetTopicsWith is fleetTopics with extra in the resource's body.
func fleetTopicsWith(e *acctest.Env, protected bool, extra string, entries map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nresource \"flinkagents_action_state_topics\" \"fleet\" {\n  deletion_protection = %t\n  %s\n  operators = {\n", e.Provider(), protected, extra)
	for key, body := range entries {
		fmt.Fprintf(&b, "    %s = {\n%s\n    }\n", key, body)
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

func fleetData(name string, partitions int, extra string) string {
	return fmt.Sprintf("      action_state_topic = {\n        name = %q\n        partitions = %d\n        %s\n      }", name, partitions, extra)
}

func fleetControl(name string) string {
	return fmt.Sprintf("      control_topic = {\n        name = %q\n      }", name)
}

// TestActionStateTopicsLifecycle: a fleet's topics in one resource keep
// every guarantee of the single-topic resources, per topic: created with
// the enforced settings, drift restored in place, a partition change, a
// rename and a protected removal refused at plan time naming the entry;
// a new operator added beside the others; the fleet imported by ID with
// no change planned; with protection off, a removed entry's topics are
// deleted and the others left alone.
func TestActionStateTopicsLifecycle(t *testing.T) {
	e := acctest.New(t)
	orders, payments, refunds := e.Name("orders"), e.Name("payments"), e.Name("refunds")
	addr := "flinkagents_action_state_topics.fleet"
	two := map[string]string{
		"orders":   fleetData(orders, 3, "") + "\n" + fleetControl(orders+"-control"),
		"payments": fleetData(payments, 2, `config = { "min.cleanable.dirty.ratio" = "0.3" }`),
	}
	three := map[string]string{"refunds": fleetData(refunds, 1, "") + "\n" + fleetControl(refunds+"-control")}
	for k, v := range two {
		three[k] = v
	}
	entry := func(key string) tfjsonpath.Path { return tfjsonpath.New("operators").AtMapKey(key) }
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: fleetTopics(e, true, two),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, entry("orders").AtMapKey("action_state_topic").AtMapKey("cleanup_policy"), knownvalue.StringExact("compact,delete")),
					statecheck.ExpectKnownValue(addr, entry("orders").AtMapKey("control_topic").AtMapKey("cleanup_policy"), knownvalue.StringExact("compact")),
					statecheck.ExpectKnownValue(addr, entry("payments").AtMapKey("action_state_topic").AtMapKey("retention_ms"), knownvalue.StringExact("-1")),
					statecheck.ExpectKnownValue(addr, entry("orders").AtMapKey("action_state_topic").AtMapKey("topic_id"), knownvalue.StringRegexp(regexp.MustCompile(`^[A-Za-z0-9_-]{22}$`))),
					statecheck.ExpectKnownValue(addr, entry("payments").AtMapKey("control_topic"), knownvalue.Null()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraformState) error {
					for topic, want := range map[string]map[string]string{
						orders:              {"cleanup.policy": "compact,delete", "retention.ms": "-1", "retention.bytes": "-1"},
						orders + "-control": {"cleanup.policy": "compact"},
						payments:            {"cleanup.policy": "compact,delete", "min.cleanable.dirty.ratio": "0.3"},
					} {
						for k, v := range want {
							if got := e.TopicConfig(topic, k); got != v {
								return fmt.Errorf("%s: %s=%q, want %q", topic, k, got, v)
							}
						}
					}
					return nil
				},
			},
			{
				// Drift on one topic of one entry is restored in place; the
				// other topics are not written.
				PreConfig: func() {
					e.SetTopicConfigs(payments, map[string]string{"retention.ms": "1000"})
					e.SetTopicConfigs(orders+"-control", map[string]string{"cleanup.policy": "compact,delete"})
				},
				Config: fleetTopics(e, true, two),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, entry("payments").AtMapKey("action_state_topic").AtMapKey("retention_ms"), knownvalue.StringExact("-1")),
						plancheck.ExpectKnownValue(addr, entry("orders").AtMapKey("control_topic").AtMapKey("cleanup_policy"), knownvalue.StringExact("compact")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraformState) error {
					if got := e.TopicConfig(payments, "retention.ms"); got != "-1" {
						return fmt.Errorf("retention.ms not restored: %q", got)
					}
					if got := e.TopicConfig(orders+"-control", "cleanup.policy"); got != "compact" {
						return fmt.Errorf("control policy not restored: %q", got)
					}
					return nil
				},
			},
			{
				Config:      fleetTopics(e, true, map[string]string{"orders": fleetData(orders, 6, "") + "\n" + fleetControl(orders+"-control"), "payments": two["payments"]}),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Operator "orders": Topic Shape Cannot Change`),
			},
			{
				Config:      fleetTopics(e, true, map[string]string{"orders": fleetData(orders+"-v2", 3, "") + "\n" + fleetControl(orders+"-control"), "payments": two["payments"]}),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Operator "orders": Topic Name Cannot Change`),
			},
			{
				Config:      fleetTopics(e, true, map[string]string{"orders": two["orders"]}),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Operator "payments": Deletion Protection Is On`),
			},
			{
				Config:      fleetTopics(e, true, map[string]string{"orders": fleetData(orders, 3, ""), "payments": two["payments"]}),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Operator "orders": Deletion Protection Is On.*control topic`),
			},
			{
				Config:      fleetTopics(e, true, map[string]string{"orders": two["orders"], "payments": fleetData(orders+"-control", 1, "")}),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Topic Named Twice`),
			},
			{
				// A new operator: its topics are created, the others untouched.
				Config: fleetTopics(e, true, three),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(addr, entry("orders").AtMapKey("action_state_topic").AtMapKey("partitions"), knownvalue.Int64Exact(3)),
						plancheck.ExpectUnknownValue(addr, entry("refunds").AtMapKey("action_state_topic").AtMapKey("topic_id")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraformState) error {
					if got := e.TopicConfig(refunds+"-control", "cleanup.policy"); got != "compact" {
						return fmt.Errorf("refunds' control topic: cleanup.policy %q", got)
					}
					return nil
				},
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           fmt.Sprintf("orders=%s:%s-control,payments=%s,refunds=%s:%s-control", orders, orders, payments, refunds, refunds),
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"operators.payments.action_state_topic.config", "timeouts"},
			},
			{Config: fleetTopics(e, false, three)},
			{
				// Unprotected, a removed entry's topics are deleted; the
				// others stay.
				Config: fleetTopics(e, false, two),
				Check: func(*terraformState) error {
					for _, gone := range []string{refunds, refunds + "-control"} {
						if _, err := e.Admin.DescribeTopic(context.Background(), gone); err == nil {
							return fmt.Errorf("%s still exists", gone)
						}
					}
					if got := e.TopicConfig(orders, "cleanup.policy"); got != "compact,delete" {
						return fmt.Errorf("orders: %q", got)
					}
					return nil
				},
			},
		},
	})
}

// TestActionStateTopicsOneEntryFailing: a new operator whose topic name is
// taken is held, named in a warning at plan time and in an error at apply,
// where nothing is created for it and the taken topic is left as it was,
// while the other new operator is created and saved; the same when the
// name is taken between the plan and the apply (Terraform plans again at
// apply, and that plan must hold the one entry, not refuse the fleet).
// Once the name is free the apply creates it. A topic recreated between
// plan and apply is refused before any write to it, naming its entry,
// while the other entry's change is made and saved; the next plan
// proposes the new topic ID.
func TestActionStateTopicsOneEntryFailing(t *testing.T) {
	e := acctest.New(t)
	orders, payments, billing, refunds, audit := e.Name("orders"), e.Name("payments"), e.Name("billing"), e.Name("refunds"), e.Name("audit")
	addr := "flinkagents_action_state_topics.fleet"
	entry := func(key string) tfjsonpath.Path { return tfjsonpath.New("operators").AtMapKey(key) }
	ratio := func(v string) string { return fmt.Sprintf(`config = { "min.cleanable.dirty.ratio" = %q }`, v) }
	two := map[string]string{"orders": fleetData(orders, 3, ratio("0.3")), "payments": fleetData(payments, 2, ratio("0.3"))}
	four := map[string]string{"billing": fleetData(billing, 1, ""), "refunds": fleetData(refunds, 1, "")}
	for k, v := range two {
		four[k] = v
	}
	five := map[string]string{"audit": fleetData(audit, 1, "")}
	for k, v := range four {
		five[k] = v
	}
	changed := map[string]string{"orders": fleetData(orders, 3, ratio("0.5")), "payments": fleetData(payments, 2, ratio("0.5")),
		"billing": four["billing"], "refunds": four["refunds"], "audit": five["audit"]}
	untouched := func(name string) {
		t.Helper()
		if got := e.TopicConfig(name, "cleanup.policy"); got != "delete" {
			t.Errorf("the taken topic %s was written: cleanup.policy %q", name, got)
		}
	}
	var recreatedID string
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: fleetTopics(e, false, two)},
			{
				// Taken before the plan: held, refunds created beside it.
				PreConfig:   func() { e.CreateTopic(billing, 1, map[string]string{"cleanup.policy": "delete"}) },
				Config:      fleetTopics(e, false, four),
				ExpectError: regexp.MustCompile(`Operator "billing": Topic Already Exists`),
			},
			{
				PreConfig: func() {
					if _, err := e.Admin.DescribeTopic(context.Background(), refunds); err != nil {
						t.Errorf("refunds was not created beside the held entry: %v", err)
					}
					untouched(billing)
					deleteTopicAndWait(t, e, billing)
				},
				Config:           fleetTopics(e, false, four),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				// Taken between plan and apply: held the same way.
				Config: fleetTopics(e, false, five),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{betweenPlanAndApply(func() {
					e.CreateTopic(audit, 1, map[string]string{"cleanup.policy": "delete"})
				})}},
				ExpectError: regexp.MustCompile(`Operator "audit": Topic Already Exists`),
			},
			{
				PreConfig: func() {
					untouched(audit)
					deleteTopicAndWait(t, e, audit)
				},
				Config:           fleetTopics(e, false, five),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: fleetTopics(e, false, changed),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{betweenPlanAndApply(func() {
					recreatedID = e.RecreateTopic(orders, 3, map[string]string{"cleanup.policy": "compact"})
				})}},
				ExpectError: regexp.MustCompile(`(?s)Operator "orders": Action-State Topic Changed Since The Plan`),
			},
			{
				PreConfig: func() {
					if got := e.TopicConfig(payments, "min.cleanable.dirty.ratio"); got != "0.5" {
						t.Errorf("payments' change was not made beside the refused entry: %q", got)
					}
					if got := e.TopicConfig(orders, "cleanup.policy"); got != "compact" {
						t.Errorf("the recreated topic was written: cleanup.policy %q", got)
					}
				},
				Config: fleetTopics(e, false, changed),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectKnownValue(addr, entry("orders").AtMapKey("action_state_topic").AtMapKey("topic_id"),
						knownvalue.StringFunc(func(v string) error {
							if v != recreatedID {
								return fmt.Errorf("planned topic_id %s, want the recreated topic's %s", v, recreatedID)
							}
							return nil
						}))},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestActionStateTopicsReplicationAndGoneTopics, on a three-broker
// cluster: a replication factor raised in place (planned as an update of
// the same topics; kfake accepts the reassignment but never moves
// replicas, so the wait ends at the update timeout, naming the entry); a
// lower one refused at plan time; a topic deleted outside Terraform is
// named at the next refresh and created again by the next apply; a
// protected fleet's destroy is refused; an action-state topic holding
// control records is refused at import.
func TestActionStateTopicsReplicationAndGoneTopics(t *testing.T) {
	e := acctest.NewInProcessCluster(t, 3)
	orders, payments := e.Name("orders"), e.Name("payments")
	addr := "flinkagents_action_state_topics.fleet"
	entry := func(key string) tfjsonpath.Path { return tfjsonpath.New("operators").AtMapKey(key) }
	fleet := func(ordersRF, paymentsRF int) map[string]string {
		return map[string]string{
			"orders":   fleetData(orders, 3, fmt.Sprintf("replication_factor = %d", ordersRF)) + "\n" + fleetControl(orders+"-control"),
			"payments": fleetData(payments, 2, fmt.Sprintf("replication_factor = %d", paymentsRF)),
		}
	}
	controlRecordsIn := e.Name("not-data")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: fleetTopics(e, true, fleet(1, 3))},
			{
				Config: fleetTopicsWith(e, true, "timeouts {\n    update = \"2s\"\n  }", fleet(3, 3)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, entry("orders").AtMapKey("action_state_topic").AtMapKey("replication_factor"), knownvalue.Int64Exact(3)),
				}},
				ExpectError: regexp.MustCompile(`(?s)Operator "orders": Action-State Topic Update Timed Out.*raising\s+the\s+replication\s+factor`),
			},
			{
				Config:      fleetTopics(e, true, fleet(1, 2)),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Operator "payments": Replication Factor Cannot Be Lowered`),
			},
			{
				PreConfig: func() { e.DeleteTopic(payments) },
				Config:    fleetTopics(e, true, fleet(1, 3)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(addr, entry("payments").AtMapKey("action_state_topic").AtMapKey("topic_id"))},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraformState) error {
					if got := e.TopicConfig(payments, "cleanup.policy"); got != "compact,delete" {
						return fmt.Errorf("payments not created again: cleanup.policy %q", got)
					}
					return nil
				},
			},
			{Config: fleetTopics(e, true, fleet(1, 3)), Destroy: true, ExpectError: regexp.MustCompile(`Deletion Protection Is On`)},
			{
				PreConfig: func() {
					e.CreateTopic(controlRecordsIn, 1, map[string]string{"cleanup.policy": "compact"})
					controlRecords(t, e, controlRecordsIn, orders)
				},
				Config:        fleetTopics(e, true, fleet(1, 3)),
				ResourceName:  addr,
				ImportState:   true,
				ImportStateId: fmt.Sprintf("orders=%s", controlRecordsIn),
				ExpectError:   regexp.MustCompile(`Topic Is A Cleanup Control Topic`),
			},
			{Config: fleetTopics(e, false, fleet(1, 3))},
		},
	})
}

// TestActionStateTopicsFirstApplyFailingPartWay: an entry whose topic the
// broker refuses to create in the fleet's first apply is named, and the
// topics created beside it are saved. Terraform marks a resource whose
// create reported an error tainted: the replacement it then plans is
// refused at plan time, as the fleet's topics exist, saying to untaint
// (deletion protection would refuse it at apply too), after which the
// next apply creates only what is missing. A name taken before the plan is
// refused at plan time instead, with the import block that adopts the fleet.
func TestActionStateTopicsFirstApplyFailingPartWay(t *testing.T) {
	e := acctest.NewInProcess(t)
	orders, billing := e.Name("orders"), e.Name("billing")
	w := e.Workdir()
	w.Write("main.tf", strings.Replace(fleetTopics(e, true, map[string]string{"orders": fleetData(orders, 3, ""), "billing": fleetData(billing, 1, "")}),
		e.Provider(), e.CLIProvider(), 1))
	w.Terraform("init")

	e.CreateTopic(billing, 1, map[string]string{"cleanup.policy": "delete"})
	out, err := w.TerraformErr("plan")
	if msg := strings.Join(strings.Fields(string(out)+fmt.Sprint(err)), " "); err == nil || !strings.Contains(msg, "Fleet Topics Exist Already") ||
		!strings.Contains(msg, fmt.Sprintf(`id = "billing=%s,orders=%s"`, billing, orders)) {
		t.Fatalf("plan with a name taken: %v\n%s", err, out)
	}
	e.DeleteTopic(billing)

	// The broker refuses billing's create (a create policy, say) and
	// creates orders, both in one CreateTopics request.
	refuse := e.Cluster.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.CreateTopics}, Topic: billing, Err: kerr.PolicyViolation, Count: -1})
	out, err = w.TerraformErr("apply", "-auto-approve")
	if msg := string(out) + fmt.Sprint(err); err == nil || !strings.Contains(msg, `Operator "billing"`) {
		t.Fatalf("first apply: %v\n%s", err, out)
	}
	ordersID := liveTopicID(t, e, orders)
	refuse.Remove()
	out, err = w.TerraformErr("apply", "-auto-approve")
	if msg := strings.Join(strings.Fields(string(out)+fmt.Sprint(err)), " "); err == nil || !strings.Contains(msg, "Fleet Topics Exist Already") || !strings.Contains(msg, "terraform untaint") {
		t.Fatalf("apply of the tainted fleet: %v\n%s", err, out)
	}
	if got := liveTopicID(t, e, orders); got != ordersID {
		t.Fatalf("orders was replaced: topic ID %s, was %s", got, ordersID)
	}
	w.Terraform("untaint", "flinkagents_action_state_topics.fleet")
	w.Terraform("apply", "-auto-approve")
	if got := liveTopicID(t, e, orders); got != ordersID {
		t.Fatalf("orders was replaced: topic ID %s, was %s", got, ordersID)
	}
	if got := e.TopicConfig(billing, "cleanup.policy"); got != "compact,delete" {
		t.Fatalf("billing not created: cleanup.policy %q", got)
	}
	if out, err := w.TerraformErr("plan", "-detailed-exitcode"); err != nil {
		t.Fatalf("the plan after is not empty: %v\n%s", err, out)
	}
	w.Write("main.tf", strings.Replace(fleetTopics(e, false, map[string]string{"orders": fleetData(orders, 3, ""), "billing": fleetData(billing, 1, "")}),
		e.Provider(), e.CLIProvider(), 1))
	w.Terraform("apply", "-auto-approve")
	w.Terraform("destroy", "-auto-approve")
}

func liveTopicID(t *testing.T, e *acctest.Env, name string) string {
	t.Helper()
	topic, err := e.Admin.DescribeTopic(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return topic.ID.String()
}

// deleteTopicAndWait deletes name out of band and waits until Kafka no
// longer lists it: ZooKeeper-mode brokers (Kafka 3.x) delete in the
// background, and the next step creates the name again.
func deleteTopicAndWait(t *testing.T, e *acctest.Env, name string) {
	t.Helper()
	ctx := context.Background()
	topic, err := e.Admin.DescribeTopic(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	e.DeleteTopic(name)
	if err := e.Admin.AwaitTopicDeleted(ctx, name, topic.ID); err != nil {
		t.Fatal(err)
	}
}
