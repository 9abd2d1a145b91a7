package types

import "unicode/utf8"

// Strings as the Java side of Flink sees and writes them.

// JavaString returns b as Java's new String(b, UTF_8) sees it: valid UTF-8
// is kept, and each maximal ill-formed subsequence becomes U+FFFD.
func JavaString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			out = append(out, b[i:i+n]...)
			i += n
			continue
		}
		out = utf8.AppendRune(out, utf8.RuneError)
		i += illFormedLen(b[i:])
	}
	return string(out)
}

// illFormedLen is the length of the maximal ill-formed subsequence at the
// start of b (Unicode's "maximal subpart" rule, which Java's decoder follows).
func illFormedLen(b []byte) int {
	c := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xbf)
	switch {
	case c >= 0xc2 && c <= 0xdf:
		need = 1
	case c == 0xe0:
		need, lo = 2, 0xa0
	case c >= 0xe1 && c <= 0xef:
		need = 2
		if c == 0xed {
			hi = 0x9f
		}
	case c == 0xf0:
		need, lo = 3, 0x90
	case c >= 0xf1 && c <= 0xf3:
		need = 3
	case c == 0xf4:
		need, hi = 3, 0x8f
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xbf
	}
	return n
}

const hexDigits = "0123456789ABCDEF"

// AppendJacksonString appends s quoted and escaped as Jackson writes
// strings: quotes, backslashes and control characters escaped, the rest as
// is.
// Bytes that are not valid UTF-8 become U+FFFD, as they would in a Java
// String.
func AppendJacksonString(dst []byte, s string) []byte {
	if !utf8.ValidString(s) {
		s = JavaString([]byte(s))
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\r':
			dst = append(dst, '\\', 'r')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
