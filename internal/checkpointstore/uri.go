package checkpointstore

import (
	"fmt"
	"strings"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// store is the kind of storage a path names.
type store string

const (
	storeLocal store = "local"
	storeS3    store = "s3"
	storeGCS   store = "gcs"
	storeAzure store = "azure"
)

// schemes maps every accepted URI scheme to its store. Flink's s3a:// and
// s3p:// (Hadoop and Presto file systems) and s3:// all name S3 objects the
// same way; Hadoop's ABFS and the older WASB both name Azure blobs.
var schemes = map[string]store{
	"s3": storeS3, "s3a": storeS3, "s3p": storeS3,
	"gs":   storeGCS,
	"abfs": storeAzure, "abfss": storeAzure, "wasb": storeAzure, "wasbs": storeAzure,
	"file": storeLocal,
}

const supportedSchemes = "s3://, s3a://, s3p://, gs://, abfs://, abfss://, wasb://, wasbs://, file: and local paths"

// object is a parsed path: one key in one bucket, or a local path.
type object struct {
	store store
	uri   string // the path as the reader asked for it, after rewriting
	local string // storeLocal: the plain filesystem path
	// bucket is the S3 or GCS bucket or the Azure container; account and
	// domain (the blob endpoint's DNS suffix) are set for Azure only.
	bucket, account, domain string
	key                     string // no leading slash; "" is the bucket root
}

// bucketID identifies an opened bucket in the Router's cache. Azure
// containers of the same name in two accounts are different buckets.
func (o object) bucketID() string {
	return string(o.store) + "\x00" + o.account + "\x00" + o.domain + "\x00" + o.bucket
}

// where names the object for errors: the store, bucket and key spelled out,
// since URIs after rewriting or scheme aliasing are easy to misread.
func (o object) where() string {
	switch o.store {
	case storeLocal:
		return o.local
	case storeAzure:
		return fmt.Sprintf("azure account %q container %q blob %q (%s)", o.account, o.bucket, o.key, o.uri)
	}
	return fmt.Sprintf("%s bucket %q key %q (%s)", o.store, o.bucket, o.key, o.uri)
}

// parse splits p into store, bucket and key.
func parse(p string) (object, error) {
	if p == "" {
		return object{}, fmt.Errorf("empty checkpoint path")
	}
	scheme, rest, ok := splitScheme(p)
	if !ok {
		return object{store: storeLocal, uri: p, local: p}, nil
	}
	st, known := schemes[strings.ToLower(scheme)]
	if !known {
		return object{}, fmt.Errorf("%w %q in %q; supported are %s", ErrUnsupportedScheme, scheme, p, supportedSchemes)
	}
	if st == storeLocal {
		local, err := checkpoint.FileURIPath("file:" + rest)
		return object{store: storeLocal, uri: p, local: local}, err
	}
	authority, ok := strings.CutPrefix(rest, "//")
	if !ok {
		return object{}, fmt.Errorf("%q: want %s://<bucket>/<path>", p, scheme)
	}
	host, key, _ := strings.Cut(authority, "/")
	o := object{store: st, uri: p, bucket: host, key: strings.TrimLeft(key, "/")}
	if st == storeAzure {
		if err := o.splitAzureHost(p, scheme, host); err != nil {
			return object{}, err
		}
	}
	if o.bucket == "" {
		return object{}, fmt.Errorf("%q names no bucket; want %s://<bucket>/<path>", p, scheme)
	}
	return o, nil
}

// splitAzureHost maps Hadoop's container@account.<endpoint suffix> to the
// account's Blob endpoint: abfs(s) use the Data Lake endpoint
// (account.dfs.core.windows.net), whose blobs are also served by
// account.blob.core.windows.net, which is what the Blob API talks to.
func (o *object) splitAzureHost(p, scheme, host string) error {
	container, accountHost, ok := strings.Cut(host, "@")
	account, suffix, dotted := strings.Cut(accountHost, ".")
	if !ok || container == "" || account == "" || !dotted {
		return fmt.Errorf("%q: want %s://<container>@<account>.%s/<path>", p, scheme, azureDefaultSuffix(scheme))
	}
	if rest, ok := strings.CutPrefix(suffix, "dfs."); ok {
		suffix = "blob." + rest
	}
	o.bucket, o.account, o.domain = container, account, strings.ToLower(suffix)
	return nil
}

func azureDefaultSuffix(scheme string) string {
	if strings.HasPrefix(strings.ToLower(scheme), "abfs") {
		return "dfs.core.windows.net"
	}
	return "blob.core.windows.net"
}

// splitScheme finds "scheme:" at the start of p. A single letter is a
// Windows drive, not a scheme.
func splitScheme(p string) (scheme, rest string, ok bool) {
	i := strings.IndexByte(p, ':')
	if i < 2 {
		return "", "", false
	}
	for j, c := range p[:i] {
		alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		digitOrMark := c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
		if !alpha && (j == 0 || !digitOrMark) {
			return "", "", false
		}
	}
	return p[:i], p[i+1:], true
}
