package statusview

import (
	"errors"
	"testing"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNew: where an answer came from, its age, and its code,
// as every report shows them.
func TestNew(t *testing.T) {
	at := time.Date(2026, 12, 5, 3, 0, 0, 0, time.FixedZone("CET", 3600))
	now := at.Add(1500 * time.Millisecond)
	for _, tc := range []struct {
		name   string
		st     runtime.Status
		source string
		code   runtime.Code
	}{
		{"no probe", runtime.Status{Name: "t", State: runtime.StateAvailable}, "none", ""},
		{"probed", runtime.Status{Name: "t", State: runtime.StateUnavailable, HasProbe: true, CheckedAt: at, Code: runtime.CodeEnvMissing}, "probed", runtime.CodeEnvMissing},
		{"cached", runtime.Status{Name: "t", State: runtime.StateAvailable, HasProbe: true, CheckedAt: at, Cached: true}, "cached", ""},
		{"graced", runtime.Status{Name: "t", State: runtime.StateAvailable, HasProbe: true, CheckedAt: at, Cached: true, Graced: true,
			Err: errors.New("down"), Code: runtime.CodeRefused}, "graced", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := tc.st
			st.Probe = "env:X"
			info := New(st, now)
			assert.Equal(t, tc.source, info.Source)
			assert.Equal(t, tc.st.Graced, info.Graced)
			assert.Equal(t, tc.st.Cached, info.Cached)
			assert.Equal(t, "env:X", info.Probe)
			if tc.st.HasProbe {
				require.NotNil(t, info.CheckedAt)
				assert.Equal(t, at.UTC(), *info.CheckedAt)
				assert.Equal(t, time.UTC, info.CheckedAt.Location())
				require.NotNil(t, info.AgeSeconds)
				assert.InDelta(t, 1.5, *info.AgeSeconds, 1e-9)
			} else {
				assert.Nil(t, info.CheckedAt)
				assert.Nil(t, info.AgeSeconds)
			}
			if tc.code == "" {
				assert.Nil(t, info.CodeInfo, "an available answer has no code, a graced one included")
			} else {
				require.NotNil(t, info.CodeInfo)
				assert.Equal(t, tc.code, info.Code)
			}
			assert.Equal(t, tc.st.Err != nil, info.Error != nil)
		})
	}
}
