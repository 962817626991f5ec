package server

import (
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Bounds of a problem list as the API reports it: a reload error in
// /v1/status and the reason of a "reload" event. A manifest with 200,000
// bad keys has 200,000 problems (tens of megabytes): whole, every status read
// and every stream would carry them. The first ones are what a person
// fixes first; `gatectl check` lists them all. The runtime may shorten
// the list itself (its first 20 problems and a line counting the rest):
// the line bound is above that, so such a list passes unchanged, and
// this bound holds whatever the runtime sends.
const (
	maxProblemLines = 25
	maxProblemBytes = 16 << 10
)

// shortProblems returns s, one problem per line, cut to its first
// maxProblemLines lines and, of those, to whole lines within
// maxProblemBytes bytes (a first line longer than that alone is cut
// within itself), saying how much was left out. A short s is returned as
// it is.
func shortProblems(s string) string {
	if len(s) <= maxProblemBytes && strings.Count(s, "\n") < maxProblemLines {
		return s
	}
	// end: where the kept lines end, newline included.
	end := 0
	for lines := 0; lines < maxProblemLines && end < len(s); lines++ {
		if i := strings.IndexByte(s[end:], '\n'); i >= 0 {
			end += i + 1
		} else {
			end = len(s)
		}
	}
	head, cut := "", ""
	if end > maxProblemBytes {
		if i := strings.LastIndexByte(s[:maxProblemBytes], '\n'); i >= 0 {
			end = i + 1
		} else {
			// The first line alone is too long: cut it at a character's
			// start.
			n := maxProblemBytes
			for n > 0 && !utf8.RuneStart(s[n]) {
				n--
			}
			end = len(s)
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				end = i + 1
			}
			head = s[:n]
			cut = " [cut: " + thousands(len(strings.TrimSuffix(s[:end], "\n"))-n) + " more bytes]"
		}
	}
	if cut == "" {
		head = strings.TrimSuffix(s[:end], "\n")
	}
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(cut)
	if end < len(s) {
		// The lines left: one more than their newlines, unless the text
		// ends with one.
		rest := strings.Count(s[end:], "\n")
		if !strings.HasSuffix(s, "\n") {
			rest++
		}
		b.WriteString("\n... and ")
		b.WriteString(thousands(rest))
		if rest == 1 {
			b.WriteString(" more line (gatectl check lists every problem)")
		} else {
			b.WriteString(" more lines (gatectl check lists every problem)")
		}
	}
	return b.String()
}

// thousands writes n with comma separators: 199,980.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// problemCache keeps shortProblems of the last reload error seen, so that
// a status read does not format the whole error again (Error() of 200,000
// problems builds tens of megabytes) while it is the same one.
type problemCache struct {
	mu  sync.Mutex
	key any
	// err is the error of key, held so that its memory, whose address
	// is the key, cannot be reused by another error meanwhile.
	err   error
	short string
}

// text returns shortProblems(err.Error()), from the cache when err is the
// one it was computed for.
func (c *problemCache) text(err error) string {
	key := identity(err)
	if key == nil {
		return shortProblems(err.Error())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.key != key {
		c.key, c.err, c.short = key, err, shortProblems(err.Error())
	}
	return c.short
}

// sliceKey identifies a pointer, or a slice by its type, first element
// and length.
type sliceKey struct {
	typ reflect.Type
	ptr uintptr
	len int
}

// identity returns a comparable value that is equal for the same error
// value, or nil when there is none. A pointer is its own identity. A
// slice error (manifest.Errors) is not comparable with == (it would
// panic), so it is identified by its backing array: an error's problems
// do not change once it is returned. Other kinds (a struct may hold a
// slice in an interface, which == would panic on) are not cached.
func identity(err error) any {
	v := reflect.ValueOf(err)
	switch v.Kind() {
	case reflect.Pointer:
		return sliceKey{v.Type(), v.Pointer(), -1}
	case reflect.Slice:
		return sliceKey{v.Type(), v.Pointer(), v.Len()}
	}
	return nil
}
