package datasources

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// The optional "timeouts { read }" block of data sources that read
// checkpoints: a deadline for the whole read. The provider's timeout bounds
// each storage request on its own; a read is many requests (a listing per
// recovery point, a ranged read per subtask), and only this block bounds
// their sum. Terraform's own cancellation (Ctrl-C) needs neither.

func readTimeoutBlock(ctx context.Context) schema.Block {
	b := timeouts.BlockWithOpts(ctx, timeouts.Opts{
		ReadDescription: "Deadline for the whole read, every checkpoint storage request of it together, as a Go duration such as " +
			"`2m`. Default: none (absent or `0s`); each request is still bounded by the provider's `timeout`.",
	}).(schema.SingleNestedBlock)
	b.MarkdownDescription = "Bound on the whole checkpoint read; see the [checkpoint storage guide](../guides/checkpoint-storage#timeouts)."
	return b
}

// withReadDeadline applies timeouts.read to ctx. The returned cancel must be
// called when the read ends.
func withReadDeadline(ctx context.Context, t timeouts.Value) (context.Context, context.CancelFunc, diag.Diagnostics) {
	d, diags := t.Read(ctx, 0)
	if diags.HasError() || d <= 0 {
		return ctx, func() {}, diags
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	return ctx, cancel, diags
}
