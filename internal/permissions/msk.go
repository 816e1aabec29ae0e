package permissions

import (
	"encoding/json"
	"errors"
	"slices"
)

// mskActions maps a Kafka ACL operation on a resource type to the AWS MSK IAM
// actions that grant it, each with the actions AWS's table ("Semantics of IAM
// authorization policy actions and resources") requires beside it, except
// kafka-cluster:Connect, which goes on the cluster. ReadData's required
// AlterGroup is left out: it is for consumers that join or commit to a
// group, and neither Terraform nor the runtime does.
var mskActions = map[ResourceType]map[Operation][]string{
	Topic: {
		Create:          {"kafka-cluster:CreateTopic"},
		Delete:          {"kafka-cluster:DeleteTopic", "kafka-cluster:DescribeTopic"},
		AlterConfigs:    {"kafka-cluster:AlterTopicDynamicConfiguration", "kafka-cluster:DescribeTopicDynamicConfiguration"},
		DescribeConfigs: {"kafka-cluster:DescribeTopicDynamicConfiguration"},
		Read:            {"kafka-cluster:ReadData", "kafka-cluster:DescribeTopic"},
		Write:           {"kafka-cluster:WriteData", "kafka-cluster:DescribeTopic"},
	},
	TransactionalID: {
		Write: {"kafka-cluster:AlterTransactionalId", "kafka-cluster:DescribeTransactionalId"},
	},
}

// mskARNKinds are the resource kinds of MSK ARNs, after "account:".
var mskARNKinds = map[ResourceType]string{Topic: "topic", TransactionalID: "transactional-id"}

type iamPolicy struct {
	Version   string         `json:"Version"`
	Statement []iamStatement `json:"Statement"`
}

type iamStatement struct {
	Sid      string   `json:"Sid"`
	Effect   string   `json:"Effect"`
	Action   []string `json:"Action"`
	Resource string   `json:"Resource"`
}

// MSKPolicy renders the AWS MSK IAM policy document (JSON) granting role, on
// the cluster clusterARN names, what the table grants it on in's pair: one
// statement for the cluster (kafka-cluster:Connect, and
// WriteDataIdempotently for an idempotent producer), then one per resource
// with the actions its entries map to. It needs no principal: the policy is
// attached to the role or user the principal authenticates as.
func MSKPolicy(in Input, role Role, clusterARN string) (string, error) {
	cluster, err := ParseMSKClusterARN(clusterARN)
	if err != nil {
		return "", err
	}
	if err := errors.Join(in.topicErrors()...); err != nil {
		return "", err
	}
	connect := iamStatement{Sid: "Cluster", Effect: "Allow", Action: []string{"kafka-cluster:Connect"}, Resource: clusterARN}
	policy := iamPolicy{Version: "2012-10-17", Statement: []iamStatement{connect}}
	for _, r := range []Resource{ActionStateTopic, ControlTopic, CleanupTransactionalID} {
		var actions []string
		for _, e := range table {
			if e.Role != role || e.Resource != r {
				continue
			}
			actions = append(actions, mskActions[r.Type()][e.Operation]...)
			if e.IdempotentProducer && !slices.Contains(policy.Statement[0].Action, "kafka-cluster:WriteDataIdempotently") {
				policy.Statement[0].Action = append(policy.Statement[0].Action, "kafka-cluster:WriteDataIdempotently")
			}
		}
		if len(actions) == 0 {
			continue
		}
		slices.Sort(actions)
		policy.Statement = append(policy.Statement, iamStatement{
			Sid: r.sid(), Effect: "Allow", Action: slices.Compact(actions), Resource: cluster.resourceARN(r.Type(), in.Name(r)),
		})
	}
	b, err := json.MarshalIndent(policy, "", "  ")
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// sid names r's statement (IAM allows only letters and digits).
func (r Resource) sid() string {
	switch r {
	case ActionStateTopic:
		return "ActionStateTopic"
	case ControlTopic:
		return "ControlTopic"
	}
	return "CleanupTransactionalId"
}
