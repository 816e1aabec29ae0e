package checkpointstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"gocloud.dev/gcerrors"
	"google.golang.org/api/googleapi"
)

var (
	// ErrUnsupportedScheme: the path's scheme (hdfs://, oss://, …) is not
	// one this package reads.
	ErrUnsupportedScheme = errors.New("unsupported checkpoint storage scheme")
	// ErrAccessDenied: the store refused the credentials for this object or
	// listing (HTTP 401/403).
	ErrAccessDenied = errors.New("access denied")
)

// ObjectError is a failed store operation on one object or listing. It
// names the store, bucket and key, and for missing objects matches
// fs.ErrNotExist (which the checkpoint reader reports as not found) and for
// refused credentials ErrAccessDenied.
type ObjectError struct {
	Op   string // "read", "stat", "list" or "open bucket"
	What string // store, bucket, key and the URI, spelled out
	// RewrittenFrom is the path before PathRewrite, when a rule applied.
	RewrittenFrom string
	Code          gcerrors.ErrorCode
	Err           error
}

func (e *ObjectError) Error() string {
	var kind string
	switch e.Code {
	case gcerrors.NotFound:
		kind = "not found: "
	case gcerrors.PermissionDenied:
		kind = "access denied: "
	}
	from := ""
	if e.RewrittenFrom != "" {
		from = fmt.Sprintf(" (path_rewrite of %s)", e.RewrittenFrom)
	}
	return fmt.Sprintf("%s %s%s: %s%v%s", e.Op, e.What, from, kind, e.Err, e.hint())
}

// hint says which permission is missing, in the cloud's own terms.
func (e *ObjectError) hint() string {
	if e.Code != gcerrors.PermissionDenied {
		return ""
	}
	return "; the reader needs read-only access to the checkpoint prefix " +
		"(S3: s3:GetObject, and s3:ListBucket on the bucket; GCS: storage.objects.get and storage.objects.list; " +
		"Azure: the Storage Blob Data Reader role), see the checkpoint-storage guide"
}

func (e *ObjectError) Unwrap() error { return e.Err }

// Is matches fs.ErrNotExist for missing objects and ErrAccessDenied for
// refused ones.
func (e *ObjectError) Is(target error) bool {
	switch target {
	case fs.ErrNotExist:
		return e.Code == gcerrors.NotFound
	case ErrAccessDenied:
		return e.Code == gcerrors.PermissionDenied
	}
	return false
}

// classify is gocloud's error code, corrected by the HTTP status where the
// drivers guess otherwise: gcsblob reports a 403 as NotFound (GCS answers
// 403 for objects the caller may not see) and azureblob reports a 403 with
// an error code other than AuthenticationFailed as Unknown. A refusal is
// reported as a refusal, since what fixes it is a permission.
func classify(err error) gcerrors.ErrorCode {
	if errors.As(err, new(notExist)) {
		return gcerrors.NotFound
	}
	switch httpStatus(err) {
	case http.StatusUnauthorized, http.StatusForbidden:
		return gcerrors.PermissionDenied
	case http.StatusNotFound:
		return gcerrors.NotFound
	}
	return gcerrors.Code(err)
}

// httpStatus digs the response status out of an SDK error, or 0.
func httpStatus(err error) int {
	var az *azcore.ResponseError
	if errors.As(err, &az) {
		return az.StatusCode
	}
	var g *googleapi.Error
	if errors.As(err, &g) {
		return g.Code
	}
	var aws interface{ HTTPStatusCode() int } // smithy-go's ResponseError
	if errors.As(err, &aws) {
		return aws.HTTPStatusCode()
	}
	return 0
}

// StallError is a store request that ended without an answer: the store
// took longer than Options.Timeout, the caller's own deadline passed first,
// or the caller cancelled. It says what was being waited for and where, and
// matches context.DeadlineExceeded or context.Canceled with errors.Is.
type StallError struct {
	Op       string // "read", "stat", "list" or "open bucket for"
	What     string // the object, and for a read its byte range
	Endpoint string // where the request went
	Stop     StopReason
	Waited   time.Duration
	Limit    time.Duration // Options.Timeout
}

// StopReason says which bound ended a StallError's wait.
type StopReason int

const (
	// StopRequestTimeout: the request got no answer within Options.Timeout.
	StopRequestTimeout StopReason = iota
	// StopDeadline: the caller's context deadline (the whole read's) passed.
	StopDeadline
	// StopCanceled: the caller's context was cancelled (Ctrl-C in Terraform).
	StopCanceled
)

func (e *StallError) Error() string {
	waited := e.Waited.Round(10 * time.Millisecond)
	switch e.Stop {
	case StopDeadline:
		return fmt.Sprintf("%s %s: no answer from %s before the deadline of the whole read passed (waited %s)", e.Op, e.What, e.Endpoint, waited)
	case StopCanceled:
		return fmt.Sprintf("%s %s: cancelled after %s while waiting for %s", e.Op, e.What, waited, e.Endpoint)
	}
	return fmt.Sprintf("%s %s: no answer from %s within %s (the per-request timeout)", e.Op, e.What, e.Endpoint, e.Limit)
}

// Unwrap returns context.Canceled or context.DeadlineExceeded.
func (e *StallError) Unwrap() error {
	if e.Stop == StopCanceled {
		return context.Canceled
	}
	return context.DeadlineExceeded
}
