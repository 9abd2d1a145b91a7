package nexmark

import (
	"reflect"
	"testing"
)

func events(c Config, i, n int) []Event {
	g := NewGenerator(c, i, n)
	var out []Event
	var ev Event
	for g.NextAny(&ev) {
		out = append(out, ev)
	}
	return out
}

// The interleaving and ids of Nexmark's generator: event n is a person,
// an auction or a bid by n mod 50 (proportions 1, 3, 46); persons and
// auctions are numbered from 1000 in the order they are generated.
func TestInterleavingAndIDs(t *testing.T) {
	c := DefaultConfig()
	c.NumEvents, c.BaseTime = 1000, 1_700_000_000_000
	evs := events(c, 0, 1)
	if len(evs) != 1000 {
		t.Fatalf("%d events, want 1000", len(evs))
	}
	persons, auctions := int64(FirstPersonID), int64(FirstAuctionID)
	for n, ev := range evs {
		want := BidKind
		switch r := n % 50; {
		case r == 0:
			want = PersonKind
		case r < 4:
			want = AuctionKind
		}
		if ev.Kind != want || ev.ID != int64(n) {
			t.Fatalf("event %d: kind %v id %d, want %v", n, ev.Kind, ev.ID, want)
		}
		// first-event.rate 10000: an event every 0.1 ms.
		ts := c.BaseTime + int64(n)/10
		switch ev.Kind {
		case PersonKind:
			if ev.Person.ID != persons || ev.Person.DateTime != ts {
				t.Fatalf("event %d: person %d at %d, want %d at %d", n, ev.Person.ID, ev.Person.DateTime, persons, ts)
			}
			persons++
		case AuctionKind:
			a := ev.Auction
			if a.ID != auctions || a.DateTime != ts || a.Expires <= ts || a.Category < 10 || a.Category > 14 || a.Reserve < a.InitialBid {
				t.Fatalf("event %d: auction %+v, want id %d at %d", n, a, auctions, ts)
			}
			if a.Seller < FirstPersonID || a.Seller >= persons+personIDLead {
				t.Fatalf("event %d: seller %d, %d persons so far", n, a.Seller, persons-FirstPersonID)
			}
			auctions++
		case BidKind:
			b := ev.Bid
			if b.DateTime != ts || b.Auction < FirstAuctionID || b.Auction >= auctions+auctionIDLead || b.Price < 100 || b.Price > 100_000_000 {
				t.Fatalf("event %d: bid %+v, %d auctions so far", n, b, auctions-FirstAuctionID)
			}
		}
	}
}

// An event depends on the seed and its id only: a generator of bids alone
// produces the bids of the whole stream, and the same seed the same ones.
func TestDeterministicPerKind(t *testing.T) {
	c := DefaultConfig()
	c.NumEvents, c.Seed = 5000, 42
	all := events(c, 0, 1)
	if !reflect.DeepEqual(all, events(c, 0, 1)) {
		t.Fatal("two runs with the same seed differ")
	}
	for _, k := range []Kind{PersonKind, AuctionKind, BidKind} {
		g := NewGenerator(c, 0, 1)
		var ev Event
		i := 0
		for g.Next(k, &ev) {
			for all[i].Kind != k {
				i++
			}
			if !reflect.DeepEqual(payload(ev), payload(all[i])) {
				t.Fatalf("%v %d: %+v, the whole stream has %+v", k, ev.ID, ev, all[i])
			}
			i++
		}
	}
	c.Seed = 43
	if reflect.DeepEqual(all, events(c, 0, 1)) {
		t.Fatal("seeds 42 and 43 give the same events")
	}
}

// payload is the part of ev its kind sets.
func payload(ev Event) any {
	switch ev.Kind {
	case PersonKind:
		return ev.Person
	case AuctionKind:
		return ev.Auction
	}
	return ev.Bid
}

// Split as Flink's source splits it: contiguous id ranges, each generator
// on its own timeline at its share of the rate.
func TestSplit(t *testing.T) {
	c := DefaultConfig()
	c.NumEvents = 1001
	var ids []int64
	for i := range 3 {
		evs := events(c, i, 3)
		if want := map[int]int{0: 333, 1: 333, 2: 335}[i]; len(evs) != want {
			t.Fatalf("generator %d has %d events, want %d", i, len(evs), want)
		}
		g := NewGenerator(c, i, 3)
		counts := map[Kind]int64{}
		for _, ev := range evs {
			counts[ev.Kind]++
		}
		for k, n := range counts {
			if got := g.CountOf(k); got != n {
				t.Errorf("generator %d: CountOf(%v) = %d, want %d", i, k, got, n)
			}
		}
		for k, ev := range evs {
			ids = append(ids, ev.ID)
			var ts int64
			switch ev.Kind {
			case PersonKind:
				ts = ev.Person.DateTime
			case AuctionKind:
				ts = ev.Auction.DateTime
			default:
				ts = ev.Bid.DateTime
			}
			if want := int64(k) * 3 / 10; ts != want {
				t.Fatalf("generator %d event %d at %d ms, want %d", i, k, ts, want)
			}
		}
	}
	for i, id := range ids {
		if id != int64(i) {
			t.Fatalf("ids %v..., want 0 to 1000 in order", ids[:i+1])
		}
	}
}

// One in bid.hot-ratio.auctions bids goes to a random auction, the others
// to the hot one (the first of each 100); ratio 1 has no hot auction.
func TestHotAuctions(t *testing.T) {
	for _, ratio := range []int64{1, 2, 10} {
		c := DefaultConfig()
		c.NumEvents, c.HotAuctionRatio = 200_000, ratio
		g := NewGenerator(c, 0, 1)
		var ev Event
		bids, hot := 0, 0
		for g.Next(BidKind, &ev) {
			bids++
			if (ev.Bid.Auction-FirstAuctionID)%hotRatio == 0 {
				hot++
			}
		}
		// Random auctions are hot too one time in about 100.
		want := float64(bids) * (1 - 1/float64(ratio)) * 0.99
		if got := float64(hot); got < want || got > float64(bids)*(1-1/float64(ratio))+float64(bids)*0.02 {
			t.Errorf("ratio %d: %d of %d bids to hot auctions", ratio, hot, bids)
		}
	}
}

// A generator resumed at a position (a restored checkpoint) continues
// with the events an uninterrupted one produces.
func TestResume(t *testing.T) {
	c := DefaultConfig()
	c.NumEvents = 500
	all := events(c, 0, 1)
	g := NewGenerator(c, 0, 1)
	g.SetProduced(321)
	var ev Event
	for i := 321; g.NextAny(&ev); i++ {
		if !reflect.DeepEqual(payload(ev), payload(all[i])) {
			t.Fatalf("resumed event %d: %+v, want %+v", i, ev, all[i])
		}
	}
	s := &instance{gen: NewGenerator(c, 0, 1)}
	b, _ := (&instance{gen: g}).SnapshotState(1)
	if err := s.RestoreState(b); err != nil || s.gen.Produced() != 500 {
		t.Fatalf("restored at %d: %v", s.gen.Produced(), err)
	}
	if err := s.RestoreState([]byte{0xff}); err == nil {
		t.Fatal("a truncated state restored")
	}
}

// BenchmarkGenerator measures generating the bids of a stream, and every
// event of it, per event.
func BenchmarkGenerator(b *testing.B) {
	c := DefaultConfig()
	for _, all := range []bool{false, true} {
		name := "bids"
		if all {
			name = "all"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			c.NumEvents = int64(b.N)
			g := NewGenerator(c, 0, 1)
			var ev Event
			for {
				var ok bool
				if all {
					ok = g.NextAny(&ev)
				} else {
					ok = g.Next(BidKind, &ev)
				}
				if !ok {
					break
				}
			}
		})
	}
}

// Without Extra, every other field of every event is the same.
func TestOmitExtraKeepsTheOtherFields(t *testing.T) {
	c := DefaultConfig()
	c.NumEvents, c.Seed = 2000, 7
	all := events(c, 0, 1)
	g := NewGenerator(c, 0, 1)
	g.OmitExtra()
	var ev Event
	for i := 0; g.NextAny(&ev); i++ {
		want := all[i]
		if want.Person.Extra == "" && want.Auction.Extra == "" && want.Bid.Extra == "" {
			t.Fatalf("event %d has no Extra to omit", i)
		}
		want.Person.Extra, want.Auction.Extra, want.Bid.Extra = "", "", ""
		if !reflect.DeepEqual(ev, want) {
			t.Fatalf("event %d: %+v, with Extra %+v", i, ev, want)
		}
	}
}
