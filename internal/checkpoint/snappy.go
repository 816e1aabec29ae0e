package checkpoint

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/klauspost/compress/snappy"
)

// Snappy framing (xerial SnappyFramedOutputStream, the decorator behind
// execution.checkpointing.snapshot-compression): chunks of
// u8 type, u24 little-endian length, payload.
const (
	chunkCompressed   = 0x00
	chunkUncompressed = 0x01
	chunkStreamID     = 0xFF
	streamIDPayload   = "sNaPpY"
	// maxChunkData is generous: xerial writes 64 KiB blocks; the bound only
	// keeps a corrupt header from allocating.
	maxChunkData = 1 << 20
	// maxElementData bounds one decompressed element; markers are tiny.
	maxElementData = 64 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// deframeSnappy decodes the chunks in b (one element: Flink flushes the
// compressor before recording each offset, so every element starts a chunk).
// Errors are *CorruptError with offsets relative to b.
func deframeSnappy(b []byte) ([]byte, error) {
	var out []byte
	for off := 0; off < len(b); {
		if len(b)-off < 4 {
			return nil, &CorruptError{Offset: int64(off), Reason: "truncated snappy chunk header"}
		}
		typ := b[off]
		n := int(b[off+1]) | int(b[off+2])<<8 | int(b[off+3])<<16
		body := off + 4
		if n > len(b)-body {
			return nil, &CorruptError{Offset: int64(off), Reason: fmt.Sprintf("snappy chunk of %d bytes runs past the element end", n)}
		}
		payload := b[body : body+n]
		switch {
		case typ == chunkStreamID:
			if string(payload) != streamIDPayload {
				return nil, &CorruptError{Offset: int64(off), Reason: "bad snappy stream identifier"}
			}
		case typ == chunkCompressed || typ == chunkUncompressed:
			if n < 4 {
				return nil, &CorruptError{Offset: int64(off), Reason: "snappy chunk without checksum"}
			}
			data := payload[4:]
			if typ == chunkCompressed {
				dl, err := snappy.DecodedLen(data)
				if err != nil || dl > maxChunkData {
					return nil, &CorruptError{Offset: int64(body + 4), Reason: fmt.Sprintf("bad snappy block (decoded length %d): %v", dl, err)}
				}
				if data, err = snappy.Decode(nil, data); err != nil {
					return nil, &CorruptError{Offset: int64(body + 4), Reason: "bad snappy block: " + err.Error()}
				}
			}
			if want := binary.LittleEndian.Uint32(payload); maskedCRC(data) != want {
				return nil, &CorruptError{Offset: int64(body), Reason: "snappy chunk checksum mismatch"}
			}
			if len(out)+len(data) > maxElementData {
				return nil, &CorruptError{Offset: int64(off), Reason: fmt.Sprintf("element decompresses to more than %d bytes", maxElementData)}
			}
			out = append(out, data...)
		case typ >= 0x80:
			// Skippable chunk (padding); the framing format says ignore it.
		default:
			return nil, &CorruptError{Offset: int64(off), Reason: fmt.Sprintf("reserved unskippable snappy chunk type %#02x", typ)}
		}
		off = body + n
	}
	return out, nil
}

// maskedCRC is the framing format's checksum: CRC-32C, rotated and offset.
func maskedCRC(b []byte) uint32 {
	c := crc32.Checksum(b, castagnoli)
	return (c>>15 | c<<17) + 0xa282ead8
}
