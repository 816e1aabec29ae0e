// Package saslauthtest serves, on 127.0.0.1, the endpoints the credential
// sources of package saslauth talk to: an OAuth 2 token endpoint issuing
// RS256 JWTs and an AWS STS. Tests of the provider and of a real broker use
// the same fakes; each is stopped by the test that started it.
package saslauthtest

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TokenServer is an OAuth 2 token endpoint for the client credentials
// grant. Its tokens are JWTs a Kafka broker with
// OAuthBearerValidatorCallbackHandler accepts when it trusts Key.
type TokenServer struct {
	// URL is the token endpoint.
	URL string

	cfg TokenConfig
	srv *httptest.Server

	mu       sync.Mutex
	issued   []Issued
	answer   http.HandlerFunc
	requests int
}

// TokenConfig describes the client the server accepts and the tokens it
// issues.
type TokenConfig struct {
	ClientID, ClientSecret string
	// Lifetime of each token (expires_in and the exp claim).
	Lifetime time.Duration
	Key      *rsa.PrivateKey
	// KeyID, Issuer, Audience and Subject become the kid header and the
	// iss, aud and sub claims.
	KeyID, Issuer, Audience, Subject string
}

// Issued is one token the server handed out.
type Issued struct {
	Token string
	At    time.Time
	Scope string
}

// NewTokenServer starts the endpoint; the test's cleanup stops it.
func NewTokenServer(t testing.TB, cfg TokenConfig) *TokenServer {
	t.Helper()
	s := &TokenServer{cfg: cfg}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	s.URL = s.srv.URL + "/oauth2/token"
	return s
}

// Issued returns the tokens handed out so far, oldest first.
func (s *TokenServer) Issued() []Issued {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Issued(nil), s.issued...)
}

// AnswerWith makes h answer every later request instead of the endpoint
// (a redirect, an HTML page, an error echoing the request); nil restores it.
func (s *TokenServer) AnswerWith(h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answer = h
}

// Requests counts the requests received, whoever answered them.
func (s *TokenServer) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

func (s *TokenServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	answer := s.answer
	s.mu.Unlock()
	if answer != nil {
		answer(w, r)
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/oauth2/token" {
		http.NotFound(w, r)
		return
	}
	if err := r.ParseForm(); err != nil || r.PostForm.Get("grant_type") != "client_credentials" {
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type")
		return
	}
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id != s.cfg.ClientID || secret != s.cfg.ClientSecret {
		oauthError(w, http.StatusUnauthorized, "invalid_client")
		return
	}
	scope := r.PostForm.Get("scope")
	token := s.JWT(s.cfg.Lifetime, scope)
	s.mu.Lock()
	s.issued = append(s.issued, Issued{Token: token, At: time.Now(), Scope: scope})
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"access_token": token, "token_type": "Bearer", "expires_in": int(s.cfg.Lifetime / time.Second),
	})
}

func oauthError(w http.ResponseWriter, status int, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code})
}

// JWT mints a token valid for lifetime from now (negative: already
// expired), signed like the endpoint's, without recording it.
func (s *TokenServer) JWT(lifetime time.Duration, scope string) string {
	now := time.Now()
	claims := map[string]any{
		"iss": s.cfg.Issuer, "aud": s.cfg.Audience, "sub": s.cfg.Subject,
		"iat": now.Unix(), "exp": now.Add(lifetime).Unix(),
		// jti makes every token distinct even within one second.
		"jti": fmt.Sprintf("%d", now.UnixNano()),
	}
	if scope != "" {
		claims["scope"] = scope
	}
	return SignRS256(s.cfg.Key, s.cfg.KeyID, claims)
}

// SignRS256 encodes claims as a JWS compact serialization (RFC 7515)
// signed with RSASSA-PKCS1-v1_5 and SHA-256.
func SignRS256(key *rsa.PrivateKey, keyID string, claims map[string]any) string {
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "typ": "JWT", "kid": keyID})
	payload, _ := json.Marshal(claims)
	signingInput := b64(header) + "." + b64(payload)
	digest := sha256.Sum256([]byte(signingInput))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, digest[:])
	if err != nil {
		panic(err) // only for keys too small to sign a SHA-256 digest
	}
	return signingInput + "." + b64(sig)
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// Claims decodes the payload of a JWT without checking its signature.
func Claims(token string) (map[string]any, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, fmt.Errorf("not a JWS compact serialization: %d parts", len(parts))
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return nil, err
	}
	var claims map[string]any
	return claims, json.Unmarshal(payload, &claims)
}
