package manifest

// policyKeys are the availability policy's keys, which [runtime], every
// [[tools]] entry and every [[servers]] entry accept, in the order the
// documentation gives them.
var policyKeys = []string{"failure_threshold", "success_threshold", "retry", "hold_down"}

// maxThreshold bounds failure_threshold and success_threshold: at the
// shortest retry a probe can have, more answers than this would keep a
// dead tool listed for days.
const maxThreshold = 1000

// policy reads the policy keys of the table t at the place at; nil when
// none is written (or none is good: each bad one is reported).
func (c *checker) policy(at place, t map[string]any) *Policy {
	written := false
	for _, key := range policyKeys {
		if _, ok := t[key]; ok {
			written = true
			break
		}
	}
	if !written {
		// The usual case, without a Policy made for nothing.
		return nil
	}
	var p Policy
	set := false
	for i, key := range policyKeys[:2] {
		v, ok := t[key]
		if !ok {
			continue
		}
		kp := c.key(at, key)
		n, isInt := v.(int64)
		switch {
		case !isInt:
			c.valueErr(kp, "want an integer, got %s", describe(v))
		case n < 1 || n > maxThreshold:
			c.valueErr(kp, "%s %d: want 1 to %d answers in a row (1, the default, takes each answer at once)", key, n, maxThreshold)
		case i == 0:
			p.FailureThreshold, set = int(n), true
		default:
			p.SuccessThreshold, set = int(n), true
		}
	}
	if d, kp, ok := c.duration(at, t, "retry"); ok {
		if d <= 0 {
			c.valueErr(kp, "retry %v: want more than 0; leave retry out to re-probe a failing tool after the TTL", d)
		} else {
			p.Retry, set = &d, true
		}
	}
	if d, kp, ok := c.duration(at, t, "hold_down"); ok {
		if d < 0 {
			c.valueErr(kp, "hold_down %v: want 0 or more (0 lets a tool flip at every answer)", d)
		} else {
			p.HoldDown, set = &d, true
		}
	}
	if !set {
		return nil
	}
	return &p
}

// Over returns under with the keys p writes in place of its own: a
// tool's keys over [runtime]'s. Either may be nil; the result is nil when
// both are.
func (p *Policy) Over(under *Policy) *Policy {
	switch {
	case p == nil:
		return under
	case under == nil:
		return p
	}
	out := *under
	if p.FailureThreshold != 0 {
		out.FailureThreshold = p.FailureThreshold
	}
	if p.SuccessThreshold != 0 {
		out.SuccessThreshold = p.SuccessThreshold
	}
	if p.Retry != nil {
		out.Retry = p.Retry
	}
	if p.HoldDown != nil {
		out.HoldDown = p.HoldDown
	}
	return &out
}
