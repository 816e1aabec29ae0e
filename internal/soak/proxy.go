package soak

import (
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// faultProxy stands between the provider and the S3 emulator: it passes
// requests through, or, while a store fault is set, makes the requests in
// its scope slow, answers them with 5xx, or never answers them.
type faultProxy struct {
	srv   *http.Server
	addr  string
	proxy *httputil.ReverseProxy

	mu    sync.Mutex
	kind  Kind
	scope string // a job's ID in the request's path or query; "" every request
	rate  float64
	rng   *rand.Rand
	// silent holds the requests left unanswered, released at clear.
	silent chan struct{}

	hit atomic.Int64 // requests the current fault struck
}

func startFaultProxy(target string, seed uint64) (*faultProxy, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &faultProxy{addr: "http://" + ln.Addr().String(), proxy: httputil.NewSingleHostReverseProxy(u),
		rng: rand.New(rand.NewPCG(seed, 3)), silent: make(chan struct{})}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: time.Minute}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// set starts a store fault; scope "" strikes every job.
func (p *faultProxy) set(kind Kind, scope string, rate float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.kind, p.scope, p.rate = kind, scope, rate
	p.hit.Store(0)
}

// clear ends the fault and lets every unanswered request go.
func (p *faultProxy) clear() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.kind = ""
	close(p.silent)
	p.silent = make(chan struct{})
	return p.hit.Load()
}

func (p *faultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	kind, silent := p.kind, p.silent
	strike := kind != "" && (p.scope == "" || strings.Contains(r.URL.Path+"?"+r.URL.RawQuery, p.scope)) && p.rng.Float64() < p.rate
	delay := time.Duration(500+p.rng.IntN(3000)) * time.Millisecond
	code := []int{http.StatusInternalServerError, http.StatusServiceUnavailable}[p.rng.IntN(2)]
	p.mu.Unlock()
	if !strike {
		p.proxy.ServeHTTP(w, r)
		return
	}
	p.hit.Add(1)
	switch kind {
	case S3Slow:
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		p.proxy.ServeHTTP(w, r)
	case S3Errors:
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(code)
		_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>soak: injected failure</Message></Error>`))
	case S3Silent:
		// Accept the request and never answer: the client has to give up.
		select {
		case <-silent:
		case <-r.Context().Done():
		}
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
			}
		}
	}
}

func (p *faultProxy) close() { _ = p.srv.Close() }
