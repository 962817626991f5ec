package doctest

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Link is a relative link of a page, [text](Target#Fragment), so that a
// test can check that it leads somewhere: a page's links name other
// pages' headings (a decision in RATIONALE.md, a measurement in
// BENCHMARKS.md), and a heading that is renamed breaks them silently.
type Link struct {
	Line     int    // from 1
	Target   string // the path as written, relative to the page's folder; "" for the page itself
	Fragment string // after '#'; "" when there is none
}

var (
	linkRE     = regexp.MustCompile(`\]\(([^()\s]*)(?:\s+"[^"]*")?\)`)
	codeSpanRE = regexp.MustCompile("`[^`]*`")
	headingRE  = regexp.MustCompile(`^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$`)
	schemeRE   = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
)

// Links returns the page's relative links, outside fenced blocks and code
// spans, in page order. A link with a scheme (https:, mailto:) is not
// relative and is left out.
func (p *Page) Links() []Link {
	var out []Link
	p.eachProseLine(func(i int, line string) {
		line = codeSpanRE.ReplaceAllString(line, "")
		for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
			dest := m[1]
			if dest == "" || schemeRE.MatchString(dest) {
				continue
			}
			target, fragment, _ := strings.Cut(dest, "#")
			out = append(out, Link{Line: i + 1, Target: target, Fragment: fragment})
		}
	})
	return out
}

// Anchors returns the anchor of every heading of the page, as GitHub
// makes them: Anchor of the heading's text, and a repeated one suffixed
// "-1", "-2" and so on in page order.
func (p *Page) Anchors() map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	p.eachProseLine(func(_ int, line string) {
		m := headingRE.FindStringSubmatch(line)
		if m == nil {
			return
		}
		a := Anchor(m[2])
		if n, ok := seen[a]; ok {
			seen[a] = n + 1
			a += "-" + strconv.Itoa(n+1)
		} else {
			seen[a] = 0
		}
		anchors[a] = true
	})
	return anchors
}

// Anchor is the anchor GitHub gives a heading's text: lower case, each
// space a hyphen, and every character but letters, digits, hyphens and
// underscores dropped (backticks, punctuation).
func Anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// eachProseLine calls fn with the index and text of every line outside a
// fenced block.
func (p *Page) eachProseLine(fn func(i int, line string)) {
	for i := 0; i < len(p.lines); i++ {
		if m := fence.FindStringSubmatch(p.lines[i]); m != nil {
			for i++; i < len(p.lines) && strings.TrimSpace(p.lines[i]) != m[2]; i++ {
			}
			continue
		}
		fn(i, p.lines[i])
	}
}
