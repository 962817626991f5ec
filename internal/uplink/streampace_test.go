package uplink

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// endless is an upstream's event stream that is nothing but what it
// repeats, counting what gate took of it.
type endless struct {
	unit  string
	taken int
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		at := (e.taken + n) % len(e.unit)
		n += copy(p[n:], e.unit[at:])
	}
	e.taken += n
	return n, nil
}

func (e *endless) Close() error { return nil }

// An event stream of blank lines, comments or events that are no message
// is read no faster than idleRate once idleBurst of it
// has come, whatever the upstream sends; gate's own time reading it is
// bounded so. A stream of messages is not paced.
func TestStreamWithoutMessagesIsPaced(t *testing.T) {
	const over = 400 * time.Millisecond
	message := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/other\"}\n\n"
	for _, tc := range []struct {
		name  string
		unit  string
		paced bool
		free  int // bytes of each unit that are not charged: a message, and its framing given back
	}{
		{"blank lines", "\n", true, 0},
		{"comments", ": keep-alive\n", true, 0},
		{"events that are no message", "event: other\ndata: {}\n\n", true, 0},
		{"data that is no message", "data: not json\n\n", true, 0},
		{"messages", message, false, 0},
		{"messages with ids", "id: 12345\n" + message, false, 0},
		{"comments before each message", ": " + strings.Repeat("x", 1024) + "\n" + message, true, len(message) + maxFraming},
		{"large messages", "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/other\",\"params\":{\"pad\":\"" + strings.Repeat("x", 2*MaxAnswer) + "\"}}\n\n", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newTestGuard(1 << 20)
			up := &endless{unit: tc.unit}
			b := &sseBody{ctx: context.Background(), max: 1 << 20, g: g, held: newUnfinished(4 << 20)}
			b.body = body{rc: up, release: func() {}}
			buf := make([]byte, 4<<10)
			began := time.Now()
			for time.Since(began) < over {
				_, err := b.Read(buf)
				require.NoError(t, err)
			}
			// What the time allows, one read more, the idleBurst, and
			// the data of an event not yet known to be no message.
			bound := idleBurst + int(time.Since(began).Seconds()*idleRate) + len(buf) + len(tc.unit) + MaxAnswer
			bound = bound * len(tc.unit) / (len(tc.unit) - tc.free)
			t.Logf("%d bytes in %v (the pace allows %d)", up.taken, time.Since(began), bound)
			if tc.paced {
				assert.LessOrEqual(t, up.taken, bound)
			} else {
				assert.Greater(t, up.taken, bound, "messages are not paced")
				assert.LessOrEqual(t, b.idle.owed, float64(maxFraming+len(tc.unit)), "what messages owe the pace")
			}
		})
	}
}
