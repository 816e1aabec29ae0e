package saslauth

import (
	"encoding/base64"
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxQuotedField is the longest field of a token endpoint's answer quoted:
// an OAuth error description is a sentence.
const maxQuotedField = 300

// quotable returns s, a field oauth2 parsed out of a token endpoint's
// answer (error, error_description), when it is safe to show: short
// printable text that holds no credential in any form decoded here. An
// endpoint may echo the request JSON-escaped ("\/", "\u0026"), HTML-escaped
// ("&amp;", "&#60;"), URL-encoded or in Basic credentials, nested in any
// order; so the check looks at s after every combination of up to three
// decodings, and compares letters and digits only (lower-cased), which no
// escaping of punctuation changes. A credential without letters or digits
// makes every field unsafe. When in doubt the field is not shown: "" is
// returned.
func (r redactor) quotable(s string) string {
	if s == "" || len(s) > maxQuotedField || !utf8.ValidString(s) || strings.ContainsFunc(s, func(c rune) bool { return !unicode.IsPrint(c) }) {
		return ""
	}
	views := decodings(s)
	for _, v := range r.values {
		core := skeleton(v)
		for _, view := range views {
			if strings.Contains(view, v) || strings.Contains(skeleton(view), core) {
				return ""
			}
		}
	}
	return s
}

// skeleton is s's letters and digits, lower-cased.
func skeleton(s string) string {
	return strings.Map(func(c rune) rune {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			return unicode.ToLower(c)
		}
		return -1
	}, s)
}

// decodings is s and what the decoders make of it, up to three deep.
func decodings(s string) []string {
	seen := map[string]bool{s: true}
	views := []string{s}
	next := views
	for range 3 {
		var found []string
		for _, v := range next {
			for _, d := range decoders {
				for _, out := range d(v) {
					if !seen[out] {
						seen[out] = true
						found = append(found, out)
					}
				}
			}
		}
		views = append(views, found...)
		next = found
	}
	return views
}

// decoders each return what s decodes to (nothing when it does not).
var decoders = []func(s string) []string{
	func(s string) []string { return []string{html.UnescapeString(s)} },
	func(s string) []string {
		if u, err := url.QueryUnescape(s); err == nil {
			return []string{u}
		}
		return nil
	},
	func(s string) []string {
		if u, err := url.PathUnescape(s); err == nil {
			return []string{u}
		}
		return nil
	},
	jsonUnescape,
	base64Runs,
}

var jsonEscape = regexp.MustCompile(`\\u[0-9a-fA-F]{4}|\\.`)

// jsonUnescape undoes JSON string escapes in s: \uXXXX, \/, \\, \" and the
// control escapes.
func jsonUnescape(s string) []string {
	if !strings.Contains(s, `\`) {
		return nil
	}
	return []string{jsonEscape.ReplaceAllStringFunc(s, func(esc string) string {
		if len(esc) == 6 {
			n, _ := strconv.ParseUint(esc[2:], 16, 32)
			return string(rune(n))
		}
		switch esc[1] {
		case 'n':
			return "\n"
		case 't':
			return "\t"
		case 'r':
			return "\r"
		case 'b':
			return "\b"
		case 'f':
			return "\f"
		}
		return esc[1:]
	})}
}

var base64Run = regexp.MustCompile(`[A-Za-z0-9+/_-]{8,}={0,2}`)

// base64Runs decodes each run of s that reads as base64 (standard or URL
// alphabet, padded or not), as HTTP Basic credentials are.
func base64Runs(s string) []string {
	var out []string
	for _, run := range base64Run.FindAllString(s, -1) {
		bare := strings.TrimRight(run, "=")
		for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			if b, err := enc.DecodeString(bare); err == nil && utf8.Valid(b) {
				out = append(out, string(b))
			}
		}
	}
	return out
}
