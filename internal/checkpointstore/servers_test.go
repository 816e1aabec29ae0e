package checkpointstore

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/emulators"
)

// Each store under test is an emulator on 127.0.0.1 behind a proxy, also on
// 127.0.0.1, that counts the response bytes the store sent and refuses
// (with the store's own 403) every request for a key under "denied/":
// neither gofakes3 nor fake-gcs-server (internal/emulators) checks credentials.
type backend struct {
	name string
	uri  func(key string) string // the object's URI as Flink writes it
	// aliases are the other URI forms naming the same object.
	aliases func(key string) []string
	bucket  string
	put     func(t *testing.T, key string, data []byte)
	opts    Options
	env     map[string]string // credentials and endpoints, set per test
	proxy   *proxy
}

const testBucket = "flink-ckpt"

type proxy struct {
	*httptest.Server
	served atomic.Int64
	denied func(w http.ResponseWriter)
}

// newProxy forwards to target; deny writes the store's refusal.
func newProxy(t *testing.T, target string, deny func(w http.ResponseWriter)) *proxy {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{denied: deny}
	rp := httputil.NewSingleHostReverseProxy(u)
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if uri, err := url.PathUnescape(r.URL.RequestURI()); err == nil && strings.Contains(uri, "denied/") {
			p.denied(w)
			return
		}
		rp.ServeHTTP(&countingWriter{ResponseWriter: w, n: &p.served}, r)
	}))
	t.Cleanup(p.Close)
	return p
}

type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.ResponseWriter.Write(b)
	c.n.Add(int64(n))
	return n, err
}

func (c *countingWriter) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// setEnv applies the backend's environment for one test. AWS and Azure
// settings from the machine are cleared so nothing reaches a real cloud or
// an instance metadata address.
func (be *backend) setEnv(t *testing.T) {
	for _, k := range []string{"AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
		"AZURE_STORAGE_ACCOUNT", "AZURE_STORAGE_KEY", "AZURE_STORAGE_SAS_TOKEN", "AZURE_STORAGE_CONNECTION_STRING", "AZURE_STORAGEBLOB_CONNECTIONSTRING",
		"AZURE_STORAGE_DOMAIN", "AZURE_STORAGE_PROTOCOL", "AZURE_STORAGE_IS_LOCAL_EMULATOR", "STORAGE_EMULATOR_HOST"} {
		t.Setenv(k, "")
	}
	empty := filepath.Join(t.TempDir(), "none")
	t.Setenv("AWS_CONFIG_FILE", empty)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", empty)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	for k, v := range be.env {
		t.Setenv(k, v)
	}
}

func newS3Backend(t *testing.T) *backend {
	srv := emulators.StartS3(t, testBucket)
	p := newProxy(t, srv.URL, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusForbidden)
		_, _ = io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>`)
	})
	be := &backend{
		name: "s3", bucket: testBucket, proxy: p,
		uri: func(key string) string { return "s3://" + testBucket + "/" + key },
		aliases: func(key string) []string {
			return []string{"s3a://" + testBucket + "/" + key, "s3p://" + testBucket + "//" + key}
		},
		opts: Options{S3: S3Options{Endpoint: p.URL, PathStyle: true}},
		env:  map[string]string{"AWS_ACCESS_KEY_ID": "AKIDTEST", "AWS_SECRET_ACCESS_KEY": "not-a-secret"},
	}
	be.put = func(t *testing.T, key string, data []byte) { srv.Put(t, key, data) }
	return be
}

func newGCSBackend(t *testing.T) *backend {
	srv := emulators.StartGCS(t, testBucket)
	p := newProxy(t, srv.URL, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		_, _ = io.WriteString(w, `{"error":{"code":403,"message":"reader@example.iam.gserviceaccount.com does not have storage.objects.get access","errors":[{"reason":"forbidden"}]}}`)
	})
	be := &backend{
		name: "gcs", bucket: testBucket, proxy: p,
		uri:     func(key string) string { return "gs://" + testBucket + "/" + key },
		aliases: func(key string) []string { return []string{"GS://" + testBucket + "/" + key} },
		env:     map[string]string{"STORAGE_EMULATOR_HOST": strings.TrimPrefix(p.URL, "http://")},
	}
	be.put = func(t *testing.T, key string, data []byte) { srv.Put(t, key, data) }
	return be
}
