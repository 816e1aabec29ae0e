package checkpoint

import (
	"context"
	"fmt"
	"strings"
)

const metadataFileName = "_metadata"

// location is a resolved checkpoint pointer: the _metadata file and the
// "exclusive directory" that relative state handles are resolved against
// (Flink: the directory holding _metadata as reached from the pointer).
type location struct {
	metadataPath string
	dir          string
}

// join resolves a relative state-handle name.
func (l location) join(name string) string { return joinPath(l.dir, name) }

func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}

// parentDir is the directory part of a slash-separated path or URI.
func parentDir(p string) string {
	p = strings.TrimRight(p, "/")
	i := strings.LastIndex(p, "/")
	switch {
	case i < 0:
		return "."
	case i == 0:
		return "/"
	}
	return p[:i]
}

func baseName(p string) string {
	p = strings.TrimRight(p, "/")
	return p[strings.LastIndex(p, "/")+1:]
}

// normalizePath turns Flink's local-file URI forms (file:/x, file:///x,
// file://localhost/x) into plain paths. Other schemes (s3://, gs://, …) are
// passed through for the Storage to interpret.
func normalizePath(p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("%w: empty checkpoint path", ErrNotFound)
	}
	if !strings.HasPrefix(p, "file:") {
		return p, nil
	}
	return FileURIPath(p)
}

// FileURIPath returns the local path of a file: URI in any of the forms
// Flink writes (file:/x, file:///x, file://localhost/x); other hosts and
// relative paths are refused.
func FileURIPath(uri string) (string, error) {
	p := uri
	rest, _ := strings.CutPrefix(p, "file:")
	if host, ok := strings.CutPrefix(rest, "//"); ok {
		i := strings.IndexByte(host, '/')
		if i < 0 {
			return "", fmt.Errorf("file URI %q has no path", p)
		}
		if h := host[:i]; h != "" && h != "localhost" {
			return "", fmt.Errorf("file URI %q names host %q; only local files are supported", p, h)
		}
		rest = host[i:]
	}
	if !strings.HasPrefix(rest, "/") {
		return "", fmt.Errorf("file URI %q is not absolute", p)
	}
	return rest, nil
}

// resolve follows Flink's resolveCheckpointPointer: a directory means its
// _metadata; any file is itself the metadata, its parent the exclusive dir.
func resolve(ctx context.Context, st Storage, pointer string) (location, error) {
	p, err := normalizePath(pointer)
	if err != nil {
		return location{}, err
	}
	fi, err := st.Stat(ctx, p)
	if err != nil {
		if notFound(err) {
			return location{}, fmt.Errorf("%w: checkpoint path %s does not exist", ErrNotFound, pointer)
		}
		return location{}, fmt.Errorf("checkpoint path %s: %w", pointer, err)
	}
	if !fi.IsDir {
		return location{metadataPath: p, dir: parentDir(p)}, nil
	}
	loc := dirLocation(p)
	if _, err := st.Stat(ctx, loc.metadataPath); err != nil {
		if notFound(err) {
			return location{}, fmt.Errorf("%w: %s (point at a completed chk-N or savepoint directory, not the job directory)", ErrMissingMetadata, loc.dir)
		}
		return location{}, fmt.Errorf("checkpoint path %s: %w", loc.metadataPath, err)
	}
	return loc, nil
}

// dirLocation is the location of the point directory p (a normalized
// path): its _metadata, and itself as the exclusive dir.
func dirLocation(p string) location {
	dir := strings.TrimRight(p, "/")
	if dir == "" {
		dir = "/"
	}
	return location{metadataPath: joinPath(dir, metadataFileName), dir: dir}
}
