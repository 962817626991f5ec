package toollock

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: no input makes Parse panic; an error is always an *Error
// naming the line; whatever parses formats to bytes that parse to the
// same File, and formatting that again gives the same bytes.
func FuzzParse(f *testing.F) {
	if golden, err := os.ReadFile(filepath.Join("testdata", "gate.lock")); err == nil {
		f.Add(golden)
	}
	f.Add([]byte("# c\ns t title=- description=- input=- output=- annotations=-\n"))
	f.Add([]byte("s t title=- description=- input=- output=- annotations=- meta=- icons=- other=-\n"))
	f.Add([]byte("s t title=- description=- input=- output=-\r\n"))
	f.Add([]byte("\n\n#\n  \t\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		lf, err := Parse("fuzz.lock", b)
		if err != nil {
			var le *Error
			if !errors.As(err, &le) || le.Line < 1 {
				t.Fatalf("error %v is not an *Error with a line", err)
			}
			return
		}
		out := Format(lf)
		back, err := Parse("fuzz.lock", out)
		if err != nil {
			t.Fatalf("Format's output does not parse: %v\n%s", err, out)
		}
		if len(back.Entries) != len(lf.Entries) {
			t.Fatalf("%d entries, then %d", len(lf.Entries), len(back.Entries))
		}
		for i := range lf.Entries {
			if back.Entries[i] != lf.Entries[i] {
				t.Fatalf("entry %d: %+v, then %+v", i, lf.Entries[i], back.Entries[i])
			}
		}
		if again := Format(back); !bytes.Equal(again, out) {
			t.Fatalf("Format is not stable:\n%s\n%s", out, again)
		}
	})
}
