package diagnostics

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/actionstate/terraform-provider-flinkagents/internal/saslauth"
)

// fromAuthErrorVia recognises what goes wrong between the provider and the
// cluster before any resource's own request: fetching an OAuth token,
// obtaining AWS credentials, a token the broker refuses, a principal
// without the cluster-level permission, a quota. Each is an operator's
// fix, so none may fall through to Unexpected; ok is false for every
// other error, which FromKafkaErrorVia, its caller, then classifies. conn describes the
// connection as for FromKafkaErrorVia.
func fromAuthErrorVia(op string, err error, conn string) (d diag.Diagnostic, ok bool) {
	var (
		tokenErr *saslauth.TokenEndpointError
		awsErr   *saslauth.AWSError
	)
	switch {
	case errors.As(err, &tokenErr):
		d = OAuthTokenRequestFailed(op, err)
	case errors.As(err, &awsErr):
		d = AWSCredentialsFailed(op, err)
	case errors.Is(err, kerr.SaslAuthenticationFailed) && strings.Contains(err.Error(), `"status":"invalid_token"`):
		// Kafka's OAUTHBEARER server answers a refused token with this
		// RFC 7628 status, whatever the reason; its log says which check.
		d = OAuthTokenRejected(op, err)
	case errors.Is(err, kerr.ClusterAuthorizationFailed):
		d = ClusterNotAuthorized(op, err)
	case errors.Is(err, kerr.ThrottlingQuotaExceeded):
		d = ControllerQuotaExceeded(op, err)
	default:
		return nil, false
	}
	if conn != "" {
		d = diag.NewErrorDiagnostic(d.Summary(), d.Detail()+"\n\nConnection: "+conn+".")
	}
	return d, true
}

// OAuthTokenRequestFailed reports a token endpoint that did not hand out a
// token for OAUTHBEARER; the advice follows its answer, which err (holding
// a *saslauth.TokenEndpointError) carries.
func OAuthTokenRequestFailed(op string, err error) diag.Diagnostic {
	e := &saslauth.TokenEndpointError{TokenURL: "the token endpoint"}
	errors.As(err, &e)
	var next string
	switch {
	case e.StatusCode == 0:
		next = "The endpoint did not answer. Check the host and port of sasl.token_url (or KAFKA_SASL_TOKEN_URL), DNS " +
			"and any proxy (HTTPS_PROXY, NO_PROXY), and that its certificate is signed by a CA of the system roots " +
			"(SSL_CERT_FILE adds one)."
	case e.StatusCode >= 300 && e.StatusCode < 400:
		next = fmt.Sprintf("The endpoint redirected the request (HTTP %d) to %s. The provider does not follow redirects "+
			"of token requests: following one would send the client secret to wherever it points, another host or plain "+
			"http included. Set sasl.token_url (or KAFKA_SASL_TOKEN_URL) to the identity provider's token endpoint "+
			"itself (its OpenID configuration lists it as token_endpoint), after checking that the redirect's target "+
			"is one you trust.", e.StatusCode, orUnknown(e.Location, "an address it did not give"))
	case e.ErrorCode == "invalid_client" || e.ErrorCode == "unauthorized_client" || e.StatusCode == http.StatusUnauthorized:
		next = "The endpoint refused the client. Check sasl.client_id and sasl.client_secret (or KAFKA_SASL_USERNAME " +
			"and KAFKA_SASL_PASSWORD), and that the identity provider allows this client the client_credentials grant."
	case e.ErrorCode == "invalid_scope":
		next = "The endpoint refused the requested scopes. Set sasl.scopes to scopes this client may request, or " +
			"remove it to get the client's default scopes."
	case e.StatusCode == http.StatusNotFound || e.StatusCode == http.StatusMethodNotAllowed:
		next = "There is no token endpoint at that URL. Set sasl.token_url to the identity provider's token " +
			"endpoint (its OpenID configuration lists it as token_endpoint)."
	case e.StatusCode >= 200 && e.StatusCode < 300:
		next = fmt.Sprintf("The endpoint answered HTTP %d, but not with an OAuth token response (content type %s): "+
			"a sign-in page, a proxy's page or another service is at that URL. The answer is not quoted, because it "+
			"could echo the client secret in an encoding no redaction anticipates; fetch the URL yourself to see it. Set sasl.token_url (or KAFKA_SASL_TOKEN_URL) to the identity provider's token endpoint (its OpenID "+
			"configuration lists it as token_endpoint).", e.StatusCode, orUnknown(e.ContentType, "not given"))
	default:
		next = "The identity provider failed the request. Retry; if it persists, check the provider's status and " +
			"the client's configuration there."
	}
	return diag.NewErrorDiagnostic("OAuth Token Request Failed",
		detail(fmt.Sprintf("%s, the provider requested an OAUTHBEARER token for client %q from %s and got none",
			op, e.ClientID, e.TokenURL), next, err))
}

func orUnknown(s, unknown string) string {
	if s == "" {
		return unknown
	}
	return s
}

// OAuthTokenRejected reports an OAUTHBEARER token the broker refused.
func OAuthTokenRejected(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("OAuth Token Rejected",
		detail(op+", the broker refused the OAUTHBEARER token (invalid_token)",
			"The token has expired, or its signature, audience (aud), issuer (iss) or scope does not match the "+
				"listener's sasl.oauthbearer.* settings; the broker's log names the check that failed. A token in "+
				"sasl.token is sent as given and never renewed: obtain a fresh one, or let the provider fetch and "+
				"renew tokens itself with sasl.token_url, sasl.client_id and sasl.client_secret.", err))
}

// awsAdvice is the summary and advice for each way obtaining AWS
// credentials fails.
var awsAdvice = map[saslauth.AWSErrorKind]struct{ summary, next string }{
	saslauth.AWSCredentialsNotFound: {"AWS Credentials Not Found",
		"No source of the AWS default chain had credentials. Provide them the way the AWS CLI finds them: " +
			"AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile (AWS_PROFILE or sasl.aws_profile) in " +
			"~/.aws/config or ~/.aws/credentials, `aws sso login`, a web identity (AWS_WEB_IDENTITY_TOKEN_FILE and " +
			"AWS_ROLE_ARN, as EKS sets them), or an ECS task or EC2 instance role. `aws sts get-caller-identity` " +
			"run in the same environment shows what the chain finds. A role in sasl.aws_role_arn is assumed with these " +
			"credentials, so it needs them too."},
	saslauth.AWSCredentialsExpired: {"AWS Credentials Expired",
		"The credentials behind the request have expired and cannot be renewed from where they came: run " +
			"`aws sso login` for an SSO profile, or obtain new temporary credentials (AWS_SESSION_TOKEN), then re-run."},
	saslauth.AWSCredentialsInvalid: {"AWS Credentials Invalid",
		"AWS does not accept the access key or its secret key. Check sasl.aws_access_key_id and " +
			"sasl.aws_secret_access_key, or the key the profile or environment supplies; the key may have been " +
			"deactivated or deleted."},
	saslauth.AWSRoleDenied: {"AWS Role Assumption Denied",
		"STS refused to let these credentials assume the role. The role's trust policy must allow the calling " +
			"principal, the caller needs sts:AssumeRole on the role, and sasl.aws_role_external_id must match the " +
			"trust policy's sts:ExternalId condition when it has one."},
	saslauth.AWSWebIdentityRejected: {"AWS Web Identity Rejected",
		"STS refused the web identity token. On EKS (IRSA): the service account's eks.amazonaws.com/role-arn " +
			"annotation must name the role, the role's trust policy must trust the cluster's OIDC provider and " +
			"this service account (the sub claim), and the projected token (AWS_WEB_IDENTITY_TOKEN_FILE) must be current."},
	saslauth.AWSTimedOut: {"AWS Credentials Request Timed Out",
		"Nothing answered within the provider's timeout (the error below names the source and the bound): STS, " +
			"the SSO portal, the EC2 instance metadata service or the ECS credentials endpoint, whichever the source " +
			"uses. Check that it is reachable from here (network, proxy, a VPC endpoint with private DNS, a firewall " +
			"that drops instead of refusing), then retry; raise the provider's timeout (or KAFKA_TIMEOUT) only if it " +
			"is merely slow."},
	saslauth.AWSSTSFailed: {"AWS STS Request Failed",
		"The request to AWS STS failed. Check that STS is reachable from here (network, proxy, a VPC endpoint " +
			"with private DNS) and that the region (sasl.aws_region, AWS_REGION) is right, then retry."},
}

// AWSCredentialsFailed reports AWS credentials for AWS_MSK_IAM that could
// not be obtained; the advice follows the step that failed, which err
// (holding a *saslauth.AWSError) carries.
func AWSCredentialsFailed(op string, err error) diag.Diagnostic {
	e := &saslauth.AWSError{Kind: saslauth.AWSCredentialsNotFound, Source: "the AWS default credential chain"}
	errors.As(err, &e)
	advice := awsAdvice[e.Kind]
	return diag.NewErrorDiagnostic(advice.summary,
		detail(op+", the provider could not obtain AWS credentials for AWS_MSK_IAM from "+e.Source, advice.next, err))
}

// ClusterNotAuthorized reports CLUSTER_AUTHORIZATION_FAILED: the principal
// is authenticated but lacks a permission on the cluster resource itself.
func ClusterNotAuthorized(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Kafka Cluster Authorization Failed",
		detail(op+", the broker refused a cluster-level operation to the provider's principal",
			"Grant the principal the cluster ACL the request needs, then re-run. The one this provider can need is "+
				"IDEMPOTENT_WRITE: brokers before Kafka 2.8 require it for the idempotent producer that writes "+
				"control records (kafka-acls --add --allow-principal User:<name> --operation IdempotentWrite "+
				"--cluster). The broker's authorizer log (kafka.authorizer.logger) names the denied operation.", err))
}

// ControllerQuotaExceeded reports THROTTLING_QUOTA_EXCEEDED: topic
// creations, deletions or partition changes beyond the principal's
// controller mutation quota (KIP-599).
func ControllerQuotaExceeded(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Kafka Controller Mutation Quota Exceeded",
		detail(op+", the broker throttled topic creations, deletions or partition changes for this principal "+
			"(its controller_mutation_rate quota)",
			"The refused request changed nothing, and re-running terraform apply is safe. If it persists, apply with a "+
				"lower -parallelism or raise the quota: kafka-configs --alter --entity-type users --entity-name <user> "+
				"--add-config controller_mutation_rate=<mutations per second>.", err))
}
