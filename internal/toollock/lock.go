// Package toollock reads and writes gate's lock file of MCP tool
// definitions: for each tool of each upstream server, a SHA-256 of each
// part of its definition as the gateway offers it (title, description,
// input schema, output schema, annotations, _meta, icons, and every other
// field together). A server pinned in the
// manifest (pin = true or "strict") offers only the tools whose parts
// match their entry, so that a server cannot change a tool a person
// approved without the change being accepted (gatectl mcp lock).
//
// The file is text, one line per tool, sorted, like go.sum:
//
//	# gate lock file: ...
//	SERVER TOOL title=HEX description=HEX input=HEX output=HEX annotations=HEX meta=HEX icons=HEX other=HEX
//
// with "-" for a part the tool does not have. Lines that start with '#'
// and blank lines are ignored. A line of the first format, which ends at
// annotations, is read as a tool without _meta, icons or other fields: a
// tool that has them shows as changed until the lock is written again.
package toollock

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gate-dev/gate/internal/safefile"
)

// MaxBytes caps a lock file: 16 MiB holds some 50,000 tools, far more
// than any set of servers offers, and a larger file (or /dev/zero named
// as one) is refused before it is read.
const MaxBytes = 16 << 20

// Part is one part of a tool's definition that the lock hashes.
type Part int

// The parts, in the order a line gives them.
const (
	Title Part = iota
	Description
	Input
	Output
	Annotations
	Meta
	Icons
	// Other is every other field of the tool as the gateway offers it,
	// together: whatever the protocol adds reaches a client, so it is
	// pinned too.
	Other
	NumParts
)

// firstParts is how many parts a line of the first format has (up to
// Annotations).
const firstParts = Meta

// parts is the one table of the parts: the key a line writes each under,
// and what messages call it.
var parts = [NumParts]struct{ key, name string }{
	Title:       {"title", "title"},
	Description: {"description", "description"},
	Input:       {"input", "input schema"},
	Output:      {"output", "output schema"},
	Annotations: {"annotations", "annotations"},
	Meta:        {"meta", "_meta"},
	Icons:       {"icons", "icons"},
	Other:       {"other", "other fields"},
}

// String is what messages call the part ("input schema").
func (p Part) String() string {
	if p < 0 || p >= NumParts {
		return fmt.Sprintf("Part(%d)", int(p))
	}
	return parts[p].name
}

// Sums are the hex SHA-256 sums of a tool's parts, "" for a part the tool
// does not have.
type Sums [NumParts]string

// Differ returns the parts whose sums differ between s and o, in order.
func (s Sums) Differ(o Sums) []Part {
	var out []Part
	for p := range NumParts {
		if s[p] != o[p] {
			out = append(out, p)
		}
	}
	return out
}

// Entry is one line: a tool of a server, by the name the server gives it
// (before the gateway's prefix), and its sums.
type Entry struct {
	Server, Tool string
	Sums         Sums
}

// File is a lock file's entries, sorted by server and then tool, each
// pair once.
type File struct {
	Entries []Entry
}

func sortEntries(es []Entry) { slices.SortFunc(es, compareEntries) }

func compareEntries(a, b Entry) int {
	return cmp.Or(strings.Compare(a.Server, b.Server), strings.Compare(a.Tool, b.Tool))
}

// Lookup returns the sums of server's tool, and whether the file has it.
func (f *File) Lookup(server, tool string) (Sums, bool) {
	if f == nil {
		return Sums{}, false
	}
	i, ok := slices.BinarySearchFunc(f.Entries, Entry{Server: server, Tool: tool}, compareEntries)
	if !ok {
		return Sums{}, false
	}
	return f.Entries[i].Sums, true
}

// Server returns the entries of server, in tool order.
func (f *File) Server(server string) []Entry {
	if f == nil {
		return nil
	}
	lo, _ := slices.BinarySearchFunc(f.Entries, Entry{Server: server}, compareEntries)
	hi := lo
	for hi < len(f.Entries) && f.Entries[hi].Server == server {
		hi++
	}
	return f.Entries[lo:hi]
}

// Replace returns a File with server's entries replaced by entries (whose
// Server is set to server), the others kept.
func (f *File) Replace(server string, entries []Entry) *File {
	out := &File{}
	if f != nil {
		for _, e := range f.Entries {
			if e.Server != server {
				out.Entries = append(out.Entries, e)
			}
		}
	}
	for _, e := range entries {
		e.Server = server
		out.Entries = append(out.Entries, e)
	}
	sortEntries(out.Entries)
	out.Entries = slices.CompactFunc(out.Entries, func(a, b Entry) bool { return compareEntries(a, b) == 0 })
	return out
}

// Servers returns the servers the file has entries of, sorted.
func (f *File) Servers() []string {
	var out []string
	if f == nil {
		return out
	}
	for _, e := range f.Entries {
		if len(out) == 0 || out[len(out)-1] != e.Server {
			out = append(out, e.Server)
		}
	}
	return out
}

// PathFor is the lock file of the manifest at manifest: its path with the
// extension replaced by ".lock" (gate.toml: gate.lock), or ".lock" added
// when it has none.
func PathFor(manifest string) string {
	ext := filepath.Ext(manifest)
	if ext == "" || strings.ContainsAny(ext, `/\`) {
		return manifest + ".lock"
	}
	return strings.TrimSuffix(manifest, ext) + ".lock"
}

// Read reads and parses the lock file at path: a regular file (after
// symbolic links) of at most MaxBytes, refused at once otherwise (a FIFO
// or a device named as one is never waited on). A file that is not there
// is an error wrapping fs.ErrNotExist.
func Read(path string) (*File, error) {
	b, err := safefile.Read(path, MaxBytes)
	if err != nil {
		return nil, err
	}
	return Parse(path, b)
}

// Write writes f to path at once: to a temporary file beside it, then
// renamed over it, so a reader (a running gateway) sees the old file or
// the new one, never half of one.
func Write(path string, f *File) error {
	return safefile.Write(path, Format(f), 0o644, true)
}

// IsMissing reports whether err is Read's error for a path with no file.
func IsMissing(err error) bool { return errors.Is(err, fs.ErrNotExist) }
