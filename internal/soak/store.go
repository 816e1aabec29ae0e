package soak

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// store is the S3 emulator as the jobs (Flink) write to it: path-style
// requests straight to the emulator, never through the fault proxy, which
// stands between the store and the provider only.
type store struct {
	endpoint, bucket string
}

func (s store) uri(key string) string { return "s3://" + s.bucket + "/" + key }

func (s store) url(key string) string {
	return strings.TrimSuffix(s.endpoint, "/") + "/" + s.bucket + "/" + (&url.URL{Path: key}).EscapedPath()
}

func (s store) put(ctx context.Context, key string, data []byte) error {
	_, err := s.do(ctx, http.MethodPut, s.url(key), data)
	return err
}

func (s store) get(ctx context.Context, key string) ([]byte, error) {
	return s.do(ctx, http.MethodGet, s.url(key), nil)
}

func (s store) remove(ctx context.Context, key string) error {
	_, err := s.do(ctx, http.MethodDelete, s.url(key), nil)
	return err
}

func (s store) do(ctx context.Context, method, u string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s %s: %s: %s", method, u, resp.Status, data)
	}
	return data, nil
}
