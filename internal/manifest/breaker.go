package manifest

import (
	"time"
)

// breakerKeys are the keys of a server's breaker table, in the order the
// documentation gives them.
var breakerKeys = []string{"failures", "window", "cooldown"}

// The bounds of the breaker keys: far above any useful setting, so that
// a value past them is a typo ("30h" for "30s", 50000 for 5).
const (
	maxBreakerFailures = 1000
	maxBreakerSpan     = 24 * time.Hour
)

// breaker checks a server's breaker table: the failures, window and
// cooldown of its forwarded calls' circuit breaker (see Breaker).
func (c *checker) breaker(at place, v any) *Breaker {
	t, ok := c.table(at, v, `a table like { failures = 5, window = "5m", cooldown = "30s" }`)
	if !ok {
		return nil
	}
	c.unknownKeys(at, t, breakerKeys)
	b := &Breaker{}
	if v, ok := t["failures"]; ok {
		p := c.key(at, "failures")
		n, isInt := v.(int64)
		switch {
		case !isInt:
			c.valueErr(p, "want an integer (0 turns the breaker off), got %s", describe(v))
		case n < 0:
			c.valueErr(p, "failures %d: want 0 (no breaker) or more", n)
		case n > maxBreakerFailures:
			c.valueErr(p, "failures %d: want at most %d", n, maxBreakerFailures)
		default:
			f := int(n)
			b.Failures = &f
		}
	}
	for _, k := range []string{"window", "cooldown"} {
		d, p, ok := c.duration(at, t, k)
		switch {
		case !ok:
		case d <= 0:
			c.valueErr(p, "%s %v: want more than 0", k, d)
		case d > maxBreakerSpan:
			c.valueErr(p, "%s %v: want at most 24h", k, d)
		case k == "window":
			b.Window = &d
		default:
			b.Cooldown = &d
		}
	}
	return b
}
