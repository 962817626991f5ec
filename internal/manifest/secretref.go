package manifest

import (
	"fmt"
	"strings"

	"github.com/gate-dev/gate/internal/probes"
)

// secretOpen starts a secret placeholder, ${secret:NAME}, in the values
// that may hold one: an upstream's header values, its env values and its
// oauth client_id and client_secret. Nothing else is expanded: a "$" or a
// "${HOME}" is kept as written.
const secretOpen = "${secret:"

// maxSecretRefs bounds the placeholders of one value: a header or a
// variable is built of a few parts, and each placeholder costs a lookup
// and a redaction.
const maxSecretRefs = 16

// SecretNames returns the NAMEs of the ${secret:NAME} placeholders in s,
// in order, each as often as it occurs; nil when s has none. A
// "${secret:" that does not start a placeholder (no closing brace, or a
// NAME that probes.ValidEnvName refuses) is an error, as are more than 16
// placeholders: a value is never half expanded.
func SecretNames(s string) ([]string, error) {
	var names []string
	for {
		i := strings.Index(s, secretOpen)
		if i < 0 {
			return names, nil
		}
		s = s[i+len(secretOpen):]
		end := strings.IndexByte(s, '}')
		if end < 0 || !probes.ValidEnvName(s[:end]) {
			return nil, badPlaceholder(s, end)
		}
		if len(names) == maxSecretRefs {
			return nil, fmt.Errorf("more than %d ${secret:NAME} placeholders in one value", maxSecretRefs)
		}
		names = append(names, s[:end])
		s = s[end+1:]
	}
}

// badPlaceholder describes the placeholder that starts s (after
// "${secret:") and whose closing brace is at end (-1 for none), quoting at
// most 40 bytes of it: the rest may be a secret pasted in by mistake.
func badPlaceholder(s string, end int) error {
	bad := s
	if end >= 0 {
		bad = s[:end+1]
	}
	if len(bad) > 40 {
		bad = bad[:40] + "..."
	}
	what := "not closed with }"
	if end >= 0 {
		what = "NAME must be letters, digits and _, not starting with a digit"
	}
	return fmt.Errorf("bad placeholder %q: %s; want ${secret:NAME}", secretOpen+bad, what)
}

// ExpandSecrets returns s with each ${secret:NAME} replaced by lookup's
// value for NAME. A NAME lookup does not know is the error "secret NAME is
// not set"; lookup's values are never part of an error.
func ExpandSecrets(s string, lookup func(name string) (string, bool)) (string, error) {
	if !strings.Contains(s, secretOpen) {
		return s, nil
	}
	if _, err := SecretNames(s); err != nil {
		return "", err
	}
	var b strings.Builder
	for {
		i := strings.Index(s, secretOpen)
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		s = s[i+len(secretOpen):]
		end := strings.IndexByte(s, '}') // there is one: SecretNames checked
		name := s[:end]
		v, ok := lookup(name)
		if !ok {
			return "", fmt.Errorf("secret %s is not set", name)
		}
		b.WriteString(v)
		s = s[end+1:]
	}
}
