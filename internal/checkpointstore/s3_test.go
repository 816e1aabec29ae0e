package checkpointstore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// Credentials from a named profile in the shared files, as s3_profile does.
func TestS3Profile(t *testing.T) {
	be := newS3Backend(t)
	be.env = nil // no key in the environment: only the profile has one
	be.setEnv(t)
	dir := t.TempDir()
	creds := filepath.Join(dir, "credentials")
	config := filepath.Join(dir, "config")
	if err := os.WriteFile(creds, []byte("[ckpt-reader]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = not-a-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte("[profile ckpt-reader]\nregion = eu-west-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", creds)
	t.Setenv("AWS_CONFIG_FILE", config)

	sp, _ := writeSavepoint(t, 5, 2)
	uploadDir(t, be, sp, "profile/sp")
	opts := be.opts
	opts.S3.Profile = "ckpt-reader"
	r, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	want := readMarkers(t, checkpoint.LocalStorage{}, sp)
	sameResult(t, readMarkers(t, r, be.uri("profile/sp")), want, be.uri("profile/sp/_metadata"))

	opts.S3.Profile = "no-such-profile"
	r2, _ := New(opts)
	defer r2.Close()
	if _, err := r2.Stat(context.Background(), be.uri("profile/sp")); err == nil || !strings.Contains(err.Error(), "no-such-profile") {
		t.Errorf("missing profile: %v", err)
	}
}

// AWS S3 itself needs the bucket's region; nothing is sent without one.
func TestS3NeedsRegion(t *testing.T) {
	(&backend{}).setEnv(t)
	r, _ := New(Options{})
	defer r.Close()
	_, err := r.Stat(context.Background(), "s3://some-bucket/job/chk-1")
	if err == nil || !strings.Contains(err.Error(), "set s3_region, AWS_REGION") || !strings.Contains(err.Error(), `bucket "some-bucket"`) {
		t.Errorf("no region: %v", err)
	}
}
