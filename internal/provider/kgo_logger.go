package provider

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/twmb/franz-go/pkg/kgo"
)

// kafkaSubsystem names franz-go's logs in the provider log. Its level follows
// TF_LOG_PROVIDER_FLINKAGENTS_KAFKA, then the provider's level.
const (
	kafkaSubsystem      = "kafka"
	kafkaSubsystemLevel = "TF_LOG_PROVIDER_FLINKAGENTS_KAFKA"
)

// sensitiveLogKeys are field names whose values are always masked. franz-go
// logs none of them today; the mask keeps it that way if a hook or a future
// version does.
var sensitiveLogKeys = []string{
	"password", "pass", "token", "secret", "secret_key", "session_token", "sasl_password", "key_pem",
	"client_secret", "access_token", "secret_access_key", "key_passphrase", "passphrase",
}

// secretSet holds the values the logger masks. It grows while the provider
// runs: OAuth tokens and AWS session credentials join it when they are
// fetched, before anything uses them.
type secretSet struct {
	mu     sync.RWMutex
	values []string
}

func newSecretSet(values ...string) *secretSet {
	s := &secretSet{}
	s.add(values...)
	return s
}

// add keeps each new non-empty value; masking "" would mask between every
// character.
func (s *secretSet) add(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range values {
		if v != "" && !slices.Contains(s.values, v) {
			s.values = append(s.values, v)
		}
	}
}

func (s *secretSet) list() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.values)
}

// kgoLogger bridges kgo.Logger into tflog. The context it logs with is the
// one of the Terraform request that first needed Kafka (franz-go's Log takes
// none), so request fields such as tf_req_id name that first request.
type kgoLogger struct {
	ctx     context.Context
	secrets *secretSet
}

// newKgoLogger masks secrets wherever they could surface: in values of
// fields named like secrets and, as substrings, in every field value and in
// the message (an error text can quote a credential).
func newKgoLogger(ctx context.Context, secrets *secretSet) *kgoLogger {
	ctx = tflog.NewSubsystem(ctx, kafkaSubsystem, tflog.WithLevelFromEnv(kafkaSubsystemLevel))
	ctx = tflog.SubsystemMaskFieldValuesWithFieldKeys(ctx, kafkaSubsystem, sensitiveLogKeys...)
	return &kgoLogger{ctx: ctx, secrets: secrets}
}

// masked is the logging context with the secrets known now.
func (l *kgoLogger) masked() context.Context {
	secrets := l.secrets.list()
	if len(secrets) == 0 {
		return l.ctx
	}
	ctx := tflog.SubsystemMaskAllFieldValuesStrings(l.ctx, kafkaSubsystem, secrets...)
	return tflog.SubsystemMaskMessageStrings(ctx, kafkaSubsystem, secrets...)
}

// Level tells franz-go how much to produce, so it skips building messages
// tflog would drop. franz-go's Info is per-connection chatter and its Debug
// per-request detail; for a Terraform user those are debug and trace.
func (l *kgoLogger) Level() kgo.LogLevel {
	switch {
	case tflog.SubsystemIsTrace(l.ctx, kafkaSubsystem):
		return kgo.LogLevelDebug
	case tflog.SubsystemIsDebug(l.ctx, kafkaSubsystem):
		return kgo.LogLevelInfo
	case tflog.SubsystemIsWarn(l.ctx, kafkaSubsystem):
		return kgo.LogLevelWarn
	case tflog.SubsystemIsError(l.ctx, kafkaSubsystem):
		return kgo.LogLevelError
	default:
		return kgo.LogLevelNone
	}
}

func (l *kgoLogger) Log(level kgo.LogLevel, msg string, keyvals ...any) {
	fields := logFields(keyvals)
	ctx := l.masked()
	switch level {
	case kgo.LogLevelError:
		tflog.SubsystemError(ctx, kafkaSubsystem, msg, fields)
	case kgo.LogLevelWarn:
		tflog.SubsystemWarn(ctx, kafkaSubsystem, msg, fields)
	case kgo.LogLevelInfo:
		tflog.SubsystemDebug(ctx, kafkaSubsystem, msg, fields)
	default:
		tflog.SubsystemTrace(ctx, kafkaSubsystem, msg, fields)
	}
}

// logFields turns franz-go's alternating keys and values into tflog fields.
// Errors and Stringers become strings: tflog masks only string values, and
// an error would otherwise be written as {}.
func logFields(keyvals []any) map[string]any {
	fields := make(map[string]any, len(keyvals)/2)
	for i := 0; i < len(keyvals); i += 2 {
		key := fmt.Sprint(keyvals[i])
		if i+1 == len(keyvals) {
			fields[key] = "(missing value)"
			break
		}
		switch v := keyvals[i+1].(type) {
		case error:
			fields[key] = v.Error()
		case fmt.Stringer:
			fields[key] = v.String()
		default:
			fields[key] = v
		}
	}
	return fields
}
