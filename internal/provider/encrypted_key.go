package provider

import (
	"crypto/pbkdf2"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"fmt"
	"hash"
	"strings"

	"github.com/youmark/pkcs8"
)

// Errors of decryptPrivateKey, for diagnostics that say what to change.
var (
	errKeyEncrypted    = errors.New("the private key is encrypted and no passphrase is set")
	errWrongPassphrase = errors.New("the passphrase does not decrypt the private key")
)

// decryptPrivateKey returns keyPEM with its private key decrypted. It reads
// the two encryptions client keys come with: PKCS#8 "ENCRYPTED PRIVATE
// KEY" (PBES2, what `openssl pkcs8 -topk8 -v2 aes-256-cbc` and OpenSSL 3
// write by default; youmark/pkcs8 decrypts it) and OpenSSL's legacy PEM
// encryption ("Proc-Type: 4,ENCRYPTED", which Go's standard library
// decrypts). An unencrypted key is returned as it is, whatever the passphrase.
func decryptPrivateKey(keyPEM []byte, passphrase string) ([]byte, error) {
	for block, rest := pem.Decode(keyPEM); block != nil; block, rest = pem.Decode(rest) {
		switch {
		case block.Type == "ENCRYPTED PRIVATE KEY":
			if passphrase == "" {
				return nil, errKeyEncrypted
			}
			der, err := decryptPKCS8(block.Bytes, passphrase)
			if err != nil {
				return nil, err
			}
			return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
		//nolint:staticcheck // SA1019: legacy PEM encryption is insecure, but keys in it exist and must be read.
		case x509.IsEncryptedPEMBlock(block):
			if passphrase == "" {
				return nil, errKeyEncrypted
			}
			//nolint:staticcheck // SA1019: as above.
			der, err := x509.DecryptPEMBlock(block, []byte(passphrase))
			// A wrong passphrase passes the padding check about once in 256
			// tries; the key must then also parse.
			if errors.Is(err, x509.IncorrectPasswordError) || (err == nil && !isPrivateKey(der)) {
				return nil, errWrongPassphrase
			}
			if err != nil {
				return nil, err
			}
			return pem.EncodeToMemory(&pem.Block{Type: block.Type, Bytes: der}), nil
		}
	}
	return keyPEM, nil
}

// decryptPKCS8 returns the PKCS#8 PrivateKeyInfo inside an
// EncryptedPrivateKeyInfo. youmark/pkcs8 exports no error values, so its
// messages are matched.
func decryptPKCS8(der []byte, passphrase string) (plain []byte, err error) {
	defer func() {
		// The library hands CBC an IV or data of the wrong length as they
		// are, and crypto/cipher panics on them.
		if recover() != nil {
			plain, err = nil, errors.New("the encrypted key is malformed: its IV or data does not fit the cipher's block size")
		}
	}()
	key, _, err := pkcs8.ParsePrivateKey(der, []byte(passphrase))
	switch {
	case err == nil:
		return x509.MarshalPKCS8PrivateKey(key)
	case err.Error() == "pkcs8: incorrect password":
		return nil, errWrongPassphrase
	case strings.Contains(err.Error(), "only PBES2") || strings.Contains(err.Error(), "unsupported"):
		return nil, unsupportedEncryption(strings.TrimPrefix(err.Error(), "pkcs8: "))
	}
	return nil, fmt.Errorf("the ENCRYPTED PRIVATE KEY block does not parse: %w", err)
}

// isPrivateKey says whether der is a private key in one of the DER forms
// legacy PEM encryption wraps: PKCS#1 (RSA), SEC 1 (EC) or PKCS#8.
func isPrivateKey(der []byte) bool {
	if _, err := x509.ParsePKCS1PrivateKey(der); err == nil {
		return true
	}
	if _, err := x509.ParseECPrivateKey(der); err == nil {
		return true
	}
	_, err := x509.ParsePKCS8PrivateKey(der)
	return err == nil
}

func unsupportedEncryption(what string) error {
	return fmt.Errorf("the private key is encrypted in a way this provider cannot decrypt (%s); "+
		"re-encrypt it with `openssl pkcs8 -topk8 -v2 aes-256-cbc -in key.pem -out key-aes.pem`", what)
}

// The library's PBKDF2 knows only HMAC-SHA1 and -SHA256 and takes any
// iteration count; this one, registered in its place, knows the PRFs
// OpenSSL writes (-v2prf) and bounds the work a key file can ask for.
func init() {
	pkcs8.RegisterKDF(asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 12}, func() pkcs8.KDFParameters { return new(pbkdf2Params) })
}

// maxPBKDF2Iterations: OpenSSL writes 2048, current guidance is in the
// hundreds of thousands; ten million is beyond any real key and stops a
// hostile file from hanging the provider.
const maxPBKDF2Iterations = 10_000_000

var pbkdf2PRFs = map[string]func() hash.Hash{
	"1.2.840.113549.2.7":  sha1.New, // hmacWithSHA1, the default when absent
	"1.2.840.113549.2.8":  sha256.New224,
	"1.2.840.113549.2.9":  sha256.New,
	"1.2.840.113549.2.10": sha512.New384,
	"1.2.840.113549.2.11": sha512.New,
}

// pbkdf2Params are PBKDF2-params of RFC 8018.
type pbkdf2Params struct {
	Salt           []byte
	IterationCount int
	KeyLength      int                      `asn1:"optional"`
	PRF            pkix.AlgorithmIdentifier `asn1:"optional"`
}

func (p *pbkdf2Params) DeriveKey(password []byte, size int) ([]byte, error) {
	prfOID := "1.2.840.113549.2.7"
	if len(p.PRF.Algorithm) > 0 {
		prfOID = p.PRF.Algorithm.String()
	}
	prf, ok := pbkdf2PRFs[prfOID]
	if !ok {
		return nil, fmt.Errorf("pkcs8: unsupported PBKDF2 pseudo-random function %s", prfOID)
	}
	if p.IterationCount < 1 || p.IterationCount > maxPBKDF2Iterations {
		return nil, fmt.Errorf("the PBKDF2 iteration count %d is outside 1..%d", p.IterationCount, maxPBKDF2Iterations)
	}
	if p.KeyLength != 0 && p.KeyLength != size {
		return nil, fmt.Errorf("the PBKDF2 key length %d does not fit the cipher's %d", p.KeyLength, size)
	}
	return pbkdf2.Key(prf, string(password), p.Salt, p.IterationCount, size)
}
