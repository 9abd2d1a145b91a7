package plan

// KindMatch is MATCH_RECOGNIZE (Flink's StreamExecMatch).
const KindMatch = "Match"

func init() { register(func() Config { return new(MatchConfig) }) }

// MatchConfig is row pattern recognition over each partition's rows in
// time order, one output row per match: the partition keys, then the
// measures.
type MatchConfig struct {
	PartitionKeys []int `json:"partitionKeys,omitempty"`
	// TimeColumn is the time attribute the rows are ordered by; RowTime
	// says it is event time (rows wait for the watermark), otherwise
	// processing time (rows are matched as they arrive).
	TimeColumn int  `json:"timeColumn"`
	RowTime    bool `json:"rowTime,omitempty"`
	// Order orders the rows of one time.
	Order []SortKey `json:"order,omitempty"`
	// Variables are the pattern's variables in order.
	Variables []MatchVariable `json:"variables"`
	// After is the AFTER MATCH SKIP strategy: PAST LAST ROW, TO NEXT ROW,
	// TO FIRST or TO LAST (of AfterVariable).
	After         string `json:"after"`
	AfterVariable string `json:"afterVariable,omitempty"`
	// Within bounds a match's duration from its first row, in
	// nanoseconds; 0 for none.
	Within   int64      `json:"within,omitempty"`
	Measures MatchExprs `json:"measures"`
}

// MatchVariable is one pattern variable with its quantifier: Min to Max
// rows (Max -1 for no bound), greedy or reluctant, and its DEFINE
// condition (none: every row).
type MatchVariable struct {
	Name      string      `json:"name"`
	Min       int         `json:"min"`
	Max       int         `json:"max"`
	Greedy    bool        `json:"greedy,omitempty"`
	Condition *MatchExprs `json:"condition,omitempty"`
}

// MatchExprs are expressions over the values of Slots, computed from a
// match (or a partial match and the row being matched): column i of the
// expressions is slot i.
type MatchExprs struct {
	Slots []MatchSlot `json:"slots,omitempty"`
	Exprs []Expr      `json:"exprs"`
}

// MatchSlot is one value computed from the rows of a match: Kind "value"
// is Value, over the input row, on the row at Offset from the first
// (First) or last row mapped to Variable ("" for all rows); "aggregate" is
// Function over Args, over the input row, on every row mapped to
// Variable; "rowtime" and "proctime" are MATCH_ROWTIME() and
// MATCH_PROCTIME().
type MatchSlot struct {
	Kind     string `json:"kind"`
	Variable string `json:"variable,omitempty"`
	First    bool   `json:"first,omitempty"`
	Offset   int    `json:"offset,omitempty"`
	Value    Expr   `json:"value,omitzero"`
	Function string `json:"function,omitempty"`
	Args     []Expr `json:"args,omitempty"`
	Type     Type   `json:"type"`
}

// Kind implements Config.
func (*MatchConfig) Kind() string { return KindMatch }
