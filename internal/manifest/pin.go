package manifest

// Pin says whether the MCP gateway checks a server's tools against the
// lock file beside the manifest (its path with the extension replaced by
// ".lock"), which gatectl mcp lock writes: a SHA-256 of each part of each
// tool's definition as the gateway offers it.
type Pin string

// The values of pin.
const (
	// PinOff (pin = false, or not written) offers the tools whatever the
	// lock file says.
	PinOff Pin = ""
	// PinOn (pin = true) hides a tool whose definition differs from its
	// entry in the lock file; a tool the file does not know is offered.
	PinOn Pin = "true"
	// PinStrict (pin = "strict") hides, besides, a tool the lock file
	// does not know.
	PinStrict Pin = "strict"
)

// pin checks a server's pin: true, false or "strict".
func (c *checker) pin(at place, v any) Pin {
	switch v {
	case true:
		return PinOn
	case false:
		return PinOff
	case "strict":
		return PinStrict
	}
	c.valueErr(at, `want true (hide a tool whose definition changed since gatectl mcp lock), "strict" (hide a tool the lock file does not know, too) or false, got %s`, describe(v))
	return PinOff
}
