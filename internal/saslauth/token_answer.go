package saslauth

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

const (
	// maxTokenResponse is the most of a token endpoint's body read. A token
	// response is a few kilobytes even with a large JWT; oauth2 alone would
	// read a megabyte of an error page.
	maxTokenResponse = 128 << 10
	// maxQuotedAnswer is the most of a body an error quotes: enough for an
	// OAuth error or the title of an HTML page, not a page per diagnostic.
	maxQuotedAnswer = 300
	// maxKeptAnswer is the head kept for quoting: longer than the quote so
	// that a secret crossing the quote's end is still whole, and redacted,
	// before the cut.
	maxKeptAnswer = 4 << 10
)

// tokenAnswer is what the endpoint answered to the last token request, seen
// by the transport: oauth2's own errors say "cannot parse json" for an HTML
// page behind a 200 and quote a whole error body, secrets echoed included.
type tokenAnswer struct {
	status      int
	contentType string
	// location is the origin (scheme://host) a redirect pointed to; the
	// rest of its URL may carry a code or a session, so it is not kept.
	location string
	head     []byte
}

// answerRecorder notes each answer in answer and bounds its body.
type answerRecorder struct {
	base   http.RoundTripper
	answer *tokenAnswer
}

func (r answerRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	*r.answer = tokenAnswer{status: resp.StatusCode, contentType: resp.Header.Get("Content-Type")}
	if loc, err := req.URL.Parse(resp.Header.Get("Location")); err == nil && resp.Header.Get("Location") != "" {
		r.answer.location = (&url.URL{Scheme: loc.Scheme, Host: loc.Host}).String()
	}
	resp.Body = &headKeeper{Reader: io.LimitReader(resp.Body, maxTokenResponse), body: resp.Body, answer: r.answer}
	return resp, nil
}

// headKeeper keeps the first maxKeptAnswer bytes read from a body.
type headKeeper struct {
	io.Reader
	body   io.Closer
	answer *tokenAnswer
}

func (h *headKeeper) Read(p []byte) (int, error) {
	n, err := h.Reader.Read(p)
	if room := maxKeptAnswer - len(h.answer.head); room > 0 {
		h.answer.head = append(h.answer.head, p[:min(n, room)]...)
	}
	return n, err
}

func (h *headKeeper) Close() error { return h.body.Close() }

// refuseRedirect stops the client at a redirect's answer. Following one
// would POST the client secret again to wherever it points, another host or
// plain http included; the answer is reported instead.
func refuseRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// redactor replaces a client secret in every form a request carries it,
// so an endpoint that echoes its request leaks nothing through our errors:
// as given, form-encoded in the body, and inside HTTP Basic credentials.
type redactor struct{ secrets []string }

func newRedactor(clientID, clientSecret string) redactor {
	if clientSecret == "" {
		return redactor{}
	}
	basic := func(id, secret string) string { return base64.StdEncoding.EncodeToString([]byte(id + ":" + secret)) }
	return redactor{secrets: []string{
		basic(url.QueryEscape(clientID), url.QueryEscape(clientSecret)), basic(clientID, clientSecret),
		url.QueryEscape(clientSecret), url.PathEscape(clientSecret), clientSecret,
	}}
}

// add masks further values (tokens once issued); "" is ignored.
func (r *redactor) add(values ...string) {
	for _, v := range values {
		if v != "" {
			r.secrets = append(r.secrets, v)
		}
	}
}

func (r redactor) redact(s string) string {
	for _, secret := range r.secrets {
		s = strings.ReplaceAll(s, secret, "(redacted)")
	}
	return s
}

// quote bounds s to maxQuotedAnswer bytes, cut on a rune boundary, after
// redacting it: a secret straddling the cut must not leave half of itself.
func (r redactor) quote(s string) string {
	s = r.redact(s)
	if len(s) <= maxQuotedAnswer {
		return s
	}
	cut := maxQuotedAnswer
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
