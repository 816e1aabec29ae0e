package saslauthtest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// STS answers AssumeRole and AssumeRoleWithWebIdentity the way AWS STS
// does (query protocol, XML answers). Point the SDK at it with
// AWS_ENDPOINT_URL_STS=URL.
type STS struct {
	URL string

	mu       sync.Mutex
	lifetime time.Duration
	refuse   string
	hang     bool
	release  chan struct{} // closed when the test ends, before the server stops
	calls    []STSCall
}

// STSCall is one request and the credentials it was answered with.
type STSCall struct {
	Action, RoleARN, ExternalID, SessionName, WebIdentityToken string
	// SignedBy is the access key ID in the request's SigV4 Authorization
	// header; "" for the unsigned AssumeRoleWithWebIdentity.
	SignedBy string
	Issued   Credentials
}

// Credentials are temporary credentials the fake issued.
type Credentials struct {
	AccessKeyID, SecretAccessKey, SessionToken string
	Expiration                                 time.Time
}

// NewSTS starts the fake; its credentials last an hour until SetLifetime.
func NewSTS(t testing.TB) *STS {
	t.Helper()
	s := &STS{lifetime: time.Hour, release: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(s.release) }) // runs first: Close waits for hanging requests
	s.URL = srv.URL
	return s
}

// SetLifetime sets the lifetime of the credentials issued from now on.
func (s *STS) SetLifetime(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lifetime = d
}

// Refuse makes every later request fail with this STS error code (such as
// "AccessDenied" or "ExpiredToken"); "" answers again.
func (s *STS) Refuse(code string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = code
}

// Hang makes every later request wait, unanswered, until its client gives
// up or the test ends: an STS behind a firewall that drops packets.
func (s *STS) Hang() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hang = true
}

// Calls returns the requests answered so far, oldest first.
func (s *STS) Calls() []STSCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]STSCall(nil), s.calls...)
}

var credentialInAuthorization = regexp.MustCompile(`Credential=([^/]+)/`)

func (s *STS) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	hang := s.hang
	s.mu.Unlock()
	if hang {
		select {
		case <-r.Context().Done():
		case <-s.release:
		}
		return
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	action := r.PostForm.Get("Action")
	if action != "AssumeRole" && action != "AssumeRoleWithWebIdentity" {
		stsError(w, http.StatusBadRequest, "InvalidAction", "this fake answers AssumeRole and AssumeRoleWithWebIdentity")
		return
	}
	call := STSCall{
		Action: action, RoleARN: r.PostForm.Get("RoleArn"), ExternalID: r.PostForm.Get("ExternalId"),
		SessionName: r.PostForm.Get("RoleSessionName"), WebIdentityToken: r.PostForm.Get("WebIdentityToken"),
	}
	if m := credentialInAuthorization.FindStringSubmatch(r.Header.Get("Authorization")); m != nil {
		call.SignedBy = m[1]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refuse != "" {
		stsError(w, http.StatusForbidden, s.refuse, "refused by the test")
		return
	}
	call.Issued = Credentials{
		AccessKeyID:     fmt.Sprintf("ASIAFAKE%08d", len(s.calls)+1),
		SecretAccessKey: "sts-secret-" + randomHex(16),
		SessionToken:    "sts-session-" + randomHex(24),
		Expiration:      time.Now().Add(s.lifetime).UTC().Truncate(time.Second),
	}
	s.calls = append(s.calls, call)
	w.Header().Set("Content-Type", "text/xml")
	_, _ = fmt.Fprintf(w, `<%[1]sResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <%[1]sResult>
    <Credentials>
      <AccessKeyId>%[2]s</AccessKeyId>
      <SecretAccessKey>%[3]s</SecretAccessKey>
      <SessionToken>%[4]s</SessionToken>
      <Expiration>%[5]s</Expiration>
    </Credentials>
    <AssumedRoleUser>
      <Arn>%[6]s/%[7]s</Arn>
      <AssumedRoleId>AROAFAKE:%[7]s</AssumedRoleId>
    </AssumedRoleUser>
  </%[1]sResult>
  <ResponseMetadata><RequestId>fake-%[8]d</RequestId></ResponseMetadata>
</%[1]sResponse>
`, action, call.Issued.AccessKeyID, call.Issued.SecretAccessKey, call.Issued.SessionToken,
		call.Issued.Expiration.Format(time.RFC3339), xmlText(call.RoleARN), xmlText(call.SessionName), len(s.calls))
}

func stsError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <Error><Type>Sender</Type><Code>%s</Code><Message>%s</Message></Error>
  <RequestId>fake-error</RequestId>
</ErrorResponse>
`, code, xmlText(message))
}

func xmlText(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
