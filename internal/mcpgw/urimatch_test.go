package mcpgw

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yosida95/uritemplate/v3"
)

// sdkMatches is how the Go SDK's server matches a URI against a template
// (serverResourceTemplate.Matches): ok is false where that panics or the
// template does not parse.
func sdkMatches(tmpl, uri string) (matched, ok bool) {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return false, false
	}
	var re *regexp.Regexp
	func() {
		defer func() { _ = recover() }()
		re = t.Regexp()
	}()
	if re == nil {
		return false, false
	}
	return re.MatchString(uri), true
}

func matchOne(t *testing.T, tmpl, uri string) bool {
	t.Helper()
	m, err := newURIMatcher(tmpl)
	require.NoError(t, err, tmpl)
	matched, ok := m.match(uri, &matchScratch{}, &matchBudget{left: 1 << 30})
	require.True(t, ok)
	return matched
}

// The matcher decides as the SDK's server does, on every operator of RFC
// 6570 levels 1 to 4.
func TestURITemplateMatchesAsTheSDK(t *testing.T) {
	templates := []string{
		"file:///docs/{name}.md", "demo://resource/dynamic/text/{resourceId}", "x://{a}", "x://{a,b}",
		"x://{+path}", "x://{#frag}", "x://h{.ext}", "x://h{/seg}", "x://h{/a,b,c}", "x://h{/list*}",
		"x://h{;p}", "x://h{;p,q}", "x://h{?q}", "x://h{?q,r}", "x://h{?q*}", "x://h{&q}", "x://h{&q,r}",
		"x://{a:3}", "x://{a}{b}", "x://{a}/{b}", "{+all}", "lit", "x://%41{a}", "x://é/{a}", "x://{a,b*}",
		"x://{a*,b}", "{/a}{/b}x", "{.a}{.b}.c",
	}
	uris := []string{
		"", "x://", "x://abc", "x://a,b", "x://a,b,c", "x://a/b", "x://a%2Fb", "x://a%2", "x://a%zz", "x://h",
		"x://h.txt", "x://h.a.b", "x://h/a", "x://h/a/b", "x://h/a/b/c", "x://h/a/b/c/d", "x://h;p=1",
		"x://h;p=1;q=2", "x://h;p=1;q=2;r=3", "x://h?q=1", "x://h?q=1&r=2", "x://h?q=1&r=2&s=3", "x://h&q=1",
		"x://h&q=1&r=2&s", "file:///docs/readme.md", "file:///docs/a/b.md", "file:///docs/.md",
		"demo://resource/dynamic/text/7", "x://#f", "x://a=b", "x://%41abc", "x://é/z", "lit", "litt",
		"/a/bx", "/ax", "x", ".a.b.c", ".c", "..c", "x://a b", "x://h/", "x://h//", "x://h/a//b",
	}
	for _, tmpl := range templates {
		for _, uri := range uris {
			want, ok := sdkMatches(tmpl, uri)
			require.True(t, ok, tmpl)
			assert.Equal(t, want, matchOne(t, tmpl, uri), "%s against %s", uri, tmpl)
		}
	}
}

// A template with more variables than Go's regexp repeats (the SDK's
// server panics on it) is read, and counted.
func TestURITemplateWithManyVariables(t *testing.T) {
	vars := make([]string, 1002)
	for i := range vars {
		vars[i] = fmt.Sprintf("v%d", i)
	}
	tmpl := "x://h{/" + strings.Join(vars, ",") + "}"
	_, ok := sdkMatches(tmpl, "x://h/a")
	require.False(t, ok, "the library's regexp of it panics")
	assert.True(t, matchOne(t, tmpl, "x://h/a"))
	assert.True(t, matchOne(t, tmpl, "x://h"+strings.Repeat("/a", 1002)))
	assert.False(t, matchOne(t, tmpl, "x://h"+strings.Repeat("/a", 1003)), "at most one segment per variable")
}

// A template past the matcher's bound is refused, and a match that runs
// out of its budget says so rather than guessing.
func TestURITemplateBounds(t *testing.T) {
	_, err := newURIMatcher("x://" + strings.Repeat("a", maxMatcherStates))
	require.ErrorContains(t, err, "matcher states")
	_, err = newURIMatcher(strings.Repeat("{a}", maxMatcherStates/exprStates+1))
	require.ErrorContains(t, err, "matcher states")

	m, err := newURIMatcher("x://{+a}z")
	require.NoError(t, err)
	_, ok := m.match("x://"+strings.Repeat("a", 10_000), &matchScratch{}, &matchBudget{left: 1000})
	assert.False(t, ok, "out of steps")
	matched, ok := m.match("x://"+strings.Repeat("a", 10_000)+"z", &matchScratch{}, &matchBudget{left: 1 << 20})
	assert.True(t, ok)
	assert.True(t, matched)
}

// FuzzURIMatcher checks the matcher against the SDK's regexp on whatever
// templates the library reads, and that it never panics.
func FuzzURIMatcher(f *testing.F) {
	f.Add("x://h{/a,b}", "x://h/a/b")
	f.Add("file:///docs/{name}.md", "file:///docs/a.md")
	f.Add("x://{?q,r*}{&s}", "x://?q=1&r=2&s=3")
	f.Add("{+a}{#b}{.c}{;d}", "a#b.c;d=1")
	f.Add("x://%41{a:2}{b}", "x://%41ab")
	f.Fuzz(func(t *testing.T, tmpl, uri string) {
		if _, err := uritemplate.New(tmpl); err != nil {
			return
		}
		m, err := newURIMatcher(tmpl)
		if err != nil {
			if !strings.Contains(err.Error(), "matcher states") {
				t.Fatalf("the library reads %q, the matcher does not: %v", tmpl, err)
			}
			return
		}
		got, ok := m.match(uri, &matchScratch{}, &matchBudget{left: 1 << 24})
		if !ok || !utf8.ValidString(uri) {
			return // JSON gives gate valid UTF-8 only
		}
		if want, ok := sdkMatches(tmpl, uri); ok && got != want {
			t.Fatalf("%q against %q: matcher %v, SDK %v", uri, tmpl, got, want)
		}
	})
}
