package wasm

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecode checks that Decode never panics and that every error is a
// *FormatError. Seeds: the testdata modules (theirs and internal/meter's).
func FuzzDecode(f *testing.F) {
	for _, pattern := range []string{"testdata/*.wasm", "../meter/testdata/*.wasm"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *FormatError", err, err)
			}
			if m != nil {
				t.Fatal("module and error both returned")
			}
			return
		}
		// Decoded modules can be walked again (by the stack walk too,
		// whatever the body's types) and their helpers called with any
		// index.
		for i, c := range m.Code {
			ir := NewInstrReader(c.Body, c.BodyOffset)
			for !ir.Done() {
				if _, err := ir.Next(); err != nil {
					t.Fatalf("body decoded by Decode fails on re-walk: %v", err)
				}
			}
			if _, err := m.MaxStackHeight(i); err != nil {
				t.Fatalf("body decoded by Decode fails the stack walk: %v", err)
			}
		}
		for i := uint32(0); i < 4; i++ {
			m.FuncType(i)
			m.GlobalType(i)
		}
		m.Memory()
		for _, s := range m.Sections {
			if s.ID == SectionCustom && s.Name == "name" {
				DecodeNameSection(s.Content, s.ContentOffset)
			}
		}
	})
}
