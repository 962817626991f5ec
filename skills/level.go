package skills

import (
	"fmt"
	"strings"
)

// Level is how strictly missing requirements are enforced. The zero Level
// is LevelWarn, the default everywhere, as in PraisonAI: surface warnings,
// allow activation.
type Level int

// Enforcement levels.
const (
	// LevelWarn reports missing requirements as warnings (DEGRADED) and
	// still offers the skill. It is the zero Level.
	LevelWarn Level = iota
	// LevelDisabled is the legacy behaviour: nothing is logged and nothing
	// is hidden for its own requirements. Results are still computed, as
	// PraisonAI computes them at every level, and fallback skills still
	// follow their rules.
	LevelDisabled
	// LevelTelemetry behaves as LevelWarn: log, never block.
	LevelTelemetry
	// LevelStrict makes any missing requirement an error: the skill is
	// UNAVAILABLE and left out of the prompt.
	LevelStrict
)

// enforcementEnv is the environment variable that sets the level.
const enforcementEnv = "SKILL_CAPABILITY_ENFORCEMENT"

// String returns the level's canonical name: "disabled", "telemetry",
// "warn" or "strict", the values of PraisonAI's EnforcementLevel.
func (l Level) String() string {
	switch l {
	case LevelDisabled:
		return "disabled"
	case LevelTelemetry:
		return "telemetry"
	case LevelWarn:
		return "warn"
	case LevelStrict:
		return "strict"
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// MarshalText writes the level's canonical name, so JSON shows "strict".
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText reads any name ParseLevel accepts.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err == nil {
		*l = v
	}
	return err
}

// levelNames maps every accepted spelling to its level: the spellings
// PraisonAI's SkillManager accepts.
var levelNames = []struct {
	name  string
	level Level
}{
	{"disabled", LevelDisabled}, {"off", LevelDisabled},
	{"telemetry", LevelTelemetry}, {"log", LevelTelemetry},
	{"warn", LevelWarn}, {"warning", LevelWarn},
	{"strict", LevelStrict}, {"hard", LevelStrict}, {"fail", LevelStrict},
}

// ParseLevel reads an enforcement level: disabled|off, telemetry|log,
// warn|warning or strict|hard|fail, trimmed and in any case (PraisonAI
// does not trim, so there " strict" silently means warn).
func ParseLevel(s string) (Level, error) {
	w := strings.ToLower(strings.TrimSpace(s))
	for _, n := range levelNames {
		if n.name == w {
			return n.level, nil
		}
	}
	return LevelWarn, fmt.Errorf("unknown enforcement level %q (accepted: disabled|off, telemetry|log, warn|warning, strict|hard|fail)", s)
}

// LevelFromEnv reads SKILL_CAPABILITY_ENFORCEMENT through lookup (pass
// os.LookupEnv). Unset or blank gives LevelWarn, the default. A value
// ParseLevel does not accept also gives LevelWarn, as in PraisonAI, but
// with a warning saying so (PraisonAI is silent, so there a typo such as
// "stirct" quietly turns strict mode off); warning is "" otherwise. The
// caller decides where the warning goes (a log, a doctor report).
func LevelFromEnv(lookup func(string) (string, bool)) (level Level, warning string) {
	v, ok := lookup(enforcementEnv)
	if !ok || strings.TrimSpace(v) == "" {
		return LevelWarn, ""
	}
	l, err := ParseLevel(v)
	if err != nil {
		return LevelWarn, fmt.Sprintf("%s=%q is not an enforcement level (accepted: disabled|off, telemetry|log, warn|warning, strict|hard|fail): using warn", enforcementEnv, v)
	}
	return l, ""
}
