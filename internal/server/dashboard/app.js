// Sluice's dashboard: plain JavaScript over the server's REST API (Flink's
// job monitoring endpoints and its SQL Gateway API), polled every
// refresh-interval of /config.
"use strict";

let refresh = 3000;
let timer = null;
// The previous sample of each vertex, to turn counters into rates.
let previous = {};

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const resp = await fetch(path, init);
  const data = await resp.json();
  if (!resp.ok) throw new Error((data.errors || [resp.statusText]).join("\n"));
  return data;
}

function time(ms) { return ms > 0 ? new Date(ms).toLocaleString() : "-"; }

function duration(ms) {
  if (ms < 0) return "-";
  const s = Math.floor(ms / 1000);
  if (s < 60) return s + " s";
  if (s < 3600) return Math.floor(s / 60) + " min " + (s % 60) + " s";
  return Math.floor(s / 3600) + " h " + Math.floor(s % 3600 / 60) + " min";
}

function bytes(n) {
  if (n < 1024) return n + " B";
  if (n < 1048576) return (n / 1024).toFixed(1) + " KiB";
  return (n / 1048576).toFixed(1) + " MiB";
}

// watermark shows a watermark in milliseconds (Long.MIN_VALUE: none).
function watermark(ms) {
  if (ms === null || ms === undefined) return "-";
  if (ms <= -9223372036854775000) return "none";
  if (ms >= 9223372036854775000) return "end of input";
  return new Date(ms).toISOString().replace("T", " ").replace("Z", "");
}

function fill(tbody, rows) {
  tbody.replaceChildren(...rows);
}

// ---- pages ----

function show(page) {
  for (const p of ["jobs", "job", "sql"]) document.getElementById("page-" + p).hidden = p !== page;
}

function route() {
  clearTimeout(timer);
  const hash = location.hash || "#/";
  const m = hash.match(/^#\/job\/([0-9a-f]{32})$/);
  if (m) {
    show("job");
    previous = {};
    loop(() => jobPage(m[1]));
  } else if (hash === "#/sql") {
    show("sql");
  } else {
    show("jobs");
    loop(jobsPage);
  }
}

// loop runs a page's update now and every refresh interval, while the
// page is shown.
function loop(update) {
  const hash = location.hash;
  const tick = async () => {
    try { await update(); } catch (e) { console.error(e); }
    if (location.hash === hash) timer = setTimeout(tick, refresh);
  };
  tick();
}

async function jobsPage() {
  const data = await api("GET", "/jobs/overview");
  const running = [], finished = [];
  for (const j of data.jobs) {
    const tr = el("tr");
    tr.dataset.jid = j.jid;
    const name = el("td");
    const a = el("a", j.name);
    a.href = "#/job/" + j.jid;
    name.append(a);
    const tasks = Object.entries(j.tasks).filter(([k, v]) => k !== "total" && v > 0).map(([k, v]) => v + " " + k).join(", ");
    tr.append(name, el("td", j.state, j.state), el("td", time(j["start-time"])), el("td", duration(j.duration)), el("td", tasks));
    (j.state === "RUNNING" || j.state === "RESTARTING" ? running : finished).push(tr);
  }
  fill(document.querySelector("#running tbody"), running);
  fill(document.querySelector("#finished tbody"), finished);
}

// vertexMetric reads metrics of a vertex's instances: with the
// subtasks' values of each name.
async function vertexMetrics(jid, vid, names) {
  const have = await api("GET", "/jobs/" + jid + "/vertices/" + vid + "/metrics");
  const want = have.map(m => m.id).filter(id => names.includes(id.split(".").slice(1).join(".")));
  const out = {};
  if (want.length === 0) return out;
  for (const m of await api("GET", "/jobs/" + jid + "/vertices/" + vid + "/metrics?get=" + want.join(","))) {
    const name = m.id.split(".").slice(1).join(".");
    (out[name] = out[name] || []).push(Number(m.value));
  }
  return out;
}

async function jobPage(jid) {
  const job = await api("GET", "/jobs/" + jid);
  document.getElementById("job-name").textContent = job.name;
  document.getElementById("job-id").textContent = job.jid;
  const state = document.getElementById("job-state");
  state.textContent = job.state;
  state.className = job.state;
  document.getElementById("job-start").textContent = time(job["start-time"]);
  document.getElementById("job-duration").textContent = duration(job.duration);
  const live = job.state === "RUNNING" || job.state === "RESTARTING";
  document.getElementById("job-cancel").disabled = !live;
  document.getElementById("job-stop").disabled = job.state !== "RUNNING";

  const exc = await api("GET", "/jobs/" + jid + "/exceptions?maxExceptions=1");
  document.getElementById("failure-box").hidden = !exc["root-exception"];
  document.getElementById("failure").textContent = exc["root-exception"] || "";

  const now = job.now;
  const rows = [];
  const stats = {};
  for (const v of job.vertices) {
    const m = v.metrics;
    const extra = await vertexMetrics(jid, v.id, ["currentOutputWatermark", "pendingRecords", "stateEntries"]);
    const prev = previous[v.id];
    const s = { inRate: null, outRate: null, busy: null, bp: null };
    if (prev && now > prev.now) {
      const dt = now - prev.now;
      s.inRate = (m["read-records"] - prev.m["read-records"]) * 1000 / dt;
      s.outRate = (m["write-records"] - prev.m["write-records"]) * 1000 / dt;
      if (typeof m["accumulated-busy-time"] === "number") {
        s.busy = (m["accumulated-busy-time"] - prev.m["accumulated-busy-time"]) / dt / v.parallelism;
      }
      s.bp = (m["accumulated-backpressured-time"] - prev.m["accumulated-backpressured-time"]) / dt / v.parallelism;
    }
    previous[v.id] = { now, m };
    const wms = extra.currentOutputWatermark || [];
    s.watermark = wms.length ? Math.min(...wms) : null;
    s.lag = extra.pendingRecords ? extra.pendingRecords.reduce((a, b) => a + b, 0) : null;
    s.entries = extra.stateEntries ? extra.stateEntries.reduce((a, b) => a + b, 0) : null;
    stats[v.id] = s;
    const pct = x => x === null ? "-" : Math.round(Math.min(1, Math.max(0, x)) * 100) + " %";
    const rate = x => x === null ? "-" : x.toFixed(1);
    const tr = el("tr");
    tr.dataset.vertex = v.id;
    tr.append(el("td", v.name), el("td", v.parallelism, "num"), el("td", v.status, v.status),
      el("td", m["read-records"], "num"), el("td", m["write-records"], "num"),
      el("td", rate(s.inRate), "num"), el("td", rate(s.outRate), "num"), el("td", watermark(s.watermark)),
      el("td", pct(s.busy), "num"), el("td", pct(s.bp), "num"),
      el("td", s.lag === null ? "-" : s.lag, "num lag"), el("td", s.entries === null ? "-" : s.entries, "num"));
    rows.push(tr);
  }
  fill(document.querySelector("#vertices tbody"), rows);
  drawGraph(job, stats);

  const cps = await api("GET", "/jobs/" + jid + "/checkpoints");
  const c = cps.counts;
  document.getElementById("checkpoint-counts").textContent =
    `${c.completed} completed, ${c.failed} failed, ${c.in_progress} in progress` + (c.restored ? `, restored ${c.restored} times` : "");
  fill(document.querySelector("#checkpoints tbody"), cps.history.map(h => {
    const tr = el("tr");
    tr.dataset.checkpoint = h.id;
    tr.append(el("td", h.id, "num"), el("td", h.checkpoint_type), el("td", h.status, h.status === "COMPLETED" ? "FINISHED" : h.status),
      el("td", time(h.trigger_timestamp)), el("td", h.end_to_end_duration + " ms", "num"), el("td", bytes(h.state_size), "num"));
    if (h.failure_message) tr.title = h.failure_message;
    return tr;
  }));
}

// chainLines is a vertex's name, as Flink names a chain of operators
// ("Source: t -> Calc -> (Sink: a, Sink: b)"), one operator a line.
function chainLines(name) {
  return name.split(" -> ").map((op, i) => (i > 0 ? "→ " : "") + (op.length > 33 ? op.slice(0, 32) + "…" : op));
}

// drawGraph lays the vertices (chains of operators) out in columns by
// their distance from the sources, with an arrow per input.
function drawGraph(job, stats) {
  const svg = document.getElementById("graph");
  const NS = "http://www.w3.org/2000/svg";
  const node = (tag, attrs, text) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const nodes = job.plan.nodes;
  const depth = {}, pos = {};
  // columnEnd is where the next box of each column starts.
  const columnEnd = [];
  const W = 220, LINE = 15;
  for (const n of nodes) {
    depth[n.id] = Math.max(0, ...(n.inputs || []).map(i => depth[i.id] + 1));
    const d = depth[n.id];
    const lines = chainLines(n.description);
    const y = columnEnd[d] || 20;
    pos[n.id] = { x: 20 + d * 260, y, lines, h: 36 + (lines.length + 3) * LINE };
    columnEnd[d] = y + pos[n.id].h + 24;
  }
  svg.setAttribute("width", 40 + columnEnd.length * 260);
  svg.setAttribute("height", 20 + Math.max(40, ...columnEnd));
  const defs = node("defs", {});
  const marker = node("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "10", refY: "5", markerWidth: "8", markerHeight: "8", orient: "auto" });
  marker.append(node("path", { d: "M0,0 L10,5 L0,10 z", fill: "#888" }));
  defs.append(marker);
  const parts = [defs];
  for (const n of nodes) {
    for (const i of n.inputs || []) {
      const a = pos[i.id], b = pos[n.id];
      const ya = a.y + a.h / 2, yb = b.y + b.h / 2;
      parts.push(node("line", { x1: a.x + W, y1: ya, x2: b.x, y2: yb }));
      parts.push(node("text", { x: (a.x + W + b.x) / 2 - 20, y: (ya + yb) / 2 - 4 }, i.ship_strategy));
    }
  }
  const vertices = Object.fromEntries(job.vertices.map(v => [v.id, v]));
  for (const n of nodes) {
    const p = pos[n.id], v = vertices[n.id], s = stats[n.id] || {};
    const g = node("g", { class: "vertex", "data-vertex": n.id });
    g.append(node("rect", { x: p.x, y: p.y, width: W, height: p.h }));
    const line = (k, text, cls) => g.append(node("text", { x: p.x + 8, y: p.y + 16 + k * LINE, class: cls || "" }, text));
    p.lines.forEach((text, k) => line(k, text, "operator"));
    const k = p.lines.length;
    line(k, `parallelism ${n.parallelism} · ${v ? v.status : ""}`);
    line(k + 1, `in ${s.inRate == null ? "-" : s.inRate.toFixed(1)}/s · out ${s.outRate == null ? "-" : s.outRate.toFixed(1)}/s`);
    line(k + 2, `watermark ${watermark(s.watermark)}`);
    const pct = x => x == null ? "-" : Math.round(Math.min(1, Math.max(0, x)) * 100) + "%";
    line(k + 3, `busy ${pct(s.busy)} · backpressured ${pct(s.bp)}` + (s.lag != null ? ` · lag ${s.lag}` : ""));
    parts.push(g);
  }
  svg.replaceChildren(...parts);
}

// ---- SQL ----

let session = null;
let query = null; // the operation being followed: {op, stop}

async function runStatement() {
  const text = document.getElementById("statement").value;
  const status = document.getElementById("sql-status");
  const error = document.getElementById("sql-error");
  error.hidden = true;
  if (query) query.stop = true;
  try {
    if (!session) session = (await api("POST", "/v1/sessions", { sessionName: "dashboard" })).sessionHandle;
    const op = (await api("POST", `/v1/sessions/${session}/statements`, { statement: text })).operationHandle;
    const q = { op, stop: false, columns: null, rows: [] };
    query = q;
    document.getElementById("stop-query").disabled = false;
    status.textContent = "running";
    let next = `/v1/sessions/${session}/operations/${op}/result/0`;
    while (next && !q.stop) {
      const r = await api("GET", next);
      if (r.resultType === "PAYLOAD") applyResult(q, r.results);
      status.textContent = r.resultType === "EOS" ? "finished" : (r.isQueryResult ? "running: " + q.rows.length + " rows" : "running");
      if (r.resultType === "EOS") break;
      next = r.nextResultUri;
      if (r.resultType === "NOT_READY" || r.results.data.length === 0) await new Promise(res => setTimeout(res, 300));
    }
    if (q.stop) status.textContent = "stopped";
  } catch (e) {
    status.textContent = "error";
    error.textContent = e.message;
    error.hidden = false;
  }
  document.getElementById("stop-query").disabled = true;
}

// applyResult applies a changelog to the shown rows: INSERT and
// UPDATE_AFTER add a row, UPDATE_BEFORE and DELETE remove an equal one.
function applyResult(q, results) {
  if (!q.columns) {
    q.columns = results.columns.map(c => c.name);
    const tr = el("tr");
    tr.append(...q.columns.map(c => el("th", c)));
    document.querySelector("#result thead").replaceChildren(tr);
  }
  for (const row of results.data) {
    const key = JSON.stringify(row.fields);
    if (row.kind === "INSERT" || row.kind === "UPDATE_AFTER") {
      q.rows.push(key);
    } else {
      const i = q.rows.indexOf(key);
      if (i >= 0) q.rows.splice(i, 1);
    }
  }
  fill(document.querySelector("#result tbody"), q.rows.map(key => {
    const tr = el("tr");
    tr.append(...JSON.parse(key).map(f => el("td", f === null ? "NULL" : (typeof f === "object" ? JSON.stringify(f) : f))));
    return tr;
  }));
}

async function stopQuery() {
  if (!query) return;
  query.stop = true;
  await api("DELETE", `/v1/sessions/${session}/operations/${query.op}/close`).catch(() => {});
}

async function jobAction(method, path, body, what) {
  const out = document.getElementById("job-action");
  try {
    const r = await api(method, path, body);
    out.textContent = what + (r["request-id"] ? " (trigger " + r["request-id"] + ")" : "");
  } catch (e) {
    out.textContent = what + " failed: " + e.message;
  }
}

window.addEventListener("hashchange", route);
document.getElementById("run").addEventListener("click", runStatement);
document.getElementById("stop-query").addEventListener("click", stopQuery);
document.getElementById("job-cancel").addEventListener("click", () =>
  jobAction("PATCH", "/jobs/" + document.getElementById("job-id").textContent + "?mode=cancel", undefined, "cancel requested"));
document.getElementById("job-stop").addEventListener("click", () =>
  jobAction("POST", "/jobs/" + document.getElementById("job-id").textContent + "/stop", {}, "stop with savepoint requested"));

api("GET", "/config").then(c => {
  refresh = c["refresh-interval"];
  document.getElementById("version").textContent = "Sluice " + c["flink-version"];
}).catch(() => {}).finally(route);
