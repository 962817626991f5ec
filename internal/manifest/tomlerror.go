package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// tomlError is what go-toml's decoder would report: its message (without
// "toml: "), at the byte off of the source, about key when it names one
// (the last part of the key go-toml's error carries, which the caret
// underlines when it starts there).
type tomlError struct {
	off int
	key string
	msg string
}

// goTOMLValue decodes v, a value the decoder does not read itself (a
// datetime, an infinity or NaN, a number out of range), with go-toml's
// decoder, as the one value of a document of its own. A value it refuses
// is noted as the expression's error (see decodeState.valErr) and nil stands
// for it meanwhile. No valid manifest holds such a value (the checks
// refuse a datetime anywhere, and JSON has no infinity or NaN).
func (ix *index) goTOMLValue(v *unstable.Node) any {
	// go-toml puts an error just past the value (a datetime cut short)
	// on the next byte, or, at the end of the document, on the value's
	// last: a newline after the value when the manifest goes on puts it
	// where go-toml puts it in the manifest.
	const prefix = "v = "
	at := cap(ix.src) - cap(v.Data)
	if at < 0 || at > len(ix.src) {
		// Not a value of the source: the parser gives none such.
		ix.refused = &tomlError{msg: fmt.Sprintf("cannot read the value %q", v.Data)}
		return nil
	}
	doc := make([]byte, 0, len(prefix)+len(v.Data)+1)
	doc = append(append(doc, prefix...), v.Data...)
	if at+len(v.Data) < len(ix.src) {
		doc = append(doc, '\n')
	}
	var m map[string]any
	err := toml.Unmarshal(doc, &m)
	if err == nil {
		return m["v"]
	}
	if ix.valErr == nil {
		col, msg := 1+len(prefix), err.Error()
		var de *toml.DecodeError
		if errors.As(err, &de) {
			_, col = de.Position()
			msg = de.Error()
		}
		ix.valErr = &tomlError{off: at + max(col-1-len(prefix), 0), msg: strings.TrimPrefix(msg, "toml: ")}
	}
	return nil
}

// tomlErr is e as the manifest's one error.
func (c *checker) tomlErr(e *tomlError) *Error {
	at := span{min(max(e.off, 0), len(c.src)), 1}
	if e.key != "" && bytes.HasPrefix(c.src[at.off:], []byte(e.key)) {
		at.len = len(e.key)
	}
	return c.errAt(at, "", "", "TOML: "+e.msg)
}
