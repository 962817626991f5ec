package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/gate-dev/gate/internal/statusview"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAgesAreNeverNegative: an answer's age_seconds is how long before the
// rendering its probe run began, so never negative, also where the
// request itself runs the probes: POST /v1/refresh, and /v1/status read
// before the first round has answered (the service is not run here, so
// the read probes). Each probe run begins after the request came.
func TestAgesAreNeverNegative(t *testing.T) {
	const token = "ages-token"
	t.Setenv("GATE_TEST_AGES", "set")
	manifest := `
[runtime]
ttl = "1h"

[[tools]]
name = "fixed"
probe = "env:GATE_TEST_AGES"

[[servers]]
name = "db"
probe = "env:GATE_TEST_AGES"
`
	for _, tc := range []struct {
		name, method, path string
	}{
		{"a refresh", http.MethodPost, "/v1/refresh"},
		{"a status read that probes", http.MethodGet, "/v1/status"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeManifest(t, t.TempDir(), manifest)
			svc := openService(t, path, nil, serviceConfig(nil, nil))
			f := serve(t, svc, nil, Options{Token: token})
			r := f.do(t, tc.method, tc.path, token)
			require.Equal(t, http.StatusOK, r.code, r.body)
			var a struct {
				Tools   []statusview.Info `json:"tools"`
				Servers []statusview.Info `json:"servers"`
			}
			require.NoError(t, json.Unmarshal([]byte(r.body), &a))
			infos := append(a.Tools, a.Servers...)
			require.Len(t, infos, 2, r.body)
			for _, info := range infos {
				require.NotNil(t, info.AgeSeconds, info.Name)
				assert.GreaterOrEqual(t, *info.AgeSeconds, 0.0, "%s: age_seconds in %s", info.Name, r.body)
			}
		})
	}
}
