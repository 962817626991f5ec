// Package doctest reads the shell examples of the project's Markdown
// pages, so that tests can run them or check them against what a test
// produces, and rewrite their output from a run.
//
// A fenced block is an example when it shows a command: a line starting
// "$ " in a block of any language but Go, or any line of a ```sh, ```shell
// or ```bash block (a script, shown without its output). Each example must
// be preceded by a marker comment, the last non-blank line before its
// fence, that says what keeps it true:
//
//	<!-- doc: run [files=PATH,...] [dir=DIR] [env=NAME=VALUE]... [port=N,...] [write=FILE] [prep=NAME,...] [daemon="COMMAND"] -->
//	<!-- doc: from TestName -->
//
// "run" blocks are run by cmd/gatectl's TestDocExamples, command by
// command, in a temporary copy of the files named; "from" blocks are
// produced and checked by the named test, which must exist and read the
// page (Compare, or its own reading of it). Parse fails on an example
// without a marker, at its file and line.
package doctest

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
)

// Page is one Markdown file and its examples.
type Page struct {
	Path   string
	lines  []string
	Blocks []*Block
}

// Block is one fenced example.
type Block struct {
	Line   int     // of the opening fence, from 1
	Lang   string  // after the fence: "sh", "" ...
	Marker *Marker // nil when the block has none
	// Prompted: the commands are "$ " lines, each followed by its
	// output; otherwise every line is a command and no output is shown.
	Prompted bool
	Preamble []string // lines before the first command
	Steps    []*Step
	indent   string   // of the fence, and so of every line of the body
	body     []string // as read, without the indent
	start    int      // index in lines of the first line of the body
	end      int      // index of the closing fence
}

// Step is one command of a block and the output the page shows for it.
type Step struct {
	Line    int      // of the command's first line, from 1
	Source  []string // the command as written, with "$ " and continuation lines
	Command string   // the command for sh: "$ " and line continuations removed
	Output  []string // nil for a block that is not Prompted
}

var (
	// fence opens a block, indented as in a list item.
	fence     = regexp.MustCompile("^( *)(```+)([A-Za-z0-9_+-]*)\\s*$")
	markerRE  = regexp.MustCompile(`^<!--\s*doc:(.*?)-->\s*$`)
	shellLang = []string{"sh", "shell", "bash"}
)

// Load reads and parses the page at path.
func Load(path string) (*Page, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse reads the examples of src, named path in errors. A marker that is
// malformed, or that stands before a block showing no command, is an
// error at its line; a missing marker is not (Block.Marker is nil), so
// that a caller can report every such block.
func Parse(path string, src []byte) (*Page, error) {
	p := &Page{Path: path, lines: strings.Split(string(src), "\n")}
	for i := 0; i < len(p.lines); i++ {
		m := fence.FindStringSubmatch(p.lines[i])
		if m == nil {
			continue
		}
		end := i + 1
		for end < len(p.lines) && strings.TrimSpace(p.lines[end]) != m[2] {
			end++
		}
		if end == len(p.lines) {
			return nil, fmt.Errorf("%s:%d: a fenced block that is never closed", path, i+1)
		}
		b := &Block{Line: i + 1, Lang: m[3], indent: m[1], start: i + 1, end: end}
		body := make([]string, end-i-1)
		for k, l := range p.lines[i+1 : end] {
			body[k] = strings.TrimPrefix(l, b.indent)
		}
		marker, markerLine := p.markerBefore(i)
		marked := markerLine > 0
		if isExample(b.Lang, body) {
			b.body = body
			b.split(body, i+2)
			if marked {
				mk, err := parseMarker(marker)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %v", path, markerLine, err)
				}
				b.Marker = mk
			}
			p.Blocks = append(p.Blocks, b)
		} else if marked {
			return nil, fmt.Errorf("%s:%d: a doc marker before a block that shows no command (the block at line %d)", path, markerLine, i+1)
		}
		i = end
	}
	return p, nil
}

// markerBefore returns the marker text on the last non-blank line before
// line i, and that line's number (0 when there is no marker).
func (p *Page) markerBefore(i int) (string, int) {
	for j := i - 1; j >= 0; j-- {
		if strings.TrimSpace(p.lines[j]) == "" {
			continue
		}
		if m := markerRE.FindStringSubmatch(strings.TrimSpace(p.lines[j])); m != nil {
			return strings.TrimSpace(m[1]), j + 1
		}
		return "", 0
	}
	return "", 0
}

func isExample(lang string, body []string) bool {
	if lang == "go" {
		return false
	}
	if slices.Contains(shellLang, lang) {
		return true
	}
	return slices.ContainsFunc(body, isPrompt)
}

func isPrompt(line string) bool { return strings.HasPrefix(line, "$ ") }

// split fills the block's preamble and steps from its body, whose first
// line is line first.
func (b *Block) split(body []string, first int) {
	b.Prompted = slices.ContainsFunc(body, isPrompt)
	var cur *Step
	for i := 0; i < len(body); i++ {
		line := body[i]
		switch {
		case b.Prompted && isPrompt(line), !b.Prompted && strings.TrimSpace(line) != "":
			cur = &Step{Line: first + i, Source: []string{line}}
			cmd := strings.TrimPrefix(line, "$ ")
			for strings.HasSuffix(cmd, "\\") && i+1 < len(body) {
				i++
				cur.Source = append(cur.Source, body[i])
				cmd = strings.TrimRight(strings.TrimSuffix(cmd, "\\"), " ") + " " + strings.TrimSpace(body[i])
			}
			cur.Command = strings.TrimSpace(cmd)
			if b.Prompted {
				cur.Output = []string{}
			}
			b.Steps = append(b.Steps, cur)
		case cur == nil:
			b.Preamble = append(b.Preamble, line)
		case b.Prompted:
			cur.Output = append(cur.Output, line)
		}
	}
}

// Step returns the step of the block whose command is command, or nil.
func (b *Block) Step(command string) *Step {
	for _, s := range b.Steps {
		if s.Command == command {
			return s
		}
	}
	return nil
}

// Find returns the first step of the page whose command is command, and
// its block.
func (p *Page) Find(command string) (*Block, *Step) {
	for _, b := range p.Blocks {
		if s := b.Step(command); s != nil {
			return b, s
		}
	}
	return nil, nil
}

// Bytes is the page with each prompted block's steps as they are now
// (after Step.Output was replaced by a run, say).
func (p *Page) Bytes() []byte {
	out := make([]string, 0, len(p.lines))
	next := 0
	for _, b := range p.Blocks {
		out = append(out, p.lines[next:b.start]...)
		if b.Prompted {
			var body []string
			body = append(body, b.Preamble...)
			for _, s := range b.Steps {
				body = append(body, s.Source...)
				body = append(body, s.Output...)
			}
			if slices.Equal(body, b.body) { // unchanged: as it was, byte for byte
				out = append(out, p.lines[b.start:b.end]...)
				next = b.end
				continue
			}
			for _, l := range body {
				if l != "" {
					l = b.indent + l
				}
				out = append(out, l)
			}
		} else {
			out = append(out, p.lines[b.start:b.end]...)
		}
		next = b.end
	}
	out = append(out, p.lines[next:]...)
	return []byte(strings.Join(out, "\n"))
}

// Save writes the page back to its path.
func (p *Page) Save() error { return os.WriteFile(p.Path, p.Bytes(), 0o644) }

// Fence returns the body of the first fenced block of lang that opens
// after line after (from 1), and the line of its closing fence, after
// which the next block is looked for; "" and 0 when there is none. It reads any block, example or not: a probe's source
// that an example builds, say.
func (p *Page) Fence(lang string, after int) (string, int) {
	for i := after; i < len(p.lines); i++ {
		m := fence.FindStringSubmatch(p.lines[i])
		if m == nil {
			continue
		}
		end := i + 1
		for end < len(p.lines) && strings.TrimSpace(p.lines[end]) != m[2] {
			end++
		}
		if m[3] == lang && end < len(p.lines) {
			return strings.Join(p.lines[i+1:end], "\n") + "\n", end + 1
		}
		i = end
	}
	return "", 0
}

// Heading returns the line (from 1) of the heading line heading ("## A
// protocol probe in C"), 0 when the page has none.
func (p *Page) Heading(heading string) int {
	for i, l := range p.lines {
		if strings.TrimSpace(l) == heading {
			return i + 1
		}
	}
	return 0
}
