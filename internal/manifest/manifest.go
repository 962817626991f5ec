// Package manifest loads gate.toml, the file that says which tools and
// servers an agent has and how gate finds out whether each is usable now.
//
// A manifest has four parts, all optional (an empty file is a valid
// manifest with nothing in it):
//
//	[runtime]    how probes run and how long their answers are reused
//	[skills]     where skills live and how strictly their requirements are enforced
//	[[tools]]    one per agent tool, each with an optional probe
//	[[servers]]  one per MCP-style server, each with an optional probe and,
//	             for a server gate's MCP gateway fronts, how to reach it
//
// A probe is written either as a standard-probe shorthand string
// (probe = "env:SERP_API_KEY", see internal/probes) or as a table naming a
// WebAssembly module with its config, grants and budget (or a standard
// probe with a budget of its own). Either table may name a CA file for the
// probe's TLS peers and let the host's proxy variables apply; a shorthand
// string cannot, so a standard probe that needs them is written as a table:
// probe = { standard = "tcp:db.internal:5432", tls_ca = "ca.pem" }.
//
// Load and Parse check everything they can without touching anything but
// the manifest itself, and report every problem at once, each at its line
// and column with the source line and a caret under the culprit: a user
// fixing a manifest should not have to run gate once per typo. They do not
// check that probe modules exist; whoever opens them does, and can point
// at Probe.Pos when one is missing.
//
// Unset values are nil (or zero), never defaulted here: the runtime owns
// its defaults, and a consumer can tell "not written" from "written as the
// default".
package manifest

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gate-dev/gate/hostfuncs"
)

// Position is a place in a manifest file. Line and Col are 1-based; Col
// counts bytes, as Go's own tools do, so a column after non-ASCII text is
// larger than the number of characters before it. Line and Col are 0 only
// for problems with the file as a whole (it could not be read).
type Position struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// String returns "FILE:LINE:COL" ("gate.toml:12:3"), the form editors and
// terminals recognise; just FILE when the line is unknown, and
// "LINE:COL" when there is no file name.
func (p Position) String() string {
	switch {
	case p.Line <= 0:
		return p.File
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	default:
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
	}
}

// IsValid reports whether p names a line.
func (p Position) IsValid() bool { return p.Line > 0 }

// Manifest is a parsed and checked gate.toml.
type Manifest struct {
	// Path is the manifest's absolute path; relative paths inside it have
	// been resolved against its directory.
	Path string `json:"path"`
	// Runtime tunes how probes run; its zero value leaves every default
	// to the runtime.
	Runtime Runtime `json:"runtime"`
	// Skills says where skills live and how they are enforced.
	Skills Skills `json:"skills"`
	// Tools are the agent tools, in file order. Names are unique.
	Tools []Tool `json:"tools,omitempty"`
	// Servers are the MCP-style servers, in file order. Names are unique.
	Servers []Server `json:"servers,omitempty"`
}

// Runtime is the [runtime] table. Every field is optional; nil or zero
// means "not written", and the runtime then applies its own default
// (which this package deliberately does not copy, so there is one place
// to change it).
type Runtime struct {
	// TTL is how long a probe's answer is reused; 0 re-probes every time.
	// Never negative.
	TTL *time.Duration `json:"ttl,omitempty"`
	// Grace is how long a last-good answer survives failing re-probes
	// after its TTL ran out, so that one flaky probe run does not hide a
	// tool. Never negative.
	Grace *time.Duration `json:"grace,omitempty"`
	// Budget is the time each probe run may take: more than 0 and at most
	// 100ms, the runtime's hard maximum (a probe answers at schema-build
	// time, and a schema build that waits longer is broken).
	Budget *time.Duration `json:"budget,omitempty"`
	// Memory caps each probe instance's linear memory, in bytes, from
	// 64 KiB (one WebAssembly page) to 4 GiB (the most a 32-bit module can
	// address). The runtime rounds it up to whole pages.
	Memory *uint64 `json:"memory,omitempty"`
	// CacheDir is where compiled probes are kept between processes:
	// absolute when non-empty; a pointer to "" when the manifest turns the
	// cache off explicitly.
	CacheDir *string `json:"cache_dir,omitempty"`
	// Python is the interpreter that answers "py:" imports: a command
	// name looked up on PATH, or an absolute path (a value with a slash is
	// a path, resolved against the manifest's directory). "" = not set.
	Python string `json:"python,omitempty"`
	// Concurrency caps how many probes execute at once; 0 = not set,
	// otherwise at least 1.
	Concurrency int `json:"concurrency,omitempty"`
	// MaxRuns caps how many runs are in flight at once; 0 = not set,
	// otherwise at least 1.
	MaxRuns int `json:"max_runs,omitempty"`
	// Policy is the availability policy of every tool and server that
	// does not write its own keys; nil = none of its keys written.
	Policy *Policy `json:"policy,omitempty"`
}

// Policy is the keys that say how probe answers turn into what is listed
// (failure_threshold, success_threshold, retry, hold_down), as written in
// [runtime] or on a [[tools]] or [[servers]] entry; the runtime's Policy
// documents what they do. Each field is "not written" at its zero value,
// so that a tool's keys override [runtime]'s one by one.
type Policy struct {
	// FailureThreshold and SuccessThreshold are at least 1; 0 = not
	// written.
	FailureThreshold int `json:"failure_threshold,omitempty"`
	SuccessThreshold int `json:"success_threshold,omitempty"`
	// Retry is more than 0; nil = not written (the TTL).
	Retry *time.Duration `json:"retry,omitempty"`
	// HoldDown is 0 or more; nil = not written (none).
	HoldDown *time.Duration `json:"hold_down,omitempty"`
}

// The canonical enforcement levels of skill capability gates, weakest
// first (see package skills). The manifest accepts the same synonyms as
// SKILL_CAPABILITY_ENFORCEMENT (see ParseEnforcement); Skills.Enforcement
// always holds one of these.
const (
	// EnforcementDisabled validates skills but logs nothing ("off").
	EnforcementDisabled = "disabled"
	// EnforcementTelemetry logs what is missing and blocks nothing
	// ("log").
	EnforcementTelemetry = "telemetry"
	// EnforcementWarn, the default, offers a skill with missing
	// requirements as degraded, with warnings ("warning").
	EnforcementWarn = "warn"
	// EnforcementStrict leaves out of the prompt every skill whose
	// requirements are not all met ("hard", "fail").
	EnforcementStrict = "strict"
)

// Skills is the [skills] table.
type Skills struct {
	// Paths are the directories skills are loaded from, absolute, in file
	// order. nil = not written; an empty, non-nil slice = written as [].
	Paths []string `json:"paths"`
	// Enforcement is one of the Enforcement constants, or "" when not
	// written (the runtime's default applies).
	Enforcement string `json:"enforcement,omitempty"`
	// AllowedToolsRequired says whether the tool names in a skill's
	// allowed-tools count as tools it requires, as PraisonAI counts
	// them; nil = not written, which means true. Turn it off for hosts
	// whose tool names differ from Claude's (allowed-tools lists Claude
	// Code permissions such as "Bash(git add:*)").
	AllowedToolsRequired *bool `json:"allowed_tools_required,omitempty"`
	// FollowOutsideLinks lets discovery follow a symbolic link in a skills
	// folder to a directory or SKILL.md outside it; false, the default,
	// reports such a link and leaves it: a link to / would offer the
	// model every SKILL.md on the machine.
	FollowOutsideLinks bool `json:"follow_outside_links,omitempty"`
	// Pos is where the [skills] table starts; zero when there is none.
	Pos Position `json:"pos"`
}

// Tool is one [[tools]] entry: a function an agent may be offered.
type Tool struct {
	// Name is what the model calls: 1 to 64 of A-Z a-z 0-9 _ -, the
	// intersection of what the OpenAI and Anthropic APIs accept.
	Name string `json:"name"`
	// Description is shown to the model; "" when not written.
	Description string `json:"description,omitempty"`
	// Toolset is the toolset the tool belongs to, as a Hermes skill names
	// it in requires_toolsets and fallback_for_toolsets ("web",
	// "terminal"): 1 to 64 of A-Z a-z 0-9 _ - . ; "" when not written,
	// and the tool is then in the toolset of its own name (package skills).
	// A tool belongs to one toolset, as a tool of Hermes' registry does.
	Toolset string `json:"toolset,omitempty"`
	// Parameters is the tool's JSON Schema, a table whose "type" is
	// "object", as the JSON object encoding/json would write for it (keys
	// sorted, strings HTML-escaped); nil when not written. TOML
	// datetimes, NaN and infinities, which JSON cannot carry, are
	// rejected. It is bytes rather than a map because every user of the
	// parameters wants JSON (model APIs, MCP clients), and a Gate keeps
	// its Manifest: bytes are far smaller than the maps.
	Parameters json.RawMessage `json:"parameters,omitempty"`
	// Probe answers whether the tool is usable now; nil means it always
	// is.
	Probe *Probe `json:"probe,omitempty"`
	// Policy is the availability policy keys written on the tool; nil =
	// none.
	Policy *Policy `json:"policy,omitempty"`
	// Pos is where the tool's [[tools]] header (or inline table) starts.
	Pos Position `json:"pos"`
}

// Server is one [[servers]] entry: an MCP-style server whose tools come
// and go together.
type Server struct {
	// Name is 1 to 128 of A-Z a-z 0-9 _ . : / @ -, enough for
	// "mcp:filesystem" or "@org/server".
	Name string `json:"name"`
	// Description is for people; "" when not written.
	Description string `json:"description,omitempty"`
	// Probe answers whether the server is usable now; nil means it always
	// is.
	Probe *Probe `json:"probe,omitempty"`
	// Policy is the availability policy keys written on the server; nil
	// = none.
	Policy *Policy `json:"policy,omitempty"`
	// Upstream, when not nil, is the MCP server behind this entry, which
	// gate's MCP gateway fronts (docs/MCP.md). It is written as command
	// or url on the [[servers]] entry, with the keys that go with them.
	Upstream *Upstream `json:"upstream,omitempty"`
	// Pos is where the server's [[servers]] header (or inline table)
	// starts.
	Pos Position `json:"pos"`
}

// Upstream is how the MCP gateway reaches a server and which of its tools
// it offers. Exactly one of Command and URL is set. As everywhere in a
// Manifest, a slice is nil when its key is not written and empty, not
// nil, when it is written empty (env = {}, pass_env = [], tools = []).
type Upstream struct {
	// Command is the argv of a server spoken to over stdio: 1 to 64
	// strings of at most 4096 bytes, without NUL bytes, the first not
	// blank. A Command[0] with a slash is a path, made absolute against
	// the manifest's directory (so that the manifest means the same
	// wherever gate is started); one without is looked up on PATH when
	// it is started. The other strings are passed as written.
	Command []string `json:"command,omitempty"`
	// Env is the environment Command runs with, sorted by name (so that
	// it does not depend on the order of a TOML table), written as
	// env = { NAME = "value" }; names are what probes.ValidEnvName
	// accepts, values have no NUL byte; each ${secret:NAME} in a value is
	// expanded from gate's environment when the command starts
	// (SecretNames, ExpandSecrets). The command gets these, the PassEnv
	// variables and the default environment (DefaultEnv), nothing else
	// of gate's environment, so that a server sees no secret it was not
	// given. Only with Command.
	Env []EnvVar `json:"env,omitempty"`
	// PassEnv names variables of gate's own environment the command gets
	// too (when set), in file order, each once: pass_env = ["HOME",
	// "PATH"]. Only with Command.
	PassEnv []string `json:"pass_env,omitempty"`
	// DefaultEnv says whether the command also gets the variables the MCP
	// SDKs pass every stdio server they launch (HOME, LOGNAME, PATH,
	// SHELL, TERM, USER, from gate's environment); nil = not written,
	// which is true. default_env = false gives it only Env and PassEnv.
	// Only with Command.
	DefaultEnv *bool `json:"default_env,omitempty"`
	// URL is the endpoint of a server spoken to over streamable HTTP, as
	// written: http or https (in any case), with a host, without
	// credentials (a manifest's URLs end up in logs and status) or a
	// fragment (HTTP never sends one).
	URL string `json:"url,omitempty"`
	// Transport is how the server at URL is spoken to: "" for MCP's
	// streamable HTTP (the default, also written "streamable"), or
	// TransportSSE for the HTTP+SSE transport of 2024-11-05. Only with
	// URL.
	Transport string `json:"transport,omitempty"`
	// Headers are sent with every request to URL's origin, and nowhere
	// else, sorted by lower-case name (see Header); nil = not written.
	// At most 32; not a header the transport sets itself (Host,
	// Content-Type, Mcp-Session-Id, ...). Only with URL.
	Headers []Header `json:"headers,omitempty"`
	// OAuth, when not nil, has the gateway get an access token with the
	// client-credentials grant and send it to URL's origin as the
	// Authorization header (see OAuth). Only with URL, and not with an
	// Authorization header.
	OAuth *OAuth `json:"oauth,omitempty"`
	// Prefix goes before each of the server's tool names, to keep names
	// unique across servers; nil = not written, and the gateway's
	// default applies (the server's name, with every character outside
	// A-Z a-z 0-9 _ - . made "_", then "_"). "" is written as no prefix.
	// At most 64 of A-Z a-z 0-9 _ - . (MCP's tool-name characters).
	Prefix *string `json:"prefix,omitempty"`
	// CallTimeout bounds each forwarded tools/call; nil = not written
	// (the gateway's default applies). More than 0, at most 24h.
	CallTimeout *time.Duration `json:"call_timeout,omitempty"`
	// Breaker sets the circuit breaker of the server's forwarded calls;
	// nil = not written (the gateway's defaults apply).
	Breaker *Breaker `json:"breaker,omitempty"`
	// Pin says whether the gateway checks the server's tools against the
	// lock file beside the manifest (see Pin); PinOff when not written.
	Pin Pin `json:"pin,omitempty"`
	// Tools are rules for the server's tools, in file order; the first
	// whose Name or Match fits a tool decides it. A tool no rule fits is
	// offered whenever its server is. Their Rule()s are unique, and there
	// are at most Limits.MaxTools of them.
	Tools []UpstreamTool `json:"tools,omitempty"`
}

// Breaker is a server's breaker table: after Failures forwarded calls in
// a row failed at the transport or timed out, all within Window, the
// gateway hides the server's tools until its probe says available again,
// or, without a probe that saw the failure, until Cooldown has passed and
// a trial call succeeds. Each field is nil when not written (the
// gateway's default applies).
type Breaker struct {
	// Failures is 0 (no breaker) to 1000.
	Failures *int `json:"failures,omitempty"`
	// Window is more than 0, at most 24h.
	Window *time.Duration `json:"window,omitempty"`
	// Cooldown is more than 0, at most 24h.
	Cooldown *time.Duration `json:"cooldown,omitempty"`
}

// EnvVar is one variable of an upstream command's environment.
type EnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// UpstreamTool is one [[servers.tools]] rule: the upstream tools it fits
// are offered only while its probe says available. Exactly one of Name
// and Match is set.
type UpstreamTool struct {
	// Name is one upstream tool's name as the server gives it (before
	// the prefix): 1 to 128 of A-Z a-z 0-9 _ - .
	Name string `json:"name,omitempty"`
	// Match is a path.Match pattern over upstream tool names ("write_*"):
	// 1 to 128 bytes, checked to be a valid pattern.
	Match string `json:"match,omitempty"`
	// Probe answers whether the tools the rule fits are usable now.
	// Required. The runtime registers it with the servers as
	// "SERVER#RULE" (RULE is Name or Match), where '#' cannot occur in a
	// server name, so status, events and metrics report it like a server.
	Probe *Probe `json:"probe"`
	// Pos is where the rule's [[servers.tools]] header (or inline table)
	// starts.
	Pos Position `json:"pos"`
}

// Rule returns the rule's Name, or its Match when it has no name.
func (t UpstreamTool) Rule() string {
	if t.Name != "" {
		return t.Name
	}
	return t.Match
}

// Probe says how to ask whether a tool or server is usable. Exactly one
// of Standard and Module is set.
type Probe struct {
	// Standard is a standard-probe shorthand in canonical form
	// ("env:A,B", "tcp:localhost:5432", "import:py:psycopg2"); its config
	// and grants follow from it (probes.ParseShorthand), so Config and
	// Grants are empty (Budget, TLSCA and Proxy may be set).
	Standard string
	// Module is the absolute, cleaned path of a WebAssembly probe. It is
	// not checked to exist: the runtime does that when it opens it.
	Module string
	// SHA256 pins Module's contents: 64 lower-case hex digits, or "" for
	// no pin.
	SHA256 string
	// Config is what the probe reads with gate.config; nil when not
	// written.
	Config map[string]string
	// Grants are the probe's grants as the runtime takes them: variables
	// it may read, addresses it may dial, import specs it may look up, URL
	// prefixes it may request, secrets it may send (each with its
	// destinations) and addresses it may reach over TLS unverified. Each
	// entry has been checked with the same rules the runtime applies, and
	// every secret has a destination. In JSON its lists sit flat on the
	// probe's object ("env", "dial", "import", "http", "secrets",
	// "insecure").
	Grants hostfuncs.Grants
	// TLSCA is the absolute, cleaned path of a PEM file whose
	// certificates, and only those, verify the probe's TLS peers (tls:
	// streams, https: requests); "" verifies against the system roots.
	// Like Module it is not read here: the runtime reads it (at most
	// 1 MiB) when it loads the probe, and reports a file that holds no
	// certificate. Allowed with Standard.
	TLSCA string
	// Budget lowers the runtime's budget for this probe; nil keeps it.
	// More than 0, at most 100ms, and at most runtime.budget when that is
	// written.
	Budget *time.Duration
	// Pos is the position of the probe key, for messages about the probe
	// as a whole (a missing module, say).
	Pos Position
	// Proxy sends the probe's HTTP requests through the proxy the host's
	// HTTPS_PROXY, HTTP_PROXY and NO_PROXY name; false, the default, lets
	// no proxy variable of the host apply, so that a probe's answer does
	// not depend on who started gate. Allowed with Standard. (Last, so
	// that its byte pads nothing in between.)
	Proxy bool
}

// probeJSON is a Probe as JSON has it: the grants' lists flat on the
// probe's object, each key where it has always been.
type probeJSON struct {
	Standard string              `json:"standard,omitempty"`
	Module   string              `json:"module,omitempty"`
	SHA256   string              `json:"sha256,omitempty"`
	Config   map[string]string   `json:"config,omitempty"`
	Env      []string            `json:"env,omitempty"`
	Dial     []string            `json:"dial,omitempty"`
	Import   []string            `json:"import,omitempty"`
	HTTP     []string            `json:"http,omitempty"`
	Secrets  map[string][]string `json:"secrets,omitempty"`
	Insecure []string            `json:"insecure,omitempty"`
	TLSCA    string              `json:"tls_ca,omitempty"`
	Proxy    bool                `json:"proxy,omitempty"`
	Budget   *time.Duration      `json:"budget,omitempty"`
	Pos      Position            `json:"pos"`
}

// MarshalJSON writes the probe with its grants' lists flat on its object.
func (p Probe) MarshalJSON() ([]byte, error) {
	g := p.Grants
	return json.Marshal(probeJSON{
		Standard: p.Standard, Module: p.Module, SHA256: p.SHA256, Config: p.Config,
		Env: g.Env, Dial: g.Dial, Import: g.Import, HTTP: g.HTTP, Secrets: g.Secrets, Insecure: g.Insecure,
		TLSCA: p.TLSCA, Proxy: p.Proxy, Budget: p.Budget, Pos: p.Pos,
	})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (p *Probe) UnmarshalJSON(b []byte) error {
	var j probeJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*p = Probe{
		Standard: j.Standard, Module: j.Module, SHA256: j.SHA256, Config: j.Config,
		Grants: hostfuncs.Grants{Env: j.Env, Dial: j.Dial, Import: j.Import, HTTP: j.HTTP, Secrets: j.Secrets, Insecure: j.Insecure},
		TLSCA:  j.TLSCA, Proxy: j.Proxy, Budget: j.Budget, Pos: j.Pos,
	}
	return nil
}
