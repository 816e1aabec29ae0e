// Package stalltest holds what tests of storage that never answers need: a
// TCP listener on 127.0.0.1 that accepts connections and never responds
// (a store wedged after accept, or a proxy black-holing requests), and, on
// Unix, a named pipe where a checkpoint file should be. It is imported by
// tests only.
package stalltest

import (
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// Listener accepts every connection, reads what the client sends and never
// writes a byte. It records when each connection was accepted and when the
// client gave up on it, which shows that a bounded request really released
// its connection rather than leaving a goroutine waiting on it.
type Listener struct {
	// Addr is host:port on 127.0.0.1.
	Addr string

	mu    sync.Mutex
	conns []*conn
}

type conn struct {
	accepted, closed time.Time
	// requested: the client sent something on it. A connection that
	// carried no request is one an HTTP client dialed for a request that
	// was cancelled before it could be sent: Go's transport finishes such a
	// dial and keeps the connection idle for later requests. It holds
	// nothing, so RequireReleased does not wait for it.
	requested bool
}

// requestSeen marks its connection as having carried a request at the
// first byte the client sends.
type requestSeen struct {
	l   *Listener
	rec *conn
}

func (w requestSeen) Write(p []byte) (int, error) {
	if len(p) > 0 {
		w.l.mu.Lock()
		w.rec.requested = true
		w.l.mu.Unlock()
	}
	return len(p), nil
}

// Silent starts a Listener, closed with its connections when t ends.
func Silent(t testing.TB) *Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listening on 127.0.0.1: %v", err)
	}
	l := &Listener{Addr: ln.Addr().String()}
	var open sync.Map
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			rec := &conn{accepted: time.Now()}
			l.mu.Lock()
			l.conns = append(l.conns, rec)
			l.mu.Unlock()
			open.Store(c, true)
			go func() {
				_, _ = io.Copy(requestSeen{l: l, rec: rec}, c) // until the client closes
				l.mu.Lock()
				rec.closed = time.Now()
				l.mu.Unlock()
				open.Delete(c)
				c.Close()
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		open.Range(func(c, _ any) bool { c.(net.Conn).Close(); return true })
	})
	return l
}

// URL is the listener as an http:// base URL.
func (l *Listener) URL() string { return "http://" + l.Addr }

// Accepted is how many connections were made.
func (l *Listener) Accepted() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}

// RequireReleased fails t unless at least one connection carried a request
// and the client closed every such one within holdAtMost of accepting it,
// waiting up to holdAtMost for connections still open. Connections that
// never carried a request are left out (see conn.requested).
func (l *Listener) RequireReleased(t testing.TB, holdAtMost time.Duration) {
	t.Helper()
	deadline := time.Now().Add(holdAtMost)
	for {
		l.mu.Lock()
		open, held, n := 0, time.Duration(0), 0
		for _, c := range l.conns {
			if !c.requested {
				continue
			}
			n++
			if c.closed.IsZero() {
				open++
				continue
			}
			held = max(held, c.closed.Sub(c.accepted))
		}
		l.mu.Unlock()
		switch {
		case n == 0:
			t.Fatalf("no request reached the silent listener on %s: the test did not exercise a stalled request", l.Addr)
		case open == 0 && held > holdAtMost:
			t.Fatalf("a connection to %s was held %s, more than %s: the request was not cancelled when its bound ran out", l.Addr, held, holdAtMost)
		case open == 0:
			return
		case time.Now().After(deadline):
			t.Fatalf("%d of %d connections to %s still open %s after the request ended: the client did not cancel it", open, n, l.Addr, holdAtMost)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
