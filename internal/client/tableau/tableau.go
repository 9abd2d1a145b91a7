// Package tableau prints query results the way Flink's SQL client does,
// byte for byte: the boxed "tableau" tables (streaming with a row-kind
// column and type-derived widths, batch and statement results sized to their
// content) and the plain changelog view.
//
// The layout follows org.apache.flink.table.utils.print.TableauStyle and
// PrintStyle (Flink 1.16+), and the SQL client's CliTableauResultView and
// CliChangelogResultView; values are rendered by types.PrintValue, Flink's
// RowDataToStringConverterImpl.
package tableau

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// DefaultMaxColumnWidth is the widest a column of a type without a natural
// width (strings, floating point, intervals, binary) is printed, Flink's
// PrintStyle.DEFAULT_MAX_COLUMN_WIDTH and the default of
// sql-client.display.max-column-width.
const DefaultMaxColumnWidth = 30

const (
	rowKindColumn  = "op"
	truncatedFlag  = "..."
	changelogCutAt = "~"
)

// Option adjusts a printer.
type Option func(*config)

type config struct {
	maxColumnWidth int
	// elapsed, when set, is how long the statement has taken, shown after
	// the footer's row count (sql-client.display.print-time-cost).
	elapsed func() time.Duration
}

// WithTimeCost makes footers tell how long the statement has taken, as
// elapsed says when the footer is printed: "3 rows in set (0.12 seconds)"
// (sql-client.display.print-time-cost).
func WithTimeCost(elapsed func() time.Duration) Option {
	return func(c *config) { c.elapsed = elapsed }
}

// timeCost is what follows a footer's row count: "" or " (s.ss seconds)".
func (c config) timeCost() string {
	if c.elapsed == nil {
		return ""
	}
	return fmt.Sprintf(" (%.2f seconds)", c.elapsed().Seconds())
}

// WithMaxColumnWidth sets the maximum column width
// (sql-client.display.max-column-width). Values below 1 are ignored.
func WithMaxColumnWidth(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxColumnWidth = n
		}
	}
}

func newConfig(opts []Option) config {
	c := config{maxColumnWidth: DefaultMaxColumnWidth}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// typeWidth is the width TableauStyle.columnWidthsByType derives from a
// column's type, before the column name and "<NULL>" are accounted for.
func typeWidth(t types.Type, maxColumnWidth int) int {
	switch t.Kind {
	case types.TinyInt:
		return 4 // precision 3 plus a sign
	case types.SmallInt:
		return 6
	case types.Int:
		return 11
	case types.BigInt:
		return 20
	case types.Decimal:
		return t.Precision + 2 // sign and decimal point
	case types.Boolean:
		return 5
	case types.Date:
		return 10
	case types.Time:
		if t.Precision == 0 {
			return 8
		}
		return t.Precision + 9
	case types.Timestamp, types.TimestampLTZ:
		switch {
		case t.Precision == 0:
			return 19
		case t.Precision <= 3:
			return 23
		case t.Precision <= 6:
			return 26
		default:
			return 29
		}
	}
	return maxColumnWidth
}

// widthsByType returns the column widths of a streaming table: for each
// column the widest of its name (in UTF-16 units, as Java measures it), its
// type width and "<NULL>", led by the row-kind column when rowKind is set.
func widthsByType(schema types.Schema, maxColumnWidth int, rowKind bool) []int {
	widths := make([]int, 0, len(schema)+1)
	if rowKind {
		widths = append(widths, len(rowKindColumn))
	}
	for _, f := range schema {
		w := max(typeWidth(f.Type, maxColumnWidth), len(types.NullText))
		widths = append(widths, max(w, utf16Len(f.Name)))
	}
	return widths
}

// widthsByContent returns column widths fitted to the header and rows, each
// capped at maxColumnWidth (TableauStyle.columnWidthsByContent).
func widthsByContent(header []string, rows [][]string, maxColumnWidth int) []int {
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = utf16Len(h)
	}
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], displayWidth(cell))
		}
	}
	for i := range widths {
		widths[i] = min(widths[i], maxColumnWidth)
	}
	return widths
}

// table writes bordered rows with fixed column widths.
type table struct {
	w      io.Writer
	widths []int
	buf    []byte
}

// border writes a line such as "+----+-------------+".
func (t *table) border() error {
	b := append(t.buf[:0], '+')
	for _, w := range t.widths {
		for range w + 2 {
			b = append(b, '-')
		}
		b = append(b, '+')
	}
	b = append(b, '\n')
	t.buf = b
	_, err := t.w.Write(b)
	return err
}

// row writes "| a | b |" with every cell right-aligned to its column, cells
// wider than the column cut and ended with "...".
func (t *table) row(cells []string) error {
	b := append(t.buf[:0], '|')
	for i, cell := range cells {
		b = append(b, ' ')
		w := t.widths[i]
		if dw := displayWidth(cell); dw <= w {
			for range w - dw {
				b = append(b, ' ')
			}
			b = append(b, cell...)
		} else {
			b = append(b, truncate(cell, w-len(truncatedFlag))...)
			b = append(b, truncatedFlag...)
		}
		b = append(b, " |"...)
	}
	b = append(b, '\n')
	t.buf = b
	_, err := t.w.Write(b)
	return err
}

// rowTerm is "row" or "rows" as Flink chooses it: plural only above one.
func rowTerm(n int) string {
	if n > 1 {
		return "rows"
	}
	return "row"
}

// printValues renders a row's values as Flink's printers do.
func printValues(schema types.Schema, row types.Row, loc *time.Location, dst []string) []string {
	for i, f := range schema {
		dst = append(dst, types.PrintValue(f.Type, row[i], loc))
	}
	return dst
}

// Streaming prints a streaming query result in tableau mode as it arrives,
// like CliTableauResultView.printStreamingResults: a leading "op" column and
// column widths derived from the types, so rows print without buffering.
//
//	+----+--------------------------------+----------------------+
//	| op |                          title |         tickets_sold |
//	+----+--------------------------------+----------------------+
//	| +I |                       Die Hard |                    1 |
//	+----+--------------------------------+----------------------+
//	Received a total of 1 row
type Streaming struct {
	t      table
	c      config
	schema types.Schema
	loc    *time.Location
	cells  []string
}

// NewStreaming returns a streaming tableau printer writing to w. loc is the
// session time zone used for TIMESTAMP_LTZ values.
func NewStreaming(w io.Writer, schema types.Schema, loc *time.Location, opts ...Option) *Streaming {
	c := newConfig(opts)
	return &Streaming{
		t:      table{w: w, widths: widthsByType(schema, c.maxColumnWidth, true)},
		c:      c,
		schema: schema,
		loc:    loc,
	}
}

// Header writes the top border, the column names and the border under them.
func (p *Streaming) Header() error {
	if err := p.t.border(); err != nil {
		return err
	}
	if err := p.t.row(append([]string{rowKindColumn}, p.schema.Names()...)); err != nil {
		return err
	}
	return p.t.border()
}

// Row writes one change.
func (p *Streaming) Row(kind types.RowKind, row types.Row) error {
	p.cells = printValues(p.schema, row, p.loc, append(p.cells[:0], kind.String()))
	return p.t.row(p.cells)
}

// Cells writes one change whose values are printed already (as
// types.PrintValue prints them).
func (p *Streaming) Cells(kind types.RowKind, values []string) error {
	p.cells = append(append(p.cells[:0], kind.String()), values...)
	return p.t.row(p.cells)
}

// Footer ends a result that reached its end after n rows: the closing
// border (only if there were rows) and "Received a total of n rows".
func (p *Streaming) Footer(n int) error {
	if n > 0 {
		if err := p.t.border(); err != nil {
			return err
		}
	}
	_, err := io.WriteString(p.t.w, "Received a total of "+strconv.Itoa(n)+" "+rowTerm(n)+p.c.timeCost()+"\n")
	return err
}

// Interrupted ends a result the user cancelled after n rows, as the SQL
// client does on Ctrl-C: no border, "Query terminated, received a total of
// n rows".
func (p *Streaming) Interrupted(n int) error {
	_, err := io.WriteString(p.t.w, "Query terminated, received a total of "+strconv.Itoa(n)+" "+rowTerm(n)+p.c.timeCost()+"\n")
	return err
}

// PrintBatch prints a complete (batch) query result as the SQL client's
// tableau mode does for batch execution (CliTableauResultView
// .printBatchResults): no "op" column, widths fitted to the content up to the
// maximum column width, NULL as "<NULL>", then "n rows in set", or just
// "Empty set" when there are no rows.
func PrintBatch(w io.Writer, schema types.Schema, rows []types.Row, loc *time.Location, opts ...Option) error {
	cells := make([][]string, len(rows))
	for i, r := range rows {
		cells[i] = printValues(schema, r, loc, make([]string, 0, len(schema)))
	}
	return PrintBatchCells(w, schema.Names(), cells, opts...)
}

// PrintBatchCells is PrintBatch of rows whose values are printed already
// (as types.PrintValue prints them), under the column names header.
func PrintBatchCells(w io.Writer, header []string, rows [][]string, opts ...Option) error {
	return printFitted(w, header, rows, newConfig(opts))
}

// PrintStatic prints the result of a statement that is not a query (SHOW
// TABLES, DESCRIBE, SET, ...) as the SQL client does: widths fitted to the
// content without limit, cells right-aligned, then "n rows in set" or
// "Empty set". Flink prints NULL cells of these results as empty strings, so
// callers pass "" for them.
//
//	+------------+
//	| table name |
//	+------------+
//	|     orders |
//	+------------+
//	1 row in set
//
// Of the options, only WithTimeCost applies: widths are never limited.
func PrintStatic(w io.Writer, headers []string, rows [][]string, opts ...Option) error {
	c := newConfig(opts)
	c.maxColumnWidth = math.MaxInt
	return printFitted(w, headers, rows, c)
}

// printFitted is TableauStyle.print with content-derived widths.
func printFitted(w io.Writer, header []string, rows [][]string, c config) error {
	if len(rows) == 0 {
		_, err := io.WriteString(w, "Empty set"+c.timeCost()+"\n")
		return err
	}
	t := table{w: w, widths: widthsByContent(header, rows, c.maxColumnWidth)}
	if err := t.border(); err != nil {
		return err
	}
	if err := t.row(header); err != nil {
		return err
	}
	if err := t.border(); err != nil {
		return err
	}
	for _, r := range rows {
		if err := t.row(r); err != nil {
			return err
		}
	}
	if err := t.border(); err != nil {
		return err
	}
	_, err := io.WriteString(w, strconv.Itoa(len(rows))+" "+rowTerm(len(rows))+" in set"+c.timeCost()+"\n")
	return err
}

// Changelog prints a streaming result in the shape of Flink's changelog
// result view (sql-client.execution.result-mode = changelog), without the
// full-screen frame: a header line of column names, then one line per change.
// Every column, the "op" column first, is a space and the value right-aligned
// to the column's type-derived width (the same widths as Streaming); a value
// longer than its column is cut to width-1 characters and ended with "~"
// (CliUtils.normalizeColumn), counting characters as Java's String.length.
//
//	op                          title         tickets_sold
//	+I                         Aliens                    1
type Changelog struct {
	w      io.Writer
	cols   Columns
	schema types.Schema
	loc    *time.Location
	cells  []string
}

// Columns lays out the lines of the changelog and of the SQL client's
// full-screen result views: each cell a space and the value right-aligned
// to its column's type-derived width, cut with "~" when longer.
type Columns struct{ widths []int }

// NewColumns returns the columns of a result of the given schema, led by
// the "op" column when rowKind is set.
func NewColumns(schema types.Schema, rowKind bool, opts ...Option) Columns {
	return Columns{widths: widthsByType(schema, newConfig(opts).maxColumnWidth, rowKind)}
}

// RowKindColumn is the name of the column that shows a change's kind.
const RowKindColumn = rowKindColumn

// NewChangelog returns a changelog printer writing to w; loc is the session
// time zone used for TIMESTAMP_LTZ values.
func NewChangelog(w io.Writer, schema types.Schema, loc *time.Location, opts ...Option) *Changelog {
	c := newConfig(opts)
	return &Changelog{
		w:      w,
		cols:   Columns{widths: widthsByType(schema, c.maxColumnWidth, true)},
		schema: schema,
		loc:    loc,
	}
}

// Header writes the line of column names.
func (p *Changelog) Header() error {
	return p.line(append([]string{rowKindColumn}, p.schema.Names()...))
}

// Row writes one change.
func (p *Changelog) Row(kind types.RowKind, row types.Row) error {
	p.cells = printValues(p.schema, row, p.loc, append(p.cells[:0], kind.String()))
	return p.line(p.cells)
}

// Cells writes one change whose values are printed already (as
// types.PrintValue prints them).
func (p *Changelog) Cells(kind types.RowKind, values []string) error {
	p.cells = append(append(p.cells[:0], kind.String()), values...)
	return p.line(p.cells)
}

func (p *Changelog) line(cells []string) error {
	_, err := io.WriteString(p.w, p.cols.Line(cells)+"\n")
	return err
}

// Line returns the cells laid out in the columns, without a line break
// (CliUtils.normalizeColumn for each).
func (c Columns) Line(cells []string) string {
	var b strings.Builder
	for i, cell := range cells {
		b.WriteByte(' ')
		b.WriteString(c.Cell(i, cell))
	}
	return b.String()
}

// Cell returns a value laid out in column i: right-aligned to the
// column's width, or cut to one less and ended with "~".
func (c Columns) Cell(i int, value string) string {
	w, n := c.widths[i], utf16Len(value)
	if n > w {
		return utf16Prefix(value, w-1) + changelogCutAt
	}
	return strings.Repeat(" ", w-n) + value
}

// utf16Prefix returns the longest prefix of s of at most n UTF-16 units.
func utf16Prefix(s string, n int) string {
	units := 0
	for i, r := range s {
		units += utf16Units(r)
		if units > n {
			return s[:i]
		}
	}
	return s
}
