package checkpoint

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// memStorage serves one _metadata file from memory, so the fuzzer can drive
// the whole reader (inline state streams included) without touching disk.
type memStorage struct{ metadata []byte }

func (m memStorage) ReadFile(_ context.Context, p string) ([]byte, error) {
	if p != "/cp/_metadata" {
		return nil, fs.ErrNotExist
	}
	return m.metadata, nil
}

func (m memStorage) ReadRange(context.Context, string, int64, int64) ([]byte, error) {
	return nil, fs.ErrNotExist
}

func (m memStorage) Stat(_ context.Context, p string) (FileInfo, error) {
	switch p {
	case "/cp":
		return FileInfo{IsDir: true}, nil
	case "/cp/_metadata":
		return FileInfo{Size: int64(len(m.metadata))}, nil
	}
	return FileInfo{}, fs.ErrNotExist
}

// Committed seeds (testdata/fuzz/FuzzParseMetadata) are writer output with
// inline, compressed and legacy markers; real Flink files are added from the
// shared fixtures at run time, since they must not be copied into the repo.
func FuzzParseMetadata(f *testing.F) {
	dirs, _ := filepath.Glob(filepath.Join(upstream, "*", "_metadata"))
	more, _ := filepath.Glob(filepath.Join(upstream, "operatorstate", "*", "_metadata"))
	corpus, _ := filepath.Glob(filepath.Join(upstream, "metadata-corpus", "*"))
	for i := 0; i < len(corpus); i += 15 { // a spread of versions and handle kinds
		more = append(more, corpus[i])
	}
	for _, file := range append(dirs, more...) {
		// Large seeds make the fuzzer's minimization crawl; small ones cover the same layouts.
		if b, err := os.ReadFile(file); err == nil && len(b) <= 16<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		md, err := ParseMetadata(b)
		if err != nil {
			return
		}
		if md.End > len(b) {
			t.Fatalf("End %d beyond input %d", md.End, len(b))
		}
		// Must not panic, whatever the outcome.
		_, _ = ReadRecoveryMarkers(context.Background(), memStorage{metadata: b}, "/cp", Selector{})
	})
}

// Seeds live in testdata/fuzz/FuzzDecodeMarker. A successful decode must
// re-encode to bytes that decode to the same marker.
func FuzzDecodeMarker(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte, useKryo5 bool) {
		dialect := kryo2
		if useKryo5 {
			dialect = kryo5
		}
		m, err := decodeMarker(b, dialect)
		if err != nil {
			return
		}
		again, err := decodeMarker(encodeMarker(m, dialect), dialect)
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("re-encoding %v gave %v, %v", m, again, err)
		}
		if bytes.Equal(b, nil) {
			t.Fatal("decoded an empty element")
		}
	})
}
