package checkpointstore

import (
	"context"
	"strings"

	"gocloud.dev/blob"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// listPageSize is the largest page every store serves (S3's maximum).
const listPageSize = 1000

// List implements checkpoint.Lister: the immediate children of dir, with
// common prefixes as directories. A prefix with nothing below it is a
// missing directory (fs.ErrNotExist), as on a filesystem.
func (r *Router) List(ctx context.Context, dir string) ([]checkpoint.Entry, error) {
	o, from, err := r.resolve(dir)
	if err != nil {
		return nil, err
	}
	if o.store == storeLocal {
		return bounded(ctx, r.opts.Timeout, r.request("list", o, ""), func(ctx context.Context) ([]checkpoint.Entry, error) {
			return checkpoint.LocalStorage{}.List(ctx, o.local)
		})
	}
	bkt, err := r.bucket(ctx, o, from)
	if err != nil {
		return nil, err
	}
	prefix := dirPrefix(o.key)
	opts := &blob.ListOptions{Prefix: prefix, Delimiter: "/"}
	var out []checkpoint.Entry
	index := map[string]int{}
	exists := false
	for token := blob.FirstPageToken; ; {
		r.requests.Add(1)
		page, err := r.listPage(ctx, bkt, "list", o, token, listPageSize, opts)
		if isStall(err) {
			return nil, err
		}
		if err != nil {
			return nil, r.fail("list", o, from, err)
		}
		for _, obj := range page.objects {
			exists = true
			name := strings.TrimSuffix(strings.TrimPrefix(obj.Key, prefix), "/")
			if name == "" {
				continue // the directory's own marker object
			}
			e := checkpoint.Entry{Name: name, IsDir: obj.IsDir, ModTime: obj.ModTime}
			// ADLS Gen2 lists a directory both as a prefix and as its
			// marker blob: keep the directory.
			if i, seen := index[name]; seen {
				out[i].IsDir = out[i].IsDir || e.IsDir
				continue
			}
			index[name] = len(out)
			out = append(out, e)
		}
		if len(page.next) == 0 {
			break
		}
		token = page.next
	}
	if !exists {
		return nil, r.fail("list", o, from, notExist{})
	}
	return out, nil
}

// listed is one page of a listing and the token of the next (empty at the end).
type listed struct {
	objects []*blob.ListObject
	next    []byte
}

// listPage fetches one page, bounded like any request; op is what the
// caller reports it as.
func (r *Router) listPage(ctx context.Context, bkt *blob.Bucket, op string, o object, token []byte, size int, opts *blob.ListOptions) (listed, error) {
	return bounded(ctx, r.opts.Timeout, r.request(op, o, ""), func(ctx context.Context) (listed, error) {
		objects, next, err := bkt.ListPage(ctx, token, size, opts)
		return listed{objects, next}, err
	})
}
