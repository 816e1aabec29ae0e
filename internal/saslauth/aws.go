package saslauth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	awscredentials "github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/credentials/ssocreds"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"
	"github.com/twmb/franz-go/pkg/sasl"
	awssasl "github.com/twmb/franz-go/pkg/sasl/aws"
)

// awsRenewalMargin is how long before expiry AWS credentials are replaced.
// The broker checks them when a connection authenticates; a minute keeps
// that check away from the expiry and is small beside the 15 minutes of the
// shortest STS session. (The SDK's caches take one fixed window, unlike
// OAuth's proportional margin.)
const awsRenewalMargin = time.Minute

// AWSOptions says where AWS_MSK_IAM credentials come from.
type AWSOptions struct {
	// AccessKeyID, SecretAccessKey and SessionToken are static credentials;
	// without AccessKeyID the AWS SDK's default chain is used: environment,
	// shared config and credentials files (AWS_PROFILE, SSO, credential
	// processes, roles in profiles), web identity (EKS IRSA), ECS container
	// and EC2 instance roles.
	AccessKeyID, SecretAccessKey, SessionToken string
	// Profile selects a shared-config profile instead of AWS_PROFILE.
	Profile string
	// Region is the region of the SDK's STS and SSO calls. Empty: the SDK's
	// own (AWS_REGION, AWS_DEFAULT_REGION, the profile), then DefaultRegion.
	Region, DefaultRegion string
	// RoleARN, when set, is assumed with the credentials above; ExternalID
	// and SessionName go with the AssumeRole request.
	RoleARN, ExternalID, SessionName string
	// UserAgent is sent in the MSK authentication payload, so IAM policies
	// can match aws:UserAgent.
	UserAgent string
	// Timeout bounds one credential retrieval (an STS call, an IMDS lookup).
	Timeout time.Duration
}

// AWSCredentials resolves and caches AWS credentials for AWS_MSK_IAM.
type AWSCredentials struct {
	provider  aws.CredentialsProvider
	source    string
	userAgent string
	timeout   time.Duration

	// Hooks are told about every credential obtained.
	Hooks Hooks

	mu         sync.Mutex
	lastLogged aws.Credentials
}

// NewAWSCredentials reads the AWS configuration (files and environment) but
// contacts nothing: credentials are retrieved on first use.
func NewAWSCredentials(ctx context.Context, opts AWSOptions) (*AWSCredentials, error) {
	load := []func(*awsconfig.LoadOptions) error{
		awsconfig.WithCredentialsCacheOptions(func(o *aws.CredentialsCacheOptions) { o.ExpiryWindow = awsRenewalMargin }),
	}
	if opts.Timeout > 0 {
		// The SDK's credential caches retrieve under a context that is never
		// cancelled, so Retrieve's timeout alone would leave a request to a
		// hanging endpoint running, and every later retrieval waiting on it.
		load = append(load, awsconfig.WithHTTPClient(awshttp.NewBuildableClient().WithTimeout(opts.Timeout)))
	}
	if opts.Region != "" {
		load = append(load, awsconfig.WithRegion(opts.Region))
	}
	if opts.DefaultRegion != "" {
		load = append(load, awsconfig.WithDefaultRegion(opts.DefaultRegion))
	}
	if opts.Profile != "" {
		load = append(load, awsconfig.WithSharedConfigProfile(opts.Profile))
	}
	source := "the AWS default credential chain"
	if opts.Profile != "" {
		source += fmt.Sprintf(" with profile %q", opts.Profile)
	}
	if opts.AccessKeyID != "" {
		source = fmt.Sprintf("the static access key %s", opts.AccessKeyID)
		load = append(load, awsconfig.WithCredentialsProvider(
			awscredentials.NewStaticCredentialsProvider(opts.AccessKeyID, opts.SecretAccessKey, opts.SessionToken)))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, load...)
	if err != nil {
		return nil, fmt.Errorf("loading the AWS configuration: %w", err)
	}
	provider := cfg.Credentials
	if opts.RoleARN != "" {
		source = fmt.Sprintf("role %s assumed with %s", opts.RoleARN, source)
		stsConfig := cfg.Copy()
		stsConfig.Credentials = roleSourceCredentials{cfg.Credentials}
		provider = aws.NewCredentialsCache(
			stscreds.NewAssumeRoleProvider(sts.NewFromConfig(stsConfig), opts.RoleARN, func(o *stscreds.AssumeRoleOptions) {
				o.RoleSessionName = opts.SessionName
				if opts.ExternalID != "" {
					o.ExternalID = aws.String(opts.ExternalID)
				}
			}),
			func(o *aws.CredentialsCacheOptions) { o.ExpiryWindow = awsRenewalMargin })
	}
	return &AWSCredentials{provider: provider, source: source, userAgent: opts.UserAgent, timeout: opts.Timeout}, nil
}

// Source says, for diagnostics, where credentials come from; never a secret.
func (a *AWSCredentials) Source() string { return a.source }

// Mechanism is AWS_MSK_IAM signing with the current credentials. franz-go
// takes the signing region from the broker host name (or AWS_REGION).
func (a *AWSCredentials) Mechanism() sasl.Mechanism {
	return awssasl.ManagedStreamingIAM(func(ctx context.Context) (awssasl.Auth, error) {
		creds, err := a.Retrieve(ctx)
		if err != nil {
			return awssasl.Auth{}, err
		}
		return awssasl.Auth{
			AccessKey: creds.AccessKeyID, SecretKey: creds.SecretAccessKey, SessionToken: creds.SessionToken,
			UserAgent: a.userAgent,
		}, nil
	})
}

// Retrieve returns the current credentials, renewing them when they are
// within awsRenewalMargin of expiry.
func (a *AWSCredentials) Retrieve(ctx context.Context) (aws.Credentials, error) {
	parent := ctx
	if a.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.timeout)
		defer cancel()
	}
	creds, err := a.provider.Retrieve(ctx)
	if err != nil && parent.Err() != nil {
		// Terraform cancelled: not a credentials problem, so not an AWSError.
		return aws.Credentials{}, fmt.Errorf("obtaining AWS credentials from %s: %w", a.source, err)
	}
	if err != nil {
		return aws.Credentials{}, &AWSError{Kind: classifyAWS(err), Source: a.source, Timeout: a.timeout, Err: err}
	}
	a.Hooks.secrets(creds.SecretAccessKey, creds.SessionToken)
	a.mu.Lock()
	fresh := creds.AccessKeyID != a.lastLogged.AccessKeyID || !creds.Expires.Equal(a.lastLogged.Expires)
	a.lastLogged = creds
	a.mu.Unlock()
	if fresh {
		expires := "never"
		if creds.CanExpire {
			expires = creds.Expires.UTC().Format(time.RFC3339)
		}
		a.Hooks.log("AWS credentials obtained for AWS_MSK_IAM", "source", a.source, "provider", creds.Source,
			"access_key_id", creds.AccessKeyID, "expires", expires)
	}
	return creds, nil
}

// AWSErrorKind says which step of obtaining AWS credentials failed, for
// the advice in the diagnostic.
type AWSErrorKind int

const (
	// AWSCredentialsNotFound: no source of the chain had credentials.
	AWSCredentialsNotFound AWSErrorKind = iota
	// AWSCredentialsExpired: the credentials (or the SSO session) behind
	// the request have expired.
	AWSCredentialsExpired
	// AWSCredentialsInvalid: STS does not know the access key, or the
	// secret key does not match it.
	AWSCredentialsInvalid
	// AWSRoleDenied: STS refused AssumeRole (trust policy, external ID,
	// missing sts:AssumeRole permission).
	AWSRoleDenied
	// AWSWebIdentityRejected: STS refused AssumeRoleWithWebIdentity (the
	// token file, the OIDC provider or the role's trust policy).
	AWSWebIdentityRejected
	// AWSSTSFailed: any other STS failure, including an unreachable endpoint.
	AWSSTSFailed
	// AWSTimedOut: no answer within the timeout (STS, SSO, the instance
	// metadata service or a container endpoint that hangs).
	AWSTimedOut
)

// AWSError is a failure to obtain AWS credentials.
type AWSError struct {
	Kind AWSErrorKind
	// Source is where the credentials were to come from (AWSCredentials.Source).
	Source string
	// Timeout is the bound each retrieval had.
	Timeout time.Duration
	Err     error
}

func (e *AWSError) Error() string {
	if e.Kind == AWSTimedOut {
		return fmt.Sprintf("obtaining AWS credentials from %s: no answer within %s: %v", e.Source, e.Timeout, e.Err)
	}
	return fmt.Sprintf("obtaining AWS credentials from %s: %v", e.Source, e.Err)
}

func (e *AWSError) Unwrap() error { return e.Err }

// classifyAWS reads the SDK's error: STS error codes, the SSO token
// provider's own type, and which service the failing operation belonged to.
func classifyAWS(err error) AWSErrorKind {
	if errors.Is(err, context.DeadlineExceeded) {
		return AWSTimedOut
	}
	// The credentials a role is assumed with failed before STS was asked:
	// what failed is their source, not STS.
	var source roleSourceError
	if errors.As(err, &source) {
		return classifyAWS(source.err)
	}
	var ssoToken *ssocreds.InvalidTokenError
	if errors.As(err, &ssoToken) {
		return AWSCredentialsExpired
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		code := api.ErrorCode()
		switch {
		case code == "ExpiredToken" || code == "ExpiredTokenException" || code == "RequestExpired":
			return AWSCredentialsExpired
		case code == "InvalidClientTokenId" || code == "SignatureDoesNotMatch" || code == "UnrecognizedClientException":
			return AWSCredentialsInvalid
		case code == "InvalidIdentityToken" || code == "IDPRejectedClaim" || code == "IDPCommunicationError":
			return AWSWebIdentityRejected
		case code == "AccessDenied" && operationName(err) == "AssumeRoleWithWebIdentity":
			return AWSWebIdentityRejected
		case code == "AccessDenied":
			return AWSRoleDenied
		}
	}
	var op *smithy.OperationError
	if errors.As(err, &op) && strings.EqualFold(op.ServiceID, "STS") {
		return AWSSTSFailed
	}
	return AWSCredentialsNotFound
}

func operationName(err error) string {
	var op *smithy.OperationError
	if errors.As(err, &op) {
		return op.OperationName
	}
	return ""
}

// roleSourceCredentials marks the errors of the credentials a role is
// assumed with, which the SDK reports inside the AssumeRole call's error.
type roleSourceCredentials struct{ aws.CredentialsProvider }

func (r roleSourceCredentials) Retrieve(ctx context.Context) (aws.Credentials, error) {
	creds, err := r.CredentialsProvider.Retrieve(ctx)
	if err != nil {
		return creds, roleSourceError{err}
	}
	return creds, nil
}

type roleSourceError struct{ err error }

func (e roleSourceError) Error() string {
	return "the credentials to assume the role with: " + e.err.Error()
}
func (e roleSourceError) Unwrap() error { return e.err }
