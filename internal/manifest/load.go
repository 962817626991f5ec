package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/gate-dev/gate/internal/safefile"
)

// Load reads and parses the manifest at path (see Parse), within the
// default limits (DefaultLimits). A file that cannot be read is reported
// as one *Error, in Errors, positioned at the file alone and wrapping the
// cause, so errors.Is(err, fs.ErrNotExist) works.
func Load(path string) (*Manifest, error) {
	return LoadWithLimits(path, Limits{})
}

// LoadWithLimits is Load within lim (zero fields: the defaults): ReadFile,
// then ParseWithLimits.
func LoadWithLimits(path string, lim Limits) (*Manifest, error) {
	src, err := ReadFile(path, lim)
	if err != nil {
		return nil, err
	}
	return ParseWithLimits(path, src, lim)
}

// ReadFile reads the manifest at path as LoadWithLimits does, for a
// caller that must keep the bytes it parses (a watcher that compares
// contents). Only a regular file is read, without blocking and at most
// lim.MaxBytes of it: a FIFO, a device, a directory or a larger file is
// refused with Errors that name the file and say why, and wrap
// safefile's ErrNotRegular or ErrTooLarge (or fs.ErrNotExist).
func ReadFile(path string, lim Limits) ([]byte, error) {
	lim = lim.resolved()
	src, err := safefile.Read(path, lim.MaxBytes)
	if err != nil {
		cause := err
		var pe *fs.PathError
		if errors.As(err, &pe) {
			cause = pe.Err // the path is already in the position
		}
		msg := "cannot read manifest: " + cause.Error()
		if errors.Is(err, safefile.ErrTooLarge) {
			msg = "cannot read manifest: " + tooLarge(lim.MaxBytes)
		}
		return nil, Errors{{Pos: Position{File: path}, Msg: msg, err: err}}
	}
	return src, nil
}

// tooLarge says that a manifest is over max bytes.
func tooLarge(max int64) string {
	return fmt.Sprintf("larger than %s: no manifest needs that much (manifest.Limits.MaxBytes)", formatSize(uint64(max)))
}

// Parse parses and checks a manifest, within the default limits
// (DefaultLimits). path names the file in messages (as given, so
// relative paths stay short) and anchors the manifest's relative paths,
// which are resolved against its directory; "" means the current
// directory and messages without a file name.
//
// On any problem Parse returns a nil Manifest and Errors listing every
// problem in file order: unknown keys, wrong types and bad values alike.
// A document that is not valid TOML has one problem, its syntax error,
// since nothing after it can be trusted; so does one over a limit, at the
// first thing over it, found before the document is decoded.
func Parse(path string, src []byte) (*Manifest, error) {
	return ParseWithLimits(path, src, Limits{})
}

// ParseWithLimits is Parse within lim (zero fields: the defaults).
func ParseWithLimits(path string, src []byte, lim Limits) (*Manifest, error) {
	m, errs, _ := parseMisses(path, src, lim)
	if len(errs) > 0 {
		return nil, errs
	}
	return m, nil
}

// parseMisses is ParseWithLimits, also returning, for tests, the paths
// the position index did not know.
func parseMisses(path string, src []byte, lim Limits) (*Manifest, Errors, []string) {
	lim = lim.resolved()
	if int64(len(src)) > lim.MaxBytes {
		return nil, Errors{{Pos: Position{File: path}, Msg: tooLarge(lim.MaxBytes)}}, nil
	}
	if bytes.HasPrefix(src, utf8BOM) {
		// Blank it out rather than cut it, so that byte columns on the
		// first line stay those of the file.
		src = append([]byte("   "), src[len(utf8BOM):]...)
	}
	c := newChecker(path, src)
	c.lim = lim
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
	m, errs := c.parse()
	if len(errs) > 0 {
		return nil, errs, c.misses
	}
	m.Path = abs
	return m, nil, c.misses
}

// utf8BOM is what Windows editors put at the start of a UTF-8 file. TOML
// does not allow it, but a user cannot see it.
var utf8BOM = []byte("\xEF\xBB\xBF")

// parse decodes and checks c's source, returning every problem in file
// order.
func (c *checker) parse() (*Manifest, Errors) {
	doc, err := c.decode()
	if err != nil {
		return nil, Errors{err}
	}
	m := c.document(doc)
	sort.SliceStable(c.errs, func(i, j int) bool {
		a, b := c.errs[i].Pos, c.errs[j].Pos
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	return m, c.errs
}

// decode parses the TOML, returning its one syntax, limit or structure
// error if it has one: the byte scan, then one pass that records every
// position, counts every limit, meets the syntax error at the exact bytes
// at fault and decodes the values, refusing what TOML's structure forbids.
// A syntax error comes first, then a limit, then a refusal: a refusal
// stops the decoding but not the pass.
func (c *checker) decode() (doc map[string]any, e *Error) {
	defer func() {
		// Nothing here panics on purpose, and the decoder is fuzzed;
		// but a config file must never take a gateway down: a panic is
		// the file's one error (which FuzzParse fails on).
		if r := recover(); r != nil {
			doc, e = nil, c.errAt(span{}, "", "", fmt.Sprintf("cannot parse TOML: internal error: %v", r))
		}
	}()
	if at := rawScan(c.src, c.lim.MaxValues); at >= 0 {
		return nil, c.errAt(span{at, 1}, "", "", fmt.Sprintf("more than %d keys and array elements in all (manifest.Limits.MaxValues)", c.lim.MaxValues))
	}
	ix, err := readTOML(c.src, c.lim)
	var perr *unstable.ParserError
	if errors.As(err, &perr) {
		return nil, c.errAt(c.highlight(perr.Highlight), "", "", "TOML syntax: "+perr.Message)
	} else if err != nil {
		return nil, c.errAt(span{}, "", "", "TOML syntax: "+err.Error())
	}
	if ix.deep.len > 0 {
		return nil, c.errAt(ix.deep, "", "", fmt.Sprintf("nested more than %d levels deep: no manifest needs that, and it would make loading slow", maxDepth))
	}
	if o := ix.over; o != nil {
		return nil, c.errAt(o.at, o.key, o.where, o.msg)
	}
	c.ix = ix
	if ix.refused != nil {
		return nil, c.tomlErr(ix.refused)
	}
	return ix.doc, nil
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
