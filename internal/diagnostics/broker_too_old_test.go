package diagnostics

import (
	"errors"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
)

// TestBrokerTooOld: an unsupported request, from the broker or from
// franz-go's own version check, names the operation and the minimum broker.
func TestBrokerTooOld(t *testing.T) {
	for _, err := range []error{kerr.UnsupportedVersion, errors.New("broker is too old; the broker has already indicated it will not know how to handle the request")} {
		d := FromKafkaErrorVia("listing the reassignments of \"orders\"", err, "")
		if d.Summary() != "Kafka Broker Too Old For This Operation" || !strings.Contains(d.Detail(), `"orders"`) || !strings.Contains(d.Detail(), "Apache Kafka 2.8 or newer") {
			t.Errorf("%v: %s\n%s", err, d.Summary(), d.Detail())
		}
	}
}
