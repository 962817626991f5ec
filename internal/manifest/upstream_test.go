package manifest

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// upstreamSrc has every upstream key: a server gate runs, one it
// connects to, one without an upstream.
const upstreamSrc = `[[servers]]
name = "github"
command = ["./bin/../bin/gh-mcp", "stdio", "./arg"]
env = { Z = "last", A = "", M_1 = "x=y" }
pass_env = ["HOME", "PATH"]
prefix = ""
call_timeout = "1m30s"
probe = "env:GH"

[[servers.tools]]
name = "create_issue"
probe = "env:GH_WRITE"

[[servers.tools]]
match = "delete_*"
probe = { module = "p.wasm", budget = "5ms" }

[[servers]]
name = "search"
url = "HTTPS://search.example:8443/mcp?v=2"
prefix = "s."
tools = [{ name = "q", probe = "tcp:localhost:1" }]

[[servers]]
name = "plain"
`

func TestUpstreamGood(t *testing.T) {
	m, err := Parse("/abs/dir/gate.toml", []byte(upstreamSrc))
	require.NoError(t, err, "%+v", err)
	empty, sDot := "", "s."
	timeout := 90 * time.Second
	pos := func(line, col int) Position { return Position{File: "/abs/dir/gate.toml", Line: line, Col: col} }
	want := []Server{
		{
			Name:  "github",
			Probe: &Probe{Standard: "env:GH", Pos: pos(8, 1)},
			Upstream: &Upstream{
				Command:     []string{"/abs/dir/bin/gh-mcp", "stdio", "./arg"},
				Env:         []EnvVar{{"A", ""}, {"M_1", "x=y"}, {"Z", "last"}},
				PassEnv:     []string{"HOME", "PATH"},
				Prefix:      &empty,
				CallTimeout: &timeout,
				Tools: []UpstreamTool{
					{Name: "create_issue", Probe: &Probe{Standard: "env:GH_WRITE", Pos: pos(12, 1)}, Pos: pos(10, 1)},
					{Match: "delete_*", Probe: &Probe{Module: "/abs/dir/p.wasm", Budget: ptr(5 * time.Millisecond), Pos: pos(16, 1)}, Pos: pos(14, 1)},
				},
			},
			Pos: pos(1, 1),
		},
		{
			Name: "search",
			Upstream: &Upstream{
				URL:    "HTTPS://search.example:8443/mcp?v=2",
				Prefix: &sDot,
				Tools:  []UpstreamTool{{Name: "q", Probe: &Probe{Standard: "tcp:localhost:1", Pos: pos(22, 24)}, Pos: pos(22, 10)}},
			},
			Pos: pos(18, 1),
		},
		{Name: "plain", Pos: pos(24, 1)},
	}
	require.Equal(t, want, m.Servers)
	assert.Equal(t, "create_issue", m.Servers[0].Upstream.Tools[0].Rule())
	assert.Equal(t, "delete_*", m.Servers[0].Upstream.Tools[1].Rule())

	// Written empty is not nil: "written as nothing" and "not written"
	// stay apart, as everywhere in a Manifest.
	m, err = Parse("gate.toml", []byte("[[servers]]\nname = \"s\"\ncommand = [\"x\"]\nenv = {}\npass_env = []\ntools = []\n"))
	require.NoError(t, err)
	u := m.Servers[0].Upstream
	assert.Equal(t, &Upstream{Command: []string{"x"}, Env: []EnvVar{}, PassEnv: []string{}, Tools: []UpstreamTool{}}, u)
	assert.Nil(t, u.Prefix)
	assert.Nil(t, u.CallTimeout)
}

// TestUpstreamBreaker: a breaker table's keys, each nil when not written.
func TestUpstreamBreaker(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want *Breaker
	}{
		{"", nil},
		{"breaker = {}\n", &Breaker{}},
		{"breaker = { failures = 0 }\n", &Breaker{Failures: ptr(0)}},
		{"breaker = { failures = 1000, window = \"24h\" }\n", &Breaker{Failures: ptr(1000), Window: ptr(24 * time.Hour)}},
		{"[servers.breaker]\nfailures = 3\nwindow = \"1m\"\ncooldown = \"1ns\"\n", &Breaker{Failures: ptr(3), Window: ptr(time.Minute), Cooldown: ptr(time.Nanosecond)}},
	} {
		m, err := Parse("gate.toml", []byte("[[servers]]\nname = \"s\"\nurl = \"http://h\"\n"+tc.src))
		require.NoError(t, err, tc.src)
		assert.Equal(t, tc.want, m.Servers[0].Upstream.Breaker, tc.src)
	}
}

func ptr[T any](v T) *T { return &v }

// TestUpstreamErrors: each bad upstream key is reported at its line and
// column, named by its path, all at once.
func TestUpstreamErrors(t *testing.T) {
	long := strings.Repeat("a", maxArgBytes+1)
	for _, tc := range []struct {
		name string
		src  string // after [[servers]] and name = "s" (lines 1 and 2)
		want []string
	}{
		{"command and url", "command = [\"x\"]\nurl = \"http://h/mcp\"\n",
			[]string{`gate.toml:4:1: servers[0].url: command and url are mutually exclusive: the gateway either runs the server (command, over stdio) or connects to it (url, over streamable HTTP)`}},
		{"url and command", "url = \"http://h/mcp\"\ncommand = [\"x\"]\n",
			[]string{`gate.toml:4:1: servers[0].command: command and url are mutually exclusive: the gateway either runs the server (command, over stdio) or connects to it (url, over streamable HTTP)`}},
		{"keys without command or url", "env = {}\npass_env = []\nprefix = \"p\"\ncall_timeout = \"1s\"\n[[servers.tools]]\nname = \"t\"\nprobe = \"env:A\"\n",
			[]string{
				`gate.toml:3:1: servers[0].env: env needs command or url: it is about the MCP server the gateway fronts, which command (run over stdio) or url (streamable HTTP) names`,
				`gate.toml:4:1: servers[0].pass_env: pass_env needs command or url: it is about the MCP server the gateway fronts, which command (run over stdio) or url (streamable HTTP) names`,
				`gate.toml:5:1: servers[0].prefix: prefix needs command or url: it is about the MCP server the gateway fronts, which command (run over stdio) or url (streamable HTTP) names`,
				`gate.toml:6:1: servers[0].call_timeout: call_timeout needs command or url: it is about the MCP server the gateway fronts, which command (run over stdio) or url (streamable HTTP) names`,
				`gate.toml:7:11: servers[0].tools: tools needs command or url: it is about the MCP server the gateway fronts, which command (run over stdio) or url (streamable HTTP) names`,
			}},
		{"env with url", "url = \"http://h\"\nenv = { A = \"1\" }\npass_env = [\"B\"]\n",
			[]string{
				`gate.toml:4:1: servers[0].env: env is only allowed with command: a server at a url runs elsewhere, in an environment gate does not give it`,
				`gate.toml:5:1: servers[0].pass_env: pass_env is only allowed with command: a server at a url runs elsewhere, in an environment gate does not give it`,
			}},
		{"command shapes", "command = \"npx server\"\n",
			[]string{`gate.toml:3:11: servers[0].command: want an array of strings like ["npx", "-y", "@modelcontextprotocol/server-filesystem", "."], got string "npx server"`}},
		{"command empty", "command = []\n",
			[]string{`gate.toml:3:11: servers[0].command: empty command: want at least the program to run`}},
		{"command too long", "command = [" + strings.Repeat(`"a", `, maxCommandArgs) + "\"a\"]\n",
			[]string{`gate.toml:3:11: servers[0].command: command of 65 strings: want at most 64`}},
		{"command elements", "command = [\" \", 1, \"" + long + "\", \"a\\u0000b\"]\n",
			[]string{
				`gate.toml:3:12: servers[0].command[0]: empty program: the first string of command is the program to run`,
				`gate.toml:3:17: servers[0].command[1]: want a string, got integer 1`,
				`gate.toml:3:20: servers[0].command[2]: argument of 4097 bytes: want at most 4096`,
				`gate.toml:3:4121: servers[0].command[3]: argument with a NUL byte: no program can be given one`,
			}},
		{"env values", "command = [\"x\"]\nenv = { \"1A\" = \"v\", B = 2, C = \"a\\u0000\", \"D E\" = \"ok\" }\n",
			[]string{
				`gate.toml:4:9: servers[0].env.1A: bad variable name "1A": want a letter or _, then letters, digits or _`,
				`gate.toml:4:25: servers[0].env.B: want a string (environment values are strings), got integer 2`,
				`gate.toml:4:32: servers[0].env.C: value with a NUL byte: an environment cannot hold one`,
				`gate.toml:4:43: servers[0].env."D E": bad variable name "D E": want a letter or _, then letters, digits or _`,
			}},
		{"env shape", "command = [\"x\"]\nenv = [\"A=1\"]\n",
			[]string{`gate.toml:4:7: servers[0].env: want a table of strings like { NAME = "value" }, got array`}},
		{"pass_env", "command = [\"x\"]\npass_env = [\"HOME\", \"\", \"A-B\", 3, \"HOME\"]\n",
			[]string{
				`gate.toml:4:21: servers[0].pass_env[1]: empty variable name`,
				`gate.toml:4:25: servers[0].pass_env[2]: bad variable name "A-B": want a letter or _, then letters, digits or _`,
				`gate.toml:4:32: servers[0].pass_env[3]: want a variable name (a string), got integer 3`,
				`gate.toml:4:35: servers[0].pass_env[4]: duplicate variable "HOME": already listed at servers[0].pass_env[0]`,
			}},
		{"url parse", "url = \"http://h:port/mcp\"\n",
			[]string{`gate.toml:3:7: servers[0].url: bad url: invalid port ":port" after host; want one like "http://127.0.0.1:9000/mcp"`}},
		{"url credentials", "url = \"https://user:secret@h/mcp\"\n",
			[]string{`gate.toml:3:7: servers[0].url: url with credentials (user@ or user:password@): leave them out, since a manifest's URLs show up in logs and status; a header taken from a secret is the place for them`}},
		{"url scheme", "url = \"ftp://h/mcp\"\n",
			[]string{`gate.toml:3:7: servers[0].url: url scheme "ftp": want http or https (MCP's streamable HTTP transport)`}},
		{"url without scheme", "url = \"/mcp\"\n",
			[]string{`gate.toml:3:7: servers[0].url: url without a scheme: want http:// or https://, like "http://127.0.0.1:9000/mcp"`}},
		{"url without host", "url = \"http://:9000/mcp\"\n",
			[]string{`gate.toml:3:7: servers[0].url: url without a host: want one like "http://127.0.0.1:9000/mcp"`}},
		{"url fragment", "url = \"http://h/mcp#\"\n",
			[]string{`gate.toml:3:7: servers[0].url: url with a fragment (#...): leave it out, since HTTP never sends it to the server`}},
		{"url type", "url = 9000\n",
			[]string{`gate.toml:3:7: servers[0].url: want a URL (a string) like "http://127.0.0.1:9000/mcp", got integer 9000`}},
		{"prefix", "url = \"http://h\"\nprefix = \"gh:\"\n",
			[]string{`gate.toml:4:10: servers[0].prefix: bad prefix "gh:": want at most 64 letters, digits, _ - or . (what MCP allows in a tool name), or "" for none`}},
		{"prefix too long", "url = \"http://h\"\nprefix = \"" + strings.Repeat("p", 65) + "\"\n",
			[]string{`gate.toml:4:10: servers[0].prefix: bad prefix "` + strings.Repeat("p", 65) + `": want at most 64 letters, digits, _ - or . (what MCP allows in a tool name), or "" for none`}},
		{"call_timeout", "url = \"http://h\"\ncall_timeout = 30\n",
			[]string{`gate.toml:4:16: servers[0].call_timeout: want a duration string like "30s", got integer 30`}},
		{"call_timeout syntax", "url = \"http://h\"\ncall_timeout = \"30\"\n",
			[]string{`gate.toml:4:16: servers[0].call_timeout: bad duration "30": want a number and a unit (ns, us, ms, s, m, h), like "30s" or "1m30s"`}},
		{"call_timeout zero", "url = \"http://h\"\ncall_timeout = \"0s\"\n",
			[]string{`gate.toml:4:16: servers[0].call_timeout: call_timeout 0s: want more than 0`}},
		{"call_timeout long", "url = \"http://h\"\ncall_timeout = \"24h1s\"\n",
			[]string{`gate.toml:4:16: servers[0].call_timeout: call_timeout 24h0m1s: want at most 24h (a call that takes longer is a hung server, not a slow one)`}},
		{"breaker type", "url = \"http://h\"\nbreaker = true\n",
			[]string{`gate.toml:4:11: servers[0].breaker: want a table like { failures = 5, window = "5m", cooldown = "30s" }, got boolean true`}},
		{"breaker failures", "url = \"http://h\"\nbreaker = { failures = 2.5 }\n",
			[]string{`gate.toml:4:24: servers[0].breaker.failures: want an integer (0 turns the breaker off), got float 2.5`}},
		{"breaker failures negative", "url = \"http://h\"\n[servers.breaker]\nfailures = -3\n",
			[]string{`gate.toml:5:12: servers[0].breaker.failures: failures -3: want 0 (no breaker) or more`}},
		{"breaker failures many", "url = \"http://h\"\n[servers.breaker]\nfailures = 1001\n",
			[]string{`gate.toml:5:12: servers[0].breaker.failures: failures 1001: want at most 1000`}},
		{"breaker window", "url = \"http://h\"\nbreaker = { window = \"-1s\", cooldown = \"24h0m1s\" }\n",
			[]string{
				`gate.toml:4:22: servers[0].breaker.window: window -1s: want more than 0`,
				`gate.toml:4:40: servers[0].breaker.cooldown: cooldown 24h0m1s: want at most 24h`,
			}},
		{"breaker key", "command = [\"x\"]\nbreaker = { failure = 5 }\n",
			[]string{`gate.toml:4:13: servers[0].breaker: unknown key "failure" (known: failures, window, cooldown)`}},
		{"breaker without an upstream", "breaker = {}\n",
			[]string{`gate.toml:3:1: servers[0].breaker: breaker needs command or url: it is about the MCP server the gateway fronts, which command (run over stdio) or url (streamable HTTP) names`}},
		{"tools as a table", "url = \"http://h\"\n[servers.tools]\nname = \"t\"\n",
			[]string{`gate.toml:4:1: servers[0].tools: want an array of tables, got table (write [[servers.tools]], with two brackets, once per rule)`}},
		{"rules", "url = \"http://h\"\n" +
			"[[servers.tools]]\nprobe = \"env:A\"\n" + // 4: neither
			"[[servers.tools]]\nname = \"a\"\nmatch = \"a*\"\nprobe = \"env:A\"\n" + // 6: both
			"[[servers.tools]]\nname = \"bad name\"\n" + // 10: bad name, no probe
			"[[servers.tools]]\nmatch = \"[a-\"\nprobe = \"env:A\"\ncolour = 1\n" + // 12
			"[[servers.tools]]\nmatch = \"\"\nprobe = \"envx:A\"\n" + // 16
			"[[servers.tools]]\nmatch = \"" + strings.Repeat("*", 129) + "\"\nprobe = \"env:A\"\n" + // 19
			"[[servers.tools]]\nname = \"x\"\nprobe = \"env:A\"\n" + // 22
			"[[servers.tools]]\nmatch = \"x\"\nprobe = \"env:A\"\n" + // 25
			"tools = 1\n",
			[]string{
				`gate.toml:4:1: servers[0].tools[0]: missing name or match: a rule fits one tool, name = "TOOL", or a pattern of them, match = "write_*"`,
				`gate.toml:8:1: servers[0].tools[1].match: name and match are mutually exclusive: a rule fits either one tool by its name or the tools whose names match a pattern`,
				`gate.toml:10:1: servers[0].tools[2]: missing probe: a rule offers the tools it fits only while its probe says they are available, like probe = "env:GITHUB_TOKEN"`,
				`gate.toml:11:8: servers[0].tools[2].name: bad tool name "bad name": want 1 to 128 letters, digits, _ - or . (what MCP allows in a tool name)`,
				`gate.toml:13:9: servers[0].tools[3].match: bad pattern "[a-": want a path.Match pattern: * ? [abc] [a-z] [^abc], and \ before a character to take it as it is`,
				`gate.toml:15:1: servers[0].tools[3]: unknown key "colour" (known: name, match, probe)`,
				`gate.toml:17:9: servers[0].tools[4].match: empty pattern: want one like "write_*" ("*" fits every tool)`,
				`gate.toml:18:9: servers[0].tools[4].probe: probe shorthand "envx:A": unknown kind "envx" (kinds: env, tcp, import, http, https, redis, postgres, docker, mcp, tls, memcached)`,
				`gate.toml:20:9: servers[0].tools[5].match: pattern of 129 bytes: want at most 128`,
				`gate.toml:26:9: servers[0].tools[7].match: duplicate rule "x": already used at line 23 (the gateway registers each rule's probe as "SERVER#RULE")`,
				`gate.toml:28:1: servers[0].tools[7]: unknown key "tools" (known: name, match, probe)`,
			}},
		{"rule shapes", "command = [\"x\"]\ntools = [1, { name = 2, probe = 3 }]\n",
			[]string{
				`gate.toml:4:10: servers[0].tools[0]: want a table, got integer 1`,
				`gate.toml:4:22: servers[0].tools[1].name: want a tool name (a string), got integer 2`,
				`gate.toml:4:33: servers[0].tools[1].probe: want a standard probe like "env:API_KEY" or a table like { module = "probe.wasm" }, got integer 3`,
			}},
		{"rule probe budget over runtime's", "command = [\"x\"]\ntools = [{ name = \"t\", probe = { standard = \"env:A\", budget = \"60ms\" } }]\n[runtime]\nbudget = \"50ms\"\n",
			[]string{`gate.toml:4:63: servers[0].tools[0].probe.budget: budget 60ms: want at most runtime.budget (50ms): a probe's budget can only lower the runtime's`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "[[servers]]\nname = \"s\"\n" + tc.src
			errs := parseErrs(t, src)
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
				assert.NotEmpty(t, e.Detail())
			}
			assert.Equal(t, tc.want, got)
			_, _, misses := parse("gate.toml", []byte(src))
			assert.Empty(t, misses, "paths the index does not know")
		})
	}
}

// The rules of one server are capped like tools: more is a broken file.
func TestUpstreamRuleLimit(t *testing.T) {
	src := "[[servers]]\nname = \"s\"\nurl = \"http://h\"\n" + strings.Repeat("[[servers.tools]]\nmatch = \"*\"\nprobe = \"env:A\"\n", 3)
	_, err := ParseWithLimits("gate.toml", []byte(src), Limits{MaxTools: 2})
	var errs Errors
	require.ErrorAs(t, err, &errs)
	require.Len(t, errs, 1)
	assert.Equal(t, "gate.toml:10:1: servers[0].tools[2]: more than 2 tool rules in one server (manifest.Limits.MaxTools)", errs[0].Error())
}
