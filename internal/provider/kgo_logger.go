package provider

import (
	"context"
	"fmt"

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
}

// kgoLogger bridges kgo.Logger into tflog. The context it logs with is the
// one of the Terraform request that first needed Kafka (franz-go's Log takes
// none), so request fields such as tf_req_id name that first request.
type kgoLogger struct {
	ctx context.Context
}

// newKgoLogger masks secrets wherever they could surface: in values of
// fields named like secrets and, as substrings, in every field value and in
// the message (an error text can quote a credential).
func newKgoLogger(ctx context.Context, secrets []string) kgo.Logger {
	ctx = tflog.NewSubsystem(ctx, kafkaSubsystem, tflog.WithLevelFromEnv(kafkaSubsystemLevel))
	ctx = tflog.SubsystemMaskFieldValuesWithFieldKeys(ctx, kafkaSubsystem, sensitiveLogKeys...)
	if secrets = nonEmpty(secrets); len(secrets) > 0 {
		ctx = tflog.SubsystemMaskAllFieldValuesStrings(ctx, kafkaSubsystem, secrets...)
		ctx = tflog.SubsystemMaskMessageStrings(ctx, kafkaSubsystem, secrets...)
	}
	return &kgoLogger{ctx: ctx}
}

// nonEmpty drops empty strings: masking "" would mask between every
// character.
func nonEmpty(values []string) []string {
	var kept []string
	for _, v := range values {
		if v != "" {
			kept = append(kept, v)
		}
	}
	return kept
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
	switch level {
	case kgo.LogLevelError:
		tflog.SubsystemError(l.ctx, kafkaSubsystem, msg, fields)
	case kgo.LogLevelWarn:
		tflog.SubsystemWarn(l.ctx, kafkaSubsystem, msg, fields)
	case kgo.LogLevelInfo:
		tflog.SubsystemDebug(l.ctx, kafkaSubsystem, msg, fields)
	default:
		tflog.SubsystemTrace(l.ctx, kafkaSubsystem, msg, fields)
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
