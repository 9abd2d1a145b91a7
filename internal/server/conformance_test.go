package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/sluicesql/sluice/internal/server"
	"github.com/sluicesql/sluice/internal/server/servertest"
)

// spec is the part of an OpenAPI document the conformance test reads.
type spec struct {
	Paths      map[string]map[string]*specOperation `yaml:"paths"`
	Components struct {
		Schemas map[string]*schema `yaml:"schemas"`
	} `yaml:"components"`
}

type specOperation struct {
	OperationID string `yaml:"operationId"`
	Responses   map[string]struct {
		Content map[string]struct {
			Schema *schema `yaml:"schema"`
		} `yaml:"content"`
	} `yaml:"responses"`
}

// schema is an OpenAPI schema object, as far as Flink's specifications use
// it.
type schema struct {
	Ref                  string             `yaml:"$ref"`
	Type                 string             `yaml:"type"`
	Format               string             `yaml:"format"`
	Pattern              string             `yaml:"pattern"`
	Enum                 []string           `yaml:"enum"`
	Properties           map[string]*schema `yaml:"properties"`
	AdditionalProperties *schema            `yaml:"additionalProperties"`
	Items                *schema            `yaml:"items"`
	// Required and Nullable are used by the serializer schemas below only
	// (Flink's generated ones have neither).
	Required []string `yaml:"required"`
	Nullable bool     `yaml:"nullable"`
}

// serializerSchemas are the bodies whose JSON Flink writes with serializers
// of its own rather than as the generated specification describes them
// (its generator reads the Java classes' getters). Each is checked against
// the schema here instead; references into #/components/schemas are to
// the specification's (its enums and patterns). Sources, in
// flink-table/flink-sql-gateway, package
// org.apache.flink.table.gateway.rest.serde:
//
//   - FetchResultResponseBodySerializer (Flink 1.17+): "resultType",
//     "isQueryResult" (the specification's queryResult, named after the
//     getter isQueryResult), "jobID", "resultKind", "results",
//     "nextResultUri". v1's specification (Flink 1.16) describes a
//     ResultSet there; since 1.17 every version's fetch writes this body.
//   - ResultInfoSerializer: "columns" (the specification's columnInfos;
//     fieldGetters and resultSchema are not written), "rowFormat", and
//     "data", rows as {"kind": RowKind, "fields": [...]} (not RowData's
//     arity and rowKind).
//   - ColumnInfo: "name", "logicalType", "comment" (null when there is
//     none).
//   - LogicalTypeJsonSerializer (flink-table-planner's serde package):
//     "type" (the specification's typeRoot), "nullable" and the root's
//     parameters.
var serializerSchemas = `
FetchResultsResponseBody:
  type: object
  required: [resultType]
  properties:
    resultType: {$ref: "#/components/schemas/ResultType"}
    isQueryResult: {type: boolean}
    jobID: {$ref: "#/components/schemas/JobID"}
    resultKind: {$ref: "#/components/schemas/ResultKind"}
    results: {$ref: "#/serializer/ResultInfo"}
    nextResultUri: {type: string}
ResultInfo:
  type: object
  required: [columns, rowFormat, data]
  properties:
    columns:
      type: array
      items: {$ref: "#/serializer/ColumnInfo"}
    rowFormat: {$ref: "#/components/schemas/RowFormat"}
    data:
      type: array
      items: {$ref: "#/serializer/RowData"}
RowData:
  type: object
  required: [kind, fields]
  properties:
    kind: {$ref: "#/components/schemas/RowKind"}
    fields:
      type: array
      items: {type: any}
ColumnInfo:
  type: object
  required: [name, logicalType, comment]
  properties:
    name: {type: string}
    logicalType: {$ref: "#/serializer/LogicalType"}
    comment: {type: string, nullable: true}
LogicalType:
  type: object
  required: [type]
  properties:
    type: {$ref: "#/components/schemas/LogicalTypeRoot"}
    nullable: {type: boolean}
    length: {type: integer}
    precision: {type: integer}
    scale: {type: integer}
    fractionalPrecision: {type: integer}
    resolution: {type: string}
`

// refusedEndpoints are the operations of the specification Sluice refuses,
// with what the refusal says (501, Flink's error shape); docs/server.md
// lists them.
var refusedEndpoints = map[string]string{
	"POST /sessions/{session_handle}/materialized-tables/{identifier}/refresh": "Sluice has no materialized tables",
	"POST /sessions/{session_handle}/scripts":                                  "deploying a script in application mode",
}

// specVersions are the specification files, by the version they define.
var specVersions = []int{1, 2, 3, 4}

// loadSpecs reads Flink's specifications from testdata/flink.
func loadSpecs(t *testing.T) (map[int]*spec, map[string]*schema) {
	t.Helper()
	specs := map[int]*spec{}
	for _, v := range specVersions {
		data, err := os.ReadFile(filepath.Join("testdata", "flink", fmt.Sprintf("rest_v%d_sql_gateway.yml", v)))
		if err != nil {
			t.Fatal(err)
		}
		var s spec
		if err := yaml.Unmarshal(data, &s); err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		if len(s.Paths) == 0 || len(s.Components.Schemas) == 0 {
			t.Fatalf("v%d: the specification has no paths or schemas", v)
		}
		specs[v] = &s
	}
	var overrides map[string]*schema
	if err := yaml.Unmarshal([]byte(serializerSchemas), &overrides); err != nil {
		t.Fatal(err)
	}
	return specs, overrides
}

// validator checks JSON values against one version's schemas.
type validator struct {
	spec      *spec
	latest    *spec // for enums an older specification does not define
	overrides map[string]*schema
}

// resolve follows a reference: the serializer's schema of a body Flink
// writes itself, else the specification's (the latest one's when this
// version's lacks it: v1 has no ResultKind or RowFormat).
func (v *validator) resolve(s *schema) (*schema, string) {
	for s.Ref != "" {
		name := s.Ref[strings.LastIndex(s.Ref, "/")+1:]
		if o, ok := v.overrides[name]; ok {
			return o, name
		}
		next, ok := v.spec.Components.Schemas[name]
		if !ok {
			next, ok = v.latest.Components.Schemas[name]
		}
		if !ok {
			return nil, name
		}
		s = next
	}
	return s, ""
}

// check validates value at path against s, field by field, and returns
// what does not fit.
func (v *validator) check(path string, value any, s *schema) []string {
	s, name := v.resolve(s)
	if s == nil {
		return []string{fmt.Sprintf("%s: no schema %s", path, name)}
	}
	if s.Type == "any" {
		return nil
	}
	if value == nil {
		if s.Nullable {
			return nil
		}
		return []string{path + ": null"}
	}
	bad := func(want string) []string { return []string{fmt.Sprintf("%s: %v is not %s", path, value, want)} }
	switch s.Type {
	case "object", "":
		obj, ok := value.(map[string]any)
		if !ok {
			return bad("an object")
		}
		var out []string
		for _, k := range s.Required {
			if _, ok := obj[k]; !ok {
				out = append(out, fmt.Sprintf("%s: no field %q", path, k))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			switch p, ok := s.Properties[k]; {
			case ok:
				out = append(out, v.check(path+"."+k, obj[k], p)...)
			case s.AdditionalProperties != nil:
				out = append(out, v.check(path+"."+k, obj[k], s.AdditionalProperties)...)
			default:
				out = append(out, fmt.Sprintf("%s: field %q is not in the schema", path, k))
			}
		}
		return out
	case "array":
		arr, ok := value.([]any)
		if !ok {
			return bad("an array")
		}
		var out []string
		for i, e := range arr {
			out = append(out, v.check(fmt.Sprintf("%s[%d]", path, i), e, s.Items)...)
		}
		return out
	case "string":
		str, ok := value.(string)
		if !ok {
			return bad("a string")
		}
		if len(s.Enum) > 0 && !slices.Contains(s.Enum, str) {
			return bad("one of " + strings.Join(s.Enum, ", "))
		}
		if s.Pattern != "" && !regexp.MustCompile("^(?:"+s.Pattern+")$").MatchString(str) {
			return bad("of the pattern " + s.Pattern)
		}
		if s.Format == "uuid" && !uuid.MatchString(str) {
			return bad("a UUID")
		}
		return nil
	case "integer":
		f, ok := value.(float64)
		if !ok || f != math.Trunc(f) {
			return bad("an integer")
		}
		if s.Format == "int32" && (f < math.MinInt32 || f > math.MaxInt32) {
			return bad("an int32")
		}
		return nil
	case "boolean":
		if _, ok := value.(bool); !ok {
			return bad("a boolean")
		}
		return nil
	}
	return []string{fmt.Sprintf("%s: the schema's type %q is unknown to the test", path, s.Type)}
}

// checkResponse validates a response against the specification's
// description of the operation's 200 answer: its JSON schema, or, for an
// operation whose answer has no content, an empty object.
func (v *validator) checkResponse(t *testing.T, method, specPath string, r *servertest.Response) {
	t.Helper()
	op := v.spec.Paths[specPath][strings.ToLower(method)]
	if op == nil {
		t.Fatalf("%s %s is not in the specification", method, specPath)
	}
	if r.Status != 200 {
		t.Errorf("%s %s (%s): %d %s", method, specPath, op.OperationID, r.Status, r.Body)
		return
	}
	content, ok := op.Responses["200"].Content["application/json"]
	if !ok {
		if len(r.JSON) != 0 {
			t.Errorf("%s %s (%s): the specification gives no content, the server %s", method, specPath, op.OperationID, r.Body)
		}
		return
	}
	for _, p := range v.check(op.OperationID, r.JSON, content.Schema) {
		t.Errorf("%s %s: %s (body %s)", method, specPath, p, r.Body)
	}
}

// TestConformanceRoutes: every operation of Flink's specifications, v1 to
// v4, is served under its version (or refused by name, as listed); an
// operation a version's specification does not have is not found there;
// /api_versions lists the versions with a specification.
func TestConformanceRoutes(t *testing.T) {
	specs, _ := loadSpecs(t)
	_, c := startServer(t, server.Options{})
	ctx := testContext(t)
	session, err := c.OpenSession(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	op, err := c.Submit(ctx, session, "SHOW TABLES")
	if err != nil {
		t.Fatal(err)
	}
	if st, err := c.Wait(ctx, session, op); err != nil || st != "FINISHED" {
		t.Fatalf("status %s, %v", st, err)
	}
	concrete := strings.NewReplacer("{session_handle}", session, "{operation_handle}", op, "{token}", "0", "{identifier}", "t")
	all := map[string]bool{}
	for _, v := range specVersions {
		for p, methods := range specs[v].Paths {
			for m := range methods {
				all[strings.ToUpper(m)+" "+p] = true
			}
		}
	}
	refusedSeen := map[string]bool{}
	for _, key := range slices.Sorted(maps.Keys(all)) {
		method, p, _ := strings.Cut(key, " ")
		for _, v := range specVersions {
			// A body for the operations that take one; the statement ones
			// run SHOW TABLES.
			body := map[string]any{"statement": "SHOW TABLES", "position": 0}
			if strings.HasSuffix(p, "/statements") || strings.HasSuffix(p, "/configure-session") {
				delete(body, "position")
			}
			var reqBody any
			if method == "POST" || strings.HasSuffix(p, "/complete-statement") {
				reqBody = body
				if p == "/sessions" {
					reqBody = map[string]any{}
				}
			}
			if strings.HasSuffix(p, "/configure-session") {
				reqBody = map[string]any{"statement": "SET 'a' = 'b'"}
			}
			path := fmt.Sprintf("/v%d%s", v, concrete.Replace(p))
			if strings.Contains(p, "/result/") && v > 1 {
				path += "?rowFormat=JSON"
			}
			if method == "DELETE" && p == "/sessions/{session_handle}" {
				continue // closing the session is checked in the round trip
			}
			r := do(ctx, t, c, method, path, reqBody)
			_, inSpec := specs[v].Paths[p][strings.ToLower(method)]
			switch why, isRefused := refusedEndpoints[key]; {
			case !inSpec:
				wantError(t, fmt.Sprintf("v%d does not have %s", v, key), r, 404, "Not found: ")
			case isRefused:
				refusedSeen[key] = true
				wantError(t, fmt.Sprintf("refused v%d %s", v, key), r, 501, why)
			case r.Status == 404 || r.Status == 405:
				t.Errorf("v%d %s is not served: %d %s", v, key, r.Status, r.Body)
			case r.Status != 200 && keys(r.JSON) != "errors":
				t.Errorf("v%d %s: %d without Flink's error shape: %s", v, key, r.Status, r.Body)
			}
		}
	}
	for key := range refusedEndpoints {
		if !refusedSeen[key] {
			t.Errorf("%s is listed as refused but is in no specification", key)
		}
	}
	versions := do(ctx, t, c, "GET", "/v1/api_versions", nil)
	var want []any
	for _, v := range specVersions {
		want = append(want, fmt.Sprintf("V%d", v))
	}
	wantJSON(t, "api_versions", versions.JSON["versions"], want)
}

// TestConformanceBodies: the answers of a round trip (info, versions, a
// session opened, configured and completed in, statements run and their
// results fetched through every token to EOS, an operation and the
// session closed) validate, field by field, against each version's
// specification, and the serializer schemas where Flink writes its own.
func TestConformanceBodies(t *testing.T) {
	specs, overrides := loadSpecs(t)
	_, c := startServer(t, server.Options{})
	ctx := testContext(t)
	for _, v := range specVersions {
		val := &validator{spec: specs[v], latest: specs[specVersions[len(specVersions)-1]], overrides: overrides}
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			roundTrip(ctx, t, c, v, val)
		})
	}
}

// mustJSON returns v as JSON.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// roundTrip runs the round trip of TestConformanceBodies under version v.
func roundTrip(ctx context.Context, t *testing.T, c *servertest.Client, v int, val *validator) {
	pre := fmt.Sprintf("/v%d", v)
	val.checkResponse(t, "GET", "/info", do(ctx, t, c, "GET", pre+"/info", nil))
	val.checkResponse(t, "GET", "/api_versions", do(ctx, t, c, "GET", pre+"/api_versions", nil))
	opened := do(ctx, t, c, "POST", pre+"/sessions", map[string]any{"sessionName": "conformance", "properties": map[string]string{"parallelism.default": "1"}})
	val.checkResponse(t, "POST", "/sessions", opened)
	session, _ := opened.JSON["sessionHandle"].(string)
	if !uuid.MatchString(session) {
		t.Fatalf("session handle %q", session)
	}
	sp := pre + "/sessions/" + session
	val.checkResponse(t, "GET", "/sessions/{session_handle}", do(ctx, t, c, "GET", sp, nil))
	val.checkResponse(t, "POST", "/sessions/{session_handle}/heartbeat", do(ctx, t, c, "POST", sp+"/heartbeat", nil))
	if v >= 2 {
		val.checkResponse(t, "POST", "/sessions/{session_handle}/configure-session",
			do(ctx, t, c, "POST", sp+"/configure-session", map[string]any{"statement": "CREATE TABLE IF NOT EXISTS conf (a INT) WITH ('connector' = 'datagen')"}))
		val.checkResponse(t, "GET", "/sessions/{session_handle}/complete-statement",
			do(ctx, t, c, "GET", sp+"/complete-statement", map[string]any{"statement": "SELECT * FROM co", "position": 16}))
	}
	for _, stmt := range []string{
		"SET 'table.local-time-zone' = 'UTC'",
		"CREATE TABLE IF NOT EXISTS conf (a INT) WITH ('connector' = 'datagen')",
		"SHOW TABLES",
		"SELECT 1 AS n, 'x' AS s, CAST(NULL AS DOUBLE) AS d, CAST(2.5 AS DECIMAL(4, 2)) AS m, TIMESTAMP '2024-01-02 03:04:05.6' AS ts, " +
			"CAST(TIMESTAMP '2024-01-02 03:04:05' AS TIMESTAMP_LTZ(3)) AS ltz, DATE '2024-01-02' AS dt, TRUE AS b, X'0A' AS bin",
	} {
		submitted := do(ctx, t, c, "POST", sp+"/statements", map[string]any{"statement": stmt})
		val.checkResponse(t, "POST", "/sessions/{session_handle}/statements", submitted)
		op, _ := submitted.JSON["operationHandle"].(string)
		opPath := sp + "/operations/" + op
		val.checkResponse(t, "GET", "/sessions/{session_handle}/operations/{operation_handle}/status", do(ctx, t, c, "GET", opPath+"/status", nil))
		first := opPath + "/result/0"
		if v >= 2 {
			first += "?rowFormat=JSON"
		}
		kinds := map[string]bool{}
		if _, err := c.Fetch(ctx, first, func(r map[string]any) bool {
			kinds[fmt.Sprint(r["resultType"])] = true
			val.checkResponse(t, "GET", "/sessions/{session_handle}/operations/{operation_handle}/result/{token}", &servertest.Response{Status: 200, JSON: r, Body: mustJSON(t, r)})
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if !kinds["PAYLOAD"] || !kinds["EOS"] {
			t.Errorf("%s: result types %v, want PAYLOAD and EOS", stmt, kinds)
		}
		val.checkResponse(t, "DELETE", "/sessions/{session_handle}/operations/{operation_handle}/close", do(ctx, t, c, "DELETE", opPath+"/close", nil))
	}
	val.checkResponse(t, "DELETE", "/sessions/{session_handle}", do(ctx, t, c, "DELETE", sp, nil))
}
