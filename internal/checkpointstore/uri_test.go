package checkpointstore

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		in   string
		want object
	}{
		{"s3://b/a/chk-1/_metadata", object{store: storeS3, bucket: "b", key: "a/chk-1/_metadata"}},
		{"s3a://b/a", object{store: storeS3, bucket: "b", key: "a"}},
		{"s3p://b//a/", object{store: storeS3, bucket: "b", key: "a/"}},
		{"s3://b", object{store: storeS3, bucket: "b"}},
		{"gs://b/x/y", object{store: storeGCS, bucket: "b", key: "x/y"}},
		{"abfss://ckpt@acct.dfs.core.windows.net/job/chk-1", object{store: storeAzure, bucket: "ckpt", account: "acct", domain: "blob.core.windows.net", key: "job/chk-1"}},
		{"abfs://ckpt@acct.dfs.core.chinacloudapi.cn/j", object{store: storeAzure, bucket: "ckpt", account: "acct", domain: "blob.core.chinacloudapi.cn", key: "j"}},
		{"wasbs://ckpt@acct.blob.core.windows.net/j", object{store: storeAzure, bucket: "ckpt", account: "acct", domain: "blob.core.windows.net", key: "j"}},
		{"wasb://ckpt@Acct.BLOB.core.windows.net/j", object{store: storeAzure, bucket: "ckpt", account: "Acct", domain: "blob.core.windows.net", key: "j"}},
		{"file:/cp/chk-1", object{store: storeLocal, local: "/cp/chk-1"}},
		{"file:///cp/chk-1", object{store: storeLocal, local: "/cp/chk-1"}},
		{"file://localhost/cp", object{store: storeLocal, local: "/cp"}},
		{"/cp/chk-1", object{store: storeLocal, local: "/cp/chk-1"}},
		{"relative/chk-1", object{store: storeLocal, local: "relative/chk-1"}},
		{`C:\cp\chk-1`, object{store: storeLocal, local: `C:\cp\chk-1`}},
	}
	for _, c := range cases {
		got, err := parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		c.want.uri = c.in
		if got != c.want {
			t.Errorf("%s: %+v, want %+v", c.in, got, c.want)
		}
	}
}

func TestParseRefusals(t *testing.T) {
	for in, want := range map[string]string{
		"hdfs://nn:8020/flink/chk-1":         "supported are s3://, s3a://, s3p://, gs://, abfs://, abfss://, wasb://, wasbs://, file: and local paths",
		"oss://b/x":                          `scheme "oss"`,
		"s3:/b/x":                            "want s3://<bucket>/<path>",
		"s3:///x":                            "names no bucket",
		"abfss://acct.dfs.core.windows.net/": "want abfss://<container>@<account>.dfs.core.windows.net/<path>",
		"wasbs://c@acct/x":                   "want wasbs://<container>@<account>.blob.core.windows.net/<path>",
		"file://otherhost/x":                 `names host "otherhost"`,
		"":                                   "empty",
	} {
		_, err := parse(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	r, _ := New(Options{})
	_, err := r.Stat(context.Background(), "hdfs://nn/flink/chk-1")
	if !errors.Is(err, ErrUnsupportedScheme) {
		t.Errorf("Stat(hdfs): %v", err)
	}
}

func TestRewrite(t *testing.T) {
	r, err := New(Options{PathRewrite: []Rewrite{
		{From: "s3://old/job/", To: "gs://new/copied"},
		{From: "file:/tmp/flink", To: "s3://b/restored/"},
		{From: "s3://old", To: "s3://older"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"s3://old/job/shared/x":   "gs://new/copied/shared/x",
		"s3://old/job":            "gs://new/copied",
		"s3://old/job2/x":         "s3://older/job2/x", // not under s3://old/job
		"file:/tmp/flink/chk-1/a": "s3://b/restored/chk-1/a",
		"file:/tmp/flinkx/a":      "file:/tmp/flinkx/a",
		"s3://oldest/a":           "s3://oldest/a",
	} {
		if got := r.rewrite(in); got != want {
			t.Errorf("rewrite(%s) = %s, want %s", in, got, want)
		}
	}
	for _, bad := range [][]Rewrite{{{From: "", To: "s3://b"}}, {{From: "s3://a", To: "hdfs://x/y"}}} {
		if _, err := New(Options{PathRewrite: bad}); err == nil {
			t.Errorf("New accepted %+v", bad)
		}
	}
}

// A key or connection string for one account cannot sign for another.
func TestAzureAccountMismatch(t *testing.T) {
	t.Setenv("AZURE_STORAGE_ACCOUNT", "prodaccount")
	t.Setenv("AZURE_STORAGE_KEY", "a2V5")
	r, _ := New(Options{})
	_, err := r.ReadFile(context.Background(), "abfss://ckpt@otheraccount.dfs.core.windows.net/job/chk-1/_metadata")
	if err == nil || !strings.Contains(err.Error(), `for storage account "prodaccount", but the path names account "otheraccount"`) {
		t.Errorf("mismatched account: %v", err)
	}
	if strings.Contains(err.Error(), "a2V5") {
		t.Errorf("the key leaked into %v", err)
	}
}
