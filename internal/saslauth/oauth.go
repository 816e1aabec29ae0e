package saslauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// OAuthClientCredentials fetches OAUTHBEARER tokens from an OAuth 2 token
// endpoint with the client credentials grant (RFC 6749, section 4.4), the
// way Kafka's own client does with sasl.oauthbearer.token.endpoint.url.
type OAuthClientCredentials struct {
	config    clientcredentials.Config
	transport http.RoundTripper
	timeout   time.Duration
	now       func() time.Time

	// Hooks are told about every token fetched.
	Hooks Hooks

	mu       sync.Mutex // held across a fetch: concurrent connections share one
	token    *oauth2.Token
	lifetime time.Duration
	redactor redactor
}

// NewOAuthClientCredentials prepares a source; it fetches nothing yet.
// timeout bounds each token request (connection, TLS, response); the
// endpoint is trusted through the system roots (SSL_CERT_FILE and
// SSL_CERT_DIR extend them). Redirects are not followed (see
// refuseRedirect).
func NewOAuthClientCredentials(tokenURL, clientID, clientSecret string, scopes []string, timeout time.Duration) *OAuthClientCredentials {
	return &OAuthClientCredentials{
		config: clientcredentials.Config{
			TokenURL: tokenURL, ClientID: clientID, ClientSecret: clientSecret, Scopes: scopes,
		},
		// Not http.DefaultTransport: nothing else in the process may change
		// how tokens are fetched.
		transport: http.DefaultTransport.(*http.Transport).Clone(),
		timeout:   timeout,
		now:       time.Now,
		redactor:  newRedactor(clientID, clientSecret),
	}
}

// Mechanism is OAUTHBEARER presenting the current token.
func (o *OAuthClientCredentials) Mechanism() sasl.Mechanism {
	return oauth.Oauth(func(ctx context.Context) (oauth.Auth, error) {
		token, err := o.Token(ctx)
		return oauth.Auth{Token: token}, err
	})
}

// Token returns the current access token, fetching a new one when there is
// none yet or the current one is within its renewal margin of expiry.
func (o *OAuthClientCredentials) Token(ctx context.Context) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.token != nil && !o.renewalDue() {
		return o.token.AccessToken, nil
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	var answer tokenAnswer
	client := &http.Client{Transport: answerRecorder{base: o.transport, answer: &answer}, CheckRedirect: refuseRedirect}
	token, err := o.config.Token(context.WithValue(ctx, oauth2.HTTPClient, client))
	if err == nil && token.AccessToken == "" {
		err = errors.New("the response holds no access_token")
	}
	if err != nil {
		return "", o.endpointError(err, answer)
	}
	o.redactor.add(token.AccessToken, token.RefreshToken)
	o.Hooks.secrets(token.AccessToken, token.RefreshToken)
	o.token = token
	o.lifetime = 0
	if !token.Expiry.IsZero() {
		o.lifetime = token.Expiry.Sub(o.now())
	}
	o.Hooks.log("OAuth token obtained for OAUTHBEARER", "token_url", o.config.TokenURL,
		"client_id", o.config.ClientID, "expires_in", o.lifetime.Round(time.Second).String())
	return token.AccessToken, nil
}

// renewalDue says whether the token is within a third of its lifetime (at
// most a minute) of expiry. Kafka ends a session when its token expires
// (KIP-368), so a connection must not start with a token about to expire;
// a third keeps the margin inside short lifetimes. A token without
// expires_in is kept for the whole run.
func (o *OAuthClientCredentials) renewalDue() bool {
	if o.token.Expiry.IsZero() {
		return false
	}
	margin := min(time.Minute, o.lifetime/3)
	return !o.now().Add(margin).Before(o.token.Expiry)
}

// endpointError describes a failed request from what the endpoint
// answered. Of the answer's body it quotes only what oauth2 parsed and
// quotable finds safe, the OAuth error code and description, never the
// body itself: an endpoint may echo the request, client secret included,
// in an encoding no redaction anticipates. Fields are judged before they
// are quoted, so escaping (%q) cannot hide a secret from the check.
func (o *OAuthClientCredentials) endpointError(err error, answer tokenAnswer) *TokenEndpointError {
	e := &TokenEndpointError{
		TokenURL: o.config.TokenURL, ClientID: o.config.ClientID,
		StatusCode: answer.status, ContentType: answer.contentType, Location: answer.location,
	}
	var retrieve *oauth2.RetrieveError
	var transport *url.Error
	switch {
	case errors.As(err, &retrieve):
		// Its own message quotes the whole body; only the fields are kept.
		e.ErrorCode = o.redactor.quotable(retrieve.ErrorCode)
		e.Err = errors.New(o.describeRefusal(retrieve))
	case errors.As(err, &transport):
		// No answer, or none read: the message is the URL and the network's
		// error, which the endpoint did not write.
		e.Err = redactedError{msg: o.redactor.redact(err.Error()), err: err}
	default:
		// oauth2's parse errors quote pieces of the body.
		e.Err = errors.New("the answer is not an OAuth token response: it is neither JSON nor a form with an access_token")
	}
	return e
}

// describeRefusal says what an endpoint's refusal held: its error code and
// description where quotable, and why not otherwise.
func (o *OAuthClientCredentials) describeRefusal(r *oauth2.RetrieveError) string {
	const withheld = "not shown: it is not short printable text, or it holds a form of the client secret or a token"
	var parts []string
	switch code := o.redactor.quotable(r.ErrorCode); {
	case r.ErrorCode == "":
		parts = append(parts, "no OAuth error code in the answer")
	case code == "":
		parts = append(parts, "an OAuth error code "+withheld)
	default:
		parts = append(parts, fmt.Sprintf("error %q", code))
	}
	switch desc := o.redactor.quotable(r.ErrorDescription); {
	case r.ErrorDescription == "":
	case desc == "":
		parts = append(parts, "an error_description "+withheld)
	default:
		parts = append(parts, fmt.Sprintf("error_description %q", desc))
	}
	return strings.Join(parts, ", ")
}

// redactedError is a transport or parse error with its message redacted
// and bounded; the chain stays for errors.Is (context.DeadlineExceeded).
type redactedError struct {
	msg string
	err error
}

func (e redactedError) Error() string { return e.msg }
func (e redactedError) Unwrap() error { return e.err }

// TokenEndpointError is a token request that failed: the endpoint was
// unreachable, refused the client, redirected or answered something
// unusable. No field holds the client secret or a token.
type TokenEndpointError struct {
	TokenURL, ClientID string
	// StatusCode is the HTTP status of the last answer, 0 when there was
	// no HTTP answer (DNS, connection, TLS, timeout).
	StatusCode int
	// ErrorCode is the RFC 6749 error code of a refusal, such as
	// "invalid_client" or "invalid_scope"; "" when the endpoint sent none.
	ErrorCode string
	// ContentType is the answer's Content-Type header.
	ContentType string
	// Location is the origin (scheme://host) a redirect pointed to, which
	// was not followed; "" for other answers.
	Location string
	Err      error
}

func (e *TokenEndpointError) Error() string {
	msg := fmt.Sprintf("requesting an OAuth token from %s for client %q: ", e.TokenURL, e.ClientID)
	if e.StatusCode == 0 {
		return msg + e.Err.Error()
	}
	msg += fmt.Sprintf("HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.Location != "" {
		msg += " to " + e.Location + " (not followed)"
	}
	if e.ContentType != "" {
		msg += " (" + e.ContentType + ")"
	}
	return msg + ": " + e.Err.Error()
}

func (e *TokenEndpointError) Unwrap() error { return e.Err }
