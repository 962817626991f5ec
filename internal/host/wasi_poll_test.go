package host

import (
	"bytes"
	"context"
	"encoding/binary"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sub is one poll_oneoff subscription, as a test writes it.
type sub struct {
	userdata uint64
	tag      byte
	clock    uint32 // clock id, or the fd for an fd subscription
	timeout  uint64
	flags    uint16
}

func clockSub(userdata uint64, id uint32, timeout time.Duration) sub {
	return sub{userdata: userdata, tag: eventtypeClock, clock: id, timeout: uint64(timeout)}
}

func (g *wasiGuest) subs(t testing.TB, ptr uint32, subs ...sub) {
	t.Helper()
	b := make([]byte, subscriptionSize*len(subs))
	for i, s := range subs {
		e := b[i*subscriptionSize:]
		binary.LittleEndian.PutUint64(e, s.userdata)
		e[8] = s.tag
		binary.LittleEndian.PutUint32(e[16:], s.clock)
		binary.LittleEndian.PutUint64(e[24:], s.timeout)
		binary.LittleEndian.PutUint16(e[40:], s.flags)
	}
	require.True(t, g.mem().Write(ptr, b))
}

// event is one poll_oneoff event, as a test reads it.
type event struct {
	userdata uint64
	errno    errno
	tag      byte
	nbytes   uint64
	flags    uint16
}

// poll calls poll_oneoff with the subscriptions at 0, events at 0x8000 and
// the count at 0xff00, and returns the events.
func (g *wasiGuest) poll(t testing.TB, c *Call, subs ...sub) ([]event, error) {
	t.Helper()
	const in, out, count = 0, 0x8000, 0xff00
	g.subs(t, in, subs...)
	g.fill(t, out, uint32(eventSize*len(subs)), 0xee)
	e, err := g.call(c, "poll_oneoff", in, out, uint64(len(subs)), count)
	if err != nil {
		return nil, err
	}
	require.Equal(t, errnoSuccess, e)
	n := g.u32(t, count)
	require.LessOrEqual(t, n, uint32(len(subs)))
	evs := make([]event, n)
	for i := range evs {
		b := g.bytes(t, out+uint32(i)*eventSize, eventSize)
		evs[i] = event{binary.LittleEndian.Uint64(b), errno(binary.LittleEndian.Uint16(b[8:])), b[10],
			binary.LittleEndian.Uint64(b[16:]), binary.LittleEndian.Uint16(b[24:])}
	}
	rest := g.bytes(t, out+n*eventSize, eventSize*(uint32(len(subs))-n))
	assert.Equal(t, bytes.Repeat([]byte{0xee}, len(rest)), rest, "wrote past the events it reported")
	return evs, nil
}

func TestWASIPollSleeps(t *testing.T) {
	g := newWASIGuest(t)
	c := wasiCallState(t)

	start := time.Now()
	evs, err := g.poll(t, c, clockSub(7, clockMonotonic, 3*time.Millisecond), clockSub(8, clockRealtime, time.Hour))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), 3*time.Millisecond, "slept for the earliest clock")
	assert.Equal(t, []event{{userdata: 7, tag: eventtypeClock}}, evs, "only the clock that is due")

	// An absolute deadline on the monotonic clock, as wasi-libc's
	// clock_nanosleep(TIMER_ABSTIME) passes it.
	_, err = g.call(c, "clock_time_get", clockMonotonic, 0, 0xfff0)
	require.NoError(t, err)
	abs := sub{userdata: 9, tag: eventtypeClock, clock: clockMonotonic, timeout: g.u64(t, 0xfff0) + uint64(2*time.Millisecond), flags: subclockAbstime}
	start = time.Now()
	evs, err = g.poll(t, c, abs)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), time.Millisecond)
	assert.Equal(t, []event{{userdata: 9, tag: eventtypeClock}}, evs)

	past := sub{userdata: 10, tag: eventtypeClock, clock: clockRealtime, timeout: uint64(time.Now().Add(-time.Hour).UnixNano()), flags: subclockAbstime}
	evs, err = g.poll(t, c, past, clockSub(11, clockMonotonic, 0))
	require.NoError(t, err)
	assert.Equal(t, []event{{userdata: 10, tag: eventtypeClock}, {userdata: 11, tag: eventtypeClock}}, evs, "both due at once")
}

// TestWASIPollStdio: the standard streams are ready at once, so a poll that
// has one never sleeps (the 1 s deadline would stop a sleep of an hour);
// other descriptors answer EBADF in their event.
func TestWASIPollStdio(t *testing.T) {
	g := newWASIGuest(t)
	c := wasiCallState(t)
	evs, err := g.poll(t, c,
		clockSub(1, clockMonotonic, time.Hour),
		sub{userdata: 2, tag: eventtypeFdRead, clock: 0},
		sub{userdata: 3, tag: eventtypeFdWrite, clock: 1},
		sub{userdata: 4, tag: eventtypeFdWrite, clock: 2},
		sub{userdata: 5, tag: eventtypeFdRead, clock: 7},
		sub{userdata: 6, tag: eventtypeFdWrite, clock: 0},
		sub{userdata: 7, tag: eventtypeFdRead, clock: 1},
	)
	require.NoError(t, err)
	assert.Equal(t, []event{
		{userdata: 2, tag: eventtypeFdRead, flags: eventrwflagsHangup},
		{userdata: 3, tag: eventtypeFdWrite, nbytes: stdoutRoom},
		{userdata: 4, tag: eventtypeFdWrite, nbytes: stdoutRoom},
		{userdata: 5, tag: eventtypeFdRead, errno: errnoBadf},
		{userdata: 6, tag: eventtypeFdWrite, errno: errnoBadf},
		{userdata: 7, tag: eventtypeFdRead, errno: errnoBadf},
	}, evs)
}

func TestWASIPollRefusals(t *testing.T) {
	g := newWASIGuest(t)
	c := wasiCallState(t)
	g.subs(t, 0, clockSub(1, clockMonotonic, 0), clockSub(2, clockMonotonic, 0))
	tests := []struct {
		name string
		args []uint64
		want errno
	}{
		{"no subscriptions", []uint64{0, 0x8000, 0, 0xff00}, errnoInval},
		{"over the cap", []uint64{0, 0x8000, WASIMaxSubscriptions + 1, 0xff00}, errnoInval},
		{"2^28, whose size overflows 32 bits", []uint64{0, 0x8000, 1 << 28, 0xff00}, errnoInval},
		{"2^32-1", []uint64{0, 0x8000, 0xffffffff, 0xff00}, errnoInval},
		{"subscriptions outside", []uint64{guestMemory - 50, 0x8000, 2, 0xff00}, errnoFault},
		{"events outside", []uint64{0, guestMemory - 40, 2, 0xff00}, errnoFault},
		{"count outside", []uint64{0, 0x8000, 2, badPtr}, errnoFault},
		{"the cap, the last event outside", []uint64{0, guestMemory - WASIMaxSubscriptions*eventSize + 1, WASIMaxSubscriptions, 0xff00}, errnoFault},
	}
	for _, tt := range tests {
		e, err := g.call(c, "poll_oneoff", tt.args...)
		require.NoError(t, err)
		assert.Equal(t, tt.want, e, tt.name)
	}

	bads := []sub{
		{userdata: 1, tag: 3},
		{userdata: 1, tag: eventtypeClock, clock: 2},
		{userdata: 1, tag: eventtypeClock, clock: clockMonotonic, flags: 2},
	}
	for _, b := range bads {
		g.subs(t, 0, sub{userdata: 9, tag: eventtypeFdWrite, clock: 1}, b)
		g.fill(t, 0x8000, 64, 0xee)
		g.fill(t, 0xff00, 4, 0xee)
		e, err := g.call(c, "poll_oneoff", 0, 0x8000, 2, 0xff00)
		require.NoError(t, err)
		assert.Equal(t, errnoInval, e, "%+v", b)
		assert.Equal(t, bytes.Repeat([]byte{0xee}, 64), g.bytes(t, 0x8000, 64), "%+v: wrote an event", b)
		assert.Equal(t, bytes.Repeat([]byte{0xee}, 4), g.bytes(t, 0xff00, 4), "%+v: wrote a count", b)
	}
}

// TestWASIPollSleepClippedByDeadline: a sleep never outlasts the budget;
// reaching the deadline stops the guest, where Go's time.Sleep would
// otherwise have slept for ten seconds.
func TestWASIPollSleepClippedByDeadline(t *testing.T) {
	g := newWASIGuest(t)
	c := wasiCallState(t)
	c.Deadline = time.Now().Add(30 * time.Millisecond)
	start := time.Now()
	_, err := g.poll(t, c, clockSub(1, clockMonotonic, 10*time.Second))
	assertInterrupted(t, err, "sleep", true)
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.LessOrEqual(t, c.Remaining(), time.Duration(0))
}

// TestWASIPollHonoursCaller: a caller that gives up ends the sleep.
func TestWASIPollHonoursCaller(t *testing.T) {
	g := newWASIGuest(t)
	c := wasiCallState(t)
	g.subs(t, 0, clockSub(1, clockMonotonic, 10*time.Second))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := g.callCtx(ctx, c, "poll_oneoff", 0, 0x8000, 1, 0xff00)
	assertInterrupted(t, err, "sleep", false)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}
