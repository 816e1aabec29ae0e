package provider

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestOAuthEndpointAnswersInDiagnostics drives a misbehaving token endpoint
// through Configure and the first use of Kafka: the diagnostic says what
// the endpoint did, quotes a bounded part of its answer and never the
// client secret, and a redirect's target is never asked.
func TestOAuthEndpointAnswersInDiagnostics(t *testing.T) {
	const secret = "s3cr3t/+=&!pw"
	elsewhere := newTokenServer(t)
	tests := []struct {
		name, summary string
		answer        http.HandlerFunc
		mentions      []string
	}{
		{
			name:    "echo of the request ahead of 5 MiB",
			summary: "OAuth Token Request Failed",
			answer: func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				w.WriteHeader(http.StatusBadGateway)
				_, _ = io.WriteString(w, "Authorization: "+r.Header.Get("Authorization")+" body: "+string(body))
				_, _ = io.WriteString(w, strings.Repeat("x", 5<<20))
			},
			mentions: []string{"HTTP 502", "(redacted)", "Retry"},
		},
		{
			name:    "redirect to another origin",
			summary: "OAuth Token Request Failed",
			answer: func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, elsewhere.URL+"?code=xyz", http.StatusTemporaryRedirect)
			},
			mentions: []string{"does not follow redirects", strings.TrimSuffix(elsewhere.URL, "/oauth2/token")},
		},
		{
			name:    "a sign-in page behind a 200",
			summary: "OAuth Token Request Failed",
			answer: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				_, _ = io.WriteString(w, "<html><title>Sign in</title></html>")
			},
			mentions: []string{"not with an OAuth token response", "content type text/html", "Sign in"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			endpoint := newTokenServer(t)
			endpoint.AnswerWith(tt.answer)
			clients, diags := configure(t, nil, map[string]any{
				"bootstrap_servers": []string{closedAddress(t)},
				"sasl": map[string]any{"mechanism": "OAUTHBEARER", "token_url": endpoint.URL, "client_id": "terraform",
					"client_secret": secret},
			})
			if diags.HasError() {
				t.Fatalf("Configure: %v", diags)
			}
			_, diags = clients.KafkaClient(context.Background(), "reading topic \"orders\"")
			assertSingleError(t, diags, tt.summary, tt.mentions...)
			detail := diags[0].Detail()
			if len(detail) > 3000 {
				t.Errorf("diagnostic of %d bytes; the answer must be quoted to a few hundred", len(detail))
			}
			for _, form := range []string{secret, url.QueryEscape(secret), "s3cr3t", "xyz"} {
				if strings.Contains(detail, form) {
					t.Errorf("the diagnostic holds %q:\n%s", form, detail)
				}
			}
			if n := elsewhere.Requests(); n != 0 {
				t.Errorf("the redirect's target was asked %d times", n)
			}
		})
	}
}
