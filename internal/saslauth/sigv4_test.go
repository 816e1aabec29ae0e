package saslauth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// mskRequest is what an AWS_MSK_IAM client sends: a SigV4 pre-signed
// kafka-cluster:Connect request flattened into JSON with lower-case keys.
type mskRequest map[string]string

// authenticateMSK runs the mechanism's first step against host, as franz-go
// does when it connects, and decodes the payload it would send.
func authenticateMSK(t *testing.T, a *AWSCredentials, host string) (mskRequest, error) {
	t.Helper()
	_, payload, err := a.Mechanism().Authenticate(context.Background(), host)
	if err != nil {
		return nil, err
	}
	var req mskRequest
	if err := json.Unmarshal(payload, &req); err != nil {
		t.Fatalf("AWS_MSK_IAM payload is not a JSON object: %v\n%s", err, payload)
	}
	return req, nil
}

// signedParameters are the query parameters the signature covers, under
// the names they have in the signed request (the payload lower-cases them).
var signedParameters = []string{
	"Action", "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires",
	"X-Amz-Security-Token", "X-Amz-SignedHeaders",
}

// verify recomputes the SigV4 signature from the secret key, following
// AWS's specification of query-string signing independently of the code
// under test, and checks the request is signed with these credentials for
// this host and region.
func (r mskRequest) verify(t *testing.T, accessKey, secretKey, sessionToken, host, region string) {
	t.Helper()
	date := r["x-amz-date"]
	if _, err := time.Parse("20060102T150405Z", date); err != nil {
		t.Fatalf("x-amz-date %q: %v", date, err)
	}
	scope := date[:8] + "/" + region + "/kafka-cluster/aws4_request"
	want := map[string]string{
		"action": "kafka-cluster:Connect", "host": host, "version": "2020_10_22",
		"x-amz-algorithm": "AWS4-HMAC-SHA256", "x-amz-credential": accessKey + "/" + scope,
		"x-amz-signedheaders": "host", "x-amz-security-token": sessionToken,
	}
	for k, v := range want {
		if r[k] != v {
			t.Errorf("payload %s = %q, want %q", k, r[k], v)
		}
	}

	var query []string
	for _, name := range signedParameters {
		if v, ok := r[strings.ToLower(name)]; ok {
			query = append(query, uriEncode(name)+"="+uriEncode(v))
		}
	}
	sort.Strings(query)
	emptyBody := sha256.Sum256(nil)
	canonical := strings.Join([]string{
		"GET", "/", strings.Join(query, "&"), "host:" + host + "\n", "host", hex.EncodeToString(emptyBody[:]),
	}, "\n")
	canonicalHash := sha256.Sum256([]byte(canonical))
	stringToSign := "AWS4-HMAC-SHA256\n" + date + "\n" + scope + "\n" + hex.EncodeToString(canonicalHash[:])

	key := []byte("AWS4" + secretKey)
	for _, part := range []string{date[:8], region, "kafka-cluster", "aws4_request", stringToSign} {
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(part))
		key = mac.Sum(nil)
	}
	if got, want := r["x-amz-signature"], hex.EncodeToString(key); got != want {
		t.Errorf("signature %s, want %s (recomputed from the secret key of %s)", got, want, accessKey)
	}
}

// uriEncode is SigV4's UriEncode: every byte but A-Z a-z 0-9 - _ . ~ as
// %XX with upper-case hex.
func uriEncode(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '~':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
