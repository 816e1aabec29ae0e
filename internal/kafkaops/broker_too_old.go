package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
)

// kgoBrokerTooOld is franz-go's (unexported) error for a request the
// broker's ApiVersions answer does not list, or lists only in versions the
// client cannot speak.
const kgoBrokerTooOld = "broker is too old"

// IsBrokerTooOld reports whether err says a broker lacks a request an
// operation needs: franz-go's own check against the broker's ApiVersions,
// or the broker's UNSUPPORTED_VERSION.
func IsBrokerTooOld(err error) bool {
	return err != nil && (errors.Is(err, kerr.UnsupportedVersion) || strings.Contains(err.Error(), kgoBrokerTooOld))
}

// BrokerTooOldError is a too-old error with the Apache Kafka release each
// broker's ApiVersions answer matches, so the operator reads a version, not
// a protocol message.
type BrokerTooOldError struct {
	Releases []BrokerRelease // ascending by broker
	Err      error
}

// BrokerRelease is the release a broker's request versions match: "v2.3",
// "at least v4.4", "between v2.7 and v2.8" (franz-go's kversion guess; the
// ApiVersions answer carries no software version, so the patch level is
// unknown), or why it could not be asked.
type BrokerRelease struct {
	Broker  int32
	Release string
}

func (e *BrokerTooOldError) Error() string {
	parts := make([]string, len(e.Releases))
	for i, r := range e.Releases {
		parts[i] = fmt.Sprintf("broker %d: %s", r.Broker, r.Release)
	}
	return fmt.Sprintf("%v (brokers' Apache Kafka releases, from their supported request versions: %s)", e.Err, strings.Join(parts, "; "))
}

func (e *BrokerTooOldError) Unwrap() error { return e.Err }

// ExplainBrokerTooOld returns err with the brokers' releases when it is a
// too-old error, err unchanged otherwise or when they cannot be asked (the
// error is reported either way; this only adds to it).
func (c *Client) ExplainBrokerTooOld(ctx context.Context, err error) error {
	if !IsBrokerTooOld(err) || errors.As(err, new(*BrokerTooOldError)) {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	versions, verr := c.admin.ApiVersions(ctx)
	if verr != nil || len(versions) == 0 {
		return err
	}
	tooOld := &BrokerTooOldError{Err: err}
	for _, v := range versions.Sorted() {
		release := v.VersionGuess()
		if v.Err != nil {
			release = "not asked: " + v.Err.Error()
		}
		tooOld.Releases = append(tooOld.Releases, BrokerRelease{Broker: v.NodeID, Release: release})
	}
	return tooOld
}
