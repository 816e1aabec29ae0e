package emulators

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// S3 is gofakes3 on 127.0.0.1, in memory, holding one bucket. It checks no
// credentials.
type S3 struct {
	URL    string // http://127.0.0.1:PORT, path-style
	Bucket string
}

// StartS3 runs gofakes3 until the test ends.
func StartS3(t testing.TB, bucket string) *S3 {
	t.Helper()
	port := freePort(t)
	start(t, "gofakes3", Binary(t, gofakes3Pkg), port,
		"-backend", "memory", "-host", "127.0.0.1:"+strconv.Itoa(port), "-initialbucket", bucket, "-quiet")
	return &S3{URL: "http://127.0.0.1:" + strconv.Itoa(port), Bucket: bucket}
}

// Put stores data under key, as an unsigned path-style PUT.
func (s *S3) Put(t testing.TB, key string, data []byte) {
	t.Helper()
	u := s.URL + "/" + s.Bucket + "/" + escapeKey(key)
	req, err := http.NewRequest(http.MethodPut, u, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	do(t, req, http.StatusOK)
}

// escapeKey escapes each path segment of an object key.
func escapeKey(key string) string {
	parts := strings.Split(key, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

func do(t testing.TB, req *http.Request, want ...int) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	for _, w := range want {
		if resp.StatusCode == w {
			return
		}
	}
	var body bytes.Buffer
	_, _ = body.ReadFrom(resp.Body)
	t.Fatal(fmt.Errorf("%s %s: %s\n%s", req.Method, req.URL, resp.Status, body.String()))
}
