//go:build azurite

package checkpointstore

// The Azure store against Azurite, which needs Node and npm: behind the
// azurite build tag so that a plain `go test ./...` needs Go alone. `make
// test` sets the tag and fails, naming the tool, when node or npm is missing.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/blob/azureblob"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
)

func TestAzure(t *testing.T) { runSuite(t, newAzureBackend(t)) }

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
