// Package plan is Sluice's execution plan as data: the graph of operators
// a statement runs as, in a form that is written out as JSON, read back
// and built into the same operators (package job holds the builders).
//
// A plan is a list of nodes in topological order. Each node has a stable
// ID derived from the plan itself (a hash of its kind, parallelism rule,
// inputs, output schema and configuration, plus an ordinal when the same
// node occurs twice), so the same statement over the same tables gives
// the same IDs; checkpoints keep operator state by it. A node's
// configuration is plain data: expressions are trees of function names,
// arguments, typed literals and column references (see Expr), bound to
// their functions only when the plan is built. Connector tables are
// written out whole (see Table). Nothing here depends on the runtime.
package plan

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Version is the version of the plan format this build writes and reads.
// Version 2 writes TIMESTAMP(0) to TIMESTAMP(6) literals in microseconds
// (types.TimestampUnit); version 1 wrote every timestamp in nanoseconds,
// so a version 1 plan is refused rather than read with the wrong unit.
const Version = 2

// Plan is an execution plan.
type Plan struct {
	// Version is the format version, Version.
	Version int `json:"version"`
	// Configuration holds the session options the plan was compiled with
	// that change what its operators compute (the time zone, watermark
	// and idleness settings), by their Flink names.
	Configuration map[string]string `json:"configuration,omitempty"`
	// Nodes are in topological order: a node's inputs come before it.
	Nodes []*Node `json:"nodes"`

	// index finds Nodes by ID while Add builds a plan, so that a plan of
	// n nodes (a UNION ALL of thousands of equal inputs) costs n, not n²
	// or n³.
	index *nodeIndex
}

// nodeIndex indexes a plan's nodes by ID.
type nodeIndex struct {
	// nodes is how many of the plan's nodes byID holds: the first ones.
	nodes int
	byID  map[string]*Node
	// ordinals holds, per hash, the last ordinal Add gave an equal node.
	ordinals map[string]int
}

// Node is one operator of a plan (or a source or sink).
type Node struct {
	// ID is the node's stable ID.
	ID string `json:"id"`
	// Kind names the node's builder and the type of its Config.
	Kind string `json:"kind"`
	// Description is the node's line in EXPLAIN's optimized execution
	// plan, for people; building ignores it. A scan's description has a
	// line per operator Flink's plan shows for it (a WatermarkAssigner, a
	// Calc, the TableSourceScan), top first; a node without one (a
	// projection Flink's plan has none of) is not shown.
	Description string `json:"description,omitempty"`
	// Parallelism is how many instances run.
	Parallelism Parallelism `json:"parallelism"`
	// Inputs are the upstream nodes, in input-number order.
	Inputs []Input `json:"inputs,omitempty"`
	// Schema is the node's output columns.
	Schema []Field `json:"schema"`
	// Changelog is the changelog the node emits, as EXPLAIN shows it: "I"
	// (insert-only), "I,UA,D" (upsert), "I,UB,UA,D" (retract), "I,UB,UA",
	// or "NONE" for a sink.
	Changelog string `json:"changelogMode"`
	// State lists the keyed state tables the node's operator keeps.
	State []StateTable `json:"state,omitempty"`
	// Config is the kind's configuration.
	Config Config `json:"config"`
}

// Changelogs of nodes.
const (
	// InsertOnly is the Changelog of a node that emits only +I rows.
	InsertOnly = "I"
	// NoChangelog is the Changelog of a sink, which emits nothing.
	NoChangelog = "NONE"
)

var changelogModes = []string{InsertOnly, "I,UA,D", "I,UB,UA,D", "I,UB,UA", NoChangelog}

// Field is a named, typed column.
type Field struct {
	Name string `json:"name"`
	Type Type   `json:"type"`
}

// Parallelism is a node's parallelism rule.
type Parallelism string

// Parallelism rules.
const (
	// ParallelismDefault runs parallelism.default instances.
	ParallelismDefault Parallelism = "default"
	// ParallelismSingle runs one instance.
	ParallelismSingle Parallelism = "single"
	// ParallelismInput runs as many instances as the node's inputs, which
	// are all forward.
	ParallelismInput Parallelism = "input"
)

// Exchange is how rows travel from an input to a node's instances.
type Exchange string

// Exchanges.
const (
	// Forward sends instance i's rows to instance i.
	Forward Exchange = "forward"
	// Hash sends each row to the instance that owns its key's group.
	Hash Exchange = "hash"
	// Single sends every row to the one instance.
	Single Exchange = "single"
)

// Input connects a node to one of its upstream nodes.
type Input struct {
	// Node is the upstream node's ID.
	Node string `json:"node"`
	// Exchange is how the rows travel.
	Exchange Exchange `json:"exchange"`
	// Keys are the key columns of a Hash exchange.
	Keys []int `json:"keys,omitempty"`
}

// StateTable is a keyed state table an operator declares.
type StateTable struct {
	// Name is the table's name in the operator's state.
	Name string `json:"name"`
	// Key are the types of the key columns; empty when the operator keeps
	// one entry (no keys).
	Key []Type `json:"key,omitempty"`
	// Value describes what the table holds per key.
	Value string `json:"value"`
	// TTL is the entries' idle state retention (Flink's compiled plan's
	// "ttl": table.exec.state.ttl or a STATE_TTL hint), written as
	// Flink writes it ("86400000 ms"); 0, left out, keeps them for ever.
	TTL TTL `json:"ttl,omitempty"`
}

// TTL is an idle state retention in whole milliseconds, as Flink keeps
// it (StateConfigUtil.createTtlConfig takes milliseconds).
type TTL int64

// Duration returns the retention as a time.Duration.
func (t TTL) Duration() time.Duration { return time.Duration(t) * time.Millisecond }

// MarshalJSON writes the retention as Flink's compiled plans do.
func (t TTL) MarshalJSON() ([]byte, error) { return json.Marshal(fmt.Sprintf("%d ms", int64(t))) }

// UnmarshalJSON reads a retention written by MarshalJSON.
func (t *TTL) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	digits, ok := strings.CutSuffix(s, " ms")
	n, err := strconv.ParseInt(digits, 10, 64)
	if !ok || err != nil || n < 0 || digits[0] == '+' {
		return fmt.Errorf("invalid state TTL '%s': expected a number of milliseconds, as '3600000 ms'", s)
	}
	*t = TTL(n)
	return nil
}

// Config is the configuration of a node of one kind.
type Config interface {
	// Kind is the node kind the configuration belongs to.
	Kind() string
}

// configs makes an empty configuration of each kind.
var configs = map[string]func() Config{}

func register(newConfig func() Config) { configs[newConfig().Kind()] = newConfig }

// Kinds returns every node kind, sorted.
func Kinds() []string {
	out := make([]string, 0, len(configs))
	for k := range configs {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// IsRoot reports whether kind is a terminal kind: a sink or the result of
// a query.
func IsRoot(kind string) bool { return kind == KindSink || kind == KindCollect }

// New returns an empty plan.
func New() *Plan { return &Plan{Version: Version} }

// Add appends n, whose inputs are in p already, and gives it its ID: the
// hash of what it is and the IDs of its inputs, with an ordinal appended
// when an equal node is in p already.
func (p *Plan) Add(n *Node) error {
	h, err := n.hash()
	if err != nil {
		return fmt.Errorf("%s: %w", n.Kind, err)
	}
	ix := p.index
	if ix == nil || ix.nodes > len(p.Nodes) {
		ix = &nodeIndex{byID: map[string]*Node{}, ordinals: map[string]int{}}
		p.index = ix
	}
	for _, m := range p.Nodes[ix.nodes:] {
		ix.byID[m.ID] = m
	}
	n.ID = h
	if ix.byID[h] != nil {
		k := ix.ordinals[h] + 1
		for ix.byID[fmt.Sprintf("%s-%d", h, k)] != nil {
			k++
		}
		ix.ordinals[h] = k
		n.ID = fmt.Sprintf("%s-%d", h, k)
	}
	p.Nodes = append(p.Nodes, n)
	ix.byID[n.ID] = n
	ix.nodes = len(p.Nodes)
	return nil
}

// identified is implemented by configurations part of which does not
// identify the node: settings a user may change without the node's state
// becoming another's, as Flink's operator IDs do not change with a
// table's options.
type identified interface {
	identity() Config
}

// hash is the hex of the first 8 bytes of the SHA-256 of n's kind,
// parallelism rule, inputs, schema and configuration (its identity).
func (n *Node) hash() (string, error) {
	cfg := n.Config
	if id, ok := cfg.(identified); ok {
		cfg = id.identity()
	}
	b, err := marshal(struct {
		Kind        string      `json:"kind"`
		Parallelism Parallelism `json:"parallelism"`
		Inputs      []Input     `json:"inputs"`
		Schema      []Field     `json:"schema"`
		Config      Config      `json:"config"`
	}{n.Kind, n.Parallelism, n.Inputs, n.Schema, cfg})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8]), nil
}

// Digest is the hex of the SHA-256 of everything n is but its ID, with
// its inputs named by inputs (their digests, in input order) instead of
// their IDs, so that two nodes with equal digests compute the same rows
// from equal sub-plans, as Flink's SubplanReuser compares sub-plans by
// their digests. Unlike the ID it covers the whole configuration (a
// table's options too) and the description.
func (n *Node) Digest(inputs []string) (string, error) {
	c := *n
	c.ID = ""
	c.Inputs = slices.Clone(n.Inputs)
	for i := range c.Inputs {
		c.Inputs[i].Node = inputs[i]
	}
	b, err := marshal(&c)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// Node returns the node with the given ID, or nil.
func (p *Plan) Node(id string) *Node {
	if ix := p.index; ix != nil && ix.nodes == len(p.Nodes) {
		return ix.byID[id]
	}
	for _, n := range p.Nodes {
		if n.ID == id {
			return n
		}
	}
	return nil
}

// Roots returns the plan's terminal nodes (sinks, query results), in
// order.
func (p *Plan) Roots() []*Node {
	var out []*Node
	for _, n := range p.Nodes {
		if IsRoot(n.Kind) {
			out = append(out, n)
		}
	}
	return out
}

// Encode writes p as indented JSON, ending with a newline. Encoding a
// plan read by Decode gives the bytes it was read from when they were
// written by Encode.
func (p *Plan) Encode() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// nodeJSON is a node as read, before its kind is known to be valid.
type nodeJSON struct {
	ID          string          `json:"id"`
	Kind        string          `json:"kind"`
	Description string          `json:"description"`
	Parallelism Parallelism     `json:"parallelism"`
	Inputs      []Input         `json:"inputs"`
	Schema      []Field         `json:"schema"`
	Changelog   string          `json:"changelogMode"`
	State       []StateTable    `json:"state"`
	Config      json.RawMessage `json:"config"`
}

// Decode reads a plan written by Encode and checks it (see Check). Errors
// say where: the JSON line and column of a syntax error, or the node's ID
// and the field's path.
func Decode(data []byte) (*Plan, error) {
	if err := syntax(data); err != nil {
		return nil, err
	}
	var raw struct {
		Version       int               `json:"version"`
		Configuration map[string]string `json:"configuration"`
		Nodes         []json.RawMessage `json:"nodes"`
	}
	if err := decode(data, &raw); err != nil {
		return nil, fmt.Errorf("malformed plan: %w", err)
	}
	if raw.Version != Version {
		return nil, fmt.Errorf("malformed plan: version: plan format version %d, this build reads version %d", raw.Version, Version)
	}
	p := &Plan{Version: raw.Version, Configuration: raw.Configuration}
	for i, rn := range raw.Nodes {
		var nj nodeJSON
		if err := decode(rn, &nj); err != nil {
			return nil, fmt.Errorf("malformed plan: %w", at(fmt.Sprintf("nodes[%d]", i), err))
		}
		where := fmt.Sprintf("nodes[%d]", i)
		if nj.ID != "" {
			where = fmt.Sprintf("node '%s'", nj.ID)
		}
		newConfig, ok := configs[nj.Kind]
		if !ok {
			return nil, fmt.Errorf("malformed plan: %s: kind: unknown node kind '%s'; known kinds: %s", where, nj.Kind, strings.Join(Kinds(), ", "))
		}
		cfg := newConfig()
		if nj.Config == nil {
			return nil, fmt.Errorf("malformed plan: %s (%s): config: missing", where, nj.Kind)
		}
		if err := decode(nj.Config, cfg); err != nil {
			return nil, fmt.Errorf("malformed plan: %s (%s): %w", where, nj.Kind, at("config", err))
		}
		p.Nodes = append(p.Nodes, &Node{ID: nj.ID, Kind: nj.Kind, Description: nj.Description, Parallelism: nj.Parallelism,
			Inputs: nj.Inputs, Schema: nj.Schema, Changelog: nj.Changelog, State: nj.State, Config: cfg})
	}
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("malformed plan: %w", err)
	}
	return p, nil
}

// syntax reports a JSON syntax error with its line and column.
func syntax(data []byte) error {
	var v any
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return nil
	}
	line, col := 1, 1
	for _, c := range data[:min(max(int(se.Offset)-1, 0), len(data))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Errorf("malformed plan: invalid JSON at line %d, column %d: %v", line, col, se)
}

// Check verifies the plan's structure: unique IDs, known kinds whose
// configuration matches, inputs that come earlier, exchanges that fit the
// parallelism rules, hash keys within the input's columns, and every node
// but the terminal ones read by another. Errors name the node's ID and
// the field.
func (p *Plan) Check() error {
	if len(p.Nodes) == 0 {
		return errors.New("nodes: the plan has no nodes")
	}
	seen := map[string]*Node{}
	used := map[string]bool{}
	for i, n := range p.Nodes {
		if n.ID == "" {
			return fmt.Errorf("nodes[%d]: id: missing", i)
		}
		if seen[n.ID] != nil {
			return fmt.Errorf("nodes[%d]: id: '%s' is the ID of another node", i, n.ID)
		}
		if err := n.check(seen); err != nil {
			return fmt.Errorf("node '%s' (%s): %w", n.ID, n.Kind, err)
		}
		seen[n.ID] = n
		for _, in := range n.Inputs {
			used[in.Node] = true
		}
	}
	for _, n := range p.Nodes {
		if !IsRoot(n.Kind) && !used[n.ID] {
			return fmt.Errorf("node '%s' (%s): no node reads its output", n.ID, n.Kind)
		}
	}
	return nil
}

// check verifies n against the nodes before it.
func (n *Node) check(before map[string]*Node) error {
	newConfig, ok := configs[n.Kind]
	if !ok {
		return fmt.Errorf("kind: unknown node kind '%s'", n.Kind)
	}
	if n.Config == nil || reflect.TypeOf(n.Config) != reflect.TypeOf(newConfig()) {
		return fmt.Errorf("config: not a %s configuration", n.Kind)
	}
	if !slices.Contains(changelogModes, n.Changelog) {
		return fmt.Errorf("changelogMode: unknown changelog mode '%s'; expected one of %s", n.Changelog, strings.Join(changelogModes, ", "))
	}
	switch n.Parallelism {
	case ParallelismDefault, ParallelismSingle:
	case ParallelismInput:
		if len(n.Inputs) == 0 {
			return fmt.Errorf("parallelism: a node without inputs cannot take its inputs' parallelism")
		}
	default:
		return fmt.Errorf("parallelism: unknown rule '%s'; expected default, single or input", n.Parallelism)
	}
	for i, in := range n.Inputs {
		field := fmt.Sprintf("inputs[%d]", i)
		up := before[in.Node]
		if up == nil {
			return fmt.Errorf("%s.node: no node '%s' before this one", field, in.Node)
		}
		if IsRoot(up.Kind) {
			return fmt.Errorf("%s.node: '%s' is a %s, which has no output", field, in.Node, up.Kind)
		}
		switch in.Exchange {
		case Forward:
			if n.Parallelism != ParallelismInput {
				return fmt.Errorf("%s.exchange: a forward input needs the parallelism rule input", field)
			}
		case Single:
			if n.Parallelism != ParallelismSingle {
				return fmt.Errorf("%s.exchange: a single input needs the parallelism rule single", field)
			}
		case Hash:
			if len(in.Keys) == 0 {
				return fmt.Errorf("%s.keys: a hash input needs key columns", field)
			}
		default:
			return fmt.Errorf("%s.exchange: unknown exchange '%s'; expected forward, hash or single", field, in.Exchange)
		}
		if in.Exchange != Hash && len(in.Keys) > 0 {
			return fmt.Errorf("%s.keys: only a hash input has keys", field)
		}
		for j, k := range in.Keys {
			if k < 0 || k >= len(up.Schema) {
				return fmt.Errorf("%s.keys[%d]: column %d out of range (the input has %d columns)", field, j, k, len(up.Schema))
			}
		}
		if n.Parallelism == ParallelismInput && in.Exchange != Forward {
			return fmt.Errorf("%s.exchange: a node with the parallelism rule input reads its inputs forward", field)
		}
	}
	return nil
}
