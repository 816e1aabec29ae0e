package provider

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/des"
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
)

// Errors of decryptPrivateKey, for diagnostics that say what to change.
var (
	errKeyEncrypted    = errors.New("the private key is encrypted and no passphrase is set")
	errWrongPassphrase = errors.New("the passphrase does not decrypt the private key")
)

// decryptPrivateKey returns keyPEM with its private key decrypted. It reads
// the two encryptions client keys come with: PKCS#8 "ENCRYPTED PRIVATE
// KEY" (PBES2 with PBKDF2, what `openssl pkcs8 -topk8 -v2 aes-256-cbc` and
// OpenSSL 3 write by default) and OpenSSL's legacy PEM encryption
// ("Proc-Type: 4,ENCRYPTED"). Go's standard library decrypts only the
// latter. An unencrypted key is returned as it is, whatever the passphrase.
func decryptPrivateKey(keyPEM []byte, passphrase string) ([]byte, error) {
	for block, rest := pem.Decode(keyPEM); block != nil; block, rest = pem.Decode(rest) {
		switch {
		case block.Type == "ENCRYPTED PRIVATE KEY":
			if passphrase == "" {
				return nil, errKeyEncrypted
			}
			der, err := decryptPKCS8(block.Bytes, []byte(passphrase))
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

// Object identifiers of PKCS#5 v2.1 (RFC 8018) and the ciphers it names.
var (
	oidPBES2      = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 13}
	oidPBKDF2     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 12}
	oidDESEDE3CBC = asn1.ObjectIdentifier{1, 2, 840, 113549, 3, 7}
	oidAES128CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 2}
	oidAES192CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 22}
	oidAES256CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 42}

	pbkdf2PRFs = map[string]func() hash.Hash{
		"1.2.840.113549.2.7":  sha1.New, // hmacWithSHA1, the default when absent
		"1.2.840.113549.2.8":  sha256.New224,
		"1.2.840.113549.2.9":  sha256.New,
		"1.2.840.113549.2.10": sha512.New384,
		"1.2.840.113549.2.11": sha512.New,
	}
)

// maxPBKDF2Iterations bounds the work a key file can ask for. OpenSSL
// writes 2048, current guidance is in the hundreds of thousands; ten
// million is beyond any real key and stops a hostile file from hanging
// the provider.
const maxPBKDF2Iterations = 10_000_000

// ASN.1 shapes of RFC 5958 and RFC 8018.
type (
	encryptedPrivateKeyInfo struct {
		Algorithm     pkix.AlgorithmIdentifier
		EncryptedData []byte
	}
	pbes2Params struct {
		KeyDerivationFunc pkix.AlgorithmIdentifier
		EncryptionScheme  pkix.AlgorithmIdentifier
	}
	pbkdf2Params struct {
		Salt           []byte
		IterationCount int
		KeyLength      int                      `asn1:"optional"`
		PRF            pkix.AlgorithmIdentifier `asn1:"optional"`
	}
)

// decryptPKCS8 decrypts an EncryptedPrivateKeyInfo protected with PBES2,
// PBKDF2 and AES-CBC or DES-EDE3-CBC, and returns the PKCS#8
// PrivateKeyInfo inside.
func decryptPKCS8(der, passphrase []byte) ([]byte, error) {
	var info encryptedPrivateKeyInfo
	if err := unmarshalAll(der, &info); err != nil {
		return nil, fmt.Errorf("the ENCRYPTED PRIVATE KEY block does not parse: %w", err)
	}
	if !info.Algorithm.Algorithm.Equal(oidPBES2) {
		return nil, unsupportedEncryption("scheme " + info.Algorithm.Algorithm.String() + " (PKCS#5 v1.5 or PKCS#12 PBE)")
	}
	var params pbes2Params
	if err := unmarshalAll(info.Algorithm.Parameters.FullBytes, &params); err != nil {
		return nil, fmt.Errorf("the PBES2 parameters do not parse: %w", err)
	}
	if !params.KeyDerivationFunc.Algorithm.Equal(oidPBKDF2) {
		return nil, unsupportedEncryption("key derivation " + params.KeyDerivationFunc.Algorithm.String() + " (scrypt?)")
	}
	var kdf pbkdf2Params
	if err := unmarshalAll(params.KeyDerivationFunc.Parameters.FullBytes, &kdf); err != nil {
		return nil, fmt.Errorf("the PBKDF2 parameters do not parse: %w", err)
	}
	prfOID := "1.2.840.113549.2.7"
	if len(kdf.PRF.Algorithm) > 0 {
		prfOID = kdf.PRF.Algorithm.String()
	}
	prf, ok := pbkdf2PRFs[prfOID]
	if !ok {
		return nil, unsupportedEncryption("PBKDF2 pseudo-random function " + prfOID)
	}
	if kdf.IterationCount < 1 || kdf.IterationCount > maxPBKDF2Iterations {
		return nil, fmt.Errorf("the PBKDF2 iteration count %d is outside 1..%d", kdf.IterationCount, maxPBKDF2Iterations)
	}

	newCipher, keyLen, err := cbcCipher(params.EncryptionScheme.Algorithm)
	if err != nil {
		return nil, err
	}
	if kdf.KeyLength != 0 && kdf.KeyLength != keyLen {
		return nil, fmt.Errorf("the PBKDF2 key length %d does not fit the cipher's %d", kdf.KeyLength, keyLen)
	}
	var iv []byte
	if err := unmarshalAll(params.EncryptionScheme.Parameters.FullBytes, &iv); err != nil {
		return nil, fmt.Errorf("the cipher's IV does not parse: %w", err)
	}
	key, err := pbkdf2.Key(prf, string(passphrase), kdf.Salt, kdf.IterationCount, keyLen)
	if err != nil {
		return nil, err
	}
	block, err := newCipher(key)
	if err != nil {
		return nil, err
	}
	data := info.EncryptedData
	if len(iv) != block.BlockSize() || len(data) == 0 || len(data)%block.BlockSize() != 0 {
		return nil, fmt.Errorf("the encrypted key is malformed: IV of %d bytes, %d bytes of data for %d-byte blocks",
			len(iv), len(data), block.BlockSize())
	}
	plain := make([]byte, len(data))
	cipher.NewCBCDecrypter(block, iv).CryptBlocks(plain, data)
	plain, ok = unpadPKCS7(plain, block.BlockSize())
	if !ok {
		return nil, errWrongPassphrase
	}
	// As for legacy PEM: padding alone does not prove the passphrase.
	if _, err := x509.ParsePKCS8PrivateKey(plain); err != nil {
		return nil, errWrongPassphrase
	}
	return plain, nil
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

func cbcCipher(oid asn1.ObjectIdentifier) (func([]byte) (cipher.Block, error), int, error) {
	switch {
	case oid.Equal(oidAES128CBC):
		return aes.NewCipher, 16, nil
	case oid.Equal(oidAES192CBC):
		return aes.NewCipher, 24, nil
	case oid.Equal(oidAES256CBC):
		return aes.NewCipher, 32, nil
	case oid.Equal(oidDESEDE3CBC):
		return des.NewTripleDESCipher, 24, nil
	}
	return nil, 0, unsupportedEncryption("cipher " + oid.String())
}

// unpadPKCS7 strips RFC 5652 padding: n bytes of value n, 1 <= n <= block size.
func unpadPKCS7(b []byte, blockSize int) ([]byte, bool) {
	n := int(b[len(b)-1])
	if n == 0 || n > blockSize {
		return nil, false
	}
	for _, c := range b[len(b)-n:] {
		if int(c) != n {
			return nil, false
		}
	}
	return b[:len(b)-n], true
}

func unmarshalAll(der []byte, out any) error {
	rest, err := asn1.Unmarshal(der, out)
	if err == nil && len(rest) > 0 {
		err = fmt.Errorf("%d trailing bytes", len(rest))
	}
	return err
}

func unsupportedEncryption(what string) error {
	return fmt.Errorf("the private key is encrypted with %s, which this provider cannot decrypt; "+
		"re-encrypt it with `openssl pkcs8 -topk8 -v2 aes-256-cbc -in key.pem -out key-aes.pem`", what)
}
