package cleanupplan

import "unicode"

// isJavaBlank is Java's String.isBlank: empty, or only code points for which
// Character.isWhitespace holds. That differs from Go's unicode.IsSpace: Java
// excludes the no-break spaces U+00A0, U+2007, U+202F and U+0085, and
// includes the separators U+001C..U+001F. The Java tool validates with
// isBlank, so a plan it accepts must be accepted here, and the reverse.
func isJavaBlank(s string) bool {
	for _, r := range s {
		if !isJavaWhitespace(r) {
			return false
		}
	}
	return true
}

func isJavaWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1C, 0x1D, 0x1E, 0x1F:
		return true
	case 0x00A0, 0x2007, 0x202F:
		return false
	}
	return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
}
