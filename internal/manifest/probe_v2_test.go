package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/grants"
)

// ABI v2's keys on the table form: grants http, secrets and insecure, and
// tls_ca and proxy, which a standard probe may have too.
func TestProbeV2Good(t *testing.T) {
	src := `[[tools]]
name = "redis"
[tools.probe]
module = "p/redis.wasm"
tls_ca = "../certs/ca.pem"
proxy = true
grants = { dial = ["127.0.0.1:6379"], secrets = { REDIS_PASSWORD = ["127.0.0.1:6379"], API_KEY = ["https://api.example.com/v1/"] }, insecure = ["127.0.0.1:6379"], http = ["https://api.example.com/v1/"] }

[[tools]]
name = "std"
probe = { standard = "tcp:localhost:5432", tls_ca = "/etc/ca.pem", proxy = false, budget = "5ms" }

[[tools]]
name = "short"
probe = "tcp:localhost:1"
`
	m, errs, _ := parseMisses("/abs/dir/gate.toml", []byte(src), Limits{})
	require.Empty(t, errs, "%+v", errs)
	p := m.Tools[0].Probe
	assert.Equal(t, "/abs/dir/p/redis.wasm", p.Module)
	assert.Equal(t, hostfuncs.Grants{
		Dial:     []string{"127.0.0.1:6379"},
		HTTP:     []string{"https://api.example.com/v1/"},
		Secrets:  map[string][]string{"REDIS_PASSWORD": {"127.0.0.1:6379"}, "API_KEY": {"https://api.example.com/v1/"}},
		Insecure: []string{"127.0.0.1:6379"},
	}, p.Grants)
	assert.Equal(t, "/abs/certs/ca.pem", p.TLSCA, "relative to the manifest's directory, cleaned")
	assert.True(t, p.Proxy)

	s := m.Tools[1].Probe
	assert.Equal(t, "tcp:localhost:5432", s.Standard)
	budget := 5 * time.Millisecond
	assert.Equal(t, &Probe{Standard: "tcp:localhost:5432", TLSCA: "/etc/ca.pem", Budget: &budget, Pos: s.Pos}, s)

	assert.Equal(t, &Probe{Standard: "tcp:localhost:1", Pos: m.Tools[2].Probe.Pos}, m.Tools[2].Probe)
}

// An http entry is checked by the grants' compiler (internal/grants) like
// every other grant, and refused at its line and column with a caret
// under it.
func TestProbeV2HTTPGrantChecked(t *testing.T) {
	src := `[[tools]]
name = "api"
probe = { module = "p.wasm", grants = { http = ["ftp://h/x", "ok"], env = ["A"] } }
`
	_, err := Parse("gate.toml", []byte(src))
	var errs Errors
	require.True(t, errors.As(err, &errs), "%v", err)
	require.Len(t, errs, 2)
	e := errs[0]
	assert.Equal(t, "tools[0].probe.grants.http[0]", e.Key)
	assert.Equal(t, Position{File: "gate.toml", Line: 3, Col: 49}, e.Pos)
	assert.True(t, strings.HasPrefix(e.Msg, `http grant "ftp://h/x": `), e.Msg)
	assert.Contains(t, e.Detail(), "\n     | "+strings.Repeat(" ", 48)+`^^^^^^^^^^^ http grant "ftp://h/x": `)
	assert.Equal(t, "tools[0].probe.grants.http[1]", errs[1].Key)
	assert.Equal(t, 62, errs[1].Pos.Col)
}

// A probe's grants are only what it writes: proxy = false sets nothing,
// and an empty list is kept (nil and empty differ everywhere in a
// Manifest).
func TestProbeGrantsOnlyWhatIsWritten(t *testing.T) {
	src := `[[tools]]
name = "short"
probe = "env:A"

[[tools]]
name = "module"
probe = { module = "p.wasm", grants = { env = ["A"], dial = ["h:1"] }, budget = "5ms" }

[[tools]]
name = "noproxy"
probe = { standard = "tcp:h:1", proxy = false }

[[tools]]
name = "emptyhttp"
probe = { module = "p.wasm", grants = { http = [] } }
`
	m, errs, _ := parseMisses("/abs/gate.toml", []byte(src), Limits{})
	require.Empty(t, errs, "%+v", errs)
	for i, want := range []hostfuncs.Grants{
		{},
		{Env: []string{"A"}, Dial: []string{"h:1"}},
		{},
		{HTTP: []string{}},
	} {
		p := m.Tools[i].Probe
		assert.Equal(t, want, p.Grants, m.Tools[i].Name)
		assert.Empty(t, p.TLSCA, m.Tools[i].Name)
		assert.False(t, p.Proxy, m.Tools[i].Name)
	}
}

// What a Gate keeps of every probed tool: a Probe whose grants are one
// hostfuncs.Grants, as the runtime takes them, in the 256-byte size class
// (TestIdleMemoryPerTool counts it in an idle tool's heap).
func TestProbeSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are for 64-bit platforms")
	}
	assert.LessOrEqual(t, unsafe.Sizeof(Probe{}), uintptr(256))
}

// The grants' lists are written flat on the probe's object, each key
// where it has always been, and read back the same way.
func TestProbeJSON(t *testing.T) {
	budget := 5 * time.Millisecond
	p := &Probe{
		Module: "/p.wasm", SHA256: strings.Repeat("a", 64), Config: map[string]string{"k": "v"},
		Grants: hostfuncs.Grants{
			Env: []string{"E"}, Dial: []string{"h:1"}, Import: []string{"py:x"},
			HTTP: []string{"https://h/"}, Secrets: map[string][]string{"S": {"https://h/", "h:1"}}, Insecure: []string{"h:2"},
		},
		TLSCA: "/ca.pem", Proxy: true,
		Budget: &budget, Pos: Position{File: "gate.toml", Line: 3, Col: 9},
	}
	b, err := json.Marshal(p)
	require.NoError(t, err)
	assert.Equal(t, `{"module":"/p.wasm","sha256":"`+strings.Repeat("a", 64)+`","config":{"k":"v"},`+
		`"env":["E"],"dial":["h:1"],"import":["py:x"],"http":["https://h/"],"secrets":{"S":["https://h/","h:1"]},"insecure":["h:2"],`+
		`"tls_ca":"/ca.pem","proxy":true,"budget":5000000,"pos":{"file":"gate.toml","line":3,"col":9}}`, string(b))
	var back Probe
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, p, &back)

	// In a Tool, by pointer, and with no grants.
	b, err = json.Marshal(Tool{Name: "t", Probe: &Probe{Standard: "env:A"}})
	require.NoError(t, err)
	assert.Equal(t, `{"name":"t","probe":{"standard":"env:A","pos":{"file":"","line":0,"col":0}},"pos":{"file":"","line":0,"col":0}}`, string(b))
	var tool Tool
	require.NoError(t, json.Unmarshal(b, &tool))
	assert.Equal(t, &Probe{Standard: "env:A"}, tool.Probe)
}

// Secrets are bound to destinations, in every form TOML writes a table;
// the list form of old is
// refused with the table it should be, naming its secrets.
func TestProbeV2SecretsBound(t *testing.T) {
	src := `[[tools]]
name = "inline"
probe = { module = "p.wasm", grants = { secrets = { K = ["127.0.0.1:6379", "https://api.example.com/v1/"] } } }

[[tools]]
name = "header"
[tools.probe]
module = "p.wasm"
[tools.probe.grants.secrets]
K = ["tls:cache.internal:6380"]
"L" = ["unix:/run/redis.sock"]

[[tools]]
name = "dotted"
probe.module = "p.wasm"
probe.grants.secrets.K = ["unix:/var/run/docker.sock:/_ping"]
`
	m, perrs, _ := parseMisses("/abs/gate.toml", []byte(src), Limits{})
	require.Empty(t, perrs, "%+v", perrs)
	assert.Equal(t, map[string][]string{"K": {"127.0.0.1:6379", "https://api.example.com/v1/"}}, m.Tools[0].Probe.Grants.Secrets)
	assert.Equal(t, map[string][]string{"K": {"tls:cache.internal:6380"}, "L": {"unix:/run/redis.sock"}}, m.Tools[1].Probe.Grants.Secrets)
	assert.Equal(t, map[string][]string{"K": {"unix:/var/run/docker.sock:/_ping"}}, m.Tools[2].Probe.Grants.Secrets)

	errs := parseErrs(t, `[[tools]]
name = "old"
probe = { module = "p.wasm", grants = { secrets = ["REDIS_PASSWORD", "API_KEY"] } }
`)
	require.Len(t, errs, 1)
	assert.Equal(t, "tools[0].probe.grants.secrets", errs[0].Key)
	assert.Equal(t, Position{File: "gate.toml", Line: 3, Col: 51}, errs[0].Pos)
	assert.Equal(t, `name each secret's destinations: secrets = { REDIS_PASSWORD = ["host:port"], API_KEY = ["host:port"] }`+
		` (a destination is written as dial and http grants are: "127.0.0.1:6379", "https://api.example.com/v1/")`, errs[0].Msg)
}

// How many secrets one probe may hold is the grants' bound
// (grants.MaxSecretGrants), reported at the table.
func TestProbeV2TooManySecrets(t *testing.T) {
	var b strings.Builder
	b.WriteString("[[tools]]\nname = \"many\"\n[tools.probe]\nmodule = \"p.wasm\"\n[tools.probe.grants.secrets]\n")
	for i := range grants.MaxSecretGrants + 1 {
		fmt.Fprintf(&b, "S%d = [\"127.0.0.1:6379\"]\n", i)
	}
	errs := parseErrs(t, b.String())
	require.Len(t, errs, 1)
	assert.Equal(t, "tools[0].probe.grants.secrets", errs[0].Key)
	assert.Equal(t, 5, errs[0].Pos.Line)
	assert.Equal(t, fmt.Sprintf("%d secrets granted; at most %d", grants.MaxSecretGrants+1, grants.MaxSecretGrants), errs[0].Msg)

	// At the bound, all is well.
	m, err := Parse("gate.toml", []byte(strings.Replace(b.String(), "S0 = [\"127.0.0.1:6379\"]\n", "", 1)))
	require.NoError(t, err)
	assert.Len(t, m.Tools[0].Probe.Grants.Secrets, grants.MaxSecretGrants)
}
