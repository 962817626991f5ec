package skills

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseLevel reads every SKILL_CAPABILITY_ENFORCEMENT value PraisonAI
// accepts, every alias, trimmed and in any case.
func TestParseLevel(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Level{
		"disabled": LevelDisabled, "off": LevelDisabled,
		"telemetry": LevelTelemetry, "log": LevelTelemetry,
		"warn": LevelWarn, "warning": LevelWarn,
		"strict": LevelStrict, "hard": LevelStrict, "fail": LevelStrict,
		"STRICT": LevelStrict, " Strict\n": LevelStrict, "\tOFF ": LevelDisabled, "Warning": LevelWarn,
	} {
		got, err := ParseLevel(in)
		require.NoError(t, err, "%q", in)
		assert.Equal(t, want, got, "%q", in)
	}
	for _, bad := range []string{"", "stirct", "on", "error", "strict!"} {
		got, err := ParseLevel(bad)
		require.Error(t, err, "%q", bad)
		assert.Equal(t, LevelWarn, got)
	}
	_, err := ParseLevel("nope")
	assert.EqualError(t, err, `unknown enforcement level "nope" (accepted: disabled|off, telemetry|log, warn|warning, strict|hard|fail)`)
}

func TestLevelFromEnv(t *testing.T) {
	t.Parallel()
	env := func(vals map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) {
			v, ok := vals[k]
			return v, ok
		}
	}
	for _, tc := range []struct {
		name    string
		env     map[string]string
		want    Level
		warning string
	}{
		{"unset is warn", nil, LevelWarn, ""},
		{"blank is warn", map[string]string{enforcementEnv: "  "}, LevelWarn, ""},
		{"strict", map[string]string{enforcementEnv: "strict"}, LevelStrict, ""},
		{"trimmed and any case (fix)", map[string]string{enforcementEnv: " Hard "}, LevelStrict, ""},
		{"off", map[string]string{enforcementEnv: "OFF"}, LevelDisabled, ""},
		{"log", map[string]string{enforcementEnv: "log"}, LevelTelemetry, ""},
		{"unknown warns (fix)", map[string]string{enforcementEnv: "stirct"}, LevelWarn,
			`SKILL_CAPABILITY_ENFORCEMENT="stirct" is not an enforcement level (accepted: disabled|off, telemetry|log, warn|warning, strict|hard|fail): using warn`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, warning := LevelFromEnv(env(tc.env))
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.warning, warning)
		})
	}
}

// TestLevelValues: the levels' names are PraisonAI's EnforcementLevel
// values, and the zero Level is the default, warn (PraisonAI's
// test_enforcement_levels and test_validator_initialization).
func TestLevelValues(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "disabled", LevelDisabled.String())
	assert.Equal(t, "telemetry", LevelTelemetry.String())
	assert.Equal(t, "warn", LevelWarn.String())
	assert.Equal(t, "strict", LevelStrict.String())
	var zero Level
	assert.Equal(t, LevelWarn, zero)
	assert.Equal(t, LevelWarn, skillValidator{}.Level)
	assert.Equal(t, LevelStrict, NewManager(nil, ManagerOptions{Level: LevelStrict}).Level()) // test_skill_manager_enforcement

	b, err := json.Marshal(map[string]Level{"level": LevelStrict})
	require.NoError(t, err)
	assert.JSONEq(t, `{"level":"strict"}`, string(b))
	var back map[string]Level
	require.NoError(t, json.Unmarshal([]byte(`{"level":"hard"}`), &back))
	assert.Equal(t, LevelStrict, back["level"])
	assert.Error(t, json.Unmarshal([]byte(`{"level":"x"}`), &back))
	assert.Equal(t, "Level(9)", Level(9).String())
}
