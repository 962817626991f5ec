package skills

import (
	"encoding/json"
	"os"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/skillhost"
)

func validator(level Level, host skillhost.Map) skillValidator {
	return skillValidator{Level: level, Host: host}
}

// avail is what a Manager makes of tools and servers, with no toolset
// declared: each tool is in the toolset of its own name.
func avail(tools, servers []string) availability {
	return availability{Tools: newNameSet(tools...), Servers: newNameSet(servers...), Toolsets: toolsetsOf(tools, nil)}
}

// The cases of TestCapabilityValidator in PraisonAI's
// test_capability_validator.py; each test names the one it ports.

func TestValidateNoRequirements(t *testing.T) { // test_validate_skill_no_requirements, test_validate_skill_empty_requirements
	for _, req := range []*Requirements{nil, {}} {
		r := validator(LevelStrict, skillhost.Map{}).Validate("test-skill", req, availability{})
		assert.Equal(t, "test-skill", r.SkillName)
		assert.Equal(t, StateActive, r.State)
		assert.True(t, r.IsFullySatisfied)
		assert.False(t, r.HasCriticalMissing)
	}
}

func TestValidateSatisfied(t *testing.T) { // test_validate_skill_satisfied_requirements
	req := &Requirements{Tools: []string{"test_tool"}, Servers: []string{"test_server"}, Env: []string{"TEST_VAR"}}
	r := validator(LevelWarn, skillhost.Map{Env: map[string]string{"TEST_VAR": "value"}}).
		Validate("s", req, avail([]string{"test_tool"}, []string{"test_server"}))
	assert.Equal(t, StateActive, r.State)
	assert.Equal(t, []string{"test_tool"}, r.SatisfiedTools)
	assert.Equal(t, []string{"test_server"}, r.SatisfiedServers)
	assert.Equal(t, []string{"TEST_VAR"}, r.SatisfiedEnvVars)
	assert.True(t, r.IsFullySatisfied)
}

func TestValidateMissingToolsWarn(t *testing.T) { // test_validate_skill_missing_tools_warn_mode
	r := validator(LevelWarn, skillhost.Map{}).Validate("s", &Requirements{Tools: []string{"missing_tool"}}, avail(nil, nil))
	assert.Equal(t, StateDegraded, r.State)
	assert.Equal(t, []string{"missing_tool"}, r.MissingTools)
	assert.False(t, r.IsFullySatisfied)
	assert.True(t, r.HasCriticalMissing)
	require.Len(t, r.Warnings, 1)
	assert.Contains(t, r.Warnings[0], "missing_tool")
	assert.Empty(t, r.Errors)
}

func TestValidateMissingToolsStrict(t *testing.T) { // test_validate_skill_missing_tools_strict_mode
	r := validator(LevelStrict, skillhost.Map{}).Validate("s", &Requirements{Tools: []string{"missing_tool"}}, avail(nil, nil))
	assert.Equal(t, StateUnavailable, r.State)
	require.Len(t, r.Errors, 1)
	assert.Contains(t, r.Errors[0], "missing_tool")
	assert.True(t, r.HasCriticalMissing)
}

func TestValidateMissingEnvWarn(t *testing.T) { // test_validate_skill_missing_env_vars_warn
	r := validator(LevelWarn, skillhost.Map{}).Validate("s", &Requirements{Env: []string{"MISSING_VAR"}}, availability{})
	assert.Equal(t, StateDegraded, r.State)
	assert.Equal(t, []string{"MISSING_VAR"}, r.MissingEnvVars)
	assert.Len(t, r.Warnings, 1)
	assert.Empty(t, r.Errors)
	assert.False(t, r.HasCriticalMissing, "env vars are not critical, as in the original")
}

func TestValidateMissingEnvStrict(t *testing.T) { // test_validate_skill_missing_env_vars_strict
	r := validator(LevelStrict, skillhost.Map{}).Validate("s", &Requirements{Env: []string{"MISSING_VAR"}}, availability{})
	assert.Equal(t, StateUnavailable, r.State)
	assert.Empty(t, r.Warnings)
	assert.Len(t, r.Errors, 1)
}

func TestValidateEmptyEnvIsMissing(t *testing.T) {
	r := validator(LevelWarn, skillhost.Map{Env: map[string]string{"EMPTY": ""}}).Validate("s", &Requirements{Env: []string{"EMPTY"}}, availability{})
	assert.Equal(t, []string{"EMPTY"}, r.MissingEnvVars)
}

func TestValidateServerActiveStrict(t *testing.T) { // test_mcp_gated_skill_passes_strict_when_server_active
	r := validator(LevelStrict, skillhost.Map{}).Validate("s", &Requirements{Servers: []string{"filesystem"}}, avail(nil, []string{"filesystem"}))
	assert.NotEqual(t, StateUnavailable, r.State)
	assert.Equal(t, []string{"filesystem"}, r.SatisfiedServers)
}

func TestValidateDefaultHostIsTheProcess(t *testing.T) {
	t.Setenv("GATE_SKILLS_TEST_VAR", "1")
	r := skillValidator{}.Validate("s", &Requirements{Env: []string{"GATE_SKILLS_TEST_VAR"}}, availability{})
	assert.Equal(t, StateActive, r.State)
}

// TestResultJSON: PraisonAI's ValidationResult.to_dict() keys, in its
// order, then gate's (PraisonAI's test_validation_result_to_dict).
func TestResultJSON(t *testing.T) {
	r := validator(LevelWarn, skillhost.Map{GOOS: "linux"}).Validate("s", &Requirements{Tools: []string{"a", "b"}, Servers: []string{"mcp:x"}}, avail([]string{"a"}, nil))
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.Equal(t, `{"skill_name":"s","state":"degraded","satisfied_tools":["a"],"missing_tools":["b"],`+
		`"satisfied_servers":[],"missing_servers":["mcp:x"],"satisfied_env_vars":[],"missing_env_vars":[],`+
		`"warnings":["Missing required tools: b","Missing required servers: mcp:x"],"errors":[],`+
		`"is_fully_satisfied":false,"has_critical_missing":true,`+
		`"satisfied_toolsets":[],"missing_toolsets":[],"satisfied_bins":[],"missing_bins":[],`+
		`"satisfied_any_bins":[],"missing_any_bins":[],"os":"linux","supported_os":[],"os_supported":true,"notes":[]}`, string(b))
}

// TestValidateStates is the skill states table of PraisonAI's Skill
// Capability Gates documentation, extended to gate's kinds, at every level:
// what each kind of missing requirement does.
func TestValidateStates(t *testing.T) {
	host := skillhost.Map{Env: map[string]string{"SET": "1"}, Bins: []string{"git"}, GOOS: "linux"}
	have := avail([]string{"tool"}, []string{"server"})
	type want struct {
		state    State
		critical bool
		msg      string
	}
	for _, tc := range []struct {
		name   string
		req    Requirements
		warn   want // at disabled, telemetry and warn
		strict want
	}{
		{"all met", Requirements{Tools: []string{"tool"}, Servers: []string{"server"}, Env: []string{"SET"}, Bins: []string{"git"}, Toolsets: []string{"tool"}, OS: []string{"linux"}},
			want{StateActive, false, ""}, want{StateActive, false, ""}},
		{"tool", Requirements{Tools: []string{"tool", "t2", "t3"}}, want{StateDegraded, true, "Missing required tools: t2, t3"}, want{StateUnavailable, true, "Missing required tools: t2, t3"}},
		{"server", Requirements{Servers: []string{"mcp:a", "mcp:b"}}, want{StateDegraded, true, "Missing required servers: mcp:a, mcp:b"}, want{StateUnavailable, true, "Missing required servers: mcp:a, mcp:b"}},
		// A server is in no toolset: only tools make one present.
		{"toolset", Requirements{Toolsets: []string{"tool", "server", "web"}}, want{StateDegraded, true, "Missing required toolsets: server, web"}, want{StateUnavailable, true, "Missing required toolsets: server, web"}},
		{"env", Requirements{Env: []string{"A", "SET", "B"}}, want{StateDegraded, false, "Missing required environment variables: A, B"}, want{StateUnavailable, false, "Missing required environment variables: A, B"}},
		{"bins", Requirements{Bins: []string{"git", "docker", "kubectl"}}, want{StateDegraded, false, "Missing required binaries: docker, kubectl"}, want{StateUnavailable, false, "Missing required binaries: docker, kubectl"}},
		{"anyBins none", Requirements{AnyBins: []string{"rg", "ag"}}, want{StateDegraded, false, "Missing all of the binaries: rg, ag"}, want{StateUnavailable, false, "Missing all of the binaries: rg, ag"}},
		{"anyBins one", Requirements{AnyBins: []string{"rg", "git"}}, want{StateActive, false, ""}, want{StateActive, false, ""}},
		{"os", Requirements{OS: []string{"darwin", "windows"}}, want{StateUnavailable, false, "Not supported on linux (supports: darwin, windows)"}, want{StateUnavailable, false, "Not supported on linux (supports: darwin, windows)"}},
		{"always skips bins and OpenClaw env", Requirements{Always: true, Bins: []string{"docker"}, AnyBins: []string{"rg"}, Env: []string{"OC"}, OpenClawEnv: []string{"OC"}}, want{StateActive, false, ""}, want{StateActive, false, ""}},
		{"always keeps requires_env", Requirements{Always: true, Env: []string{"TOP", "OC"}, OpenClawEnv: []string{"OC"}}, want{StateDegraded, false, "Missing required environment variables: TOP"}, want{StateUnavailable, false, "Missing required environment variables: TOP"}},
		{"always keeps os", Requirements{Always: true, OS: []string{"darwin"}}, want{StateUnavailable, false, "Not supported on linux (supports: darwin)"}, want{StateUnavailable, false, "Not supported on linux (supports: darwin)"}},
		{"always keeps tools", Requirements{Always: true, Tools: []string{"x"}}, want{StateDegraded, true, "Missing required tools: x"}, want{StateUnavailable, true, "Missing required tools: x"}},
		{"config is a note", Requirements{Config: []string{"browser.enabled"}}, want{StateActive, false, ""}, want{StateActive, false, ""}},
		{"fallback lists never change the state", Requirements{FallbackForTools: []string{"tool"}, FallbackForServers: []string{"server"}}, want{StateActive, false, ""}, want{StateActive, false, ""}},
	} {
		for _, level := range []Level{LevelDisabled, LevelTelemetry, LevelWarn, LevelStrict} {
			t.Run(tc.name+"/"+level.String(), func(t *testing.T) {
				w := tc.warn
				if level == LevelStrict {
					w = tc.strict
				}
				r := validator(level, host).Validate("s", &tc.req, have)
				assert.Equal(t, w.state, r.State)
				assert.Equal(t, w.critical, r.HasCriticalMissing)
				assert.Equal(t, w.state == StateActive, r.IsFullySatisfied)
				msgs := append(append([]string{}, r.Warnings...), r.Errors...)
				if w.msg == "" {
					assert.Empty(t, msgs)
					return
				}
				assert.Equal(t, []string{w.msg}, msgs)
				if w.state == StateUnavailable {
					assert.Equal(t, []string{w.msg}, r.Errors, "errors make a skill unavailable")
				}
			})
		}
	}
}

func TestValidateMessageOrder(t *testing.T) {
	req := &Requirements{Tools: []string{"t"}, Servers: []string{"s"}, Toolsets: []string{"ts"}, Env: []string{"E"},
		Bins: []string{"b"}, AnyBins: []string{"x", "y"}, OS: []string{"plan9"}, Config: []string{"c.d"}}
	r := validator(LevelWarn, skillhost.Map{GOOS: "linux"}).Validate("s", req, availability{})
	assert.Equal(t, []string{
		"Missing required tools: t", "Missing required servers: s", "Missing required toolsets: ts",
		"Missing required environment variables: E", "Missing required binaries: b", "Missing all of the binaries: x, y",
	}, r.Warnings)
	assert.Equal(t, []string{"Not supported on linux (supports: plan9)"}, r.Errors)
	assert.Equal(t, []string{"OpenClaw requires.config c.d: not checked (a setting of openclaw.json)"}, r.Notes)
	assert.Equal(t, StateUnavailable, r.State)
	assert.Equal(t, []string{"x", "y"}, r.MissingAnyBins)
	assert.False(t, r.OSSupported)
}

func TestValidateLogging(t *testing.T) {
	degraded := &Requirements{Tools: []string{"a", "b"}, Env: []string{"E"}}
	for _, tc := range []struct {
		level Level
		req   *Requirements
		want  []string
	}{
		{LevelDisabled, degraded, nil},
		{LevelDisabled, &Requirements{OS: []string{"plan9"}}, nil},
		{LevelTelemetry, degraded, []string{"WARN Skill 's' partially available: Missing required tools: a, b; Missing required environment variables: E"}},
		{LevelWarn, degraded, []string{"WARN Skill 's' partially available: Missing required tools: a, b; Missing required environment variables: E"}},
		{LevelStrict, degraded, []string{"ERROR Skill 's' blocked: Missing required tools: a, b; Missing required environment variables: E"}},
		{LevelWarn, &Requirements{OS: []string{"plan9"}}, []string{"WARN Skill 's' unavailable: Not supported on linux (supports: plan9)"}},
		{LevelWarn, &Requirements{Tools: []string{"a"}}, nil}, // see below: satisfied
		{LevelStrict, &Requirements{}, nil},                   // empty: no log, as in PraisonAI
	} {
		rec, logger := newRecorder()
		v := skillValidator{Level: tc.level, Host: skillhost.Map{GOOS: "linux"}, Logger: logger}
		have := availability{}
		if len(tc.want) == 0 && len(tc.req.Tools) == 1 {
			have = avail([]string{"a"}, nil)
			tc.want = []string{"DEBUG Skill 's' requirements satisfied"}
		}
		v.Validate("s", tc.req, have)
		assert.Equal(t, tc.want, rec.Lines(), "%s %+v", tc.level, tc.req)
	}
}

func TestHosts(t *testing.T) {
	h := skillhost.System{}
	assert.Equal(t, runtime.GOOS, h.OS())
	t.Setenv("GATE_SKILLS_HOST_VAR", "v")
	v, ok := h.LookupEnv("GATE_SKILLS_HOST_VAR")
	assert.True(t, ok)
	assert.Equal(t, "v", v)
	exe, err := os.Executable()
	require.NoError(t, err)
	assert.True(t, h.HasBinary(exe))
	assert.False(t, h.HasBinary("gate-skills-no-such-binary"))

	m := skillhost.Map{Env: map[string]string{"A": ""}, Bins: []string{"git"}}
	assert.Equal(t, runtime.GOOS, m.OS())
	assert.Equal(t, "plan9", skillhost.Map{GOOS: "plan9"}.OS())
	_, ok = m.LookupEnv("A")
	assert.True(t, ok)
	_, ok = m.LookupEnv("B")
	assert.False(t, ok)
	assert.True(t, m.HasBinary("git"))
	assert.False(t, m.HasBinary("gh"))
}
