package uplink

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newTestGuard is a session's guard that counts no notification in its
// flow (none of those the tests send is one gate acts on).
func newTestGuard(maxPending int) *Guard {
	return NewGuard(maxPending, func(string, json.RawMessage) bool { return false })
}

// A guard keeps the first reason the session broke for, and closes
// Broken once; what waits on its flow is let go with ErrSessionOver.
func TestGuardKeepsTheFirstReason(t *testing.T) {
	g := newTestGuard(1)
	assert.NoError(t, g.Reason())
	select {
	case <-g.Broken():
		t.Fatal("broken before any failure")
	default:
	}
	g.Flow.received(true) // the flow is full: reading waits
	waited := make(chan error, 1)
	go func() { waited <- g.Flow.wait(context.Background()) }()
	first := errors.New("it sent a message over the cap")
	g.Fail(first)
	g.Fail(ErrSessionOver)
	<-g.Broken()
	assert.Equal(t, first, g.Reason())
	assert.Equal(t, ErrSessionOver, <-waited)
}

// Flushed returns once every cancellation owed has been sent (so before a
// deadline an hour away), and at its deadline when one never is.
func TestCancellationsFlushed(t *testing.T) {
	for _, tc := range []struct {
		name          string
		owe, settle   int
		sent          int
		untilDeadline bool
	}{
		{"nothing owed", 0, 0, 0, false},
		{"all sent", 2, 0, 2, false},
		{"one answered, one sent", 2, 1, 1, false},
		{"one never sent", 2, 0, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newTestGuard(1)
			for range tc.owe {
				g.Cancels.Owe()
			}
			for range tc.settle {
				g.Cancels.Settle()
			}
			for range tc.sent {
				g.Cancels.sentOne()
			}
			wait := time.Hour
			if tc.untilDeadline {
				wait = 20 * time.Millisecond
			}
			began := time.Now()
			g.Cancels.Flushed(began.Add(wait))
			if tc.untilDeadline {
				require.GreaterOrEqual(t, time.Since(began), wait)
			}
		})
	}
}
