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
	assert.Equal(t, []string{"127.0.0.1:6379"}, p.Dial)
	require.NotNil(t, p.Net)
	assert.Equal(t, "/abs/certs/ca.pem", p.Net.TLSCA, "relative to the manifest's directory, cleaned")
	assert.True(t, p.Net.Proxy)
	assert.Equal(t, map[string][]string{"REDIS_PASSWORD": {"127.0.0.1:6379"}, "API_KEY": {"https://api.example.com/v1/"}}, p.Net.Secrets)
	assert.Equal(t, []string{"127.0.0.1:6379"}, p.Net.Insecure)
	assert.Equal(t, []string{"https://api.example.com/v1/"}, p.Net.HTTP)

	s := m.Tools[1].Probe
	assert.Equal(t, "tcp:localhost:5432", s.Standard)
	require.NotNil(t, s.Net)
	assert.Equal(t, &ProbeNet{TLSCA: "/etc/ca.pem"}, s.Net)

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

// A probe that writes none of ABI v2's keys has a nil Net; proxy = false sets nothing, and an empty
// list is kept (nil and empty differ everywhere in a Manifest).
func TestProbeNetNilWhenNone(t *testing.T) {
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
	for _, tool := range m.Tools[:3] {
		assert.Nil(t, tool.Probe.Net, tool.Name)
	}
	assert.Equal(t, &ProbeNet{HTTP: []string{}}, m.Tools[3].Probe.Net)
}

// What a Gate keeps of every probed tool: a Probe in the 176-byte size
// class, as before ABI v2 (its fields inline made it 264, in the 288
// class, and an idle tool over 1 KB: TestIdleMemoryPerTool).
func TestProbeSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are for 64-bit platforms")
	}
	assert.LessOrEqual(t, unsafe.Sizeof(Probe{}), uintptr(176))
}

// Net's fields are written flat on the probe's object, in the order they
// had as Probe's own fields, and read back the same way, Net nil when the
// object has none of them.
func TestProbeJSON(t *testing.T) {
	budget := 5 * time.Millisecond
	p := &Probe{
		Module: "/p.wasm", SHA256: strings.Repeat("a", 64), Config: map[string]string{"k": "v"},
		Env: []string{"E"}, Dial: []string{"h:1"}, Import: []string{"py:x"},
		Net: &ProbeNet{
			HTTP: []string{"https://h/"}, Secrets: map[string][]string{"S": {"https://h/", "h:1"}}, Insecure: []string{"h:2"},
			TLSCA: "/ca.pem", Proxy: true,
		},
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

	// In a Tool, by pointer, and with no Net.
	b, err = json.Marshal(Tool{Name: "t", Probe: &Probe{Standard: "env:A"}})
	require.NoError(t, err)
	assert.Equal(t, `{"name":"t","probe":{"standard":"env:A","pos":{"file":"","line":0,"col":0}},"pos":{"file":"","line":0,"col":0}}`, string(b))
	var tool Tool
	require.NoError(t, json.Unmarshal(b, &tool))
	assert.Equal(t, &Probe{Standard: "env:A"}, tool.Probe)
	assert.Nil(t, tool.Probe.Net)
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
	assert.Equal(t, map[string][]string{"K": {"127.0.0.1:6379", "https://api.example.com/v1/"}}, m.Tools[0].Probe.Net.Secrets)
	assert.Equal(t, map[string][]string{"K": {"tls:cache.internal:6380"}, "L": {"unix:/run/redis.sock"}}, m.Tools[1].Probe.Net.Secrets)
	assert.Equal(t, map[string][]string{"K": {"unix:/var/run/docker.sock:/_ping"}}, m.Tools[2].Probe.Net.Secrets)

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
	assert.Len(t, m.Tools[0].Probe.Net.Secrets, grants.MaxSecretGrants)
}
