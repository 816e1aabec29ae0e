package provider

import (
	"crypto/ecdsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// openssl runs the openssl CLI in dir. The vectors come from OpenSSL
// itself so the decryption is checked against the tool that writes most
// encrypted keys, not against our own encryption.
// Without openssl on PATH these tests are skipped in a plain `go test`
// (Go alone); with TF_ACC set, as `make test` does, they fail instead.
func openssl(t *testing.T, dir string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath("openssl"); err != nil {
		if os.Getenv("TF_ACC") == "" {
			t.Skip("openssl not on PATH: it writes the encrypted keys these tests read (make test requires it)")
		}
		t.Fatalf("openssl not on PATH (%v): it writes the encrypted keys these tests read", err)
	}
	cmd := exec.Command("openssl", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("openssl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// parseAnyKey parses the first private key block of PEM text.
func parseAnyKey(t *testing.T, keyPEM []byte) *ecdsa.PrivateKey {
	t.Helper()
	block, _ := pem.Decode(keyPEM)
	if block == nil {
		t.Fatalf("no PEM block in %q", keyPEM)
	}
	if block.Type == "EC PRIVATE KEY" {
		key, err := x509.ParseECPrivateKey(block.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		return key
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		t.Fatalf("%s block: %v", block.Type, err)
	}
	return key.(*ecdsa.PrivateKey)
}

func TestDecryptPrivateKey(t *testing.T) {
	dir := t.TempDir()
	openssl(t, dir, "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "plain.pem")
	original := parseAnyKey(t, readFile(t, filepath.Join(dir, "plain.pem")))
	const passphrase = "correct horse battery staple"

	encryptions := map[string][]string{
		"PKCS#8 AES-256-CBC, HMAC-SHA256 (OpenSSL's default)": {"pkcs8", "-topk8", "-v2", "aes-256-cbc"},
		"PKCS#8 AES-128-CBC, HMAC-SHA1":                       {"pkcs8", "-topk8", "-v2", "aes-128-cbc", "-v2prf", "hmacWithSHA1"},
		"PKCS#8 AES-192-CBC, HMAC-SHA512":                     {"pkcs8", "-topk8", "-v2", "aes-192-cbc", "-v2prf", "hmacWithSHA512"},
		"PKCS#8 DES-EDE3-CBC, many iterations":                {"pkcs8", "-topk8", "-v2", "des3", "-iter", "100000"},
		"PKCS#8 AES-256-CBC, scrypt":                          {"pkcs8", "-topk8", "-v2", "aes-256-cbc", "-scrypt"},
		"legacy PEM AES-256-CBC":                              {"ec", "-aes256"},
		"legacy PEM DES-EDE3-CBC":                             {"ec", "-des3"},
	}
	for name, args := range encryptions {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "encrypted.pem")
			openssl(t, dir, append(args, "-in", "plain.pem", "-passout", "pass:"+passphrase, "-out", out)...)
			encrypted := readFile(t, out)

			decrypted, err := decryptPrivateKey(encrypted, passphrase)
			if err != nil {
				t.Fatalf("decrypt: %v", err)
			}
			if !parseAnyKey(t, decrypted).Equal(original) {
				t.Fatal("decrypted a different key")
			}
			if _, err := decryptPrivateKey(encrypted, "wrong "+passphrase); !errors.Is(err, errWrongPassphrase) {
				t.Errorf("wrong passphrase: got %v, want errWrongPassphrase", err)
			}
			if _, err := decryptPrivateKey(encrypted, ""); !errors.Is(err, errKeyEncrypted) {
				t.Errorf("no passphrase: got %v, want errKeyEncrypted", err)
			}
		})
	}

	t.Run("unencrypted key is returned unchanged", func(t *testing.T) {
		plain := readFile(t, filepath.Join(dir, "plain.pem"))
		for _, passphrase := range []string{"", "ignored"} {
			got, err := decryptPrivateKey(plain, passphrase)
			if err != nil || string(got) != string(plain) {
				t.Errorf("passphrase %q: got %v, %q", passphrase, err, got)
			}
		}
	})

	unsupported := map[string][]string{
		"PKCS#5 v1.5 / PKCS#12 PBE": {"pkcs8", "-topk8", "-v1", "PBE-SHA1-3DES"},
	}
	for name, args := range unsupported {
		t.Run(name+" is refused with advice", func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "encrypted.pem")
			openssl(t, dir, append(args, "-in", "plain.pem", "-passout", "pass:"+passphrase, "-out", out)...)
			_, err := decryptPrivateKey(readFile(t, out), passphrase)
			if err == nil || !strings.Contains(err.Error(), "openssl pkcs8 -topk8 -v2 aes-256-cbc") {
				t.Errorf("got %v, want a refusal that says how to re-encrypt", err)
			}
		})
	}
}

// A damaged file is refused with an error; crypto/cipher would panic on
// encrypted data that is not whole blocks.
func TestDecryptPrivateKeyMalformed(t *testing.T) {
	dir := t.TempDir()
	openssl(t, dir, "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "plain.pem")
	openssl(t, dir, "pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", "plain.pem", "-passout", "pass:pw", "-out", "enc.pem")
	block, _ := pem.Decode(readFile(t, filepath.Join(dir, "enc.pem")))
	var info struct {
		Algorithm pkix.AlgorithmIdentifier
		Data      []byte
	}
	if _, err := asn1.Unmarshal(block.Bytes, &info); err != nil {
		t.Fatal(err)
	}
	info.Data = info.Data[:len(info.Data)-1]
	der, err := asn1.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	_, err = decryptPrivateKey(pem.EncodeToMemory(&pem.Block{Type: block.Type, Bytes: der}), "pw")
	if err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("got %v, want the key refused as malformed", err)
	}
}
