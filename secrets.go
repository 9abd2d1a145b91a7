package sluice

import (
	"maps"
	"strings"
)

// HiddenContent replaces the value of a sensitive setting or table option
// wherever Sluice shows one: Flink's GlobalConfiguration.HIDDEN_CONTENT.
const HiddenContent = "******"

// sensitiveKeys are the parts of a key that make its value a secret,
// Flink's GlobalConfiguration.SENSITIVE_KEYS (Flink 1.20): a key holding
// any of them, ignoring case, is sensitive (GlobalConfiguration.isSensitive),
// so "properties.sasl.jaas.config", "basic-auth.user-info",
// "properties.ssl.truststore.password" and "s3.secret-key" are.
var sensitiveKeys = []string{
	"password", "secret", "fs.azure.account.key", "apikey", "auth-params",
	"service-key", "token", "basic-auth", "jaas.config", "http-headers",
}

// IsSensitive reports whether the value of a setting or table option with
// this key is a secret.
func IsSensitive(key string) bool {
	lower := strings.ToLower(key)
	for _, s := range sensitiveKeys {
		if strings.Contains(lower, s) {
			return true
		}
	}
	return false
}

// MaskValue returns value, or HiddenContent when key is sensitive.
func MaskValue(key, value string) string {
	if IsSensitive(key) {
		return HiddenContent
	}
	return value
}

// MaskSettings returns a copy of settings with the values of sensitive
// keys hidden, as Flink's ConfigurationUtils.hideSensitiveValues does.
func MaskSettings(settings map[string]string) map[string]string {
	out := maps.Clone(settings)
	for k, v := range out {
		out[k] = MaskValue(k, v)
	}
	return out
}
