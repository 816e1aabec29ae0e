package saslauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
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
// answered, quoting at most maxQuotedAnswer bytes of its body, with the
// client secret and any issued token redacted from everything quoted.
func (o *OAuthClientCredentials) endpointError(err error, answer tokenAnswer) *TokenEndpointError {
	e := &TokenEndpointError{
		TokenURL: o.config.TokenURL, ClientID: o.config.ClientID,
		StatusCode: answer.status, ContentType: answer.contentType, Location: answer.location,
		Answer: o.redactor.quote(string(answer.head)),
	}
	var retrieve *oauth2.RetrieveError
	if errors.As(err, &retrieve) {
		// Its message quotes the whole body; only the fields are kept.
		e.ErrorCode = retrieve.ErrorCode
		e.Err = errors.New(o.redactor.quote(fmt.Sprintf("error %q, error_description %q",
			retrieve.ErrorCode, retrieve.ErrorDescription)))
		if retrieve.ErrorCode == "" {
			e.Err = errors.New("no OAuth error code in the answer")
		}
		return e
	}
	e.Err = redactedError{msg: o.redactor.quote(err.Error()), err: err}
	return e
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
	// Answer is the start of the answer's body, redacted and bounded.
	Answer string
	Err    error
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
	msg += ": " + e.Err.Error()
	if e.Answer != "" {
		msg += fmt.Sprintf("; the answer begins %q", e.Answer)
	}
	return msg
}

func (e *TokenEndpointError) Unwrap() error { return e.Err }
