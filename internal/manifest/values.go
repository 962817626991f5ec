package manifest

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"

	"github.com/gate-dev/gate/internal/limits"
)

// sizeUnits are the units ParseSize accepts. Only IEC units: "MB" means
// 10^6 to some readers and 2^20 to others, and a memory cap should not
// depend on which.
var sizeUnits = []struct {
	name string
	mult uint64
}{{"B", 1}, {"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}}

// ParseSize parses a byte count: an integer with an optional IEC unit,
// "33554432", "32MiB", "64 KiB", "1GiB", "512B". Decimal units (KB, MB,
// GB) and fractions are refused, with a message that says what to write.
func ParseSize(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && '0' <= t[i] && t[i] <= '9' {
		i++
	}
	digits, unit := t[:i], strings.TrimSpace(t[i:])
	if digits == "" {
		return 0, fmt.Errorf("bad size %q: want a whole number of bytes with an optional unit (B, KiB, MiB, GiB), like \"32MiB\"", s)
	}
	if strings.HasPrefix(unit, ".") {
		return 0, fmt.Errorf("bad size %q: want a whole number%s", s, wholeHint(t))
	}
	mult := uint64(0)
	for _, u := range sizeUnits {
		if unit == u.name || unit == "" && u.name == "B" {
			mult = u.mult
		}
	}
	if mult == 0 {
		for _, u := range sizeUnits {
			switch {
			case strings.EqualFold(unit, u.name):
				return 0, fmt.Errorf("bad size %q: units are case-sensitive; write %q", s, digits+u.name)
			case u.name != "B" && (strings.EqualFold(unit, u.name[:1]+"B") || strings.EqualFold(unit, u.name[:1])):
				// "MB" is 10^6 bytes to some and 2^20 to others.
				return 0, fmt.Errorf("bad size %q: %q is ambiguous; write %q (units: B, KiB, MiB, GiB)", s, unit, digits+u.name)
			}
		}
		return 0, fmt.Errorf("bad size %q: unknown unit %q (units: B, KiB, MiB, GiB)", s, unit)
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil || n > math.MaxUint64/mult {
		return 0, fmt.Errorf("bad size %q: too large", s)
	}
	return n * mult, nil
}

// wholeHint suggests a whole number for a fraction like "1.5GiB": the
// same size in the next smaller unit, when that is whole.
func wholeHint(t string) string {
	for i := len(sizeUnits) - 1; i > 1; i-- {
		u := sizeUnits[i]
		num, ok := strings.CutSuffix(t, u.name)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if n := f * 1024; err == nil && n == math.Trunc(n) && n > 0 && n < 1<<40 {
			return fmt.Sprintf(" (write %q)", strconv.FormatFloat(n, 'f', -1, 64)+sizeUnits[i-1].name)
		}
	}
	return ""
}

// formatSize writes a byte count in the largest IEC unit that divides it.
func formatSize(n uint64) string {
	for i := len(sizeUnits) - 1; i > 0; i-- {
		if m := sizeUnits[i].mult; n >= m && n%m == 0 {
			return strconv.FormatUint(n/m, 10) + sizeUnits[i].name
		}
	}
	return strconv.FormatUint(n, 10) + "B"
}

// enforcementWords maps each accepted word to its canonical level. The
// synonyms are the words people already use for these levels in other
// tools, so that a manifest reads naturally.
var enforcementWords = []struct{ word, level string }{
	{"disabled", EnforcementDisabled}, {"off", EnforcementDisabled},
	{"telemetry", EnforcementTelemetry}, {"log", EnforcementTelemetry},
	{"warn", EnforcementWarn}, {"warning", EnforcementWarn},
	{"strict", EnforcementStrict}, {"hard", EnforcementStrict}, {"fail", EnforcementStrict},
}

// ParseEnforcement returns the canonical enforcement level (one of the
// Enforcement constants) for a word: disabled or off, telemetry or log,
// warn or warning, strict, hard or fail; case and surrounding space do
// not matter.
func ParseEnforcement(s string) (string, error) {
	w := strings.ToLower(strings.TrimSpace(s))
	words := make([]string, len(enforcementWords))
	for i, e := range enforcementWords {
		if e.word == w {
			return e.level, nil
		}
		words[i] = e.word
	}
	return "", fmt.Errorf("unknown enforcement %q (accepted: %s)", s, strings.Join(words, ", "))
}

// nameOf reports whether n is 1 to max bytes, each an ASCII letter or
// digit or one of extra: what the regular expression
// ^[A-Za-z0-9EXTRA]{1,max}$ says, without running one for every tool.
func nameOf(n string, max int, extra string) bool {
	if len(n) == 0 || len(n) > max {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}

// checkToolName checks a tool name against what both the OpenAI and
// Anthropic APIs accept, so that one manifest serves either.
func checkToolName(n string) error {
	if !nameOf(n, 64, "_-") {
		return fmt.Errorf("bad tool name %q: want 1 to 64 letters, digits, _ or - (what the OpenAI and Anthropic APIs accept)", n)
	}
	return nil
}

// checkServerName checks a server name: wider than a tool's, to allow the
// usual spellings of MCP servers ("mcp:filesystem", "@org/server").
func checkServerName(n string) error {
	if !nameOf(n, 128, "_.:/@-") {
		return fmt.Errorf("bad server name %q: want 1 to 128 letters, digits, or any of _ . : / @ -", n)
	}
	return nil
}

// parseDuration parses a duration string, with a message that shows the
// form wanted instead of time's terse one.
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("bad duration %q: want a number and a unit (ns, us, ms, s, m, h), like \"30s\" or \"1m30s\"", s)
	}
	return d, nil
}

// checkBudget checks a probe budget.
func checkBudget(d time.Duration) error {
	switch {
	case d <= 0:
		return errors.New("budget " + d.String() + ": want more than 0")
	case d > limits.MaxBudget:
		return fmt.Errorf("budget %v: want at most %v, the hard maximum of a probe run", d, limits.MaxBudget)
	}
	return nil
}

// describe names a decoded TOML value's type and, for scalars, its value,
// for "want X, got Y" messages.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		if len(v) > 40 {
			n := 37
			for n > 0 && !utf8.RuneStart(v[n]) {
				n--
			}
			v = v[:n] + "..."
		}
		return "string " + strconv.Quote(v)
	case int64:
		return "integer " + strconv.FormatInt(v, 10)
	case float64:
		f := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(f, ".eIN") {
			f += ".0" // "float 32" would look like an integer
		}
		return "float " + f
	case bool:
		return "boolean " + strconv.FormatBool(v)
	case []any:
		return "array"
	case map[string]any:
		return "table"
	case time.Time:
		return "datetime " + v.Format(time.RFC3339Nano)
	case toml.LocalDateTime:
		return "local datetime " + v.String()
	case toml.LocalDate:
		return "local date " + v.String()
	case toml.LocalTime:
		return "local time " + v.String()
	case nil:
		return "nothing"
	}
	return fmt.Sprintf("%T", v)
}
