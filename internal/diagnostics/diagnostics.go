// Package diagnostics holds the operator-facing diagnostics this provider reports.
//
// Every diagnostic follows one shape: a Title-Case summary naming what went
// wrong, then a detail that says what we were doing, what the operator should
// do next, and the original error, in that order. Keeping the constructors in
// one place keeps that shape (and the advice) identical across resources.
//
// FromKafkaErrorVia is the entry point for errors coming back from franz-go or
// kafkaops: it recognises the failures an operator can fix (network, TLS,
// SASL, ACLs, timeouts) and falls back to Unexpected for the rest.
package diagnostics

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// detail lays out the three parts every detail carries. doing completes the
// sentence "While ...".
func detail(doing, next string, err error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "While %s.\n\n%s", doing, next)
	if err != nil {
		fmt.Fprintf(&b, "\n\nOriginal error: %s", err)
	}
	return b.String()
}

// brokerList renders addresses for a sentence; an empty list means the
// addresses are not known where the error was classified.
func brokerList(brokers []string) string {
	if len(brokers) == 0 {
		return "the configured bootstrap servers"
	}
	return strings.Join(brokers, ", ")
}

// kafkaUnreachable reports that no connection could be opened: DNS, routing,
// firewalls or a broker that is down.
func kafkaUnreachable(op string, brokers []string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Kafka Unreachable",
		detail(op+", the provider could not connect to "+brokerList(brokers),
			"Check that bootstrap_servers (or KAFKA_BOOTSTRAP_SERVERS) lists host:port pairs "+
				"of the listener this machine can reach, that the brokers are running, and that "+
				"no firewall or security group blocks the port.", err))
}

// kafkaTimeout reports an operation that did not finish within the provider's
// per-request timeout or the resource's timeouts block.
func kafkaTimeout(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Kafka Operation Timed Out",
		detail(op+", the cluster did not answer in time (the error below says what was awaited and for how long)",
			"Check broker health and connectivity. If the cluster is only slow, raise the "+
				"provider's timeout attribute (per request, default \"30s\") or the resource's timeouts "+
				"block (the whole operation). Re-running is safe: every operation of this provider "+
				"converges when repeated.", err))
}

// cancelled reports an operation Terraform stopped (Ctrl-C, or a run
// cancelled by its orchestrator) before it finished. It says nothing about
// cleanup boundaries: a topic operation has none (cleanupCancelled does).
func cancelled(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Operation Cancelled",
		detail(op+", Terraform cancelled the operation before it finished",
			"Whether its last request to Kafka took effect is not known. Run terraform plan: it reads what Kafka holds now "+
				"and shows what is left to do (a topic whose creation went through is reported as existing, with how to import it).", err))
}

// cleanupCancelled is cancelled for a cleanup boundary's operation, which
// the next apply always finishes from what the control topic records.
func cleanupCancelled(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Operation Cancelled",
		detail(op+", Terraform cancelled the operation before it finished",
			"Nothing is left half-done that the next run cannot finish: re-run terraform apply "+
				"and it converges (a cleanup boundary already COMMITTED is resumed).", err))
}

// TLSConfigInvalid reports a TLS setting that cannot be used as written; attr
// names the provider attribute at fault so Terraform points at it.
func TLSConfigInvalid(attr path.Path, problem string, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Invalid TLS Configuration",
		detail("building the TLS configuration from "+attr.String()+", "+problem,
			"Set "+attr.String()+" to PEM text (starting with \"-----BEGIN\") or to the path "+
				"of a readable PEM file; tls.cert_pem and tls.key_pem must be a certificate and its "+
				"own private key.", err))
}

// unknownCA reports that the broker's certificate chain does not lead to a
// trusted authority.
func unknownCA(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Broker Certificate Not Trusted",
		detail(op+", the broker presented a certificate signed by an authority this provider does not trust",
			"The tls.ca_pem does not match the broker's certificate chain. Set tls.ca_pem to the "+
				"CA that signed the broker certificates (without ca_pem the system roots are used). "+
				"Use insecure_skip_verify only to diagnose, never in production.", err))
}

// tlsHostnameMismatch reports a broker certificate issued for other names.
func tlsHostnameMismatch(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Broker Certificate Name Mismatch",
		detail(op+", the broker's certificate does not name the host the provider connected to",
			"Connect using a host name the certificate lists, or set tls.server_name to one of "+
				"the names in the certificate.", err))
}

// clientCertificateRejected reports a broker that refused our TLS client
// certificate (mutual TLS).
func clientCertificateRejected(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Client Certificate Rejected",
		detail(op+", the broker ended the TLS handshake with an alert about the client certificate",
			"The broker requires mutual TLS: set tls.cert_pem and tls.key_pem to a certificate "+
				"signed by a CA in the broker's truststore, and check that it has not expired.", err))
}

// tlsHandshakeFailed reports any other TLS failure, including a broker
// listener that does not speak TLS at all.
func tlsHandshakeFailed(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("TLS Handshake Failed",
		detail(op+", the TLS handshake with the broker failed",
			"Check that the port in bootstrap_servers is a TLS listener (or drop the tls block "+
				"for a plaintext listener) and that the broker accepts a TLS version and cipher "+
				"this provider offers (TLS 1.2 or later).", err))
}

// connectionRejected reports a broker that closed the connection right away,
// which franz-go recognises as a TLS or SASL mismatch.
func connectionRejected(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Kafka Connection Rejected",
		detail(op+", the broker closed the connection immediately",
			"The listener at that port expects a different protocol: compare the provider's tls "+
				"and sasl blocks with the listener's security.protocol (PLAINTEXT, SSL, "+
				"SASL_PLAINTEXT or SASL_SSL).", err))
}

// saslAuthFailed reports credentials the broker refused.
func saslAuthFailed(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Kafka Authentication Failed",
		detail(op+", the broker rejected the SASL authentication",
			"Check sasl.username and sasl.password (or the token or AWS credentials) and that "+
				"sasl.mechanism is the one the user was created for: a SCRAM-SHA-512 user cannot "+
				"log in with SCRAM-SHA-256.", err))
}

// saslMechanismUnsupported reports a mechanism the listener has not enabled.
func saslMechanismUnsupported(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("SASL Mechanism Not Enabled",
		detail(op+", the broker does not offer the configured SASL mechanism on this listener",
			"Set sasl.mechanism to one listed in the listener's sasl.enabled.mechanisms, or "+
				"connect to the listener that enables it.", err))
}

// notAuthorized reports an ACL refusal: we are authenticated but lack the
// permission for this operation.
func notAuthorized(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Kafka Authorization Failed",
		detail(op+", the broker refused the request for lack of permission",
			"Grant the provider's principal the ACL the error names, then re-run. "+requiredPermissionsHint, err))
}

// ProviderConfigIncomplete reports a provider block that cannot produce a
// Kafka client yet; reason says what is missing.
func ProviderConfigIncomplete(op, reason string) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Provider Configuration Incomplete",
		detail(op+", the provider had no usable Kafka client: "+reason,
			"Complete the provider \"flinkagents\" block (see the provider documentation), or "+
				"make the values it depends on known before this step.", nil))
}

// unexpected reports an error nobody anticipated; it asks for a bug report
// because the operator cannot be told what to fix.
func unexpected(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Unexpected Kafka Error",
		detail(op+", an unexpected error occurred",
			"Re-running is safe. If it persists, run with TF_LOG_PROVIDER=DEBUG and report the "+
				"log to the provider maintainers.", err))
}

// FromKafkaErrorVia picks the diagnostic that tells the operator what to
// fix. op completes "While ...", for example "reading the control topic
// \"orders-cleanup\"". conn describes the client's connection (brokers,
// TLS, SASL mechanism and user; "" when unknown): failures whose fix lies
// in how the provider connects name it, so the operator sees which
// listener and which identity failed.
func FromKafkaErrorVia(op string, err error, conn string) diag.Diagnostic {
	if d, ok := fromAuthErrorVia(op, err, conn); ok {
		return d
	}
	f, brokers := classifyKafkaError(err)
	d := f.diagnostic(op, err, brokers)
	if conn != "" && f.aboutConnection() {
		return diag.NewErrorDiagnostic(d.Summary(), d.Detail()+"\n\nConnection: "+conn+".")
	}
	return d
}
