package client

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mattn/go-runewidth"

	"github.com/sluicesql/sluice/internal/client/tableau"
	"github.com/sluicesql/sluice/internal/types"
)

// The full-screen views of the table and changelog result modes, drawn
// with tcell, after Flink's CliView, CliResultView, CliTableResultView,
// CliChangelogResultView, CliRowView and CliInputView: their layout, keys
// and messages (CliStrings).

// Texts of Flink's result views (CliStrings).
const (
	resultTitle      = "SQL Query Result"
	resultTable      = "Table"
	resultChangelog  = "Changelog"
	resultRefresh    = "Refresh:"
	resultPage       = "Page:"
	resultPageOf     = " of "
	resultUpdated    = "Updated:"
	resultLastPage   = "Last"
	resultUnknown    = "Unknown"
	resultStopped    = "Table program finished."
	rowTitle         = "Row Summary"
	inputTitle       = "Input Dialog"
	inputEnterPage   = "Enter page number:"
	inputError       = "The input is invalid please check it again."
	defaultMargin    = " "
	helpOptionWidth  = 11 // the widest option name formatTwoLineHelpOptions assumes
	changelogMaxRows = 1000
	timeLayout       = "15:04:05.000"
)

// refreshRate is one of the refresh intervals the views step through with
// + and -: every is 0 for as fast as results arrive, and negative for
// never (CliResultView.REFRESH_INTERVALS).
type refreshRate struct {
	name  string
	every time.Duration
}

// refreshRates are Flink's refresh intervals. (Flink's "500 ms" refreshes
// every 100 ms; here it refreshes every 500 ms.)
var refreshRates = []refreshRate{
	{"Fastest", 0},
	{"100 ms", 100 * time.Millisecond},
	{"500 ms", 500 * time.Millisecond},
	{"1 s", time.Second},
	{"5 s", 5 * time.Second},
	{"10 s", 10 * time.Second},
	{"1 min", time.Minute},
	{"-", -1},
}

// The default and least refresh rates of the two views, as indexes into
// refreshRates.
const (
	tableRefresh        = 3 // 1 s
	tableMinRefresh     = 1 // 100 ms
	changelogRefresh    = 0 // fastest
	changelogMinRefresh = 0
)

// helpOption is a key and what it does, as the views' footers list them.
type helpOption struct{ key, name string }

var (
	tableHelp = []helpOption{
		{"Q", "Quit"}, {"R", "Refresh"}, {"+", "Inc Refresh"}, {"-", "Dec Refresh"},
		{"G", "Goto Page"}, {"L", "Last Page"}, {"N", "Next Page"}, {"P", "Prev Page"},
		{"O", "Open Row"},
	}
	changelogHelp = []helpOption{
		{"Q", "Quit"}, {"R", "Refresh"}, {"+", "Inc Refresh"}, {"-", "Dec Refresh"},
		{"O", "Open Row"},
	}
)

var (
	styleInverse   = tcell.StyleDefault.Reverse(true)
	styleBold      = tcell.StyleDefault.Bold(true)
	styleUnderline = tcell.StyleDefault.Underline(true)
	styleError     = tcell.StyleDefault.Foreground(tcell.ColorRed)
)

// span is text in one style; a line is a row of spans.
type span struct {
	text  string
	style tcell.Style
}

type line []span

func plain(s string) line { return line{{s, tcell.StyleDefault}} }

// width is the number of terminal cells the line takes.
func (l line) width() int {
	n := 0
	for _, s := range l {
		n += runewidth.StringWidth(s.text)
	}
	return n
}

// frame is one screen of a view, laid out as CliView.display lays it out:
// the title, the header lines, then the main header and the main lines,
// which scroll horizontally together (the main lines also vertically), and
// the footer lines at the bottom.
type frame struct {
	title                        string
	header, mainHeader, main     []line
	footer                       []line
	offX, offY                   *int // the scroll offsets, kept in bounds
	selected                     int  // the main line shown inverse, or -1
	mainHeight, width, mainWidth int  // set by layout
}

// layout bounds the scroll offsets to a screen of w×h cells.
func (f *frame) layout(w, h int) {
	f.width = w
	f.mainHeight = max(0, h-1-len(f.header)-len(f.mainHeader)-len(f.footer))
	f.mainWidth = 0
	for _, l := range slices.Concat(f.mainHeader, f.main) {
		f.mainWidth = max(f.mainWidth, l.width())
	}
	*f.offY = max(0, min(*f.offY, len(f.main)-f.mainHeight))
	*f.offX = max(0, min(*f.offX, f.mainWidth-w))
}

// draw shows the frame on scr.
func (f *frame) draw(scr tcell.Screen) {
	w, h := scr.Size()
	f.layout(w, h)
	scr.Clear()
	y := 0
	margin := max(0, w-runewidth.StringWidth(f.title))
	putLine(scr, y, line{{strings.Repeat(" ", margin/2) + f.title + strings.Repeat(" ", margin-margin/2), styleInverse}}, 0, w)
	y++
	for _, l := range f.header {
		putLine(scr, y, l, 0, w)
		y++
	}
	for _, l := range f.mainHeader {
		putLine(scr, y, l, *f.offX, w)
		y++
	}
	end := min(len(f.main), *f.offY+f.mainHeight)
	for i := *f.offY; i < end; i++ {
		l := f.main[i]
		if i == f.selected {
			l = line{{lineText(l), styleInverse}}
		}
		putLine(scr, y, l, *f.offX, w)
		y++
	}
	for i, l := range f.footer {
		putLine(scr, h-len(f.footer)+i, l, 0, w)
	}
	scr.Show()
}

// lineText is a line's text without its styles.
func lineText(l line) string {
	var b strings.Builder
	for _, s := range l {
		b.WriteString(s.text)
	}
	return b.String()
}

// putLine draws the cells offX to offX+w of a line in row y.
func putLine(scr tcell.Screen, y int, l line, offX, w int) {
	col := 0
	for _, s := range l {
		for _, r := range s.text {
			rw := runewidth.RuneWidth(r)
			if rw == 0 {
				continue
			}
			if col >= offX && col+rw <= offX+w {
				scr.Put(col-offX, y, string(r), s.style)
			}
			col += rw
		}
	}
}

// subview is what the result view shows: the result, a row of it, or the
// page number being typed.
type subview int

const (
	showResult subview = iota
	showRow
	showInput
)

// resultScreen is the full-screen table or changelog view of a query's
// result. Changes are collected as they arrive; the view shows them when it
// refreshes, at the refresh rate.
type resultScreen struct {
	scr    tcell.Screen
	table  bool // the table view, else the changelog view
	schema types.Schema
	cols   tableau.Columns

	// store is the table view's materialized result; pending are the
	// changelog view's changes (kind first) since the last refresh.
	store   materialized
	pending [][]string

	// results are the rows shown: the table view's page, the changelog
	// view's last changes; previous is the page shown before the last
	// refresh, if it was the same page (its changed cells are bold).
	results, previous [][]string
	previousPage      int

	rate, minRate int // indexes into refreshRates
	retrieving    bool
	updated       time.Time // the last refresh, zero before the first
	page          int       // 0 for the last page
	pageCount     int
	selected      int // the selected row of results, or -1
	offX, offY    int
	scrolling     int // changelog rows to scroll down by at the next draw

	sub              subview
	rowLines         []line
	rowOffX, rowOffY int
	input            string
	inputInvalid     bool
}

func newResultScreen(scr tcell.Screen, schema types.Schema, table bool, set clientSettings) *resultScreen {
	v := &resultScreen{
		scr:        scr,
		table:      table,
		schema:     schema,
		cols:       tableau.NewColumns(schema, !table, set.tableauOptions()...),
		store:      materialized{maxRows: set.maxRows},
		retrieving: true,
		pageCount:  1,
		selected:   -1,
	}
	v.rate, v.minRate = changelogRefresh, changelogMinRefresh
	if table {
		v.rate, v.minRate = tableRefresh, tableMinRefresh
	}
	return v
}

// add collects changes, for the next refresh.
func (v *resultScreen) add(changes []Change) {
	if v.table {
		v.store.apply(changes)
		return
	}
	for _, ch := range changes {
		v.pending = append(v.pending, append([]string{ch.Kind.String()}, ch.Cells...))
	}
}

// pageSize is the number of rows a page holds, the result rows the screen
// shows at once: the main lines that fit.
func (v *resultScreen) pageSize() int {
	_, h := v.scr.Size()
	return max(1, h-6) // title, status line, blank line, column names, two help lines
}

// refresh shows the changes collected so far.
func (v *resultScreen) refresh() {
	v.updated = time.Now()
	if v.table {
		v.paginate()
		return
	}
	v.results = append(v.results, v.pending...)
	v.scrolling += len(v.pending)
	v.pending = nil
	if n := len(v.results) - changelogMaxRows; n > 0 {
		v.results = slices.Delete(v.results, 0, n)
	}
}

// paginate splits the table into pages of the screen's height and shows
// the current one (CliTableResultView.refresh and updatePage).
func (v *resultScreen) paginate() {
	size := v.pageSize()
	v.pageCount = max(1, (len(v.store.rows)+size-1)/size)
	if v.page > v.pageCount {
		v.page = 0
	}
	v.showPage()
}

func (v *resultScreen) showPage() {
	size := v.pageSize()
	p := v.page
	if p == 0 {
		p = v.pageCount
	}
	from := min(len(v.store.rows), (p-1)*size)
	rows := slices.Clone(v.store.rows[from:min(len(v.store.rows), from+size)])
	if v.previousPage == p {
		v.previous = v.results
	} else {
		v.previous, v.previousPage = nil, p
	}
	v.results = rows
	if v.selected >= len(v.results) {
		v.selected = -1
	}
}

// stop marks the result complete: the view shows it until Q.
func (v *resultScreen) stop() {
	v.refresh()
	v.retrieving = false
}

// every is how often the view refreshes: 0 as results arrive, negative
// never.
func (v *resultScreen) every() time.Duration { return refreshRates[v.rate].every }

// key acts on a key press and reports whether it leaves the view.
func (v *resultScreen) key(ev *tcell.EventKey) (quit bool) {
	k, r := ev.Key(), ev.Rune()
	if k != tcell.KeyRune {
		r = 0
	}
	switch v.sub {
	case showRow:
		v.rowKey(k, r)
		return false
	case showInput:
		v.inputKey(k, r)
		return false
	}
	switch {
	case k == tcell.KeyEsc || k == tcell.KeyCtrlC || r == 'q' || r == 'Q':
		return true
	case k == tcell.KeyF5 || r == 'r' || r == 'R':
		v.refresh()
	case k == tcell.KeyUp || r == 'w' || r == 'W':
		v.selectUp()
	case k == tcell.KeyDown || r == 's' || r == 'S':
		v.selectDown()
	case k == tcell.KeyLeft || r == 'a' || r == 'A':
		v.offX = max(0, v.offX-1)
	case k == tcell.KeyRight || r == 'd' || r == 'D':
		v.offX++ // bounded when drawn
	case k == tcell.KeyEnter || r == 'o' || r == 'O':
		v.openRow()
	case r == '+':
		v.rate = min(len(refreshRates)-1, v.rate+1)
	case r == '-':
		v.rate = max(v.minRate, v.rate-1)
	case !v.table:
		// The changelog view has no pages.
	case r == 'g' || r == 'G':
		v.sub, v.input, v.inputInvalid = showInput, "", false
	case r == 'n' || r == 'N':
		if p := v.currentPage(); p < v.pageCount {
			v.page = p + 1
		}
		v.showPage()
	case r == 'p' || r == 'P':
		if p := v.currentPage(); p > 1 {
			v.page = p - 1
		}
		v.showPage()
	case k == tcell.KeyEnd || r == 'l' || r == 'L':
		v.page = 0
		v.showPage()
	}
	return false
}

func (v *resultScreen) currentPage() int {
	if v.page == 0 {
		return v.pageCount
	}
	return v.page
}

// selectUp and selectDown move the selection, scrolling when it leaves the
// screen (CliResultView.selectRowUp and selectRowDown).
func (v *resultScreen) selectUp() {
	switch {
	case v.selected == -1:
		if len(v.results) > 0 {
			v.selected = min(len(v.results), v.offY+v.pageSize()) - 1
		}
	case v.selected > v.offY:
		v.selected--
	default:
		v.selected = max(0, v.selected-1)
		v.offY = max(0, v.offY-1)
	}
}

func (v *resultScreen) selectDown() {
	bottom := min(len(v.results), v.offY+v.pageSize()) - 1
	switch {
	case v.selected == -1:
		v.selected = v.offY
	case bottom >= 0 && v.selected < bottom:
		v.selected++
	default:
		v.selected = min(max(0, len(v.results)-1), v.selected+1)
		v.offY++
	}
	if v.selected >= len(v.results) {
		v.selected = -1
	}
}

// openRow shows the selected row, a column a paragraph (CliRowView).
func (v *resultScreen) openRow() {
	if v.selected < 0 || v.selected >= len(v.results) {
		return
	}
	row := v.results[v.selected]
	if !v.table {
		row = row[1:] // the change's kind
	}
	v.rowLines = v.rowLines[:0]
	for i, f := range v.schema {
		v.rowLines = append(v.rowLines,
			line{{defaultMargin, tcell.StyleDefault}, {fmt.Sprintf("%s (%s):", f.Name, f.Type), styleBold}},
			plain(defaultMargin+row[i]),
			nil)
	}
	v.sub, v.rowOffX, v.rowOffY = showRow, 0, 0
}

func (v *resultScreen) rowKey(k tcell.Key, r rune) {
	switch {
	case k == tcell.KeyEsc || r == 'q' || r == 'Q':
		v.sub = showResult
	case k == tcell.KeyUp || r == 'w' || r == 'W':
		v.rowOffY = max(0, v.rowOffY-1)
	case k == tcell.KeyDown || r == 's' || r == 'S':
		v.rowOffY++
	case k == tcell.KeyLeft || r == 'a' || r == 'A':
		v.rowOffX = max(0, v.rowOffX-1)
	case k == tcell.KeyRight || r == 'd' || r == 'D':
		v.rowOffX++
	}
}

// inputKey edits the page number typed after G (CliInputView): Enter
// goes to the page, or back when nothing is typed; Esc goes back.
func (v *resultScreen) inputKey(k tcell.Key, r rune) {
	switch {
	case k == tcell.KeyEsc:
		v.sub = showResult
	case k == tcell.KeyEnter:
		v.inputInvalid = false
		if v.input == "" {
			v.sub = showResult
			return
		}
		var p int
		if _, err := fmt.Sscan(v.input, &p); err != nil || fmt.Sprint(p) != v.input || p < 1 || p > v.pageCount {
			v.inputInvalid = true
			return
		}
		v.page, v.sub = p, showResult
		v.showPage()
	case k == tcell.KeyBackspace || k == tcell.KeyBackspace2:
		if v.input != "" {
			rs := []rune(v.input)
			v.input = string(rs[:len(rs)-1])
		}
	case r != 0:
		v.input += string(r)
	}
}

// draw shows the view.
func (v *resultScreen) draw() {
	var f frame
	switch v.sub {
	case showRow:
		f = frame{title: rowTitle, header: []line{nil}, main: v.rowLines, offX: &v.rowOffX, offY: &v.rowOffY, selected: -1,
			footer: []line{{{"Press ", tcell.StyleDefault}, {"Q", styleInverse}, {" to go back.", tcell.StyleDefault}}}}
	case showInput:
		f = v.inputFrame()
	default:
		f = v.resultFrame()
	}
	f.draw(v.scr)
}

func (v *resultScreen) inputFrame() frame {
	var zero int
	_, h := v.scr.Size()
	main := make([]line, max(0, (h-2)/2-2))
	main = append(main,
		plain(fmt.Sprintf("%s%s [1 to %d]", defaultMargin, inputEnterPage, v.pageCount)),
		line{{defaultMargin + "> " + v.input, tcell.StyleDefault}, {" ", styleInverse}})
	if v.inputInvalid {
		main = append(main, nil, line{{defaultMargin + inputError, styleError}})
	}
	return frame{title: inputTitle, main: main, offX: &zero, offY: &zero, selected: -1,
		footer: []line{{
			{"Press ", tcell.StyleDefault}, {"Enter", styleInverse}, {" to submit. Press ", tcell.StyleDefault},
			{"ESC", styleInverse}, {" or submit an empty string to cancel.", tcell.StyleDefault},
		}}}
}

func (v *resultScreen) resultFrame() frame {
	w, _ := v.scr.Size()
	if v.scrolling > 0 {
		// The changelog follows its newest changes.
		v.selected = -1
		v.offY += v.scrolling
		v.scrolling = 0
		v.offY = max(0, min(v.offY, len(v.results)-v.pageSize()))
	}
	title := resultTitle + " (" + resultChangelog + ")"
	names := v.schema.Names()
	if v.table {
		title = resultTitle + " (" + resultTable + ")"
	} else {
		names = append([]string{tableau.RowKindColumn}, names...)
	}
	var columns line
	for i, n := range names {
		columns = append(columns, span{" ", tcell.StyleDefault}, span{v.cols.Cell(i, n), styleUnderline})
	}
	main := make([]line, len(v.results))
	for i, row := range v.results {
		var l line
		for j, cell := range row {
			style := tcell.StyleDefault
			// Cells changed since the last refresh of the page are bold
			// while the query runs.
			if v.previous != nil && v.retrieving && i != v.selected && (i >= len(v.previous) || j >= len(v.previous[i]) || v.previous[i][j] != cell) {
				style = styleBold
			}
			l = append(l, span{" ", tcell.StyleDefault}, span{v.cols.Cell(j, cell), style})
		}
		main[i] = l
	}
	help := changelogHelp
	if v.table {
		help = tableHelp
	}
	return frame{
		title:      title,
		header:     []line{v.statusLine(w), nil},
		mainHeader: []line{columns},
		main:       main,
		footer:     twoLineHelp(w, help),
		offX:       &v.offX,
		offY:       &v.offY,
		selected:   v.selected,
	}
}

// statusLine is the line under the title: the refresh rate (or that the
// query has finished), the page (table view) and the last refresh.
func (v *resultScreen) statusLine(w int) line {
	left := defaultMargin + resultStopped
	if v.retrieving {
		left = defaultMargin + resultRefresh + " " + refreshRates[v.rate].name
	}
	right := resultUpdated + " " + resultUnknown + defaultMargin
	if !v.updated.IsZero() {
		right = resultUpdated + " " + v.updated.Format(timeLayout) + defaultMargin
	}
	s := left
	if v.table {
		page := resultLastPage
		if v.page != 0 {
			page = fmt.Sprint(v.page)
		}
		middle := fmt.Sprintf("%s %s%s%d", resultPage, page, resultPageOf, v.pageCount)
		s += strings.Repeat(" ", max(0, (w-len(middle))/2-len(left))) + middle
	}
	s += strings.Repeat(" ", max(0, w-len(s)-len(right))) + right
	return line{{s, styleInverse}}
}

// twoLineHelp lists the keys in two lines, as formatTwoLineHelpOptions does.
func twoLineHelp(w int, options []helpOption) []line {
	columns := (len(options) + 1) / 2
	space := max(0, (w-len(defaultMargin)-columns*(helpOptionWidth+2))/columns)
	lines := make([]line, 2)
	for i, o := range options {
		lines[i%2] = append(lines[i%2], span{o.key, styleInverse},
			span{" " + o.name + strings.Repeat(" ", max(0, helpOptionWidth-len(o.name))+space), tcell.StyleDefault})
	}
	return lines
}

// showScreen shows a query's result in the full-screen table or changelog
// view until Q, Esc or Ctrl-C, or ctx ends; a result that ends stays shown,
// marked finished. Leaving the view prints "Result retrieval cancelled.",
// as Flink's client does.
func (c *Client) showScreen(ctx context.Context, s Stream, set clientSettings, table bool) error {
	if c.hold != nil {
		// What jobs print waits until the view closes.
		release := c.hold()
		defer release()
	}
	scr, err := c.newScreen()
	if err == nil {
		err = scr.Init()
	}
	if err != nil {
		return fmt.Errorf("cannot show the %s view on this terminal: %w", set.mode, err)
	}
	err = newResultScreen(scr, s.Schema(), table, set).run(ctx, s)
	scr.Fini()
	if err != nil {
		return err
	}
	c.info(msgResultQuit)
	return nil
}

// batch is what one Stream.Next returned.
type batch struct {
	changes []Change
	more    bool
	err     error
}

// run shows the view until the user leaves it or ctx ends.
func (v *resultScreen) run(ctx context.Context, s Stream) error {
	pctx, cancel := context.WithCancel(ctx)
	batches := make(chan batch)
	pulled := make(chan struct{})
	go func() {
		defer close(pulled)
		for {
			changes, more, err := s.Next(pctx)
			select {
			case batches <- batch{changes, more, err}:
			case <-pctx.Done():
				return
			}
			if !more || err != nil {
				return
			}
		}
	}()
	defer func() {
		cancel()
		<-pulled
	}()
	events, stopEvents := make(chan tcell.Event, 16), make(chan struct{})
	go v.scr.ChannelEvents(events, stopEvents)
	defer close(stopEvents)

	var next time.Time // the next timed refresh
	for {
		v.draw()
		var tick <-chan time.Time
		if e := v.every(); v.retrieving && e > 0 {
			if next.IsZero() {
				next = time.Now().Add(e)
			}
			tick = time.After(time.Until(next))
		}
		in := batches
		if !v.retrieving {
			in = nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick:
			v.refresh()
			next = time.Time{}
		case b := <-in:
			if b.err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return b.err
			}
			v.add(b.changes)
			switch {
			case !b.more:
				v.stop()
			case v.every() == 0:
				v.refresh()
			}
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			rate := v.rate
			switch ev := ev.(type) {
			case *tcell.EventResize:
				v.scr.Sync()
				if v.table {
					v.paginate()
				}
			case *tcell.EventKey:
				if v.key(ev) {
					return nil
				}
			}
			if v.rate != rate {
				next = time.Time{}
			}
		}
	}
}

// materialized is the current result table of a changelog, as the table
// result mode keeps it (MaterializedCollectStreamResult).
type materialized struct {
	rows [][]string // printed values
	// maxRows is sql-client.execution.max-table-result.rows: beyond it
	// the oldest rows are dropped (0: no limit).
	maxRows int
}

// apply applies changes to the table.
func (m *materialized) apply(changes []Change) {
	for _, ch := range changes {
		if ch.Kind.IsAccumulate() {
			m.rows = append(m.rows, ch.Cells)
			if m.maxRows > 0 && len(m.rows) > m.maxRows {
				// MaterializedCollectStreamResult: the oldest row goes.
				m.rows[0] = nil
				m.rows = m.rows[1:]
			}
			continue
		}
		// Like Flink, retract the newest equal row (Flink compares rows
		// in their binary form: values that print alike are alike).
		for i := len(m.rows) - 1; i >= 0; i-- {
			if slices.Equal(m.rows[i], ch.Cells) {
				m.rows = slices.Delete(m.rows, i, i+1)
				break
			}
		}
	}
}
