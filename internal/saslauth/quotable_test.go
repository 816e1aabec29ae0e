package saslauth

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// awkwardSecrets need escaping in JSON ("\\", "\"", "/" as "\/", "<" and
// "&" as \u003c and \u0026), in HTML and in a form body.
var awkwardSecrets = []string{
	`Zq8"Kp\w/Lm&Rt<Yx`,
	`qu"ote-9a7Fb`,
	`a\b/c&d<e>f"g'h2x7`,
	`p&amp;w<script>Tk4`,
}

// echoes are token endpoints that quote the request back, each in its own
// encoding, in every place oauth2 parses or a page shows.
var echoes = map[string]func(w http.ResponseWriter, form, authorization string){
	"JSON description with escaped slashes": func(w http.ResponseWriter, form, _ string) {
		secret, _ := url.ParseQuery(form)
		desc, _ := json.Marshal("bad secret " + secret.Get("client_secret")) // \u003c, \u0026, \"
		answerJSON(w, http.StatusUnauthorized, `{"error":"invalid_client","error_description":`+strings.ReplaceAll(string(desc), "/", `\/`)+`}`)
	},
	"JSON description quoting the form body": func(w http.ResponseWriter, form, _ string) {
		desc, _ := json.Marshal("request was " + form)
		answerJSON(w, http.StatusBadRequest, `{"error":"invalid_request","error_description":`+string(desc)+`}`)
	},
	"JSON description quoting the Authorization header": func(w http.ResponseWriter, _, authorization string) {
		desc, _ := json.Marshal("header " + authorization)
		answerJSON(w, http.StatusUnauthorized, `{"error":"invalid_client","error_description":`+string(desc)+`}`)
	},
	"JSON description HTML-escaped": func(w http.ResponseWriter, form, _ string) {
		secret, _ := url.ParseQuery(form)
		desc, _ := json.Marshal("<b>" + html.EscapeString(secret.Get("client_secret")) + "</b>")
		answerJSON(w, http.StatusUnauthorized, `{"error":"invalid_client","error_description":`+string(desc)+`}`)
	},
	"JSON description with unicode escapes": func(w http.ResponseWriter, form, _ string) {
		secret, _ := url.ParseQuery(form)
		var b strings.Builder
		for _, r := range secret.Get("client_secret") {
			fmt.Fprintf(&b, `\\u%04x`, r) // double-escaped: the parsed description still holds \uXXXX
		}
		answerJSON(w, http.StatusUnauthorized, `{"error":"invalid_client","error_description":"`+b.String()+`"}`)
	},
	"JSON error code that is the secret": func(w http.ResponseWriter, form, _ string) {
		secret, _ := url.ParseQuery(form)
		code, _ := json.Marshal(secret.Get("client_secret"))
		answerJSON(w, http.StatusBadRequest, `{"error":`+string(code)+`}`)
	},
	"form answer echoing the body": func(w http.ResponseWriter, form, _ string) {
		w.Header().Set("Content-Type", "application/x-www-form-urlencoded")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, "error=invalid_request&error_description="+url.QueryEscape(form))
	},
	"HTML error page": func(w http.ResponseWriter, form, authorization string) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusForbidden)
		_, _ = io.WriteString(w, "<html><p>"+html.EscapeString(form)+"</p><p>"+html.EscapeString(authorization)+"</p></html>")
	},
	"HTML page behind a 200": func(w http.ResponseWriter, form, _ string) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<html><title>Sign in</title><input value=\""+html.EscapeString(form)+"\"></html>")
	},
}

func answerJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// TestOAuthSecretInAnyEncodingIsNeverQuoted: whatever encoding a token
// endpoint echoes the client secret in, the error quotes no form of it: its
// letters and digits never appear in order, whatever punctuation or escapes
// surround them.
func TestOAuthSecretInAnyEncodingIsNeverQuoted(t *testing.T) {
	server := newTokenServer(t, time.Hour) // one key pair for every case: generating one takes a while
	for _, secret := range awkwardSecrets {
		for name, echo := range echoes {
			t.Run(name+"/"+secret, func(t *testing.T) {
				server.AnswerWith(func(w http.ResponseWriter, r *http.Request) {
					body, _ := io.ReadAll(r.Body)
					echo(w, string(body), r.Header.Get("Authorization"))
				})
				o := NewOAuthClientCredentials(server.URL, "terraform", secret, nil, 5*time.Second)
				_, err := bearerToken(t, o)
				var endpoint *TokenEndpointError
				if !errors.As(err, &endpoint) {
					t.Fatalf("got %v (%T), want a *TokenEndpointError", err, err)
				}
				assertNoFormOf(t, err.Error(), secret)
				assertNoFormOf(t, endpoint.ErrorCode, secret)
			})
		}
	}
}

// assertNoFormOf fails when text holds secret, or its letters and digits in
// order (any escaping of its punctuation), or its Basic credentials.
func assertNoFormOf(t *testing.T, text, secret string) {
	t.Helper()
	forms := []string{secret, fmt.Sprintf("%q", secret), html.EscapeString(secret), url.QueryEscape(secret),
		base64.StdEncoding.EncodeToString([]byte("terraform:" + secret)),
		base64.StdEncoding.EncodeToString([]byte("terraform:" + url.QueryEscape(secret)))}
	for _, form := range forms {
		if strings.Contains(text, form) {
			t.Fatalf("%q quotes the secret as %q", text, form)
		}
	}
	if strings.Contains(skeleton(text), skeleton(secret)) {
		t.Fatalf("%q holds the secret's letters and digits %q in order", text, skeleton(secret))
	}
}

// TestOAuthSafeRefusalIsQuoted: a refusal that holds no credential is
// quoted, code and description, so the operator sees what the identity
// provider said.
func TestOAuthSafeRefusalIsQuoted(t *testing.T) {
	server := newTokenServer(t, time.Hour)
	server.AnswerWith(func(w http.ResponseWriter, _ *http.Request) {
		answerJSON(w, http.StatusUnauthorized, `{"error":"invalid_client","error_description":"Client authentication failed (unknown client)"}`)
	})
	o := NewOAuthClientCredentials(server.URL, "terraform", awkwardSecrets[0], nil, 5*time.Second)
	_, err := bearerToken(t, o)
	var endpoint *TokenEndpointError
	if !errors.As(err, &endpoint) {
		t.Fatalf("got %v (%T), want a *TokenEndpointError", err, err)
	}
	if want := `error "invalid_client", error_description "Client authentication failed (unknown client)"`; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q; want it to quote %s", err, want)
	}
	if endpoint.ErrorCode != "invalid_client" {
		t.Errorf("ErrorCode %q, want invalid_client", endpoint.ErrorCode)
	}
}

// TestOAuthRefusalQuotingATokenIsNotQuoted: a token issued earlier is a
// credential too; a renewal refused with a description that quotes it is
// not shown.
func TestOAuthRefusalQuotingATokenIsNotQuoted(t *testing.T) {
	server := newTokenServer(t, time.Second) // renewed at the next use
	o := NewOAuthClientCredentials(server.URL, "terraform", "client-secret-1", nil, 5*time.Second)
	token, err := bearerToken(t, o)
	if err != nil {
		t.Fatal(err)
	}
	server.AnswerWith(func(w http.ResponseWriter, _ *http.Request) {
		desc, _ := json.Marshal("token " + strings.ReplaceAll(token, ".", "&#46;") + " was revoked")
		answerJSON(w, http.StatusBadRequest, `{"error":"invalid_grant","error_description":`+string(desc)+`}`)
	})
	o.token.Expiry = time.Now() // due for renewal
	_, err = bearerToken(t, o)
	if err == nil {
		t.Fatal("the renewal succeeded; want the endpoint's refusal")
	}
	assertNoFormOf(t, err.Error(), token)
	if !strings.Contains(err.Error(), `error "invalid_grant", an error_description not shown`) {
		t.Errorf("error %q; want the code quoted and the description withheld", err)
	}
}
