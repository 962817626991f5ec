package server

// Route returns path if it is one of the API's routes (docs/HTTP.md),
// else "": a name a span or a log may carry, since gate wrote it and the
// client only matched it.
func Route(path string) string {
	switch path {
	case "/v1/tools", "/v1/schema", "/v1/status", "/v1/skills", "/v1/skills/prompt", "/v1/diagnostics",
		"/v1/events", "/v1/refresh", "/healthz", "/readyz", "/metrics", "/mcp",
		"/", pageScriptPath, pageStylePath:
		return path
	}
	return ""
}
