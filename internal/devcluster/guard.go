package devcluster

import (
	"encoding/json"
	"net/http"

	"github.com/sluicesql/sluice/internal/httpguard"
)

// registryTypes are the media types Confluent's Schema Registry takes in
// a request body.
var registryTypes = []string{"application/vnd.schemaregistry.v1+json", "application/vnd.schemaregistry+json", "application/json"}

// guard refuses cross-site requests to the registry (httpguard), answered
// in the registry's error shape, {"error_code": STATUS, "message": ...}.
func guard(next http.Handler) http.Handler {
	g := httpguard.New(registryTypes...)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if refusal := g.Check(r); refusal != nil {
			body, _ := json.Marshal(map[string]any{"error_code": refusal.Status, "message": refusal.Msg})
			w.Header().Set("Content-Type", "application/vnd.schemaregistry.v1+json")
			w.WriteHeader(refusal.Status)
			_, _ = w.Write(body)
			return
		}
		next.ServeHTTP(w, r)
	})
}
