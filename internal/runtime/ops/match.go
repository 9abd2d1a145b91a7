package ops

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// MatchSkip is an AFTER MATCH SKIP strategy.
type MatchSkip int

// The AFTER MATCH SKIP strategies.
const (
	SkipPastLastRow MatchSkip = iota
	SkipToNextRow
	SkipToFirst
	SkipToLast
)

// MatchSlotKind is the kind of a value computed from a match.
type MatchSlotKind int

// The kinds of match slots.
const (
	// SlotValue is an expression on one row mapped to a variable.
	SlotValue MatchSlotKind = iota
	// SlotAggregate is an aggregate over the rows mapped to a variable.
	SlotAggregate
	// SlotRowtime is MATCH_ROWTIME(): the time the match is emitted at.
	SlotRowtime
	// SlotProctime is MATCH_PROCTIME(): the current processing time.
	SlotProctime
)

// MatchSlot is one value computed from the rows of a (partial) match.
type MatchSlot struct {
	Kind MatchSlotKind
	// Var is the variable whose rows the slot reads, -1 for all rows.
	Var int
	// First and Offset pick the row of a SlotValue: Offset rows after the
	// first, or (not First) before the last.
	First  bool
	Offset int
	// Value is a SlotValue's expression over the input row.
	Value expr.Evaluator
	// NewAcc and Args are a SlotAggregate's accumulator and arguments,
	// over the input row.
	NewAcc func() fn.Accumulator
	Args   []expr.Evaluator
}

// MatchExprs are expressions over the values of Slots (column i is slot
// i).
type MatchExprs struct {
	Slots []MatchSlot
	Exprs []expr.Evaluator
}

// MatchVar is a pattern variable with its quantifier and condition (nil:
// every row).
type MatchVar struct {
	Name     string
	Min, Max int // Max -1: no upper bound
	Greedy   bool
	Cond     *MatchExprs
}

// MatchConfig configures a Match.
type MatchConfig struct {
	InputTypes    []types.Type
	PartitionKeys []int
	// TimeCol is the time attribute rows are ordered by: event time when
	// RowTime, else processing time.
	TimeCol int
	RowTime bool
	// Order orders the rows of one time.
	Order []SortKey
	Vars  []MatchVar
	After MatchSkip
	// AfterVar is the variable of SkipToFirst and SkipToLast.
	AfterVar int
	// Within bounds a match from its first row, in microseconds; 0: none.
	Within   int64
	Measures MatchExprs
	// OutputTypes are the partition keys' then the measures' types.
	OutputTypes []types.Type
	Context     expr.Context
}

// Match is MATCH_RECOGNIZE, after Flink's CepOperator running the NFA
// that Flink's NFACompiler builds from the pattern StreamExecMatch
// translates: strict contiguity, greedy and reluctant quantifiers, the
// four AFTER MATCH SKIP strategies and WITHIN. In event time, rows wait
// in state until the watermark passes their time and are then matched in
// time order (rows of one time in the ORDER BY's further keys' order, or
// as they arrived); a row not after the watermark is late and dropped. In
// processing time rows are matched as they arrive. A match is emitted
// once no partial match that started earlier is still open, as Flink's
// NFA does; partial matches and completed matches are kept in Java's
// PriorityQueue order so that ties resolve as in Flink. Output is
// insert-only: one row per match.
//
// A partition is visited at a watermark only when the watermark reaches
// its timer (timerQueue): the earliest time at which a visit would change
// anything (see due), its first waiting row's time or, with WITHIN, the
// time its oldest partial match times out. The timer's time is derived
// from the partition's state, so the timers are checkpointed and
// redistributed with the partitions, and a watermark costs the
// partitions due, not every partition.
type Match struct {
	counter
	onWatermark
	cfg    MatchConfig
	nfa    []nfaState
	start  int
	st     state.Backend
	parts  *state.Table[*matchPartition]
	timers *timerQueue
	// due holds the visited partition's due times (a reused buffer).
	due   []int64
	cmp   comparator
	key   []byte
	slots types.Row
	row   types.Row
	out   *output
}

// nfaState is a state of the compiled NFA: the variable whose rows it
// takes (-1 for the final state) and its transitions.
type nfaState struct {
	v     int
	final bool
	trans []nfaTrans
}

// nfaTrans is a TAKE or PROCEED transition, under the condition of
// variable cond (-1: true) and none of the conditions of nots (the
// greedy quantifiers before it).
type nfaTrans struct {
	take   bool
	target int
	cond   int
	nots   []int
}

// eventID identifies an input row as Flink's EventId: its time, then its
// number among the rows of that time.
type eventID struct {
	ts  int64
	seq int64
}

func (a eventID) compare(b eventID) int {
	switch {
	case a.ts != b.ts:
		return cmpInt(a.ts, b.ts)
	}
	return cmpInt(a.seq, b.seq)
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// mEvent is a row with its event id.
type mEvent struct {
	id  eventID
	row types.Row
}

// mNode is one row of a match, mapped to variable v, and the match's rows
// before it (shared between partial matches).
type mNode struct {
	v    int
	ev   *mEvent
	prev *mNode
}

// mState is one computation of the NFA: its state, the rows taken
// (newest first) and where it started; a computation at the start state
// has taken nothing.
type mState struct {
	st       int
	path     *mNode
	started  bool
	start    eventID
	startsAt int64
}

// compareStates orders computations as Flink's
// NFAState.COMPUTATION_STATE_COMPARATOR: by their first row, those
// without one last.
func compareStates(a, b *mState) int {
	ka, kb := eventID{math.MaxInt64, math.MaxInt64}, eventID{math.MaxInt64, math.MaxInt64}
	if a.started {
		ka = a.start
	}
	if b.started {
		kb = b.start
	}
	return ka.compare(kb)
}

// stateQueue is java.util.PriorityQueue over compareStates, step for step
// (binary heap in an array, sift up and down, bulk removal then heapify),
// so that computations that compare equal come out in Flink's order.
type stateQueue []*mState

func (q *stateQueue) add(x *mState) {
	es := append(*q, x)
	k := len(es) - 1
	for k > 0 {
		parent := (k - 1) >> 1
		e := es[parent]
		if compareStates(x, e) >= 0 {
			break
		}
		es[k] = e
		k = parent
	}
	es[k] = x
	*q = es
}

func (q stateQueue) peek() *mState {
	if len(q) == 0 {
		return nil
	}
	return q[0]
}

func (q *stateQueue) poll() *mState {
	es := *q
	result := es[0]
	n := len(es) - 1
	x := es[n]
	es[n] = nil
	es = es[:n]
	if n > 0 {
		siftDown(es, 0, x)
	}
	*q = es
	return result
}

func siftDown(es []*mState, k int, x *mState) {
	n := len(es)
	half := n >> 1
	for k < half {
		child := k<<1 + 1
		c := es[child]
		if right := child + 1; right < n && compareStates(c, es[right]) > 0 {
			child = right
			c = es[child]
		}
		if compareStates(x, c) <= 0 {
			break
		}
		es[k] = c
		k = child
	}
	es[k] = x
}

// removeIf removes the computations f selects, keeping the others' order,
// then restores the heap (PriorityQueue.bulkRemove).
func (q *stateQueue) removeIf(f func(*mState) bool) {
	es := *q
	w := 0
	removed := false
	for _, e := range es {
		if f(e) {
			removed = true
			continue
		}
		es[w] = e
		w++
	}
	if !removed {
		return
	}
	clear(es[w:])
	es = es[:w]
	for i := len(es)>>1 - 1; i >= 0; i-- {
		siftDown(es, i, es[i])
	}
	*q = es
}

// matchPartition is the state of one partition: rows waiting for the
// watermark, the open computations and the completed matches waiting for
// earlier computations to end.
type matchPartition struct {
	pending   map[int64][]types.Row
	partial   stateQueue
	completed stateQueue
	// lastTS and seq number the rows of one time.
	lastTS int64
	seq    int64
	// timer is the time of the partition's timer when hasTimer: always
	// what due gives for the partition as it stands between messages,
	// so it is not encoded but derived again when decoded.
	timer    int64
	hasTimer bool
}

// NewMatch returns a Match for cfg.
func NewMatch(cfg MatchConfig, st state.Backend) (*Match, error) {
	if err := checkCols("match partition key", cfg.PartitionKeys, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	if err := checkCols("match time column", []int{cfg.TimeCol}, len(cfg.InputTypes)); err != nil {
		return nil, err
	}
	if len(cfg.Vars) == 0 {
		return nil, errors.New("match: the pattern has no variables")
	}
	if cfg.Within > 0 && !cfg.RowTime {
		return nil, errors.New("match: WITHIN needs an event-time attribute")
	}
	if (cfg.After == SkipToFirst || cfg.After == SkipToLast) && (cfg.AfterVar < 0 || cfg.AfterVar >= len(cfg.Vars)) {
		return nil, fmt.Errorf("match: AFTER MATCH SKIP variable %d out of range", cfg.AfterVar)
	}
	if want := len(cfg.PartitionKeys) + len(cfg.Measures.Exprs); len(cfg.OutputTypes) != want {
		return nil, fmt.Errorf("match: %d output types for %d columns", len(cfg.OutputTypes), want)
	}
	for i, v := range cfg.Vars {
		if v.Max == 0 || v.Max > 0 && v.Max < v.Min || v.Min < 0 {
			return nil, fmt.Errorf("match: variable %s: invalid quantifier {%d,%d}", v.Name, v.Min, v.Max)
		}
		for _, s := range slotsOf(cfg, i) {
			if s.Var < -1 || s.Var >= len(cfg.Vars) {
				return nil, fmt.Errorf("match: variable %s: slot variable %d out of range", v.Name, s.Var)
			}
		}
	}
	m := &Match{cfg: cfg, st: st, cmp: newComparator(cfg.Order, cfg.InputTypes), timers: newTimerQueue()}
	m.compile()
	m.parts = state.NewTable(st, "partitions", m.codec())
	m.parts.OnRestore(func() {
		var ts []timer
		for k, p := range m.parts.All() {
			if p.hasTimer {
				ts = append(ts, timer{time: p.timer, key: k})
			}
		}
		m.timers.rebuildTimers(ts)
	})
	m.out = newOutput(cfg.OutputTypes)
	m.onWatermark = newOnWatermark(func(wm int64, e runtime.Emitter) error { return m.fire(wm, m.out.to(e)) })
	return m, nil
}

func slotsOf(cfg MatchConfig, v int) []MatchSlot {
	if cfg.Vars[v].Cond == nil {
		return nil
	}
	return cfg.Vars[v].Cond.Slots
}

// State implements Stateful; its Len is the number of partitions.
func (m *Match) State() state.Backend { return m.st }

// ---------------------------------------------------------------- compile

// compile builds the NFA as Flink's NFACompiler does for the patterns
// StreamExecMatch makes (every variable strictly contiguous): from the
// last variable back to the first, each variable's states pointing to
// the following variable's first state.
func (m *Match) compile() {
	m.nfa = []nfaState{{v: -1, final: true}}
	sink := 0
	for i := len(m.cfg.Vars) - 1; i >= 0; i-- {
		sink = m.convert(i, sink)
	}
	m.start = sink
}

func (m *Match) newState(v int) int {
	m.nfa = append(m.nfa, nfaState{v: v})
	return len(m.nfa) - 1
}

func (m *Match) addTrans(s int, t nfaTrans) { m.nfa[s].trans = append(m.nfa[s].trans, t) }

// convert adds the states of variable i before sink and returns its first.
func (m *Match) convert(i, sink int) int {
	v := m.cfg.Vars[i]
	optional := v.Min == 0
	switch {
	case v.Max < 0: // looping: oneOrMore / timesOrMore
		looping := m.newState(i)
		m.addTrans(looping, nfaTrans{target: sink, cond: -1})
		if v.Greedy {
			m.greedy(sink, i)
		}
		m.addTrans(looping, nfaTrans{take: true, target: looping, cond: i})
		return m.times(i, looping, sink, max(v.Min, 1), max(v.Min, 1), optional)
	case v.Min == 0 && v.Max == 1: // optional single
		return m.singleton(i, sink, sink, true)
	default: // times(from, to)
		return m.times(i, sink, sink, max(v.Min, 1), v.Max, optional)
	}
}

// times is NFACompiler.createTimesState.
func (m *Match) times(i, sink, proceed, from, to int, optional bool) int {
	last := sink
	if m.cfg.Vars[i].Greedy && from != to {
		m.greedy(sink, i)
	}
	for range to - from {
		last = m.singleton(i, last, proceed, true)
	}
	for range from - 1 {
		last = m.singleton(i, last, -1, false)
	}
	return m.singleton(i, last, proceed, optional)
}

// singleton is NFACompiler.createSingletonState without IGNORE edges.
func (m *Match) singleton(i, sink, proceed int, optional bool) int {
	s := m.newState(i)
	m.addTrans(s, nfaTrans{take: true, target: sink, cond: i})
	if optional {
		m.addTrans(s, nfaTrans{target: proceed, cond: -1})
	}
	return s
}

// greedy is NFACompiler.updateWithGreedyCondition: every transition of s
// also requires that variable i's condition does not hold.
func (m *Match) greedy(s, i int) {
	for k := range m.nfa[s].trans {
		t := &m.nfa[s].trans[k]
		t.nots = append(slices.Clip(t.nots), i)
	}
}

// ---------------------------------------------------------------- input

// ProcessChunk implements runtime.Operator.
func (m *Match) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	tc := c.Cols[m.cfg.TimeCol]
	w := m.out.to(out)
	defer w.flush()
	for i := range c.Len() {
		if c.Ops[i] != types.Insert {
			return errors.New("match: input must be insert-only")
		}
		if tc.Nulls[i] {
			m.n.Add(1)
			continue
		}
		t := tc.I64[i]
		m.key = state.AppendChunkKey(m.key[:0], c, i, m.cfg.PartitionKeys)
		p, ok := m.parts.Get(m.key)
		if !ok {
			p = &matchPartition{pending: map[int64][]types.Row{}, partial: stateQueue{{st: m.start}}}
		}
		if !m.cfg.RowTime {
			t = max(t, p.lastTS)
			if err := m.event(p, c.Row(i), t, w); err != nil {
				return err
			}
			// Nothing waits and WITHIN is refused: no timer.
			if idle(p) {
				m.parts.Delete(m.key)
			} else {
				m.parts.Put(m.key, p)
			}
			continue
		}
		if t <= m.wm {
			m.n.Add(1)
			continue
		}
		p.pending[t] = append(p.pending[t], c.Row(i))
		if !p.hasTimer || t < p.timer {
			// The partition is due earlier: a new timer; the one set
			// before is stale.
			p.timer, p.hasTimer = t, true
			k := string(m.key)
			m.timers.add(t, k)
			m.parts.PutString(k, p)
			continue
		}
		m.parts.Put(m.key, p)
	}
	return nil
}

// idle reports whether p holds nothing to remember.
func idle(p *matchPartition) bool {
	return len(p.pending) == 0 && len(p.completed) == 0 && len(p.partial) == 1 && !p.partial[0].started
}

// dueOf returns the first watermark at which visiting p changes
// anything: the time of its first waiting row or, with WITHIN, the time
// its oldest partial match times out (advance before that removes
// nothing, so emits nothing); none when neither is.
func (m *Match) dueOf(p *matchPartition) (int64, bool) {
	due, ok := int64(0), false
	for t := range p.pending {
		if !ok || t < due {
			due, ok = t, true
		}
	}
	// The oldest computation, if started, started first (compareStates).
	if m.cfg.Within > 0 && len(p.partial) > 0 && p.partial[0].started {
		// A start this late never times out (timedOut).
		if s := p.partial[0].startsAt; s < 0 || s <= math.MaxInt64-m.cfg.Within {
			if end := s + m.cfg.Within; !ok || end < due {
				due, ok = end, true
			}
		}
	}
	return due, ok
}

// fire visits the partitions whose timers wm reached, in order of their
// timers' times.
func (m *Match) fire(wm int64, w *output) error {
	defer w.flush()
	return m.timers.fire(wm, func(t int64, k string) error { return m.visit(wm, t, k, w) })
}

// visit matches the rows of partition k whose time is at or before wm,
// in time order, then lets wm time out partial matches, as
// CepOperator.onEventTime, for its timer at t; a timer the partition no
// longer holds is stale and does nothing. It then sets the partition's
// next timer, after wm.
func (m *Match) visit(wm, t int64, k string, w *output) error {
	p, ok := m.parts.GetString(k)
	if !ok || !p.hasTimer || p.timer != t {
		return nil
	}
	due := m.due[:0]
	for t := range p.pending {
		if t <= wm {
			due = append(due, t)
		}
	}
	slices.Sort(due)
	m.due = due
	for _, t := range due {
		if err := m.advance(p, t, w); err != nil {
			return err
		}
		rows := p.pending[t]
		if len(m.cfg.Order) > 0 {
			slices.SortStableFunc(rows, m.cmp.compare)
		}
		for _, r := range rows {
			if err := m.event(p, r, t, w); err != nil {
				return err
			}
		}
		delete(p.pending, t)
	}
	if err := m.advance(p, wm, w); err != nil {
		return err
	}
	if idle(p) {
		m.parts.DeleteString(k)
		return nil
	}
	p.timer, p.hasTimer = m.dueOf(p)
	if p.hasTimer {
		m.timers.add(p.timer, k)
	}
	m.parts.PutString(k, p)
	return nil
}

// ---------------------------------------------------------------- NFA

// event feeds one row to the partition's NFA (NFA.process) and emits the
// matches it completes.
func (m *Match) event(p *matchPartition, row types.Row, t int64, w *output) error {
	if t != p.lastTS {
		p.lastTS, p.seq = t, 0
	}
	ev := &mEvent{id: eventID{t, p.seq}, row: row}
	p.seq++
	var partial, potential stateQueue
	for _, cs := range p.partial {
		next, err := m.next(cs, ev)
		if err != nil {
			return err
		}
		for _, n := range next {
			if m.nfa[n.st].final {
				potential.add(n)
			} else {
				partial.add(n)
			}
		}
	}
	matches, err := m.complete(p, potential, &partial)
	p.partial = partial
	if err != nil {
		return err
	}
	return m.emit(matches, t, w)
}

// advance times out the partial matches that started Within or more
// before t (NFA.advanceTime) and emits the matches that were waiting for
// them.
func (m *Match) advance(p *matchPartition, t int64, w *output) error {
	if m.cfg.Within <= 0 {
		return nil
	}
	var partial stateQueue
	for _, cs := range p.partial {
		if !cs.started || !timedOut(t, cs.startsAt, m.cfg.Within) {
			partial.add(cs)
		}
	}
	matches, err := m.complete(p, nil, &partial)
	p.partial = partial
	if err != nil {
		return err
	}
	return m.emit(matches, t, w)
}

// timedOut reports t - start >= within without overflowing.
func timedOut(t, start, within int64) bool {
	if start < 0 && t > math.MaxInt64+start {
		return true
	}
	return t-start >= within
}

// condCtx is what conditions see of a computation: its rows by variable
// (built once) and the row being matched.
type condCtx struct {
	cs    *mState
	ev    *mEvent
	built bool
	byVar [][]types.Row
	all   []types.Row
}

func (c *condCtx) rows(m *Match, v int) []types.Row {
	if !c.built {
		c.byVar, c.all = m.materialize(c.cs.path)
		c.built = true
	}
	if v < 0 {
		return c.all
	}
	return c.byVar[v]
}

// materialize returns a match's rows by variable and all of them, in
// order.
func (m *Match) materialize(path *mNode) ([][]types.Row, []types.Row) {
	n := 0
	for x := path; x != nil; x = x.prev {
		n++
	}
	all := make([]types.Row, n)
	byVar := make([][]types.Row, len(m.cfg.Vars))
	for x := path; x != nil; x = x.prev {
		n--
		all[n] = x.ev.row
	}
	for x := path; x != nil; x = x.prev {
		byVar[x.v] = append(byVar[x.v], x.ev.row)
	}
	for _, rs := range byVar {
		slices.Reverse(rs)
	}
	return byVar, all
}

// holds evaluates a transition's condition (AndCondition of the take
// condition and the NotConditions of greedy quantifiers, in order).
func (m *Match) holds(c *condCtx, t nfaTrans) (bool, error) {
	if t.cond >= 0 {
		ok, err := m.condition(c, t.cond)
		if err != nil || !ok {
			return false, err
		}
	}
	for _, k := range t.nots {
		ok, err := m.condition(c, k)
		if err != nil || ok {
			return false, err
		}
	}
	return true, nil
}

// condition evaluates variable v's DEFINE condition on the row being
// matched: v's rows (and all rows) include that row.
func (m *Match) condition(c *condCtx, v int) (bool, error) {
	cond := m.cfg.Vars[v].Cond
	if cond == nil {
		return true, nil
	}
	rows := func(x int) []types.Row { return c.rows(m, x) }
	if err := m.fill(cond.Slots, rows, c.ev.row, v, c.ev.id.ts); err != nil {
		return false, err
	}
	return expr.Evaluator(cond.Exprs[0]).Holds(&m.cfg.Context, m.slots)
}

// fill computes slots into m.slots from the rows of each variable and,
// when cur is set, the row being matched to variable curVar.
func (m *Match) fill(slots []MatchSlot, rows func(v int) []types.Row, cur types.Row, curVar int, ts int64) error {
	m.slots = m.slots[:0]
	ctx := &m.cfg.Context
	for _, s := range slots {
		rs := rows(s.Var)
		withCur := cur != nil && (s.Var < 0 || s.Var == curVar)
		n := len(rs)
		if withCur {
			n++
		}
		at := func(i int) types.Row {
			if i < len(rs) {
				return rs[i]
			}
			return cur
		}
		v := types.NullValue
		switch s.Kind {
		case SlotValue:
			i := n - 1 - s.Offset
			if s.First {
				i = s.Offset
			}
			if i >= 0 && i < n {
				var err error
				if v, err = s.Value(ctx, at(i)); err != nil {
					return err
				}
			}
		case SlotAggregate:
			acc := s.NewAcc()
			args := make([]types.Value, len(s.Args))
			for i := range n {
				for j, a := range s.Args {
					var err error
					if args[j], err = a(ctx, at(i)); err != nil {
						return err
					}
				}
				acc.Add(args)
			}
			var err error
			if v, err = acc.Result(); err != nil {
				return err
			}
		case SlotRowtime:
			v = types.Value{I: ts}
		case SlotProctime:
			v = types.Value{I: time.Now().UnixMilli() * 1000}
		}
		m.slots = append(m.slots, v)
	}
	return nil
}

// next is NFA.computeNextStates: the computations cs becomes with ev.
func (m *Match) next(cs *mState, ev *mEvent) ([]*mState, error) {
	c := &condCtx{cs: cs, ev: ev}
	type edge struct{ src, target int }
	var edges []edge
	stack := []int{cs.st}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range m.nfa[s].trans {
			ok, err := m.holds(c, t)
			if err != nil {
				return nil, err
			}
			switch {
			case !ok:
			case t.take:
				edges = append(edges, edge{s, t.target})
			default:
				stack = append(stack, t.target)
			}
		}
	}
	var out []*mState
	for _, e := range edges {
		n := &mState{st: e.target, path: &mNode{v: m.nfa[e.src].v, ev: ev, prev: cs.path},
			started: true, start: cs.start, startsAt: cs.startsAt}
		if !cs.started {
			n.start, n.startsAt = ev.id, ev.id.ts
		}
		out = append(out, n)
		f, err := m.finalAfterProceed(c, e.target)
		if err != nil {
			return nil, err
		}
		if f >= 0 {
			fin := *n
			fin.st = f
			out = append(out, &fin)
		}
	}
	if cs.st == m.start {
		out = append(out, &mState{st: m.start})
	}
	return out, nil
}

// finalAfterProceed is NFA.findFinalStateAfterProceed: the final state
// when s reaches it through PROCEED transitions whose conditions hold for
// the row (evaluated, as in Flink, for the computation before it).
func (m *Match) finalAfterProceed(c *condCtx, s int) (int, error) {
	stack := []int{s}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range m.nfa[x].trans {
			if t.take {
				continue
			}
			ok, err := m.holds(c, t)
			if err != nil {
				return -1, err
			}
			if !ok {
				continue
			}
			if m.nfa[t.target].final {
				return t.target, nil
			}
			stack = append(stack, t.target)
		}
	}
	return -1, nil
}

// complete is NFA.processMatchesAccordingToSkipStrategy: completed
// matches are emitted in order of their first row once no partial match
// started before them, each pruning the computations its skip strategy
// excludes.
func (m *Match) complete(p *matchPartition, potential stateQueue, partial *stateQueue) ([]*mNode, error) {
	for _, x := range potential {
		p.completed.add(x)
	}
	var out []*mNode
	for {
		first := p.completed.peek()
		if first == nil {
			break
		}
		if pm := partial.peek(); pm != nil && compareStates(first, pm) > 0 {
			break
		}
		p.completed.poll()
		prune, ok, err := m.pruning(first.path)
		if err != nil {
			return out, err
		}
		if ok {
			partial.removeIf(prune)
			p.completed.removeIf(prune)
		}
		out = append(out, first.path)
	}
	return out, nil
}

// pruning returns which computations a match excludes under the skip
// strategy (AfterMatchSkipStrategy.getPruningId and shouldPrune).
func (m *Match) pruning(path *mNode) (func(*mState) bool, bool, error) {
	var first, last eventID
	for x := path; x != nil; x = x.prev {
		if x == path {
			last = x.ev.id
		}
		first = x.ev.id
	}
	switch m.cfg.After {
	case SkipPastLastRow:
		return func(s *mState) bool { return s.started && s.start.compare(last) <= 0 }, true, nil
	case SkipToNextRow:
		return func(s *mState) bool { return s.started && s.start.compare(first) <= 0 }, true, nil
	}
	var ids []eventID
	for x := path; x != nil; x = x.prev {
		if x.v == m.cfg.AfterVar {
			ids = append(ids, x.ev.id)
		}
	}
	name := m.cfg.Vars[m.cfg.AfterVar].Name
	if len(ids) == 0 {
		return nil, false, fmt.Errorf("Could not skip to %s. No such element in the found match %s", name, m.describe(path))
	}
	at := ids[0] // the last row of the variable
	if m.cfg.After == SkipToFirst {
		at = ids[len(ids)-1]
	}
	if at == first {
		return nil, false, errors.New("Could not skip to first element of a match.")
	}
	return func(s *mState) bool { return s.started && s.start.compare(at) < 0 }, true, nil
}

// describe renders a match's rows by variable for an error message.
func (m *Match) describe(path *mNode) string {
	byVar, _ := m.materialize(path)
	var parts []string
	for v, rows := range byVar {
		if len(rows) > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d rows", m.cfg.Vars[v].Name, len(rows)))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// emit writes a row per match: the partition keys, then the measures.
func (m *Match) emit(matches []*mNode, ts int64, w *output) error {
	for _, path := range matches {
		byVar, all := m.materialize(path)
		rows := func(v int) []types.Row {
			if v < 0 {
				return all
			}
			return byVar[v]
		}
		if err := m.fill(m.cfg.Measures.Slots, rows, nil, -1, ts); err != nil {
			return err
		}
		m.row = m.row[:0]
		for _, k := range m.cfg.PartitionKeys {
			m.row = append(m.row, all[0][k])
		}
		for _, e := range m.cfg.Measures.Exprs {
			v, err := e(&m.cfg.Context, m.slots)
			if err != nil {
				return err
			}
			m.row = append(m.row, v)
		}
		w.add(types.Insert, m.row)
	}
	return nil
}

// ---------------------------------------------------------------- state

// codec encodes a partition: its waiting rows, then the rows and nodes of
// its computations, shared as in memory, then the computations in their
// queues' order.
func (m *Match) codec() state.Codec[*matchPartition] {
	ts := m.cfg.InputTypes
	return state.Codec[*matchPartition]{
		Append: func(b []byte, p *matchPartition) []byte {
			times := make([]int64, 0, len(p.pending))
			for t := range p.pending {
				times = append(times, t)
			}
			slices.Sort(times)
			b = state.AppendUvarint(b, uint64(len(times)))
			for _, t := range times {
				b = state.AppendVarint(b, t)
				b = state.AppendUvarint(b, uint64(len(p.pending[t])))
				for _, r := range p.pending[t] {
					b = state.AppendRow(b, ts, r)
				}
			}
			// Every node the computations reach, each after its prev.
			seen := map[*mNode]bool{}
			var nodes []*mNode
			for _, q := range []stateQueue{p.partial, p.completed} {
				for _, s := range q {
					var chain []*mNode
					for x := s.path; x != nil && !seen[x]; x = x.prev {
						seen[x] = true
						chain = append(chain, x)
					}
					slices.Reverse(chain)
					nodes = append(nodes, chain...)
				}
			}
			index := make(map[*mNode]int, len(nodes))
			events := map[*mEvent]int{}
			var evs []*mEvent
			for i, x := range nodes {
				index[x] = i
				if _, ok := events[x.ev]; !ok {
					events[x.ev] = len(evs)
					evs = append(evs, x.ev)
				}
			}
			b = state.AppendUvarint(b, uint64(len(evs)))
			for _, e := range evs {
				b = state.AppendVarint(b, e.id.ts)
				b = state.AppendVarint(b, e.id.seq)
				b = state.AppendRow(b, ts, e.row)
			}
			b = state.AppendUvarint(b, uint64(len(nodes)))
			for _, x := range nodes {
				b = state.AppendUvarint(b, uint64(x.v))
				b = state.AppendUvarint(b, uint64(events[x.ev]))
				prev := -1
				if x.prev != nil {
					prev = index[x.prev]
				}
				b = state.AppendVarint(b, int64(prev))
			}
			for _, q := range []stateQueue{p.partial, p.completed} {
				b = state.AppendUvarint(b, uint64(len(q)))
				for _, s := range q {
					b = state.AppendUvarint(b, uint64(s.st))
					node := -1
					if s.path != nil {
						node = index[s.path]
					}
					b = state.AppendVarint(b, int64(node))
					started := int64(0)
					if s.started {
						started = 1
					}
					b = state.AppendVarint(b, started)
					b = state.AppendVarint(b, s.start.ts)
					b = state.AppendVarint(b, s.start.seq)
					b = state.AppendVarint(b, s.startsAt)
				}
			}
			b = state.AppendVarint(b, p.lastTS)
			return state.AppendVarint(b, p.seq)
		},
		Decode: func(b []byte) (*matchPartition, error) {
			r := state.NewReader(b)
			p := &matchPartition{pending: map[int64][]types.Row{}}
			for range r.Uvarint() {
				if r.Err() != nil {
					break
				}
				t := r.Varint()
				p.pending[t] = readRows(r, ts)
			}
			nEvs := r.Uvarint()
			var evs []*mEvent
			for i := uint64(0); i < nEvs && r.Err() == nil; i++ {
				e := &mEvent{id: eventID{r.Varint(), r.Varint()}}
				e.row = r.Row(ts)
				evs = append(evs, e)
			}
			nNodes := r.Uvarint()
			var nodes []*mNode
			for i := uint64(0); i < nNodes && r.Err() == nil; i++ {
				v, e, prev := int(r.Uvarint()), int(r.Uvarint()), int(r.Varint())
				if v >= len(m.cfg.Vars) || e >= len(evs) || prev >= len(nodes) {
					return nil, errors.New("match state: a node refers to a row or node it does not have")
				}
				x := &mNode{v: v, ev: evs[e]}
				if prev >= 0 {
					x.prev = nodes[prev]
				}
				nodes = append(nodes, x)
			}
			for _, q := range []*stateQueue{&p.partial, &p.completed} {
				n := r.Uvarint()
				for i := uint64(0); i < n && r.Err() == nil; i++ {
					s := &mState{st: int(r.Uvarint())}
					node := int(r.Varint())
					s.started = r.Varint() == 1
					s.start = eventID{r.Varint(), r.Varint()}
					s.startsAt = r.Varint()
					if s.st >= len(m.nfa) || node >= len(nodes) {
						return nil, errors.New("match state: a computation refers to a state or node it does not have")
					}
					if node >= 0 {
						s.path = nodes[node]
					}
					*q = append(*q, s)
				}
			}
			p.lastTS = r.Varint()
			p.seq = r.Varint()
			p.timer, p.hasTimer = m.dueOf(p)
			return p, r.Done()
		},
	}
}
