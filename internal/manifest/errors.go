package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gate-dev/gate/internal/safetext"
)

// Error is one problem in a manifest, at a position.
//
// Error() is one line, "gate.toml:12:35: tools[1].probe.grants: unknown
// key \"dail\" (known: env, dial, import)", for logs and editors. Detail()
// adds the source line with a caret under the culprit, for people:
//
//	12 | probe = { grants = { env = ["A"], dail = ["x"] } }
//	   |                                   ^^^^ unknown key "dail" (known: env, dial, import)
//
// fmt's %+v prints both.
type Error struct {
	// Pos is the offending key or value. Line and Col are always set for
	// a problem in the text; only an unreadable file has neither.
	Pos Position
	// Key is the path of what is wrong, as the user would name it:
	// "tools[1].probe.grants.dail", "servers[0].name", "runtime.ttl".
	// "" for problems with the document as a whole (a syntax error).
	Key string
	// Msg says what is wrong and, where it helps, what would be right.
	Msg string

	line  string // the source line at Pos, for Detail
	where string // what Error names before Msg (Key, or its table for an unknown or missing key)
	width int    // how many bytes of line the caret underlines
	err   error  // the cause, for errors.Is (a read error)
}

// Error returns "POS: KEY: MSG", or "POS: MSG" for a problem that is not
// about one key.
func (e *Error) Error() string {
	var b strings.Builder
	if p := e.Pos.String(); p != "" {
		b.WriteString(p)
		b.WriteString(": ")
	}
	if e.where != "" {
		b.WriteString(e.where)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the cause of the problem, if it has one beyond the
// manifest's text (an *fs.PathError when the file could not be read).
func (e *Error) Unwrap() error { return e.err }

// Detail returns the source line of the problem with a caret line under
// the offending key or value, followed by the message; "" when there is
// no source line (the file could not be read). Tabs in the line are kept
// in the padding so that the caret lines up in a terminal; control
// characters and invalid UTF-8 are shown as U+FFFD.
func (e *Error) Detail() string {
	if e.Pos.Line <= 0 {
		return ""
	}
	line := strings.TrimRight(e.line, "\r")
	col := min(max(e.Pos.Col-1, 0), len(line))
	end := min(col+max(e.width, 1), len(line))
	var pad strings.Builder
	for _, r := range line[:col] {
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	carets := max(utf8.RuneCountInString(line[col:end]), 1)
	num := strconv.Itoa(e.Pos.Line)
	w := max(len(num), 4)
	return fmt.Sprintf("%*s | %s\n%*s | %s%s %s",
		w, num, printable(line), w, "", pad.String(), strings.Repeat("^", carets), e.Msg)
}

// Format implements fmt.Formatter: %v and %s give Error(), %+v adds
// Detail() on the lines after it.
func (e *Error) Format(f fmt.State, verb rune) {
	_, _ = io.WriteString(f, e.Error())
	if verb == 'v' && f.Flag('+') {
		if d := e.Detail(); d != "" {
			_, _ = io.WriteString(f, "\n"+d)
		}
	}
}

// Errors is every problem found in a manifest, in file order. Load and
// Parse return it, as their error, whenever there is at least one, so
// that errors.As(err, &errs) always works on their errors.
//
// Its string forms (Error, and %v, %s and %+v) show the first MaxShown
// problems and then how many more there are, so that a log line or a
// reload status stays readable when a generated manifest has thousands;
// range over the slice for all of them.
type Errors []*Error

// MaxShown is how many problems the string forms of Errors show: enough
// to fix a hand-written manifest in one pass, few enough to read.
const MaxShown = 20

// Error returns one line per problem, for the first MaxShown problems,
// then "... and N more problems" when there are more.
func (es Errors) Error() string {
	shown := es[:min(len(es), MaxShown)]
	lines := make([]string, len(shown), len(shown)+1)
	for i, e := range shown {
		lines[i] = e.Error()
	}
	if more := es.more(); more != "" {
		lines = append(lines, more)
	}
	return strings.Join(lines, "\n")
}

// more is the line that says how many problems are not shown, or "".
func (es Errors) more() string {
	switch n := len(es) - MaxShown; {
	case n == 1:
		return "... and 1 more problem"
	case n > 1:
		return fmt.Sprintf("... and %d more problems", n)
	}
	return ""
}

// Unwrap returns the problems, for errors.Is and errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// Format implements fmt.Formatter: %v and %s give Error(), %+v gives each
// of the first MaxShown problems with its source line and caret, then
// how many more there are.
func (es Errors) Format(f fmt.State, verb rune) {
	for i, e := range es[:min(len(es), MaxShown)] {
		if i > 0 {
			_, _ = io.WriteString(f, "\n")
		}
		e.Format(f, verb)
	}
	if more := es.more(); more != "" {
		_, _ = io.WriteString(f, "\n"+more)
	}
}

// printable replaces what would garble a terminal (control characters
// other than tab, bidi controls, invalid UTF-8) with U+FFFD, so that the
// caret line still lines up with the source line.
func printable(s string) string { return safetext.Clean(s, true) }

// ErrorAt reports a problem that is found after parsing, at a position the
// manifest gave (a probe module that is missing, that does not match its
// sha256 pin, or that is not a valid probe): key names what is wrong, as
// in Error.Key, and cause says why. The source line for Detail is read
// from pos.File, best effort; a caller that holds the bytes the manifest
// was parsed from gives them with ShowSource instead.
func ErrorAt(pos Position, key string, cause error) *Error {
	e := &Error{Pos: pos, Key: key, Msg: cause.Error(), where: key, err: cause}
	if pos.Line > 0 {
		if src, err := os.ReadFile(pos.File); err == nil {
			e.line = lineOf(src, pos.Line)
		}
	}
	return e
}

// ShowSource sets the source line that Detail shows, for each problem of
// err (Errors, or an error wrapping them) in file, to its line of src:
// the bytes that file was parsed from. A manifest read from standard
// input has no file that ErrorAt could read again, and a file may have
// changed since it was parsed; the line shown must be the one the
// position counts in. Problems in other files are left as they are.
func ShowSource(err error, file string, src []byte) {
	var es Errors
	if !errors.As(err, &es) {
		return
	}
	for _, e := range es {
		if e.Pos.File == file && e.Pos.Line > 0 {
			e.line = lineOf(src, e.Pos.Line)
		}
	}
}

// lineOf returns line n (counted from 1) of src, without its newline; ""
// when src has fewer lines.
func lineOf(src []byte, n int) string {
	for ; n > 1; n-- {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			return ""
		}
		src = src[i+1:]
	}
	if i := bytes.IndexByte(src, '\n'); i >= 0 {
		src = src[:i]
	}
	return string(src)
}
