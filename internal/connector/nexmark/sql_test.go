package nexmark_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/connector/nexmark"
)

const bidColumns = `auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR`

func TestOptionsRefused(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ cols, opts, want string }{
		{bidColumns, ``, "Missing required options are:\n\nkind"},
		{bidColumns, `, 'kind' = 'bids'`, "Could not parse value 'bids' for key 'kind'"},
		{bidColumns, `, 'kind' = 'bid', 'rate.shape' = 'SINE'`, "Unsupported options:\n\nrate.shape"},
		{bidColumns, `, 'kind' = 'bid', 'next-event.rate' = '5'`, "Invalid value for option 'next-event.rate': 5"},
		{bidColumns, `, 'kind' = 'bid', 'bid.hot-ratio.auctions' = '0'`, "Invalid value for option 'bid.hot-ratio.auctions': 0. It must be at least 1."},
		{bidColumns, `, 'kind' = 'bid', 'bid.avg-size' = '2gb'`, "Invalid value for option 'bid.avg-size': 2gb."},
		{bidColumns, `, 'kind' = 'auction'`, "Column 'auction' of table 'b' is no field of a Nexmark auction"},
		{`auction INT`, `, 'kind' = 'bid'`, "Column 'auction' of table 'b' has type INT; a Nexmark bid's auction is BIGINT"},
		{`url VARCHAR(10)`, `, 'kind' = 'bid'`, "Column 'url' of table 'b' has type VARCHAR(10); a Nexmark bid's url is STRING"},
	} {
		eng := sluice.NewEngine()
		_, err := eng.Execute(ctx, `CREATE TABLE b (`+c.cols+`) WITH ('connector' = 'nexmark'`+c.opts+`)`)
		eng.Close()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want %q", c.cols, c.opts, err, c.want)
		}
	}
}

// count runs a bounded COUNT query to its end and returns its last count.
func count(t *testing.T, eng *sluice.Engine, q string) int64 {
	t.Helper()
	ctx := context.Background()
	rs, err := eng.Execute(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	defer rs[0].Stream.Close()
	var last int64
	for {
		changes, ok, err := rs[0].Stream.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return last
		}
		last = changes[len(changes)-1].Row[0].I
	}
}

// Tables of two kinds with the same options read one stream: every bid's
// auction joins the auction of that id, and the counts are the
// generator's.
func TestTablesShareTheStream(t *testing.T) {
	ctx := context.Background()
	eng := sluice.NewEngine()
	defer eng.Close()
	if err := eng.Config().Set("parallelism.default", "2"); err != nil {
		t.Fatal(err)
	}
	opts := `'connector' = 'nexmark', 'events.num' = '20000', 'base-time' = '1700000000000', 'seed' = '7'`
	if _, err := eng.Execute(ctx, `CREATE TABLE bid (`+bidColumns+`, WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND) WITH (`+opts+`, 'kind' = 'bid');
		CREATE TABLE auction (id BIGINT, dateTime TIMESTAMP(3), category BIGINT, WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND) WITH (`+opts+`, 'kind' = 'auction')`); err != nil {
		t.Fatal(err)
	}
	c := nexmark.DefaultConfig()
	c.NumEvents, c.BaseTime, c.Seed = 20000, 1_700_000_000_000, 7
	var bids, joined int64
	auctionAt := map[int64]int64{}
	var bidList []nexmark.Bid
	for i := range 2 {
		g := nexmark.NewGenerator(c, i, 2)
		var ev nexmark.Event
		for g.NextAny(&ev) {
			switch ev.Kind {
			case nexmark.AuctionKind:
				auctionAt[ev.Auction.ID] = ev.Auction.DateTime
			case nexmark.BidKind:
				bids++
				bidList = append(bidList, ev.Bid)
			}
		}
	}
	for _, b := range bidList {
		if ts, ok := auctionAt[b.Auction]; ok && b.DateTime >= ts {
			joined++
		}
	}
	if got := count(t, eng, `SELECT COUNT(*) FROM bid`); got != bids {
		t.Errorf("COUNT(*) of bids: %v, want %d", got, bids)
	}
	if got := count(t, eng, `SELECT COUNT(*) FROM bid B JOIN auction A ON B.auction = A.id AND B.dateTime BETWEEN A.dateTime AND A.dateTime + INTERVAL '1' HOUR`); got != joined {
		t.Errorf("bids joined to their auctions: %v, want %d", got, joined)
	}
}

// With 'max-emit-speed' false, an event is not emitted before the wall
// clock has gone as far from the start as its event time from the first
// event's: 300 events at 1000 a second take at least 0.299 s.
func TestPaced(t *testing.T) {
	ctx := context.Background()
	eng := sluice.NewEngine()
	defer eng.Close()
	if _, err := eng.Execute(ctx, `CREATE TABLE bid (`+bidColumns+`) WITH ('connector' = 'nexmark', 'kind' = 'bid',
		'events.num' = '300', 'first-event.rate' = '1000', 'max-emit-speed' = 'false')`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if got := count(t, eng, `SELECT COUNT(*) FROM bid`); got != 300*46/50 {
		t.Errorf("COUNT(*): %d, want %d", got, 300*46/50)
	}
	if d := time.Since(start); d < 299*time.Millisecond {
		t.Errorf("300 events at 1000 a second came in %v", d)
	}
}

// Event times past the last TIMESTAMP are refused, not wrapped: at once
// for a base time beyond it, when the stream gets there otherwise.
func TestTimesPastTimestampRange(t *testing.T) {
	ctx := context.Background()
	eng := sluice.NewEngine()
	defer eng.Close()
	_, err := eng.Execute(ctx, `CREATE TABLE b (`+bidColumns+`) WITH ('connector' = 'nexmark', 'kind' = 'bid', 'base-time' = '253402300800000')`)
	if err == nil || !strings.Contains(err.Error(), "Invalid value for option 'base-time': 253402300800000. It must be at most 253402300799999 (9999-12-31 23:59:59.999)") {
		t.Fatalf("base time past the range: %v", err)
	}
	if _, err := eng.Execute(ctx, `CREATE TABLE b (`+bidColumns+`) WITH ('connector' = 'nexmark', 'kind' = 'bid',
		'base-time' = '253402300700000', 'first-event.rate' = '1', 'events.num' = '100000')`); err != nil {
		t.Fatal(err)
	}
	rs, err := eng.Execute(ctx, `SELECT MAX(dateTime) FROM b`)
	if err != nil {
		t.Fatal(err)
	}
	defer rs[0].Stream.Close()
	for {
		_, ok, err := rs[0].Stream.Next(ctx)
		if err != nil {
			if !strings.Contains(err.Error(), "the last time a TIMESTAMP holds") {
				t.Fatalf("got %v", err)
			}
			return
		}
		if !ok {
			t.Fatal("the query ended without an error")
		}
	}
}
