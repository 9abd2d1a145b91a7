package server

// The job endpoints follow Flink's monitoring REST API (the dispatcher's,
// docs/static/generated/rest_v1_dispatcher.yml), with the field names
// Flink's JSON serializers write (JobDetails, JobDetailsInfo,
// IOMetricsInfo, CheckpointingStatistics, JobExceptionsInfoWithHistory,
// TriggerResponse, AsynchronousOperationResult), for what Sluice has.

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/runtime"
)

// savepointTimeout bounds a stop with a savepoint: Flink's
// execution.checkpointing.timeout default.
const savepointTimeout = 10 * time.Minute

// routeJobs registers the job endpoints.
func (s *Server) routeJobs() {
	s.handle("GET /config", s.dashboardConfig)
	s.handle("GET /overview", s.overview)
	s.handle("GET /jobs", s.jobIDs)
	s.handle("GET /jobs/overview", s.jobsOverview)
	s.handle("GET /jobs/{jobid}", s.jobDetails)
	s.handleStatus("PATCH /jobs/{jobid}", http.StatusAccepted, s.cancelJob)
	s.handle("GET /jobs/{jobid}/checkpoints", s.jobCheckpoints)
	s.handle("GET /jobs/{jobid}/exceptions", s.jobExceptions)
	s.handle("GET /jobs/{jobid}/vertices/{vertexid}/metrics", s.vertexMetrics)
	ops := &savepointOps{ops: map[string]*savepointOp{}}
	s.handleStatus("POST /jobs/{jobid}/stop", http.StatusAccepted, func(r *http.Request) (any, error) { return s.stopJob(ops, r) })
	s.handle("GET /jobs/{jobid}/savepoints/{triggerid}", func(r *http.Request) (any, error) { return s.savepointStatus(ops, r) })
}

// hexID is the form of Flink's job IDs and trigger IDs.
var hexID = regexp.MustCompile(`^[0-9a-f]{32}$`)

// job looks up the job the path names: a malformed ID is a bad request,
// an unknown one not found, as Flink answers.
func (s *Server) job(r *http.Request) (*sluice.Job, error) {
	id := r.PathValue("jobid")
	if !hexID.MatchString(id) {
		return nil, &restError{status: http.StatusBadRequest,
			msg: fmt.Sprintf("Bad request, could not parse parameters: Cannot resolve path parameter (jobid) from value \"%s\".", id)}
	}
	j, ok := s.jobs.Job(id)
	if !ok {
		return nil, &restError{status: http.StatusNotFound, msg: fmt.Sprintf("Job %s not found", id)}
	}
	return j, nil
}

// millis is a time in milliseconds since the epoch, -1 for none (Flink's
// end-time of a job that has not ended).
func millis(t time.Time) int64 {
	if t.IsZero() {
		return -1
	}
	return t.UnixMilli()
}

// jobTimes returns a job's start, end (-1) and duration in milliseconds.
func jobTimes(j *sluice.Job, now time.Time) (start, end, duration int64) {
	start, end = millis(j.Started), millis(j.EndTime())
	if end < 0 {
		return start, end, now.UnixMilli() - start
	}
	return start, end, end - start
}

// Flink's execution states, in its ExecutionState order.
var executionStates = []string{"CREATED", "SCHEDULED", "DEPLOYING", "RUNNING", "FINISHED", "CANCELING", "CANCELED", "FAILED", "RECONCILING", "INITIALIZING"}

// instanceState is an operator instance's execution state within a job in
// state jobState.
func instanceState(jobState string, in runtime.InstanceMetrics) string {
	if in.Ended {
		return "FINISHED"
	}
	switch jobState {
	case "RUNNING":
		return "RUNNING"
	case "FINISHED":
		return "FINISHED"
	case "CANCELED", "FAILED":
		return jobState
	}
	return "CANCELED" // RESTARTING: the attempt's instances are gone
}

// vertexState is a vertex's execution state: the state of its instances
// when they agree, else the first of RUNNING, FAILED, CANCELED.
func vertexState(counts map[string]int, parallelism int) string {
	for st, n := range counts {
		if n == parallelism {
			return st
		}
	}
	for _, st := range []string{"RUNNING", "FAILED", "CANCELED"} {
		if counts[st] > 0 {
			return st
		}
	}
	return "FINISHED"
}

// ioMetrics is Flink's IOMetricsInfo for a vertex (a chain of
// operators): its instances summed. Sluice moves rows between operators
// without serializing them, so only sources that read bytes (Kafka) know
// read-bytes, and sinks that write them write-bytes.
func ioMetrics(v runtime.VertexMetrics) map[string]any {
	var in, out, bytesIn, bytesOut int64
	var busy, idle, bp time.Duration
	inKnown, outKnown := len(v.Instances) > 0, len(v.Instances) > 0
	for _, m := range v.Instances {
		in += m.RecordsIn
		out += m.RecordsOut
		bytesIn += m.BytesIn
		bytesOut += m.BytesOut
		inKnown = inKnown && m.BytesKnown
		outKnown = outKnown && m.BytesOutKnown
		busy += m.Busy
		idle += m.Idle
		bp += m.Backpressured
	}
	return map[string]any{
		"read-bytes": bytesIn, "read-bytes-complete": inKnown,
		"write-bytes": bytesOut, "write-bytes-complete": outKnown,
		"read-records": in, "read-records-complete": true,
		"write-records": out, "write-records-complete": true,
		"accumulated-backpressured-time": bp.Milliseconds(),
		"accumulated-idle-time":          idle.Milliseconds(),
		"accumulated-busy-time":          busy.Milliseconds(),
	}
}

// shipStrategies are Flink's names of the exchanges.
var shipStrategies = map[runtime.ExchangeKind]string{runtime.Forward: "FORWARD", runtime.Hash: "HASH", runtime.Single: "GLOBAL"}

func (s *Server) jobDetails(r *http.Request) (any, error) {
	j, err := s.job(r)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	state := j.State()
	start, end, duration := jobTimes(j, now)
	vs := j.Vertices()
	vertices := make([]map[string]any, 0, len(vs))
	nodes := make([]map[string]any, 0, len(vs))
	perState := map[string]int{}
	for _, st := range executionStates {
		perState[st] = 0
	}
	for _, v := range vs {
		counts := map[string]int{}
		for _, st := range executionStates {
			counts[st] = 0
		}
		for _, in := range v.Instances {
			counts[instanceState(state, in)]++
		}
		vst := vertexState(counts, v.Parallelism)
		perState[vst]++
		vertices = append(vertices, map[string]any{
			"id": v.ID, "name": v.Name, "maxParallelism": j.MaxParallelism(), "parallelism": v.Parallelism,
			"status": vst, "start-time": start, "end-time": end, "duration": duration,
			"tasks": counts, "metrics": ioMetrics(v),
		})
		inputs := make([]map[string]any, 0, len(v.Inputs))
		for n, in := range v.Inputs {
			inputs = append(inputs, map[string]any{"num": n, "id": vs[in.Stage].ID,
				"ship_strategy": shipStrategies[in.Exchange], "exchange": "pipelined_bounded"})
		}
		node := map[string]any{"id": v.ID, "parallelism": v.Parallelism, "operator": "", "operator_strategy": "",
			"description": v.Name, "optimizer_properties": map[string]any{}}
		if len(inputs) > 0 {
			node["inputs"] = inputs
		}
		nodes = append(nodes, node)
	}
	timestamps := map[string]int64{}
	for _, st := range []string{"INITIALIZING", "CREATED", "RUNNING", "FAILING", "FAILED", "CANCELLING", "CANCELED", "FINISHED", "RESTARTING", "SUSPENDED", "RECONCILING"} {
		timestamps[st] = 0
	}
	timestamps["INITIALIZING"], timestamps["CREATED"], timestamps["RUNNING"] = start, start, start
	if end >= 0 {
		timestamps[state] = end
	}
	return map[string]any{
		"jid": j.ID, "name": j.Name, "isStoppable": false, "state": state, "job-type": "STREAMING",
		"start-time": start, "end-time": end, "duration": duration, "maxParallelism": j.MaxParallelism(),
		"now": now.UnixMilli(), "timestamps": timestamps, "vertices": vertices, "status-counts": perState,
		"plan": map[string]any{"jid": j.ID, "name": j.Name, "type": "STREAMING", "nodes": nodes},
	}, nil
}

func (s *Server) jobIDs(*http.Request) (any, error) {
	jobs := []map[string]string{}
	for _, j := range s.jobs.Jobs() {
		jobs = append(jobs, map[string]string{"id": j.ID, "status": j.State()})
	}
	return map[string]any{"jobs": jobs}, nil
}

// jobsOverview answers Flink's MultipleJobsDetails, newest job first as
// Flink's dashboard lists them.
func (s *Server) jobsOverview(*http.Request) (any, error) {
	now := time.Now()
	jobs := []map[string]any{}
	all := s.jobs.Jobs()
	slices.Reverse(all)
	for _, j := range all {
		state := j.State()
		start, end, duration := jobTimes(j, now)
		tasks := map[string]int{"total": 0}
		for _, st := range executionStates {
			tasks[strings.ToLower(st)] = 0
		}
		for _, v := range j.Vertices() {
			for _, in := range v.Instances {
				tasks["total"]++
				tasks[strings.ToLower(instanceState(state, in))]++
			}
		}
		last := end
		if last < 0 {
			last = start
		}
		jobs = append(jobs, map[string]any{"jid": j.ID, "name": j.Name, "state": state,
			"start-time": start, "end-time": end, "duration": duration, "last-modification": last, "tasks": tasks})
	}
	return map[string]any{"jobs": jobs}, nil
}

func (s *Server) cancelJob(r *http.Request) (any, error) {
	j, err := s.job(r)
	if err != nil {
		return nil, err
	}
	switch mode := r.URL.Query().Get("mode"); strings.ToLower(mode) {
	case "", "cancel":
	default:
		return nil, &restError{status: http.StatusBadRequest,
			msg: fmt.Sprintf("Bad request, could not parse parameters: the termination mode '%s' is not supported; the only supported value is 'cancel' (use POST /jobs/:jobid/stop to stop with a savepoint)", mode)}
	}
	if err := s.jobs.Cancel(j.ID); err != nil {
		return nil, err
	}
	return struct{}{}, nil
}

// checkpointJSON is Flink's CheckpointStatistics of one checkpoint.
func checkpointJSON(c runtime.CheckpointStat, parallelism int) map[string]any {
	class := map[string]string{runtime.CheckpointCompleted: "completed", runtime.CheckpointFailed: "failed", runtime.CheckpointInProgress: "in_progress"}[c.Status]
	kind := "CHECKPOINT"
	if c.Savepoint {
		kind = "SAVEPOINT"
	}
	latest := millis(c.Ended)
	if latest < 0 {
		latest = millis(time.Now())
	}
	acked := parallelism
	if c.Status != runtime.CheckpointCompleted {
		acked = 0
	}
	out := map[string]any{
		"className": class, "id": c.ID, "status": c.Status, "is_savepoint": c.Savepoint,
		"trigger_timestamp": millis(c.Triggered), "latest_ack_timestamp": latest,
		"checkpointed_size": c.Size, "state_size": c.Size, "end_to_end_duration": c.Duration().Milliseconds(),
		"alignment_buffered": 0, "processed_data": 0, "persisted_data": 0,
		"num_subtasks": parallelism, "num_acknowledged_subtasks": acked,
		"checkpoint_type": kind, "tasks": map[string]any{},
	}
	switch c.Status {
	case runtime.CheckpointCompleted:
		out["discarded"] = false
	case runtime.CheckpointFailed:
		out["failure_timestamp"] = millis(c.Ended)
		out["failure_message"] = c.Failure
	}
	return out
}

// statsSummary is Flink's StatsSummaryDto over values.
func statsSummary(values []int64) map[string]any {
	if len(values) == 0 {
		return map[string]any{"min": 0, "max": 0, "avg": 0, "p50": "NaN", "p90": "NaN", "p95": "NaN", "p99": "NaN", "p999": "NaN"}
	}
	sorted := slices.Sorted(slices.Values(values))
	var sum int64
	for _, v := range sorted {
		sum += v
	}
	q := func(p float64) float64 {
		return float64(sorted[int(math.Ceil(p*float64(len(sorted))))-1])
	}
	return map[string]any{"min": sorted[0], "max": sorted[len(sorted)-1], "avg": sum / int64(len(sorted)),
		"p50": q(0.5), "p90": q(0.9), "p95": q(0.95), "p99": q(0.99), "p999": q(0.999)}
}

func (s *Server) jobCheckpoints(r *http.Request) (any, error) {
	j, err := s.job(r)
	if err != nil {
		return nil, err
	}
	sum := j.Checkpoints()
	parallelism := 0
	for _, v := range j.Vertices() {
		parallelism += v.Parallelism
	}
	history := []map[string]any{}
	var sizes, durations []int64
	for _, c := range sum.History {
		history = append(history, checkpointJSON(c, parallelism))
		if c.Status == runtime.CheckpointCompleted {
			sizes = append(sizes, c.Size)
			durations = append(durations, c.Duration().Milliseconds())
		}
	}
	latest := map[string]any{"completed": nil, "savepoint": nil, "failed": nil, "restored": nil}
	for key, c := range map[string]*runtime.CheckpointStat{"completed": sum.LatestCompleted, "savepoint": sum.LatestSavepoint, "failed": sum.LatestFailed} {
		if c != nil {
			latest[key] = checkpointJSON(*c, parallelism)
		}
	}
	if sum.Restored > 0 {
		latest["restored"] = map[string]any{"id": sum.Restored, "restore_timestamp": millis(sum.RestoredAt), "is_savepoint": false}
	}
	zero := statsSummary(nil)
	return map[string]any{
		"counts": map[string]any{"restored": sum.Restores, "total": sum.Total, "in_progress": sum.InProgress,
			"completed": sum.Completed, "failed": sum.Failed},
		"summary": map[string]any{"checkpointed_size": statsSummary(sizes), "state_size": statsSummary(sizes),
			"end_to_end_duration": statsSummary(durations), "alignment_buffered": zero, "processed_data": zero, "persisted_data": zero},
		"latest":  latest,
		"history": history,
	}, nil
}

func (s *Server) jobExceptions(r *http.Request) (any, error) {
	j, err := s.job(r)
	if err != nil {
		return nil, err
	}
	limit := math.MaxInt
	if v := r.URL.Query().Get("maxExceptions"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, &restError{status: http.StatusBadRequest,
				msg: fmt.Sprintf("Bad request, could not parse parameters: Cannot resolve query parameter (maxExceptions) from value \"%s\".", v)}
		}
		limit = n
	}
	failures := j.Failures()
	entries := []map[string]any{}
	for i, f := range failures {
		if i == limit {
			break
		}
		entries = append(entries, map[string]any{"exceptionName": "error", "stacktrace": f.Err.Error(),
			"timestamp": f.Time.UnixMilli(), "taskName": nil, "location": nil, "failureLabels": map[string]string{},
			"concurrentExceptions": []any{}})
	}
	truncated := len(entries) < len(failures)
	body := map[string]any{"root-exception": nil, "timestamp": nil, "all-exceptions": []any{}, "truncated": truncated,
		"exceptionHistory": map[string]any{"entries": entries, "truncated": truncated}}
	if len(failures) > 0 {
		body["root-exception"], body["timestamp"] = failures[0].Err.Error(), failures[0].Time.UnixMilli()
	}
	return body, nil
}

// vertexMetricNames are the metrics of a vertex's instance, as Flink
// names its task and source metrics, by subtask ("0.numRecordsIn").
var vertexMetricNames = []string{"numRecordsIn", "numRecordsOut", "numBytesIn", "numBytesOut", "currentOutputWatermark",
	"accumulatedBusyTimeMs", "accumulatedIdleTimeMs", "accumulatedBackPressuredTimeMs", "pendingRecords", "stateEntries"}

// instanceMetric returns an instance's metric by name, false when it
// does not have it.
func instanceMetric(m runtime.InstanceMetrics, name string) (string, bool) {
	itoa := func(n int64) string { return strconv.FormatInt(n, 10) }
	switch name {
	case "numBytesIn":
		return itoa(m.BytesIn), m.BytesKnown
	case "numBytesOut":
		return itoa(m.BytesOut), m.BytesOutKnown
	case "accumulatedBusyTimeMs":
		return itoa(m.Busy.Milliseconds()), true
	case "accumulatedIdleTimeMs":
		return itoa(m.Idle.Milliseconds()), true
	case "accumulatedBackPressuredTimeMs":
		return itoa(m.Backpressured.Milliseconds()), true
	case "pendingRecords":
		return itoa(m.PendingRecords), m.PendingKnown
	}
	// The rest are an operator's metrics too.
	return operatorMetric(runtime.OperatorInstanceMetrics{RecordsIn: m.RecordsIn, RecordsOut: m.RecordsOut,
		Watermark: m.Watermark, StateEntries: m.StateEntries, Stateful: m.Stateful}, name)
}

// operatorMetricNames are the metrics of an operator instance, by
// subtask and operator ("0.Calc.numRecordsIn"; see operatorScopes).
var operatorMetricNames = []string{"numRecordsIn", "numRecordsOut", "currentOutputWatermark", "stateEntries"}

// operatorMetric returns an operator instance's metric by name, false
// when it does not have it.
func operatorMetric(m runtime.OperatorInstanceMetrics, name string) (string, bool) {
	itoa := func(n int64) string { return strconv.FormatInt(n, 10) }
	switch name {
	case "numRecordsIn":
		return itoa(m.RecordsIn), true
	case "numRecordsOut":
		return itoa(m.RecordsOut), true
	case "currentOutputWatermark":
		return itoa(watermarkMillis(m.Watermark)), true
	case "stateEntries":
		return itoa(m.StateEntries), m.Stateful
	}
	return "", false
}

// operatorNameMaxLength is how much of an operator's name its metrics'
// scope keeps, as Flink's (TaskMetricGroup.METRICS_OPERATOR_NAME_MAX_LENGTH).
const operatorNameMaxLength = 80

// operatorScopes are the names of a vertex's operators as Flink's metric
// query service writes them into a metric's ID: at most
// operatorNameMaxLength characters, with spaces, dots, colons and commas
// made underscores (MetricQueryService.replaceInvalidChars). Where two
// operators of the chain would have the same, each is followed by its
// place in the chain, from 1, in brackets ("Calc[2]"), so that every
// operator's metrics have IDs of their own.
func operatorScopes(ops []runtime.OperatorMetrics) []string {
	scopes := make([]string, len(ops))
	seen := map[string]int{}
	for n, op := range ops {
		name := op.Name
		if r := []rune(name); len(r) > operatorNameMaxLength {
			name = string(r[:operatorNameMaxLength])
		}
		scopes[n] = strings.Map(func(r rune) rune {
			switch r {
			case ' ', '.', ':', ',':
				return '_'
			}
			return r
		}, name)
		seen[scopes[n]]++
	}
	for n, scope := range scopes {
		if seen[scope] > 1 {
			scopes[n] = fmt.Sprintf("%s[%d]", scope, n+1)
		}
	}
	return scopes
}

// watermarkMillis is a watermark in milliseconds, as Flink's
// currentOutputWatermark: Long.MIN_VALUE before any, Long.MAX_VALUE at
// the end of the input.
func watermarkMillis(wm int64) int64 {
	if wm == runtime.MinWatermark || wm == runtime.MaxWatermark {
		return wm
	}
	return wm / int64(time.Millisecond/time.Microsecond)
}

// vertexMetrics answers Flink's MetricCollectionResponseBody: without
// ?get, the metrics the vertex's instances and their operators have
// (Flink's task and operator metrics); with it, their values.
func (s *Server) vertexMetrics(r *http.Request) (any, error) {
	j, err := s.job(r)
	if err != nil {
		return nil, err
	}
	id := r.PathValue("vertexid")
	i := slices.IndexFunc(j.Vertices(), func(v runtime.VertexMetrics) bool { return v.ID == id })
	if i < 0 {
		return nil, &restError{status: http.StatusNotFound, msg: fmt.Sprintf("Vertex %s not found in job %s", id, j.ID)}
	}
	v := j.Vertices()[i]
	var want []string
	if get := r.URL.Query().Get("get"); get != "" {
		want = strings.Split(get, ",")
	}
	out := []map[string]string{}
	add := func(full, value string, ok bool) {
		if !ok || want != nil && !slices.Contains(want, full) {
			return
		}
		if want == nil {
			out = append(out, map[string]string{"id": full})
		} else {
			out = append(out, map[string]string{"id": full, "value": value})
		}
	}
	scopes := operatorScopes(v.Operators)
	for k, m := range v.Instances {
		for _, name := range vertexMetricNames {
			value, ok := instanceMetric(m, name)
			add(fmt.Sprintf("%d.%s", k, name), value, ok)
		}
		for n, op := range v.Operators {
			for _, name := range operatorMetricNames {
				value, ok := operatorMetric(op.Instances[k], name)
				add(fmt.Sprintf("%d.%s.%s", k, scopes[n], name), value, ok)
			}
		}
	}
	return out, nil
}

// stopWithSavepointRequest is Flink's StopWithSavepointRequestBody.
type stopWithSavepointRequest struct {
	TargetDirectory string `json:"targetDirectory"`
	Drain           bool   `json:"drain"`
	TriggerID       string `json:"triggerId"`
	FormatType      string `json:"formatType"`
}

// savepointOp is an asynchronous stop with a savepoint.
type savepointOp struct {
	job      string
	done     chan struct{}
	location string
	err      error
}

// savepointOps are the stops with a savepoint triggered, by trigger ID.
type savepointOps struct {
	mu  sync.Mutex
	ops map[string]*savepointOp
}

func (s *Server) stopJob(ops *savepointOps, r *http.Request) (any, error) {
	j, err := s.job(r)
	if err != nil {
		return nil, err
	}
	var req stopWithSavepointRequest
	if err := readBody(r, &req, "StopWithSavepointRequestBody"); err != nil {
		return nil, err
	}
	if req.FormatType != "" && req.FormatType != "CANONICAL" {
		return nil, &restError{status: http.StatusBadRequest, msg: fmt.Sprintf("'formatType' %s is not supported: Sluice writes its own savepoint format (leave it out or CANONICAL)", req.FormatType)}
	}
	trigger := req.TriggerID
	if trigger == "" {
		trigger = newTriggerID()
	} else if !hexID.MatchString(trigger) {
		return nil, &restError{status: http.StatusBadRequest, msg: fmt.Sprintf("Request did not match expected format StopWithSavepointRequestBody: 'triggerId' %q is not 32 hexadecimal digits", trigger)}
	}
	op := &savepointOp{job: j.ID, done: make(chan struct{})}
	ops.mu.Lock()
	if _, dup := ops.ops[trigger]; dup {
		ops.mu.Unlock()
		return nil, &restError{status: http.StatusBadRequest, msg: fmt.Sprintf("Trigger ID %s is already in use", trigger)}
	}
	ops.ops[trigger] = op
	ops.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), savepointTimeout)
		defer cancel()
		op.location, op.err = s.jobs.StopWithSavepoint(ctx, j.ID, req.TargetDirectory, req.Drain)
		close(op.done)
	}()
	return map[string]string{"request-id": trigger}, nil
}

// newTriggerID returns a random trigger ID.
func newTriggerID() string {
	return strings.ReplaceAll(newHandle(), "-", "")
}

func (s *Server) savepointStatus(ops *savepointOps, r *http.Request) (any, error) {
	j, err := s.job(r)
	if err != nil {
		return nil, err
	}
	trigger := r.PathValue("triggerid")
	ops.mu.Lock()
	op, ok := ops.ops[trigger]
	ops.mu.Unlock()
	if !ok || op.job != j.ID {
		return nil, &restError{status: http.StatusNotFound,
			msg: fmt.Sprintf("There is no savepoint operation with triggerId=%s for job %s.", trigger, j.ID)}
	}
	select {
	case <-op.done:
	default:
		return map[string]any{"status": map[string]string{"id": "IN_PROGRESS"}, "operation": nil}, nil
	}
	result := map[string]any{"location": op.location}
	if op.err != nil {
		result = map[string]any{"failure-cause": map[string]string{"class": "error", "stack-trace": op.err.Error()}}
	}
	return map[string]any{"status": map[string]string{"id": "COMPLETED"}, "operation": result}, nil
}

func (s *Server) overview(*http.Request) (any, error) {
	counts := map[string]int{}
	for _, j := range s.jobs.Jobs() {
		counts[j.State()]++
	}
	return map[string]any{"taskmanagers": 1, "jobs-running": counts["RUNNING"] + counts["RESTARTING"],
		"jobs-finished": counts["FINISHED"], "jobs-cancelled": counts["CANCELED"], "jobs-failed": counts["FAILED"],
		"flink-version": version(), "flink-commit": revision()}, nil
}

// dashboardRefresh is how often the dashboard polls: Flink's
// web.refresh-interval default.
const dashboardRefresh = 3000

func (s *Server) dashboardConfig(*http.Request) (any, error) {
	name, offset := time.Now().Zone()
	return map[string]any{"refresh-interval": dashboardRefresh, "timezone-name": name, "timezone-offset": offset * 1000,
		"flink-version": version(), "flink-revision": revision(),
		"features": map[string]bool{"web-submit": false, "web-cancel": true, "web-rescale": false, "web-history": false}}, nil
}

// revision is the VCS revision sluice was built from, empty when not
// known.
func revision() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				return s.Value
			}
		}
	}
	return ""
}
