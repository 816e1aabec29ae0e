package cleanupplan

// isJavaTrimEmpty is Java's value.trim().isEmpty(), the blank rule of the
// runtime's requireText: a string is blank when every UTF-16 char is at or
// below U+0020, controls such as U+0001 included. It is not String.isBlank:
// U+00A0, U+2003 and the other Unicode spaces are text to the runtime. The
// two directions both matter. A plan whose source is "\u0001" would be
// written to the control topic and then fail every restore; a plan whose
// topic is U+2003 is one the runtime accepts, so refusing it breaks interop.
//
// Every char at or below U+0020 is a single byte in UTF-8, and every byte of
// a longer sequence (or of invalid UTF-8, which Java decodes to U+FFFD) is
// above it, so a byte scan answers for the UTF-16 chars.
func isJavaTrimEmpty(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] > ' ' {
			return false
		}
	}
	return true
}
