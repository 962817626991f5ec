package doctest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Marker is what a doc marker says keeps its block true.
type Marker struct {
	Run  bool   // "run": TestDocExamples runs the commands
	From string // "from TestName": that test produces and checks them

	// The options of "run":
	Files []string // repository paths copied into the run's directory
	Dir   string   // where the commands run, relative to that directory
	Env   []string // NAME=VALUE, the environment beyond the harness's own
	Ports []string // ports the page shows; a free port stands in for each
	Write string   // a file the page shows with "$ cat FILE", written in Dir before the run
	Prep  string   // a preparation the harness knows by this name
	// Daemon is a command started in the background before the block's
	// (a server its commands ask), and stopped after them.
	Daemon string
}

var (
	testName = regexp.MustCompile(`^Test[A-Za-z0-9_]*$`)
	envName  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
	portRE   = regexp.MustCompile(`^[0-9]{1,5}$`)
)

// parseMarker reads the text between "doc:" and "-->".
func parseMarker(text string) (*Marker, error) {
	words, err := splitWords(text)
	if err != nil {
		return nil, err
	}
	if len(words) == 0 {
		return nil, fmt.Errorf(`doc marker: want "run" or "from TestName"`)
	}
	m := &Marker{}
	switch words[0] {
	case "from":
		if len(words) != 2 || !testName.MatchString(words[1]) {
			return nil, fmt.Errorf(`doc marker %q: want "from TestName", one test function`, text)
		}
		m.From = words[1]
		return m, nil
	case "run":
		m.Run = true
	default:
		return nil, fmt.Errorf(`doc marker %q: unknown kind %q (want run or from)`, text, words[0])
	}
	for _, w := range words[1:] {
		key, value, ok := strings.Cut(w, "=")
		if !ok || value == "" {
			return nil, fmt.Errorf("doc marker %q: option %q: want KEY=VALUE", text, w)
		}
		switch key {
		case "files":
			m.Files = append(m.Files, strings.Split(value, ",")...)
		case "dir":
			m.Dir = value
		case "env":
			if !envName.MatchString(value) {
				return nil, fmt.Errorf("doc marker %q: env %q: want NAME=VALUE", text, value)
			}
			m.Env = append(m.Env, value)
		case "port":
			for _, port := range strings.Split(value, ",") {
				if !portRE.MatchString(port) {
					return nil, fmt.Errorf("doc marker %q: port %q: want a port number", text, port)
				}
				m.Ports = append(m.Ports, port)
			}
		case "write":
			m.Write = value
		case "prep":
			m.Prep = value
		case "daemon":
			m.Daemon = value
		default:
			return nil, fmt.Errorf("doc marker %q: unknown option %q (files, dir, env, port, write, prep, daemon)", text, key)
		}
	}
	return m, nil
}

// splitWords splits text at spaces; a word may be written as a Go
// double-quoted string to hold spaces (env="GREETING=hello world").
func splitWords(text string) ([]string, error) {
	var words []string
	for text = strings.TrimSpace(text); text != ""; text = strings.TrimSpace(text) {
		end := strings.IndexByte(text, ' ')
		if end < 0 {
			end = len(text)
		}
		if q := strings.IndexByte(text[:end], '"'); q >= 0 {
			prefix := text[:q]
			quoted, err := strconv.QuotedPrefix(text[q:])
			if err != nil {
				return nil, fmt.Errorf("doc marker %q: an unterminated quote", text)
			}
			s, _ := strconv.Unquote(quoted)
			words = append(words, prefix+s)
			text = text[q+len(quoted):]
			continue
		}
		words = append(words, text[:end])
		text = text[end:]
	}
	return words, nil
}
