// Package skillsview holds the views of skills that gatectl and its HTTP
// API print: the list of `gatectl skills --json` and /v1/skills (List),
// the report of `gatectl doctor skills --json [--requirements]` and
// /v1/diagnostics (Doctor) and its counts (Summary). They are built in one
// place so that a client moves between the CLI and the service without
// noticing; a host app that gates skills reads the skills package's
// Manager, Results and prompt instead.
package skillsview
