package server

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/runtime"
)

// routeMetrics serves the jobs' metrics for Prometheus at /metrics, with
// the Go runtime's and the process's.
func (s *Server) routeMetrics() {
	reg := prometheus.NewRegistry()
	reg.MustRegister(&jobCollector{jobs: s.jobs},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	s.mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}))
}

// Metric names follow Flink's (numRecordsIn, currentOutputWatermark,
// accumulatedBusyTimeMs, pendingRecords, numRestarts,
// lastCheckpointDuration, ...), prefixed sluice_job_ for a job's,
// sluice_task_ for a task's (an instance of a vertex, a chain of
// operators) and sluice_operator_ for an operator instance's, as Flink's
// Prometheus reporter scopes them.
var (
	jobLabels      = []string{"job_id", "job_name"}
	taskLabels     = []string{"job_id", "job_name", "task_id", "task_name", "subtask_index"}
	operatorLabels = []string{"job_id", "job_name", "task_id", "task_name", "operator_id", "operator_name", "subtask_index"}

	descJobs = prometheus.NewDesc("sluice_jobs", "Jobs of the job manager by state.", []string{"state"}, nil)

	descUptime       = prometheus.NewDesc("sluice_job_uptime", "Milliseconds since the job started (while it runs).", jobLabels, nil)
	descRestarts     = prometheus.NewDesc("sluice_job_numRestarts", "Times the job was restarted after a failure.", jobLabels, nil)
	descCpCompleted  = prometheus.NewDesc("sluice_job_numberOfCompletedCheckpoints", "Checkpoints and savepoints completed.", jobLabels, nil)
	descCpFailed     = prometheus.NewDesc("sluice_job_numberOfFailedCheckpoints", "Checkpoints and savepoints failed.", jobLabels, nil)
	descCpInProgress = prometheus.NewDesc("sluice_job_numberOfInProgressCheckpoints", "Checkpoints in progress.", jobLabels, nil)
	descCpDuration   = prometheus.NewDesc("sluice_job_lastCheckpointDuration", "Milliseconds the latest completed checkpoint took.", jobLabels, nil)
	descCpSize       = prometheus.NewDesc("sluice_job_lastCheckpointSize", "Bytes of state of the latest completed checkpoint.", jobLabels, nil)

	descRecordsIn     = prometheus.NewDesc("sluice_task_numRecordsIn", "Rows a task received from upstream.", taskLabels, nil)
	descRecordsOut    = prometheus.NewDesc("sluice_task_numRecordsOut", "Rows a task sent downstream.", taskLabels, nil)
	descBytesIn       = prometheus.NewDesc("sluice_task_numBytesIn", "Bytes a source instance read (Kafka keys and values).", taskLabels, nil)
	descBytesOut      = prometheus.NewDesc("sluice_task_numBytesOut", "Bytes a sink instance wrote (Kafka keys and values).", taskLabels, nil)
	descWatermark     = prometheus.NewDesc("sluice_task_currentOutputWatermark", "The latest watermark an instance emitted, in milliseconds since the epoch.", taskLabels, nil)
	descWatermarkLag  = prometheus.NewDesc("sluice_task_watermarkLag", "Milliseconds between now and the latest watermark an instance emitted.", taskLabels, nil)
	descBusy          = prometheus.NewDesc("sluice_task_accumulatedBusyTimeMs", "Milliseconds a task spent processing (sending excluded).", taskLabels, nil)
	descIdle          = prometheus.NewDesc("sluice_task_accumulatedIdleTimeMs", "Milliseconds a task waited for input.", taskLabels, nil)
	descBackpressured = prometheus.NewDesc("sluice_task_accumulatedBackPressuredTimeMs", "Milliseconds a task was blocked sending to a full inbox downstream.", taskLabels, nil)
	descPending       = prometheus.NewDesc("sluice_task_pendingRecords", "Records a source instance has yet to read (Kafka consumer lag).", taskLabels, nil)
	descStateEntries  = prometheus.NewDesc("sluice_task_stateEntries", "State entries the stateful operators of a task hold.", taskLabels, nil)

	descOpRecordsIn  = prometheus.NewDesc("sluice_operator_numRecordsIn", "Rows an operator instance received.", operatorLabels, nil)
	descOpRecordsOut = prometheus.NewDesc("sluice_operator_numRecordsOut", "Rows an operator instance emitted.", operatorLabels, nil)
	descOpWatermark  = prometheus.NewDesc("sluice_operator_currentOutputWatermark", "The latest watermark an operator instance emitted, in milliseconds since the epoch.", operatorLabels, nil)
)

// jobCollector reads the job manager's jobs and their counters when
// Prometheus scrapes.
type jobCollector struct{ jobs *sluice.JobManager }

// Describe implements prometheus.Collector.
func (c *jobCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descJobs, descUptime, descRestarts, descCpCompleted, descCpFailed, descCpInProgress,
		descCpDuration, descCpSize, descRecordsIn, descRecordsOut, descBytesIn, descBytesOut, descWatermark, descWatermarkLag,
		descBusy, descIdle, descBackpressured, descPending, descStateEntries, descOpRecordsIn, descOpRecordsOut, descOpWatermark} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *jobCollector) Collect(ch chan<- prometheus.Metric) {
	now := time.Now()
	states := map[string]int{"RUNNING": 0, "RESTARTING": 0, "FINISHED": 0, "CANCELED": 0, "FAILED": 0}
	for _, j := range c.jobs.Jobs() {
		state := j.State()
		states[state]++
		gauge := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, j.ID, j.Name)
		}
		if state == "RUNNING" {
			gauge(descUptime, float64(now.Sub(j.Started).Milliseconds()))
		}
		gauge(descRestarts, float64(j.Restarts()))
		cps := j.Checkpoints()
		gauge(descCpCompleted, float64(cps.Completed))
		gauge(descCpFailed, float64(cps.Failed))
		gauge(descCpInProgress, float64(cps.InProgress))
		if cp := cps.LatestCompleted; cp != nil {
			gauge(descCpDuration, float64(cp.Duration().Milliseconds()))
			gauge(descCpSize, float64(cp.Size))
		}
		if state == "RUNNING" || state == "RESTARTING" {
			for _, v := range j.Vertices() {
				collectVertex(ch, j, v, now)
			}
		}
	}
	for st, n := range states {
		ch <- prometheus.MustNewConstMetric(descJobs, prometheus.GaugeValue, float64(n), st)
	}
}

// collectVertex sends the metrics of a vertex's instances and of its
// operators' instances.
func collectVertex(ch chan<- prometheus.Metric, j *sluice.Job, v runtime.VertexMetrics, now time.Time) {
	for k, m := range v.Instances {
		labels := []string{j.ID, j.Name, v.ID, v.Name, strconv.Itoa(k)}
		send := func(d *prometheus.Desc, t prometheus.ValueType, value float64) {
			ch <- prometheus.MustNewConstMetric(d, t, value, labels...)
		}
		send(descRecordsIn, prometheus.CounterValue, float64(m.RecordsIn))
		send(descRecordsOut, prometheus.CounterValue, float64(m.RecordsOut))
		if m.BytesKnown {
			send(descBytesIn, prometheus.CounterValue, float64(m.BytesIn))
		}
		if m.BytesOutKnown {
			send(descBytesOut, prometheus.CounterValue, float64(m.BytesOut))
		}
		if m.Watermark != runtime.MinWatermark && m.Watermark != runtime.MaxWatermark {
			wm := watermarkMillis(m.Watermark)
			send(descWatermark, prometheus.GaugeValue, float64(wm))
			send(descWatermarkLag, prometheus.GaugeValue, float64(now.UnixMilli()-wm))
		}
		send(descBusy, prometheus.CounterValue, float64(m.Busy.Milliseconds()))
		send(descIdle, prometheus.CounterValue, float64(m.Idle.Milliseconds()))
		send(descBackpressured, prometheus.CounterValue, float64(m.Backpressured.Milliseconds()))
		if m.PendingKnown {
			send(descPending, prometheus.GaugeValue, float64(m.PendingRecords))
		}
		if m.Stateful {
			send(descStateEntries, prometheus.GaugeValue, float64(m.StateEntries))
		}
	}
	for _, op := range v.Operators {
		for k, m := range op.Instances {
			labels := []string{j.ID, j.Name, v.ID, v.Name, op.ID, op.Name, strconv.Itoa(k)}
			send := func(d *prometheus.Desc, t prometheus.ValueType, value float64) {
				ch <- prometheus.MustNewConstMetric(d, t, value, labels...)
			}
			send(descOpRecordsIn, prometheus.CounterValue, float64(m.RecordsIn))
			send(descOpRecordsOut, prometheus.CounterValue, float64(m.RecordsOut))
			if m.Watermark != runtime.MinWatermark && m.Watermark != runtime.MaxWatermark {
				send(descOpWatermark, prometheus.GaugeValue, float64(watermarkMillis(m.Watermark)))
			}
		}
	}
}
