// Package saslauth obtains the credentials of the SASL mechanisms whose
// credentials expire: OAuth 2 client-credentials tokens for OAUTHBEARER and
// AWS credentials (default chain, optionally an assumed role) for
// AWS_MSK_IAM. Each source hands franz-go a mechanism that asks it for
// credentials on every new connection and every re-authentication; the
// source keeps what it fetched until it is close to expiry, so a long apply
// renews them without fetching for every connection.
//
// Nothing here knows Terraform. Errors are typed (*TokenEndpointError,
// *AWSError) so the provider's diagnostics can say which step failed and
// what to do about it.
package saslauth

import (
	"github.com/twmb/franz-go/pkg/kgo"
)

// Hooks let the caller see every credential a source obtains. Set them
// before the first connection; they are read without locking.
type Hooks struct {
	// Secrets is called with the secret parts of each credential before it
	// is used, so a logger can mask them. nil: nobody is told.
	Secrets func(values ...string)
	// Logger receives one debug line per credential obtained, naming where
	// it came from and when it expires; never the credential. nil: no log.
	Logger kgo.Logger
}

func (h Hooks) secrets(values ...string) {
	if h.Secrets != nil {
		h.Secrets(values...)
	}
}

func (h Hooks) log(msg string, keyvals ...any) {
	if h.Logger != nil && h.Logger.Level() >= kgo.LogLevelInfo {
		h.Logger.Log(kgo.LogLevelInfo, msg, keyvals...)
	}
}
