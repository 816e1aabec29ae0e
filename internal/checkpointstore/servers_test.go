package checkpointstore

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/blob/azureblob"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
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

// Azurite, started once per test binary by scripts/azurite.sh unless
// AZURITE_BLOB_ENDPOINT names a running one.
var azurite struct {
	once             sync.Once
	err              error
	dir              string
	endpoint, key    string
	account, connStr string
}

func startAzurite() {
	if ep := os.Getenv("AZURITE_BLOB_ENDPOINT"); ep != "" {
		azurite.endpoint, azurite.account, azurite.key = ep, os.Getenv("AZURITE_ACCOUNT"), os.Getenv("AZURITE_KEY")
		if azurite.account == "" || azurite.key == "" {
			azurite.err = fmt.Errorf("AZURITE_BLOB_ENDPOINT is set but AZURITE_ACCOUNT or AZURITE_KEY is not")
		}
		return
	}
	dir, err := os.MkdirTemp("", "azurite-test-")
	if err != nil {
		azurite.err = err
		return
	}
	azurite.dir = dir
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "bash", "../../scripts/azurite.sh", "start", dir).CombinedOutput()
	if err != nil {
		azurite.err = fmt.Errorf("starting Azurite with scripts/azurite.sh failed (it needs node and npm; or set AZURITE_BLOB_ENDPOINT, AZURITE_ACCOUNT and AZURITE_KEY for a running Azurite): %v\n%s", err, out)
		return
	}
	env, err := readEnvFile(filepath.Join(dir, "env.sh"))
	if err != nil {
		azurite.err = err
		return
	}
	azurite.endpoint, azurite.account, azurite.key = env["AZURITE_BLOB_ENDPOINT"], env["AZURITE_ACCOUNT"], env["AZURITE_KEY"]
}

func stopAzurite() {
	if azurite.dir != "" {
		if out, err := exec.Command("bash", "../../scripts/azurite.sh", "stop", azurite.dir).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "stopping Azurite: %v\n%s", err, out)
		}
		os.RemoveAll(azurite.dir)
	}
}

// readEnvFile parses the export K='V' lines scripts/azurite.sh writes.
func readEnvFile(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	env := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "export ")
		if k, v, ok := strings.Cut(line, "="); ok {
			env[k] = strings.Trim(v, "'")
		}
	}
	return env, sc.Err()
}

func TestMain(m *testing.M) {
	code := m.Run()
	stopAzurite()
	os.Exit(code)
}

func azureConnString(blobEndpoint string) string {
	return fmt.Sprintf("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;BlobEndpoint=%s;", azurite.account, azurite.key, blobEndpoint)
}

func newAzureBackend(t *testing.T) *backend {
	azurite.once.Do(startAzurite)
	if azurite.err != nil {
		t.Fatal(azurite.err)
	}
	u, err := url.Parse(azurite.endpoint)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("ckpt%d", time.Now().UnixNano())
	direct := azureConnString(azurite.endpoint)
	p := newProxy(t, u.Scheme+"://"+u.Host, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/xml")
		w.Header().Set("x-ms-error-code", "AuthorizationPermissionMismatch")
		w.WriteHeader(http.StatusForbidden)
		_, _ = io.WriteString(w, `<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthorizationPermissionMismatch</Code><Message>This request is not authorized to perform this operation using this permission.</Message></Error>`)
	})
	// Uploads go straight to Azurite with gocloud's own writer.
	client, err := container.NewClientFromConnectionString(direct, name, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Create(context.Background(), nil); err != nil {
		t.Fatalf("create container %s: %v", name, err)
	}
	up, err := azureblob.OpenBucket(context.Background(), client, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { up.Close() })
	be := &backend{
		name: "azure", bucket: name, proxy: p,
		uri: func(key string) string {
			return "abfss://" + name + "@" + azurite.account + ".dfs.core.windows.net/" + key
		},
		aliases: func(key string) []string {
			return []string{
				"abfs://" + name + "@" + azurite.account + ".dfs.core.windows.net/" + key,
				"wasbs://" + name + "@" + azurite.account + ".blob.core.windows.net/" + key,
				"wasb://" + name + "@" + azurite.account + ".blob.core.windows.net/" + key,
			}
		},
		env: map[string]string{"AZURE_STORAGE_CONNECTION_STRING": azureConnString(p.URL + "/" + azurite.account)},
	}
	be.put = func(t *testing.T, key string, data []byte) {
		t.Helper()
		if err := up.WriteAll(context.Background(), key, data, &blob.WriterOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return be
}
