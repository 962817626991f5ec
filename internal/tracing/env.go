package tracing

import (
	"fmt"
	"strings"
)

// Enabled says whether the OTEL_* variables ask for traces: an OTLP
// endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or OTEL_TRACES_EXPORTER is "otlp"
// (then to the default endpoint, http://localhost:4318), and neither
// OTEL_SDK_DISABLED is "true" nor OTEL_TRACES_EXPORTER "none". No variable
// set is off. An exporter or a protocol gate does not speak is an error
// that names its variable: asked for traces, an operator is told why none
// come rather than getting none.
func Enabled(getenv func(string) string) (bool, error) {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return false, nil
	}
	exporter := strings.ToLower(strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")))
	switch exporter {
	case "none":
		return false, nil
	case "", "otlp":
	default:
		return false, fmt.Errorf("OTEL_TRACES_EXPORTER=%q: gate exports traces over otlp, or none", exporter)
	}
	endpoint := getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != ""
	if !endpoint && exporter == "" {
		return false, nil
	}
	// The signal's own variable wins over the general one, as the
	// exporter reads them.
	key := "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
	protocol := strings.TrimSpace(getenv(key))
	if protocol == "" {
		key = "OTEL_EXPORTER_OTLP_PROTOCOL"
		protocol = strings.TrimSpace(getenv(key))
	}
	if protocol != "" && protocol != "http/protobuf" {
		return false, fmt.Errorf("%s=%q: gate exports traces over http/protobuf only", key, protocol)
	}
	return true, nil
}
