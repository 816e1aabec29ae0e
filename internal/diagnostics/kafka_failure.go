package diagnostics

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
)

// kafkaFailure is what an operator can do about an error from Kafka: the
// classifier decides it once, and both the diagnostic and whether it names
// the connection follow from it.
type kafkaFailure int

const (
	failureUnexpected kafkaFailure = iota
	failureUnknownCA
	failureHostnameMismatch
	failureTLSHandshake
	failureClientCertificateRejected
	failureConnectionRejected
	failureSASLMechanismUnsupported
	failureSASLAuth
	failureNotAuthorized
	failureTimeout
	failureCancelled
	failureUnreachable
	failureBrokerTooOld
	failureNotEnoughReplicas
)

// aboutConnection reports failures whose fix is in how the provider
// connects (address, TLS, SASL, principal).
func (f kafkaFailure) aboutConnection() bool {
	switch f {
	case failureUnknownCA, failureHostnameMismatch, failureTLSHandshake, failureClientCertificateRejected,
		failureConnectionRejected, failureSASLMechanismUnsupported, failureSASLAuth, failureNotAuthorized, failureUnreachable:
		return true
	}
	return false
}

func (f kafkaFailure) diagnostic(op string, err error, brokers []string) diag.Diagnostic {
	switch f {
	case failureUnknownCA:
		return unknownCA(op, err)
	case failureHostnameMismatch:
		return tlsHostnameMismatch(op, err)
	case failureTLSHandshake:
		return tlsHandshakeFailed(op, err)
	case failureClientCertificateRejected:
		return clientCertificateRejected(op, err)
	case failureConnectionRejected:
		return connectionRejected(op, err)
	case failureSASLMechanismUnsupported:
		return saslMechanismUnsupported(op, err)
	case failureSASLAuth:
		return saslAuthFailed(op, err)
	case failureNotAuthorized:
		if need, ok := permissions.Refused(err); ok {
			return missingPermission(op, need, err)
		}
		return notAuthorized(op, err)
	case failureTimeout:
		return kafkaTimeout(op, err)
	case failureCancelled:
		return cancelled(op, err)
	case failureUnreachable:
		return kafkaUnreachable(op, brokers, err)
	case failureBrokerTooOld:
		return brokerTooOld(op, err)
	case failureNotEnoughReplicas:
		return notEnoughReplicas(op, err)
	}
	return unexpected(op, err)
}

// classifyKafkaError recognises the failures an operator can fix; brokers
// are the addresses an unreachable failure names, when known.
func classifyKafkaError(err error) (f kafkaFailure, brokers []string) {
	var (
		unknownAuthority x509.UnknownAuthorityError
		hostname         x509.HostnameError
		certInvalid      x509.CertificateInvalidError
		recordHeader     tls.RecordHeaderError
		verification     *tls.CertificateVerificationError
		firstReadEOF     *kgo.ErrFirstReadEOF
		opErr            *net.OpError
		dnsErr           *net.DNSError
		kafkaErr         *kerr.Error
	)
	switch {
	case errors.As(err, &unknownAuthority):
		return failureUnknownCA, nil
	case errors.As(err, &hostname):
		return failureHostnameMismatch, nil
	case errors.As(err, &certInvalid), errors.As(err, &recordHeader), errors.As(err, &verification):
		return failureTLSHandshake, nil
	case errors.As(err, &opErr) && opErr.Op == "remote error":
		// A TLS alert from the broker: crypto/tls reports it as a net.OpError
		// with this Op. The alerts that matter name the certificate.
		if strings.Contains(opErr.Err.Error(), "certificate") {
			return failureClientCertificateRejected, nil
		}
		return failureTLSHandshake, nil
	case errors.As(err, &firstReadEOF):
		return failureConnectionRejected, nil
	case errors.Is(err, kerr.UnsupportedSaslMechanism):
		return failureSASLMechanismUnsupported, nil
	case errors.Is(err, kerr.SaslAuthenticationFailed), errors.Is(err, kerr.IllegalSaslState):
		return failureSASLAuth, nil
	case errors.As(err, &kafkaErr) && strings.HasSuffix(kafkaErr.Message, "_AUTHORIZATION_FAILED"):
		return failureNotAuthorized, nil
	case errors.As(err, new(*kafkaops.NotEnoughReplicasError)), errors.Is(err, kerr.NotEnoughReplicas), errors.Is(err, kerr.NotEnoughReplicasAfterAppend):
		// Before the timeout: franz-go retries this refusal until the
		// append's deadline, and kafkaops names it in that timeout.
		return failureNotEnoughReplicas, nil
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, kerr.RequestTimedOut):
		return failureTimeout, nil
	case errors.Is(err, context.Canceled):
		return failureCancelled, nil
	case errors.As(err, &dnsErr):
		return failureUnreachable, []string{dnsErr.Name}
	case kafkaops.IsBrokerTooOld(err):
		return failureBrokerTooOld, nil
	case errors.As(err, &opErr) && opErr.Op == "dial":
		if opErr.Addr != nil {
			brokers = []string{opErr.Addr.String()}
		}
		return failureUnreachable, brokers
	}
	return failureUnexpected, nil
}
