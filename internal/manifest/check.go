package manifest

import (
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// checker walks a decoded manifest, turning it into a Manifest and
// collecting every problem, each at its position.
type checker struct {
	file   string
	dir    string // the manifest's directory, for relative paths
	src    []byte
	starts []int // byte offset of each line's start
	ix     *index
	lim    Limits // resolved
	errs   Errors
	misses []string // places the index did not know (a bug; see tests)

	// lastLine is the line of the last position asked for (see lineOf).
	lastLine int

	// runtimeBudget is runtime.budget when written and valid: a probe's
	// own budget may only lower it.
	runtimeBudget *time.Duration
}

func newChecker(file string, src []byte) *checker {
	// bytes.Count and IndexByte scan many bytes at a time.
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	return &checker{file: file, src: src, starts: starts}
}

// position converts a byte offset to a Position.
func (c *checker) position(off int) (Position, string) {
	pos, line := c.lineOf(off)
	start := c.starts[line]
	end := len(c.src)
	if line+1 < len(c.starts) {
		end = c.starts[line+1] - 1 // without the newline
	}
	return pos, string(c.src[start:end])
}

// lineOf converts a byte offset to a Position and its 0-based line,
// without copying the line (pos, for every tool and probe, needs none).
func (c *checker) lineOf(off int) (Position, int) {
	off = min(max(off, 0), len(c.src))
	line := c.lastLine
	switch {
	case line < len(c.starts) && c.starts[line] <= off && (line+1 == len(c.starts) || c.starts[line+1] > off):
	case line+2 < len(c.starts) && c.starts[line+1] <= off && c.starts[line+2] > off:
		line++
	default:
		// The positions a check asks for mostly go forward a line or
		// two at a time: a search only when they do not.
		line = sort.Search(len(c.starts), func(i int) bool { return c.starts[i] > off }) - 1
	}
	c.lastLine = line
	return Position{File: c.file, Line: line + 1, Col: off - c.starts[line] + 1}, line
}

// errAt makes an Error at s. key is the path of what is wrong; where is
// what Error() names before msg.
func (c *checker) errAt(s span, key, where, msg string) *Error {
	pos, line := c.position(s.off)
	// The caret stops at the end of the line: a multi-line value is
	// underlined on its first line only.
	return &Error{Pos: pos, Key: key, Msg: msg, line: line, where: where, width: min(s.len, len(line)-pos.Col+1)}
}

func (c *checker) add(s span, key, where, format string, args ...any) {
	c.errs = append(c.errs, c.errAt(s, key, where, fmt.Sprintf(format, args...)))
}

// keySpan is where p's key is written.
func (c *checker) keySpan(p place) span { return c.entry(p).key }

// valueSpan is where p's value is written, or its key when the value has
// no recorded range.
func (c *checker) valueSpan(p place) span {
	e := c.entry(p)
	if e.value.len > 0 {
		return e.value
	}
	return e.key
}

// tableSpan is where a table starts: its [header] if it has one, else its
// value (an inline table's "{"), else its key.
func (c *checker) tableSpan(p place) span {
	e := c.entry(p)
	switch {
	case e.header.len > 0:
		return e.header
	case e.value.len > 0:
		return e.value
	}
	return e.key
}

// pos is the Position of a span.
func (c *checker) pos(s span) Position {
	p, _ := c.lineOf(s.off)
	return p
}

// valueErr reports a problem with the value at p.
func (c *checker) valueErr(p place, format string, args ...any) {
	path := c.path(p)
	c.add(c.valueSpan(p), path, path, format, args...)
}

// keyErr reports a problem with the key at p (a key that should not be
// there, say), pointing at the key rather than its value.
func (c *checker) keyErr(p place, format string, args ...any) {
	path := c.path(p)
	c.add(c.keySpan(p), path, path, format, args...)
}

// missing reports that the table at parent lacks key, pointing at the
// table's header or opening brace.
func (c *checker) missing(parent place, key, format string, args ...any) {
	where := c.path(parent)
	c.add(c.tableSpan(parent), joinKey(where, key), where, format, args...)
}

// unknownKeys reports every key of t that is not in known, naming the
// known ones: a typo is then fixed by reading the message.
func (c *checker) unknownKeys(parent place, t map[string]any, known []string) {
	unknown := false
	for k := range t {
		if !slices.Contains(known, k) {
			unknown = true
			break
		}
	}
	if !unknown {
		// The usual case, without sorting the keys.
		return
	}
	for _, k := range slices.Sorted(maps.Keys(t)) {
		if slices.Contains(known, k) {
			continue
		}
		p := c.key(parent, k)
		c.add(c.keySpan(p), c.path(p), c.path(parent), "unknown key %q (known: %s)", k, strings.Join(known, ", "))
	}
}

// table returns v as a table, or reports that it is not one.
func (c *checker) table(p place, v any, want string) (map[string]any, bool) {
	t, ok := v.(map[string]any)
	if !ok {
		c.valueErr(p, "want %s, got %s", want, describe(v))
	}
	return t, ok
}

// str returns v as a string, or reports that it is not one.
func (c *checker) str(p place, v any, want string) (string, bool) {
	s, ok := v.(string)
	if !ok {
		c.valueErr(p, "want %s, got %s", want, describe(v))
	}
	return s, ok
}

// field returns the value of the key name of the table t at the place at,
// with its place, when it is written.
func (c *checker) field(at place, t map[string]any, name string) (any, place, bool) {
	v, ok := t[name]
	if !ok {
		return nil, noNode, false
	}
	return v, c.key(at, name), true
}

// strField reads the key name of the table t at the place at, when it is
// written, as a string, reporting a value that is not one (want says what
// is wanted); ok is true only for a string.
func (c *checker) strField(at place, t map[string]any, name, want string) (s string, p place, ok bool) {
	v, p, ok := c.field(at, t, name)
	if !ok {
		return "", p, false
	}
	s, ok = c.str(p, v, want)
	return s, p, ok
}

// boolField reads the key name of the table t at the place at as a
// boolean; set is false when it is not written, or not a boolean
// (reported).
func (c *checker) boolField(at place, t map[string]any, name string) (b, set bool) {
	v, p, ok := c.field(at, t, name)
	if !ok {
		return false, false
	}
	if b, set = v.(bool); !set {
		c.valueErr(p, "want true or false, got %s", describe(v))
	}
	return b, set
}

// notAllowed reports each of keys that the table t at the place at has,
// where it means nothing; why says why, with a %s for the key.
func (c *checker) notAllowed(at place, t map[string]any, keys []string, why string) {
	for _, k := range keys {
		if _, ok := t[k]; ok {
			c.keyErr(c.key(at, k), why, k)
		}
	}
}

// stringList returns v as an array of non-empty strings, reporting every
// element that is not one. The slice keeps every index (a bad element is
// ""), so that callers can check the good ones further by index; ok says
// whether all were good.
func (c *checker) stringList(at place, v any, what, plural string) ([]string, bool) {
	arr, isArr := v.([]any)
	if !isArr {
		c.valueErr(at, "want an array of %s, got %s", plural, describe(v))
		return nil, false
	}
	out := make([]string, len(arr))
	good := true
	for i, el := range arr {
		p := c.elem(at, i)
		s, ok := c.str(p, el, article(what)+" (a string)")
		switch {
		case !ok:
			good = false
		case strings.TrimSpace(s) == "":
			c.valueErr(p, "empty %s", what)
			good = false
		default:
			out[i] = s
		}
	}
	return out, good
}

// resolve makes a path from the manifest absolute, against its directory,
// so that a manifest means the same wherever gate is started from.
func (c *checker) resolve(p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(c.dir, p)
	}
	return filepath.Clean(p)
}

// article puts "a" or "an" before a noun.
func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}
