package host

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testnet"
)

// TestLastFailure makes real host calls, through the guest, in sequences
// and checks the failure the run records: each failing call's own, the
// last one of a run winning, and calls that succeed or that fail by the
// probe's own doing (a malformed address) leaving it as it was.
func TestLastFailure(t *testing.T) {
	closed := testnet.ClosedAddr(t)
	hole := testnet.BlackHole(t)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/401":
			w.WriteHeader(http.StatusUnauthorized)
		case "/403":
			w.WriteHeader(http.StatusForbidden)
		case "/500":
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer api.Close()
	grants := Grants{Env: []string{"HOME_X", "UNSET"}, Dial: []string{closed, hole, api.Listener.Addr().String()},
		HTTP: []string{api.URL + "/", "http://" + closed + "/"}, Import: []string{"bin:*"}}

	type step struct{ fn, arg string }
	env := func(name string) step { return step{"env", name} }
	dial := func(addr string) step { return step{"dial", addr} }
	imp := func(spec string) step { return step{"import", spec} }
	get := func(path string) step { return step{"http", "GET " + api.URL + path + "\n\n"} }
	tests := []struct {
		name  string
		steps []step
		want  Failure
	}{
		{"nothing failed", []step{env("HOME_X"), dial(api.Listener.Addr().String())}, FailNone},
		{"env not set", []step{env("UNSET")}, FailEnvMissing},
		{"env not granted", []step{env("PATH")}, FailDenied},
		{"dial refused", []step{dial(closed)}, FailRefused},
		{"dial timed out", []step{dial(hole)}, FailTimeout},
		{"dial not granted", []step{dial("127.0.0.1:1")}, FailDenied},
		{"import not found", []step{imp("bin:no-such-binary-gate-host")}, FailNotFound},
		{"http 401", []step{get("/401")}, FailAuthRejected},
		{"http 403", []step{get("/403")}, FailAuthRejected},
		{"http 500 is the peer's answer", []step{get("/500")}, FailNone},
		{"http refused", []step{{"http", "GET http://" + closed + "/\n\n"}}, FailRefused},
		{"http not granted", []step{{"http", "GET http://127.0.0.1:1/\n\n"}}, FailDenied},
		{"the last failure wins", []step{env("UNSET"), dial(closed)}, FailRefused},
		{"the last failure wins, the other way", []step{dial(closed), env("UNSET")}, FailEnvMissing},
		{"a success after leaves it", []step{env("UNSET"), env("HOME_X"), get("/")}, FailEnvMissing},
		{"a malformed address leaves it", []step{dial(closed), dial("no port")}, FailRefused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGuest(t)
			c := testCall(t, grants)
			for _, s := range tt.steps {
				p, n := g.put(t, 0, s.arg)
				var err error
				switch s.fn {
				case "env":
					_, err = g.call(c, "env", p, n, 4096, 0)
				case "dial":
					_, err = g.call(c, "dial", p, n, 200)
				case "import":
					_, err = g.call(c, "import", p, n)
				case "http":
					_, err = g.call(c, "http", p, n, 0, 1000)
				}
				require.NoError(t, err, s.fn)
			}
			assert.Equal(t, tt.want, c.LastFailure())
		})
	}
}
