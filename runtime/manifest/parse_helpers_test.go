package manifest

// parse is Parse, also returning the paths the position index did not
// know.
func parse(path string, src []byte) (*Manifest, Errors, []string) {
	m, errs, misses, _ := parseOpts(path, src, Limits{}, fastPathEnabled, fastOpts{})
	return m, errs, misses
}

// parseMode is ParseWithLimits, trying the fast path first when tryFast
// is set, and saying whether its result is the fast path's.
func parseMode(path string, src []byte, lim Limits, tryFast bool) (_ *Manifest, _ Errors, _ []string, fast bool) {
	return parseOpts(path, src, lim, tryFast, fastOpts{})
}
