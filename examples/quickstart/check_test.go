package quickstart_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requirement is one tool of gate.toml, written out again here so that
// the test holds the manifest to the reference rather than to itself:
// what the tool needs and the reasons it must give (a reason override
// replaces the default; "{}" in it stands for what failed).
type requirement struct {
	env, imports, dial                   []string
	reasonEnv, reasonImports, reasonDial string
	transient                            bool // a failed dial raises
	noProbe                              bool // always available
	// service is a protocol probe's target (ABI v2), checked here only
	// as far as a dial tells: refused gives refused, in the probe's own
	// words; anything that listens is asked in its protocol, which
	// protocols_test.go checks against real servers.
	service *service
}

// service is what a protocol probe asks, and how it words a refusal.
type service struct {
	addr    string // dialled by the test: host:port or unix:/path
	refused string // the reason when nothing listens
	secret  string // a variable that must be set before anything is asked
	serp    bool   // the loopback stand-in for serpapi.com (serpAddr)
}

// serpURL is search_web's URL in the tests' copy of gate.toml.
func serpURL() string {
	return "http://" + serpAddr + "/account.json?api_key=${secret:SERP_API_KEY}"
}

// quickstart is every tool and server of gate.toml, in file order.
var quickstart = []struct {
	name string
	req  requirement
}{
	{"search_web", requirement{service: &service{serp: true, secret: "SERP_API_KEY"}}},
	{"ai_research", requirement{env: []string{"OPENAI_API_KEY", "PINECONE_API_KEY"}}},
	{"notify_team", requirement{env: []string{"SLACK_TOKEN"}}},
	{"query_local_db", requirement{service: &service{addr: "127.0.0.1:5432", refused: "postgres 127.0.0.1:5432: connection refused"}}},
	{"cache_data", requirement{service: &service{addr: "127.0.0.1:6379", refused: "redis 127.0.0.1:6379: connection refused"}}},
	{"terminal", requirement{imports: []string{"bin:sh"}}},
	{"filesystem_read", requirement{noProbe: true}},
	{"search_content", requirement{noProbe: true}},
	{"query_database", requirement{env: []string{"DATABASE_URL"}, imports: []string{"py:psycopg2"},
		reasonEnv: "DATABASE_URL not configured", reasonImports: "psycopg2 package not installed"}},
	{"docker_command", requirement{service: &service{addr: "unix:/var/run/docker.sock",
		refused: "Docker unavailable: /var/run/docker.sock: connection refused (is the daemon running?)"}}},
	{"cloud_deploy", requirement{env: []string{"AWS_ACCESS_KEY"}, imports: []string{"py:boto3"},
		reasonEnv: "AWS credentials not configured", reasonImports: "AWS SDK error: boto3 not installed"}},
	{"ml_inference", requirement{imports: []string{"py:torch", "py:transformers"}, reasonImports: "Missing ML dependencies: {}"}},
	{"gpu_inference", requirement{imports: []string{"py:torch", "py:transformers", "lib:libcuda.so.1"},
		reasonImports: "Missing ML dependencies or CUDA driver: {}"}},
	{"network_tool", requirement{dial: []string{"127.0.0.1:9"}, transient: true, reasonDial: "Network unreachable"}},
	{"mcp:filesystem", requirement{dial: []string{"127.0.0.1:3333"}}},
	{"mcp:notion", requirement{dial: []string{"127.0.0.1:3334"}}},
}

// serpAddr is where the tests' copy of gate.toml sends search_web's key
// check (see manifestCopy): a loopback stand-in for serpapi.com, since
// tests never reach the internet. The test's own listener on it accepts
// the key "set-by-the-test" and rejects any other.
var serpAddr string

// keys are the variables the tools ask for.
var keys = []string{"SERP_API_KEY", "OPENAI_API_KEY", "PINECONE_API_KEY", "SLACK_TOKEN", "DATABASE_URL", "AWS_ACCESS_KEY"}

// checkJSON is the part of `gatectl check --json` (docs/CLI.md) read here.
type checkJSON struct {
	Tools   []entryJSON `json:"tools"`
	Servers []entryJSON `json:"servers"`
}

type entryJSON struct {
	Name   string `json:"name"`
	State  string `json:"state"`
	Reason string `json:"reason"`
	Source string `json:"source"`
	Error  *struct {
		Kind    string `json:"kind"`
		Phase   string `json:"phase"`
		Message string `json:"message"`
	} `json:"error"`
}

var (
	tmpDir       string
	buildGatectl = sync.OnceValues(func() (string, error) {
		bin := filepath.Join(tmpDir, "gatectl")
		out, err := exec.Command("go", "build", "-o", bin, "../../cmd/gatectl").CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("go build -o %s ../../cmd/gatectl: %v\n%s", bin, err, out)
		}
		return bin, nil
	})
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "quickstart-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tmpDir = dir
	addr, stop, err := startSerp()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	serpAddr = addr
	code := m.Run()
	stop()
	os.RemoveAll(dir)
	os.Exit(code)
}

// baseEnv is the environment gatectl runs with before a scenario adds to
// it: what finds programs, Python and libraries, and none of the tools'
// variables (whatever the test process has).
func baseEnv() map[string]string {
	env := map[string]string{"GATE_CACHE_DIR": filepath.Join(tmpDir, "cache")}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if k == "PATH" || k == "HOME" || k == "LD_LIBRARY_PATH" || strings.HasPrefix(k, "PYENV") {
			env[k] = v
		}
	}
	return env
}

// TestQuickstartGroundTruth runs `gatectl check --json` on gate.toml in
// several environments and compares every answer with what the test finds
// out itself: the variables it passed, what python3 can import
// (importlib.util.find_spec) and load (ctypes), exec.LookPath, and its own
// dials.
func TestQuickstartGroundTruth(t *testing.T) {
	gatectl, err := buildGatectl()
	require.NoError(t, err)

	// Stand-ins for the Python packages, found through PYTHONPATH by
	// python3 and by gate alike, so both answers of every py: check are
	// seen whatever this machine has installed.
	fakes := t.TempDir()
	for _, pkg := range []string{"psycopg2", "boto3", "torch", "transformers"} {
		require.NoError(t, os.MkdirAll(filepath.Join(fakes, pkg), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(fakes, pkg, "__init__.py"), nil, 0o644))
	}
	withKeys := func(env map[string]string) map[string]string {
		for _, k := range keys {
			env[k] = goodKey
		}
		return env
	}
	withPackages := func(env map[string]string) map[string]string {
		env["PYTHONPATH"] = fakes
		return env
	}

	scenarios := []struct {
		name string
		env  map[string]string
	}{
		// DATABASE_URL set but empty counts as missing, as os.getenv does.
		{"bare", func() map[string]string { e := baseEnv(); e["DATABASE_URL"] = ""; return e }()},
		{"packages only", withPackages(baseEnv())},
		{"keys only", withKeys(baseEnv())},
		{"keys and packages", withPackages(withKeys(baseEnv()))},
		// A key that is set but revoked: the service itself says no.
		{"revoked search key", func() map[string]string { e := withKeys(baseEnv()); e["SERP_API_KEY"] = "revoked"; return e }()},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			truth := newWorld(t, sc.env)
			got := runCheck(t, gatectl, sc.env)
			// Other tests may start or stop services on these ports (a
			// Redis on 6379, say): a tool whose address changed state
			// while gatectl ran has no single truth, and is left out.
			moved := truth.moved()

			byName := map[string]entryJSON{}
			var names []string
			for _, e := range append(got.Tools, got.Servers...) {
				byName[e.Name] = e
				names = append(names, e.Name)
			}
			var want []string
			for _, q := range quickstart {
				want = append(want, q.name)
			}
			require.Equal(t, want, names, "gate.toml and this test must list the same tools and servers")

			for _, q := range quickstart {
				e := byName[q.name]
				if moved[q.name] {
					t.Logf("%s: its address changed state during the check; not compared", q.name)
					continue
				}
				state, reason := truth.expect(q.req)
				if state == "" {
					t.Logf("%s: a service listens at %s; its protocol's answer is not compared here", q.name, q.req.service.addr)
					continue
				}
				if !assert.Equal(t, state, e.State, "%s: %s", q.name, e.Reason) {
					continue
				}
				switch {
				case q.req.noProbe:
					assert.Equal(t, "none", e.Source, q.name)
				default:
					assert.Equal(t, "probed", e.Source, q.name)
				}
				if state != "error" {
					assert.Equal(t, reason, e.Reason, q.name)
					assert.Nil(t, e.Error, q.name)
					continue
				}
				// The probe raised (return 2): the error says so, in the
				// probe's own words.
				if assert.NotNil(t, e.Error, q.name) {
					assert.Equal(t, "status", e.Error.Kind, q.name)
					assert.Equal(t, "probe", e.Error.Phase, q.name)
					assert.Equal(t, fmt.Sprintf("probe %q raised: %s", q.name, reason), e.Reason, q.name)
				}
			}

			// The reference's DatabaseTool: with DATABASE_URL set the
			// answer depends on psycopg2 alone.
			db := byName["query_database"]
			switch {
			case sc.env["DATABASE_URL"] == "":
				assert.Equal(t, "DATABASE_URL not configured", db.Reason)
			case truth.py["psycopg2"]:
				assert.Equal(t, "available", db.State)
			default:
				assert.Equal(t, "psycopg2 package not installed", db.Reason)
			}
			if sc.name == "keys and packages" {
				assert.Equal(t, "available", db.State, "the stand-in psycopg2 is importable")
				assert.Equal(t, "available", byName["cloud_deploy"].State, "the stand-in boto3 is importable")
				assert.Equal(t, "available", byName["ml_inference"].State, "the stand-in torch and transformers are importable")
			}
			// The flaky network tool never succeeded in this fresh
			// process: hidden as an error, not as an honest "unavailable".
			if !truth.dials["127.0.0.1:9"].ok {
				assert.Equal(t, "error", byName["network_tool"].State)
			}
		})
	}
}

// runCheck runs `gatectl check -m gate.toml --json` with exactly env.
func runCheck(t *testing.T, gatectl string, env map[string]string) checkJSON {
	t.Helper()
	cmd := exec.Command(gatectl, "check", "-m", manifestCopy(t), "--json")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("gatectl check -m gate.toml --json: %v\n%s", err, stderr.String())
	}
	var got checkJSON
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &got), stdout.String())
	return got
}

// world is the ground truth for one environment.
type world struct {
	env   map[string]string
	py    map[string]bool    // py: module name -> importlib.util.find_spec found it
	lib   map[string]bool    // lib: file name -> ctypes.CDLL loaded it
	dials map[string]dialled // address -> what a dial found, before gatectl ran
}

type dialled struct {
	why string // "" when connected
	ok  bool
}

// groundTruthScript answers, for each "py:NAME" or "lib:NAME" argument,
// whether Python finds the module or the dynamic linker loads the library.
const groundTruthScript = `
import ctypes, importlib.util, sys
for spec in sys.argv[1:]:
    kind, name = spec.split(":", 1)
    if kind == "py":
        ok = importlib.util.find_spec(name) is not None
    else:
        try:
            ctypes.CDLL(name)
            ok = True
        except OSError:
            ok = False
    print(spec, int(ok))
`

func newWorld(t *testing.T, env map[string]string) *world {
	t.Helper()
	w := &world{env: env, py: map[string]bool{}, lib: map[string]bool{}, dials: map[string]dialled{}}
	for _, q := range quickstart {
		for _, a := range q.req.dialled() {
			why, ok := dial(a)
			w.dials[a] = dialled{why, ok}
		}
	}
	args := []string{"-c", groundTruthScript}
	for _, q := range quickstart {
		for _, spec := range q.req.imports {
			if strings.HasPrefix(spec, "py:") || strings.HasPrefix(spec, "lib:") {
				args = append(args, spec)
			}
		}
	}
	cmd := exec.Command("python3", args...)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.Output()
	require.NoError(t, err, "python3: %s", out)
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		spec, ok, _ := strings.Cut(line, " ")
		kind, name, _ := strings.Cut(spec, ":")
		map[string]map[string]bool{"py": w.py, "lib": w.lib}[kind][name] = ok == "1"
	}
	return w
}

func (w *world) importable(spec string) bool {
	kind, name, _ := strings.Cut(spec, ":")
	switch kind {
	case "bin":
		_, err := exec.LookPath(name)
		return err == nil
	case "py":
		return w.py[name]
	case "lib":
		return w.lib[name]
	}
	return false
}

// moved dials every address again and names the tools and servers where
// the answer is not what it was when w was made.
func (w *world) moved() map[string]bool {
	out := map[string]bool{}
	for _, q := range quickstart {
		for _, a := range q.req.dialled() {
			if why, ok := dial(a); (dialled{why, ok}) != w.dials[a] {
				out[q.name] = true
			}
		}
	}
	return out
}

// dial connects as gate.dial does and describes a failure in the ABI's
// words.
func dial(addr string) (string, bool) {
	network, target := "tcp", addr
	if path, ok := strings.CutPrefix(addr, "unix:"); ok {
		network, target = "unix", path
	}
	c, err := net.DialTimeout(network, target, 200*time.Millisecond)
	if err == nil {
		c.Close()
		return "", true
	}
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ENOENT):
		return "connection refused", false
	case errors.As(err, &ne) && ne.Timeout():
		return "timed out", false
	}
	return "unreachable or name not resolved", false
}

// expect is the state and reason a tool must have in this world: each
// kind checked in turn (env, imports, dial), the first that fails giving
// the answer.
func (w *world) expect(r requirement) (state, reason string) {
	if r.noProbe {
		return "available", ""
	}
	if s := r.service; s != nil {
		switch {
		case s.serp && w.env[s.secret] == "":
			return "unavailable", `secret "` + s.secret + `" is not set`
		case s.serp && w.env[s.secret] == goodKey:
			return "available", ""
		case s.serp:
			return "unavailable", serpURL() + ": credentials rejected (HTTP 401)"
		case !w.dials[s.addr].ok && w.dials[s.addr].why == "connection refused":
			return "unavailable", s.refused
		}
		return "", "" // something listens: its answer is protocols_test.go's to check
	}
	var missing []string
	for _, v := range r.env {
		if w.env[v] == "" {
			missing = append(missing, v)
		}
	}
	if len(missing) > 0 {
		return "unavailable", because(r.reasonEnv, "Missing environment variables: ", strings.Join(missing, ", "))
	}
	for _, s := range r.imports {
		if !w.importable(s) {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		return "unavailable", because(r.reasonImports, "Missing imports: ", strings.Join(missing, ", "))
	}
	for _, a := range r.dial {
		if d := w.dials[a]; !d.ok {
			why := d.why
			state = "unavailable"
			if r.transient {
				state = "error"
			}
			return state, because(r.reasonDial, "", a+": "+why)
		}
	}
	return "available", ""
}

// dialled is every address the requirement's probe connects to.
func (r requirement) dialled() []string {
	if r.service != nil && r.service.serp {
		return nil
	}
	if r.service != nil {
		return []string{r.service.addr}
	}
	return r.dial
}

// because is the override with "{}" replaced by what failed, or the
// default heading followed by it.
func because(override, heading, failed string) string {
	if override != "" {
		return strings.ReplaceAll(override, "{}", failed)
	}
	return heading + failed
}
