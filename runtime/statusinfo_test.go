package runtime

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewStatusInfo: where an answer came from, its age, and its code,
// as every report shows them.
func TestNewStatusInfo(t *testing.T) {
	at := time.Date(2026, 12, 5, 3, 0, 0, 0, time.FixedZone("CET", 3600))
	now := at.Add(1500 * time.Millisecond)
	for _, tc := range []struct {
		name   string
		st     Status
		source string
		code   Code
	}{
		{"no probe", Status{Name: "t", State: StateAvailable}, "none", ""},
		{"probed", Status{Name: "t", State: StateUnavailable, HasProbe: true, CheckedAt: at, Code: CodeEnvMissing}, "probed", CodeEnvMissing},
		{"cached", Status{Name: "t", State: StateAvailable, HasProbe: true, CheckedAt: at, Cached: true}, "cached", ""},
		{"graced", Status{Name: "t", State: StateAvailable, HasProbe: true, CheckedAt: at, Cached: true, Graced: true,
			Err: errors.New("down"), Code: CodeRefused}, "graced", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info := NewStatusInfo(tc.st, "env:X", now)
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
