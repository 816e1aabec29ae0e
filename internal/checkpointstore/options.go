package checkpointstore

import "time"

// Options configures a Router. The zero value reads every supported store
// with the environment's default credentials.
type Options struct {
	// S3 configures s3://, s3a:// and s3p:// access.
	S3 S3Options

	// PathRewrite maps path prefixes to others, for checkpoints that were
	// copied or moved after Flink wrote them: _metadata records absolute
	// paths for checkpoint state files (and all entropy-injected or shared
	// files), which still name the old place. Every path the reader opens,
	// including the one it is given, goes through the rules in order; the
	// first whose From is the path or a parent of it (compared by whole path
	// segments) replaces that part with To. Default none.
	PathRewrite []Rewrite

	// Concurrency bounds how many subtasks' state streams are read at once.
	// Default 8: enough to hide object-store latency for typical
	// parallelism without opening many connections from a Terraform run.
	Concurrency int

	// Timeout bounds each request: opening a bucket (with credential
	// lookup), one attribute lookup, one list page, one read including its
	// body and the SDK's retries. Local paths are bounded the same way, for
	// hung network mounts. A request that gets no answer in time fails
	// with a *StallError. The caller's context bounds the whole operation
	// on top. Default 30s, the provider's default timeout: long enough for
	// a slow store, short enough that a silent one does not look like a
	// hang.
	Timeout time.Duration
}

// S3Options configures S3 access. Credentials come from the AWS SDK's
// default chain: environment variables (AWS_ACCESS_KEY_ID, …), the shared
// config and credentials files (AWS_PROFILE or Profile), web identity
// (AWS_WEB_IDENTITY_TOKEN_FILE with AWS_ROLE_ARN, as on EKS), SSO, ECS and
// EC2 instance roles.
type S3Options struct {
	// Endpoint is the base URL of an S3-compatible store (MinIO, Ceph,
	// R2, …), for example "https://minio.example.com:9000". Default: AWS S3.
	Endpoint string
	// Region of the buckets. Default: AWS_REGION or the profile's region;
	// with Endpoint set and no region configured, "us-east-1", which
	// S3-compatible stores accept. AWS S3 itself needs the bucket's region.
	Region string
	// PathStyle addresses buckets as endpoint/bucket/key instead of
	// bucket.endpoint/key. Most S3-compatible stores need it. Default false.
	PathStyle bool
	// Profile selects a named profile from the shared AWS config files.
	// Default: AWS_PROFILE, else "default".
	Profile string
}

// Rewrite maps one path prefix to another; see Options.PathRewrite.
type Rewrite struct {
	From, To string
}

// Stats counts what a Router has read.
type Stats struct {
	BytesRead int64 // object and file bytes returned to the reader
	Requests  int64 // store calls: reads, attribute lookups and list pages
}
