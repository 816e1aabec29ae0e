package permissions

import (
	"fmt"
	"regexp"
	"strings"
)

// mskClusterARN is the parts of an MSK cluster ARN the policies are built
// from: arn:PARTITION:kafka:REGION:ACCOUNT:cluster/NAME/UUID.
type mskClusterARN struct {
	partition, region, account, cluster, uuid string
}

// The parts' rules. Each admits only letters, digits and hyphens where AWS
// does, so that no IAM wildcard (* ?), policy variable (${...}) or
// separator (: /) reaches a rendered Resource.
var (
	arnPartition   = regexp.MustCompile(`^aws(-[a-z]+)*$`)
	arnRegion      = regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-[0-9]+$`)
	arnAccount     = regexp.MustCompile(`^[0-9]{12}$`)
	mskClusterName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)
	mskClusterUUID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]*$`)
)

// ParseMSKClusterARN splits an MSK cluster ARN, refusing wildcards and
// malformed parts with the part that is wrong: an ARN matching several
// clusters would make the rendered policies grant on all of them.
func ParseMSKClusterARN(arn string) (mskClusterARN, error) {
	const form = "arn:aws:kafka:REGION:ACCOUNT:cluster/NAME/UUID"
	if i := strings.IndexAny(arn, "*?"); i >= 0 {
		return mskClusterARN{}, fmt.Errorf("%q holds the IAM wildcard %q at byte %d; name one cluster (%s)", arn, arn[i:i+1], i, form)
	}
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" {
		return mskClusterARN{}, fmt.Errorf("%q is not an ARN of the form %s", arn, form)
	}
	resource := strings.Split(parts[5], "/")
	a := mskClusterARN{partition: parts[1], region: parts[3], account: parts[4]}
	if len(resource) == 3 {
		a.cluster, a.uuid = resource[1], resource[2]
	}
	for _, c := range []struct {
		ok         bool
		part, want string
	}{
		{arnPartition.MatchString(a.partition), "partition " + quote(a.partition), "aws, aws-cn, aws-us-gov, ..."},
		{parts[2] == "kafka", "service " + quote(parts[2]), "kafka"},
		{arnRegion.MatchString(a.region), "region " + quote(a.region), "a region such as eu-west-1"},
		{arnAccount.MatchString(a.account), "account " + quote(a.account), "12 digits"},
		{len(resource) == 3 && resource[0] == "cluster", "resource " + quote(parts[5]), "cluster/NAME/UUID"},
		{mskClusterName.MatchString(a.cluster), "cluster name " + quote(a.cluster), "1 to 64 letters, digits, hyphens or underscores"},
		{mskClusterUUID.MatchString(a.uuid), "cluster UUID " + quote(a.uuid), "letters, digits and hyphens"},
	} {
		if !c.ok {
			return mskClusterARN{}, fmt.Errorf("%q is not an MSK cluster ARN (%s): its %s is not %s", arn, form, c.part, c.want)
		}
	}
	return a, nil
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// resourceARN is the ARN of a topic or transactional ID in this cluster.
func (a mskClusterARN) resourceARN(t ResourceType, name string) string {
	return fmt.Sprintf("arn:%s:kafka:%s:%s:%s/%s/%s/%s", a.partition, a.region, a.account, mskARNKinds[t], a.cluster, a.uuid, name)
}
