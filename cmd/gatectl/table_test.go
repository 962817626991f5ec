package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"text/tabwriter"

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
