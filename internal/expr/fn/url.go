package fn

import (
	"net/url"
	"strings"

	"github.com/sluicesql/sluice/internal/types"
)

// URL functions: URL_ENCODE and URL_DECODE as java.net.URLEncoder and
// URLDecoder with UTF-8 (UrlEncodeFunction, UrlDecodeFunction), PARSE_URL
// as SqlFunctionUtils.parseUrl over java.net.URL.

func init() {
	for name, f := range urlFuncs {
		register(f.bindWith(name, len(f.params)), name)
	}
	register(bindParseURL, "PARSE_URL")
}

var urlFuncs = map[string]strFunc{
	// URL_ENCODE: "Translates a string into
	// 'application/x-www-form-urlencoded' format using the UTF-8 encoding
	// scheme": letters, digits and ".-*_" stay, a space becomes '+', every
	// other byte %XX (upper-case hex). Its result is nullable whatever its
	// argument (BuiltInFunctionDefinitions.URL_ENCODE:
	// explicit(STRING().nullable())).
	"URL_ENCODE": {"(STRING)", []typePred{str}, types.StringType, true, func(v []types.Value) (types.Value, error) {
		return strVal(formURLEncode(v[0].S))
	}},
	// URL_DECODE: "Decodes a given string in
	// 'application/x-www-form-urlencoded' format using the UTF-8 encoding
	// scheme. If ... there is an issue with the decoding process (such as
	// encountering an illegal escape pattern) ... the function returns
	// NULL." Bytes that are not UTF-8 decode to U+FFFD, as Java's decoder
	// replaces them.
	"URL_DECODE": {"(STRING)", []typePred{str}, types.StringType, true, func(v []types.Value) (types.Value, error) {
		s, err := url.QueryUnescape(v[0].S)
		if err != nil {
			return types.NullValue, nil
		}
		return strVal(string([]rune(s)))
	}},
}

func formURLEncode(s string) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			c == '.', c == '-', c == '*', c == '_':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
		}
	}
	return b.String()
}

// javaURL holds the parts of a URL as java.net.URL splits it.
type javaURL struct {
	protocol, authority, userInfo, host, path, query, ref string
	hasAuthority, hasQuery, hasRef, hasUserInfo           bool
}

// javaURLProtocols are the protocols java.net.URL has handlers for by
// default that take this form; any other gives MalformedURLException.
var javaURLProtocols = map[string]bool{"http": true, "https": true, "ftp": true, "file": true}

// parseJavaURL splits s as new URL(s) does: protocol ':' ['//' authority]
// path ['?' query] ['#' ref].
func parseJavaURL(s string) (javaURL, bool) {
	var u javaURL
	s = strings.TrimSpace(s)
	colon := strings.IndexByte(s, ':')
	if colon <= 0 {
		return u, false
	}
	u.protocol = strings.ToLower(s[:colon])
	if !javaURLProtocols[u.protocol] {
		return u, false
	}
	rest := s[colon+1:]
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		u.ref, u.hasRef, rest = rest[i+1:], true, rest[:i]
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		u.query, u.hasQuery, rest = rest[i+1:], true, rest[:i]
	}
	if after, ok := strings.CutPrefix(rest, "//"); ok {
		end := strings.IndexByte(after, '/')
		if end < 0 {
			end = len(after)
		}
		u.authority, u.hasAuthority, rest = after[:end], true, after[end:]
		hostPort := u.authority
		if at := strings.LastIndexByte(hostPort, '@'); at >= 0 {
			u.userInfo, u.hasUserInfo, hostPort = hostPort[:at], true, hostPort[at+1:]
		}
		u.host = hostPort
		if strings.HasPrefix(hostPort, "[") {
			if end := strings.IndexByte(hostPort, ']'); end >= 0 {
				u.host = hostPort[:end+1]
			}
		} else if i := strings.LastIndexByte(hostPort, ':'); i >= 0 {
			u.host = hostPort[:i]
		}
	}
	u.path = rest
	return u, true
}

// PARSE_URL(url, part[, key]): "Returns the specified part from the URL.
// Valid values for string2 include 'HOST', 'PATH', 'QUERY', 'REF',
// 'PROTOCOL', 'AUTHORITY', 'FILE', and 'USERINFO'. ... E.g.,
// parse_url('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'HOST'),
// returns 'facebook.com'. ... parse_url(..., 'QUERY', 'k1') returns 'v1'."
// A URL Java cannot parse, a part not among these (they are upper case), a
// missing part, or a key not in the query give NULL.
func bindParseURL(args []Arg) (types.Type, Eval, error) {
	if !match(args, str, str) && !match(args, str, str, str) {
		return types.Type{}, nil, sigError("PARSE_URL", "(STRING url, STRING part [, STRING key])", args)
	}
	return types.StringType, strict(func(_ *Context, v []types.Value) (types.Value, error) {
		u, ok := parseJavaURL(v[0].S)
		if !ok {
			return types.NullValue, nil
		}
		if len(v) == 3 {
			if v[1].S != "QUERY" || !u.hasQuery {
				return types.NullValue, nil
			}
			// the first "key=value" at the start or after an '&'
			for _, kv := range strings.Split(u.query, "&") {
				if value, ok := strings.CutPrefix(kv, v[2].S+"="); ok {
					return strVal(value)
				}
			}
			return types.NullValue, nil
		}
		part, present := "", true
		switch v[1].S {
		case "HOST":
			part = u.host
		case "PATH":
			part = u.path
		case "QUERY":
			part, present = u.query, u.hasQuery
		case "REF":
			part, present = u.ref, u.hasRef
		case "PROTOCOL":
			part = u.protocol
		case "FILE":
			part = u.path
			if u.hasQuery {
				part += "?" + u.query
			}
		case "AUTHORITY":
			part, present = u.authority, u.hasAuthority
		case "USERINFO":
			part, present = u.userInfo, u.hasUserInfo
		default:
			present = false
		}
		if !present {
			return types.NullValue, nil
		}
		return strVal(part)
	}), nil
}
