package checkpointstore

import (
	"context"
	"strings"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// Stat implements checkpoint.Storage. Object stores have no directories: a
// path with no object of its own is a directory when objects lie below it
// (on ADLS Gen2 a directory is also a marker blob, recognized by its
// hdi_isfolder metadata).
func (r *Router) Stat(ctx context.Context, p string) (checkpoint.FileInfo, error) {
	o, from, err := r.resolve(p)
	if err != nil {
		return checkpoint.FileInfo{}, err
	}
	if o.store == storeLocal {
		return bounded(ctx, r.opts.Timeout, r.request("stat", o, ""), func(ctx context.Context) (checkpoint.FileInfo, error) {
			return checkpoint.LocalStorage{}.Stat(ctx, o.local)
		})
	}
	bkt, err := r.bucket(ctx, o, from)
	if err != nil {
		return checkpoint.FileInfo{}, err
	}
	if o.key != "" && !strings.HasSuffix(o.key, "/") {
		r.requests.Add(1)
		a, err := bounded(ctx, r.opts.Timeout, r.request("stat", o, ""), func(ctx context.Context) (*blob.Attributes, error) {
			return bkt.Attributes(ctx, o.key)
		})
		if isStall(err) {
			return checkpoint.FileInfo{}, err
		}
		if err == nil {
			if isFolderMarker(a) {
				return checkpoint.FileInfo{IsDir: true}, nil
			}
			return checkpoint.FileInfo{Size: a.Size}, nil
		}
		if classify(err) != gcerrors.NotFound {
			return checkpoint.FileInfo{}, r.fail("stat", o, from, err)
		}
	}
	r.requests.Add(1)
	page, err := r.listPage(ctx, bkt, "stat", o, blob.FirstPageToken, 1, &blob.ListOptions{Prefix: dirPrefix(o.key), Delimiter: "/"})
	if isStall(err) {
		return checkpoint.FileInfo{}, err
	}
	if err != nil {
		return checkpoint.FileInfo{}, r.fail("stat", o, from, err)
	}
	if len(page.objects) == 0 {
		return checkpoint.FileInfo{}, r.fail("stat", o, from, notExist{})
	}
	return checkpoint.FileInfo{IsDir: true}, nil
}

// notExist stands for "no object and nothing below it".
type notExist struct{}

func (notExist) Error() string { return "no such object or prefix" }

func isFolderMarker(a *blob.Attributes) bool {
	for k, v := range a.Metadata {
		if strings.EqualFold(k, "hdi_isfolder") && strings.EqualFold(v, "true") {
			return true
		}
	}
	return false
}

// dirPrefix is the listing prefix of the directory key.
func dirPrefix(key string) string {
	if key == "" || strings.HasSuffix(key, "/") {
		return key
	}
	return key + "/"
}
