package saslauth

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/saslauth/saslauthtest"
)

func newTokenServer(t *testing.T, lifetime time.Duration) *saslauthtest.TokenServer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return saslauthtest.NewTokenServer(t, saslauthtest.TokenConfig{
		ClientID: "terraform", ClientSecret: "client-secret-1", Lifetime: lifetime, Key: key,
		KeyID: "k1", Issuer: "https://issuer.test", Audience: "kafka", Subject: "terraform",
	})
}

// bearerToken runs the OAUTHBEARER mechanism's first step, as franz-go does
// on every new connection, and returns the token it would send (RFC 7628
// initial client response: gs2 header, then auth=Bearer <token>).
func bearerToken(t *testing.T, o *OAuthClientCredentials) (string, error) {
	t.Helper()
	_, first, err := o.Mechanism().Authenticate(context.Background(), "127.0.0.1:9092")
	if err != nil {
		return "", err
	}
	for _, field := range bytes.Split(first, []byte{1}) {
		if token, ok := strings.CutPrefix(string(field), "auth=Bearer "); ok {
			return token, nil
		}
	}
	t.Fatalf("no auth=Bearer field in the OAUTHBEARER message %q", first)
	return "", nil
}

func TestOAuthTokenIsFetchedOnceAndSent(t *testing.T) {
	server := newTokenServer(t, time.Hour)
	o := NewOAuthClientCredentials(server.URL, "terraform", "client-secret-1", []string{"kafka", "admin"}, 5*time.Second)
	var secrets []string
	o.Hooks.Secrets = func(values ...string) { secrets = append(secrets, values...) }

	for range 3 {
		token, err := bearerToken(t, o)
		if err != nil {
			t.Fatal(err)
		}
		issued := server.Issued()
		if len(issued) != 1 {
			t.Fatalf("%d tokens fetched for 3 connections with a token valid for an hour, want 1", len(issued))
		}
		if token != issued[0].Token {
			t.Fatalf("mechanism sent %q, want the issued token", token)
		}
		if issued[0].Scope != "kafka admin" {
			t.Errorf("token requested with scope %q, want \"kafka admin\"", issued[0].Scope)
		}
	}
	if !slices.Contains(secrets, server.Issued()[0].Token) {
		t.Error("the Secrets hook was not told about the token")
	}
}

func TestOAuthTokenIsRenewedBeforeExpiry(t *testing.T) {
	// 90 s tokens: renewed once less than 30 s (a third) remain.
	server := newTokenServer(t, 90*time.Second)
	o := NewOAuthClientCredentials(server.URL, "terraform", "client-secret-1", nil, 5*time.Second)
	var offset time.Duration
	o.now = func() time.Time { return time.Now().Add(offset) }

	fetched := func() int { return len(server.Issued()) }
	if _, err := bearerToken(t, o); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		offset      time.Duration
		wantFetched int
	}{
		{55 * time.Second, 1}, // 35 s left: kept
		{65 * time.Second, 2}, // 25 s left: renewed on this connection
		{70 * time.Second, 2}, // the new token has ~85 s left
		{2 * time.Hour, 3},    // long expired: renewed
	} {
		offset = step.offset
		token, err := bearerToken(t, o)
		if err != nil {
			t.Fatal(err)
		}
		if got := fetched(); got != step.wantFetched {
			t.Fatalf("at +%s: %d tokens fetched, want %d", step.offset, got, step.wantFetched)
		}
		if issued := server.Issued(); token != issued[len(issued)-1].Token {
			t.Fatalf("at +%s the mechanism did not send the newest token", step.offset)
		}
	}
}

func TestOAuthTokenEndpointFailures(t *testing.T) {
	server := newTokenServer(t, time.Hour)
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	unreachable := "http://" + closed.Addr().String() + "/token"
	closed.Close()

	tests := []struct {
		name, url, secret string
		wantStatus        int
		wantCode          string
	}{
		{"wrong client secret", server.URL, "wrong", http.StatusUnauthorized, "invalid_client"},
		{"wrong path", strings.TrimSuffix(server.URL, "/oauth2/token") + "/other", "client-secret-1", http.StatusNotFound, ""},
		{"nothing listening", unreachable, "client-secret-1", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := NewOAuthClientCredentials(tt.url, "terraform", tt.secret, nil, 5*time.Second)
			_, err := bearerToken(t, o)
			var endpoint *TokenEndpointError
			if !errors.As(err, &endpoint) {
				t.Fatalf("got %v (%T), want a *TokenEndpointError", err, err)
			}
			if endpoint.StatusCode != tt.wantStatus || endpoint.ErrorCode != tt.wantCode || endpoint.TokenURL != tt.url {
				t.Errorf("got status %d, code %q, URL %s; want %d, %q, %s",
					endpoint.StatusCode, endpoint.ErrorCode, endpoint.TokenURL, tt.wantStatus, tt.wantCode, tt.url)
			}
			if strings.Contains(err.Error(), tt.secret) {
				t.Errorf("the error quotes the client secret: %v", err)
			}
		})
	}
}

// recordingLogger keeps what franz-go's logger interface receives.
type recordingLogger struct{ lines []string }

func (l *recordingLogger) Level() kgo.LogLevel { return kgo.LogLevelDebug }

func (l *recordingLogger) Log(_ kgo.LogLevel, msg string, keyvals ...any) {
	var b strings.Builder
	b.WriteString(msg)
	for _, kv := range keyvals {
		b.WriteString(" ")
		b.WriteString(strings.TrimSpace(strings.ReplaceAll(fmt.Sprint(kv), "\n", " ")))
	}
	l.lines = append(l.lines, b.String())
}

func TestOAuthTokenFetchIsLoggedWithoutTheToken(t *testing.T) {
	server := newTokenServer(t, time.Hour)
	o := NewOAuthClientCredentials(server.URL, "terraform", "client-secret-1", nil, 5*time.Second)
	log := &recordingLogger{}
	o.Hooks.Logger = log
	if _, err := bearerToken(t, o); err != nil {
		t.Fatal(err)
	}
	if len(log.lines) != 1 || !strings.Contains(log.lines[0], server.URL) || !strings.Contains(log.lines[0], "1h0m0s") {
		t.Fatalf("log %q; want one line naming the endpoint and the token's lifetime", log.lines)
	}
	for _, secret := range []string{server.Issued()[0].Token, "client-secret-1"} {
		if strings.Contains(log.lines[0], secret) {
			t.Errorf("log line holds a secret: %s", log.lines[0])
		}
	}
}
