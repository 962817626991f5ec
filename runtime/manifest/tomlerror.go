package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// A document that is good TOML syntax can still be refused by go-toml's
// decoder: a key or table defined twice, a table reopened in a way TOML
// forbids, a number or date out of range. The decoder (fastdecode.go)
// refuses exactly those, with go-toml's messages at go-toml's positions,
// so that a manifest reads the same whichever decodes it; FuzzDecodeExact
// holds the two to the same map or the same error.

// tomlError is what go-toml's decoder would report: its message (without
// "toml: "), at the byte off of the source, about key when it names one
// (the last part of the key go-toml's error carries, which the caret
// underlines when it starts there).
type tomlError struct {
	off int
	key string
	msg string
}

// refuse stops decoding with go-toml's tracker's message about name,
// which go-toml points at the key of the expression being decoded.
func (d *fastDecoder) refuse(format, name string) {
	it := d.expr.Key()
	off, last := -1, ""
	for it.Next() {
		part := it.Node()
		if off < 0 {
			off = d.rng(part.Raw).off
		}
		last = string(part.Data)
	}
	panic(&tomlError{off: max(off, 0), key: last, msg: fmt.Sprintf(format, name)})
}

// goTOMLValue decodes v, a value the decoder does not read itself (a
// datetime, an infinity or NaN, a number out of range), with go-toml's
// decoder, as the one value of a document of its own. A value it refuses
// is noted as the expression's error (see fastDecoder.valErr) and nil
// stands for it meanwhile.
//
// No valid manifest holds such a value (the checks refuse a datetime
// anywhere, and JSON has no infinity or NaN), and reading one through
// go-toml's decoder costs ten times what go-toml's own pass would, so
// the fast path declines it at once: only the full path, which reports
// it, reads it.
func (d *fastDecoder) goTOMLValue(v *unstable.Node) any {
	if !d.exact {
		decline()
	}
	// go-toml puts an error just past the value (a datetime cut short)
	// on the next byte, or, at the end of the document, on the value's
	// last: a newline after the value when the manifest goes on puts it
	// where go-toml puts it in the manifest.
	const prefix = "v = "
	at := d.offsetIn(v.Data)
	doc := make([]byte, 0, len(prefix)+len(v.Data)+1)
	doc = append(append(doc, prefix...), v.Data...)
	if at+len(v.Data) < len(d.src) {
		doc = append(doc, '\n')
	}
	var m map[string]any
	err := toml.Unmarshal(doc, &m)
	if err == nil {
		return m["v"]
	}
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		panic(fmt.Errorf("go-toml refused the value %q without a position: %w", v.Data, err))
	}
	if d.valErr == nil {
		_, col := de.Position()
		d.valErr = &tomlError{off: at + max(col-1-len(prefix), 0), msg: strings.TrimPrefix(de.Error(), "toml: ")}
	}
	return nil
}

// offsetIn is where b, bytes of the parser's input, starts in the source.
func (d *fastDecoder) offsetIn(b []byte) int {
	off := cap(d.src) - cap(b)
	if off < 0 || off > len(d.src) {
		panic(fmt.Errorf("value %q is not in the source", b))
	}
	return off
}

// tomlErr is e as the manifest's one error.
func (c *checker) tomlErr(e *tomlError) *Error {
	at := span{min(max(e.off, 0), len(c.src)), 1}
	if e.key != "" && bytes.HasPrefix(c.src[at.off:], []byte(e.key)) {
		at.len = len(e.key)
	}
	return c.errAt(at, "", "", "TOML: "+e.msg)
}
