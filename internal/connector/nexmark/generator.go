package nexmark

import (
	"math"
	"math/bits"
	"strconv"
	"unsafe"
)

// Kind is the kind of an event, numbered as the event_type column of
// Flink's Nexmark table: 0 person, 1 auction, 2 bid.
type Kind uint8

// Event kinds.
const (
	PersonKind Kind = iota
	AuctionKind
	BidKind
)

// String names the kind as the 'kind' option spells it.
func (k Kind) String() string { return [...]string{"person", "auction", "bid"}[k] }

// Constants of the Nexmark generator (GeneratorConfig, PersonGenerator,
// AuctionGenerator and BidGenerator of the Nexmark benchmark).
const (
	// FirstPersonID, FirstAuctionID and FirstCategoryID offset the ids, so
	// that queries find matches on small data sets.
	FirstPersonID   = 1000
	FirstAuctionID  = 1000
	FirstCategoryID = 10
	numCategories   = 5
	// personIDLead and auctionIDLead are how many ids past the last one
	// generated a random reference may take (a bid for an auction that
	// does not exist yet).
	personIDLead  = 10
	auctionIDLead = 10
	// hotRatio: a hot seller, bidder or auction is the first (bidders: the
	// second) of each batch of 100 ids.
	hotRatio = 100
	// numActivePeople and numInFlightAuctions bound the random references.
	numActivePeople     = 1000
	numInFlightAuctions = 100
	minStringLength     = 3
	// hotChannelsRatio: one bid in this many comes from a channel other
	// than the four hot ones, one of numChannels.
	hotChannelsRatio = 2
	numChannels      = 10000
)

var (
	usStates    = []string{"AZ", "CA", "ID", "OR", "WA", "WY"}
	usCities    = []string{"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"}
	firstNames  = []string{"Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"}
	lastNames   = []string{"Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"}
	hotChannels = []string{"Google", "Facebook", "Baidu", "Apple"}
)

// Config is the generator's configuration: the options of Flink's Nexmark
// source, plus the seed that makes the data deterministic.
type Config struct {
	// FirstEventRate is the events per second of event time of the whole
	// stream ('first-event.rate').
	FirstEventRate int64
	// NumEvents is the number of events ('events.num'); 0 is as many as
	// the ids allow (unbounded in practice).
	NumEvents int64
	// Proportions of persons, auctions and bids among the events.
	PersonProportion, AuctionProportion, BidProportion int64
	// Average sizes in bytes that an event's 'extra' field pads it to.
	AvgPersonSize, AvgAuctionSize, AvgBidSize int64
	// HotAuctionRatio, HotBiddersRatio and HotSellersRatio: of this many
	// bids (auctions), all but one go to a hot auction or come from a hot
	// bidder (seller).
	HotAuctionRatio, HotBiddersRatio, HotSellersRatio int64
	// BaseTime is the event time of the first event, in milliseconds since
	// the epoch.
	BaseTime int64
	// Seed determines every random choice.
	Seed int64
}

// DefaultConfig returns the defaults of Flink's Nexmark source, with base
// time 0 and seed 0.
func DefaultConfig() Config {
	return Config{
		FirstEventRate: 10000, PersonProportion: 1, AuctionProportion: 3, BidProportion: 46,
		AvgPersonSize: 200, AvgAuctionSize: 500, AvgBidSize: 100,
		HotAuctionRatio: 2, HotBiddersRatio: 4, HotSellersRatio: 4,
	}
}

func (c *Config) total() int64 { return c.PersonProportion + c.AuctionProportion + c.BidProportion }

// maxEvents is the number of events of the whole stream: NumEvents, or for
// 0 the generator's bound, chosen so that byte estimates do not overflow.
func (c *Config) maxEvents() int64 {
	if c.NumEvents > 0 {
		return c.NumEvents
	}
	return math.MaxInt64 / (c.total() * max(c.AvgPersonSize, c.AvgAuctionSize, c.AvgBidSize, 1))
}

// KindOf returns the kind of the event with the given id.
func (c *Config) KindOf(id int64) Kind {
	switch rem := id % c.total(); {
	case rem < c.PersonProportion:
		return PersonKind
	case rem < c.PersonProportion+c.AuctionProportion:
		return AuctionKind
	}
	return BidKind
}

// lastPerson is the base-0 id of the last person generated at or before
// event id.
func (c *Config) lastPerson(id int64) int64 {
	epoch, offset := id/c.total(), id%c.total()
	if offset >= c.PersonProportion {
		offset = c.PersonProportion - 1
	}
	return epoch*c.PersonProportion + offset
}

// lastAuction is the base-0 id of the last auction generated at or before
// event id.
func (c *Config) lastAuction(id int64) int64 {
	epoch, offset := id/c.total(), id%c.total()
	switch {
	case offset < c.PersonProportion:
		epoch--
		offset = c.AuctionProportion - 1
	case offset >= c.PersonProportion+c.AuctionProportion:
		offset = c.AuctionProportion - 1
	default:
		offset -= c.PersonProportion
	}
	return epoch*c.AuctionProportion + offset
}

// Person is a person event.
type Person struct {
	ID                                          int64
	Name, EmailAddress, CreditCard, City, State string
	// DateTime is the event time in milliseconds since the epoch.
	DateTime int64
	Extra    string
}

// Auction is an auction event.
type Auction struct {
	ID                    int64
	ItemName, Description string
	InitialBid, Reserve   int64
	// DateTime and Expires are milliseconds since the epoch.
	DateTime, Expires int64
	Seller, Category  int64
	Extra             string
}

// Bid is a bid event.
type Bid struct {
	Auction, Bidder, Price int64
	Channel, URL           string
	// DateTime is milliseconds since the epoch.
	DateTime int64
	Extra    string
}

// Event is one generated event; of Person, Auction and Bid only the one of
// its Kind is set.
type Event struct {
	Kind    Kind
	ID      int64
	Person  Person
	Auction Auction
	Bid     Bid
}

// Generator produces the events of one of the generators a stream is split
// into, as Flink's source splits it among its parallel instances: each
// generator has a contiguous range of event ids and a timeline of its own
// starting at the base time, at its share of the rate.
type Generator struct {
	cfg   Config
	total int64
	// delayUs is the event time between two events of this generator.
	delayUs float64
	// first is the first event id, count the number of events.
	first, count int64
	// produced is how many events of the range have been produced or
	// skipped: the next event's number.
	produced int64
	// urls and channels are the channels' URLs and names, made when
	// first used.
	urls, channels []string
	rnd            rng
	// noExtra leaves the events' Extra empty (OmitExtra).
	noExtra bool
}

// OmitExtra makes the generator leave every event's Extra empty, for a
// reader that does not use it: it is the costliest field and drawn last,
// so the other fields are the same.
func (g *Generator) OmitExtra() { g.noExtra = true }

// NewGenerator returns generator i of n of the stream c describes, which
// must be valid (see Validate).
func NewGenerator(c Config, i, n int) *Generator {
	maxEvents := c.maxEvents()
	sub := maxEvents / int64(n)
	count := sub
	if i == n-1 {
		count = maxEvents - sub*int64(n-1)
	}
	return &Generator{
		cfg: c, total: c.total(), delayUs: 1e6 / float64(c.FirstEventRate) * float64(n),
		first: sub * int64(i), count: count,
		urls: make([]string, len(hotChannels)+numChannels), channels: make([]string, numChannels),
	}
}

// Produced returns how many events the generator has produced or skipped.
func (g *Generator) Produced() int64 { return g.produced }

// SetProduced makes the generator resume after n events (a restored
// position).
func (g *Generator) SetProduced(n int64) { g.produced = n }

// Count returns the number of events of the generator's range.
func (g *Generator) Count() int64 { return g.count }

// CountOf returns how many events of kind k the generator's range holds.
func (g *Generator) CountOf(k Kind) int64 {
	return g.cfg.countBefore(k, g.first+g.count) - g.cfg.countBefore(k, g.first)
}

// countBefore is the number of events of kind k among ids 0 to id-1.
func (c *Config) countBefore(k Kind, id int64) int64 {
	lo, hi := int64(0), c.PersonProportion
	switch k {
	case AuctionKind:
		lo, hi = c.PersonProportion, c.PersonProportion+c.AuctionProportion
	case BidKind:
		lo, hi = c.PersonProportion+c.AuctionProportion, c.total()
	}
	return id/c.total()*(hi-lo) + min(max(id%c.total()-lo, 0), hi-lo)
}

// MaxMillis is the last millisecond a TIMESTAMP(3) holds: 9999-12-31
// 23:59:59.999.
const MaxMillis = 253402300799999

// Representable returns how many of the generator's events have event
// times, and auctions expiry times, that a TIMESTAMP holds (Count, unless
// the stream runs past MaxMillis).
func (g *Generator) Representable() int64 {
	// An auction expires at most twice the time of this many events
	// later.
	var ahead int64
	if g.cfg.AuctionProportion > 0 {
		ahead = 2*numInFlightAuctions*g.total/g.cfg.AuctionProportion + 1
	}
	k := float64(MaxMillis-g.cfg.BaseTime)*1000/g.delayUs - float64(ahead) - 1
	if k >= float64(g.count) {
		return g.count
	}
	return max(0, int64(k))
}

// Done reports whether every event of the range has been produced.
func (g *Generator) Done() bool { return g.produced >= g.count }

// Timestamp returns the event time of event number k of the generator, in
// milliseconds since the epoch.
func (g *Generator) Timestamp(k int64) int64 {
	return g.cfg.BaseTime + int64(float64(k)*g.delayUs)/1000
}

// Next produces the next event of kind k into ev, skipping the events of
// other kinds, and reports whether there was one. Strings of ev are new
// for every event; ev may be reused.
func (g *Generator) Next(k Kind, ev *Event) bool { return g.NextBefore(k, g.count, ev) }

// NextBefore is Next among the events numbered below end: it reports
// false, having skipped up to end, when none of them is of kind k.
func (g *Generator) NextBefore(k Kind, end int64, ev *Event) bool {
	end = min(end, g.count)
	for g.produced < end {
		num := g.produced
		id := g.first + num
		g.produced++
		if g.cfg.KindOf(id) != k {
			continue
		}
		g.generate(k, id, num, ev)
		return true
	}
	return false
}

// NextAny produces the next event of any kind into ev and reports whether
// there was one.
func (g *Generator) NextAny(ev *Event) bool {
	if g.produced >= g.count {
		return false
	}
	num := g.produced
	id := g.first + num
	g.produced++
	g.generate(g.cfg.KindOf(id), id, num, ev)
	return true
}

func (g *Generator) generate(k Kind, id, num int64, ev *Event) {
	ev.Kind, ev.ID = k, id
	g.rnd.seed(g.cfg.Seed, id)
	ts := g.Timestamp(num)
	switch k {
	case PersonKind:
		g.person(id, ts, &ev.Person)
	case AuctionKind:
		g.auction(id, num, ts, &ev.Auction)
	default:
		g.bid(id, ts, &ev.Bid)
	}
}

// nextPerson is a random base-0 person id among the active people, or a
// few ahead of the last one.
func (g *Generator) nextPerson(id int64) int64 {
	people := g.cfg.lastPerson(id) + 1
	active := min(people, numActivePeople)
	return people - active + g.rnd.int63n(active+personIDLead)
}

// nextAuction is a random base-0 auction id among those likely in
// flight, or a few ahead of the last one.
func (g *Generator) nextAuction(id int64) int64 {
	last := g.cfg.lastAuction(id)
	lo := max(last-numInFlightAuctions, 0)
	return lo + g.rnd.int63n(last-lo+1+auctionIDLead)
}

func (g *Generator) person(id, ts int64, p *Person) {
	r := &g.rnd
	p.ID = g.cfg.lastPerson(id) + FirstPersonID
	p.Name = firstNames[r.intn(len(firstNames))] + " " + lastNames[r.intn(len(lastNames))]
	p.EmailAddress = r.str(7, ' ') + "@" + r.str(5, ' ') + ".com"
	var cc [19]byte
	for i := range 4 {
		n := r.intn(10000)
		if i > 0 {
			cc[i*5-1] = ' '
		}
		for j := 3; j >= 0; j-- {
			cc[i*5+j] = byte('0' + n%10)
			n /= 10
		}
	}
	p.CreditCard = string(cc[:])
	p.City = usCities[r.intn(len(usCities))]
	p.State = usStates[r.intn(len(usStates))]
	p.DateTime = ts
	size := 8 + len(p.Name) + len(p.EmailAddress) + len(p.CreditCard) + len(p.City) + len(p.State)
	if !g.noExtra {
		p.Extra = r.extra(int64(size), g.cfg.AvgPersonSize)
	}
}

func (g *Generator) auction(id, num, ts int64, a *Auction) {
	r := &g.rnd
	a.ID = g.cfg.lastAuction(id) + FirstAuctionID
	if r.int63n(g.cfg.HotSellersRatio) > 0 {
		a.Seller = g.cfg.lastPerson(id) / hotRatio * hotRatio
	} else {
		a.Seller = g.nextPerson(id)
	}
	a.Seller += FirstPersonID
	a.Category = FirstCategoryID + int64(r.intn(numCategories))
	a.InitialBid = r.price()
	// An auction lasts on average until numInFlightAuctions more auctions
	// have been generated.
	ahead := numInFlightAuctions * g.total / g.cfg.AuctionProportion
	horizon := g.Timestamp(num+ahead) - ts
	a.DateTime = ts
	a.Expires = ts + 1 + r.int63n(max(horizon*2, 1))
	a.ItemName = r.str(20, ' ')
	a.Description = r.str(100, ' ')
	a.Reserve = a.InitialBid + r.price()
	size := 8 + len(a.ItemName) + len(a.Description) + 8 + 8 + 8 + 8 + 8
	if !g.noExtra {
		a.Extra = r.extra(int64(size), g.cfg.AvgAuctionSize)
	}
}

func (g *Generator) bid(id, ts int64, b *Bid) {
	r := &g.rnd
	if r.int63n(g.cfg.HotAuctionRatio) > 0 {
		b.Auction = g.cfg.lastAuction(id) / hotRatio * hotRatio
	} else {
		b.Auction = g.nextAuction(id)
	}
	b.Auction += FirstAuctionID
	if r.int63n(g.cfg.HotBiddersRatio) > 0 {
		b.Bidder = g.cfg.lastPerson(id)/hotRatio*hotRatio + 1
	} else {
		b.Bidder = g.nextPerson(id)
	}
	// Offset as persons' ids are, so that bidders join persons (Flink's
	// BidGenerator adds the offset a second time).
	b.Bidder += FirstPersonID
	b.Price = r.price()
	if r.intn(hotChannelsRatio) > 0 {
		i := r.intn(len(hotChannels))
		b.Channel, b.URL = hotChannels[i], g.url(i)
	} else {
		c := r.intn(numChannels)
		b.Channel, b.URL = g.channel(c), g.url(len(hotChannels)+c)
	}
	b.DateTime = ts
	if !g.noExtra {
		b.Extra = r.extra(8+8+8+8, g.cfg.AvgBidSize)
	}
}

// channel returns the name of channel c (not a hot one), made once.
func (g *Generator) channel(c int) string {
	if g.channels[c] == "" {
		g.channels[c] = "channel-" + strconv.Itoa(c)
	}
	return g.channels[c]
}

// url returns the URL of hot channel i (i < 4) or of channel i-4, made
// once from the seed: a base URL of three random path elements, and for
// nine in ten of the other channels a channel_id parameter, the channel
// number with its 32 bits reversed (as a Java int, made positive).
func (g *Generator) url(i int) string {
	if u := g.urls[i]; u != "" {
		return u
	}
	var r rng
	r.seed(g.cfg.Seed, -1-int64(i))
	u := "https://www.nexmark.com/" + r.str(5, '_') + "/" + r.str(5, '_') + "/" + r.str(5, '_') + "/item.htm?query=1"
	if c := i - len(hotChannels); c >= 0 && r.intn(10) > 0 {
		v := int32(bits.Reverse32(uint32(c)))
		if v < 0 && v != math.MinInt32 {
			v = -v
		}
		u += "&channel_id=" + strconv.Itoa(int(v))
	}
	g.urls[i] = u
	return u
}

// rng is a splitmix64 generator, seeded anew for every event from the seed
// and the event's id, so that an event is the same whichever events of
// the stream are generated before it.
type rng struct{ s uint64 }

func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func (r *rng) seed(seed, id int64) { r.s = mix64(uint64(seed) ^ mix64(uint64(id)+0x9e3779b97f4a7c15)) }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return mix64(r.s)
}

// int63n returns a number in [0, n), n > 0.
func (r *rng) int63n(n int64) int64 {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int64(hi)
}

func (r *rng) intn(n int) int { return int(r.int63n(int64(n))) }

// price is a price in cents, log-uniform between $1 and $1,000,000.
func (r *rng) price() int64 {
	return int64(math.Round(math.Pow(10, float64(r.next()>>11)/(1<<53)*6) * 100))
}

// str returns a random string of 3 to maxLength-1 lowercase letters, one
// in 13 of them replaced by pad; space padding is trimmed at both ends.
func (r *rng) str(maxLength int, pad byte) string {
	var buf [128]byte
	b := buf[:minStringLength+r.intn(maxLength-minStringLength)]
	for i := range b {
		if r.intn(13) == 0 {
			b[i] = pad
		} else {
			b[i] = byte('a' + r.intn(26))
		}
	}
	for len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return string(b)
}

// extra returns random lowercase letters that bring an event of size
// bytes to avg bytes on average (±20%), or "" for an event of avg bytes
// or more.
func (r *rng) extra(size, avg int64) string {
	if size > avg {
		return ""
	}
	avg -= size
	delta := int64(math.Round(float64(avg) * 0.2))
	n := avg - delta
	if delta > 0 {
		n += r.int63n(2 * delta)
	}
	b := make([]byte, n)
	for i := 0; i < len(b); {
		x := r.next()
		// Six letters from each 64-bit draw (26^6 < 2^29).
		for j := 0; j < 6 && i < len(b); j++ {
			b[i] = byte('a' + x%26)
			x /= 26
			i++
		}
	}
	if n == 0 {
		return ""
	}
	// b is not written again: the string takes it over without a copy.
	return unsafe.String(&b[0], len(b))
}
