package saslauth

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// maxTokenResponse is the most of a token endpoint's body read. A token
// response is a few kilobytes even with a large JWT; oauth2 alone would read
// a megabyte of an error page.
const maxTokenResponse = 128 << 10

// tokenAnswer is what the endpoint answered to the last token request, seen
// by the transport: oauth2's own errors say "cannot parse json" for an HTML
// page behind a 200 and quote a whole error body, secrets echoed included.
// Nothing of the body is kept: an endpoint can echo the request in any
// encoding, so only the fields oauth2 parses out of it are ever quoted
// (endpointError).
type tokenAnswer struct {
	status      int
	contentType string
	// location is the origin (scheme://host) a redirect pointed to; the
	// rest of its URL may carry a code or a session, so it is not kept.
	location string
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
	resp.Body = boundedBody{Reader: io.LimitReader(resp.Body, maxTokenResponse), Closer: resp.Body}
	return resp, nil
}

type boundedBody struct {
	io.Reader
	io.Closer
}

// refuseRedirect stops the client at a redirect's answer. Following one
// would POST the client secret again to wherever it points, another host or
// plain http included; the answer is reported instead.
func refuseRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// redactor knows the credentials a token request carries or obtains: the
// client secret and every token issued. It replaces them, in every form a
// request carries the secret, in texts that do not come from the endpoint
// (transport errors); it refuses to quote a field of the endpoint's answer
// that holds them in any form it can decode (quotable).
type redactor struct {
	// values are the credentials as given; forms adds the encodings a
	// request carries the secret in: form-encoded and HTTP Basic.
	values, forms []string
}

func newRedactor(clientID, clientSecret string) redactor {
	if clientSecret == "" {
		return redactor{}
	}
	basic := func(id, secret string) string { return base64.StdEncoding.EncodeToString([]byte(id + ":" + secret)) }
	return redactor{values: []string{clientSecret}, forms: []string{
		basic(url.QueryEscape(clientID), url.QueryEscape(clientSecret)), basic(clientID, clientSecret),
		url.QueryEscape(clientSecret), url.PathEscape(clientSecret), clientSecret,
	}}
}

// add knows further credentials (tokens once issued); "" is ignored.
func (r *redactor) add(values ...string) {
	for _, v := range values {
		if v != "" {
			r.values = append(r.values, v)
			r.forms = append(r.forms, v)
		}
	}
}

func (r redactor) redact(s string) string {
	for _, form := range r.forms {
		s = strings.ReplaceAll(s, form, "(redacted)")
	}
	return s
}
