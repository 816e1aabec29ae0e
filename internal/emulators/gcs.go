package emulators

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"
	"testing"
)

// GCS is fake-gcs-server on 127.0.0.1, in memory, holding one bucket. It
// checks no credentials.
type GCS struct {
	URL    string // http://127.0.0.1:PORT
	Bucket string
}

// StartGCS runs fake-gcs-server until the test ends. Downloads use the
// XML API at host/bucket/object, which it serves only on its public host,
// so that is 127.0.0.1 (the port is not compared, so proxies in front of
// it match too).
func StartGCS(t testing.TB, bucket string) *GCS {
	t.Helper()
	port := freePort(t)
	start(t, "fake-gcs-server", Binary(t, fakeGCSServerPkg), port,
		"-backend", "memory", "-scheme", "http", "-host", "127.0.0.1", "-port", strconv.Itoa(port),
		"-public-host", "127.0.0.1", "-log-level", "error")
	g := &GCS{URL: "http://127.0.0.1:" + strconv.Itoa(port), Bucket: bucket}
	req, err := http.NewRequest(http.MethodPost, g.URL+"/storage/v1/b", bytes.NewReader([]byte(`{"name":"`+bucket+`"}`)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	do(t, req, http.StatusOK)
	return g
}

// Put stores data under key with a media upload.
func (g *GCS) Put(t testing.TB, key string, data []byte) {
	t.Helper()
	u := g.URL + "/upload/storage/v1/b/" + url.PathEscape(g.Bucket) + "/o?uploadType=media&name=" + url.QueryEscape(key)
	req, err := http.NewRequest(http.MethodPost, u, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	do(t, req, http.StatusOK)
}
