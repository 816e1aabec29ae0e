package provider

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// maxTimeoutSeconds is the longest timeout in whole seconds a
// time.Duration holds (about 292 years); more would wrap around.
const maxTimeoutSeconds = math.MaxInt64 / int64(time.Second)

// parseTimeout reads the timeout attribute and KAFKA_TIMEOUT alike: whole
// seconds as in Mongey's provider ("120", which is also what a Terraform
// number 120 becomes in a string attribute), or a Go duration ("2m").
func parseTimeout(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if isDigits(v) {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil || secs > maxTimeoutSeconds {
			return 0, fmt.Errorf("%s seconds is more than the longest timeout, %d seconds", v, maxTimeoutSeconds)
		}
		if secs == 0 {
			return 0, fmt.Errorf("the timeout must be greater than zero")
		}
		return time.Duration(secs) * time.Second, nil
	}
	d, err := time.ParseDuration(v)
	if err == nil && d <= 0 {
		err = fmt.Errorf("the timeout must be greater than zero")
	}
	return d, err
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
