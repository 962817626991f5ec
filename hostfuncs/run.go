package hostfuncs

import "fmt"

// What a probe run leaves behind besides its answer: its log lines and
// the requests its grants refused. runtime.Result carries them.

// Level is the severity of a probe's log entry, as the probe passes it to
// gate.log: 0 debug, 1 info, 2 warn, 3 error.
type Level int32

// The log levels of ABI v1.
const (
	LevelDebug Level = 0
	LevelInfo  Level = 1
	LevelWarn  Level = 2
	LevelError Level = 3
)

func (l Level) String() string {
	switch l {
	case LevelDebug:
		return "debug"
	case LevelInfo:
		return "info"
	case LevelWarn:
		return "warn"
	default:
		return "error"
	}
}

// LogEntry is one line a probe logged.
type LogEntry struct {
	Level   Level
	Message string
}

// Denial is one request a probe's grants refused.
type Denial struct {
	// Kind is what was asked for: "env", "dial" (gate.dial and
	// gate.connect), "import", "http", "secret" or "insecure"; or, for a
	// secret, "echo" (a destination handed its value back: what came was
	// withheld and the run cut off) or "spent" (refused because one did,
	// until the probe is loaded again).
	Kind string `json:"kind"`
	// Request is the variable, address or import spec, as the probe
	// wrote it.
	Request string `json:"request"`
	// To is, for a secret granted to the probe but not bound to where it
	// was to be sent, that destination; "" otherwise.
	To string `json:"to,omitempty"`
	// Probe is the probe's name.
	Probe string `json:"-"`
}

// String is the denial as a sentence, such as
// `env "AWS_SECRET" not granted to probe "cloud_deploy"` or
// `secret "REDIS_PASSWORD" not granted to probe "cache" for "127.0.0.1:6380"`
// or `secret "REDIS_PASSWORD" came back to probe "cache" from "127.0.0.1:6380"`.
func (d Denial) String() string {
	switch d.Kind {
	case "echo":
		return fmt.Sprintf("secret %q came back to probe %q from %q", d.Request, d.Probe, d.To)
	case "spent":
		return fmt.Sprintf("secret %q is spent for probe %q (a destination handed its value back) and not sent to %q", d.Request, d.Probe, d.To)
	}
	if d.To != "" {
		return fmt.Sprintf("%s %q not granted to probe %q for %q", d.Kind, d.Request, d.Probe, d.To)
	}
	return fmt.Sprintf("%s %q not granted to probe %q", d.Kind, d.Request, d.Probe)
}
