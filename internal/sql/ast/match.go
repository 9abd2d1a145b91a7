package ast

// MatchRecognize is `input MATCH_RECOGNIZE (...) [AS] alias [(cols)]`, row
// pattern recognition as Flink's "Pattern Recognition" page describes it.
type MatchRecognize struct {
	Pos
	Input       TableRef
	PartitionBy []Expr
	OrderBy     []*OrderItem
	Measures    []*Measure
	// AllRows is set for ALL ROWS PER MATCH, at the position of ALL.
	AllRows *Pos
	// After is the AFTER MATCH SKIP clause; nil when absent.
	After *AfterMatch
	// Pattern is the row pattern, at the position of PATTERN's '('.
	Pattern PatternTerm
	// StrictStart and StrictEnd are the anchors ^ and $.
	StrictStart, StrictEnd *Pos
	// Within is the WITHIN interval; nil when absent.
	Within Expr
	// Subsets are the SUBSET items, kept to refuse them by position.
	Subsets []*PatternVar
	Define  []*PatternDefine
	// Alias and ColumnAliases name the clause's result.
	Alias         string
	ColumnAliases []string
}

func (*MatchRecognize) tableRef() {}

// Measure is one MEASURES item: expression AS alias.
type Measure struct {
	Pos
	Expr  Expr
	Alias string
}

// AfterMatch is AFTER MATCH SKIP ...: Kind is "PAST LAST ROW", "TO NEXT
// ROW", "TO FIRST" or "TO LAST" (TO var alone means TO LAST var), Var the
// pattern variable of the last two.
type AfterMatch struct {
	Pos
	Kind string
	Var  *PatternVar
}

// PatternDefine is one DEFINE item: variable AS condition.
type PatternDefine struct {
	Pos
	Var  string
	Cond Expr
}

// PatternTerm is a node of a row pattern: *PatternVar, *PatternSeq,
// *PatternAlt, *PatternQuant, *PatternPermute or *PatternExclude.
type PatternTerm interface {
	Node
	patternTerm()
}

// PatternVar is a pattern variable.
type PatternVar struct {
	Pos
	Name string
}

// PatternSeq is a concatenation of terms; Paren marks one written in
// parentheses (a group).
type PatternSeq struct {
	Pos
	Items []PatternTerm
	Paren bool
}

// PatternAlt is an alternation a | b.
type PatternAlt struct {
	Pos
	Items []PatternTerm
}

// PatternQuant is a quantified term: Min to Max rows (Max -1 for no upper
// bound), Reluctant for the forms followed by '?'; Text is the quantifier
// as written in canonical form (*, +, ?, {n}, {n,}, {n,m}, {,m}).
type PatternQuant struct {
	Pos
	X         PatternTerm
	Min, Max  int
	Reluctant bool
	Text      string
}

// PatternPermute is PERMUTE(a, b, ...).
type PatternPermute struct {
	Pos
	Items []PatternTerm
}

// PatternExclude is an exclusion {- term -}.
type PatternExclude struct {
	Pos
	X PatternTerm
}

func (*PatternVar) patternTerm()     {}
func (*PatternSeq) patternTerm()     {}
func (*PatternAlt) patternTerm()     {}
func (*PatternQuant) patternTerm()   {}
func (*PatternPermute) patternTerm() {}
func (*PatternExclude) patternTerm() {}
