package bench

import (
	"strconv"
	"strings"
	"time"

	"github.com/sluicesql/sluice/internal/connector/nexmark"
)

// handOut is where a hand-written program's result rows go: counted, and
// kept as text (columns separated by '|', times in milliseconds, decimals
// unscaled) when keep is set, for the tests to compare with Sluice's.
type handOut struct {
	rows int64
	keep bool
	list []string
}

// add counts a row, formatting it only when rows are kept; programs that
// emit many rows call it only when rows are kept and count them themselves
// otherwise, so that measuring does not format anything.
func (o *handOut) add(cols ...func(*strings.Builder)) {
	o.rows++
	if !o.keep {
		return
	}
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteByte('|')
		}
		c(&b)
	}
	o.list = append(o.list, b.String())
}

func num(n int64) func(*strings.Builder) {
	return func(b *strings.Builder) { b.WriteString(strconv.FormatInt(n, 10)) }
}

func text(s string) func(*strings.Builder) {
	return func(b *strings.Builder) { b.WriteString(s) }
}

// handQ1 is q1 (and q1-decimal18, which holds the same values): 0.908 *
// price as DECIMAL(23, 3), unscaled.
func handQ1(c nexmark.Config, out *handOut) {
	g, ev := nexmark.NewGenerator(c, 0, 1), &nexmark.Event{}
	for g.Next(nexmark.BidKind, ev) {
		b := &ev.Bid
		euros := 908 * b.Price
		if out.keep {
			out.add(num(b.Auction), num(b.Bidder), num(euros), num(b.DateTime), text(b.Extra))
		} else {
			out.rows++
		}
	}
}

// handQueries are hand-written Go programs doing the work of some queries
// on the same generated events as the nexmark tables: plain Go code over
// the generator, without Sluice's runtime. They run one generator, the
// stream of a source at parallelism 1.
var handQueries = map[string]func(c nexmark.Config, out *handOut){
	"q0": func(c nexmark.Config, out *handOut) {
		g, ev := nexmark.NewGenerator(c, 0, 1), &nexmark.Event{}
		for g.Next(nexmark.BidKind, ev) {
			b := &ev.Bid
			if out.keep {
				out.add(num(b.Auction), num(b.Bidder), num(b.Price), num(b.DateTime), text(b.Extra))
			} else {
				out.rows++
			}
		}
	},
	"q1":           handQ1,
	"q1-decimal18": handQ1,
	"q2": func(c nexmark.Config, out *handOut) {
		g, ev := nexmark.NewGenerator(c, 0, 1), &nexmark.Event{}
		for g.Next(nexmark.BidKind, ev) {
			if b := &ev.Bid; b.Auction%123 == 0 {
				if out.keep {
					out.add(num(b.Auction), num(b.Price))
				} else {
					out.rows++
				}
			}
		}
	},
	"q17": handQ17,
	"x-group-agg": func(c nexmark.Config, out *handOut) {
		type agg struct{ n, sum int64 }
		groups := map[int64]*agg{}
		g, ev := nexmark.NewGenerator(c, 0, 1), &nexmark.Event{}
		for g.Next(nexmark.BidKind, ev) {
			a := groups[ev.Bid.Auction]
			if a == nil {
				a = &agg{}
				groups[ev.Bid.Auction] = a
			}
			a.n++
			a.sum += ev.Bid.Price
		}
		for k, a := range groups {
			out.add(num(k), num(a.n), num(a.sum))
		}
	},
	"x-tumble":        handTumble,
	"x-interval-join": handIntervalJoin,
}

// watermarkDelay is the delay of the tables' watermarks (dateTime -
// INTERVAL '4' SECOND), in milliseconds.
const watermarkDelay = 4000

func handQ17(c nexmark.Config, out *handOut) {
	type key struct{ auction, day int64 }
	type agg struct{ total, r1, r2, r3, lo, hi, sum int64 }
	groups := map[key]*agg{}
	g, ev := nexmark.NewGenerator(c, 0, 1), &nexmark.Event{}
	for g.Next(nexmark.BidKind, ev) {
		b := &ev.Bid
		k := key{b.Auction, b.DateTime / (24 * 3600 * 1000)}
		a := groups[k]
		if a == nil {
			a = &agg{lo: b.Price, hi: b.Price}
			groups[k] = a
		}
		a.total++
		switch p := b.Price; {
		case p < 10000:
			a.r1++
		case p < 1000000:
			a.r2++
		default:
			a.r3++
		}
		a.lo, a.hi, a.sum = min(a.lo, b.Price), max(a.hi, b.Price), a.sum+b.Price
	}
	for k, a := range groups {
		day := time.UnixMilli(k.day * 24 * 3600 * 1000).UTC().Format("2006-01-02")
		out.add(num(k.auction), text(day), num(a.total), num(a.r1), num(a.r2), num(a.r3), num(a.lo), num(a.hi), num(a.sum/a.total), num(a.sum))
	}
}

// handTumble counts the bids and their highest price per auction in
// 10-second tumbling windows, emitting a window's groups when the
// watermark passes its end.
func handTumble(c nexmark.Config, out *handOut) {
	const size = 10_000
	type agg struct{ n, hi int64 }
	windows := map[int64]map[int64]*agg{}
	var open []int64 // window starts, in order
	flush := func(wm int64) {
		for len(open) > 0 && open[0]+size-1 <= wm {
			start := open[0]
			for auction, a := range windows[start] {
				if out.keep {
					out.add(num(auction), num(start), num(start+size), num(a.n), num(a.hi))
				} else {
					out.rows++
				}
			}
			delete(windows, start)
			open = open[1:]
		}
	}
	g, ev := nexmark.NewGenerator(c, 0, 1), &nexmark.Event{}
	for g.Next(nexmark.BidKind, ev) {
		b := &ev.Bid
		start := b.DateTime - b.DateTime%size
		w := windows[start]
		if w == nil {
			w = map[int64]*agg{}
			windows[start] = w
			open = append(open, start)
		}
		a := w[b.Auction]
		if a == nil {
			a = &agg{hi: b.Price}
			w[b.Auction] = a
		}
		a.n++
		a.hi = max(a.hi, b.Price)
		flush(b.DateTime - watermarkDelay)
	}
	flush(1<<63 - 1)
}

// handIntervalJoin joins bids with their auction when the bid is no more
// than 10 seconds after the auction, keeping each side until the
// watermark shows no later row can match it.
func handIntervalJoin(c nexmark.Config, out *handOut) {
	const upper = 10_000
	type auction struct{ at, seller, category int64 }
	type bid struct{ auction, bidder, price, at int64 }
	auctions := map[int64]auction{}
	bids := map[int64][]bid{}
	var auctionQueue []int64 // ids, in order of time
	var bidQueue []bid
	emit := func(b bid, a auction) {
		if b.at >= a.at && b.at <= a.at+upper {
			if out.keep {
				out.add(num(b.auction), num(b.bidder), num(b.price), num(b.at), num(a.seller), num(a.category))
			} else {
				out.rows++
			}
		}
	}
	g, ev := nexmark.NewGenerator(c, 0, 1), &nexmark.Event{}
	for g.NextAny(ev) {
		var now int64
		switch ev.Kind {
		case nexmark.AuctionKind:
			e := &ev.Auction
			a := auction{e.DateTime, e.Seller, e.Category}
			for _, b := range bids[e.ID] {
				emit(b, a)
			}
			auctions[e.ID] = a
			auctionQueue = append(auctionQueue, e.ID)
			now = e.DateTime
		case nexmark.BidKind:
			e := &ev.Bid
			b := bid{e.Auction, e.Bidder, e.Price, e.DateTime}
			if a, ok := auctions[b.auction]; ok {
				emit(b, a)
			}
			bids[b.auction] = append(bids[b.auction], b)
			bidQueue = append(bidQueue, b)
			now = e.DateTime
		default:
			continue
		}
		wm := now - watermarkDelay
		for len(auctionQueue) > 0 && auctions[auctionQueue[0]].at+upper < wm {
			delete(auctions, auctionQueue[0])
			auctionQueue = auctionQueue[1:]
		}
		for len(bidQueue) > 0 && bidQueue[0].at < wm {
			k := bidQueue[0].auction
			if rest := bids[k][1:]; len(rest) > 0 {
				bids[k] = rest
			} else {
				delete(bids, k)
			}
			bidQueue = bidQueue[1:]
		}
	}
}
