package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/gate-dev/gate/runtime"
)

func TestFormatEvent(t *testing.T) {
	held := time.Date(2026, 12, 2, 7, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		e    runtime.Event
		want string
	}{
		{"a flip", runtime.Event{Type: "tool", Name: "search_web", State: "unavailable", Reason: "SERP_API_KEY is not set"},
			"gatectl serve: tool search_web unavailable: SERP_API_KEY is not set\n"},
		{"an answer held back", runtime.Event{Type: "tool", Name: "search_web", State: "available", Available: true,
			Pending: &runtime.Pending{State: runtime.StateUnavailable, Reason: "SERP_API_KEY is not set", Count: 1, Of: 3}},
			"gatectl serve: tool search_web still available: 1 of 3 answers in a row unavailable: SERP_API_KEY is not set\n"},
		{"a flip held down", runtime.Event{Type: "server", Name: "db", State: "unavailable",
			Pending: &runtime.Pending{State: runtime.StateAvailable, Count: 2, Of: 2, HeldUntil: held}},
			"gatectl serve: server db still unavailable: 2 of 2 answers in a row available, held until 2026-12-02T07:00:00Z\n"},
		{"what a terminal must not run", runtime.Event{Type: "tool", Name: "x\x1b[2J", State: "available",
			Pending: &runtime.Pending{State: runtime.StateError, Reason: "bad\x1b]0;title\x07", Count: 1, Of: 2}},
			"gatectl serve: tool x\\x1b[2J still available: 1 of 2 answers in a row error: bad\\x1b]0;title\\a\n"},
		{"an upstream", runtime.Event{Type: "upstream", Name: "web", State: "down", Reason: "connection refused"},
			"gatectl serve: upstream web down: connection refused\n"},
		{"a breaker that opens", runtime.Event{Type: "breaker", Name: "web", State: "open", Reason: "3 calls in a row failed (last: \x1b[2Jboom)"},
			"gatectl serve: breaker web open: 3 calls in a row failed (last: \\x1b[2Jboom)\n"},
		{"a breaker that closes", runtime.Event{Type: "breaker", Name: "web", State: "closed", Available: true, Reason: "its probe says available again"},
			"gatectl serve: breaker web closed: its probe says available again\n"},
		{"a fallback skill offered", runtime.Event{Type: "skill", Name: "web-fallback", State: "active", Available: true},
			"gatectl serve: skill web-fallback active, offered\n"},
		{"a fallback skill no longer offered", runtime.Event{Type: "skill", Name: "web-fallback", State: "active"},
			"gatectl serve: skill web-fallback active, not offered\n"},
		{"a skill added", runtime.Event{Type: "skill", Name: "research", State: "degraded", Available: true, Reason: "its folder was added"},
			"gatectl serve: skill research degraded, offered: its folder was added\n"},
		{"a skill removed", runtime.Event{Type: "skill", Name: "research", State: "removed", Reason: "its folder was removed"},
			"gatectl serve: skill research removed: its folder was removed\n"},
		{"a type serve does not log", runtime.Event{Type: "made-up", Name: "x"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, formatEvent("gatectl serve", tt.e))
		})
	}
}
