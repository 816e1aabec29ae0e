package checkpoint

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// upstream holds snapshots written by Apache Flink itself (provenance and
// licence in its README).
const upstream = "testdata/flink-upstream"

// javaSerializationMagic starts the ObjectOutputStream that holds the
// checkpoint properties after the operator states.
var javaSerializationMagic = []byte{0xAC, 0xED, 0x00, 0x05}

func TestMetadataCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(upstream, "metadata-corpus", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 300 {
		t.Fatalf("found %d corpus files in %s, expected the 355 shared ones", len(files), upstream)
	}
	perVersion := map[int]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		version := int(binary.BigEndian.Uint32(b[4:8]))
		perVersion[version]++
		md, err := ParseMetadata(b)
		name := filepath.Base(f)
		if version < minMetadataVersion {
			var ve *VersionError
			if !errors.As(err, &ve) || !errors.Is(err, ErrUnsupportedVersion) || int(ve.Version) != version {
				t.Errorf("%s (version %d): want a VersionError, got %v", name, version, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s (version %d): %v", name, version, err)
			continue
		}
		// Version 3 has no properties block: the operator states end the file.
		want := bytes.Index(b[md.End:], javaSerializationMagic)
		if version == 3 {
			if md.End != len(b) {
				t.Errorf("%s: V3 parse stopped at %d of %d bytes", name, md.End, len(b))
			}
			continue
		}
		if want != 0 {
			t.Errorf("%s (version %d): parse stopped at %d, which is not the start of the properties block (AC ED 00 05 found %d bytes later)",
				name, version, md.End, want)
		}
	}
	t.Logf("files per metadata version: %v", perVersion)
	for v := 2; v <= 6; v++ {
		if perVersion[v] == 0 {
			t.Errorf("corpus holds no version %d file", v)
		}
	}
}
