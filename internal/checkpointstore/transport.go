package checkpointstore

import (
	"net"
	"net/http"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// The S3 and GCS clients get transports whose dial, TLS handshake and
// response-header waits are bounded by Options.Timeout. They are the second
// line behind the request context (deadline.go): a client path that ignores
// its context still gives up, so a request abandoned at the deadline does
// not keep a goroutine and a connection forever. Azure's client is built by
// gocloud (azureblob.NewDefaultClient) with no way to pass a transport; its
// pipeline honours the request context, which bounded supplies.

// s3HTTPClient is the AWS SDK's own client (its proxy, TLS and FIPS
// settings) with the waits bounded.
func s3HTTPClient(limit time.Duration) *awshttp.BuildableClient {
	return awshttp.NewBuildableClient().
		WithDialerOptions(func(d *net.Dialer) { d.Timeout = limit }).
		WithTransportOptions(func(t *http.Transport) { boundWaits(t, limit) })
}

// gcsTransport is what gcp.DefaultTransport returns (http.DefaultTransport)
// with the waits bounded.
func gcsTransport(limit time.Duration) http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	d := &net.Dialer{Timeout: limit, KeepAlive: 30 * time.Second}
	t.DialContext = d.DialContext
	boundWaits(t, limit)
	return t
}

func boundWaits(t *http.Transport, limit time.Duration) {
	t.ResponseHeaderTimeout = limit
	if t.TLSHandshakeTimeout == 0 || t.TLSHandshakeTimeout > limit {
		t.TLSHandshakeTimeout = limit
	}
}
