package checkpointstore

import (
	"context"
	"errors"
	"fmt"
	"io"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// maxMetadataSize bounds ReadFile, which is only used for _metadata: even
// very large jobs keep it to a few megabytes (state lives in separate files
// unless inlined, and inlining is capped at 1 MB per handle by Flink).
const maxMetadataSize = 1 << 30

// byteSpan is a read's range as the errors of this package write it.
func byteSpan(off, n int64) string { return fmt.Sprintf("bytes [%d, %d)", off, off+n) }

// ReadFile implements checkpoint.Storage.
func (r *Router) ReadFile(ctx context.Context, p string) ([]byte, error) {
	o, from, err := r.resolve(p)
	if err != nil {
		return nil, err
	}
	if o.store == storeLocal {
		return bounded(ctx, r.opts.Timeout, r.request("read", o, ""), func(ctx context.Context) ([]byte, error) {
			b, err := checkpoint.LocalStorage{}.ReadFile(ctx, o.local)
			r.bytesRead.Add(int64(len(b)))
			return b, err
		})
	}
	bkt, err := r.bucket(ctx, o, from)
	if err != nil {
		return nil, err
	}
	r.requests.Add(1)
	return bounded(ctx, r.opts.Timeout, r.request("read", o, ""), func(ctx context.Context) ([]byte, error) {
		rd, err := bkt.NewReader(ctx, o.key, nil)
		if err != nil {
			return nil, r.fail("read", o, from, err)
		}
		defer rd.Close()
		if rd.Size() > maxMetadataSize {
			return nil, fmt.Errorf("%s is %d bytes, larger than any _metadata this reader accepts (%d)", o.where(), rd.Size(), maxMetadataSize)
		}
		b, err := io.ReadAll(rd)
		r.bytesRead.Add(int64(len(b)))
		if err != nil {
			return nil, r.fail("read", o, from, err)
		}
		return b, nil
	})
}

// ReadRange implements checkpoint.Storage with one ranged GET.
func (r *Router) ReadRange(ctx context.Context, p string, off, n int64) ([]byte, error) {
	o, from, err := r.resolve(p)
	if err != nil {
		return nil, err
	}
	if o.store == storeLocal {
		return bounded(ctx, r.opts.Timeout, r.request("read", o, byteSpan(off, n)), func(ctx context.Context) ([]byte, error) {
			b, err := checkpoint.LocalStorage{}.ReadRange(ctx, o.local, off, n)
			r.bytesRead.Add(int64(len(b)))
			return b, err
		})
	}
	if off < 0 || n < 0 || off+n < off {
		return nil, fmt.Errorf("read %s: invalid range [%d, +%d)", o.where(), off, n)
	}
	bkt, err := r.bucket(ctx, o, from)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		// Stores reject empty ranges; only existence and bounds matter.
		return []byte{}, r.checkBounds(ctx, bkt, o, from, off, n, nil)
	}
	r.requests.Add(1)
	type ranged struct {
		buf     []byte
		refused error // the store's answer to the ranged GET itself
	}
	res, err := bounded(ctx, r.opts.Timeout, r.request("read", o, byteSpan(off, n)), func(ctx context.Context) (ranged, error) {
		rd, err := bkt.NewRangeReader(ctx, o.key, off, n, nil)
		if err != nil {
			return ranged{refused: err}, nil
		}
		defer rd.Close()
		if size := rd.Size(); off+n > size {
			return ranged{}, shortErr(o, off, n, size)
		}
		buf := make([]byte, n)
		got, err := io.ReadFull(rd, buf)
		r.bytesRead.Add(int64(got))
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return ranged{}, fmt.Errorf("read %s [%d, %d): %w", o.where(), off, off+n, err)
		}
		return ranged{buf: buf}, nil
	})
	if err != nil {
		return nil, err
	}
	if res.refused != nil {
		// A range starting past the end is refused (HTTP 416) rather than
		// cut short; report it as the short file it is.
		return nil, r.checkBounds(ctx, bkt, o, from, off, n, res.refused)
	}
	return res.buf, nil
}

// checkBounds looks the object up after a failed or empty range read and
// returns a not-found, short-file or the original error.
func (r *Router) checkBounds(ctx context.Context, bkt *blob.Bucket, o object, from string, off, n int64, readErr error) error {
	if readErr != nil {
		switch classify(readErr) {
		case gcerrors.NotFound, gcerrors.PermissionDenied, gcerrors.Canceled, gcerrors.DeadlineExceeded:
			return r.fail("read", o, from, readErr)
		}
	}
	r.requests.Add(1)
	a, err := bounded(ctx, r.opts.Timeout, r.request("stat", o, ""), func(ctx context.Context) (*blob.Attributes, error) {
		return bkt.Attributes(ctx, o.key)
	})
	if isStall(err) {
		return err
	}
	if err != nil {
		if readErr != nil {
			return r.fail("read", o, from, readErr)
		}
		return r.fail("read", o, from, err)
	}
	if off+n > a.Size {
		return shortErr(o, off, n, a.Size)
	}
	if readErr != nil {
		return r.fail("read", o, from, readErr)
	}
	return nil
}

func shortErr(o object, off, n, size int64) error {
	return fmt.Errorf("read %s: range [%d, %d) beyond end of object (%d bytes): %w", o.where(), off, off+n, size, io.ErrUnexpectedEOF)
}
