package manifest

// go-toml's parser builds a whole expression before returning it, so a
// huge array costs far more memory than its bytes before the index can
// count a single element. rawScan runs first and bounds that: it counts
// the commas inside arrays and inline tables, outside strings and
// comments, a lower bound on the values they hold, and stops at the first
// comma past the limit, allocating nothing.

// rawScan returns the offset of the first comma that makes the document
// hold more than max values, or -1.
func rawScan(src []byte, max int) int {
	depth, commas := 0, 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case '"', '\'':
			i = skipString(src, i)
		case '[', '{':
			depth++
		case ']', '}':
			depth = max0(depth - 1)
		case ',':
			if depth > 0 {
				if commas++; commas > max {
					return i
				}
			}
		}
	}
	return -1
}

// skipString returns the offset of the last byte of the string that
// starts at i: basic ("...", with backslash escapes) or literal ('...'),
// on one line or, tripled, on many. An unterminated string ends at the
// end of its line (one-line) or of the source (multi-line); the parser
// reports it.
func skipString(src []byte, i int) int {
	q := src[i]
	triple := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	if triple {
		for j := i + 3; j < len(src); j++ {
			switch {
			case src[j] == '\\' && q == '"':
				j++
			case src[j] == q && j+2 < len(src) && src[j+1] == q && src[j+2] == q:
				// Up to two more quotes belong to the string.
				j += 2
				for k := 0; k < 2 && j+1 < len(src) && src[j+1] == q; k++ {
					j++
				}
				return j
			}
		}
		return len(src) - 1
	}
	for j := i + 1; j < len(src); j++ {
		switch {
		case src[j] == '\\' && q == '"':
			j++
		case src[j] == q, src[j] == '\n':
			return j
		}
	}
	return len(src) - 1
}

func max0(n int) int { return max(n, 0) }
