package runtime

import (
	"fmt"
	"strings"
)

// outputBuffer captures a probe's stdout and stderr with a fixed bound: it
// keeps the first outputHead bytes and the last outputTail bytes and counts
// what fell in between. The end matters most (a Go panic prints there); the
// start often says what the probe was doing. Writes always succeed, so a
// probe never spins on a full pipe.
type outputBuffer struct {
	head    []byte
	tail    []byte // a ring of outputTail bytes once full
	tailPos int
	dropped int64
}

const (
	outputHead = 4 << 10
	outputTail = 12 << 10
)

func newOutputBuffer() *outputBuffer { return &outputBuffer{} }

func (b *outputBuffer) Reset() {
	b.head = b.head[:0]
	b.tail = b.tail[:0]
	b.tailPos = 0
	b.dropped = 0
}

func (b *outputBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if room := outputHead - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 {
		if len(b.tail) < outputTail {
			k := min(outputTail-len(b.tail), len(p))
			b.tail = append(b.tail, p[:k]...)
			p = p[k:]
			continue
		}
		// Full: overwrite the oldest bytes. Only the last outputTail bytes
		// of p can survive, so skip the rest at once.
		if len(p) > outputTail {
			b.dropped += int64(len(p) - outputTail)
			p = p[len(p)-outputTail:]
		}
		k := min(outputTail-b.tailPos, len(p))
		b.dropped += int64(k)
		copy(b.tail[b.tailPos:], p[:k])
		b.tailPos = (b.tailPos + k) % outputTail
		p = p[k:]
	}
	return n, nil
}

func (b *outputBuffer) String() string {
	if len(b.head) == 0 {
		return ""
	}
	var s strings.Builder
	s.Write(b.head)
	if b.dropped > 0 {
		fmt.Fprintf(&s, "\n... [%d bytes dropped] ...\n", b.dropped)
	}
	s.Write(b.tail[b.tailPos:])
	s.Write(b.tail[:b.tailPos])
	return strings.ToValidUTF8(s.String(), "\uFFFD")
}

// explain picks the line of a trapped probe's output that says why: a Go
// panic or fatal error, else the last non-empty line. It is clipped to one
// short line for the error message; Result.Output has the rest.
func explain(output string) string {
	lines := strings.Split(output, "\n")
	pick := ""
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
			pick = l
			break
		}
	}
	if pick == "" {
		for i := len(lines) - 1; i >= 0; i-- {
			if l := strings.TrimSpace(lines[i]); l != "" {
				pick = l
				break
			}
		}
	}
	const max = 200
	if len(pick) > max {
		pick = clip(pick, max) + "…"
	}
	return pick
}

// clip cuts s to at most max bytes at a rune boundary.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && s[max]&0xC0 == 0x80 {
		max--
	}
	return s[:max]
}
