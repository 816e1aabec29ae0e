package checkpointstore

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"gocloud.dev/blob"
	"gocloud.dev/blob/azureblob"
	"gocloud.dev/blob/gcsblob"
	"gocloud.dev/blob/s3blob"
	"gocloud.dev/gcp"
)

// clouds holds the per-cloud clients a Router shares between buckets, set
// up on first use under Router.cloudsMu.
type clouds struct {
	s3  *s3.Client
	gcs *gcp.HTTPClient
}

// open opens the bucket o lives in.
func (r *Router) open(ctx context.Context, o object) (*blob.Bucket, error) {
	switch o.store {
	case storeS3:
		c, err := r.s3Client(ctx)
		if err != nil {
			return nil, err
		}
		return s3blob.OpenBucket(ctx, c, o.bucket, nil)
	case storeGCS:
		c, err := r.gcsClient(ctx)
		if err != nil {
			return nil, err
		}
		return gcsblob.OpenBucket(ctx, c, o.bucket, nil)
	case storeAzure:
		return openAzure(ctx, o)
	}
	return nil, fmt.Errorf("no bucket for %s paths", o.store)
}

func (r *Router) s3Client(ctx context.Context) (*s3.Client, error) {
	r.cloudsMu.Lock()
	defer r.cloudsMu.Unlock()
	if r.clouds.s3 == nil {
		c, err := newS3Client(ctx, r.opts.S3, r.opts.Timeout)
		if err != nil {
			return nil, err
		}
		r.clouds.s3 = c
	}
	return r.clouds.s3, nil
}

func (r *Router) gcsClient(ctx context.Context) (*gcp.HTTPClient, error) {
	r.cloudsMu.Lock()
	defer r.cloudsMu.Unlock()
	if r.clouds.gcs == nil {
		c, err := newGCSClient(ctx, r.opts.Timeout)
		if err != nil {
			return nil, err
		}
		r.clouds.gcs = c
	}
	return r.clouds.gcs, nil
}

// endpoint names where o's requests go, for a StallError: the first thing
// to check when a store does not answer.
func (r *Router) endpoint(o object) string {
	switch o.store {
	case storeS3:
		if r.opts.S3.Endpoint != "" {
			return r.opts.S3.Endpoint
		}
		return "AWS S3"
	case storeGCS:
		if host := os.Getenv("STORAGE_EMULATOR_HOST"); host != "" {
			return "STORAGE_EMULATOR_HOST " + host
		}
		return "Google Cloud Storage (storage.googleapis.com)"
	case storeAzure:
		if ep := connectionStringField(azureConnectionString(), "BlobEndpoint"); ep != "" {
			return ep + " (the connection string's BlobEndpoint)"
		}
		if u, err := azureServiceURL(o); err == nil {
			return string(u)
		}
		return "Azure Blob Storage"
	}
	return "the local file system"
}

// newS3Client loads the AWS SDK's default configuration (environment,
// shared files, web identity, container and instance roles) with the
// options on top.
func newS3Client(ctx context.Context, so S3Options, timeout time.Duration) (*s3.Client, error) {
	load := []func(*awsconfig.LoadOptions) error{awsconfig.WithHTTPClient(s3HTTPClient(timeout))}
	if so.Profile != "" {
		load = append(load, awsconfig.WithSharedConfigProfile(so.Profile))
	}
	if so.Region != "" {
		load = append(load, awsconfig.WithRegion(so.Region))
	}
	// Reads only: checksums on requests are never needed, and S3-compatible
	// stores often send none to validate.
	load = append(load,
		awsconfig.WithRequestChecksumCalculation(aws.RequestChecksumCalculationWhenRequired),
		awsconfig.WithResponseChecksumValidation(aws.ResponseChecksumValidationWhenRequired))
	cfg, err := awsconfig.LoadDefaultConfig(ctx, load...)
	if err != nil {
		return nil, fmt.Errorf("loading AWS configuration (profile %q): %w", so.Profile, err)
	}
	if cfg.Region == "" {
		if so.Endpoint == "" {
			return nil, fmt.Errorf("no AWS region: set s3_region, AWS_REGION, or a region in the AWS profile")
		}
		cfg.Region = "us-east-1"
	}
	return s3.NewFromConfig(cfg, func(o *s3.Options) {
		if so.Endpoint != "" {
			o.BaseEndpoint = aws.String(so.Endpoint)
		}
		o.UsePathStyle = so.PathStyle
	}), nil
}

// newGCSClient uses Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS,
// gcloud's application-default login, workload identity, the metadata
// server). With STORAGE_EMULATOR_HOST set, as Google's client libraries do,
// it talks to that emulator without credentials.
func newGCSClient(ctx context.Context, timeout time.Duration) (*gcp.HTTPClient, error) {
	if os.Getenv("STORAGE_EMULATOR_HOST") != "" {
		return gcp.NewAnonymousHTTPClient(gcsTransport(timeout)), nil
	}
	creds, err := gcp.DefaultCredentials(ctx)
	if err != nil {
		return nil, fmt.Errorf("no Google Application Default Credentials (set GOOGLE_APPLICATION_CREDENTIALS or run `gcloud auth application-default login`): %w", err)
	}
	return gcp.NewHTTPClient(gcsTransport(timeout), gcp.CredentialsTokenSource(creds))
}

// openAzure opens the container with the credentials gocloud's azureblob
// takes from the environment: AZURE_STORAGE_CONNECTION_STRING, or
// AZURE_STORAGE_ACCOUNT with AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN,
// else DefaultAzureCredential (AZURE_CLIENT_ID/AZURE_TENANT_ID/…, workload
// and managed identity, the Azure CLI login). The account and endpoint come
// from the path; AZURE_STORAGE_IS_LOCAL_EMULATOR with AZURE_STORAGE_DOMAIN and
// AZURE_STORAGE_PROTOCOL point them at an emulator instead.
func openAzure(ctx context.Context, o object) (*blob.Bucket, error) {
	// An account key or connection string signs for one account only; a
	// path naming another would fail with an opaque signature error.
	if envAccount := azureblob.NewDefaultServiceURLOptions().AccountName; envAccount != "" && envAccount != o.account &&
		(os.Getenv("AZURE_STORAGE_KEY") != "" || azureConnectionString() != "") {
		return nil, fmt.Errorf("the Azure credentials in the environment are for storage account %q, but the path names account %q", envAccount, o.account)
	}
	svcURL, err := azureServiceURL(o)
	if err != nil {
		return nil, err
	}
	client, err := azureblob.NewDefaultClient(svcURL, azureblob.ContainerName(o.bucket))
	if err != nil {
		return nil, err
	}
	return azureblob.OpenBucket(ctx, client, nil)
}

// azureServiceURL is the Blob endpoint of o's account.
func azureServiceURL(o object) (azureblob.ServiceURL, error) {
	opts := azureblob.NewDefaultServiceURLOptions()
	opts.AccountName = o.account
	if !opts.IsLocalEmulator {
		// Real endpoints are HTTPS; a connection string's
		// DefaultEndpointsProtocol is for its own endpoints, which its
		// client uses instead of this URL.
		opts.StorageDomain, opts.Protocol = o.domain, "https"
	}
	return azureblob.NewServiceURL(opts)
}

// connectionStringField is the value of key in an Azure connection string
// (key=value pairs separated by semicolons), or "".
func connectionStringField(conn, key string) string {
	for _, kv := range strings.Split(conn, ";") {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.EqualFold(strings.TrimSpace(k), key) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func azureConnectionString() string {
	if s := os.Getenv("AZURE_STORAGE_CONNECTION_STRING"); s != "" {
		return s
	}
	return strings.TrimSpace(os.Getenv("AZURE_STORAGEBLOB_CONNECTIONSTRING"))
}
