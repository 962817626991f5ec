package statusview

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/runtime"
)

// TestCodeInfo: every code shows its own retryable and action; "" shows
// nothing.
func TestCodeInfo(t *testing.T) {
	t.Parallel()
	for _, c := range runtime.Codes() {
		assert.Equal(t, &CodeInfo{Code: c, Retryable: c.Retryable(), Action: c.Action()}, Code(c))
	}
	assert.Nil(t, Code(""), "an available answer has no code")
}

// TestEventJSONCode checks that an event carries its code as three fields
// when it is not available, and none when it is.
func TestEventJSONCode(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(NewEvent(runtime.Event{Type: "tool", Name: "db", State: "unavailable", Reason: "127.0.0.1:1: connection refused", Code: runtime.CodeRefused}))
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"tool","name":"db","state":"unavailable","available":false,"reason":"127.0.0.1:1: connection refused","at":"0001-01-01T00:00:00Z",
		"code":"refused","retryable":true,"action":"Start the service, or correct its address in the manifest."}`, string(b))

	var back Event
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, runtime.Event{Type: "tool", Name: "db", State: "unavailable", Reason: "127.0.0.1:1: connection refused", Code: runtime.CodeRefused,
		At: back.At}, back.Read(), "an event read back has its code")

	b, err = json.Marshal(NewEvent(runtime.Event{Type: "tool", Name: "db", State: "available", Available: true}))
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"tool","name":"db","state":"available","available":true,"at":"0001-01-01T00:00:00Z"}`, string(b))
	back = Event{}
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, runtime.Code(""), back.Read().Code)
	assert.Error(t, json.Unmarshal([]byte(`{"type": 1}`), &back), "a bad event is an error, not a panic")
}

// FuzzEventJSON: any bytes read as an event either fail or give an event
// that writes and reads back the same.
func FuzzEventJSON(f *testing.F) {
	f.Add([]byte(`{"type":"tool","name":"db","state":"unavailable","available":false,"at":"2026-12-02T06:00:00Z","code":"refused","retryable":true,"action":"x"}`))
	f.Add([]byte(`{"type":"reload","name":"gate.toml","state":"ok","available":true,"at":"2026-12-02T06:00:00Z","trigger":"watch"}`))
	f.Add([]byte(`{"code": 7}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var e Event
		if json.Unmarshal(b, &e) != nil {
			return
		}
		out, err := json.Marshal(NewEvent(e.Read()))
		if err != nil {
			return // a time json cannot write (a year past 9999)
		}
		var back Event
		require.NoError(t, json.Unmarshal(out, &back), "%s", out)
		assert.Equal(t, e.Read().Code, back.Read().Code)
		assert.Equal(t, e.Name, back.Name)
		assert.Equal(t, e.Reason, back.Reason)
	})
}
