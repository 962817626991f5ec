package doctest

import (
	"regexp"
	"strings"
)

// Elided is a line of a page's output that stands for any number of
// lines (none included); within a longer line, "..." stands for any text.
const Elided = "..."

var (
	duration = regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?(ns|µs|us|ms|s)\b`)
	// jsonDuration is a JSON field that holds a duration ("latency_ms").
	jsonDuration = regexp.MustCompile(`("[a-z_]+_(ms|seconds)"): *-?[0-9][0-9.e+-]*`)
	// date is a time of day: RFC 3339 (the JSON's "at") or an HTTP Date.
	date    = regexp.MustCompile(`\b[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})|\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT`)
	padding = regexp.MustCompile(`  +`)
	// absRoot is an absolute path up to one of the repository's top-level
	// directories: where the copy a command ran in happened to be.
	absRoot = regexp.MustCompile(`(/[A-Za-z0-9._+-]+)+/((examples|cmd|runtime|probes|docs|internal|skills)/)`)
)

// Normalize is a line of output as it is compared: times are "DATE",
// durations are "T" (and so are the values of JSON fields named *_ms or
// *_seconds),
// runs of spaces (a table's padding, which follows the widest value) are
// two, trailing spaces go, and an absolute path into the repository
// starts at "<ROOT>/". The page keeps the values of a real run; they vary
// between runs, and comparing them would make every run differ.
func Normalize(line string) string {
	line = strings.TrimRight(line, " \t\r")
	line = date.ReplaceAllString(line, "DATE")
	line = jsonDuration.ReplaceAllString(line, "$1: T")
	line = duration.ReplaceAllString(line, "T")
	line = absRoot.ReplaceAllString(line, "<ROOT>/$2")
	return padding.ReplaceAllString(line, "  ")
}

// Match reports whether got is the output want shows, after Normalize,
// with Elided lines and "..." within lines matching anything.
func Match(want, got []string) bool {
	return newAlignment(want, got).cost[0][0] == 0
}

// Merge is the output to write to the page for a run that printed got,
// where the page showed want: got, aligned with want line by line, where
// a line of want that matches its line of got stays as it is (a new
// latency is no change, so a run changes only the lines that changed),
// and want's elisions stay (the lines they stand for are left out; a line
// with "..." in it stays as written). got's lines lose their trailing
// spaces (a table's last column).
func Merge(want, got []string) []string {
	a := newAlignment(want, got)
	var out []string
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		switch {
		case i < len(want) && a.elided(i):
			if j < len(got) && a.cost[i][j] == a.cost[i][j+1] {
				j++ // a line the elision stands for
				continue
			}
			out = append(out, want[i])
			i++
		case i < len(want) && j < len(got) && a.cost[i][j] == a.pairCost(i, j)+a.cost[i+1][j+1]:
			if a.matches(i, j) {
				out = append(out, want[i])
			} else {
				out = append(out, strings.TrimRight(got[j], " \t\r"))
			}
			i, j = i+1, j+1
		case i < len(want) && a.cost[i][j] == 1+a.cost[i+1][j]:
			i++ // a line the run no longer prints
		default:
			out = append(out, strings.TrimRight(got[j], " \t\r"))
			j++
		}
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// alignment is the cheapest alignment of a page's output with a run's:
// cost[i][j] is the fewest lines that differ between want[i:] and
// got[j:], where an elided line matches any number of lines for nothing,
// and a line of one with no partner, or paired with one it does not
// match, costs one.
type alignment struct {
	want, norm []string
	pats       []*regexp.Regexp
	cost       [][]int
}

func newAlignment(want, got []string) *alignment {
	a := &alignment{want: want, pats: make([]*regexp.Regexp, len(want)), norm: make([]string, len(got))}
	for i, w := range want {
		if !a.elided(i) && strings.Contains(w, Elided) {
			parts := strings.Split(Normalize(w), Elided)
			for k := range parts {
				parts[k] = regexp.QuoteMeta(parts[k])
			}
			a.pats[i] = regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
		}
	}
	for j, g := range got {
		a.norm[j] = Normalize(g)
	}
	n, m := len(want), len(got)
	a.cost = make([][]int, n+1)
	for i := range a.cost {
		a.cost[i] = make([]int, m+1)
	}
	for j := m - 1; j >= 0; j-- {
		a.cost[n][j] = a.cost[n][j+1] + 1
	}
	for i := n - 1; i >= 0; i-- {
		a.cost[i][m] = a.cost[i+1][m]
		if !a.elided(i) {
			a.cost[i][m]++
		}
		for j := m - 1; j >= 0; j-- {
			if a.elided(i) {
				a.cost[i][j] = min(a.cost[i+1][j], a.cost[i][j+1])
				continue
			}
			a.cost[i][j] = min(a.pairCost(i, j)+a.cost[i+1][j+1], 1+a.cost[i+1][j], 1+a.cost[i][j+1])
		}
	}
	return a
}

func (a *alignment) elided(i int) bool { return strings.TrimSpace(a.want[i]) == Elided }

func (a *alignment) matches(i, j int) bool {
	if a.pats[i] != nil {
		return a.pats[i].MatchString(a.norm[j])
	}
	return Normalize(a.want[i]) == a.norm[j]
}

func (a *alignment) pairCost(i, j int) int {
	if a.matches(i, j) {
		return 0
	}
	return 1
}
