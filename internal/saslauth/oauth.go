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
	config  clientcredentials.Config
	client  *http.Client
	timeout time.Duration
	now     func() time.Time

	// Hooks are told about every token fetched.
	Hooks Hooks

	mu       sync.Mutex // held across a fetch: concurrent connections share one
	token    *oauth2.Token
	lifetime time.Duration
}

// NewOAuthClientCredentials prepares a source; it fetches nothing yet.
// timeout bounds each token request (connection, TLS, response); the
// endpoint is trusted through the system roots (SSL_CERT_FILE and
// SSL_CERT_DIR extend them).
func NewOAuthClientCredentials(tokenURL, clientID, clientSecret string, scopes []string, timeout time.Duration) *OAuthClientCredentials {
	return &OAuthClientCredentials{
		config: clientcredentials.Config{
			TokenURL: tokenURL, ClientID: clientID, ClientSecret: clientSecret, Scopes: scopes,
		},
		// Not http.DefaultClient: nothing else in the process may change
		// how tokens are fetched.
		client:  &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()},
		timeout: timeout,
		now:     time.Now,
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
	token, err := o.config.Token(context.WithValue(ctx, oauth2.HTTPClient, o.client))
	if err == nil && token.AccessToken == "" {
		err = errors.New("the response holds no access_token")
	}
	if err != nil {
		return "", o.endpointError(err)
	}
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

func (o *OAuthClientCredentials) endpointError(err error) *TokenEndpointError {
	e := &TokenEndpointError{TokenURL: o.config.TokenURL, ClientID: o.config.ClientID, Err: err}
	var retrieve *oauth2.RetrieveError
	if errors.As(err, &retrieve) {
		e.ErrorCode = retrieve.ErrorCode
		if retrieve.Response != nil {
			e.StatusCode = retrieve.Response.StatusCode
		}
	}
	return e
}

// TokenEndpointError is a token request that failed: the endpoint was
// unreachable, refused the client or answered something unusable.
type TokenEndpointError struct {
	TokenURL, ClientID string
	// StatusCode is the HTTP status of a refusal, 0 when there was no
	// HTTP answer (DNS, connection, TLS, timeout).
	StatusCode int
	// ErrorCode is the RFC 6749 error code of a refusal, such as
	// "invalid_client" or "invalid_scope"; "" when the endpoint sent none.
	ErrorCode string
	Err       error
}

func (e *TokenEndpointError) Error() string {
	return fmt.Sprintf("requesting an OAuth token from %s for client %q: %v", e.TokenURL, e.ClientID, e.Err)
}

func (e *TokenEndpointError) Unwrap() error { return e.Err }
