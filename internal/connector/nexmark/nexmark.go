// Package nexmark implements the 'nexmark' table connector: the event
// generator of the Nexmark benchmark (persons, auctions and bids of an
// online auction system) as Flink's Nexmark source
// (github.com/nexmark/nexmark, NexmarkTableSourceFactory and
// NexmarkSourceOptions) defines it, with its option names and defaults.
//
// Flink's table has one row per event, with ROW columns person, auction
// and bid and an event_type telling which one is set. Sluice has no ROW
// type yet, so a table reads one kind of event ('kind' = 'person',
// 'auction' or 'bid', the views the Nexmark queries use), with the
// columns of that kind's ROW as its physical columns (any of them, by
// name). Three tables of the three kinds with the same options see the
// events of one stream: the same ids, the same event times and the same
// values as each other.
//
// The generator follows Nexmark's: event id n is a person, an auction or
// a bid by n modulo the sum of the proportions; ids of persons and
// auctions rise with the events; a bid goes to a hot auction (the first
// of each 100) unless one in 'bid.hot-ratio.auctions', else to a random
// one of the last 100 (or a few not yet generated), and likewise bidders
// and sellers; event n of a generator has event time base-time + n ×
// 1/'first-event.rate' seconds × the number of generators. Flink splits
// the ids among its source instances in contiguous ranges, each on its
// own timeline from base-time; so does Sluice, so the data depends on the
// source's parallelism, as in Flink. Flink draws random values from an
// unseeded generator; Sluice draws every event's from the 'seed' option
// and the event's id, so a stream is the same in every run.
package nexmark

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/types"
)

const (
	name = "nexmark"

	optKind              = "kind"
	optFirstEventRate    = "first-event.rate"
	optNextEventRate     = "next-event.rate"
	optEventsNum         = "events.num"
	optPersonProportion  = "person.proportion"
	optAuctionProportion = "auction.proportion"
	optBidProportion     = "bid.proportion"
	optPersonAvgSize     = "person.avg-size"
	optAuctionAvgSize    = "auction.avg-size"
	optBidAvgSize        = "bid.avg-size"
	optHotAuctions       = "bid.hot-ratio.auctions"
	optHotBidders        = "bid.hot-ratio.bidders"
	optHotSellers        = "auction.hot-ratio.sellers"
	optBaseTime          = "base-time"
	optMaxEmitSpeed      = "max-emit-speed"
	optSeed              = "seed"

	// maxAvgSize bounds the average sizes: an event's 'extra' field is
	// held in memory in every chunk in flight.
	maxAvgSize = 1 << 20
)

var options = []connector.OptionSpec{
	{Key: optKind, Required: true, Description: "The kind of events the table reads: 'person', 'auction' or 'bid' (Sluice's, for want of ROW types)."},
	{Key: optFirstEventRate, Default: "10000", Description: "Events per second of event time of the whole stream."},
	{Key: optNextEventRate, Default: "10000", Description: "Must equal 'first-event.rate': Flink's generator uses only the first rate."},
	{Key: optEventsNum, Default: "0", Description: "The number of events of the stream; 0 is unbounded."},
	{Key: optPersonProportion, Default: "1", Description: "The proportion of persons among the events."},
	{Key: optAuctionProportion, Default: "3", Description: "The proportion of auctions among the events."},
	{Key: optBidProportion, Default: "46", Description: "The proportion of bids among the events."},
	{Key: optPersonAvgSize, Default: "200b", Description: "The average size of a person event."},
	{Key: optAuctionAvgSize, Default: "500b", Description: "The average size of an auction event."},
	{Key: optBidAvgSize, Default: "100b", Description: "The average size of a bid event."},
	{Key: optHotAuctions, Default: "2", Description: "Of this many bids, all but one go to a hot auction."},
	{Key: optHotBidders, Default: "4", Description: "Of this many bids, all but one come from a hot bidder."},
	{Key: optHotSellers, Default: "4", Description: "Of this many auctions, all but one come from a hot seller."},
	{Key: optBaseTime, Default: "0", Description: "The event time of the first event in milliseconds since the epoch; 0 is the time the table is read."},
	{Key: optMaxEmitSpeed, Default: "true", Description: "Emit events as fast as possible; false emits each when the wall clock reaches its event time (from the start)."},
	{Key: optSeed, Default: "0", Description: "The seed of the random values (Sluice's: Flink's are not reproducible)."},
}

func init() { connector.Register(factory{}) }

// factory is the connector.Factory of 'nexmark'.
type factory struct{}

// Name implements connector.Factory.
func (factory) Name() string { return name }

// Options implements connector.Factory.
func (factory) Options() []connector.OptionSpec { return options }

// Validate implements connector.Factory.
func (factory) Validate(t *catalog.Table) error {
	_, err := parse(t)
	return err
}

// Accepts implements connector.Factory; nexmark tables cannot be written.
func (factory) Accepts(*catalog.Table) connector.ChangelogMode { return connector.InsertOnly }

// Produces implements connector.Factory: events are appends.
func (factory) Produces(*catalog.Table) connector.ChangelogMode { return connector.InsertOnly }

// Bounded implements connector.Bounded: a table with 'events.num' ends.
func (factory) Bounded(t *catalog.Table) bool {
	cfg, err := parse(t)
	return err == nil && cfg.gen.NumEvents > 0
}

// NewSink implements connector.Factory: nexmark tables cannot be written.
func (factory) NewSink(*catalog.Table, connector.Env) (connector.SinkTarget, error) {
	return nil, connector.SourceOnly(name)
}

// NewSource implements connector.Factory. A base time of 0 becomes the
// current time, in whole seconds, now.
func (factory) NewSource(t *catalog.Table, spec connector.SourceSpec) (connector.ScanSource, error) {
	cfg, err := parse(t)
	if err != nil {
		return nil, err
	}
	if err := connector.CheckNoMetadata(t, false); err != nil {
		return nil, err
	}
	if cfg.gen.BaseTime == 0 {
		cfg.gen.BaseTime = time.Now().Truncate(time.Second).UnixMilli()
	}
	if spec.Columns != nil {
		cfg.project(spec.Columns)
	}
	return &scanSource{cfg: cfg, spec: spec}, nil
}

// ProjectionPushDown implements connector.ProjectionPushDown: a table
// fills only the columns a query reads.
func (factory) ProjectionPushDown(*catalog.Table) (projects, readsMetadata bool) {
	return true, false
}

// project makes the chunks hold only the table's columns cols, in that
// order.
func (c *config) project(cols []int) {
	at := map[int]int{}
	ts := make([]types.Type, len(cols))
	for p, col := range cols {
		at[col] = p
		ts[p] = c.colTypes[col]
	}
	var fields []field
	for _, f := range c.fields {
		if p, ok := at[f.col]; ok {
			fields = append(fields, field{col: p, fill: f.fill, extra: f.extra})
		}
	}
	c.fields, c.colTypes = fields, ts
}

// config is a validated nexmark table.
type config struct {
	gen  Config
	kind Kind
	// maxSpeed is 'max-emit-speed'.
	maxSpeed bool
	colTypes []types.Type
	// fields fill the physical columns, by column index.
	fields []field
}

// field fills column col of a chunk from an event.
type field struct {
	col  int
	fill fill
	// extra is set for the 'extra' column.
	extra bool
}

type fill func(v *types.Vector, ev *Event)

// column is a column of a kind's table: its name, its type (nullable; NOT
// NULL is allowed too, as the generator makes no NULL) and how it is filled.
type column struct {
	name string
	typ  types.Type
	fill fill
}

var timestamp3 = types.TimestampType(3)

// millis stores a time in milliseconds as a TIMESTAMP(3) value.
func millis(v *types.Vector, ms int64) { v.AppendInt(ms * 1000) }

// columns are the columns of each kind's table, in the order of the
// fields of Flink's person, auction and bid ROW types.
var columns = [...][]column{
	PersonKind: {
		{"id", types.BigIntType, func(v *types.Vector, e *Event) { v.AppendInt(e.Person.ID) }},
		{"name", types.StringType, func(v *types.Vector, e *Event) { v.AppendString(e.Person.Name) }},
		{"emailAddress", types.StringType, func(v *types.Vector, e *Event) { v.AppendString(e.Person.EmailAddress) }},
		{"creditCard", types.StringType, func(v *types.Vector, e *Event) { v.AppendString(e.Person.CreditCard) }},
		{"city", types.StringType, func(v *types.Vector, e *Event) { v.AppendString(e.Person.City) }},
		{"state", types.StringType, func(v *types.Vector, e *Event) { v.AppendString(e.Person.State) }},
		{"dateTime", timestamp3, func(v *types.Vector, e *Event) { millis(v, e.Person.DateTime) }},
		{"extra", types.StringType, func(v *types.Vector, e *Event) { v.AppendString(e.Person.Extra) }},
	},
	AuctionKind: {
		{"id", types.BigIntType, func(v *types.Vector, e *Event) { v.AppendInt(e.Auction.ID) }},
		{"itemName", types.StringType, func(v *types.Vector, e *Event) { v.AppendString(e.Auction.ItemName) }},
		{"description", types.StringType, func(v *types.Vector, e *Event) { v.AppendString(e.Auction.Description) }},
		{"initialBid", types.BigIntType, func(v *types.Vector, e *Event) { v.AppendInt(e.Auction.InitialBid) }},
		{"reserve", types.BigIntType, func(v *types.Vector, e *Event) { v.AppendInt(e.Auction.Reserve) }},
		{"dateTime", timestamp3, func(v *types.Vector, e *Event) { millis(v, e.Auction.DateTime) }},
		{"expires", timestamp3, func(v *types.Vector, e *Event) { millis(v, e.Auction.Expires) }},
		{"seller", types.BigIntType, func(v *types.Vector, e *Event) { v.AppendInt(e.Auction.Seller) }},
		{"category", types.BigIntType, func(v *types.Vector, e *Event) { v.AppendInt(e.Auction.Category) }},
		{"extra", types.StringType, func(v *types.Vector, e *Event) { v.AppendString(e.Auction.Extra) }},
	},
	BidKind: {
		{"auction", types.BigIntType, func(v *types.Vector, e *Event) { v.AppendInt(e.Bid.Auction) }},
		{"bidder", types.BigIntType, func(v *types.Vector, e *Event) { v.AppendInt(e.Bid.Bidder) }},
		{"price", types.BigIntType, func(v *types.Vector, e *Event) { v.AppendInt(e.Bid.Price) }},
		{"channel", types.StringType, func(v *types.Vector, e *Event) { v.AppendString(e.Bid.Channel) }},
		{"url", types.StringType, func(v *types.Vector, e *Event) { v.AppendString(e.Bid.URL) }},
		{"dateTime", timestamp3, func(v *types.Vector, e *Event) { millis(v, e.Bid.DateTime) }},
		{"extra", types.StringType, func(v *types.Vector, e *Event) { v.AppendString(e.Bid.Extra) }},
	},
}

// parse validates t's options and columns.
func parse(t *catalog.Table) (*config, error) {
	o := connector.Options(t.Options)
	if err := connector.CheckRequired(o, options); err != nil {
		return nil, err
	}
	var supported []string
	for _, s := range options {
		supported = append(supported, s.Key)
	}
	if err := connector.CheckSupported(name, o, supported); err != nil {
		return nil, err
	}
	c := &config{gen: DefaultConfig(), colTypes: t.Schema().Types()}
	kind, err := o.Enum(optKind, "", []string{"person", "auction", "bid"})
	if err != nil {
		return nil, err
	}
	c.kind = Kind(slices.Index([]string{"person", "auction", "bid"}, kind))
	g := &c.gen
	ints := []struct {
		key string
		dst *int64
		min int64
	}{
		{optFirstEventRate, &g.FirstEventRate, 1},
		{optEventsNum, &g.NumEvents, 0},
		{optPersonProportion, &g.PersonProportion, 0},
		{optAuctionProportion, &g.AuctionProportion, 0},
		{optBidProportion, &g.BidProportion, 0},
		{optHotAuctions, &g.HotAuctionRatio, 1},
		{optHotBidders, &g.HotBiddersRatio, 1},
		{optHotSellers, &g.HotSellersRatio, 1},
		{optBaseTime, &g.BaseTime, 0},
		{optSeed, &g.Seed, -1 << 63},
	}
	for _, f := range ints {
		n, ok, err := o.Int64(f.key)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if n < f.min {
			return nil, fmt.Errorf("Invalid value for option '%s': %d. It must be at least %d.", f.key, n, f.min)
		}
		*f.dst = n
	}
	if g.BaseTime > MaxMillis {
		return nil, fmt.Errorf("Invalid value for option '%s': %d. It must be at most %d (%s), the last millisecond a TIMESTAMP holds.",
			optBaseTime, g.BaseTime, MaxMillis, time.UnixMilli(MaxMillis).UTC().Format("2006-01-02 15:04:05.000"))
	}
	if n, ok, err := o.Int64(optNextEventRate); err != nil {
		return nil, err
	} else if ok && n != g.FirstEventRate {
		return nil, fmt.Errorf("Invalid value for option '%s': %d. Sluice's nexmark source has one rate, 'first-event.rate' (%d), as Flink's generator, which uses only that one.", optNextEventRate, n, g.FirstEventRate)
	}
	if g.PersonProportion+g.AuctionProportion+g.BidProportion == 0 {
		return nil, fmt.Errorf("The options '%s', '%s' and '%s' are all 0: there would be no events.", optPersonProportion, optAuctionProportion, optBidProportion)
	}
	for _, f := range []struct {
		key string
		dst *int64
	}{{optPersonAvgSize, &g.AvgPersonSize}, {optAuctionAvgSize, &g.AvgAuctionSize}, {optBidAvgSize, &g.AvgBidSize}} {
		v, ok := o[f.key]
		if !ok {
			continue
		}
		n, err := parseMemorySize(v)
		if err != nil {
			return nil, connector.ParseError(f.key, v)
		}
		if n > maxAvgSize {
			return nil, fmt.Errorf("Invalid value for option '%s': %s. Sluice's nexmark events may be at most %d bytes on average.", f.key, v, maxAvgSize)
		}
		*f.dst = n
	}
	if c.maxSpeed, err = o.Bool(optMaxEmitSpeed, true); err != nil {
		return nil, err
	}
	return c, c.bindColumns(t)
}

// bindColumns checks t's physical columns against the kind's and
// records how to fill them.
func (c *config) bindColumns(t *catalog.Table) error {
	cols := columns[c.kind]
	for i, col := range t.Columns {
		if !col.IsPhysical() {
			continue
		}
		j := slices.IndexFunc(cols, func(k column) bool { return k.name == col.Name })
		if j < 0 {
			var names []string
			for _, k := range cols {
				names = append(names, k.name)
			}
			return fmt.Errorf("Column '%s' of table '%s' is no field of a Nexmark %s: the columns of 'kind' = '%s' are %s.", col.Name, t.Name, c.kind, c.kind, strings.Join(names, ", "))
		}
		want := cols[j].typ
		if got := col.Type.Plain().Nullable(); got != want {
			return fmt.Errorf("Column '%s' of table '%s' has type %s; a Nexmark %s's %s is %s.", col.Name, t.Name, col.Type.Plain(), c.kind, col.Name, want)
		}
		c.fields = append(c.fields, field{col: i, fill: cols[j].fill, extra: col.Name == "extra"})
	}
	return nil
}

// parseMemorySize reads a size as Flink's MemorySize does: a number of
// bytes, optionally followed by a unit (b, k, kb, m, mb, g, gb, ...,
// in any case; binary multiples).
func parseMemorySize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if i < 0 {
		i = len(s)
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, err
	}
	var shift uint
	switch strings.ToLower(strings.TrimSpace(s[i:])) {
	case "", "b", "bytes":
	case "k", "kb", "kibibytes":
		shift = 10
	case "m", "mb", "mebibytes":
		shift = 20
	case "g", "gb", "gibibytes":
		shift = 30
	default:
		return 0, fmt.Errorf("unknown unit in %q", s)
	}
	if n > maxAvgSize {
		return n, nil // refused by the caller, before the shift could overflow
	}
	return n << shift, nil
}
