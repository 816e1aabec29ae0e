package saslauth

import (
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// trickySecret needs escaping in a form body and in a URL, so the
// encoded forms differ from the secret as given.
const trickySecret = "s3cr3t/+=&!pw"

// redirectTo answers every request with a 307 to target, which keeps the
// POST and its body when followed.
func redirectTo(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusTemporaryRedirect)
	}
}

func TestOAuthTokenRequestsDoNotFollowRedirects(t *testing.T) {
	elsewhere := newTokenServer(t, time.Hour) // would answer the redirected POST with a token
	elsewhereOrigin := strings.TrimSuffix(elsewhere.URL, "/oauth2/token")

	t.Run("to another origin", func(t *testing.T) {
		endpoint := newTokenServer(t, time.Hour)
		endpoint.AnswerWith(redirectTo(elsewhere.URL + "?session=abc123"))
		o := NewOAuthClientCredentials(endpoint.URL, "terraform", "client-secret-1", nil, 5*time.Second)
		assertRedirectRefused(t, o, elsewhere, elsewhereOrigin)
	})
	t.Run("from https to http", func(t *testing.T) {
		endpoint := httptest.NewTLSServer(redirectTo(elsewhere.URL + "?session=abc123"))
		t.Cleanup(endpoint.Close)
		o := NewOAuthClientCredentials(endpoint.URL+"/token", "terraform", "client-secret-1", nil, 5*time.Second)
		o.transport = endpoint.Client().Transport // trusts the test server's certificate
		assertRedirectRefused(t, o, elsewhere, elsewhereOrigin)
	})
}

func assertRedirectRefused(t *testing.T, o *OAuthClientCredentials, elsewhere interface{ Requests() int }, origin string) {
	t.Helper()
	_, err := bearerToken(t, o)
	var endpoint *TokenEndpointError
	if !errors.As(err, &endpoint) {
		t.Fatalf("got %v (%T), want a *TokenEndpointError", err, err)
	}
	if n := elsewhere.Requests(); n != 0 {
		t.Fatalf("the redirect target received %d requests, want none", n)
	}
	if endpoint.StatusCode != http.StatusTemporaryRedirect || endpoint.Location != origin {
		t.Errorf("status %d, location %q; want 307 and %q", endpoint.StatusCode, endpoint.Location, origin)
	}
	if msg := err.Error(); strings.Contains(msg, "abc123") || !strings.Contains(msg, origin) {
		t.Errorf("error %q; want the redirect's origin without the rest of its URL", msg)
	}
}

// An endpoint that echoes the request: nothing of the body is quoted, only
// the status and what oauth2 parsed (here, no OAuth error code).
func TestOAuthTokenEndpointAnswersAreNotQuoted(t *testing.T) {
	server := newTokenServer(t, time.Hour)
	// An endpoint that echoes the request (headers and form) ahead of 5 MiB.
	server.AnswerWith(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, "Authorization: "+r.Header.Get("Authorization")+"\nbody: "+string(body)+"\n")
		_, _ = io.WriteString(w, strings.Repeat("x", 5<<20))
	})
	o := NewOAuthClientCredentials(server.URL, "terraform client", trickySecret, nil, 5*time.Second)
	_, err := bearerToken(t, o)
	var endpoint *TokenEndpointError
	if !errors.As(err, &endpoint) {
		t.Fatalf("got %v (%T), want a *TokenEndpointError", err, err)
	}
	msg := err.Error()
	if len(msg) > 1000 {
		t.Errorf("error of %d bytes, want the answer quoted to a few hundred", len(msg))
	}
	if !strings.Contains(msg, "HTTP 400") || !strings.Contains(msg, "no OAuth error code in the answer") || strings.Contains(msg, "Authorization") {
		t.Errorf("error %q; want the status and what was parsed, and nothing of the body", msg)
	}
	basicInHeader := base64.StdEncoding.EncodeToString([]byte(url.QueryEscape("terraform client") + ":" + url.QueryEscape(trickySecret)))
	for _, secret := range []string{trickySecret, url.QueryEscape(trickySecret), basicInHeader, "s3cr3t"} {
		if strings.Contains(msg, secret) {
			t.Errorf("error quotes the client secret as %q: %s", secret, msg)
		}
	}
}

func TestOAuthAnswerThatIsNotATokenResponse(t *testing.T) {
	server := newTokenServer(t, time.Hour)
	server.AnswerWith(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, "<html><title>Sign in</title></html>")
	})
	o := NewOAuthClientCredentials(server.URL, "terraform", "client-secret-1", nil, 5*time.Second)
	_, err := bearerToken(t, o)
	var endpoint *TokenEndpointError
	if !errors.As(err, &endpoint) {
		t.Fatalf("got %v (%T), want a *TokenEndpointError", err, err)
	}
	if endpoint.StatusCode != http.StatusOK || !strings.HasPrefix(endpoint.ContentType, "text/html") ||
		!strings.Contains(err.Error(), "not an OAuth token response") {
		t.Errorf("status %d, content type %q, error %q; want 200, text/html and that it is not a token response",
			endpoint.StatusCode, endpoint.ContentType, err)
	}
	if strings.Contains(err.Error(), "Sign in") {
		t.Errorf("error %q quotes the page: only parsed OAuth fields may be quoted", err)
	}
}
