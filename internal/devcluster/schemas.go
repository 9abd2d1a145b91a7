package devcluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sr"
	"github.com/twmb/franz-go/pkg/sr/srfake"
)

// schemasTopic is where the registry keeps its schemas, as a Confluent
// Schema Registry does (its kafkastore.topic default), so that a cluster
// with a DataDir keeps them across restarts with the topics they describe.
const schemasTopic = "_schemas"

// schemaRecord is one registered schema version as stored in schemasTopic.
type schemaRecord struct {
	Subject    string               `json:"subject"`
	Version    int                  `json:"version"`
	ID         int                  `json:"id"`
	Schema     string               `json:"schema"`
	SchemaType sr.SchemaType        `json:"schemaType"`
	References []sr.SchemaReference `json:"references,omitempty"`
}

// schemaStore persists a registry's registrations in schemasTopic.
type schemaStore struct {
	client   *kgo.Client
	registry *srfake.Registry
	mu       sync.Mutex
	stored   map[string]bool // subject/version already written
}

// openSchemaStore reads the schemas stored in the broker into registry and
// returns the store that records new ones.
func openSchemaStore(brokers string, registry *srfake.Registry) (*schemaStore, error) {
	client, err := kgo.NewClient(kgo.SeedBrokers(brokers))
	if err != nil {
		return nil, err
	}
	s := &schemaStore{client: client, registry: registry, stored: map[string]bool{}}
	if err := s.load(); err != nil {
		client.Close()
		return nil, fmt.Errorf("devcluster: reading the stored schemas: %w", err)
	}
	return s, nil
}

// load replays schemasTopic into the registry.
func (s *schemaStore) load() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	adm := kadm.NewClient(s.client)
	if _, err := adm.CreateTopics(ctx, 1, -1, map[string]*string{"cleanup.policy": kadm.StringPtr("compact")}, schemasTopic); err != nil {
		return err
	}
	ends, err := adm.ListEndOffsets(ctx, schemasTopic)
	if err != nil {
		return err
	}
	end, _ := ends.Lookup(schemasTopic, 0)
	if end.Offset <= 0 {
		return nil
	}
	s.client.AddConsumePartitions(map[string]map[int32]kgo.Offset{schemasTopic: {0: kgo.NewOffset().AtStart()}})
	defer s.client.RemoveConsumePartitions(map[string][]int32{schemasTopic: {0}})
	for read := int64(0); read < end.Offset; {
		fetches := s.client.PollFetches(ctx)
		if err := fetches.Err(); err != nil {
			return err
		}
		for _, r := range fetches.Records() {
			read = r.Offset + 1
			var rec schemaRecord
			if err := json.Unmarshal(r.Value, &rec); err != nil {
				return fmt.Errorf("record at offset %d: %w", r.Offset, err)
			}
			s.registry.SeedSchema(rec.Subject, rec.Version, rec.ID, sr.Schema{Schema: rec.Schema, Type: rec.SchemaType, References: rec.References})
			s.stored[storeKey(rec.Subject, rec.Version)] = true
		}
	}
	return nil
}

func storeKey(subject string, version int) string { return fmt.Sprintf("%s/%d", subject, version) }

// record writes the versions of subject not stored yet.
func (s *schemaStore) record(subject string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for v := 1; ; v++ {
		ss, ok := s.registry.GetSchema(subject, v)
		if !ok {
			return nil
		}
		if s.stored[storeKey(subject, v)] {
			continue
		}
		value, err := json.Marshal(schemaRecord{Subject: subject, Version: v, ID: ss.ID, Schema: ss.Schema.Schema, SchemaType: ss.Type, References: ss.References})
		if err != nil {
			return err
		}
		rec := &kgo.Record{Topic: schemasTopic, Key: []byte(storeKey(subject, v)), Value: value}
		if err := s.client.ProduceSync(context.Background(), rec).FirstErr(); err != nil {
			return err
		}
		s.stored[storeKey(subject, v)] = true
	}
}

// handler records every successful registration before answering it.
func (s *schemaStore) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		subject, isRegister := registeredSubject(req)
		if !isRegister {
			next.ServeHTTP(w, req)
			return
		}
		rec := &responseRecorder{header: http.Header{}, status: http.StatusOK}
		next.ServeHTTP(rec, req)
		if rec.status == http.StatusOK {
			if err := s.record(subject); err != nil {
				http.Error(w, fmt.Sprintf(`{"error_code":50001,"message":"storing the schema: %s"}`, err), http.StatusInternalServerError)
				return
			}
		}
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		_, _ = w.Write(rec.body.Bytes())
	})
}

// registeredSubject recognizes POST /subjects/{subject}/versions.
func registeredSubject(req *http.Request) (string, bool) {
	if req.Method != http.MethodPost {
		return "", false
	}
	rest, ok := strings.CutPrefix(req.URL.Path, "/subjects/")
	if !ok {
		return "", false
	}
	subject, ok := strings.CutSuffix(rest, "/versions")
	return subject, ok && subject != ""
}

// responseRecorder buffers a response so that it is sent only once the
// registration is stored.
type responseRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *responseRecorder) Header() http.Header         { return r.header }
func (r *responseRecorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *responseRecorder) WriteHeader(status int)      { r.status = status }

func (s *schemaStore) close() { s.client.Close() }
