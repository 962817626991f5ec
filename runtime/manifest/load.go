package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Load reads and parses the manifest at path (see Parse). A file that
// cannot be read is reported as one *Error, in Errors, positioned at the
// file alone and wrapping the cause, so errors.Is(err, fs.ErrNotExist)
// works.
func Load(path string) (*Manifest, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		cause := err
		var pe *fs.PathError
		if errors.As(err, &pe) {
			cause = pe.Err // the path is already in the position
		}
		return nil, Errors{{Pos: Position{File: path}, Msg: "cannot read manifest: " + cause.Error(), err: err}}
	}
	return Parse(path, src)
}

// Parse parses and checks a manifest. path names the file in messages
// (as given, so relative paths stay short) and anchors the manifest's
// relative paths, which are resolved against its directory; "" means the
// current directory and messages without a file name.
//
// On any problem Parse returns a nil Manifest and Errors listing every
// problem in file order: unknown keys, wrong types and bad values alike.
// A document that is not valid TOML has one problem, its syntax error,
// since nothing after it can be trusted.
func Parse(path string, src []byte) (*Manifest, error) {
	m, errs, _ := parse(path, src)
	if len(errs) > 0 {
		return nil, errs
	}
	return m, nil
}

// utf8BOM is what Windows editors put at the start of a UTF-8 file. TOML
// does not allow it, but a user cannot see it.
var utf8BOM = []byte("\xEF\xBB\xBF")

// parse is Parse, also returning the paths the position index did not
// know, for tests.
func parse(path string, src []byte) (*Manifest, Errors, []string) {
	if bytes.HasPrefix(src, utf8BOM) {
		// Blank it out rather than cut it, so that byte columns on the
		// first line stay those of the file.
		src = append([]byte("   "), src[len(utf8BOM):]...)
	}
	c := newChecker(path, src)
	abs := ""
	if path != "" {
		var err error
		if abs, err = filepath.Abs(path); err != nil {
			return nil, Errors{{Pos: Position{File: path}, Msg: "cannot resolve the manifest's path: " + err.Error(), err: err}}, nil
		}
		c.dir = filepath.Dir(abs)
	} else if wd, err := os.Getwd(); err == nil {
		c.dir = wd
	}
	doc, err := c.decode()
	if err != nil {
		return nil, Errors{err}, nil
	}
	m := c.document(doc)
	m.Path = abs
	sort.SliceStable(c.errs, func(i, j int) bool {
		a, b := c.errs[i].Pos, c.errs[j].Pos
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	return m, c.errs, c.misses
}

// decode parses the TOML, returning its one syntax or structure error if
// it has one. The unstable parser runs first, both to build the position
// index and because its errors carry the exact bytes at fault; go-toml's
// decoder then adds what only it checks (a key defined twice, a table
// redefined) and builds the values.
func (c *checker) decode() (doc map[string]any, e *Error) {
	defer func() {
		// go-toml and the index are fuzzed, but a panic in either must
		// not take a gateway down over a config file. FuzzParse fails on
		// this message, so the recovery hides nothing from the fuzzer.
		if r := recover(); r != nil {
			doc, e = nil, c.errAt(span{}, "", "", fmt.Sprintf("cannot parse TOML: internal error: %v", r))
		}
	}()
	ix, err := buildIndex(c.src)
	var perr *unstable.ParserError
	if errors.As(err, &perr) {
		return nil, c.errAt(c.highlight(perr.Highlight), "", "", "TOML syntax: "+perr.Message)
	} else if err != nil {
		return nil, c.errAt(span{}, "", "", "TOML syntax: "+err.Error())
	}
	if ix.deep.len > 0 {
		return nil, c.errAt(ix.deep, "", "", fmt.Sprintf("nested more than %d levels deep: no manifest needs that, and it would make loading slow", maxDepth))
	}
	c.ix = ix
	if err := toml.Unmarshal(c.src, &doc); err != nil {
		var de *toml.DecodeError
		if !errors.As(err, &de) {
			return nil, c.errAt(span{}, "", "", "TOML: "+err.Error())
		}
		line, col := de.Position()
		at := c.offsetOf(line, col)
		// The error is about a key (defined twice, say); underline all of
		// it when it is where the error points.
		if k := de.Key(); len(k) > 0 && bytes.HasPrefix(c.src[at.off:], []byte(k[len(k)-1])) {
			at.len = len(k[len(k)-1])
		}
		return nil, c.errAt(at, "", "", "TOML: "+strings.TrimPrefix(de.Error(), "toml: "))
	}
	if doc == nil {
		doc = map[string]any{}
	}
	return doc, nil
}

// highlight turns a parser error's highlight, a subslice of the source,
// into a span; one that is not (which go-toml does not produce) becomes
// the start of the file rather than a panic.
func (c *checker) highlight(h []byte) span {
	off := cap(c.src) - cap(h)
	if off < 0 || off > len(c.src) || off+len(h) > len(c.src) {
		return span{}
	}
	return span{off, len(h)}
}
