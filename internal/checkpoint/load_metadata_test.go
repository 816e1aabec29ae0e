package checkpoint

import "context"

// loadMetadata resolves path and parses its _metadata, as
// ReadRecoveryMarkers does before reading the markers: for the tests that
// check what the parser makes of whole checkpoints.
func loadMetadata(ctx context.Context, st Storage, path string) (location, *Metadata, error) {
	loc, err := resolve(ctx, st, path)
	if err != nil {
		return location{}, nil, err
	}
	md, err := loadMetadataAt(ctx, st, loc)
	return loc, md, err
}
