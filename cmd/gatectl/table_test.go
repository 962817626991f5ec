package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tabwriterLayout is what gatectl wrote before table: tab-separated lines
// through text/tabwriter, padding 2, spaces.
func tabwriterLayout(rows [][]string) string {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
	return b.String()
}

func tableLayout(rows [][]string) string {
	var t table
	for _, r := range rows {
		t.add(r...)
	}
	var b bytes.Buffer
	if err := t.write(&b); err != nil {
		panic(err)
	}
	return b.String()
}

func TestTableMatchesTabwriter(t *testing.T) {
	for name, rows := range map[string][][]string{
		"check": {
			{"TOOL", "STATE", "LATENCY", "PROBE", "REASON"},
			{"search_web", "unavailable", "1ms", "env:SERP_API_KEY", "SERP_API_KEY not set"},
			{"filesystem_read", "available", "-", "(none: always available)", ""},
		},
		"empty cells":  {{"", "", "x"}, {"a", "", ""}},
		"wide runes":   {{"é", "日本語", "z"}, {"abc", "x", ""}},
		"one column":   {{"only"}, {"cells"}},
		"replacements": {{"\ufffd\ufffd", "a", "b"}, {"x", "yy", "c"}},
	} {
		t.Run(name, func(t *testing.T) {
			require.Equal(t, tabwriterLayout(rows), tableLayout(rows))
		})
	}
}

// FuzzTable: for rows of the same number of cells with no tabs or
// newlines in them (what gatectl's escaping guarantees), table's layout is
// tabwriter's.
func FuzzTable(f *testing.F) {
	f.Add("TOOL", "STATE", "x", "search_web", "é", "")
	f.Add("", "", "", "a\u00a0b", "日本", "z")
	f.Fuzz(func(t *testing.T, a, b, c, d, e, g string) {
		clean := func(s string) string {
			return strings.Map(func(r rune) rune {
				if r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v' || r == 0xff {
					return 'x'
				}
				return r
			}, strings.ToValidUTF8(s, "?"))
		}
		rows := [][]string{{clean(a), clean(b), clean(c)}, {clean(d), clean(e), clean(g)}, {clean(g), clean(a), clean(d)}}
		require.Equal(t, tabwriterLayout(rows), tableLayout(rows))
	})
}

func TestTableFit(t *testing.T) {
	long := strings.Repeat("r", 100)
	tests := []struct {
		name  string
		rows  [][]string
		width int
		want  string
	}{
		{"no limit", [][]string{{"TOOL", "PROBE", "REASON"}, {"a", "env:X", long}}, 0,
			"TOOL  PROBE  REASON\na     env:X  " + long + "\n"},
		{"fits already", [][]string{{"TOOL", "REASON"}, {"a", "short"}}, 80,
			"TOOL  REASON\na     short\n"},
		{"reason wrapped", [][]string{{"TOOL", "PROBE", "REASON"}, {"a", "env:X", long}}, 30,
			"TOOL  PROBE  REASON\na     env:X  " + wrapped(long, 17, 13)},
		// A reason breaks after a space in its line's second half, else
		// where the line is full.
		{"reason wrapped at spaces", [][]string{{"TOOL", "REASON"}, {"a", "one two three four five six"}}, 20,
			"TOOL  REASON\na     one two three\n      four five six\n"},
		// A wide middle column gives the reason up to half the width, and
		// is clipped no narrower than minFitted.
		{"probe clipped", [][]string{{"TOOL", "PROBE", "REASON"}, {"a", strings.Repeat("p", 60), long}}, 60,
			"TOOL  PROBE                   REASON\n" +
				"a     " + strings.Repeat("p", 21) + "…  " + wrapped(long, 30, 30)},
		// The name is never clipped, even past the width.
		{"name kept", [][]string{{"TOOL", "REASON"}, {strings.Repeat("n", 30), long}}, 20,
			"TOOL                            REASON\n" + strings.Repeat("n", 30) + "  " + wrapped(long, minFitted, 32)},
		// Runes, not bytes, are columns. The reason keeps minFitted
		// columns, and the name its own, past a width too small for them.
		{"runes", [][]string{{"T", "R"}, {"a", strings.Repeat("é", 20)}}, 10,
			"T  R\na  " + strings.Repeat("é", minFitted) + "\n   " + strings.Repeat("é", 8) + "\n"},
	}
	for _, tt := range tests {
		var tb table
		for _, r := range tt.rows {
			tb.add(r...)
		}
		assert.Equal(t, strings.Contains(tt.want, "…"), tb.fit(tt.width), "%s: fit reports a clip", tt.name)
		for _, line := range strings.Split(strings.TrimSuffix(tt.want, "\n"), "\n") {
			if tt.width >= 20 && !strings.HasPrefix(tt.name, "name") {
				assert.LessOrEqual(t, utf8.RuneCountInString(line), tt.width, "%s: %q", tt.name, line)
			}
		}
		var b bytes.Buffer
		require.NoError(t, tb.write(&b))
		assert.Equal(t, tt.want, b.String(), tt.name)
	}
}

// wrapped is a reason of no spaces as fit wraps it: lines of n runes, each
// after the first indented by indent spaces.
func wrapped(reason string, n, indent int) string {
	var b strings.Builder
	for i := 0; i < len(reason); i += n {
		if i > 0 {
			b.WriteString(strings.Repeat(" ", indent))
		}
		b.WriteString(reason[i:min(i+n, len(reason))])
		b.WriteString("\n")
	}
	return b.String()
}
