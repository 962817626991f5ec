package host

import (
	"context"
	"errors"
	"net"
	"os"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSocketBoundIsAShareOfTheDescriptorLimit(t *testing.T) {
	for _, tc := range []struct {
		limit uint64
		want  int
	}{
		{0, 1}, {3, 1}, {256, 64}, {1024, 256}, {1<<20 - 1, 1<<18 - 1},
		{1 << 40, maxSocketBound}, {^uint64(0), maxSocketBound}, // RLIM_INFINITY
	} {
		assert.Equal(t, tc.want, socketBound(tc.limit), "limit %d", tc.limit)
	}
}

// pipeDial is a dial that succeeds with one end of a pipe.
func pipeDial() (net.Conn, error) {
	a, b := net.Pipe()
	b.Close()
	return a, nil
}

// TestSocketSlotsHoldUntilClose: a socket holds its slot from the dial to
// its Close (once, however often it is closed); a failed dial gives its
// slot back at once; with every slot held, a dial waits and, when none
// comes free before its context ends, fails with the bound's words.
func TestSocketSlotsHoldUntilClose(t *testing.T) {
	s := newSocketSlots(2)
	ctx := context.Background()
	a, err := s.dial(ctx, "tcp", pipeDial)
	require.NoError(t, err)
	_, err = s.dial(ctx, "tcp", func() (net.Conn, error) { return nil, syscall.ECONNREFUSED })
	require.ErrorIs(t, err, syscall.ECONNREFUSED)
	b, err := s.dial(ctx, "tcp", pipeDial)
	require.NoError(t, err, "the failed dial gave its slot back")

	short, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	dialled := false
	_, err = s.dial(short, "tcp", func() (net.Conn, error) { dialled = true; return pipeDial() })
	var full *SocketsError
	require.ErrorAs(t, err, &full)
	assert.False(t, dialled, "no dial without a slot")
	assert.EqualError(t, err, "dial tcp: the host's bound of 2 open sockets across all probes is reached")
	assert.Equal(t, StatusLimit, dialStatus(err))

	// A waiting dial gets the slot a Close gives back.
	got := make(chan error, 1)
	go func() {
		c, err := s.dial(ctx, "tcp", pipeDial)
		if err == nil {
			c.Close()
		}
		got <- err
	}()
	require.NoError(t, a.Close())
	require.NoError(t, <-got)
	require.NoError(t, a.Close()) // again: gives back nothing more
	assert.Len(t, s.held, 1, "b holds its slot; a's came back once")
	require.NoError(t, b.Close())
	assert.Empty(t, s.held)
}

// TestSocketSlotLateDialIsTheHosts: a dial that got its slot only after
// waiting and then ran out of time failed for the host's want of sockets;
// it answers StatusLimit, not StatusTimedOut (which a v1 probe would read
// as "the service timed out": unavailable).
func TestSocketSlotLateDialIsTheHosts(t *testing.T) {
	s := newSocketSlots(1)
	held, err := s.dial(context.Background(), "tcp", pipeDial)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	waiting := &waitSeen{Context: ctx, seen: make(chan struct{})}
	go func() {
		<-waiting.seen
		held.Close()
	}()
	_, err = s.dial(waiting, "tcp", func() (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}
	})
	var full *SocketsError
	require.ErrorAs(t, err, &full)
	assert.True(t, full.Late)
	assert.Contains(t, err.Error(), "the wait for one left the dial no time")
	assert.Equal(t, StatusLimit, dialStatus(err))
	assert.Empty(t, s.held)

	// Without a wait, a timeout is the peer's.
	_, err = s.dial(ctx, "tcp", func() (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}
	})
	assert.Equal(t, StatusTimedOut, dialStatus(err))
}

// TestSocketSlotOfADroppedConnComesBack: a socket dropped without Close
// (its descriptor closed by the net package's cleanup) gives its slot
// back once it is collected, rather than losing it for good.
func TestSocketSlotOfADroppedConnComesBack(t *testing.T) {
	s := newSocketSlots(1)
	_, err := s.dial(context.Background(), "tcp", pipeDial)
	require.NoError(t, err)
	require.Len(t, s.held, 1)
	assert.Eventually(t, func() bool {
		runtime.GC()
		return len(s.held) == 0
	}, 10*time.Second, 10*time.Millisecond)
}

func TestDialStatusOfAHostOutOfDescriptors(t *testing.T) {
	for _, err := range []error{
		&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("socket", syscall.EMFILE)},
		&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("socket", syscall.ENFILE)},
		&net.OpError{Op: "dial", Net: "tcp", Err: &SocketsError{Bound: 3}},
		// Every ephemeral port in use: connect's EADDRNOTAVAIL.
		&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.EADDRNOTAVAIL)},
	} {
		assert.Equal(t, StatusLimit, dialStatus(err), "%v", err)
	}
	assert.Equal(t, StatusUnreachable, dialStatus(errors.New("no route")))
}

// TestCallsWhenTheHostIsOutOfSockets: with every socket slot of the
// process held, gate.connect and gate.http answer StatusLimit with the
// bound in gate.last_error, and gate.dial, which has no code for it in
// ABI v1, ends the run as an error naming the bound rather than answer
// a "no" that a probe would read as unavailable.
func TestCallsWhenTheHostIsOutOfSockets(t *testing.T) {
	full := newSocketSlots(1)
	held, err := full.dial(context.Background(), "tcp", pipeDial)
	require.NoError(t, err)
	defer held.Close()
	was := processSockets
	processSockets = func() *socketSlots { return full }
	defer func() { processSockets = was }()

	l := echoServer(t, "tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	g := newGuest(t)
	c := testCall(t, Grants{Dial: []string{addr}, HTTP: []string{"http://" + addr + "/"}})
	const want = "the host's bound of 1 open sockets across all probes is reached"

	assert.Equal(t, StatusLimit, g.connect(t, c, addr, 0, 20))
	assert.Contains(t, g.lastError(t, c), "connect "+addr+": dial tcp: "+want)
	assert.Equal(t, StatusLimit, g.http(t, c, "GET http://"+addr+"/\n", 0, 20))
	assert.Contains(t, g.lastError(t, c), want)

	p, n := g.put(t, argAt, addr)
	_, err = g.call(c, "dial", p, n, 20)
	var intr *Interrupt
	require.ErrorAs(t, err, &intr, "gate.dial ends the run")
	assert.Equal(t, "gate.dial", intr.Where)
	assert.ErrorContains(t, intr, want)
}

// BenchmarkSocketSlot is what holding a socket slot adds to a connection:
// the same pipe "dial" and Close with and without one.
func BenchmarkSocketSlot(b *testing.B) {
	b.Run("slot=none", func(b *testing.B) {
		for b.Loop() {
			c, _ := pipeDial()
			c.Close()
		}
	})
	b.Run("slot=held", func(b *testing.B) {
		s := newSocketSlots(1 << 10)
		ctx := context.Background()
		for b.Loop() {
			c, err := s.dial(ctx, "tcp", pipeDial)
			if err != nil {
				b.Fatal(err)
			}
			c.Close()
		}
	})
}

// waitSeen is a context that closes seen the first time Done is asked
// for: socketSlots.take asks only once no slot was free, so it marks the
// moment a dial starts to wait for one.
type waitSeen struct {
	context.Context
	once sync.Once
	seen chan struct{}
}

func (w *waitSeen) Done() <-chan struct{} {
	w.once.Do(func() { close(w.seen) })
	return w.Context.Done()
}
