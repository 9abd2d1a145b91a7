package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/server"
)

// scrape reads /metrics with Prometheus's text parser.
func scrape(t *testing.T, base string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("/metrics answered %d", resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("/metrics is not Prometheus text: %v", err)
	}
	return mfs
}

// value returns the value of the metric of family name whose labels
// include want, summed over the series that match, and whether any did.
func value(mfs map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	mf, ok := mfs[name]
	if !ok {
		return 0, false
	}
	sum, found := 0.0, false
	for _, m := range mf.Metric {
		labels := map[string]string{}
		for _, l := range m.Label {
			labels[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range want {
			if labels[k] != v {
				match = false
			}
		}
		if !match {
			continue
		}
		found = true
		switch {
		case m.Counter != nil:
			sum += m.Counter.GetValue()
		case m.Gauge != nil:
			sum += m.Gauge.GetValue()
		}
	}
	return sum, found
}

// TestPrometheusMetrics scrapes /metrics while a stateful job with event
// time runs: rows in and out per task and operator, the watermark, state entries,
// the source's lag, checkpoints and restarts.
func TestPrometheusMetrics(t *testing.T) {
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	c := start(t, server.Options{})
	ctx := testContext(t)
	session, err := c.OpenSession(ctx, map[string]string{"execution.checkpointing.interval": "100ms", "parallelism.default": "2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []string{
		`CREATE TABLE clicks (name STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) ` + kafkaTable(cluster, "clicks", "json"),
		`INSERT INTO clicks VALUES ('a', TIMESTAMP '2026-01-01 10:00:00'), ('b', TIMESTAMP '2026-01-01 10:00:01'), ('a', TIMESTAMP '2026-01-01 10:00:05')`,
		fmt.Sprintf(`CREATE TABLE counts (name STRING, n BIGINT, PRIMARY KEY (name) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',
			'topic' = 'counts', 'properties.bootstrap.servers' = '%s', 'key.format' = 'json', 'value.format' = 'json')`, cluster.BootstrapServers()),
	} {
		if _, err := c.Run(ctx, session, st); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := c.Run(ctx, session, `INSERT INTO counts SELECT name, COUNT(*) FROM clicks GROUP BY name`)
	if err != nil {
		t.Fatal(err)
	}
	job := rows[0][0].(string)
	// What the job comes to, each in its time: two keys in state, a
	// checkpoint, the source's watermark (emitted on its schedule) at
	// the latest row's time less a second, the sink's bytes, and the end
	// of the job that loaded the rows.
	const wm = 1767261604000 // 2026-01-01 10:00:04 UTC
	var mfs map[string]*dto.MetricFamily
	for {
		mfs = scrape(t, c.Base)
		entries, _ := value(mfs, "sluice_task_stateEntries", map[string]string{"job_id": job})
		cps, _ := value(mfs, "sluice_job_numberOfCompletedCheckpoints", map[string]string{"job_id": job})
		written, _ := value(mfs, "sluice_task_numBytesOut", map[string]string{"job_id": job})
		watermarked := false
		if mf := mfs["sluice_task_currentOutputWatermark"]; mf != nil {
			for _, m := range mf.Metric {
				watermarked = watermarked || m.Gauge.GetValue() == wm
			}
		}
		finished, _ := value(mfs, "sluice_jobs", map[string]string{"state": "FINISHED"})
		if entries == 2 && cps >= 1 && written > 0 && watermarked && finished == 1 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("gave up waiting: state entries %v (want 2), checkpoints %v, sink bytes %v, watermark %d seen %v, finished jobs %v", entries, cps, written, int64(wm), watermarked, finished)
		}
		<-waitTick()
	}
	if v, ok := value(mfs, "sluice_jobs", map[string]string{"state": "RUNNING"}); !ok || v != 1 {
		t.Errorf("running jobs %v", v)
	}
	if v, ok := value(mfs, "sluice_jobs", map[string]string{"state": "FINISHED"}); !ok || v != 1 {
		t.Errorf("finished jobs %v", v)
	}
	if v, ok := value(mfs, "sluice_job_numRestarts", map[string]string{"job_id": job}); !ok || v != 0 {
		t.Errorf("restarts %v %v", v, ok)
	}
	if v, ok := value(mfs, "sluice_job_lastCheckpointSize", map[string]string{"job_id": job}); !ok || v <= 0 {
		t.Errorf("checkpoint size %v %v", v, ok)
	}
	if _, ok := value(mfs, "sluice_job_lastCheckpointDuration", map[string]string{"job_id": job}); !ok {
		t.Error("no checkpoint duration")
	}
	// Per task: the source read 3 rows and all of Kafka, and its
	// watermark is the latest row's time less a second.
	var source, agg string
	for _, m := range mfs["sluice_task_numRecordsOut"].Metric {
		for _, l := range m.Label {
			if l.GetName() == "task_name" && strings.HasPrefix(l.GetValue(), "Source: ") {
				for _, l2 := range m.Label {
					if l2.GetName() == "task_id" {
						source = l2.GetValue()
					}
				}
			}
			if l.GetName() == "task_name" && strings.Contains(l.GetValue(), "GroupAggregate") {
				for _, l2 := range m.Label {
					if l2.GetName() == "task_id" {
						agg = l2.GetValue()
					}
				}
			}
		}
	}
	if source == "" || agg == "" {
		t.Fatalf("no source or aggregate among %v", mfs["sluice_task_numRecordsOut"])
	}
	if v, _ := value(mfs, "sluice_task_numRecordsOut", map[string]string{"job_id": job, "task_id": source}); v != 3 {
		t.Errorf("source rows out %v, want 3", v)
	}
	if v, _ := value(mfs, "sluice_task_numRecordsIn", map[string]string{"job_id": job, "task_id": agg}); v != 3 {
		t.Errorf("aggregate rows in %v, want 3", v)
	}
	if v, ok := value(mfs, "sluice_task_pendingRecords", map[string]string{"job_id": job, "task_id": source}); !ok || v != 0 {
		t.Errorf("source lag %v (%v), want 0", v, ok)
	}
	if v, ok := value(mfs, "sluice_task_numBytesIn", map[string]string{"job_id": job, "task_id": source}); !ok || v <= 0 {
		t.Errorf("source bytes %v (%v)", v, ok)
	}
	if lag, ok := value(mfs, "sluice_task_watermarkLag", map[string]string{"job_id": job, "task_id": source}); !ok || lag < float64(time.Now().UnixMilli()-wm)-60_000 {
		t.Errorf("watermark lag %v (%v): now less the watermark", lag, ok)
	}
	if _, ok := value(mfs, "sluice_task_accumulatedBusyTimeMs", map[string]string{"job_id": job, "task_id": agg}); !ok {
		t.Error("no busy time of the aggregate")
	}
	if _, ok := value(mfs, "sluice_task_accumulatedBackPressuredTimeMs", map[string]string{"job_id": job, "task_id": source}); !ok {
		t.Error("no backpressured time of the source")
	}
	// Per operator of a task (a chain): the source's rows out, and the
	// aggregate's rows in, which are its task's, the aggregate heading it.
	if v, ok := value(mfs, "sluice_operator_numRecordsOut", map[string]string{"job_id": job, "task_id": source, "operator_id": source, "operator_name": "Source: clicks"}); !ok || v != 3 {
		t.Errorf("the source operator's rows out %v (%v), want 3", v, ok)
	}
	if v, ok := value(mfs, "sluice_operator_numRecordsIn", map[string]string{"job_id": job, "task_id": agg, "operator_id": agg}); !ok || v != 3 {
		t.Errorf("the aggregate operator's rows in %v (%v), want 3", v, ok)
	}
	if _, ok := mfs["go_goroutines"]; !ok {
		t.Error("no Go runtime metrics")
	}
}
