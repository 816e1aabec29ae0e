package provider

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/saslauth/saslauthtest"
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
			mentions: []string{"HTTP 502", "no OAuth error code in the answer", "Retry"},
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
			mentions: []string{"not with an OAuth token response", "content type text/html", "is not quoted"},
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
			for _, form := range []string{secret, url.QueryEscape(secret), "s3cr3t", "xyz", "Sign in"} {
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

// TestOAuthSecretEchoedInOtherEncodingsReachesNeitherDiagnosticNorTraceLog:
// a token endpoint that, on renewal, echoes the client secret JSON-escaped
// (with "\/") and HTML-escaped. The renewal happens inside franz-go's SASL
// handshake, which logs the failure; with TF_LOG=trace neither that log
// nor the diagnostic holds any form of the secret.
func TestOAuthSecretEchoedInOtherEncodingsReachesNeitherDiagnosticNorTraceLog(t *testing.T) {
	const secret = `Zq8"Kp\w/Lm&Rt<Yx`
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	endpoint := saslauthtest.NewTokenServer(t, saslauthtest.TokenConfig{
		ClientID: "terraform", ClientSecret: secret, Lifetime: time.Second, Key: key,
		KeyID: "k", Issuer: "https://issuer.test", Audience: "kafka", Subject: "terraform",
	})
	// A broker that offers OAUTHBEARER, so franz-go asks for a token on
	// every new connection (kfake does not validate tokens; the test only
	// needs the client side of the handshake).
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	c.ControlKey(int16(kmsg.SASLHandshake), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		resp := req.ResponseKind().(*kmsg.SASLHandshakeResponse)
		resp.Version = req.GetVersion()
		resp.SupportedMechanisms = []string{"OAUTHBEARER"}
		return resp, nil, true
	})
	clients, diags := configure(t, nil, map[string]any{
		"bootstrap_servers": c.ListenAddrs(),
		"sasl":              map[string]any{"mechanism": "OAUTHBEARER", "token_url": endpoint.URL, "client_id": "terraform", "client_secret": secret},
	})
	if diags.HasError() {
		t.Fatalf("Configure: %v", diags)
	}
	var logged bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &logged) // TF_LOG=trace
	kafka, diags := clients.KafkaClient(ctx, "reading topic \"orders\"")
	if diags.HasError() {
		t.Fatalf("the first token was refused: %v", diags)
	}
	endpoint.AnswerWith(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		form, _ := url.ParseQuery(string(body))
		desc, _ := json.Marshal("client " + form.Get("client_secret") + " <p>" + html.EscapeString(form.Get("client_secret")) + "</p>")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"error":"invalid_client","error_description":`+strings.ReplaceAll(string(desc), "/", `\/`)+`}`)
	})
	// The token is issued for a second and renewed a third of that before
	// it expires: wait until it is due, so the next connection renews it.
	time.Sleep(time.Second)
	_, err = kafka.DescribeTopic(ctx, "orders")
	if err == nil {
		t.Fatal("DescribeTopic succeeded; want the renewal's refusal")
	}
	d := diagnostics.FromKafkaErrorVia("reading topic \"orders\"", err, "")
	if !strings.Contains(logged.String(), "unable to initialize sasl") || !strings.Contains(logged.String(), "invalid_client") {
		t.Fatalf("franz-go did not log the failed renewal; the test proves nothing:\n%s", logged.String())
	}
	jsonForm, _ := json.Marshal(secret)
	forms := []string{secret, fmt.Sprintf("%q", secret), strings.Trim(string(jsonForm), `"`), strings.ReplaceAll(strings.Trim(string(jsonForm), `"`), "/", `\/`),
		html.EscapeString(secret), url.QueryEscape(secret), "Zq8", "Rt\\u003cYx", "Rt&lt;Yx", "Rt<Yx"}
	for where, text := range map[string]string{"diagnostic": d.Summary() + "\n" + d.Detail(), "trace log": logged.String()} {
		for _, form := range forms {
			if strings.Contains(text, form) {
				t.Errorf("the %s holds the secret as %q:\n%s", where, form, text)
			}
		}
	}
}
