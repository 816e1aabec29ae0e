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
				_, _ = io.Copy(io.Discard, c) // until the client closes
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

// RequireReleased fails t unless at least one connection was made and the
// client closed every one within holdAtMost of accepting it, waiting up to
// holdAtMost for connections still open.
func (l *Listener) RequireReleased(t testing.TB, holdAtMost time.Duration) {
	t.Helper()
	deadline := time.Now().Add(holdAtMost)
	for {
		l.mu.Lock()
		open, held := 0, time.Duration(0)
		for _, c := range l.conns {
			if c.closed.IsZero() {
				open++
				continue
			}
			held = max(held, c.closed.Sub(c.accepted))
		}
		n := len(l.conns)
		l.mu.Unlock()
		switch {
		case n == 0:
			t.Fatalf("no connection reached the silent listener on %s: the test did not exercise a stalled request", l.Addr)
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
