package runtime

import (
	"math"
	"slices"
	"sync"
	"time"
)

// Clock is processing time as a job reads it: what PROCTIME() returns and
// when processing-time timers ring. Jobs run on WallClock; tests run them
// on a ManualClock they advance themselves, so that nothing depends on
// the machine's speed.
type Clock interface {
	// Now returns the current processing time.
	Now() time.Time
	// AfterFunc calls f once d has passed on the clock (at once, or soon
	// after, for d <= 0). stop cancels the call and reports whether it
	// was still pending.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// WallClock is the machine's clock (time.Now and time.AfterFunc).
var WallClock Clock = wallClock{}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// ManualClock is a Clock that moves only when Advance is called. The
// functions of AfterFunc run in the goroutine that advances the clock
// past their time, in order of time (then of registration), or in the
// caller of AfterFunc when their time has already come.
type ManualClock struct {
	mu     sync.Mutex
	now    time.Time
	seq    int64
	timers []*manualTimer
}

type manualTimer struct {
	at  time.Time
	seq int64
	f   func()
}

// NewManualClock returns a ManualClock standing at start.
func NewManualClock(start time.Time) *ManualClock { return &ManualClock{now: start} }

// Now implements Clock.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc implements Clock.
func (c *ManualClock) AfterFunc(d time.Duration, f func()) func() bool {
	if d <= 0 {
		f()
		return func() bool { return false }
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &manualTimer{at: c.now.Add(d), seq: c.seq, f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		i := slices.Index(c.timers, t)
		if i < 0 {
			return false
		}
		c.timers = slices.Delete(c.timers, i, i+1)
		return true
	}
}

// Advance moves the clock d forward and runs the functions whose time has
// come, in order.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	now := c.now
	var due []*manualTimer
	c.timers = slices.DeleteFunc(c.timers, func(t *manualTimer) bool {
		if t.at.After(now) {
			return false
		}
		due = append(due, t)
		return true
	})
	c.mu.Unlock()
	slices.SortFunc(due, func(a, b *manualTimer) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return int(a.seq - b.seq)
	})
	for _, t := range due {
		t.f()
	}
}

// ProcessingTimer is implemented by operators that act when processing
// time passes (Flink's ProcessingTimeService callbacks): an operator asks
// for a call with Context.ProcessingTime.Register, and the instance calls
// OnProcessingTime from its own goroutine, between messages, once the
// clock has reached that time. now is the clock's time in microseconds
// since the epoch (the unit of TIMESTAMP_LTZ(3) values and watermarks).
type ProcessingTimer interface {
	OnProcessingTime(now int64, out Emitter) error
}

// ProcessingTimeService is an operator instance's view of processing
// time: the clock, and one pending wake-up at the earliest time the
// operator registered. Operators keep their timers themselves (in their
// state, so that checkpoints hold them) and register the earliest; a
// restored operator registers its timers again when it opens, and those
// already due ring at once, as Flink's restored processing-time timers
// do. At the end of the input the instance stops, and a pending wake-up
// never rings: Flink cancels the processing-time timers that have not
// fired when a task's input ends (FLINK-14231).
type ProcessingTimeService struct {
	clock Clock
	job   *Job
	// rang is signalled when the wake-up rings; the instance's loop
	// receives it.
	rang chan struct{}

	// pending and at are the wake-up scheduled, owned by the instance's
	// goroutine.
	pending bool
	at      int64
	stop    func() bool

	// mu orders a ring against close.
	mu     sync.Mutex
	closed bool
}

// NewProcessingTimeService returns the service of an operator instance
// over clock (nil: WallClock), for job (nil outside a running job, as in
// an operator's unit test, which calls OnProcessingTime itself).
func NewProcessingTimeService(clock Clock, job *Job) *ProcessingTimeService {
	if clock == nil {
		clock = WallClock
	}
	return &ProcessingTimeService{clock: clock, job: job, rang: make(chan struct{}, 1)}
}

// Now returns the current processing time in microseconds since the epoch.
func (s *ProcessingTimeService) Now() int64 { return s.clock.Now().UnixMicro() }

// Register asks for the operator's OnProcessingTime once the clock
// reaches t (microseconds since the epoch). Only the earliest time
// registered and not yet rung is kept: the operator registers its next
// timer again when it is called.
func (s *ProcessingTimeService) Register(t int64) {
	if s.pending && s.at <= t {
		return
	}
	if s.pending {
		s.stop()
	}
	s.pending, s.at = true, t
	// A time beyond the 292 years a Duration holds waits that long.
	wait := min(t-s.Now(), int64(math.MaxInt64/time.Microsecond))
	s.stop = s.clock.AfterFunc(time.Duration(wait)*time.Microsecond, s.ring)
}

// Passes reports whether processing time passes by itself, as on the
// wall clock, so that what waits for it comes without more input; a
// ManualClock moves only when its caller advances it.
func (s *ProcessingTimeService) Passes() bool {
	_, manual := s.clock.(*ManualClock)
	return !manual
}

// Next returns the time of the pending wake-up, if any.
func (s *ProcessingTimeService) Next() (int64, bool) { return s.at, s.pending }

// ring tells the instance that the wake-up is due. It counts as a message
// in flight until the instance has handled it, so that a job is not quiet
// while a due timer has yet to fire.
func (s *ProcessingTimeService) ring() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if s.job != nil {
		s.job.inflight.Add(1)
	}
	select {
	case s.rang <- struct{}{}:
		if s.job != nil {
			s.job.progress.Add(1)
		}
	default:
		if s.job != nil {
			s.job.inflight.Add(-1)
		}
	}
}

// Fire calls t's OnProcessingTime if the pending wake-up's time has
// come, clearing it (a ring of a wake-up replaced by an earlier one may
// come early, and then does nothing). The instance calls it when a
// wake-up rings; an operator's unit test calls it after advancing a
// ManualClock.
func (s *ProcessingTimeService) Fire(t ProcessingTimer, out Emitter) error {
	now := s.Now()
	if !s.pending || now < s.at {
		return nil
	}
	s.pending = false
	return t.OnProcessingTime(now, out)
}

// close stops the service when the instance stops: the pending wake-up
// is dropped, and a ring not yet received no longer counts as in flight.
func (s *ProcessingTimeService) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.pending {
		s.stop()
		s.pending = false
	}
	select {
	case <-s.rang:
		if s.job != nil {
			s.job.inflight.Add(-1)
		}
	default:
	}
}
