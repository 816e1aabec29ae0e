package invariant

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// SecretScan looks for secret values in every file under its roots, except
// the few files that must hold them (a broker's server.properties, the
// soak's own secret file), directories of binary data (Kafka's logs) and
// logs compressed after a scan read them (*.gz). Each night it reads only what files gained since the
// last scan, overlapping by a secret's length so a value split across two
// writes is still found.
type SecretScan struct {
	Roots   []string
	Secrets []string
	// Allowed are paths (files or directories) that may hold a secret.
	Allowed []string
	seen    map[string]scanned
}

// scanned is how much of a file a scan read, and a hash of its first bytes
// then: a file rewritten in place (a state, a saved plan's JSON) is read
// again from its start, a log that only grew from where the scan stopped.
type scanned struct {
	end  int64
	head [sha256.Size]byte
}

const headBytes = 4096

// Scan returns "file: offset" for each new occurrence and how many files
// had something new to read.
func (s *SecretScan) Scan() ([]string, int, error) {
	if s.seen == nil {
		s.seen = map[string]scanned{}
	}
	longest := 0
	for _, v := range s.Secrets {
		longest = max(longest, len(v))
	}
	var found []string
	read := 0
	for _, root := range s.Roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil // removed while walking (a rolled log, a scratch file)
				}
				return err
			}
			if slices.Contains(s.Allowed, path) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			// *.gz: logs the soak compressed once a scan had read them.
			if d.IsDir() || !d.Type().IsRegular() || filepath.Ext(path) == ".gz" {
				return nil
			}
			hits, n, err := s.scanFile(path, longest)
			if n > 0 {
				read++
			}
			found = append(found, hits...)
			if os.IsNotExist(err) {
				return nil
			}
			return err
		})
		if err != nil {
			return found, read, err
		}
	}
	return found, read, nil
}

func (s *SecretScan) scanFile(path string, overlap int) ([]string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	last := s.seen[path]
	prev := last.end
	if info.Size() < prev || head(f, min(prev, headBytes)) != last.head {
		prev = 0 // rewritten (a state file, a rolled log): all of it is new
	}
	from := max(0, prev-int64(overlap))
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return nil, 0, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, 0, err
	}
	end := from + int64(len(data))
	s.seen[path] = scanned{end: end, head: head(f, min(end, headBytes))}
	var hits []string
	for _, secret := range s.Secrets {
		for i := 0; ; {
			j := bytes.Index(data[i:], []byte(secret))
			if j < 0 {
				break
			}
			// A hit ending within what the last scan read was reported then.
			if at := from + int64(i+j); at+int64(len(secret)) > prev {
				hits = append(hits, fmt.Sprintf("%s: byte %d", path, at))
			}
			i += j + len(secret)
		}
	}
	return hits, end - prev, nil
}

// head hashes the first n bytes of f.
func head(f *os.File, n int64) [sha256.Size]byte {
	h := sha256.New()
	_, _ = io.Copy(h, io.NewSectionReader(f, 0, n))
	var sum [sha256.Size]byte
	copy(sum[:], h.Sum(nil))
	return sum
}
