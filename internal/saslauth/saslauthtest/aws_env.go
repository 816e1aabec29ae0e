package saslauthtest

import (
	"path/filepath"
	"testing"
)

// awsEnvironment lists the variables the AWS SDK's default chain reads.
var awsEnvironment = []string{
	"AWS_ACCESS_KEY_ID", "AWS_ACCESS_KEY", "AWS_SECRET_ACCESS_KEY", "AWS_SECRET_KEY", "AWS_SESSION_TOKEN",
	"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION",
	"AWS_ROLE_ARN", "AWS_ROLE_SESSION_NAME", "AWS_WEB_IDENTITY_TOKEN_FILE",
	"AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
	"AWS_CONTAINER_AUTHORIZATION_TOKEN", "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
	"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_STS", "AWS_EC2_METADATA_SERVICE_ENDPOINT", "AWS_CA_BUNDLE",
	"AWS_MAX_ATTEMPTS",
}

// IsolateAWS empties the AWS environment for one test (t.Setenv, so the
// test cannot be parallel), points the shared config and credentials files
// into a temporary directory and turns the EC2 metadata service off: the
// SDK's default chain then sees only what the test writes, and never
// leaves the machine. It returns the directory, where AWS_CONFIG_FILE is
// "config" and AWS_SHARED_CREDENTIALS_FILE "credentials".
func IsolateAWS(t *testing.T) string {
	t.Helper()
	for _, name := range awsEnvironment {
		t.Setenv(name, "")
	}
	dir := t.TempDir()
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("HOME", dir) // SSO token caches live under ~/.aws
	return dir
}
